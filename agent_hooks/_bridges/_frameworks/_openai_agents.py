"""The hook graph in an OpenAI Agents SDK run (``agents.Runner``).

The SDK's hook points cannot carry the whole mapping: tool input guardrails can only
allow, reject or raise (no input rewrite, no ask), tool output guardrails can only
replace the output, neither runs for a tool that raised, and ``RunHooks`` /
``AgentHooks`` only observe. So the adapter wraps each ``FunctionTool``'s public
``on_invoke_tool`` (on a ``copy.copy`` of the tool, as the SDK supports) with the
library's hooked tool call, and drives ``Runner.run`` itself for the run-level events:

* the run: one agent_hooks session (SessionStart, then UserPromptSubmit for a text
  input; their context is added as a user message; SessionEnd when the run ends);
* each ``FunctionTool`` call: ToolInputTransform, PreToolUse (a refusal is the tool's
  output, the reason, and the tool never runs; ``updatedInput`` is the JSON the tool
  gets), PermissionRequest and the permission callback, the tool, PostToolUse,
  ToolResponseTransform; hook context is appended to the output;
* the final output: Stop; a block runs the agent again on the conversation so far plus
  the feedback as a user message, bounded by the continuation cap;
* ``RunHooks`` (observational, composed with the application's own ``hooks=``):
  BeforeLLMCall before each model call (a block, or ``continue: false``, ends the run
  with :class:`AgentStopped`; its ``messages`` rewrite cannot be applied, the SDK's
  hook only observes), AfterLLMCall after it, OnAgentSwitch on a handoff.

Hosted tools (web search, file search, computer, MCP servers' tools) run at OpenAI
or inside the SDK without a Python invoker, and are not hooked. A ``FunctionTool``
made by ``function_tool`` turns the exceptions of its function into an error message
for the model (its ``failure_error_function``): hooks see that message as the tool's
response in PostToolUse, not PostToolUseFailure.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

from agents import (
    Agent,
    AgentHookContext,
    FunctionTool,
    ModelResponse,
    RunContextWrapper,
    RunHooks,
    Runner,
    RunResult,
    Tool,
)
from agents.exceptions import AgentsException
from agents.tool_context import ToolContext

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._registry import HookRegistry
from ..._events._agents._on_agent_switch import OnAgentSwitchInput
from ._run import AgentStopped, HookedRun, model_text, with_tool_aliases

__all__ = ["AgentHooksRunner"]


def _text_of(value: Any) -> str:
    return value if isinstance(value, str) else model_text(value)


class _Observer(RunHooks[Any]):
    """The run's ``RunHooks``: BeforeLLMCall (a block ends the run with
    :class:`AgentStopped`), AfterLLMCall and OnAgentSwitch (a handoff), then the
    application's own ``hooks=`` (``inner``), which see every callback as before."""

    def __init__(self, hooked: HookedRun, inner: RunHooks[Any] | None) -> None:
        self.hooked = hooked
        self.inner = inner if inner is not None else RunHooks[Any]()

    async def on_llm_start(
        self,
        context: RunContextWrapper[Any],
        agent: Agent[Any],
        system_prompt: str | None,
        input_items: list[Any],
    ) -> None:
        model = agent.model if isinstance(agent.model, str) else None
        turn = await self.hooked.session.before_llm_call(model_id=model)
        if turn.stop or turn.blocked:
            reason = turn.stop_reason or turn.reason or "a BeforeLLMCall hook stopped the run"
            raise AgentStopped(reason, event="BeforeLLMCall")
        await self.inner.on_llm_start(context, agent, system_prompt, input_items)

    async def on_llm_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], response: ModelResponse
    ) -> None:
        await self.hooked.session.after_llm_call(agent_name=agent.name)
        await self.inner.on_llm_end(context, agent, response)

    async def on_agent_start(self, context: AgentHookContext[Any], agent: Agent[Any]) -> None:
        await self.inner.on_agent_start(context, agent)

    async def on_agent_end(
        self, context: AgentHookContext[Any], agent: Agent[Any], output: Any
    ) -> None:
        await self.inner.on_agent_end(context, agent, output)

    async def on_handoff(
        self, context: RunContextWrapper[Any], from_agent: Agent[Any], to_agent: Agent[Any]
    ) -> None:
        await self.hooked.session.dispatch(
            OnAgentSwitchInput(
                from_agent=from_agent.name, to_agent=to_agent.name, agent_switch_kind="handoff"
            )
        )
        await self.inner.on_handoff(context, from_agent, to_agent)

    async def on_tool_start(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool
    ) -> None:
        await self.inner.on_tool_start(context, agent, tool)

    async def on_tool_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool, result: object
    ) -> None:
        await self.inner.on_tool_end(context, agent, tool, result)


