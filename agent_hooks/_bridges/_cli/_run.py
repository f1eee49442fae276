"""``agent-hooks run``: the whole hook graph as one command hook.

Reads one hook payload (a JSON object) from stdin, dispatches it through the
hooks of the ``--config`` files (and the standard locations with
``--discover``) and prints exactly one JSON object: the reduced decision in the
wire form of the payload's dialect (PascalCase ``hook_event_name``: Claude Code;
snake_case: Docker Agent), ``{}`` when nobody had an opinion. Exit status 0;
1 for a payload that is not a JSON object or names no known event (non-blocking
for every harness); 2 with ``--fail-closed`` when the hooks could not run as
configured: a bad payload, a ``--config`` file that is missing, or any file it
was to load that did not load (untrusted, unreadable, invalid), a configuration
error, an internal error. ``--fail-closed`` also makes the failure policy of every
handler on an event that can block ``block`` (``HookRegistry(fail_closed=True)``):
a hook that could not run or whose answer could not be read blocks the event.
Diagnostics go to stderr, one line each.

Start-up time matters here (one process per event): everything heavy is
imported inside :func:`run_hooks`, and only what this command needs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..._config._snapshot import LoadedConfig

__all__ = [
    "NOT_LOADED",
    "add_load_options",
    "load_hooks",
    "not_loaded",
    "quiet_diagnostics_log",
    "register",
    "run_hooks",
]

NOT_LOADED = ("untrusted", "unreadable", "invalid")
"""File statuses that mean "asked to load, did not load" (``disabled`` is the file's own
``disableAllHooks``: a deliberate switch)."""


def register(subparsers: Any) -> None:
    """Add ``run`` to the top-level parser."""
    run = subparsers.add_parser(
        "run",
        help="dispatch one hook payload (stdin) and print the reduced decision (stdout)",
        description="Read one hook payload, a JSON object, from stdin; run the hooks of the "
        "--config files through agent_hooks (Python callbacks, shell commands, HTTP hooks in one "
        "graph) and print the reduced decision as one JSON object in the payload's dialect "
        "(PascalCase event name: Claude Code; snake_case: Docker Agent); {} when no handler had "
        "an opinion. Exit status 0; 1 for a payload that is not a JSON object or names no known "
        "event. Diagnostics go to stderr.",
    )
    add_load_options(run)
    run.add_argument(
        "--report",
        action="store_true",
        help="print a JSON report instead: the decision and, per handler, how it ran",
    )
    run.add_argument(
        "--fail-closed",
        action="store_true",
        help="exit 2 (the harness blocks) when the hooks cannot run as configured: a bad "
        "payload, a missing --config file, a file to load that did not load (untrusted, "
        "unreadable, invalid), a configuration error, an internal error; and block an event "
        "that can be blocked when one of its hooks fails (could not start, timed out, exited "
        "with a failure status, answered what cannot be read), whatever on_error it sets",
    )
    run.set_defaults(func=run_hooks)


def add_load_options(
    parser: argparse.ArgumentParser,
    project_default: str = "$CLAUDE_PROJECT_DIR, else the payload's cwd, else .",
) -> None:
    """The options that say which hooks to load (shared by ``run`` and ``serve``)."""
    parser.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="PATH",
        help="a hook file to load (repeatable; any supported format, detected)",
    )
    parser.add_argument(
        "--format", metavar="FORMAT", help="the format of every --config file (default: detected)"
    )
    parser.add_argument(
        "--project-dir",
        metavar="DIR",
        help=f"the project root: project files need trust (default: {project_default})",
    )
    parser.add_argument(
        "--discover",
        action="store_true",
        help="also load the standard hook locations (off by default: a harness that calls "
        "agent-hooks from its own settings would run its own hooks twice)",
    )
    parser.add_argument(
        "--home", metavar="DIR", help="the home directory for --discover (default: ~)"
    )
    parser.add_argument(
        "--trust-project-hooks",
        action="store_true",
        help="trust every project hook file (and the Python modules they name) for this run",
    )
    parser.add_argument(
        "--trust-store",
        metavar="PATH",
        help="the trust store file (default: $XDG_STATE_HOME/agent_hooks/trust.json)",
    )
    add_hel_trust_option(parser)


def add_hel_trust_option(parser: argparse.ArgumentParser) -> None:
    """``--honor-hel-trust-file`` (shared by ``run``, ``serve`` and ``check``)."""
    parser.add_argument(
        "--honor-hel-trust-file",
        action="store_true",
        help="also trust .hel/hooks.json when hel's .hel/hooks-trust.json names this checkout "
        "and the file's SHA-256 (risky: that file lives in the repository, so a repository "
        "can ship one that trusts itself for a checkout path it can guess)",
    )


def load_hooks(args: argparse.Namespace, project: str | None) -> tuple[LoadedConfig, list[str]]:
    """The configuration ``args`` name, and the ``--config`` paths that do not exist.

    Raises:
        ValueError: an unknown ``--format``.
    """
    from ..._config._load import load
    from ..._config._snapshot import combine
    from ..._config._trust import TrustPolicy, TrustStore

    store = TrustStore(args.trust_store) if args.trust_store else TrustStore()
    policy = TrustPolicy(
        store=store,
        trust_all=bool(args.trust_project_hooks),
        honor_hel_trust_file=bool(getattr(args, "honor_hel_trust_file", False)),
    )
    parts = []
    missing: list[str] = []
    if args.discover:
        from ..._config._discover import discover

        parts.append(discover(project, home=args.home, trust=policy))
    for path in args.config:
        config = load(path, format=args.format, project_dir=project, home=args.home, trust=policy)
        if not config.files:
            missing.append(path)
        parts.append(config)
    if len(parts) == 1:
        return parts[0], missing
    return combine(parts), missing


def not_loaded(config: LoadedConfig) -> list[str]:
    """Why the files of ``config`` that did not load did not: one message per file that
    names it, with its diagnostics (the untrusted notice and how to trust it, the read
    or parse error) and the trust store's. Empty when every file loaded."""
    from ..._base._diagnostics import Severity

    bad = {f.path: f for f in config.files if f.status in NOT_LOADED}
    if not bad:
        return []
    known = {f.path for f in config.files}
    messages = []
    for path, f in bad.items():
        why = [
            _one_line(str(d))
            for d in config.diagnostics
            if d.source == path and d.severity is not Severity.INFO
        ]
        messages.append(f"{path} was not loaded ({f.status})")
        messages += why
    messages += [
        _one_line(str(d))
        for d in config.diagnostics
        if d.source not in known and d.severity is not Severity.INFO
    ]
    return messages


