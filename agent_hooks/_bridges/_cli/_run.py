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
    from .._answer import Failure, Options, Reply
    from .._payload import BridgeResult
    from .._sessions import SessionTable

__all__ = [
    "NOT_LOADED",
    "RunHost",
    "RunIO",
    "add_load_options",
    "answer_run",
    "load_hooks",
    "not_loaded",
    "project_of",
    "quiet_diagnostics_log",
    "register",
    "run_hooks",
    "run_in_process",
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
    add_audit_options(run)
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


def add_audit_options(parser: argparse.ArgumentParser) -> None:
    """``--shadow`` and ``--log`` (shared by ``run`` and ``serve``)."""
    parser.add_argument(
        "--shadow",
        action="store_true",
        help="shadow mode: run every hook and record what it would have decided (--report, "
        "the decision log, OpenTelemetry), enforce nothing of it",
    )
    parser.add_argument(
        "--log",
        metavar="FILE",
        help="append one JSON Lines record per decision to FILE (hash-chained; check it with "
        "'agent-hooks log verify FILE'); also: AGENT_HOOKS_DECISION_LOG",
    )


def registry_options(args: argparse.Namespace) -> dict[str, Any]:
    """The :class:`~agent_hooks.HookRegistry` options ``run``'s arguments set."""
    return {
        "fail_closed": bool(args.fail_closed),
        "shadow": bool(getattr(args, "shadow", False)),
        "decision_log": getattr(args, "log", None) or None,
    }


def with_decision_log(
    args: argparse.Namespace, cwd: str, environ: Mapping[str, str]
) -> argparse.Namespace:
    """``args`` with ``log`` the decision log of this call: ``--log``, else
    ``AGENT_HOOKS_DECISION_LOG`` of the caller's environment, as an absolute path
    against the caller's directory."""
    log = getattr(args, "log", None) or environ.get("AGENT_HOOKS_DECISION_LOG") or None
    if log is not None:
        log = os.path.normpath(os.path.join(cwd, os.path.expanduser(log)))
    if log == getattr(args, "log", None):
        return args
    resolved = argparse.Namespace(**vars(args))
    resolved.log = log
    return resolved


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
    """The configuration ``args`` name, after agent_hooks's own managed layer
    (:func:`~agent_hooks._config._managed.load_managed_dir`, always), and the
    ``--config`` paths that do not exist.

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
    else:
        # agent_hooks's own managed layer loads on every call (discover loads it too)
        from ..._config._managed_layer import load_managed_dir

        parts.append(load_managed_dir(trust=policy))
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


def unusable_because(config: LoadedConfig, missing: list[str]) -> list[str]:
    """Why ``--fail-closed`` cannot run hooks as configured: the ``missing`` files, the
    files that did not load (:func:`not_loaded`) and every error; empty: it can."""
    from ..._base._diagnostics import one_line

    problems = [f"{path}: no such file" for path in missing] + not_loaded(config)
    problems += [e for d in config.errors if (e := one_line(str(d))) not in problems]
    return problems


def not_loaded(config: LoadedConfig) -> list[str]:
    """Why the files of ``config`` that did not load did not: one message per file that
    names it, with its diagnostics (the untrusted notice and how to trust it, the read
    or parse error) and the trust store's. Empty when every file loaded."""
    from ..._base._diagnostics import Severity, one_line

    bad = {f.path: f for f in config.files if f.status in NOT_LOADED}
    if not bad:
        return []
    known = {f.path for f in config.files}
    messages = []
    for path, f in bad.items():
        why = [
            one_line(str(d))
            for d in config.diagnostics
            if d.source == path and d.severity is not Severity.INFO
        ]
        messages.append(f"{path} was not loaded ({f.status})")
        messages += why
    messages += [
        one_line(str(d))
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
        self.answered = False
        """Whether stdout was written (the answer goes out as soon as it is decided)."""

    @classmethod
    def of_this_process(cls, stdin: bytes | None = None) -> RunIO:
        """This process's: standard input (unless read already), working directory,
        ``os.environ``, standard output and error."""
        data = sys.stdin.buffer.read() if stdin is None else stdin
        return cls(
            data, cwd=os.getcwd(), environ=os.environ, stdout=sys.stdout.buffer, stderr=sys.stderr
        )

    def write_stdout(self, data: bytes) -> None:
        """``data`` on stdout, once per call (later writes are dropped)."""
        if self.answered:
            return
        self.answered = True
        if data:
            sys.stdout.flush()  # (text a Python hook printed goes before the answer, not into it)
            self.stdout.write(data)
            self.stdout.flush()

    def finish(self, done: Reply) -> int:
        """Print what is left of ``done``; its exit status."""
        self.write_stdout(done.stdout)
        self.stderr.write(done.stderr)
        self.stderr.flush()
        return done.status


class RunHost(Protocol):
    """Where ``run`` loads its hooks and finds their session table: in-process, a table
    of one call (every payload in a one-off session); in the resident server's worker,
    loading fresh on every call (an edited file or a changed trust store counts at once)
    and the long-lived sessions of a configuration (reused while the loaded files stay
    the same)."""

    def load(self, args: argparse.Namespace, project: str) -> tuple[LoadedConfig, list[str]]:
        """As :func:`load_hooks`."""
        ...

    async def table(
        self, args: argparse.Namespace, project: str, config: LoadedConfig
    ) -> SessionTable:
        """The session table of this configuration."""
        ...


class _OneOff:
    """The host of an in-process ``run``: a session table that is never started, so the
    payload is answered in a one-off session."""

    def load(self, args: argparse.Namespace, project: str) -> tuple[LoadedConfig, list[str]]:
        return load_hooks(args, project)

    async def table(
        self, args: argparse.Namespace, project: str, config: LoadedConfig
    ) -> SessionTable:
        from .._sessions import SessionTable

        return SessionTable(config.registry(**registry_options(args)), project_dir=project)


def run_hooks(args: argparse.Namespace) -> int:
    """The ``run`` command, answered in this process."""
    return run_in_process(args, RunIO.of_this_process(getattr(args, "stdin_bytes", None)))


def run_in_process(args: argparse.Namespace, io: RunIO) -> int:
    """``run`` answered in this process (:func:`answer_run` with a one-off session);
    never raises."""
    import anyio

    try:
        with quiet_diagnostics_log():
            return anyio.run(answer_run, args, io, _OneOff())
    except BaseException as exc:
        return io.finish(_contained(exc, args, io))


async def answer_run(args: argparse.Namespace, io: RunIO, host: RunHost) -> int:
    """``run``: decode the payload, load the hooks (``host``), dispatch through the
    configuration's session table, print the answer as soon as it is decided and the
    rest once the call is done (:func:`~agent_hooks._bridges._answer.reply`); the exit
    status. Never raises but for cancellation."""
    from .._answer import Failure, answer_bytes, reply

    options = _options(args, io)
    try:
        args = with_decision_log(args, io.cwd, io.environ)
        prepared = _prepare(args, io, host.load)
        if isinstance(prepared, Failure):
            return io.finish(reply(prepared, io.stdin, options))
        table = await host.table(args, prepared.project, prepared.config)

        def decided(result: BridgeResult) -> None:
            # Printed as soon as it is decided; fire-and-forget handlers may run on (in a
            # one-off session: for up to the registry's background_drain_timeout).
            if not args.report:
                io.write_stdout(answer_bytes(result))

        result = await table.answer(
            prepared.decoded,
            fail_closed=options.fail_closed,
            environ=io.environ,
            cwd=io.cwd,
            on_answer=decided,
        )
        return io.finish(reply(result, io.stdin, options, prepared.decoded.dialect))
    except (Exception, SystemExit) as exc:
        return io.finish(_contained(exc, args, io))


async def prepare_run(
    args: argparse.Namespace, project: str, cwd: str, environ: Mapping[str, str], host: RunHost
) -> None:
    """What :func:`answer_run` does for ``args`` before it reads a payload: the hooks
    loaded (``host``) and the configuration's session table made, as a call of
    ``project`` from ``cwd`` with ``environ`` would load and make them, and nothing
    run. The resident server's worker does this for ``daemon start``, so the first
    call of a session finds its configuration loaded. A configuration that does not
    load is left to that call, which reports it.

    Raises:
        ValueError: ``project`` is not the host's (see :meth:`RunHost.load`).
    """
    args = _relative_to(with_decision_log(args, cwd, environ), cwd)
    config, _ = host.load(args, project)
    await host.table(args, project, config)


def _options(args: argparse.Namespace, io: RunIO) -> Options:
    from .._answer import Options

    return Options.of(args, io.resident)


def _contained(exc: BaseException, args: argparse.Namespace, io: RunIO) -> Reply:
    """The reply of a call that raised: hook code that called ``sys.exit()`` (a module
    as it loads; its status must not stand in for the answer: exit 0 with nothing
    printed allows), an internal error (a traceback is never the answer)."""
    from .._answer import Failure, reply

    if isinstance(exc, SystemExit):
        message = f"hook code called sys.exit({exc.code!r}); no answer"
    elif isinstance(exc, Exception):
        message = f"internal error: {type(exc).__name__}: {exc}"
    else:
        raise exc
    return reply(Failure(message), io.stdin, _options(args, io))


class _Prepared:
    """A payload decoded and its configuration loaded, ready to dispatch."""

    def __init__(self, decoded: DecodedInput, project: str, config: LoadedConfig) -> None:
        self.decoded = decoded
        self.project = project
        self.config = config


def _prepare(
    args: argparse.Namespace,
    io: RunIO,
    load: Callable[[argparse.Namespace, str], tuple[LoadedConfig, list[str]]],
) -> _Prepared | Failure:
    """Decode the payload, find the project, load the hooks; the failure instead when
    ``run`` ends here (a bad payload, hooks that cannot run under ``--fail-closed``)."""
    from ..._base._errors import InvalidPayloadError, UnknownEventError
    from ..._wire._detect import decode_payload
    from .._answer import Failure

    try:
        decoded = decode_payload(
            io.stdin, dialect=getattr(args, "dialect", None), event=getattr(args, "event", None)
        )
    except (InvalidPayloadError, UnknownEventError) as exc:
        return Failure(str(exc), soft=True)
    except ValueError as exc:  # an unknown --dialect
        return Failure(str(exc))
    try:
        project = project_of(args, decoded.input.cwd, io.cwd, io.environ)
    except ValueError as exc:
        return Failure(str(exc))
    typed = list(args.config)
    args = _relative_to(args, io.cwd)
    try:
        config, missing = load(args, project)
    except ValueError as exc:
        return Failure(str(exc))
    spelled = dict(zip(args.config, typed, strict=True))
    missing = [spelled.get(path, path) for path in missing]
    problems = [f"{path}: no such file" for path in missing]
    if args.fail_closed:
        # A guard that was told to load a file and could not must not pass silently.
        problems = unusable_because(config, missing)
        if problems:
            return Failure("hooks cannot run as configured: " + "; ".join(problems))
    for problem in problems:
        print(f"agent-hooks: {problem}; no hooks loaded from it", file=io.stderr)
    return _Prepared(decoded, project, config)


def project_of(
    args: argparse.Namespace, payload_cwd: str | None, cwd: str, environ: Mapping[str, str]
) -> str:
    """The project a call loads: ``--project-dir``, else ``$CLAUDE_PROJECT_DIR``, else the
    nearest project root at or above the payload's ``cwd``, else the caller's directory
    ``cwd`` (relative paths against it).

    Raises:
        ValueError: what names the project is no file system path (a NUL, a lone
            surrogate).
    """
    named = args.project_dir or environ.get("CLAUDE_PROJECT_DIR")
    project = named or payload_cwd or cwd
    try:
        path_like = "\0" not in project and bool(os.fsencode(project))
    except UnicodeEncodeError:  # a lone surrogate
        path_like = False
    if not path_like:
        raise ValueError(f"the project directory {project!r} is not a path")
    project = os.path.normpath(os.path.join(cwd, project))
    if not named:
        from ..._config._common import find_project_root

        project = find_project_root(os.path.join(project, "_")) or project
    return project


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
