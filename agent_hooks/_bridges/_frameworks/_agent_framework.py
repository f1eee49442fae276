"""The hook graph as Microsoft Agent Framework middleware (``Agent(middleware=[...])``).

* Function middleware: the whole hooked tool call around ``call_next``. A refusal
  sets ``context.result`` to the reason and never calls ``call_next`` (the tool never
  runs); ``updatedInput`` becomes ``context.arguments`` (the framework validates it
  before the tool runs); a hook's replacement is the result, hook context is added as
  a text item of it, so the model reads both.
* Agent middleware: UserPromptSubmit for the run's last user message (SessionStart's
  context first) with their context added as a user message; after ``call_next``,
  Stop on the answer: a block runs ``call_next`` again on the conversation so far plus
  the feedback, within the continuation cap.
* ``continue: false`` in a tool call: ``MiddlewareFailure`` (the framework's
  fail-closed escape: no further tool call starts), raised out of ``Agent.run`` as
  :class:`AgentStopped` by the agent middleware; other exceptions of function
  middleware the framework turns into error results.
* The framework's experimental AGENT-HOOKS-0.1 interceptors
  (``agent_framework._agent_hooks``) are a different contract and are not used.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from agent_framework import (
    AgentContext,
    AgentMiddleware,
    AgentResponse,
    Content,
    FunctionInvocationContext,
    FunctionMiddleware,
    Message,
    MiddlewareFailure,
)

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._outcomes import ToolCallOutcome
from ..._dispatch._registry import HookRegistry
from ._run import AgentStopped, HookedRun, RunScope, model_text

__all__ = ["AgentFrameworkHooks"]

_Next = Callable[[], Awaitable[None]]


class _Stopped(MiddlewareFailure):
    """``continue: false`` in a tool call, carried through the function-invocation loop
    (which absorbs every other exception of function middleware)."""

    def __init__(self, stopped: AgentStopped) -> None:
        super().__init__(stopped.reason)
        self.stopped = stopped


def _with_context(outcome: ToolCallOutcome) -> Any:
    """The tool result the model reads: the reason of a refusal, else the (possibly
    replaced) result with hook context as one more text item."""
    if not outcome.ran:
        return outcome.reason or "denied by a hook"
    view = outcome.model_view
    if not outcome.context:
        return view
    if isinstance(view, list) and all(isinstance(item, Content) for item in view):
        return [*view, Content.from_text(outcome.context)]
    return f"{model_text(view)}\n{outcome.context}"


def _last_user_text(messages: list[Message]) -> str | None:
    users = [m for m in messages if m.role == "user"]
    return users[-1].text if users else None


class AgentFrameworkHooks:
    """An agent_hooks registry as Microsoft Agent Framework middleware.

    ``AgentFrameworkHooks(registry, tool_aliases=..., permission=..., **session_options)``;
    pass ``hooks.middleware`` (an agent middleware and a function middleware) in
    ``Agent(..., middleware=[*hooks.middleware, ...])``, first, and run the agent inside
    ``async with hooks.run(): await agent.run(...)``: one agent_hooks session per
    ``run()`` block.

    Failure: the middleware raises ``RuntimeError`` outside ``run()`` (the function
    middleware's is the framework's error result; the tool does not run);
    :class:`AgentStopped` (``continue: false``) and :class:`PromptBlocked` propagate
    out of ``Agent.run``; ask and defer go to the ``permission`` callback (refused
    without one). Non-streaming runs: Stop continuation needs the whole answer.
    """

    def __init__(
        self,
        registry: HookRegistry,
        *,
        tool_aliases: Mapping[str, str] | None = None,
        permission: PermissionCallback | None = None,
        **session_options: Any,
    ) -> None:
        self._scope = RunScope(
            registry,
            tool_aliases=tool_aliases,
            permission=permission,
            session_options=session_options,
            missing="AgentFrameworkHooks: run the agent inside `async with hooks.run():`",
        )
        self.middleware: list[Any] = [_AgentHooksAgent(self), _AgentHooksFunction(self)]
        """The agent middleware and the function middleware, for ``Agent(middleware=...)``."""

    def run(self, **session_options: Any) -> contextlib.AbstractAsyncContextManager[HookedRun]:
        """One framework run: a session for every agent run inside the block
        (``session_options`` over the constructor's)."""
        return self._scope.open(**session_options)

    async def process_agent(self, context: AgentContext, call_next: _Next) -> None:
        """The agent middleware: UserPromptSubmit before the run, Stop after it."""
        hooked = self._scope.current()
        messages = list(context.messages)
        extra = await hooked.submit(_last_user_text(messages))
        if extra:
            context.messages = [*messages, Message(role="user", contents=[extra])]
        try:
            await call_next()
            while isinstance(result := context.result, AgentResponse):
                feedback = await hooked.check_stop(result.text)
                if feedback is None:
                    return
                context.messages = [
                    *context.messages,
                    *result.messages,
                    Message(role="user", contents=[feedback]),
                ]
                await call_next()
        except _Stopped as exc:
            raise exc.stopped from None

    async def process_function(self, context: FunctionInvocationContext, call_next: _Next) -> None:
        """The function middleware: the hooked tool call around ``call_next``."""
        hooked = self._scope.current()
        arguments = context.arguments
        tool_input = (
            dict(arguments) if isinstance(arguments, Mapping) else arguments.model_dump()
        )

        async def tool(new_input: Mapping[str, Any]) -> Any:
            if dict(new_input) != tool_input:
                context.arguments = dict(new_input)
            await call_next()
            return context.result

        try:
            outcome = await hooked.call_tool(context.function.name, tool_input, tool)
        except AgentStopped as exc:
            raise _Stopped(exc) from exc
        context.result = _with_context(outcome)


class _AgentHooksAgent(AgentMiddleware):
    def __init__(self, hooks: AgentFrameworkHooks) -> None:
        self._hooks = hooks

    async def process(self, context: AgentContext, call_next: _Next) -> None:
        await self._hooks.process_agent(context, call_next)


class _AgentHooksFunction(FunctionMiddleware):
    def __init__(self, hooks: AgentFrameworkHooks) -> None:
        self._hooks = hooks

    async def process(self, context: FunctionInvocationContext, call_next: _Next) -> None:
        await self._hooks.process_function(context, call_next)
