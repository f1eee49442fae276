"""Run an agent_hooks registry inside a Strands Agents agent, as a plugin::

    from agent_hooks.strands import AgentHooksPlugin

    hooks = AgentHooksPlugin(registry)
    agent = Agent(model=model, tools=[shell], plugins=[hooks])
    async with hooks.run():
        result = await agent.invoke_async("clean up the build")

UserPromptSubmit and SessionStart in ``BeforeInvocationEvent`` (context added to the
prompt), the whole hooked tool call as ``ExecuteToolStage`` middleware (a refusal is an
error tool result with the reason, and the tool never runs; ``updatedInput`` is the
input the tool gets), Stop in ``AfterInvocationEvent`` (a block resumes the agent with
the feedback), SessionEnd when the ``run()`` block ends. Async only (``invoke_async``,
``stream_async``).

Needs the optional extra: ``pip install 'py-agent-hooks[strands]'``.
"""

from __future__ import annotations

from ._bridges._frameworks._run import DEFAULT_TOOL_ALIASES, AgentStopped, PromptBlocked

try:
    from ._bridges._frameworks._strands import AgentHooksPlugin
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("strands",):
        raise
    raise ModuleNotFoundError(
        f"agent_hooks.strands needs the 'strands' extra: pip install 'py-agent-hooks[strands]' ({_missing})",
        name=_missing.name,
    ) from _missing

__all__ = ["DEFAULT_TOOL_ALIASES", "AgentHooksPlugin", "AgentStopped", "PromptBlocked"]
