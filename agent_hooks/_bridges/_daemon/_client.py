"""The thin client ``agent-hooks run`` starts as (standard library only).

:func:`client_main` sends the call (the command line, this process's working directory
and environment, the payload) to the resident server of this user and loading
environment, and prints its answer: the bytes an in-process ``run`` would print, with
its exit status. Without a server it starts one in the background (detached, its own
session, its output in a log file) and answers this call in-process, so a first call
costs what ``run`` always cost. A server that dies or stops answering mid-request (no
heartbeat for :data:`SILENCE` seconds) is left behind and the call is answered
in-process, with a ``resident_server`` warning on stderr.

``--no-daemon``, ``AGENT_HOOKS_NO_DAEMON=1``, ``--help``, a platform without Unix
sockets and a socket directory that is not private keep ``run`` in-process.
"""

from __future__ import annotations

import os
import socket
import sys

from ..._base._version import VERSION
from ._protocol import (
    DISABLE_ENV,
    IDLE_ENV,
    WAIT_ENV,
    FrameError,
    log_path,
    pack,
    private_dir,
    read_frame,
    server_key,
    server_paths,
)

TYPE_CHECKING = False  # (not typing's: this module must not import typing)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["SILENCE", "client_main", "start_server"]

ACCEPT_WAIT = 5.0
"""Seconds to wait for a live server to take a request (``A``)."""
SILENCE = 10.0
"""Seconds without a frame (heartbeats come every half second) after which a server
that took a request counts as hung."""


class _Gone(Exception):
    """The server died or hung after taking the request."""


def client_main(argv: Sequence[str]) -> int | None:
    """Answer ``agent-hooks run`` through the resident server; ``None`` when this call
    is not for it (another command, ``--no-daemon``, ...) and the ordinary command line
    should run; the exit status otherwise (the answer is printed)."""
    if not argv or argv[0] != "run" or not _wanted(argv[1:], os.environ):
        return None
    stdin = sys.stdin.buffer.read()
    directory = private_dir(os.environ)
    if directory is None:
        return _in_process(argv, stdin, None)
    key = server_key(os.environ, VERSION)
    sock_path = server_paths(directory, key)[0]
    try:
        answer = _ask(sock_path, argv, stdin)
    except _Gone as exc:
        return _in_process(argv, stdin, str(exc))
    if answer is not None:
        return _print(answer)
    wait = _seconds(os.environ.get(WAIT_ENV))
    if wait <= 0:
        # Answered first, then the server starts: its start-up (an interpreter and the
        # whole package) does not compete with this call for the CPU.
        code = _in_process(argv, stdin, None)
        start_server(key, directory, os.environ)
        return code
    start_server(key, directory, os.environ)
    import time

    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(0.02)  # (the server is starting in another process)
        try:
            answer = _ask(sock_path, argv, stdin)
        except _Gone as exc:
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
    if environ.get(DISABLE_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        return False
    if not hasattr(socket, "AF_UNIX"):
        return False
    for arg in options:
        if arg == "--":
            break
        if arg in ("--no-daemon", "-h", "--help"):
            return False
    return True


def _ask(path: str, argv: Sequence[str], stdin: bytes) -> tuple[int, bytes, bytes] | None:
    """The server's answer; ``None`` when no server takes the request (none running,
    a stale socket, another version).

    Raises:
        _Gone: the server took the request, then died or fell silent.
    """
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(ACCEPT_WAIT)
        try:
            sock.connect(path)
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
        while True:
            try:
                kind, header, body = read_frame(sock)
            except (OSError, FrameError, ValueError) as exc:
                raise _Gone(
                    "the resident hook server died or stopped answering mid-request "
                    f"({type(exc).__name__}: {exc}); answered in-process"
                ) from None
            if kind == b"H":
                continue
            if kind != b"R":
                raise _Gone(f"the resident hook server answered {kind!r}; answered in-process")
            try:
                code, cut = int(header[0]), int(header[1])
            except (IndexError, ValueError):
                raise _Gone(
                    "the resident hook server's answer is malformed; answered in-process"
                ) from None
            return code, body[:cut], body[cut:]
    finally:
        sock.close()


def _print(answer: tuple[int, bytes, bytes]) -> int:
    """Print the server's answer as the in-process ``run`` would have; its exit status."""
    code, out, err = answer
    for stream, data in ((sys.stdout.buffer, out), (sys.stderr.buffer, err)):
        if data:
            stream.write(data)
            stream.flush()
    return code


def start_server(key: str, directory: str, environ: Mapping[str, str]) -> bool:
    """Start the server ``key`` in the background unless one is starting or running;
    whether this call started it. The spawn lock, held by the new server until it
    listens, makes concurrent first calls start one server."""
    import fcntl

    _, lock_path, spawn_path = server_paths(directory, key)
    try:
        spawn = os.open(spawn_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(spawn, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # another client is starting it
        if _held(lock_path):
            return False  # a server is running (and will take the next call)
        log = log_path(environ, key)
        try:
            os.makedirs(os.path.dirname(log), mode=0o700, exist_ok=True)
            out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        except OSError:
            out = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
        argv = [sys.executable, "-m", "agent_hooks", "daemon", "serve", "--key", key]
        argv += ["--spawn-lock-fd", str(spawn)]
        idle = environ.get(IDLE_ENV)
        if idle:
            argv += ["--idle-timeout", idle]
        try:
            # posix_spawn, not subprocess: the server outlives this process, and a
            # Popen dropped while its child runs warns in a process that embeds
            # this (``main(["run", ...])``). The server moves to its socket directory.
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


def _held(path: str) -> bool:
    """Whether a live server holds its lock file."""
    import fcntl

    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
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
