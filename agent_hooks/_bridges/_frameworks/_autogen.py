"""The hook graph as an AutoGen (autogen-core) intervention handler.

A tool call in autogen-core is a ``FunctionCall`` message sent to a ``ToolAgent``;
its ``FunctionExecutionResult`` is the response. The handler's two hooks carry one
hooked tool call (the library's ``call_tool``) between them:

* ``on_send`` of a ``FunctionCall``: the hooked call runs as far as the tool
  (PreToolUse, PermissionRequest, the permission callback). A refused call is
  dropped (``DropMessage``: the tool agent never sees it, the tool never runs); an
  allowed call is sent on with its ``updatedInput`` as the ``arguments``.
* ``on_response`` of its ``FunctionExecutionResult``: PostToolUse; a replacement and
  hook context become the result's ``content``.
* :meth:`AutoGenHooks.caller_loop`, the counterpart of autogen-core's
  ``tool_agent_caller_loop``: UserPromptSubmit (and SessionStart's context) first, a
  dropped call answered with the hook's reason as an error result (autogen-core's
  loop would raise ``MessageDroppedException``), a tool's ``ToolException`` reported
  to PostToolUseFailure (autogen-core sends no response through the handler for
  it), and Stop on the final answer: a block adds the feedback as a user message and
  asks the model again, within the continuation cap.
* ``continue: false``: :class:`AgentStopped`, raised to the sender of the call.

The runtime runs intervention handlers in its own message loop, outside the
application's context, so the handler holds the open run itself: one ``run()`` at a
time per handler.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import attrs
from autogen_core import (
    AgentId,
    CancellationToken,
    DefaultInterventionHandler,
    DropMessage,
    FunctionCall,
    MessageContext,
)
from autogen_core.exceptions import MessageDroppedException
from autogen_core.models import (
    AssistantMessage,
    ChatCompletionClient,
    FunctionExecutionResult,
    FunctionExecutionResultMessage,
    LLMMessage,
    UserMessage,
)
from autogen_core.tool_agent import ToolException

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._outcomes import ToolCallOutcome
from ..._dispatch._registry import HookRegistry
from ._run import HookedRun, ToolErrorResult, model_text, with_tool_aliases

__all__ = ["AutoGenHooks"]


@attrs.define
class _Call:
    """A hooked call between ``on_send`` and ``on_response``."""

    task: asyncio.Task[ToolCallOutcome]
    result: asyncio.Future[Any]


@attrs.define
class _Run:
    hooked: HookedRun
    calls: dict[str, _Call] = attrs.Factory(dict)
    refused: dict[str, str] = attrs.Factory(dict)
    """The reasons of dropped calls, by call id, for :meth:`AutoGenHooks.caller_loop`."""


def _result_text(outcome: ToolCallOutcome, own: str) -> str | None:
    """The content the model should read instead of the tool's own (``own``), or
    ``None`` when it reads its own."""
    view = outcome.model_view
    if outcome.error is not None:
        default = f"Error: {type(outcome.error).__name__}: {outcome.error}"
        base = None if view == default else model_text(view)
    else:
        base = None if view is outcome.result else model_text(view)
    if not outcome.context:
        return base
    return f"{base if base is not None else own}\n{outcome.context}"


class AutoGenHooks(DefaultInterventionHandler):
    """An agent_hooks registry as an autogen-core ``InterventionHandler``.

    ``AutoGenHooks(registry, tool_aliases=..., permission=..., **session_options)``;
    pass it in ``SingleThreadedAgentRuntime(intervention_handlers=[hooks])`` and run
    the caller inside ``async with hooks.run(): await hooks.caller_loop(runtime,
    tool_agent_id, model_client, messages, tools)`` (autogen-core's
    ``tool_agent_caller_loop`` with the hooks): one agent_hooks session per ``run()``.

    Failure: outside ``run()`` a ``FunctionCall`` fails with ``RuntimeError`` (the
    tool does not run); :class:`AgentStopped` (``continue: false``) and
    :class:`PromptBlocked` propagate to the caller; ask and defer go to the
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
        self._active: _Run | None = None

    @contextlib.asynccontextmanager
    async def run(self, **session_options: Any) -> AsyncIterator[HookedRun]:
        """One framework run (``session_options`` over the constructor's).

        Raises:
            RuntimeError: a run of this handler is open already.
        """
        if self._active is not None:
            raise RuntimeError("AutoGenHooks: one run() at a time per handler")
        async with HookedRun(
            self._registry,
            tool_aliases=self._aliases,
            permission=self._permission,
            **{**self._session_options, **session_options},
        ) as hooked:
            run = self._active = _Run(hooked)
            try:
                yield hooked
            finally:
                self._active = None
                for call in run.calls.values():  # a call whose response never came
                    call.task.cancel()
                for call in run.calls.values():
                    with contextlib.suppress(BaseException):
                        await call.task

    def _run(self) -> _Run:
        if self._active is None:
            raise RuntimeError("AutoGenHooks: run the agents inside `async with hooks.run():`")
        return self._active

    async def on_send(
        self, message: Any, *, message_context: MessageContext, recipient: AgentId
    ) -> Any:
        """A ``FunctionCall``: dropped when refused, else sent with the input the
        hooks settled on. Other messages pass unchanged."""
        if not isinstance(message, FunctionCall):
            return message
        run = self._run()
        try:
            arguments = json.loads(message.arguments or "{}")
        except json.JSONDecodeError:
            return message  # the tool agent answers invalid arguments itself
        if not isinstance(arguments, dict):
            return message
        loop = asyncio.get_running_loop()
        entered: asyncio.Future[dict[str, Any]] = loop.create_future()
        result: asyncio.Future[Any] = loop.create_future()

        async def tool(tool_input: Mapping[str, Any]) -> Any:
            entered.set_result(dict(tool_input))
            return await result

        task = asyncio.ensure_future(
            run.hooked.call_tool(message.name, arguments, tool, tool_use_id=message.id)
        )
        waiting: set[asyncio.Future[Any]] = {task, entered}
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if not entered.done():
            outcome = task.result()  # refused (AgentStopped is raised here)
            run.refused[message.id] = outcome.reason or "denied by a hook"
            return DropMessage
        run.calls[message.id] = _Call(task, result)
        if entered.result() == arguments:
            return message
        return FunctionCall(id=message.id, arguments=json.dumps(entered.result()), name=message.name)

    async def on_response(
        self, message: Any, *, sender: AgentId, recipient: AgentId | None
    ) -> Any:
        """A ``FunctionExecutionResult`` of a hooked call: PostToolUse; the content the
        hooks settled on. Other messages pass unchanged."""
        if not isinstance(message, FunctionExecutionResult) or self._active is None:
            return message
        call = self._active.calls.pop(message.call_id, None)
        if call is None:
            return message
        if message.is_error:
            call.result.set_exception(ToolErrorResult(message.content, message.content))
        else:
            call.result.set_result(message.content)
        text = _result_text(await call.task, message.content)
        if text is None:
            return message
        return FunctionExecutionResult(
            content=text, call_id=message.call_id, is_error=message.is_error, name=message.name
        )

    async def _failed(self, run: _Run, error: ToolException) -> FunctionExecutionResult:
        """A tool agent's ``ToolException``: PostToolUseFailure for its call."""
        call = run.calls.pop(error.call_id, None)
        content = error.content
        if call is not None:
            call.result.set_exception(ToolErrorResult(error.content, error.content))
            content = _result_text(await call.task, error.content) or content
        return FunctionExecutionResult(
            content=content, call_id=error.call_id, is_error=True, name=error.name
        )

    async def caller_loop(
        self,
        caller: Any,
        tool_agent_id: AgentId,
        model_client: ChatCompletionClient,
        input_messages: list[LLMMessage],
        tool_schema: Sequence[Any],
        cancellation_token: CancellationToken | None = None,
        caller_source: str = "assistant",
    ) -> list[LLMMessage]:
        """autogen-core's ``tool_agent_caller_loop`` with the hooks: UserPromptSubmit
        first, refused calls answered with the reason, Stop on the final answer.
        Returns the messages the loop created (the prompt hooks' context first).

        Raises:
            PromptBlocked: a UserPromptSubmit hook blocked the prompt.
            AgentStopped: a hook answered ``continue: false``.
        """
        run = self._run()
        users = [m for m in input_messages if isinstance(m, UserMessage)]
        prompt = users[-1].content if users and isinstance(users[-1].content, str) else None
        generated: list[LLMMessage] = []
        context = await run.hooked.submit(prompt)
        if context:
            generated.append(UserMessage(content=context, source="user"))
        tools = list(tool_schema)
        while True:
            response = await model_client.create(
                input_messages + generated, tools=tools, cancellation_token=cancellation_token
            )
            generated.append(AssistantMessage(content=response.content, source=caller_source))
            content = response.content
            if isinstance(content, list) and all(isinstance(c, FunctionCall) for c in content):
                answers = await asyncio.gather(
                    *[
                        caller.send_message(
                            message=call, recipient=tool_agent_id, cancellation_token=cancellation_token
                        )
                        for call in content
                    ],
                    return_exceptions=True,
                )
                results: list[FunctionExecutionResult] = []
                for call, answer in zip(content, answers, strict=True):
                    if isinstance(answer, FunctionExecutionResult):
                        results.append(answer)
                    elif isinstance(answer, MessageDroppedException):
                        reason = run.refused.pop(call.id, None)
                        if reason is None:
                            raise answer  # dropped by another handler
                        results.append(
                            FunctionExecutionResult(
                                content=reason, call_id=call.id, is_error=True, name=call.name
                            )
                        )
                    elif isinstance(answer, ToolException):
                        results.append(await self._failed(run, answer))
                    elif isinstance(answer, BaseException):
                        raise answer
                generated.append(FunctionExecutionResultMessage(content=results))
                continue
            last = content if isinstance(content, str) else None
            feedback = await run.hooked.check_stop(last)
            if feedback is None:
                return generated
            generated.append(UserMessage(content=feedback, source="user"))
