"""Run an agent_hooks registry inside a CrewAI crew, as CrewAI execution hooks::

    from agent_hooks.crewai import CrewAIHooks

    hooks = CrewAIHooks(registry)
    task = Task(description=..., expected_output=..., agent=agent, guardrail=hooks.guardrail)
    with hooks.run():
        output = Crew(agents=[agent], tasks=[task]).kickoff()

The whole hooked tool call across CrewAI's ``PRE_TOOL_CALL`` and ``POST_TOOL_CALL``
hooks (a refusal is CrewAI's ``HookAborted``, so the tool never runs, and its reason
is the result the model reads; ``updatedInput`` is the input the tool gets; hook
context is added to the result), UserPromptSubmit and SessionStart at a task's
``PRE_STEP`` (context added to the task's context), Stop as a task guardrail (a block
runs the task again with the feedback), SessionEnd when the ``run()`` block ends.
CrewAI's hooks are synchronous and process-wide: the hooks are registered only while
the block is open, and the session runs in an event loop the block owns.

Needs the optional extra: ``pip install 'py-agent-hooks[crewai]'`` (in an environment
of its own: CrewAI cannot be installed beside the OpenAI Agents SDK).
"""

from __future__ import annotations

from ._bridges._frameworks._run import DEFAULT_TOOL_ALIASES, AgentStopped, PromptBlocked

try:
    from ._bridges._frameworks._crewai import CrewAIHooks
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("crewai",):
        raise
    raise ModuleNotFoundError(
        f"agent_hooks.crewai needs the 'crewai' extra: pip install 'py-agent-hooks[crewai]' ({_missing})",
        name=_missing.name,
    ) from _missing

__all__ = ["DEFAULT_TOOL_ALIASES", "AgentStopped", "CrewAIHooks", "PromptBlocked"]
