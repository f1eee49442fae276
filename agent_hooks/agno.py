"""Run an agent_hooks registry inside an Agno agent, as a tool hook and a pre-hook::

    from agent_hooks.agno import AgnoHooks

    hooks = AgnoHooks(registry)
    agent = hooks.install(Agent(model=model, tools=[shell]))
    async with hooks.run():
        output = await hooks.arun(agent, "clean up the build")

The whole hooked tool call in Agno's ``tool_hooks`` (a refusal is the tool's result,
the reason, and the tool never runs; ``updatedInput`` is the arguments it gets),
UserPromptSubmit and SessionStart in ``pre_hooks`` (context appended to the input; a
block is Agno's ``InputCheckError``), Stop around ``agent.arun`` (a block runs the
agent again with the feedback), SessionEnd when the ``run()`` block ends. Async only.

Needs the optional extra: ``pip install 'py-agent-hooks[agno]'``.
"""

from __future__ import annotations

from ._bridges._frameworks._run import DEFAULT_TOOL_ALIASES, AgentStopped, PromptBlocked

try:
    from ._bridges._frameworks._agno import AgnoHooks
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("agno",):
        raise
    raise ModuleNotFoundError(
        f"agent_hooks.agno needs the 'agno' extra: pip install 'py-agent-hooks[agno]' ({_missing})",
        name=_missing.name,
    ) from _missing

__all__ = ["DEFAULT_TOOL_ALIASES", "AgentStopped", "AgnoHooks", "PromptBlocked"]
