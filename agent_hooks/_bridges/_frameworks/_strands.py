"""The hook graph as a Strands Agents plugin (``Agent(plugins=[...])``).

* ``BeforeInvocationEvent`` (a hook): UserPromptSubmit for the invocation's last user
  message; SessionStart (first invocation of the run) and prompt context are added to
  that message as a text block. A blocked prompt raises :class:`PromptBlocked`.
* ``ExecuteToolStage`` (a Wrap middleware): the whole hooked tool call around
  ``next_fn``. A refusal yields an error ``ToolResultEvent`` with the reason and never
  calls ``next_fn``; ``updatedInput`` is the ``tool_use`` input ``next_fn`` gets; a
  hook's replacement and hook context become the result's text. The tool's own
  stream events are passed on after the call, not as they happen.
* ``AfterInvocationEvent`` (a hook): Stop after an ``end_turn`` result; a block sets
  ``resume`` to the feedback, which Strands runs as a new invocation (its
  BeforeInvocationEvent does not dispatch UserPromptSubmit: the feedback is not a
  user prompt).
* ``continue: false``: Strands turns an exception of tool middleware into an error
  result, so a stop met in a tool call is that call's error result, ends the tool
  batch (``AfterToolsEvent.end_turn``) and is raised as :class:`AgentStopped` from
  ``AfterInvocationEvent``.
* SessionEnd: when the ``async with plugin.run()`` block ends.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from contextvars import ContextVar
from typing import Any

import attrs
from strands import Agent
from strands.hooks import AfterInvocationEvent, AfterToolsEvent, BeforeInvocationEvent
from strands.interrupt import InterruptException
from strands.middleware import ExecuteToolContext, ExecuteToolStage, MiddlewareNext
from strands.plugins import Plugin
from strands.types.events import ToolResultEvent, TypedEvent
from strands.types.tools import ToolResult, ToolResultContent

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._outcomes import PermissionAnswer, PermissionPrompt
from ..._dispatch._registry import HookRegistry
from ._run import (
    AgentStopped,
    HookedRun,
    ToolErrorResult,
    ask_payload,
    model_text,
    permission_answer,
    with_tool_aliases,
)

__all__ = ["AgentHooksPlugin"]


@attrs.define
class _Run:
    hooked: HookedRun
    resuming: bool = False
    stopped: AgentStopped | None = None
    """A ``continue: false`` met in a tool call (Strands turns exceptions of tool
    middleware into error results): the batch ends the turn, then the run raises it."""


def _error(tool_use_id: str, text: str) -> ToolResult:
    return {"toolUseId": tool_use_id, "status": "error", "content": [{"text": text}]}


def _result_text(result: ToolResult) -> str:
    return "".join(str(c.get("text", "")) for c in result.get("content", []) if "text" in c)


def _message_text(message: Mapping[str, Any]) -> str:
    return "".join(str(c.get("text", "")) for c in message.get("content", []) if "text" in c)


class AgentHooksPlugin(Plugin):
    """A Strands Agents plugin that runs an agent_hooks registry.

    ``AgentHooksPlugin(registry, tool_aliases=..., permission=..., **session_options)``;
    pass it in ``Agent(..., plugins=[hooks])`` and invoke the agent inside
    ``async with hooks.run(): await agent.invoke_async(...)``: one agent_hooks session
    per ``run()`` block. ``interrupt_on_ask=True`` hands PreToolUse ask/defer to a
    person through Strands' interrupts: the invocation ends with an interrupt named
    ``agent_hooks.permission`` whose reason is ``{"tool_name", "tool_input",
    "tool_use_id", "reason", "hook_decision"}``; resume it with ``True`` / ``False`` /
    ``{"allow": ..., "message": ..., "updated_input": {...}}`` (the tool's PreToolUse
    hooks run again first).

    Failure: the hooks raise ``RuntimeError`` outside ``run()``; :class:`AgentStopped`
    (``continue: false``) and :class:`PromptBlocked` propagate out of the invocation;
    an exception the tool raises is reported to PostToolUseFailure and propagates as
    Strands lets it.
    """

    name = "agent-hooks"

    def __init__(
        self,
        registry: HookRegistry,
        *,
        tool_aliases: Mapping[str, str] | None = None,
        permission: PermissionCallback | None = None,
        interrupt_on_ask: bool = False,
        **session_options: Any,
    ) -> None:
        super().__init__()
        self._interrupt_on_ask = interrupt_on_ask
        self._registry = with_tool_aliases(registry, tool_aliases)  # compiled once
        self._aliases = tool_aliases
        self._permission = permission
        self._session_options = session_options
        self._current: ContextVar[_Run | None] = ContextVar(
            f"agent_hooks_strands_run_{id(self)}", default=None
        )

    def init_agent(self, agent: Agent) -> None:
        """Registers the hooks and the tool middleware on ``agent``."""
        agent.add_hook(self._before_invocation, BeforeInvocationEvent)
        agent.add_hook(self._after_tools, AfterToolsEvent)
        agent.add_hook(self._after_invocation, AfterInvocationEvent)
        agent.add_middleware(ExecuteToolStage, self._wrap_tool)

    @contextlib.asynccontextmanager
    async def run(self, **session_options: Any) -> AsyncIterator[HookedRun]:
        """One framework run: a session for every invocation inside the block
        (``session_options`` over the constructor's)."""
        async with HookedRun(
            self._registry,
            tool_aliases=self._aliases,
            permission=self._permission,
            control_flow=(InterruptException,),  # context.interrupt() when asking
            **{**self._session_options, **session_options},
        ) as hooked:
            token = self._current.set(_Run(hooked))
            try:
                yield hooked
            finally:
                self._current.reset(token)

    def _run(self) -> _Run:
        run = self._current.get()
        if run is None:
            raise RuntimeError(
                "AgentHooksPlugin: invoke the agent inside `async with plugin.run():`"
            )
        return run

    async def _before_invocation(self, event: BeforeInvocationEvent) -> None:
        run = self._run()
        messages = list(event.messages or [])
        last = messages[-1] if messages and messages[-1].get("role") == "user" else None
        prompt = None if run.resuming or last is None else (_message_text(last) or None)
        run.resuming = False
        context = await run.hooked.submit(prompt)
        if context and last is not None:
            messages[-1] = {**last, "content": [*last.get("content", []), {"text": context}]}
            event.messages = messages

    async def _after_tools(self, event: AfterToolsEvent) -> None:
        stopped = self._run().stopped
        if stopped is not None:
            event.end_turn = stopped.reason or True

    async def _after_invocation(self, event: AfterInvocationEvent) -> None:
        run = self._run()
        if run.stopped is not None:
            stopped, run.stopped = run.stopped, None
            raise stopped
        result = event.result
        if result is None or result.stop_reason != "end_turn":
            return
        feedback = await run.hooked.check_stop(_message_text(result.message))
        if feedback is not None:
            run.resuming = True
            event.resume = feedback

    def _interrupting(self, context: ExecuteToolContext) -> PermissionCallback:
        """The permission callback of ``interrupt_on_ask=True``: ask/defer interrupt the
        agent (``ExecuteToolContext.interrupt``); the resumed call reads the person's
        answer; anything else goes to the application's callback, if any."""
        app = self._permission

        async def permission(prompt: PermissionPrompt) -> PermissionAnswer | bool:
            if prompt.hook_decision in ("ask", "defer"):
                asked = context.interrupt("agent_hooks.permission", reason=ask_payload(prompt))
                return permission_answer(asked.response)
            if app is None:
                return True
            answer = app(prompt)
            return await answer if inspect.isawaitable(answer) else answer

        return permission

    async def _wrap_tool(
        self,
        context: ExecuteToolContext,
        next_fn: MiddlewareNext[ExecuteToolContext, TypedEvent],
    ) -> AsyncGenerator[TypedEvent, None]:
        run = self._run()
        tool_use = context.tool_use
        events: list[TypedEvent] = []
        final: list[ToolResultEvent] = []

        async def tool(tool_input: Mapping[str, Any]) -> Any:
            replaced = context.replace(tool_use={**tool_use, "input": dict(tool_input)})
            stream = next_fn(replaced)
            async with contextlib.aclosing(stream):
                async for event in stream:
                    if isinstance(event, ToolResultEvent):
                        final.append(event)
                    else:
                        events.append(event)
            if not final:
                raise RuntimeError(f"the tool {tool_use['name']!r} produced no result")
            result: ToolResult = final[-1].tool_result
            if result.get("status") == "error":
                raise ToolErrorResult(_result_text(result), result)
            return _result_text(result)

        try:
            outcome = await run.hooked.call_tool(
                tool_use["name"],
                tool_use.get("input") or {},
                tool,
                tool_use_id=tool_use["toolUseId"],
                permission=self._interrupting(context) if self._interrupt_on_ask else None,
            )
        except AgentStopped as exc:
            run.stopped = run.stopped or exc
            for event in events:
                yield event
            yield ToolResultEvent(_error(tool_use["toolUseId"], exc.reason))
            return
        for event in events:
            yield event
        if not outcome.ran:
            yield ToolResultEvent(_error(tool_use["toolUseId"], outcome.reason or "denied"))
            return
        original = final[-1]
        text: str | None = None
        if outcome.error is not None:
            if outcome.model_view != f"Error: {type(outcome.error).__name__}: {outcome.error}":
                text = model_text(outcome.model_view)
        elif outcome.model_view is not outcome.result:
            text = model_text(outcome.model_view)
        if text is None and not outcome.context:
            yield original
            return
        result = original.tool_result
        content: list[ToolResultContent] = (
            [{"text": text}] if text is not None else list(result.get("content", []))
        )
        if outcome.context:
            content.append({"text": outcome.context})
        changed = ToolResult(
            toolUseId=result["toolUseId"], status=result["status"], content=content
        )
        yield ToolResultEvent(changed, original.exception)
