"""The thin client ``agent-hooks run`` starts as (standard library only).

:func:`client_main` sends the call (the command line, this process's working directory
and environment, the payload) to the resident server of this user and loading
environment, and prints its answer: the bytes an in-process ``run`` would print, with
its exit status. Without a server it starts one in the background (detached, its own
session, its output in a log file) and answers this call in-process, so a first call
costs what ``run`` always cost.

Before it sends anything the client checks who would answer: the socket directory is
opened without following a symlink and must be a directory of this user that group
and others cannot reach (every later step goes through that open directory, so a
directory swapped afterwards is not followed); the socket must be this user's; and
the process listening on it must run as this user (``SO_PEERCRED``, or
``LOCAL_PEERCRED`` on macOS and FreeBSD). Anything else, and a platform where the
listener cannot be asked, answers the call in-process with a ``resident_server``
warning on stderr that says what was found; nothing is sent and no server is started.
A dead socket of this user is removed and a server started; a directory or another
kind of file at the socket path is reported on every call.

A server that dies or stops answering after it took the request (no heartbeat for
:data:`SILENCE` seconds) is left behind and the call is answered in-process, so the
guard still answers (a deny is still a deny), with a warning that names the event and
says its hooks may have run twice.

The server is started isolated (``python -I``: neither the caller's working directory
nor ``PYTHONPATH`` is on its module path) in its socket directory, and imports this
very ``agent_hooks`` package (the one the client was loaded from; it refuses to start
if another would load), so no project's ``agent_hooks`` or ``tomllib.py`` runs inside
the shared server.

``--no-daemon``, ``AGENT_HOOKS_NO_DAEMON=1``, ``--help``, a platform without Unix
sockets and a socket directory that is not private keep ``run`` in-process.
"""

from __future__ import annotations

import os
import socket
import sys

from ..._base._version import VERSION
from ._protocol import (
    IDLE_ENV,
    WAIT_ENV,
    FrameError,
    Gone,
    Place,
    Refused,
    answer_of,
    event_of,
    log_path,
    pack,
    peer_uid,
    private_dir,
    read_frame,
    server_key,
    wants_server,
)

TYPE_CHECKING = False  # (not typing's: this module must not import typing)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["SILENCE", "client_main", "peer_uid", "start_server", "warm"]

ACCEPT_WAIT = 5.0
"""Seconds to wait for a live server to take a request (``A``)."""
SILENCE = 10.0
"""Seconds without a frame (heartbeats come every half second) after which a server
that took a request counts as hung."""

_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The ``agent_hooks`` package directory this client was loaded from: the one the server
it starts must load."""

# The server's first code: run isolated (``-I``), so neither the caller's directory nor
# PYTHONPATH is on sys.path; it moves to its socket directory, finds agent_hooks as the
# interpreter would and, when that is not the client's package (found through
# PYTHONPATH or a user site, say), puts the client's package first; it refuses to
# start on any other agent_hooks.
_BOOTSTRAP = """\
import os, sys
os.chdir(sys.argv[1])
want = os.path.realpath(sys.argv[2])
import importlib.util
spec = importlib.util.find_spec("agent_hooks")
if not (spec and spec.origin and os.path.dirname(os.path.realpath(spec.origin)) == want):
    sys.path.insert(0, os.path.dirname(want))
import agent_hooks
found = os.path.dirname(os.path.realpath(agent_hooks.__file__))
if found != want:
    sys.exit(f"agent-hooks daemon: agent_hooks loads from {found}, not {want}; not starting")