@contextlib.contextmanager
def quiet_diagnostics_log() -> Iterator[None]:
    """For commands that print every diagnostic themselves (``run``, ``check``, ``trust``):
    while they run, the library's log records of error diagnostics do not reach stderr a
    second time through logging's last resort. Handlers the user configured still get
    them."""
    import logging

    from ..._base._diagnostics import DIAGNOSTICS_LOGGER

    log = logging.getLogger(DIAGNOSTICS_LOGGER)
    handler = logging.NullHandler()
    log.addHandler(handler)
    try:
        yield
    finally:
        log.removeHandler(handler)


def run_hooks(args: argparse.Namespace) -> int:
    """The ``run`` command."""
    try:
        with quiet_diagnostics_log():
            return _run(args)
    except Exception as exc:  # an internal error: never let a traceback be the answer
        print(f"agent-hooks: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2 if args.fail_closed else 1
    except SystemExit as exc:  # Python hook code (a module as it loads) called sys.exit()
        # Its status must not stand in for the answer: exit 0 with nothing printed allows.
        print(f"agent-hooks: hook code called sys.exit({exc.code!r}); no answer", file=sys.stderr)
        return 2 if args.fail_closed else 1


def _fail(message: str, fail_closed: bool) -> int:
    print(f"agent-hooks: {_one_line(message)}", file=sys.stderr)
    return 2 if fail_closed else 1


def _one_line(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")


def _emit(obj: Any) -> None:
    """One JSON object, UTF-8 (JSON's encoding, whatever the locale), on stdout."""
    from .._payload import dumps

    sys.stdout.flush()
    sys.stdout.buffer.write(dumps(obj).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


def _run(args: argparse.Namespace) -> int:
    from ..._base._errors import InvalidPayloadError, UnknownEventError
    from ..._wire._codec import decode_input

    fail_closed = bool(args.fail_closed)
    data = sys.stdin.buffer.read()
    try:
        decoded = decode_input(data)
    except (InvalidPayloadError, UnknownEventError) as exc:
        return _fail(str(exc), fail_closed)
    project = (
        args.project_dir or os.environ.get("CLAUDE_PROJECT_DIR") or decoded.input.cwd or os.getcwd()
    )
    try:
        os.fsencode(project)
        path_like = "\0" not in project
    except UnicodeEncodeError:  # a lone surrogate: no file system path
        path_like = False
    if not path_like:
        return _fail(f"the project directory {project!r} is not a path", fail_closed)
    project = os.path.abspath(project)
    if not (args.project_dir or os.environ.get("CLAUDE_PROJECT_DIR")):
        # (no project named: the nearest project root at or above the payload's cwd)
        from ..._config._common import find_project_root

        project = find_project_root(os.path.join(project, "_")) or project
    try:
        config, missing = load_hooks(args, project)
    except ValueError as exc:
        return _fail(str(exc), fail_closed)
    problems = [f"{path}: no such file" for path in missing]
    if fail_closed:
        # A guard that was told to load a file and could not must not pass silently.
        problems += not_loaded(config)
        problems += [e for d in config.errors if (e := _one_line(str(d))) not in problems]
        if problems:
            return _fail("hooks cannot run as configured: " + "; ".join(problems), True)
    for problem in problems:
        print(f"agent-hooks: {problem}; no hooks loaded from it", file=sys.stderr)

    import anyio

    from .._payload import (
        BridgeResult,
        diagnostic_lines,
        dispatch_payload,
        report_json,
    )

    registry = config.registry(fail_closed=fail_closed)
    answered: list[bool] = []

    def answer(result: BridgeResult) -> None:
        # Printed as soon as it is decided; fire-and-forget handlers may run on for up
        # to the registry's background_drain_timeout before the process exits.
        if args.report:
            return
        if result.plain is not None:
            # plain text has no escapes: a lone surrogate (from a JSON answer) becomes "?"
            text = result.plain.encode("utf-8", errors="replace")
            sys.stdout.buffer.write(text + (b"\n" if text else b""))
            sys.stdout.buffer.flush()
        elif result.exit_code == 0 or result.decision is not None:
            _emit(result.answer)
        answered.append(True)

    result = anyio.run(
        lambda: dispatch_payload(
            decoded, registry, project_dir=project, fail_closed=fail_closed, on_answer=answer
        )
    )
    if result.decision is not None and result.exit_code == 2:
        # A block the event can only take as exit 2: stderr is the reason, nothing else.
        print(result.error or "", file=sys.stderr)
        return 2
    for line in diagnostic_lines(result):
        print(line, file=sys.stderr)
    if args.report:
        _emit(report_json(result))
    elif result.error is None and not answered:
        _emit(result.answer)
    return result.exit_code
