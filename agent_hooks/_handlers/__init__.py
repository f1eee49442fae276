"""Layer 3, handlers: the one node type every handler kind becomes
(:class:`~agent_hooks.HandlerNode`, :class:`~agent_hooks.HookCall`,
:class:`~agent_hooks.HandlerResult`), and the kinds themselves: Python callbacks,
shell commands with their process runner, HTTP, model and MCP hooks, Python
references, built-ins, and the table that builds nodes from configuration entries."""
