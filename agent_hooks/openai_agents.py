"""Run an agent_hooks registry around OpenAI Agents SDK runs::

    from agent_hooks.openai_agents import AgentHooksRunner

    runner = AgentHooksRunner(registry)
    result = await runner.run(agent, "clean up the build")  # Runner.run's arguments

One agent_hooks session per run (SessionStart, UserPromptSubmit, SessionEnd), every
``FunctionTool`` call hooked through its public ``on_invoke_tool`` (a refusal is the
tool's output and the tool never runs; ``updatedInput`` is what the tool gets), and
Stop after the final output (a block runs the agent again with the feedback). Tool
input guardrails cannot rewrite a call, ask, or see a failure, so the adapter does not
use them; see :mod:`agent_hooks._bridges._frameworks._openai_agents` for the mapping.

Needs the optional extra: ``pip install 'py-agent-hooks[openai-agents]'``.
"""

from __future__ import annotations

try:
    from ._bridges._frameworks._openai_agents import AgentHooksRunner
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("agents", "openai"):
        raise
    raise ModuleNotFoundError(
        f"agent_hooks.openai_agents needs the 'openai-agents' extra: pip install 'py-agent-hooks[openai-agents]' ({_missing})",
        name=_missing.name,
    ) from _missing
from ._bridges._frameworks._run import DEFAULT_TOOL_ALIASES, AgentStopped, PromptBlocked

__all__ = ["DEFAULT_TOOL_ALIASES", "AgentHooksRunner", "AgentStopped", "PromptBlocked"]
