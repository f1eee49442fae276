"""Run an agent_hooks registry inside a LangChain 1.x agent (``create_agent``, and so
Deep Agents' ``create_deep_agent``) as agent middleware::

    from agent_hooks.langchain import AgentHooksMiddleware

    hooks = AgentHooksMiddleware(registry)
    agent = create_agent(model, tools=[shell], middleware=[hooks])
    async with hooks.run():
        result = await agent.ainvoke({"messages": [{"role": "user", "content": "..."}]})

PreToolUse/PostToolUse/PostToolUseFailure around every tool call (through
``awrap_tool_call``: a refused call returns an error ``ToolMessage`` with the reason
and the tool never runs; ``updatedInput`` rewrites the call's ``args``),
UserPromptSubmit and SessionStart before the agent (their context is added as a human
message), Stop after a final answer (a block sends the agent back to the model, bounded
by the continuation cap), SessionEnd when the ``run()`` block ends. Tool names are
mapped with :data:`DEFAULT_TOOL_ALIASES` (``shell``, ``execute`` -> ``Bash`` ...) unless
``tool_aliases=`` says otherwise. Async only (``ainvoke``/``astream``).

Needs the optional extra: ``pip install 'py-agent-hooks[langchain]'``.
"""

from __future__ import annotations

try:
    from ._bridges._frameworks._langchain import AgentHooksMiddleware, interrupt_permission
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("langchain", "langchain_core", "langgraph"):
        raise
    raise ModuleNotFoundError(
        f"agent_hooks.langchain needs the 'langchain' extra: pip install 'py-agent-hooks[langchain]' ({_missing})",
        name=_missing.name,
    ) from _missing
from ._bridges._frameworks._run import (
    DEFAULT_TOOL_ALIASES,
    AgentStopped,
    HookedRun,
    PromptBlocked,
)

__all__ = [
    "DEFAULT_TOOL_ALIASES",
    "AgentHooksMiddleware",
    "AgentStopped",
    "HookedRun",
    "PromptBlocked",
    "interrupt_permission",
]
