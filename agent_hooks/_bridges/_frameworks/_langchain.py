"""The hook graph as a LangChain 1.x ``AgentMiddleware`` (``create_agent``, Deep Agents).

Mapping (async hooks only: run the agent with ``ainvoke``/``astream``):

* ``abefore_agent``: UserPromptSubmit for the last human message; SessionStart context
  (first invocation of the run) and the prompt hooks' context are added after it as
  one human message. A block raises :class:`PromptBlocked` before the model runs.
* ``awrap_tool_call``: the whole hooked tool call (ToolInputTransform, PreToolUse,
  PermissionRequest, the permission callback, the tool, PostToolUse or
  PostToolUseFailure, ToolResponseTransform). A refusal returns an error
  ``ToolMessage`` with the reason and never calls the tool; a rewritten input is the
  call's ``args``; what hooks replace or add becomes the ``ToolMessage``'s content.
* ``aafter_model``: on a final answer (an ``AIMessage`` without tool calls), Stop; a
  block adds the feedback as a human message and jumps back to the model.
* SessionEnd: when the ``async with middleware.run()`` block ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from langchain.agents.middleware import (
    AgentMiddleware,
    AgentState,
    ToolCallRequest,
    hook_config,
)
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.errors import GraphBubbleUp
from langgraph.runtime import Runtime
from langgraph.types import Command, interrupt

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._outcomes import PermissionAnswer, PermissionPrompt
from ..._dispatch._registry import HookRegistry
from ._run import (
    HookedRun,
    RunScope,
    ToolErrorResult,
    ask_payload,
    model_text,
    permission_answer,
)

__all__ = ["AgentHooksMiddleware", "interrupt_permission"]


def _text(content: Any) -> str:
    """The text of a message's content (a string, or a list of content blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            b if isinstance(b, str) else str(b.get("text", ""))
            for b in content
            if isinstance(b, str) or (isinstance(b, dict) and b.get("type") == "text")
        ]
        return "".join(parts)
    return model_text(content)


def _with_context(content: Any, context: str | None) -> Any:
    """Message content with ``context`` appended (a text block for block lists)."""
    if not context:
        return content
    if isinstance(content, list):
        return [*content, {"type": "text", "text": context}]
    text = content if isinstance(content, str) else model_text(content)
    return f"{text}\n\n{context}" if text else context


def interrupt_permission(prompt: PermissionPrompt) -> PermissionAnswer | bool:
    """A permission callback that asks through LangGraph's ``interrupt`` when a hook
    said ask or defer (the graph needs a checkpointer; resume it with
    ``Command(resume=True)`` / ``False`` / ``{"allow": ..., "message": ...,
    "updated_input": {...}}``). Other calls are allowed as the hooks left them.

    The interrupt value is ``{"tool_name", "tool_input", "tool_use_id", "reason",
    "hook_decision"}``. On resume LangGraph runs the tool node again, so the tool's
    PreToolUse hooks run again before the answer is read.
    """
    if prompt.hook_decision not in ("ask", "defer"):
        return True
    return permission_answer(interrupt(ask_payload(prompt)))


class AgentHooksMiddleware(AgentMiddleware[AgentState[Any], Any, Any]):
    """LangChain agent middleware that runs an agent_hooks registry.

    ``AgentHooksMiddleware(registry, tool_aliases=..., permission=..., **session_options)``;
    pass it in ``create_agent(..., middleware=[mw])`` (or ``create_deep_agent``) and run
    the agent inside ``async with mw.run(): await agent.ainvoke(...)``: one agent_hooks
    session per ``run()`` block (SessionStart on entry, SessionEnd on exit).

    ``permission`` is the application's permission callback (``ask``/``defer``, and a
    veto over hook allows); :func:`interrupt_permission` hands ask/defer to LangGraph's
    ``interrupt``. Other arguments: as :class:`HookedRun`.

    Failure: the hooks' calls raise ``RuntimeError`` outside ``run()``;
    :class:`AgentStopped` (``continue: false``) and :class:`PromptBlocked` propagate out
    of ``ainvoke``; an exception the tool raises is reported to PostToolUseFailure and
    propagates as LangChain's ``ToolNode`` would let it. Synchronous ``invoke`` is not
    supported (LangChain raises ``NotImplementedError``).
    """

    def __init__(
        self,
        registry: HookRegistry,
        *,
        tool_aliases: Mapping[str, str] | None = None,
        permission: PermissionCallback | None = None,
        **session_options: Any,
    ) -> None:
        super().__init__()
        self._scope = RunScope(
            registry,
            tool_aliases=tool_aliases,
            permission=permission,
            session_options=session_options,
            missing="AgentHooksMiddleware: run the agent inside `async with middleware.run(): ...`",
            control_flow=(GraphBubbleUp,),  # interrupt() inside the permission callback
        )

    @property
    def name(self) -> str:
        return "AgentHooksMiddleware"

    def run(self, **session_options: Any) -> contextlib.AbstractAsyncContextManager[HookedRun]:
        """One framework run: a session for every agent invocation inside the block
        (``session_options`` over the constructor's)."""
        return self._scope.open(**session_options)

    async def abefore_agent(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """UserPromptSubmit for the last human message; context as a human message."""
        messages: list[AnyMessage] = list(state.get("messages", []))
        prompt = (
            _text(messages[-1].content)
            if messages and isinstance(messages[-1], HumanMessage)
            else None
        )
        context = await self._scope.current().submit(prompt)
        if not context:
            return None
        return {"messages": [HumanMessage(content=context)]}

    @hook_config(can_jump_to=["model"])
    async def aafter_model(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Stop after a final answer; a block sends the agent back to the model."""
        messages = state.get("messages", [])
        last = messages[-1] if messages else None
        if not isinstance(last, AIMessage) or last.tool_calls:
            return None
        feedback = await self._scope.current().check_stop(_text(last.content))
        if feedback is None:
            return None
        return {"messages": [HumanMessage(content=feedback)], "jump_to": "model"}

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """The hooked tool call around LangChain's tool execution."""
        call = request.tool_call
        name = call["name"]
        call_id = call.get("id")
        got: list[ToolMessage | Command[Any]] = []

        async def tool(tool_input: Mapping[str, Any]) -> Any:
            result = await handler(request.override(tool_call={**call, "args": dict(tool_input)}))
            got.append(result)
            if isinstance(result, ToolMessage):
                if result.status == "error":
                    raise ToolErrorResult(_text(result.content), result)
                return result.content
            return model_text(result)

        outcome = await self._scope.current().call_tool(name, call["args"], tool, tool_use_id=call_id)
        if not outcome.ran:
            return ToolMessage(
                content=outcome.reason or "denied",
                tool_call_id=call_id or "",
                name=name,
                status="error",
            )
        result = got[-1]
        if isinstance(result, Command):
            return result  # a tool's own graph command passes through unchanged
        content: Any = result.content
        if outcome.error is not None:
            if outcome.model_view != f"Error: {type(outcome.error).__name__}: {outcome.error}":
                content = model_text(outcome.model_view)  # PostToolUseFailure feedback
        elif outcome.model_view is not outcome.result:
            content = model_text(outcome.model_view)  # replaced by a hook
        content = _with_context(content, outcome.context)
        if content is result.content:
            return result
        return result.model_copy(update={"content": content})
