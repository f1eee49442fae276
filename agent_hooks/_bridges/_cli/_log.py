"""``agent-hooks log verify FILE``: check a decision log's hash chain.

Every line must be a JSON object whose ``hash`` is its own (SHA-256 of the record
without it, as canonical JSON) and whose ``prev`` is the ``hash`` of the line before
(:func:`~agent_hooks._dispatch._audit.verify_log`). Exit status 0 when the chain holds
(``ok: N records``); 1 with the first broken line's number and what is wrong; 1 too for
a file that cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``log`` (and its ``verify``) to the top-level parser."""
    cmd = subparsers.add_parser(
        "log",
        help="work with a decision log (agent-hooks run --log FILE)",
        description="Work with the decision log agent-hooks run/serve write with --log FILE "
        "or AGENT_HOOKS_DECISION_LOG: one JSON Lines record per decision.",
    )
    actions = cmd.add_subparsers(dest="log_action", metavar="ACTION", required=True)
    verify = actions.add_parser(
        "verify",
        help="check the hash chain of a decision log (exit 1 at the first broken line)",
        description="Check that no record of FILE was edited, removed or inserted: each "
        "line's hash is its own and its prev is the hash of the line before. Exit status 0 "
        "when the chain holds; 1 with the number of the first broken line.",
    )
    verify.add_argument("file", metavar="FILE", help="the decision log")
    verify.set_defaults(func=_verify)


def _verify(args: argparse.Namespace) -> int:
    from ..._dispatch._audit import verify_log

    try:
        count, problem = verify_log(args.file)
    except OSError as exc:
        print(f"agent-hooks log verify: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if problem is not None:
        print(
            f"{args.file}:{problem.line}: {problem.message} ({count} record(s) before it verified)",
            file=sys.stderr,
        )
        return 1
    print(f"{args.file}: ok, {count} record(s), the chain holds")
    return 0
