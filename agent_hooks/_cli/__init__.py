"""The ``agent-hooks`` command line (also ``python -m agent_hooks``).

Subcommands live in their own modules, each exporting ``register(subparsers)``
which adds its parser(s) and sets ``func`` (``args -> exit status``) as the
default. To add one, write the module, list it in :data:`SUBCOMMANDS` and its
command names in :data:`COMMANDS`. Modules import heavy things (loaders, anyio)
inside their command functions, so that ``--help`` and argument errors stay fast.

A command line that starts with a command name imports and registers that
command's module only (``agent-hooks run`` starts once per hook event, and pays
for its own parser only); anything else (``--help``, ``--version``, an unknown
command) gets the parser of every command. ``run`` in its plain forms is read
without building a parser at all (:func:`~agent_hooks._cli._run.parse_run_args`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

__all__ = ["COMMANDS", "SUBCOMMANDS", "build_parser", "main"]

SUBCOMMANDS: tuple[str, ...] = (
    "agent_hooks._cli._check",
    "agent_hooks._cli._run",
    "agent_hooks._cli._serve",
)
"""Modules that register subcommands, in the order ``--help`` lists them."""

COMMANDS: Mapping[str, str] = {
    "check": "agent_hooks._cli._check",
    "trust": "agent_hooks._cli._check",
    "run": "agent_hooks._cli._run",
    "serve": "agent_hooks._cli._serve",
}
"""Every command name -> the module of :data:`SUBCOMMANDS` that registers it."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand; with ``command`` (a key
    of :data:`COMMANDS`), with the subcommands of that command's module only."""
    import argparse

    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="agent-hooks",
        description="Inspect and manage agent lifecycle hooks (Claude Code, Deep Agents Code, "
        "Docker Agent, Codex, hel).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMANDS if command is None else (COMMANDS[command],):
        # __import__, not importlib.import_module: `python -X importtime` lists it
        __import__(name, fromlist=("register",)).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (``argv``, default ``sys.argv[1:]``); returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = args_list[0] if args_list and args_list[0] in COMMANDS else None
    args: Any = None
    if command == "run":
        from ._run import parse_run_args

        args = parse_run_args(args_list[1:])
    if args is None:
        args = build_parser(command).parse_args(args_list)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 141
