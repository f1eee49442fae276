"""Run an agent_hooks registry inside a Haystack Agent (3.x), as its hooks::

    from agent_hooks.haystack import HaystackHooks

    hooks = HaystackHooks(registry)
    agent = Agent(chat_generator=generator, tools=[shell], hooks=hooks.hooks)
    async with hooks.run():
        result = await agent.run_async(messages=[ChatMessage.from_user("clean up")])

UserPromptSubmit and SessionStart at ``before_run`` (context added as a user message),
the hooked tool call across ``before_tool`` and ``after_tool`` (a refusal is an error
tool result with the reason, and the tool never runs; ``updatedInput`` is the
arguments it gets; hook context is added to the tool result), Stop at ``on_exit`` (a
block keeps the agent running with the feedback), SessionEnd when the ``run()`` block
ends. Async only (``run_async``).

Needs the optional extra: ``pip install 'py-agent-hooks[haystack]'``.
"""

from __future__ import annotations

from ._bridges._frameworks._run import DEFAULT_TOOL_ALIASES, AgentStopped, PromptBlocked

try:
    from ._bridges._frameworks._haystack import HaystackHooks
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("haystack",):
        raise
    raise ModuleNotFoundError(
        "agent_hooks.haystack needs the 'haystack' extra: "
        f"pip install 'py-agent-hooks[haystack]' ({_missing})",
        name=_missing.name,
    ) from _missing

__all__ = ["DEFAULT_TOOL_ALIASES", "AgentStopped", "HaystackHooks", "PromptBlocked"]
