"""The hook graph as Haystack Agent hooks (``Agent(hooks=...)``, Haystack 3.x).

Haystack's hook points run before and after a step's tools, not around each tool, so
one hooked tool call (the library's ``call_tool``) spans two of them:

* ``before_run``: UserPromptSubmit for the last user message; SessionStart's context
  (first run) and the prompt hooks' context are added as a user message after it.
* ``before_tool``: each pending tool call starts its hooked call, which goes as far
  as running the tool (PreToolUse, PermissionRequest, the permission callback). A
  refused call is answered as Haystack's own confirmation hook answers a rejection:
  the call and an error tool result with the reason, placed before the remaining
  calls, so the tool never runs; an allowed call runs with its ``updatedInput``.
* ``after_tool``: each call's tool result finishes its hooked call (PostToolUse, or
  PostToolUseFailure for an error result); a replacement and hook context become the
  tool result the model reads next.
* ``on_exit`` (a text answer): Stop; a block adds the feedback as a user message and
  sets ``continue_run``, within the continuation cap.
* ``continue: false`` raises :class:`AgentStopped` out of the hook, so out of
  ``Agent.run_async``.

Async only (``Agent.run_async``): the hooks' synchronous ``run`` raises.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

import attrs
from haystack.components.agents.state.state import State
from haystack.components.agents.state.state_utils import replace_values
from haystack.dataclasses import ChatMessage, ChatRole, ToolCall

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._outcomes import ToolCallOutcome
from ..._dispatch._registry import HookRegistry
from ._run import HookedRun, ToolErrorResult, model_text, with_tool_aliases

__all__ = ["HaystackHooks"]


@attrs.define
class _Call:
    """A hooked call between ``before_tool`` and ``after_tool``: ``task`` runs
    ``call_tool``; its tool function reports the input it got (``entered``) and waits
    for the tool result Haystack produced (``result``)."""

    task: asyncio.Task[ToolCallOutcome]
    entered: asyncio.Future[dict[str, Any]]
    result: asyncio.Future[Any]


@attrs.define
class _Run:
    hooked: HookedRun
    calls: dict[str, _Call] = attrs.Factory(dict)


class _Hook:
    """One hook point's Haystack ``Hook`` (async only; not serialisable)."""

    def __init__(self, point: str, function: Callable[[State], Awaitable[None]]) -> None:
        self.point = point
        self._function = function

    def run(self, state: State) -> None:
        raise RuntimeError(
            f"agent_hooks.haystack hooks are async only ({self.point}): use Agent.run_async"
        )

    async def run_async(self, state: State) -> None:
        await self._function(state)

    def to_dict(self) -> dict[str, Any]:
        raise TypeError("agent_hooks.haystack hooks hold a live registry and are not serialisable")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> _Hook:
        raise TypeError("agent_hooks.haystack hooks are not serialisable")


def _messages(state: State) -> list[ChatMessage]:
    return list(state.data.get("messages") or [])


def _assistant(message: ChatMessage, tool_calls: list[ToolCall]) -> ChatMessage:
    return ChatMessage.from_assistant(
        text=message.text,
        meta=message.meta,
        name=message.name,
        tool_calls=tool_calls,
        reasoning=message.reasoning,
    )


def _model_text(outcome: ToolCallOutcome, own: str) -> str | None:
    """The tool result text the model should read instead of the tool's own
    (``own``), or ``None`` when it reads its own."""
    view = outcome.model_view
    if outcome.error is not None:
        default = f"Error: {type(outcome.error).__name__}: {outcome.error}"
        base = None if view == default else model_text(view)
    else:
        base = None if view is outcome.result else model_text(view)
    if not outcome.context:
        return base
    return f"{base if base is not None else own}\n{outcome.context}"


