"""Layer 5, configuration: hook files of every supported harness loaded into
:class:`~agent_hooks.SourcedGroups` (bad content becomes diagnostics, never an
exception), discovery of the standard locations, reloads, and the content-bound
trust store that decides whether a project's files may run. The README's
configuration section lists the locations, the precedence and the trust rules."""
