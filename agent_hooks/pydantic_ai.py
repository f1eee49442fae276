"""Run an agent_hooks registry inside a PydanticAI agent, as a capability::

    from agent_hooks.pydantic_ai import AgentHooksCapability

    agent = Agent(model, tools=[shell], capabilities=[AgentHooksCapability(registry)])
    result = await agent.run("clean up the build")

One agent_hooks session per agent run (SessionStart, then UserPromptSubmit, whose
context becomes the run's instructions; SessionEnd when the run ends);
PreToolUse/PostToolUse/PostToolUseFailure around every tool execution (a refusal is
PydanticAI's ``ToolFailed`` with the reason, and the tool never runs; ``updatedInput``
is what the tool gets; hook context reaches the next model request as
``ToolReturn.content``); Stop after a final text answer (a block is a ``ModelRetry``
with the feedback, within the agent's ``output_retries``). Tool names are mapped with
:data:`DEFAULT_TOOL_ALIASES` unless ``tool_aliases=`` says otherwise.

Needs the optional extra: ``pip install 'py-agent-hooks[pydantic-ai]'``.
"""

from __future__ import annotations

try:
    from ._bridges._frameworks._pydantic_ai import AgentHooksCapability
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("pydantic_ai",):
        raise
    raise ModuleNotFoundError(
        f"agent_hooks.pydantic_ai needs the 'pydantic-ai' extra: pip install 'py-agent-hooks[pydantic-ai]' ({_missing})",
        name=_missing.name,
    ) from _missing
from ._bridges._frameworks._run import DEFAULT_TOOL_ALIASES, AgentStopped, PromptBlocked

__all__ = ["DEFAULT_TOOL_ALIASES", "AgentHooksCapability", "AgentStopped", "PromptBlocked"]
