"""The ``agent-hooks`` command line (also ``python -m agent_hooks``).

Subcommands live in their own modules, each exporting ``register(subparsers)``
which adds its parser(s) and sets ``func`` (``args -> exit status``) as the
default. To add one, write the module and list its command names in
:data:`COMMANDS`. Modules import heavy things (loaders, anyio) inside their
command functions, so that ``--help`` and argument errors stay fast.

:func:`build_parser` is the one place the parser is built. A command line that
starts with a command name gets a parser with that command's module registered
only (the others are not imported); anything else (``--help``, ``--version``, an
unknown command) gets the parser of every command.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from ..._base._version import VERSION

__all__ = ["COMMANDS", "build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """A parser that takes every option by its whole name only (``allow_abbrev=False``):
    ``run --no-d`` is an error, not ``--no-daemon``, so that an option added later never
    changes what a command line already in a harness's settings means. Subparsers are
    of the same class (``add_subparsers`` makes them so)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)


COMMANDS: Mapping[str, str] = {
    "check": "agent_hooks._bridges._cli._check",
    "trust": "agent_hooks._bridges._cli._check",
    "run": "agent_hooks._bridges._cli._run",
    "serve": "agent_hooks._bridges._cli._serve",
    "install": "agent_hooks._bridges._cli._install",
    "uninstall": "agent_hooks._bridges._cli._install",
    "payload": "agent_hooks._bridges._cli._payload_cmd",
    "daemon": "agent_hooks._bridges._cli._daemon",
    "doctor": "agent_hooks._bridges._cli._doctor",
}
"""Every command name -> the module that registers it, in the order ``--help``
lists them."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand; with ``command`` (a key
    of :data:`COMMANDS`), with the subcommands of that command's module only."""
    parser = _Parser(
        prog="agent-hooks",
        description="Inspect and manage agent lifecycle hooks (Claude Code, Deep Agents Code, "
        "Docker Agent, Codex, hel, Gemini CLI, Cursor, GitHub Copilot).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {VERSION}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    modules = dict.fromkeys(COMMANDS.values()) if command is None else [COMMANDS[command]]
    for module in modules:
        importlib.import_module(module).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None, *, stdin: bytes | None = None) -> int:
    """Run the command line (``argv``, default ``sys.argv[1:]``); returns the exit status.
    ``stdin``: standard input, read already (by the resident server's client)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[0] if argv and argv[0] in COMMANDS else None
    args = build_parser(command).parse_args(argv)
    args.stdin_bytes = stdin
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 141
