"""The ``agent-hooks`` command line (also ``python -m agent_hooks``).

Subcommands live in their own modules, each exporting ``register(subparsers)``
which adds its parser(s) and sets ``func`` (``args -> exit status``) as the
default. To add one, write the module and list it in :data:`SUBCOMMANDS`.
Modules import heavy things (loaders, anyio) inside their command functions,
so that ``--help`` and argument errors stay fast.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

SUBCOMMANDS: tuple[str, ...] = (
    "agent_hooks._cli._check",
    "agent_hooks._cli._run",
    "agent_hooks._cli._serve",
)
"""Modules that register subcommands, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand."""
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="agent-hooks",
        description="Inspect and manage agent lifecycle hooks (Claude Code, Deep Agents Code, "
        "Docker Agent, Codex, hel).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMANDS:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 141
