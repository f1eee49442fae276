"""Run an agent_hooks registry inside a Microsoft Agent Framework agent, as middleware::

    from agent_hooks.agent_framework import AgentFrameworkHooks

    hooks = AgentFrameworkHooks(registry)
    agent = Agent(client=client, tools=[shell], middleware=hooks.middleware)
    async with hooks.run():
        response = await agent.run("clean up the build")

The whole hooked tool call as function middleware (a refusal is the function's
result, the reason, and the tool never runs; ``updatedInput`` is the arguments it
gets; hook context is added to the result), UserPromptSubmit and Stop as agent
middleware (a block runs the agent again with the feedback), SessionEnd when the
``run()`` block ends.

Needs the optional extra: ``pip install 'py-agent-hooks[agent-framework]'``.
"""

from __future__ import annotations

from ._bridges._frameworks._run import DEFAULT_TOOL_ALIASES, AgentStopped, PromptBlocked

try:
    from ._bridges._frameworks._agent_framework import AgentFrameworkHooks
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("agent_framework",):
        raise
    raise ModuleNotFoundError(
        "agent_hooks.agent_framework needs the 'agent-framework' extra: "
        f"pip install 'py-agent-hooks[agent-framework]' ({_missing})",
        name=_missing.name,
    ) from _missing

__all__ = ["DEFAULT_TOOL_ALIASES", "AgentFrameworkHooks", "AgentStopped", "PromptBlocked"]