from agent_hooks.__main__ import main
sys.argv = ["agent-hooks", *sys.argv[3:]]
sys.exit(main(sys.argv[1:]))
"""


def client_main(argv: Sequence[str]) -> int | None:
    """Answer ``agent-hooks run`` through the resident server; ``None`` when this call
    is not for it (another command, ``--no-daemon``, ...) and the ordinary command line
    should run; the exit status otherwise (the answer is printed)."""
    if not argv or argv[0] != "run" or not _wanted(argv[1:], os.environ):
        return None
    stdin = sys.stdin.buffer.read()
    directory = private_dir(os.environ)
    if directory is None:
        return _in_process(
            argv,
            stdin,
            "no private directory for the resident server's socket (none could be made, "
            "or each is a symbolic link, another user's, or reachable by group or "
            "others); answered in-process",
        )
    key = server_key(VERSION)
    try:
        place = Place(directory, key)
    except Refused as exc:
        return _in_process(argv, stdin, str(exc))
    try:
        return _through(place, argv, stdin)
    finally:
        place.close()


def _through(place: Place, argv: Sequence[str], stdin: bytes) -> int:
    """:func:`client_main` once the socket directory is open."""
    try:
        answer = _ask(place, argv, stdin)
    except Gone as exc:
        return _in_process(argv, stdin, _gone_message(argv, stdin, exc))
    except Refused as exc:
        return _in_process(argv, stdin, str(exc))
    if answer is not None:
        return _print(answer)
    wait = _seconds(os.environ.get(WAIT_ENV))
    if wait <= 0:
        # Answered first, then the server starts: its start-up (an interpreter and the
        # whole package) does not compete with this call for the CPU.
        code = _in_process(argv, stdin, None)
        start_server(place, os.environ, warm=_project(argv, stdin))
        return code
    start_server(place, os.environ, warm=_project(argv, stdin))
    import time

    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(0.02)  # (the server is starting in another process)
        try:
            answer = _ask(place, argv, stdin)
        except Gone as exc:
            return _in_process(argv, stdin, _gone_message(argv, stdin, exc))
        except Refused as exc:
            return _in_process(argv, stdin, str(exc))
        if answer is not None:
            return _print(answer)
    return _in_process(argv, stdin, None)


def _seconds(text: str | None) -> float:
    try:
        value = float(text or 0)
    except ValueError:
        return 0.0
    return value if 0 < value < 3600 else 0.0


def _wanted(options: Sequence[str], environ: Mapping[str, str]) -> bool:
    return hasattr(socket, "AF_UNIX") and wants_server(options, environ)


def _ask(place: Place, argv: Sequence[str], stdin: bytes) -> tuple[int, bytes, bytes] | None:
    """The server's answer; ``None`` when no server takes the request (none running,
    a dead socket, another version).

    Raises:
        Refused: the socket path, or the process listening on it, is not this user's
            (nothing was sent).
        Gone: the server took the request, then died or fell silent.
    """
    if not place.socket_state():
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(ACCEPT_WAIT)
        try:
            sock.connect(place.address)
        except OSError:
            return None  # nobody listens (a dead socket), or nobody in time: nothing ran
        uid = peer_uid(sock)
        if uid is None:
            raise Refused(
                f"cannot tell which user listens on {place.sock_path} on this platform; "
                "nothing was sent to it; answered in-process (AGENT_HOOKS_NO_DAEMON=1 "
                "turns the resident server off)"
            )
        if uid != os.geteuid():
            raise Refused(
                f"the process listening on {place.sock_path} runs as uid {uid}, not as "
                f"this user (uid {os.geteuid()}); nothing was sent to it; answered "
                "in-process"
            )
        try:
            fields = [VERSION, os.getcwd(), str(len(argv)), *argv]
            for name, value in os.environ.items():
                fields += (name, value)
            sock.sendall(pack(b"Q", fields, stdin))
            kind, _, _ = read_frame(sock)
        except (OSError, FrameError, ValueError):
            return None  # nobody (or nobody sane) took it: nothing ran
        if kind != b"A":
            return None  # "V": another version, now stopping; "E": refused
        sock.settimeout(SILENCE)
        return answer_of(lambda: read_frame(sock))
    finally:
        sock.close()


def _gone_message(argv: Sequence[str], stdin: bytes, exc: Gone) -> str:
    """The warning of a call whose server took it and gave no answer."""
    return (
        f"the resident hook server took this {event_of(argv, stdin)} call and gave no "
        f"answer: {exc}; its hooks may have run there, so they ran twice if they did: "
        "answered in-process"
    )


def _print(answer: tuple[int, bytes, bytes]) -> int:
    """Print the server's answer as the in-process ``run`` would have; its exit status."""
    code, out, err = answer
    for stream, data in ((sys.stdout.buffer, out), (sys.stderr.buffer, err)):
        if data:
            stream.write(data)
            stream.flush()
    return code


