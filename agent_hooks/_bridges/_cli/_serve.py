"""``agent-hooks serve``: the hook graph as a long-lived HTTP hook server.

For Claude Code's ``type: "http"`` hooks: POST a payload, get the JSON
``agent-hooks run`` would print (HTTP 200). Binds to loopback by default and
requires a bearer token (from an environment variable or a file) unless
``--no-auth``. Connections, buffered bodies and sessions are bounded, slow or
idle clients time out (see the options). SIGINT/SIGTERM stop it gracefully: the
listener closes at once, in-flight requests finish, sessions close and drain their
background work; a second signal stops at once.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import stat
import sys
from typing import Any

from ._run import add_audit_options, add_load_options, registry_options, with_decision_log

__all__ = ["DEFAULT_PORT", "register", "run_serve"]

DEFAULT_PORT = 8719
DEFAULT_TOKEN_ENV = "AGENT_HOOKS_TOKEN"
# (the server's defaults, repeated here so that --help needs no import of the server)
DEFAULT_MAX_CONNECTIONS = 256
DEFAULT_MAX_SESSIONS = 256
DEFAULT_HEADER_TIMEOUT = 10.0
DEFAULT_BODY_TIMEOUT = 30.0
DEFAULT_IDLE_TIMEOUT = 30.0
DEFAULT_SESSION_IDLE = 1800.0


def register(subparsers: Any) -> None:
    """Add ``serve`` to the top-level parser."""
    serve = subparsers.add_parser(
        "serve",
        help='serve the hooks over HTTP (Claude Code\'s type: "http" hooks)',
        description="Load the hooks of the --config files once and answer hook payloads POSTed "
        "as JSON with the JSON `agent-hooks run` would print (HTTP 200). Requests need "
        "'Authorization: Bearer <token>' (the token comes from --token-env or --token-file) "
        "unless --no-auth. GET /healthz answers without auth. Connections, request bodies held "
        "in memory and sessions are bounded, and slow or idle clients time out (see below). "
        "SIGINT/SIGTERM shut down gracefully: new connections are refused at once, requests "
        "under way finish. Claude Code reads an error status as 'go on': with --fail-closed, "
        "a hook call that cannot be answered gets HTTP 200 and a blocking answer instead.",
    )
    add_load_options(serve, project_default="$CLAUDE_PROJECT_DIR, else .")
    add_audit_options(serve)
    serve.add_argument(
        "--host", default="127.0.0.1", help="the address to bind (default: 127.0.0.1)"
    )
    serve.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"the port (default: {DEFAULT_PORT}; 0: any free port, printed on start)",
    )
    serve.add_argument(
        "--token-env",
        default=DEFAULT_TOKEN_ENV,
        metavar="NAME",
        help=f"the environment variable holding the bearer token (default: {DEFAULT_TOKEN_ENV})",
    )
    serve.add_argument(
        "--token-file", metavar="PATH", help="read the bearer token from this file instead"
    )
    serve.add_argument(
        "--no-auth", action="store_true", help="accept requests without a bearer token"
    )
    serve.add_argument(
        "--fail-closed",
        action="store_true",
        help="answer a hook call that cannot be answered (a payload that cannot be read, too "
        "large or invalid, a missing token, a busy server, a timeout, a --config file that did "
        "not load, an internal error) with HTTP 200 and a block for its event (the payload's, "
        "else the one the URL path ends with: POST /PreToolUse; with neither, continue: "
        "false); and block an event that can be blocked when one of its hooks fails",
    )
    serve.add_argument(
        "--max-body",
        type=int,
        default=1_048_576,
        metavar="BYTES",
        help="the largest request body accepted (default: 1 MiB; larger: 413)",
    )
    serve.add_argument(
        "--max-buffered",
        type=int,
        default=None,
        metavar="BYTES",
        help="the bytes of request bodies held in memory at once, across connections "
        "(default: 16 MiB, at least --max-body); a request waits for room, then gets 503",
    )
    serve.add_argument(
        "--max-connections",
        type=int,
        default=None,
        metavar="N",
        help="open connections at once; more wait in the kernel's queue (default: "
        f"{DEFAULT_MAX_CONNECTIONS}, at most half the open-file limit)",
    )
    serve.add_argument(
        "--header-timeout",
        type=float,
        default=DEFAULT_HEADER_TIMEOUT,
        metavar="SECONDS",
        help="time for a request's head to arrive, from the connection or from the "
        f"request's first byte (default: {DEFAULT_HEADER_TIMEOUT:g}; then 408 and close)",
    )
    serve.add_argument(
        "--body-timeout",
        type=float,
        default=DEFAULT_BODY_TIMEOUT,
        metavar="SECONDS",
        help="time for a request's body to arrive after its head, and for the client to "
        f"take the answer (default: {DEFAULT_BODY_TIMEOUT:g})",
    )
    serve.add_argument(
        "--idle-timeout",
        type=float,
        default=DEFAULT_IDLE_TIMEOUT,
        metavar="SECONDS",
        help="how long a keep-alive connection may wait for its next request "
        f"(default: {DEFAULT_IDLE_TIMEOUT:g})",
    )
    serve.add_argument(
        "--max-sessions",
        type=int,
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help="sessions (one per session_id) kept open at once; the least recently used "
        f"closes first (default: {DEFAULT_MAX_SESSIONS})",
    )
    serve.add_argument(
        "--session-idle",
        type=float,
        default=DEFAULT_SESSION_IDLE,
        metavar="SECONDS",
        help="close a session this long after its last request, draining its background "
        f"work (default: {DEFAULT_SESSION_IDLE:g}; 0: only on SessionEnd)",
    )
    serve.add_argument(
        "--grace",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="how long a shutdown waits for in-flight requests (default: 10)",
    )
    serve.set_defaults(func=run_serve)


def _token(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """``(token, error)``; a warning is logged for a token file others can read."""
    if args.no_auth:
        return None, None
    if args.token_file:
        try:
            with open(args.token_file, encoding="utf-8") as f:
                mode = os.fstat(f.fileno()).st_mode
                token = f.read().strip()
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            return None, f"cannot read --token-file {args.token_file}: {why}"
        if not token:
            return None, f"--token-file {args.token_file} is empty"
        if os.name == "posix" and mode & 0o044:
            # (a warning, not a refusal: a server that does not start leaves every HTTP
            # hook failing open, as Claude Code reads a refused connection as "go on")
            _log(
                f"warning: --token-file {args.token_file} can be read by group or others "
                f"(mode {stat.S_IMODE(mode):04o}): whoever reads it can run these hooks; "
                f"chmod 600 {args.token_file}"
            )
        return token, None
    token = os.environ.get(args.token_env, "").strip()
    if not token:
        return None, (
            f"no bearer token: set ${args.token_env} (or --token-env NAME), pass --token-file "
            "PATH, or serve without auth with --no-auth"
        )
    return token, None


def _check_limits(args: argparse.Namespace) -> str | None:
    """Why the limits on the command line cannot be used, or ``None``."""
    for option, value in (
        ("--max-body", args.max_body),
        ("--max-buffered", args.max_buffered),
        ("--max-connections", args.max_connections),
        ("--max-sessions", args.max_sessions),
        ("--header-timeout", args.header_timeout),
        ("--body-timeout", args.body_timeout),
        ("--idle-timeout", args.idle_timeout),
    ):
        if value is not None and not value > 0:
            return f"{option} must be positive"
    if not args.session_idle >= 0:
        return "--session-idle must be 0 or more"
    if args.max_buffered is not None and args.max_buffered < args.max_body:
        return "--max-buffered must be at least --max-body"
    return None


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _log(line: str) -> None:
    print(f"agent-hooks serve: {line}", file=sys.stderr, flush=True)


def run_serve(args: argparse.Namespace) -> int:
    """The ``serve`` command."""
    token, error = _token(args)
    if error is not None:
        _log(error)
        return 2
    error = _check_limits(args)
    if error is not None:
        _log(error)
        return 2
    if args.no_auth and not _is_loopback(args.host):
        _log(f"warning: serving on {args.host} without auth: anyone who can reach it runs hooks")

    from ..._handlers._http import _h11
    from ._run import load_hooks, not_loaded, unusable_because

    try:
        _h11()
    except Exception as exc:
        _log(str(exc))
        return 2
    project = os.path.abspath(
        args.project_dir or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    )
    try:
        config, missing = load_hooks(args, project)
    except ValueError as exc:
        _log(str(exc))
        return 2
    for path in missing:
        _log(f"{path}: no such file; no hooks loaded from it")
    for line in not_loaded(config):
        _log(f"warning: {line}")
    unusable = None
    if args.fail_closed:
        # (as `run --fail-closed`: a guard told to load a file that did not load must not
        # pass; refusing to start would, so every hook call is answered with a block)
        problems = unusable_because(config, missing)
        if problems:
            unusable = "; ".join(problems)
            _log(f"fail-closed: every hook call will be blocked: {unusable}")
    if unusable is None and not any(sg.groups for sg in config.sources):
        _log("warning: no hooks loaded: every request will be answered with {}")

    import anyio

    args = with_decision_log(args, os.getcwd(), os.environ)
    registry = config.registry(**registry_options(args))
    try:
        anyio.run(_serve, args, registry, token, project, unusable)
    except KeyboardInterrupt:  # pragma: no cover - a signal before the handlers were set
        return 130
    return 0


async def _serve(
    args: argparse.Namespace, registry: Any, token: str | None, project: str, unusable: str | None
) -> None:
    import signal

    import anyio

    from .._server import HookServer

    server = HookServer(
        registry,
        host=args.host,
        port=args.port,
        token=token,
        require_auth=not args.no_auth,
        max_body=args.max_body,
        max_buffered=args.max_buffered,
        max_connections=args.max_connections,
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
        idle_timeout=args.idle_timeout,
        session_idle=args.session_idle or None,
        max_sessions=args.max_sessions,
        project_dir=project,
        shutdown_grace=args.grace,
        log=_log,
        fail_closed=args.fail_closed,
        unusable=unusable,
    )
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_watch_signals, signals, server, tg.cancel_scope)
            await tg.start(_run_until_stopped, server, tg.cancel_scope)
            _log(f"listening on {server.url}")


async def _run_until_stopped(server: Any, scope: Any, *, task_status: Any) -> None:
    await server.run(task_status=task_status)
    scope.cancel()  # the signal watcher
    _log("stopped")


async def _watch_signals(signals: Any, server: Any, scope: Any) -> None:
    import signal

    async for signum in signals:
        if server.stopping:
            _log("second signal: stopping now")
            scope.cancel()
            return
        _log(f"{signal.Signals(signum).name}: shutting down (in-flight requests finish)")
        server.shutdown()
