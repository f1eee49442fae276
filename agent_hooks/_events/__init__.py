"""Layer 1, events: names, the typed input and output class of every event, and the
capability table that says how each event behaves.

Nothing here knows about wire formats, handlers or dispatch. Modules:
``_names`` (:class:`HookEvent`), ``_model`` (field metadata, the base classes),
``_catalog`` (which family module holds each event's classes), the family packages
(``_tool``, ``_prompt``, ``_session``, ``_compaction``, ``_agents``), ``_untyped``
(events this version does not type: their name, input, answer, and which names are
misspellings), ``_capabilities`` (the table, and the row every untyped event shares) and
``_docs`` (the README table made from it).
"""
