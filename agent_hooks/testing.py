"""Tools for testing hooks: realistic payloads, and one call that runs a hook.

::

    from agent_hooks.testing import payload, run_hook

    def test_the_guard_blocks_rm_rf():
        run = run_hook("hooks/guard.sh", payload("PreToolUse", command="rm -rf /"))
        assert run.blocked and "rm -rf" in run.reason

    def test_the_guard_lets_ls_through():
        assert not run_hook("hooks/guard.sh", payload("PreToolUse", command="ls")).blocked

* :func:`payload` builds the JSON payload a harness sends for any event, in any
  dialect of the dialect table (``dialect="claude"``, ``"docker"``, ``"codex"``, ...),
  with realistic defaults you override by field name; :func:`hook_input` gives the
  same payload as the event's typed input class.
* :func:`run_hook` runs a Python callback, a handler, a shell command or script, or
  a whole hook file against a payload, the way ``agent-hooks run`` would, and returns
  a :class:`HookRun`: the typed decision, each handler's result and the wire answer.
  :func:`arun_hook` is the same for async tests.
* With pytest, the plugin this package registers (entry point ``pytest11``) provides
  the fixtures ``hook_payload`` (:func:`payload`) and ``run_hook`` (:func:`run_hook`)
  without an import.
* On the command line: ``agent-hooks payload PreToolUse --set command='rm -rf /' |
  ./guard.sh``.
"""

from __future__ import annotations

from ._bridges._testing import (
    CONFIG_SUFFIXES,
    SESSION_ID,
    HookRun,
    arun_hook,
    hook_input,
    payload,
    payload_fields,
    run_hook,
)

__all__ = [
    "CONFIG_SUFFIXES",
    "SESSION_ID",
    "HookRun",
    "arun_hook",
    "hook_input",
    "payload",
    "payload_fields",
    "run_hook",
]
