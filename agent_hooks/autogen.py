"""Run an agent_hooks registry in an AutoGen (autogen-core) runtime, as an intervention
handler::

    from agent_hooks.autogen import AutoGenHooks

    hooks = AutoGenHooks(registry)
    runtime = SingleThreadedAgentRuntime(intervention_handlers=[hooks])
    await ToolAgent.register(runtime, "tools", lambda: ToolAgent("tools", [shell]))
    runtime.start()
    async with hooks.run():
        messages = await hooks.caller_loop(
            runtime, AgentId("tools", "default"), model_client, [UserMessage(...)], [shell]
        )

Each ``FunctionCall`` sent to a tool agent is the hooked tool call: a refused call is
dropped (the tool never runs) and answered with the reason, ``updatedInput`` becomes
the call's arguments, PostToolUse context is added to the result;
:meth:`AutoGenHooks.caller_loop` (autogen-core's ``tool_agent_caller_loop`` with the
hooks) adds UserPromptSubmit and Stop. SessionEnd when the ``run()`` block ends.

Needs the optional extra: ``pip install 'py-agent-hooks[autogen]'``.
"""

from __future__ import annotations

from ._bridges._frameworks._run import DEFAULT_TOOL_ALIASES, AgentStopped, PromptBlocked

try:
    from ._bridges._frameworks._autogen import AutoGenHooks
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("autogen_core",):
        raise
    raise ModuleNotFoundError(
        "agent_hooks.autogen needs the 'autogen' extra: "
        f"pip install 'py-agent-hooks[autogen]' ({_missing})",
        name=_missing.name,
    ) from _missing

__all__ = ["DEFAULT_TOOL_ALIASES", "AgentStopped", "AutoGenHooks", "PromptBlocked"]
