"""Run an agent_hooks registry inside a Semantic Kernel agent, as kernel filters::

    from agent_hooks.semantic_kernel import AgentHooksFilters

    hooks = AgentHooksFilters(registry)
    agent = ChatCompletionAgent(service=service, plugins=[ShellPlugin()], ...)
    hooks.install(agent.kernel)
    async with hooks.run():
        response = await hooks.get_response(agent, "clean up the build")

The whole hooked tool call in the auto-function-invocation filter (a refusal is the
function's result, the reason, and the function never runs; ``updatedInput`` is the
arguments it gets), the same in the function-invocation filter for functions the
application invokes itself, UserPromptSubmit and Stop around ``get_response`` (a block
asks the agent again with the feedback), SessionEnd when the ``run()`` block ends.

Needs the optional extra: ``pip install 'py-agent-hooks[semantic-kernel]'``.
"""

from __future__ import annotations

from ._bridges._frameworks._run import DEFAULT_TOOL_ALIASES, AgentStopped, PromptBlocked

try:
    from ._bridges._frameworks._semantic_kernel import AgentHooksFilters
except ModuleNotFoundError as _missing:  # the framework is an optional extra
    if (_missing.name or "").partition(".")[0] not in ("semantic_kernel",):
        raise
    raise ModuleNotFoundError(
        "agent_hooks.semantic_kernel needs the 'semantic-kernel' extra: "
        f"pip install 'py-agent-hooks[semantic-kernel]' ({_missing})",
        name=_missing.name,
    ) from _missing

__all__ = ["DEFAULT_TOOL_ALIASES", "AgentHooksFilters", "AgentStopped", "PromptBlocked"]
