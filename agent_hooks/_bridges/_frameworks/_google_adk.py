"""The hook graph in a Google ADK run (``google.adk.runners.Runner``).

* ``before_tool_callback`` (an agent callback): the whole hooked tool call. ADK skips
  its own execution of a tool whose before-callback returned a response, so the
  callback runs the tool itself (its public ``BaseTool.run_async``) inside the
  library's hooked tool call and returns the response: a refusal is
  ``{"error": reason}`` and the tool never runs; ``updatedInput`` is what the tool
  gets; a hook's replacement is the response, and hook context is added to it
  (``"additional_context"``). Because ADK does not run the tool, its confirmation gate
  (``require_confirmation``) and ``on_tool_error_callback`` do not apply to hooked
  tools; an exception the tool raises goes to PostToolUseFailure and then propagates
  out of the run.
* The run (:meth:`AdkHooks.run`): one agent_hooks session per call (SessionStart,
  UserPromptSubmit for the message's text, their context added to the message as a
  text part, SessionEnd when the call ends), and Stop after the final response: a
  block runs the agent again in the same ADK session with the feedback as the next
  user message (``after_agent_callback`` can replace the agent's answer but cannot
  make it go on).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

from google.adk.events import Event
from google.adk.runners import Runner
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._registry import HookRegistry
from ._run import HookedRun, with_tool_aliases

__all__ = ["AdkHooks"]


def _text(content: types.Content | None) -> str:
    if content is None or not content.parts:
        return ""
    return "".join(p.text for p in content.parts if p.text and not p.thought)


class AdkHooks:
    """An agent_hooks registry for Google ADK agents.

    ``hooks = AdkHooks(registry, tool_aliases=..., permission=..., **session_options)``;
    give each agent ``before_tool_callback=hooks.before_tool_callback`` and run it with
    ``events = await hooks.run(runner, user_id=..., session_id=..., new_message=...)``
    (``Runner.run_async``'s arguments; the events are collected and returned).

    Failure: :class:`AgentStopped` (``continue: false``) and :class:`PromptBlocked`
    propagate out of :meth:`run`; ``before_tool_callback`` raises ``RuntimeError``
    outside :meth:`run`.
    """

    def __init__(
        self,
        registry: HookRegistry,
        *,
        tool_aliases: Mapping[str, str] | None = None,
        permission: PermissionCallback | None = None,
        **session_options: Any,
    ) -> None:
        self.registry: HookRegistry = with_tool_aliases(registry, tool_aliases)  # compiled once
        self.tool_aliases = tool_aliases
        self.permission = permission
        self.session_options = session_options
        self._current: ContextVar[HookedRun | None] = ContextVar(
            f"agent_hooks_adk_run_{id(self)}", default=None
        )

    async def before_tool_callback(
        self, tool: BaseTool, args: dict[str, Any], tool_context: ToolContext
    ) -> dict[str, Any] | None:
        """The hooked tool call; returns the response ADK gives the model."""
        hooked = self._current.get()
        if hooked is None:
            raise RuntimeError("AdkHooks: run the agent through `await hooks.run(runner, ...)`")

        async def call(tool_input: Mapping[str, Any]) -> Any:
            return await tool.run_async(args=dict(tool_input), tool_context=tool_context)

        outcome = await hooked.call_tool(
            tool.name, args, call, tool_use_id=tool_context.function_call_id
        )
        if not outcome.ran:
            return {"error": outcome.reason or "denied"}
        view = outcome.model_view
        response: dict[str, Any] = dict(view) if isinstance(view, Mapping) else {"result": view}
        if outcome.context:
            response["additional_context"] = outcome.context
        return response

    async def run(
        self,
        runner: Runner,
        *,
        user_id: str,
        session_id: str,
        new_message: types.Content,
        **run_options: Any,
    ) -> list[Event]:
        """``runner.run_async(...)`` with the hooks, its events collected (see the class)."""
        options = {"session_id": session_id, **self.session_options}
        async with HookedRun(
            self.registry, tool_aliases=self.tool_aliases, permission=self.permission, **options
        ) as hooked:
            token = self._current.set(hooked)
            try:
                return await self._run(
                    hooked, runner, user_id, session_id, new_message, run_options
                )
            finally:
                self._current.reset(token)

    async def _run(
        self,
        hooked: HookedRun,
        runner: Runner,
        user_id: str,
        session_id: str,
        message: types.Content,
        run_options: dict[str, Any],
    ) -> list[Event]:
        context = await hooked.submit(_text(message) or None)
        if context:
            message = types.Content(
                role=message.role or "user",
                parts=[*(message.parts or []), types.Part(text=context)],
            )
        events: list[Event] = []
        while True:
            final = ""
            stream = runner.run_async(
                user_id=user_id, session_id=session_id, new_message=message, **run_options
            )
            async with contextlib.aclosing(stream):
                async for event in stream:
                    events.append(event)
                    if event.is_final_response():
                        final = _text(event.content)
            feedback = await hooked.check_stop(final)
            if feedback is None:
                return events
            message = types.Content(role="user", parts=[types.Part(text=feedback)])
