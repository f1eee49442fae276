"""``agent-hooks daemon``: the resident hook server of ``agent-hooks run``.

``status`` and ``stop`` talk to the server of the calling environment (the one its
``agent-hooks run`` calls reach); ``start`` starts it and a project's worker in the
background and returns at once (a harness's ``async`` SessionStart hook: install adds
it for Claude Code); ``serve`` runs a server in the foreground (``run`` starts one in
the background by itself; this is for debugging and supervision).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import sys
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``daemon`` to the top-level parser."""
    daemon = subparsers.add_parser(
        "daemon",
        help="the resident hook server of 'agent-hooks run': status, start, stop, serve",
        description="'agent-hooks run' answers through a resident per-user hook server, "
        "started on first use and gone after an idle period. 'status' shows the server of "
        "this environment, 'stop' stops it (after requests under way), 'serve' runs one in "
        "the foreground.",
    )
    actions = daemon.add_subparsers(dest="action", metavar="ACTION", required=True)
    status = actions.add_parser("status", help="show the resident server (exit 1: none)")
    status.set_defaults(func=_status)
    start = actions.add_parser(
        "start",
        help="start the resident server and the project's worker in the background, and "
        "return at once (a harness's SessionStart hook: the first tool call finds them up)",
    )
    start.add_argument(
        "--project-dir",
        metavar="DIR",
        help="the project whose worker to start (default: as run reads it: "
        "$CLAUDE_PROJECT_DIR, else the nearest project root at or above the payload's "
        "cwd or this directory)",
    )
    start.add_argument("--dialect", help=argparse.SUPPRESS)  # (names the harness's entry)
    start.add_argument(
        "run_options",
        nargs="*",
        metavar="RUN-OPTION",
        help="after --: the options of the 'run' calls to come (--config ...); their "
        "configuration is loaded in the worker before the first call",
    )
    start.set_defaults(func=_start)
    stop = actions.add_parser("stop", help="stop the resident server (exit 1: none)")
    stop.set_defaults(func=_stop)
    serve = actions.add_parser("serve", help="run the resident server in the foreground")
    serve.add_argument(
        "--idle-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="exit after this long without a request (default: $AGENT_HOOKS_DAEMON_IDLE, else 300)",
    )
    serve.add_argument("--key", help=argparse.SUPPRESS)
    serve.add_argument("--warm", metavar="PROJECT", help=argparse.SUPPRESS)
    serve.add_argument("--warm-run", metavar="JSON", help=argparse.SUPPRESS)
    serve.add_argument("--spawn-lock-fd", type=int, help=argparse.SUPPRESS)
    serve.set_defaults(func=_serve)


def _where() -> tuple[str, str] | None:
    from ..._base._version import VERSION
    from .._daemon._protocol import private_dir, server_key, server_paths

    directory = private_dir(os.environ)
    if directory is None:
        return None
    key = server_key(VERSION)
    return server_paths(directory, key)[0], key


def _call(kind: bytes, fields: list[str] | None = None) -> dict[str, object] | None:
    from .._daemon._protocol import FrameError, pack, read_frame

    where = _where()
    if where is None:
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10.0)
    try:
        sock.connect(where[0])
        sock.sendall(pack(kind, fields or []))
        _, fields, _ = read_frame(sock)
        found = json.loads(fields[0])
        return found if isinstance(found, dict) else None
    except (OSError, FrameError, IndexError, ValueError):
        return None
    finally:
        sock.close()


def _start(args: argparse.Namespace) -> int:
    """Start the server (with the project's worker) in the background, or ask the
    running one to start the project's worker; never waits for either."""
    from ..._base._version import VERSION
    from .._daemon._client import warm

    project = _start_project(args)
    cwd = os.getcwd()
    options = list(args.run_options)
    state = warm(project, (cwd, options) if options else None)
    environ = [field for item in os.environ.items() for field in item]
    request = [VERSION, project, cwd, str(len(options)), *options, *environ]
    if state == "running" and _call(b"W", request) is None:
        state = "starting"  # (another call is starting it: its first call claims a spare)
    if state == "unavailable":
        print(
            "agent-hooks: no resident hook server here (no private socket directory, or "
            "it is refused); calls are answered in-process",
            file=sys.stderr,
        )
        return 1
    return 0


def _start_project(args: argparse.Namespace) -> str:
    """The project ``daemon start`` warms, read as ``run`` reads it (a harness's payload
    on stdin, when there is one, gives its ``cwd``)."""
    from ._run import project_of

    payload_cwd = None
    if not sys.stdin.isatty():
        with contextlib.suppress(OSError, ValueError, UnicodeDecodeError):
            data = json.loads(sys.stdin.buffer.read() or b"null")
            if isinstance(data, dict) and isinstance(data.get("cwd"), str):
                payload_cwd = data["cwd"]
    try:
        return project_of(args, payload_cwd, os.getcwd(), os.environ)
    except (TypeError, ValueError):
        return os.getcwd()


def _status(args: argparse.Namespace) -> int:
    found = _call(b"T")
    if found is None:
        print("agent-hooks: no resident hook server is running for this environment")
        return 1
    print(json.dumps(found, indent=2))
    return 0


def _stop(args: argparse.Namespace) -> int:
    found = _call(b"S")
    if found is None:
        print("agent-hooks: no resident hook server is running for this environment")
        return 1
    print(f"agent-hooks: stopping the resident hook server (pid {found.get('pid')})")
    return 0


def _warm_run(text: str | None) -> tuple[str, list[str]] | None:
    """``--warm-run``'s directory and ``run`` options (JSON from the client that
    started this server); ``None`` when absent or not well-formed."""
    if not text:
        return None
    try:
        found = json.loads(text)
    except ValueError:
        return None
    if not isinstance(found, dict):
        return None
    cwd, options = found.get("cwd"), found.get("options")
    if not (isinstance(cwd, str) and os.path.isabs(cwd) and isinstance(options, list)):
        return None
    if not all(isinstance(o, str) for o in options):
        return None
    return cwd, options


def _serve(args: argparse.Namespace) -> int:
    import anyio

    from ..._base._version import VERSION
    from .._cli._run import quiet_diagnostics_log
    from .._daemon._protocol import IDLE_ENV, private_dir, server_key
    from .._daemon._server import DEFAULT_IDLE, ResidentServer, SocketPathError

    directory = private_dir(os.environ)
    if directory is None:
        print("agent-hooks: no private directory for the server's socket", file=sys.stderr)
        return 1
    key = args.key or server_key(VERSION)
    idle = args.idle_timeout
    if idle is None:
        try:
            idle = float(os.environ.get(IDLE_ENV, "") or DEFAULT_IDLE)
        except ValueError:
            idle = DEFAULT_IDLE
    os.chdir(directory)  # (not the directory of the client that started it)
    server = ResidentServer(directory, key, idle_timeout=max(idle, 0.1))
    if not server.take_lock():
        server.log("another server holds the lock; exiting")
        return 0
    try:
        with quiet_diagnostics_log():
            anyio.run(
                lambda: server.run(
                    spawn_lock_fd=args.spawn_lock_fd,
                    warm=args.warm,
                    warm_run=_warm_run(args.warm_run),
                )
            )
    except SocketPathError as exc:
        server.log(str(exc))
        return 1
    return 0
