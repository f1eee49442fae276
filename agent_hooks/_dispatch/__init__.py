"""Layer 4, dispatch: registration compiled once (matchers, order, per-node data),
sessions that run the selected nodes under anyio cancel scopes and task groups, the
one reduction into a typed :class:`~agent_hooks.Decision`, observers, and the
lifecycle helpers that dispatch the right events around a tool call or a turn."""
