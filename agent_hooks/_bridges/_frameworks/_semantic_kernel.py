"""The hook graph as Semantic Kernel filters (``kernel.add_filter``).

* ``AUTO_FUNCTION_INVOCATION`` filter: the whole hooked tool call around ``next`` for
  each function the model calls (``FunctionChoiceBehavior.Auto``). A refusal sets
  ``function_result`` to the reason and never calls ``next`` (the function never
  runs); ``updatedInput`` replaces the call's parameters in ``context.arguments``; a
  hook's replacement and hook context become the result the model reads.
* ``FUNCTION_INVOCATION`` filter: the same hooked call for a function the
  application invokes itself (``kernel.invoke``); a function the model called is
  hooked once, by the auto filter, and passes this filter untouched.
* :meth:`AgentHooksFilters.get_response`: UserPromptSubmit (and SessionStart's
  context, first time) before ``agent.get_response``, their context as a user
  message after the prompt; Stop after the answer, a block asks the agent again in
  the same thread with the feedback, within the continuation cap.
* ``continue: false`` raises :class:`AgentStopped` out of the filter, so out of the
  agent's call (Semantic Kernel's ``terminate`` would return the tool results as
  the answer instead).
* Tool names: the function's name without its plugin (``tools-shell`` is ``shell``,
  so ``Bash`` to the hooks); the tool input is the call's parsed arguments.
* Semantic Kernel turns an exception of a function the model called into an error
  text (its own handler): hooks see that text in PostToolUse, not PostToolUseFailure.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any

from semantic_kernel import Kernel
from semantic_kernel.filters import (
    AutoFunctionInvocationContext,
    FilterTypes,
    FunctionInvocationContext,
)
from semantic_kernel.functions import FunctionResult, KernelFunction

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._outcomes import ToolCallOutcome
from ..._dispatch._registry import HookRegistry
from ._run import HookedRun, RunScope, model_text

__all__ = ["AgentHooksFilters"]

_Next = Callable[[Any], Awaitable[None]]


def _tool_input(function: KernelFunction, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The function's own parameters out of ``arguments`` (which also carry the
    caller's kernel arguments)."""
    names = {p.name for p in function.parameters if p.name}
    return {k: v for k, v in arguments.items() if k in names}


def _model_value(outcome: ToolCallOutcome) -> Any:
    """What the model reads: the reason of a refusal, else the (possibly replaced)
    result, with hook context appended as text."""
    if not outcome.ran:
        return outcome.reason or "denied"
    if not outcome.context:
        return outcome.model_view
    return f"{model_text(outcome.model_view)}\n{outcome.context}"


class AgentHooksFilters:
    """Semantic Kernel filters that run an agent_hooks registry.

    ``AgentHooksFilters(registry, tool_aliases=..., permission=..., **session_options)``;
    :meth:`install` them on the kernel the agent uses (``agent.kernel``) and run the
    agent inside ``async with hooks.run(): await hooks.get_response(agent, prompt)``:
    one agent_hooks session per ``run()`` block (``agent.get_response`` itself works
    too, with tool calls hooked but without UserPromptSubmit and Stop).

    Failure: the filters raise ``RuntimeError`` outside ``run()``;
    :class:`AgentStopped` (``continue: false``) and :class:`PromptBlocked` propagate out
    of the agent's call; ask and defer go to the ``permission`` callback (refused
    without one).
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
            missing="AgentHooksFilters: invoke the agent inside `async with hooks.run():`",
        )
        self._in_auto_call: ContextVar[bool] = ContextVar(
            f"agent_hooks_semantic_kernel_auto_{id(self)}", default=False
        )

    def install(self, kernel: Kernel) -> Kernel:
        """Adds the two filters to ``kernel`` (returned)."""
        kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, self.auto_function_invocation)
        kernel.add_filter(FilterTypes.FUNCTION_INVOCATION, self.function_invocation)
        return kernel

    def run(self, **session_options: Any) -> contextlib.AbstractAsyncContextManager[HookedRun]:
        """One framework run: a session for every agent call inside the block
        (``session_options`` over the constructor's)."""
        return self._scope.open(**session_options)

    async def get_response(
        self, agent: Any, messages: str | None = None, *, thread: Any = None, **kwargs: Any
    ) -> Any:
        """``agent.get_response(messages, thread=..., **kwargs)`` with UserPromptSubmit
        before and Stop after (a block asks again with the feedback, same thread).
        Returns the last ``AgentResponseItem``."""
        hooked = self._scope.current()
        context = await hooked.submit(messages)
        prompt: list[str] | str | None = messages
        if context:
            prompt = [messages, context] if messages is not None else context
        response = await agent.get_response(prompt, thread=thread, **kwargs)
        while (feedback := await hooked.check_stop(str(response.message.content))) is not None:
            response = await agent.get_response(feedback, thread=response.thread, **kwargs)
        return response

    async def auto_function_invocation(
        self, context: AutoFunctionInvocationContext, next: _Next
    ) -> None:
        """The hooked call of a function the model asked for."""
        hooked = self._scope.current()
        call = context.function_call_content
        name = call.function_name if call is not None else context.function.name

        async def tool(tool_input: Mapping[str, Any]) -> Any:
            for key in _tool_input(context.function, context.arguments):
                del context.arguments[key]
            context.arguments.update(tool_input)
            token = self._in_auto_call.set(True)
            try:
                await next(context)
            finally:
                self._in_auto_call.reset(token)
            result = context.function_result
            return result.value if result is not None else None

        outcome = await hooked.call_tool(
            name,
            _tool_input(context.function, context.arguments),
            tool,
            tool_use_id=call.id if call is not None else None,
        )
        context.function_result = FunctionResult(
            function=context.function.metadata, value=_model_value(outcome)
        )

    async def function_invocation(self, context: FunctionInvocationContext, next: _Next) -> None:
        """The hooked call of a function the application invoked (a function the
        model called was hooked by :meth:`auto_function_invocation` already)."""
        if self._in_auto_call.get():
            await next(context)
            return
        hooked = self._scope.current()

        async def tool(tool_input: Mapping[str, Any]) -> Any:
            for key in _tool_input(context.function, context.arguments):
                del context.arguments[key]
            context.arguments.update(tool_input)
            await next(context)
            return context.result.value if context.result is not None else None

        outcome = await hooked.call_tool(
            context.function.name, _tool_input(context.function, context.arguments), tool
        )
        context.result = FunctionResult(
            function=context.function.metadata, value=_model_value(outcome)
        )
