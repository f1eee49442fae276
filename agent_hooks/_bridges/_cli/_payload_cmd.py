"""``agent-hooks payload``: print a realistic hook payload, for testing shell hooks.

``agent-hooks payload PreToolUse --set command='rm -rf /' | ./guard.sh`` gives the
script exactly what its harness would send (:func:`agent_hooks.testing.payload`).
``--set KEY=VALUE`` overrides a payload field (on tool events, any other key is a
key of ``tool_input``); a dotted key (``tool_input.timeout=60``) sets a nested value
as it is; VALUE is read as JSON when it parses (``60``, ``true``, ``{"a": 1}``),
else taken as text. ``--set cwd=DIR`` is ``--cwd DIR``. Exit status 0; 1 with a
one-line message on stderr for an unknown event, dialect or field, a value of the
wrong type, or a key ``--set`` cannot take (``event``, ``dialect``, ``extra``: the
EVENT argument and the options say those; ``tool_input.dialect=...`` sets a tool
input key of that name).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["parse_assignment", "register"]


def register(subparsers: Any) -> None:
    """Add ``payload`` to the top-level parser."""
    from ..._wire._dialects import DIALECTS

    cmd = subparsers.add_parser(
        "payload",
        help="print a realistic hook payload of an event (pipe it into a hook to test it)",
        description="Print the JSON payload a harness sends to its hooks for EVENT, with "
        "realistic defaults (a Bash tool call running 'npm test' for tool events), in the wire "
        "format of --dialect. Pipe it into a hook to test it: agent-hooks payload PreToolUse "
        "--set command='rm -rf /' | ./guard.sh",
    )
    cmd.add_argument("event", metavar="EVENT", help="the event (PreToolUse or pre_tool_use)")
    cmd.add_argument(
        "--dialect",
        default="claude",
        metavar="NAME",
        help=f"the harness whose payload to print: {', '.join(DIALECTS)} (default: claude)",
    )
    cmd.add_argument(
        "--set",
        dest="assignments",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a field (on tool events, other keys go into tool_input); dotted keys "
        "set nested values; VALUE is JSON when it parses, else text (repeatable)",
    )
    cmd.add_argument("--cwd", metavar="DIR", help="the payload's cwd (default: this directory)")
    cmd.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    cmd.set_defaults(func=_payload)


_NOT_FIELDS = {
    "event": "the EVENT argument names the event",
    "dialect": "use --dialect NAME",
    "extra": "it is no payload field",
}
"""Keys ``--set`` refuses at the top level (the names of :func:`payload`'s own
arguments), with what to write instead."""


def parse_assignment(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` -> ``(KEY, value)``: the value as JSON when it parses, else text.

    Raises:
        ValueError: no ``=``, an empty key or an empty part of a dotted key.
    """
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise ValueError(f"--set needs KEY=VALUE, got {text!r}")
    if "" in key.split("."):
        raise ValueError(f"--set {text!r}: a dotted key has an empty part")
    try:
        value: Any = json.loads(raw)
    except ValueError:
        value = raw
    return key, value


def _payload(args: argparse.Namespace) -> int:
    from ..._base._errors import UnknownEventError
    from ..._wire._json import dumps
    from .._testing import payload, set_path

    try:
        pairs = [parse_assignment(a) for a in args.assignments]
        fields = {k: v for k, v in pairs if "." not in k}
        cwd = args.cwd
        if "cwd" in fields:
            value = fields.pop("cwd")
            if not isinstance(value, str):
                raise ValueError(f"--set cwd= needs a directory, got {json.dumps(value)}")
            if cwd is not None and cwd != value:
                raise ValueError(f"--cwd {cwd} and --set cwd={value} disagree; give one")
            cwd = value
        for key, hint in _NOT_FIELDS.items():
            if key in fields:
                raise ValueError(
                    f"--set {key}=...: {hint} (for a tool_input key: --set tool_input.{key}=...)"
                )
        data = payload(args.event, dialect=args.dialect, cwd=cwd, **fields)
        for key, value in pairs:
            if "." in key:
                set_path(data, key, value)
    except (ValueError, UnknownEventError) as exc:
        print(f"agent-hooks payload: error: {exc}", file=sys.stderr)
        return 1
    if args.indent is None:
        print(dumps(data))
    else:
        print(json.dumps(data, indent=args.indent, ensure_ascii=False))
    return 0
