"""The resident hook server of ``agent-hooks run`` and its thin client.

``_protocol`` (standard library only): where the per-user socket lives, which server a
client belongs to, and the frames they exchange. ``_client`` (standard library only):
what ``agent-hooks run`` does before importing anything heavy. ``_server``: the server,
which routes each call to the worker process of its project (``_worker``), where hook
code runs on the server core that ``agent-hooks serve`` shares
(``_bridges/_sessions.py``).
"""
