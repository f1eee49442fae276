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
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol, TextIO

if TYPE_CHECKING:
    from ..._config._snapshot import LoadedConfig
    from ..._wire._codec import DecodedInput
    from .._payload import BridgeResult
    from .._sessions import SessionTable

__all__ = [
    "NOT_LOADED",
    "ResidentHost",
    "RunIO",
    "add_load_options",
    "load_hooks",
    "not_loaded",
    "quiet_diagnostics_log",
    "register",
    "run_hooks",
    "run_in_process",
    "run_resident",
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
        "(PascalCase event name: Claude Code; snake_case: Docker Agent; Gemini CLI, Cursor and "
        "Copilot by their event names and fields, or --dialect); {} when no handler had "
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
    run.add_argument(
        "--dialect",
        metavar="NAME",
        help="the harness that calls (claude, codex, deepagents, docker, hel, gemini, cursor, "
        "copilot); default: detected from the payload (event name spelling, marker fields). "
        "The answer is written in its format, with its exit-code convention",
    )
    run.add_argument(
        "--event",
        metavar="NAME",
        help="the event, as the harness names it, where the payload does not name it "
        "(Copilot's camelCase form: --event preToolUse)",
    )
    run.add_argument(
        "--no-daemon",
        action="store_true",
        help="answer in this process; do not use or start the resident hook server (also: "
        "AGENT_HOOKS_NO_DAEMON=1)",
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
        config = load(
            path,
            format=args.format,
            project_dir=project,
            home=args.home,
            trust=policy,
            required=True,  # named to be loaded: empty is not "no hooks" (see load)
        )
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


class RunIO:
    """One ``run``: the payload's bytes, the process it stands for (its working
    directory and environment: command hooks start there, with that environment), where
    the answer and the diagnostics go, and whether the resident server answers it."""

    def __init__(
        self,
        stdin: bytes,
        *,
        cwd: str,
        environ: Mapping[str, str],
        stdout: BinaryIO,
        stderr: TextIO,
        resident: bool = False,
    ) -> None:
        self.stdin = stdin
        self.cwd = cwd
        self.environ = environ
        self.stdout = stdout
        self.stderr = stderr
        self.resident = resident

    @classmethod
    def of_this_process(cls, stdin: bytes | None = None) -> RunIO:
        """This process's: standard input (unless read already), working directory,
        ``os.environ``, standard output and error."""
        data = sys.stdin.buffer.read() if stdin is None else stdin
        return cls(
            data, cwd=os.getcwd(), environ=os.environ, stdout=sys.stdout.buffer, stderr=sys.stderr
        )


class ResidentHost(Protocol):
    """What the resident server lends ``run``: loading (fresh on every call, so that an
    edited file or a changed trust store counts at once) and the long-lived sessions of
    a configuration (reused while the loaded files stay the same)."""

    def load(self, args: argparse.Namespace, project: str) -> tuple[LoadedConfig, list[str]]:
        """As :func:`load_hooks`."""
        ...

    async def table(
        self, args: argparse.Namespace, project: str, config: LoadedConfig
    ) -> SessionTable:
        """The session table of this configuration."""
        ...


def run_hooks(args: argparse.Namespace) -> int:
    """The ``run`` command, answered in this process."""
    return run_in_process(args, RunIO.of_this_process(getattr(args, "stdin_bytes", None)))


def run_in_process(args: argparse.Namespace, io: RunIO) -> int:
    """``run`` answered in this process, one-off session and all; never raises."""
    try:
        with quiet_diagnostics_log():
            return _run(args, io)
    except BaseException as exc:
        return _contained(exc, args, io)


async def run_resident(args: argparse.Namespace, io: RunIO, host: ResidentHost) -> int:
    """``run`` answered by the resident server for a client (``io``): the same steps and
    output as :func:`run_in_process`, with the configuration's long-lived sessions;
    never raises but for cancellation."""
    try:
        prepared = _prepare(args, io, host.load)
        if isinstance(prepared, int):
            return prepared
        table = await host.table(args, prepared.project, prepared.config)
        answer, answered = _answerer(args, io)
        result = await table.answer(
            prepared.decoded,
            fail_closed=prepared.fail_closed,
            environ=io.environ,
            cwd=io.cwd,
            on_answer=answer,
        )
        return _conclude(args, io, result, answered, prepared.decoded)
    except (Exception, SystemExit) as exc:
        return _contained(exc, args, io)


def _contained(exc: BaseException, args: argparse.Namespace, io: RunIO) -> int:
    if isinstance(exc, SystemExit):  # Python hook code (a module as it loads) called sys.exit()
        # Its status must not stand in for the answer: exit 0 with nothing printed allows.
        message = f"hook code called sys.exit({exc.code!r}); no answer"
        return _fail(message, args.fail_closed, io, args)
    if isinstance(exc, Exception):  # an internal error: never let a traceback be the answer
        message = f"internal error: {type(exc).__name__}: {exc}"
        return _fail(message, args.fail_closed, io, args)
    raise exc


def _fail(
    message: str, fail_closed: bool, io: RunIO, args: argparse.Namespace | None = None
) -> int:
    """Say why on stderr; the exit status. Failing closed for a harness that reads no
    exit status (Cline), the event's block is printed too (``args``: the options that
    name the harness and the event)."""
    print(f"agent-hooks: {_one_line(message)}", file=io.stderr)
    if fail_closed and args is not None:
        from ..._wire._detect import failure_answer

        answer = failure_answer(
            io.stdin,
            f"agent-hooks failed closed: {_one_line(message)}",
            dialect=getattr(args, "dialect", None),
            event=getattr(args, "event", None),
        )
        if answer is not None:
            _emit(answer, io)
    return 2 if fail_closed else 1


def _soft(code: int, args: argparse.Namespace, dialect: Any = None) -> int:
    """``code``, with the "failed, go on" status 1 written as the calling harness reads
    it (Copilot fails a preToolUse closed on any status but 0 and 2: it is told 0, with
    nothing on stdout). The harness is ``dialect``, else ``--dialect``."""
    if code != 1:
        return code
    if dialect is None and getattr(args, "dialect", None):
        from ..._wire._dialects import get_dialect

        try:
            dialect = get_dialect(args.dialect)
        except ValueError:
            return code
    native = getattr(dialect, "native", None)
    return int(native.nonblocking_exit) if native is not None else code


def _one_line(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")


def _emit(obj: Any, io: RunIO) -> None:
    """One JSON object, UTF-8 (JSON's encoding, whatever the locale), on stdout."""
    from .._payload import dumps

    sys.stdout.flush()  # (text a Python hook printed goes before the answer, not into it)
    io.stdout.write(dumps(obj).encode("utf-8") + b"\n")
    io.stdout.flush()


class _Prepared:
    """A payload decoded and its configuration loaded, ready to dispatch."""

    def __init__(
        self, decoded: DecodedInput, project: str, config: LoadedConfig, fail_closed: bool
    ) -> None:
        self.decoded = decoded
        self.project = project
        self.config = config
        self.fail_closed = fail_closed


def _prepare(
    args: argparse.Namespace,
    io: RunIO,
    load: Callable[[argparse.Namespace, str], tuple[LoadedConfig, list[str]]],
) -> _Prepared | int:
    """Decode the payload, find the project, load the hooks; the exit status instead
    when ``run`` ends here (a bad payload, hooks that cannot run under
    ``--fail-closed``)."""
    from ..._base._errors import InvalidPayloadError, UnknownEventError
    from ..._wire._detect import decode_payload

    fail_closed = bool(args.fail_closed)
    try:
        decoded = decode_payload(
            io.stdin, dialect=getattr(args, "dialect", None), event=getattr(args, "event", None)
        )
    except (InvalidPayloadError, UnknownEventError) as exc:
        return _soft(_fail(str(exc), fail_closed, io, args), args)
    except ValueError as exc:  # an unknown --dialect
        return _fail(str(exc), fail_closed, io)
    named = args.project_dir or io.environ.get("CLAUDE_PROJECT_DIR")
    project = named or decoded.input.cwd or io.cwd
    try:
        os.fsencode(project)
        path_like = "\0" not in project
    except UnicodeEncodeError:  # a lone surrogate: no file system path
        path_like = False
    if not path_like:
        return _fail(f"the project directory {project!r} is not a path", fail_closed, io, args)
    project = os.path.join(io.cwd, project)  # (relative to the caller's directory)
    project = os.path.normpath(project)
    if not named:
        # (no project named: the nearest project root at or above the payload's cwd)
        from ..._config._common import find_project_root

        project = find_project_root(os.path.join(project, "_")) or project
    typed = list(args.config)
    args = _relative_to(args, io.cwd)
    try:
        config, missing = load(args, project)
    except ValueError as exc:
        return _fail(str(exc), fail_closed, io, args)
    spelled = dict(zip(args.config, typed, strict=True))
    missing = [spelled.get(path, path) for path in missing]
    problems = [f"{path}: no such file" for path in missing]
    if fail_closed:
        # A guard that was told to load a file and could not must not pass silently.
        problems += not_loaded(config)
        problems += [e for d in config.errors if (e := _one_line(str(d))) not in problems]
        if problems:
            return _fail("hooks cannot run as configured: " + "; ".join(problems), True, io, args)
    for problem in problems:
        print(f"agent-hooks: {problem}; no hooks loaded from it", file=io.stderr)
    return _Prepared(decoded, project, config, fail_closed)


def _relative_to(args: argparse.Namespace, cwd: str) -> argparse.Namespace:
    """``args`` with the paths it names (``--config``, ``--trust-store``, ``--home``)
    made absolute against the caller's directory: the resident server's own directory
    is not the caller's."""

    def absolute(path: str | None) -> str | None:
        if not path:
            return path
        return os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))

    resolved = argparse.Namespace(**vars(args))
    resolved.config = [absolute(p) for p in args.config]
    resolved.trust_store = absolute(args.trust_store)
    resolved.home = absolute(args.home)
    return resolved


def _answerer(
    args: argparse.Namespace, io: RunIO
) -> tuple[Callable[[BridgeResult], None], list[bool]]:
    """The callback that prints the answer as soon as it is decided, and the list it
    marks when it did."""
    answered: list[bool] = []

    def answer(result: BridgeResult) -> None:
        # Printed as soon as it is decided; fire-and-forget handlers may run on (in a
        # one-off session: for up to the registry's background_drain_timeout before the
        # process exits).
        if args.report:
            return
        if result.plain is not None:
            # plain text has no escapes: a lone surrogate (from a JSON answer) becomes "?"
            text = result.plain.encode("utf-8", errors="replace")
            io.stdout.write(text + (b"\n" if text else b""))
            io.stdout.flush()
        elif result.exit_code == 0 or result.decision is not None:
            _emit(result.answer, io)
        answered.append(True)

    return answer, answered


def _conclude(
    args: argparse.Namespace,
    io: RunIO,
    result: BridgeResult,
    answered: list[bool],
    decoded: DecodedInput,
) -> int:
    """Print what is left to print (diagnostics, the report) and the exit status."""
    from .._payload import diagnostic_lines, report_json

    if result.decision is not None and result.exit_code == 2:
        # A block the event can only take as exit 2: stderr is the reason; a --report
        # follows it there (stdout, which the harness does not read here, stays empty).
        print(result.error or "", file=io.stderr)
        if args.report:
            from .._payload import dumps

            print(dumps({**report_json(result), "resident": io.resident}), file=io.stderr)
        return 2
    for line in diagnostic_lines(result):
        print(line, file=io.stderr)
    if args.report:
        _emit({**report_json(result), "resident": io.resident}, io)
    elif result.error is None and not answered:
        _emit(result.answer, io)
    return _soft(result.exit_code, args, decoded.dialect)


def _run(args: argparse.Namespace, io: RunIO) -> int:
    prepared = _prepare(args, io, load_hooks)
    if isinstance(prepared, int):
        return prepared
    import anyio

    from .._payload import dispatch_payload

    registry = prepared.config.registry(fail_closed=prepared.fail_closed)
    answer, answered = _answerer(args, io)
    result = anyio.run(
        lambda: dispatch_payload(
            prepared.decoded,
            registry,
            project_dir=prepared.project,
            fail_closed=prepared.fail_closed,
            on_answer=answer,
            environ=io.environ,
            cwd=io.cwd,
        )
    )
    return _conclude(args, io, result, answered, prepared.decoded)
