"""Run an agent_hooks registry inside Google ADK agents::

    from agent_hooks.google_adk import AdkHooks

    hooks = AdkHooks(registry)
    agent = LlmAgent(name="dev", model=..., tools=[shell],
                     before_tool_callback=hooks.before_tool_callback)
    runner = InMemoryRunner(agent=agent)
    events = await hooks.run(runner, user_id="u", session_id=session.id, new_message=content)

One agent_hooks session per ``hooks.run`` call (SessionStart, UserPromptSubmit with its
context added to the message, SessionEnd), every tool call hooked in
``before_tool_callback`` (a refusal is ``{"error": reason}`` and the tool never runs;
``updatedInput`` is what the tool gets), Stop after the final response (a block runs the
agent again with the feedback as the next user message).

Needs the optional extra: ``pip install 'py-agent-hooks[google-adk]'``.
"""

from __future__ import annotations

try:
    from ._bridges._frameworks._google_adk import AdkHooks
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("google",):
        raise
    raise ModuleNotFoundError(
        f"agent_hooks.google_adk needs the 'google-adk' extra: pip install 'py-agent-hooks[google-adk]' ({_missing})",
        name=_missing.name,
    ) from _missing
from ._bridges._frameworks._run import DEFAULT_TOOL_ALIASES, AgentStopped, PromptBlocked

__all__ = ["DEFAULT_TOOL_ALIASES", "AdkHooks", "AgentStopped", "PromptBlocked"]
