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

Every parser records what it was given (:attr:`_Parser.arguments`,
:attr:`_Parser.commands`), so that ``agent-hooks completion`` can write shell
completion from the very tree ``--help`` describes. The exit statuses are listed in
the top-level ``--help`` (:data:`EXIT_STATUS`) and per command
(:data:`COMMAND_EXIT_STATUS`); ``-v``/``-q`` set the level of the package's logger
(:data:`LOG_LEVELS`).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from ..._base._version import DISTRIBUTION, VERSION

__all__ = [
    "COMMANDS",
    "COMMAND_EXIT_STATUS",
    "EXIT_STATUS",
    "LOG_LEVELS",
    "build_parser",
    "main",
]


class _Parser(argparse.ArgumentParser):
    """A parser that takes every option by its whole name only (``allow_abbrev=False``):
    ``run --no-d`` is an error, not ``--no-daemon``, so that an option added later never
    changes what a command line already in a harness's settings means. Subparsers are
    of the same class (``add_subparsers`` makes them so)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        self.arguments: list[argparse.Action] = []
        """Every argument added, in order (``-h`` first)."""
        self.commands: dict[str, _Parser] = {}
        """Subcommand name -> its parser (empty without subcommands)."""
        self.summary = ""
        """The ``help`` this parser was added with, as a subcommand."""
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        self.arguments.append(action)
        return action

    def add_subparsers(self, **kwargs: Any) -> Any:
        action = super().add_subparsers(**kwargs)
        add_parser = action.add_parser

        def add(name: str, **options: Any) -> _Parser:
            sub: _Parser = add_parser(name, **options)
            sub.summary = options.get("help") or ""
            self.commands[name] = sub
            return sub

        action.add_parser = add  # type: ignore[method-assign]  # (records each command)
        return action


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
    "explain": "agent_hooks._bridges._cli._explain",
    "log": "agent_hooks._bridges._cli._log",
    "completion": "agent_hooks._bridges._cli._completion",
}
"""Every command name -> the module that registers it, in the order ``--help``
lists them."""

EXIT_STATUS: Sequence[tuple[int, str]] = (
    (0, "success"),
    (1, "the command failed or found problems (each command's --help says which)"),
    (2, "a command-line mistake (an unknown option, a missing argument)"),
    (130, "interrupted (Ctrl-C)"),
    (141, "standard output was closed before everything was written"),
)
"""The exit statuses of every command, listed at the end of ``agent-hooks --help``."""

COMMAND_EXIT_STATUS: Mapping[str, str] = {
    "run": "0 answered (the answer on stdout; {} when no handler had an opinion); 2 a "
    "block the harness reads from the exit status (the reason on stderr), and any "
    "failure with --fail-closed; 1 a failure without --fail-closed: a payload that is "
    "not a JSON object or names no known event, a hook file that cannot be read, an "
    "internal error (0 instead for a harness that reads 1 as a block, such as GitHub "
    "Copilot)",
    "check": "0 no configuration errors; 1 configuration errors; 2 an unknown --format, a "
    "--config file that does not exist, or a command-line mistake",
    "trust": "0 trusted (or nothing to trust); 1 a file that cannot be read or parsed "
    "(nothing is trusted), or the trust store cannot be written",
    "serve": "0 stopped; 2 options that cannot work together (a token file that cannot "
    "be read, a non-loopback address without a token, sizes out of range); 130 "
    "interrupted",
    "install": "0 installed (or already installed); 1 nothing was changed: a file that "
    "cannot be read or written, or a harness setting that is not ours to change",
    "uninstall": "0 removed (or nothing of ours there); 1 a file that cannot be read or "
    "written",
    "payload": "0 printed; 1 an unknown event or dialect, or a --set that cannot be taken",
    "daemon": "0 done; 1 (status, stop) no resident server is running",
    "doctor": "0 every harness fails closed where it should; 1 an entry fails open or "
    "does not run, or a hook file cannot be read",
    "completion": "0 printed",
    "explain": "0 explained (whatever the hooks decided); 1 a payload that is not a JSON "
    "object or names no known event, an unknown --format, or a --config file that does "
    "not exist",
    "log": "0 the log's hash chain holds; 1 a broken line (its number on stderr) or a "
    "file that cannot be read",
}
"""Command name -> the exit statuses of that command, shown at the end of its
``--help`` (and in docs/cli.md)."""

LOG_LEVELS: Mapping[int, int] = {-1: 40, 0: 30, 1: 20, 2: 10}
"""``-v`` count minus ``-q`` count -> the level of the ``agent_hooks`` logger
(``logging.ERROR``, ``WARNING``, ``INFO``, ``DEBUG``; clamped to the table's ends).
0 (neither) leaves logging as it is: warnings and errors reach stderr through
logging's last resort unless the application configured logging."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand; with ``command`` (a key
    of :data:`COMMANDS`), with the subcommands of that command's module only."""
    parser = _Parser(
        prog="agent-hooks",
        description="Run and manage agent lifecycle hooks: answer a harness's hook call "
        "(run), install into a harness, check and trust hook files. Every harness and hook "
        "file format it reads: docs/harnesses.md.",
        epilog=_exit_status_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        help=f"print the distribution and its version ({DISTRIBUTION} {VERSION}) and exit",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="log more on stderr (-vv: debug); give it before the command",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="count",
        default=0,
        help="log errors only; give it before the command",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    modules = dict.fromkeys(COMMANDS.values()) if command is None else [COMMANDS[command]]
    for module in modules:
        importlib.import_module(module).register(subparsers)
    for name, sub in parser.commands.items():
        if name in COMMAND_EXIT_STATUS and sub.epilog is None:
            sub.epilog = f"exit status: {COMMAND_EXIT_STATUS[name]}."
    return parser


def _exit_status_epilog() -> str:
    return "exit status:\n" + "\n".join(f"  {code:<4} {meaning}" for code, meaning in EXIT_STATUS)


class _Version(argparse.Action):
    """``--version``: ``py-agent-hooks 0.1.0`` on stdout, exit 0; exit 1, with what
    :func:`~agent_hooks._base._version.foreign_distributions` found on stderr, when
    another distribution's files are mixed into this ``agent_hooks``."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from ..._base._mixed import foreign_distributions, mixed_message
        from ..._base._version import PACKAGE_DIR

        print(f"{DISTRIBUTION} {VERSION}")
        found = foreign_distributions(PACKAGE_DIR, DISTRIBUTION)
        if found:
            message = mixed_message(found, PACKAGE_DIR, DISTRIBUTION)
            parser.exit(1, f"agent-hooks: error: {message}\n")
        parser.exit(0)


def _set_log_level(verbosity: int, argv: Sequence[str]) -> None:
    """``-v``/``-q``: the ``agent_hooks`` logger at the level :data:`LOG_LEVELS` gives,
    printing to stderr (its records still reach the handlers the user configured).
    ``-v`` first logs which installation runs (INFO) and, ``-vv``, the command line
    (DEBUG)."""
    if verbosity == 0:
        return
    import logging
    import os

    level = LOG_LEVELS[max(min(verbosity, max(LOG_LEVELS)), min(LOG_LEVELS))]
    log = logging.getLogger("agent_hooks")
    log.setLevel(level)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("agent-hooks: %(levelname)s: %(name)s: %(message)s"))
    log.addHandler(handler)
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    log.info("%s %s from %s (Python %s)", DISTRIBUTION, VERSION, package, sys.version.split()[0])
    log.debug("command line: %s", list(argv))


def main(argv: Sequence[str] | None = None, *, stdin: bytes | None = None) -> int:
    """Run the command line (``argv``, default ``sys.argv[1:]``); returns the exit status.
    ``stdin``: standard input, read already (by the resident server's client)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[0] if argv and argv[0] in COMMANDS else None
    args = build_parser(command).parse_args(argv)
    args.stdin_bytes = stdin
    _set_log_level(args.verbose - args.quiet, argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 141
