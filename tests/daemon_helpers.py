"""The resident servers a test starts, asked and stopped without the command line: the
status is the server's answer to a ``T`` frame on its socket; stopping is a SIGTERM to
every server named in the socket directory's lock files, then waiting until each is
gone. (``agent-hooks daemon status`` / ``stop`` would cost an interpreter start each;
the tests of those commands run them.)

Servers are never the test's children (a client process spawned them, then exited):
one that exited is a zombie until the init process reaps it, and counts as gone."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent_hooks._base._version import VERSION
from agent_hooks._bridges._daemon._protocol import (
    pack,
    private_dir,
    read_frame,
    server_key,
    server_paths,
)
from tests.process_helpers import is_gone

DEADLINE = 30.0
"""Seconds a test waits for another process (a server to come up, a call to arrive)."""


def ask(directory: str, kind: bytes = b"T", fields: list[str] | None = None) -> Any:
    """The JSON answer of the server of ``directory`` (this version's) to one ``kind``
    frame; ``None`` when nobody answers."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    try:
        sock.connect(server_paths(directory, server_key(VERSION))[0])
        sock.sendall(pack(kind, fields or []))
        _, answer, _ = read_frame(sock)
        return json.loads(answer[0])
    except (OSError, ValueError, IndexError):
        return None
    finally:
        sock.close()


def server_status(env: Mapping[str, str]) -> dict[str, Any] | None:
    """What ``agent-hooks daemon status`` prints in ``env`` (as a dict), or ``None``
    where it says no server runs."""
    directory = private_dir(env)
    found = ask(directory) if directory is not None else None
    return found if isinstance(found, dict) else None


def wait_for_server(env: Mapping[str, str]) -> dict[str, Any]:
    """The status of the server of ``env`` once it answers (another process starts it)."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        found = server_status(env)
        if found is not None:
            return found
        time.sleep(0.02)  # (another process is starting)
    raise AssertionError("no resident server came up")


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie has exited: a child of ours is reaped)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
    return not is_gone(pid)


def wait_gone(pid: int, timeout: float = DEADLINE) -> None:
    """Return once ``pid`` has exited; SIGKILL it after ``timeout`` seconds."""
    try:
        pidfd = os.pidfd_open(pid)  # (readable once it exited: no polling interval)
    except ProcessLookupError:
        return
    except (AttributeError, OSError):
        pidfd = None
    try:
        deadline = time.monotonic() + timeout
        while alive(pid):
            left = deadline - time.monotonic()
            if left <= 0:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                return
            if pidfd is not None:
                select.select([pidfd], [], [], min(left, 1.0))
            else:
                time.sleep(0.01)  # (another process is exiting)
    finally:
        if pidfd is not None:
            os.close(pidfd)


def _serves(pid: int, home: str | None) -> bool:
    """Whether ``pid`` is a live resident server (``agent-hooks daemon serve``), of the
    environment whose ``HOME`` is ``home`` when given: a lock file outlives its server,
    and the pid it names may be another process's by now."""
    proc = Path(f"/proc/{pid}")
    if not proc.is_dir():
        return alive(pid)  # (no /proc: the lock is trusted)
    try:
        argv = (proc / "cmdline").read_bytes().split(b"\0")
        if b"daemon" not in argv or b"serve" not in argv:
            return False
        return home is None or b"HOME=" + os.fsencode(home) in (
            (proc / "environ").read_bytes().split(b"\0")
        )
    except OSError:
        return False  # (gone, or another user's)


def server_pids(directory: str | os.PathLike[str], home: str | None = None) -> list[int]:
    """The pids of the live servers named by the lock files of ``directory`` (of the
    environment whose ``HOME`` is ``home`` when given)."""
    pids = []
    for lock in Path(directory).glob("*.lock"):
        with contextlib.suppress(OSError):
            text = lock.read_text().strip()
            if text.isdigit() and _serves(int(text), home):
                pids.append(int(text))
    return pids


def _servers_of(home: str) -> list[int]:
    """The live servers of the environment whose ``HOME`` is ``home``, wherever they
    listen (a directory of a test's own may be gone by its teardown)."""
    if not Path("/proc").is_dir():
        return []
    return [
        int(entry.name)
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit()
        and int(entry.name) != os.getpid()
        and _serves(int(entry.name), home)
    ]


def _spawning(directory: str | os.PathLike[str]) -> bool:
    """Whether a client holds a spawn lock of ``directory``: a server is starting (it
    holds the lock until it listens, its pid in its lock file)."""
    import fcntl

    for spawn in Path(directory).glob("*.spawn"):
        try:
            fd = os.open(spawn, os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)  # (and the lock with it)
    return False


def stop_servers(directory: str | os.PathLike[str] | None, home: str | None = None) -> None:
    """SIGTERM every server of ``directory`` (of ``HOME`` ``home`` when given, and every
    server of that ``HOME`` elsewhere too), one still starting included, and return once
    each is gone."""
    if directory is not None and not os.path.isdir(directory):
        directory = None
    deadline = time.monotonic() + DEADLINE
    while True:
        pids = set(server_pids(directory, home) if directory is not None else [])
        pids.update(_servers_of(home) if home is not None else [])
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        for pid in pids:
            wait_gone(pid)
        if directory is None or not _spawning(directory) or time.monotonic() > deadline:
            return
        time.sleep(0.02)  # (a server is starting: it is stopped once it listens)