def _project(argv: Sequence[str], stdin: bytes) -> str | None:
    """The project of a call answered in-process, as the server will read it (the
    modules it takes are loaded already), so the server starts its worker at once."""
    import argparse

    from .._cli import build_parser
    from ._server import _project_of
    from ._worker import parse_run

    args = parse_run(build_parser("run"), list(argv))
    if not isinstance(args, argparse.Namespace):
        return None
    return _project_of(args, stdin, os.getcwd(), dict(os.environ))


def warm(project: str, run: tuple[str, list[str]] | None = None) -> str:
    """Have the server of this environment start ``project``'s worker ahead of its first
    call, without waiting for either, and with ``run`` (the directory and options of
    the ``run`` calls to come) their configuration loaded there: ``"started"`` (a
    server is starting with it),
    ``"running"`` (a server is up or starting: ask it with a ``W`` request),
    ``"unavailable"`` (no private socket directory, or what is there is refused)."""
    directory = private_dir(os.environ)
    if directory is None:
        return "unavailable"
    try:
        place = Place(directory, server_key(VERSION))
    except Refused:
        return "unavailable"
    try:
        started = start_server(place, os.environ, warm=project, warm_run=run)
        return "started" if started else "running"
    finally:
        place.close()


def start_server(
    place: Place,
    environ: Mapping[str, str],
    *,
    warm: str | None = None,
    warm_run: tuple[str, list[str]] | None = None,
) -> bool:
    """Start the server of ``place`` in the background unless one is starting or
    running; whether this call started it. The spawn lock, held by the new server until
    it listens, makes concurrent first calls start one server. A dead socket of this
    user at the socket path is removed first. ``warm``: the project whose worker the
    server starts at once (else it starts a spare worker, which a new project's first
    call claims); ``warm_run``: the directory and ``run`` options whose configuration
    that worker loads before its first call."""
    import fcntl

    try:
        spawn = os.open(
            place.spawn_name,
            os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0),
            0o600,
            dir_fd=place.fd,
        )
    except OSError:
        return False
    try:
        try:
            fcntl.flock(spawn, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # another client is starting it
        if _held(place):
            return False  # a server is running (and will take the next call)
        try:
            if place.socket_state():  # (no server holds the lock: nobody listens on it)
                os.unlink(place.sock_name, dir_fd=place.fd)
        except (Refused, OSError):
            return False  # (reported by the next call's check)
        log = log_path(environ, place.key)
        try:
            os.makedirs(os.path.dirname(log), mode=0o700, exist_ok=True)
            out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        except OSError:
            out = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
        argv = [sys.executable, "-I", "-c", _BOOTSTRAP, place.directory, _PACKAGE]
        argv += ["daemon", "serve", "--key", place.key, "--spawn-lock-fd", str(spawn)]
        if warm:
            argv += ["--warm", warm]
            if warm_run is not None:
                import json

                argv += ["--warm-run", json.dumps({"cwd": warm_run[0], "options": warm_run[1]})]
        idle = environ.get(IDLE_ENV)
        if idle:
            argv += ["--idle-timeout", idle]
        try:
            # posix_spawn, not subprocess: the server outlives this process, and a
            # Popen dropped while its child runs warns in a process that embeds
            # this (``main(["run", ...])``). The bootstrap moves it to its socket
            # directory before it imports anything.
            os.set_inheritable(spawn, True)
            os.posix_spawn(
                sys.executable,
                argv,
                dict(environ),
                file_actions=[
                    (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                    (os.POSIX_SPAWN_DUP2, out, 1),
                    (os.POSIX_SPAWN_DUP2, out, 2),
                ],
                setsid=True,
            )
        except (OSError, NotImplementedError):
            return False
        finally:
            os.close(out)
        return True
    finally:
        os.close(spawn)  # (the new server holds its own copy of the lock)


def _held(place: Place) -> bool:
    """Whether a live server holds its lock file."""
    import fcntl

    try:
        fd = os.open(
            place.lock_name,
            os.O_RDWR | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0),
            dir_fd=place.fd,
        )
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def _in_process(argv: Sequence[str], stdin: bytes, problem: str | None) -> int:
    """Answer this call in this process (the payload was read already)."""
    if problem is not None:
        message = f"warning resident_server: {problem}".replace("\n", "\\n")
        sys.stderr.write(f"agent-hooks: {message}\n")
        sys.stderr.flush()
    from .._cli import main

    return main(list(argv), stdin=stdin)
