"""Helpers shared by the tests of hook processes: descriptors, process liveness, FIFOs,
socket directories."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import anyio


def socket_dir() -> Path:
    """A new private directory (mode 0700) for a resident server's socket, to be the
    ``XDG_RUNTIME_DIR`` of one test, with a short path: a Unix socket's path must fit in
    107 bytes, which one under pytest's ``tmp_path`` (a level deeper on a pytest-xdist
    worker) does not always. The caller removes it."""
    return Path(tempfile.mkdtemp(prefix="ah-"))


def fd_count() -> int:
    """How many file descriptors this process holds."""
    return len(os.listdir("/proc/self/fd"))


def is_gone(pid: int) -> bool:
    """True when ``pid`` no longer runs (does not exist, or is a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


async def wait_gone(pid: int, within: float = 5.0) -> None:
    """Wait for a killed grandchild to die (it is not our child: use a pidfd)."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        with anyio.move_on_after(within):
            await anyio.wait_readable(pidfd)  # readable once the process exited
    finally:
        anyio.notify_closing(pidfd)
        os.close(pidfd)
    assert is_gone(pid), f"process {pid} survived its hook"


async def read_fifo_line(path: Path) -> bytes:
    """Read one line a child writes into the FIFO at ``path`` (no threads)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        data = b""
        while not data.endswith(b"\n"):
            await anyio.wait_readable(fd)
            try:
                chunk = os.read(fd, 4096)
            except BlockingIOError:
                continue
            if not chunk:
                break
            data += chunk
        return data
    finally:
        anyio.notify_closing(fd)
        os.close(fd)
