"""The resident server's second door, for the quick client on Linux: named pipes
(FIFOs) in the private socket directory, which a client reaches with ``os`` alone
(``socket`` is about a third of the quick client's own cost).

A call: the client makes two FIFOs in the directory, ``<name>.q`` (it holds it open
for reading and writing, so its writes never wait for a reader to open it) and
``<name>.r`` (open for reading), and writes ``<name>`` and a newline to the server's
FIFO (``<key>.fifo``) in one write (shorter than ``PIPE_BUF``, so announcements of
concurrent clients never interleave). The server opens both, checks that they are
FIFOs of its own user (the directory is private, so nothing else can be there),
removes their names, and then serves the call exactly as one on the socket: the ``Q``
frame is read from ``<name>.q``, the frames of the answer written to ``<name>.r``.

Why it cannot mislead a client: a client that finds no reader of ``<key>.fifo``
(``ENXIO``: no server, or a dead one's FIFO) has sent nothing and is answered as
without a server; until the server opens ``<name>.r`` the client's poll sees neither
data nor a hang-up (a Linux FIFO reports a hang-up only after a writer has come and
gone), so it waits at most ``ACCEPT_WAIT`` for the server's ``A``; after that, the
server's end closing (it died) reads as end of file at once, and silence longer than
``SILENCE`` as a hung server, exactly as on the socket. Other platforms keep the
socket: their FIFOs may report end of file before any writer has come.
"""

from __future__ import annotations

import contextlib
import os
import stat

import anyio
import anyio.abc

from ._protocol import request_fifo

__all__ = ["FifoDoor", "FifoStream"]

MAX_NAME = 64
"""The longest call name an announcement may hold (a pid, a dash, 16 hex digits)."""
_FLAGS = os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW


class FifoStream(anyio.abc.ByteStream):
    """A byte stream over a call's two FIFOs: received from ``<name>.q``, sent to
    ``<name>.r`` (non-blocking descriptors, waited on through the event loop)."""

    def __init__(self, receive_fd: int, send_fd: int) -> None:
        self._receive_fd = receive_fd
        self._send_fd = send_fd
        self._closed = False

    async def receive(self, max_bytes: int = 65536) -> bytes:
        while True:
            if self._closed:
                raise anyio.ClosedResourceError
            try:
                data = os.read(self._receive_fd, max_bytes)
            except BlockingIOError:
                await anyio.wait_readable(self._receive_fd)
                continue
            if not data:
                raise anyio.EndOfStream
            return data

    async def send(self, item: bytes) -> None:
        view = memoryview(item)
        while view:
            if self._closed:
                raise anyio.ClosedResourceError
            try:
                view = view[os.write(self._send_fd, view) :]
            except BlockingIOError:
                await anyio.wait_writable(self._send_fd)
            except BrokenPipeError:
                raise anyio.BrokenResourceError from None

    async def send_eof(self) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        # (no task waits on them: the stream's one user closes it when done)
        for fd in (self._receive_fd, self._send_fd):
            os.close(fd)


class FifoDoor:
    """The server's FIFO ``<key>.fifo`` in ``directory``: made (a dead server's
    replaced), read for announcements, and removed on :meth:`close`."""

    def __init__(self, directory: str, key: str) -> None:
        self.directory = directory
        self.path = request_fifo(directory, key)
        self._read_fd: int | None = None
        self._keep_fd: int | None = None
        self._pending = b""

    def open(self) -> None:
        """Make the FIFO and open it for reading (and once for writing, so that the
        last client closing it is no end of file). A FIFO of this user left by a dead
        server is replaced (the caller holds the server lock); leftover call FIFOs of
        clients that died before their call was taken are removed.

        Raises:
            OSError: it cannot be made (something else is at its path).
        """
        with contextlib.suppress(FileNotFoundError):
            st = os.lstat(self.path)
            if stat.S_ISFIFO(st.st_mode) and st.st_uid == os.geteuid():
                os.unlink(self.path)
        self.sweep()
        os.mkfifo(self.path, 0o600)
        self._read_fd = os.open(self.path, os.O_RDONLY | _FLAGS)
        self._keep_fd = os.open(self.path, os.O_WRONLY | _FLAGS)

    def sweep(self) -> None:
        """Remove call FIFOs whose client process is gone."""
        with contextlib.suppress(OSError), os.scandir(self.directory) as entries:
            for entry in entries:
                pid, dash, rest = entry.name.partition("-")
                if not (dash and pid.isdigit() and rest.endswith((".q", ".r"))):
                    continue
                if _alive(int(pid)):
                    continue
                with contextlib.suppress(OSError):
                    if stat.S_ISFIFO(entry.stat(follow_symlinks=False).st_mode):
                        os.unlink(entry.path)

    async def names(self) -> list[str]:
        """The next announced call names (waits for at least one line); a malformed
        line is dropped (the client that wrote it waits and answers by itself)."""
        assert self._read_fd is not None
        while True:
            try:
                chunk = os.read(self._read_fd, 65536)
            except BlockingIOError:
                await anyio.wait_readable(self._read_fd)
                continue
            *lines, self._pending = (self._pending + chunk).split(b"\n")
            if len(self._pending) > MAX_NAME:
                self._pending = b""
            names = [n for n in (_name(line) for line in lines) if n is not None]
            if names:
                return names

    def connect(self, name: str) -> FifoStream | None:
        """The stream of call ``name``; ``None`` when its FIFOs are not this user's
        FIFOs or its client is gone (nothing is sent then)."""
        base = os.path.join(self.directory, name)
        fds: list[int] = []
        try:
            for suffix, mode in ((".q", os.O_RDONLY), (".r", os.O_WRONLY)):
                fd = os.open(base + suffix, mode | _FLAGS)
                fds.append(fd)
                st = os.fstat(fd)
                if not stat.S_ISFIFO(st.st_mode) or st.st_uid != os.geteuid():
                    raise PermissionError(f"{base}{suffix} is not this user's FIFO")
        except OSError:
            for fd in fds:
                os.close(fd)
            return None
        for suffix in (".q", ".r"):
            with contextlib.suppress(OSError):
                os.unlink(base + suffix)
        return FifoStream(fds[0], fds[1])

    def leftover(self) -> list[str]:
        """Call names announced and not yet read (at stop: each is told to answer by
        itself); reads without waiting."""
        names: list[str] = []
        if self._read_fd is None:
            return names
        while True:
            try:
                chunk = os.read(self._read_fd, 65536)
            except (BlockingIOError, OSError):
                return names
            if not chunk:
                return names
            *lines, self._pending = (self._pending + chunk).split(b"\n")
            names += [n for n in (_name(line) for line in lines) if n is not None]

    def close(self) -> None:
        """Remove the FIFO (new clients find no server) and close it."""
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        for fd in (self._keep_fd, self._read_fd):
            if fd is not None:
                os.close(fd)  # (after the wait in :meth:`names` was cancelled)
        self._read_fd = self._keep_fd = None


def _name(line: bytes) -> str | None:
    """A call name as a client makes it (``<pid>-<hex>``), else ``None``."""
    if not 0 < len(line) <= MAX_NAME:
        return None
    pid, dash, rest = line.partition(b"-")
    if not (dash and pid.isdigit() and rest and all(c in b"0123456789abcdef" for c in rest)):
        return None
    return line.decode("ascii")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # (another user's process: not ours to judge)
    return True