class AgentHooksRunner:
    """Runs OpenAI Agents SDK agents with an agent_hooks registry.

    ``AgentHooksRunner(registry, tool_aliases=..., permission=..., **session_options)``;
    ``await runner.run(agent, "prompt", **runner_options)`` is ``Runner.run`` (same
    keyword arguments: ``context``, ``max_turns``, ``hooks``, ``run_config`` ...) inside
    one agent_hooks session, with the function tools of the agent and of the agents it
    hands off to hooked. An agent used as a tool (``agent.as_tool()``) is one hooked
    tool call; the tools it calls inside are not hooked unless its agent was.

    Failure: :class:`AgentStopped` (``continue: false``) and :class:`PromptBlocked`
    propagate out of :meth:`run`, as do the SDK's own exceptions (``MaxTurnsExceeded``
    ...); SessionEnd runs in every case.
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
            f"agent_hooks_openai_agents_run_{id(self)}", default=None
        )

    def hook_tool(self, tool: Tool, hooked: HookedRun | None = None) -> Tool:
        """A copy of ``tool`` whose calls go through the hooks of the current run (or of
        ``hooked``); tools other than ``FunctionTool`` are returned as they are."""
        if not isinstance(tool, FunctionTool):
            return tool
        hooked_tool = copy.copy(tool)
        inner = hooked_tool.on_invoke_tool

        async def invoke(ctx: ToolContext[Any], arguments: str) -> Any:
            run = hooked or self._current.get()
            if run is None:
                raise RuntimeError("AgentHooksRunner: call the agent through runner.run(...)")
            try:
                parsed = json.loads(arguments) if arguments else {}
            except ValueError:
                parsed = None
            args: Mapping[str, Any] = parsed if isinstance(parsed, dict) else {"input": arguments}

            async def call(tool_input: Mapping[str, Any]) -> Any:
                text = arguments if dict(tool_input) == args else json.dumps(dict(tool_input))
                return await inner(ctx, text)

            outcome = await run.call_tool(ctx.tool_name, args, call, tool_use_id=ctx.tool_call_id)
            if not outcome.ran:
                return outcome.reason or "denied"
            view = outcome.model_view
            if not outcome.context:
                return view
            return f"{_text_of(view)}\n\n{outcome.context}"

        hooked_tool.on_invoke_tool = invoke
        return hooked_tool

    def hook_agent(self, agent: Agent[Any], hooked: HookedRun | None = None) -> Agent[Any]:
        """A clone of ``agent`` with its function tools hooked (see :meth:`hook_tool`), and
        so, recursively, the agents it can hand off to (``Handoff`` objects of your own
        are kept as they are: hook their agents' tools yourself)."""
        return self._hook_agent(agent, hooked, {})

    def _hook_agent(
        self, agent: Agent[Any], hooked: HookedRun | None, done: dict[int, Agent[Any]]
    ) -> Agent[Any]:
        if id(agent) in done:  # agents may hand off to each other
            return done[id(agent)]
        clone = agent.clone(tools=[self.hook_tool(t, hooked) for t in agent.tools])
        done[id(agent)] = clone
        clone.handoffs = [
            self._hook_agent(h, hooked, done) if isinstance(h, Agent) else h for h in agent.handoffs
        ]
        return clone

    async def run(
        self, agent: Agent[Any], input: str | list[Any], **runner_options: Any
    ) -> RunResult:
        """``Runner.run(agent, input, **runner_options)`` with the hooks (see the class)."""
        async with HookedRun(
            self.registry,
            tool_aliases=self.tool_aliases,
            permission=self.permission,
            **self.session_options,
        ) as hooked:
            token = self._current.set(hooked)
            try:
                return await self._run(hooked, agent, input, runner_options)
            finally:
                self._current.reset(token)

    async def _run(
        self,
        hooked: HookedRun,
        agent: Agent[Any],
        input: str | list[Any],
        runner_options: dict[str, Any],
    ) -> RunResult:
        context = await hooked.submit(input if isinstance(input, str) else None)
        items: list[Any] = (
            [{"role": "user", "content": input}] if isinstance(input, str) else list(input)
        )
        if context:
            items.append({"role": "user", "content": context})
        agent = self.hook_agent(agent, hooked)
        options = {**runner_options, "hooks": _Observer(hooked, runner_options.get("hooks"))}
        while True:
            try:
                result = await Runner.run(agent, items, **options)
            except AgentsException as exc:
                if isinstance(exc.__cause__, AgentStopped):  # the SDK wraps tool errors
                    raise exc.__cause__ from None
                raise
            feedback = await hooked.check_stop(_text_of(result.final_output))
            if feedback is None:
                return result
            items = [*result.to_input_list(), {"role": "user", "content": feedback}]
