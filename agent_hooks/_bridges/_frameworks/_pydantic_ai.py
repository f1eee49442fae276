"""The hook graph as a PydanticAI capability (``Agent(..., capabilities=[...])``).

Mapping:

* ``wrap_run``: one agent_hooks session per agent run (SessionStart when the run
  starts, SessionEnd when it ends, whatever ended it), then UserPromptSubmit for the
  run's prompt. Their context is the capability's dynamic instructions for the run's
  model requests. A blocked prompt raises :class:`PromptBlocked` and the model is not
  called.
* ``wrap_tool_execute``: the whole hooked tool call around the validated arguments. A
  refusal raises PydanticAI's ``ToolFailed`` with the reason (the model sees a failed
  tool result; the tool never runs, no retry budget is spent); a rewritten input is
  what the tool function gets (after PydanticAI validated the model's arguments: the
  rewrite itself is not validated again); a hook's replacement is the tool result, and
  hook context goes to the model with it (``ToolReturn.content``).
* ``after_model_request``: after a final text answer (a response without tool calls),
  Stop; a block raises ``ModelRetry`` with the feedback, so the model answers again.
  These continuations count against the agent's output retry budget
  (``output_retries``, default 1): raise it to allow more.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Mapping
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.capabilities.abstract import WrapRunHandler, WrapToolExecuteHandler
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ModelRetry, ToolFailed
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturn
from pydantic_ai.models import ModelRequestContext
from pydantic_ai.run import AgentRunResult
from pydantic_ai.tools import ToolDefinition

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._outcomes import PermissionAnswer, PermissionPrompt
from ..._dispatch._registry import HookRegistry
from ._run import HookedRun, with_tool_aliases

__all__ = ["AgentHooksCapability"]


def _prompt_text(prompt: Any) -> str | None:
    if prompt is None or isinstance(prompt, str):
        return prompt
    texts = [p for p in prompt if isinstance(p, str)]
    return "\n".join(texts) if texts else None


@dataclasses.dataclass(init=False)
class AgentHooksCapability(AbstractCapability[Any]):
    """A PydanticAI capability that runs an agent_hooks registry.

    ``AgentHooksCapability(registry, tool_aliases=..., permission=..., **session_options)``;
    pass it in ``Agent(..., capabilities=[hooks])``. Each agent run gets its own
    agent_hooks session (``session_options`` are :meth:`HookRegistry.session`'s). The
    ``permission`` callback decides PreToolUse ask/defer; it may raise PydanticAI's
    ``ApprovalRequired`` or ``CallDeferred`` to defer the call through PydanticAI's
    deferred tools (the tool does not run). ``approval=True`` does that for every
    ask/defer: the run ends with ``DeferredToolRequests`` (give the agent an
    ``output_type`` that includes it), and the next run with the application's
    ``DeferredToolResults`` runs the approved calls (their PreToolUse hooks run again).

    Failure: :class:`AgentStopped` (``continue: false``) and :class:`PromptBlocked`
    propagate out of ``agent.run``; an exception the tool raises (``ModelRetry``
    included) is reported to PostToolUseFailure and propagates as PydanticAI handles
    it. Output tools (structured output) are not tool calls of the graph, and a final
    answer given through them is not checked by Stop.
    """

    registry: HookRegistry
    tool_aliases: Mapping[str, str] | None
    permission: PermissionCallback | None
    approval: bool
    session_options: dict[str, Any]
    _run: HookedRun | None
    _context: str | None

    def __init__(
        self,
        registry: HookRegistry,
        *,
        tool_aliases: Mapping[str, str] | None = None,
        permission: PermissionCallback | None = None,
        approval: bool = False,
        **session_options: Any,
    ) -> None:
        self.registry = with_tool_aliases(registry, tool_aliases)  # compiled once
        self.tool_aliases = tool_aliases
        self.permission = permission
        self.approval = approval
        self.session_options = session_options
        self._run = None
        self._context = None

    async def for_run(self, ctx: RunContext[Any]) -> AgentHooksCapability:
        """A fresh copy per run: each run has its own session."""
        return AgentHooksCapability(
            self.registry,
            tool_aliases=self.tool_aliases,
            permission=self.permission,
            approval=self.approval,
            **self.session_options,
        )

    def get_instructions(self) -> Any:
        """The SessionStart and UserPromptSubmit context of this run, for every model
        request of the run (dynamic instructions)."""
        return self._instructions

    def _instructions(self, ctx: RunContext[Any]) -> str:
        return self._context or ""

    def _approval(self, ctx: RunContext[Any]) -> PermissionCallback:
        """The permission callback of ``approval=True``: ask/defer defer the call
        through PydanticAI's ``ApprovalRequired`` unless this call was approved; anything
        else goes to the application's callback, if any."""
        app = self.permission

        async def permission(prompt: PermissionPrompt) -> PermissionAnswer | bool:
            if prompt.hook_decision in ("ask", "defer"):
                if ctx.tool_call_approved:
                    return True
                raise ApprovalRequired(
                    metadata={"reason": prompt.reason, "hook_decision": prompt.hook_decision}
                )
            if app is None:
                return True
            answer = app(prompt)
            return await answer if inspect.isawaitable(answer) else answer

        return permission

    def _hooked(self) -> HookedRun:
        if self._run is None:
            raise RuntimeError("AgentHooksCapability: no agent_hooks session for this run")
        return self._run

    async def wrap_run(
        self, ctx: RunContext[Any], *, handler: WrapRunHandler
    ) -> AgentRunResult[Any]:
        """The run inside one agent_hooks session."""
        options = dict(self.session_options)
        if "session_id" not in options and ctx.run_id:
            options["session_id"] = ctx.run_id
        async with HookedRun(
            self.registry,
            tool_aliases=self.tool_aliases,
            permission=self.permission,
            control_flow=(ApprovalRequired, CallDeferred),
            **options,
        ) as hooked:
            self._run = hooked
            try:
                self._context = await hooked.submit(_prompt_text(ctx.prompt))
                return await handler()
            finally:
                self._run = None

    async def wrap_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: dict[str, Any],
        handler: WrapToolExecuteHandler,
    ) -> Any:
        """The hooked tool call around PydanticAI's tool execution."""

        async def tool(tool_input: Mapping[str, Any]) -> Any:
            return await handler(dict(tool_input))

        outcome = await self._hooked().call_tool(
            call.tool_name,
            args,
            tool,
            tool_use_id=call.tool_call_id,
            permission=self._approval(ctx) if self.approval else None,
        )
        if not outcome.ran:
            raise ToolFailed(outcome.reason or "denied")
        view = outcome.model_view
        if outcome.context:
            if isinstance(view, ToolReturn):
                extra = view.content
                return dataclasses.replace(
                    view,
                    content=[
                        *([extra] if isinstance(extra, str) else extra or []),
                        outcome.context,
                    ],
                )
            return ToolReturn(return_value=view, content=outcome.context)
        return view

    async def after_model_request(
        self,
        ctx: RunContext[Any],
        *,
        request_context: ModelRequestContext,
        response: ModelResponse,
    ) -> ModelResponse:
        """Stop after a final text answer; a block asks the model to answer again."""
        if any(isinstance(p, ToolCallPart) for p in response.parts):
            return response
        text = "".join(p.content for p in response.parts if isinstance(p, TextPart))
        feedback = await self._hooked().check_stop(text)
        if feedback is not None:
            raise ModelRetry(feedback)
        return response