class HaystackHooks:
    """An agent_hooks registry as Haystack Agent hooks.

    ``HaystackHooks(registry, tool_aliases=..., permission=..., **session_options)``;
    pass ``hooks.hooks`` as ``Agent(..., hooks=hooks.hooks)`` (merge it with your own
    hooks per point) and run the agent inside ``async with hooks.run(): await
    agent.run_async(messages=[...])``: one agent_hooks session per ``run()`` block.

    Failure: the hooks raise ``RuntimeError`` outside ``run()`` and in a synchronous
    ``Agent.run``; :class:`AgentStopped` (``continue: false``) and
    :class:`PromptBlocked` propagate out of ``run_async``; ask and defer go to the
    ``permission`` callback (refused without one).
    """

    def __init__(
        self,
        registry: HookRegistry,
        *,
        tool_aliases: Mapping[str, str] | None = None,
        permission: PermissionCallback | None = None,
        **session_options: Any,
    ) -> None:
        self._registry = with_tool_aliases(registry, tool_aliases)  # compiled once
        self._aliases = tool_aliases
        self._permission = permission
        self._session_options = session_options
        self._current: ContextVar[_Run | None] = ContextVar(
            f"agent_hooks_haystack_run_{id(self)}", default=None
        )
        self.hooks: dict[str, list[Any]] = {
            "before_run": [_Hook("before_run", self._before_run)],
            "before_tool": [_Hook("before_tool", self._before_tool)],
            "after_tool": [_Hook("after_tool", self._after_tool)],
            "on_exit": [_Hook("on_exit", self._on_exit)],
        }
        """The hooks for ``Agent(hooks=...)``, by hook point."""

    @contextlib.asynccontextmanager
    async def run(self, **session_options: Any) -> AsyncIterator[HookedRun]:
        """One framework run: a session for every agent run inside the block
        (``session_options`` over the constructor's)."""
        async with HookedRun(
            self._registry,
            tool_aliases=self._aliases,
            permission=self._permission,
            **{**self._session_options, **session_options},
        ) as hooked:
            run = _Run(hooked)
            token = self._current.set(run)
            try:
                yield hooked
            finally:
                self._current.reset(token)
                for call in run.calls.values():  # a run that ended between the two hooks
                    call.task.cancel()
                for call in run.calls.values():
                    with contextlib.suppress(BaseException):
                        await call.task

    def _run(self) -> _Run:
        run = self._current.get()
        if run is None:
            raise RuntimeError(
                "HaystackHooks: run the agent inside `async with hooks.run():` (Agent.run_async)"
            )
        return run

    async def _before_run(self, state: State) -> None:
        run = self._run()
        users = [m for m in _messages(state) if m.is_from(ChatRole.USER)]
        context = await run.hooked.submit(users[-1].text if users else None)
        if context:
            state.set("messages", [ChatMessage.from_user(context)])

    async def _start(self, run: _Run, call: ToolCall) -> ToolCallOutcome | dict[str, Any]:
        """Starts ``call``'s hooked call: the input the tool gets, or the outcome of
        a refused call."""
        loop = asyncio.get_running_loop()
        entered: asyncio.Future[dict[str, Any]] = loop.create_future()
        result: asyncio.Future[Any] = loop.create_future()

        async def tool(tool_input: Mapping[str, Any]) -> Any:
            entered.set_result(dict(tool_input))
            return await result

        task = asyncio.ensure_future(
            run.hooked.call_tool(call.tool_name, dict(call.arguments), tool, tool_use_id=call.id)
        )
        waiting: set[asyncio.Future[Any]] = {task, entered}
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if not entered.done():
            return task.result()  # refused (or AgentStopped, raised here)
        run.calls[call.id or call.tool_name] = _Call(task, entered, result)
        return entered.result()

    async def _before_tool(self, state: State) -> None:
        run = self._run()
        messages = _messages(state)
        if not messages or not messages[-1].tool_calls:
            return
        pending = messages[-1]
        refused: list[ChatMessage] = []
        allowed: list[ToolCall] = []
        for call in pending.tool_calls:
            started = await self._start(run, call)
            if isinstance(started, ToolCallOutcome):
                reason = started.reason or "denied by a hook"
                refused += [
                    _assistant(pending, [call]),
                    ChatMessage.from_tool(tool_result=reason, origin=call, error=True),
                ]
            else:
                allowed.append(replace(call, arguments=started))
        if not refused and allowed == list(pending.tool_calls):
            return
        rest = [_assistant(pending, allowed)] if allowed else []
        state.set("messages", [*messages[:-1], *refused, *rest], handler_override=replace_values)

    async def _after_tool(self, state: State) -> None:
        run = self._run()
        messages = _messages(state)
        changed = False
        for index, message in enumerate(messages):
            result = message.tool_call_result
            if result is None:
                continue
            call = run.calls.pop(result.origin.id or result.origin.tool_name, None)
            if call is None:
                continue
            if result.error:
                call.result.set_exception(ToolErrorResult(model_text(result.result), result.result))
            else:
                call.result.set_result(result.result)
            text = _model_text(await call.task, model_text(result.result))
            if text is not None:
                messages[index] = ChatMessage.from_tool(
                    tool_result=text, origin=result.origin, error=result.error
                )
                changed = True
        if changed:
            state.set("messages", messages, handler_override=replace_values)

    async def _on_exit(self, state: State) -> None:
        if state.data.get("exit_reason") != "text":
            return
        run = self._run()
        messages = _messages(state)
        last = messages[-1].text if messages else None
        feedback = await run.hooked.check_stop(last)
        if feedback is not None:
            state.set("messages", [ChatMessage.from_user(feedback)])
            state.set("continue_run", True)
