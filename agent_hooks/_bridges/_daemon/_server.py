"""The resident hook server: ``agent-hooks run`` calls answered by one long-lived
process per user and loading environment (see ``_protocol``).

Each request runs the same code as an in-process ``run``
(:func:`~agent_hooks._bridges._cli._run.run_resident`) with the client's command line,
working directory, environment and payload, and returns the bytes that would have
been printed and the exit status. The configuration is loaded again on every request
(so an edited file, or a trust store that changed, counts at once: an untrusted file
does not run, ``--fail-closed`` fails exactly as in-process); while what loaded stays
the same (the same files with the same content, status and trust), the
configuration's registry and long-lived sessions (``SessionTable``, the server core
``agent-hooks serve`` uses) are reused, so per-session state and background output
carry from one call to the next. A changed configuration gets a new registry; the old
one's sessions close once their requests are done, draining their background work.

Security: the socket's directory is private (0700), the socket is 0600, and a
connecting process of another user is refused before its request is read
(``SO_PEERCRED`` on Linux; where the platform has no peer credentials, the directory's
mode is the guard). Requests are bounded in size (``_protocol``), in number at once,
and in the time to arrive. Command hooks start from the client's environment (after
credential stripping) in the client's directory; Python callbacks run in this process
and see the environment the server was started with (the first client's); this
process's ``os.environ`` is never changed per request.

The server exits after ``idle_timeout`` seconds without a request, on ``stop`` (after
finishing requests under way), on SIGTERM/SIGINT, and when a client of another package
version calls (the client answers in-process and starts the new version's server).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import io
import json
import os
import signal
import socket
import struct
import sys
import time
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
from anyio.abc import SocketAttribute

from ..._base._version import VERSION
from .._sessions import SessionTable
from ._protocol import (
    HEAD,
    HEARTBEAT,
    MAX_BODY,
    MAX_HEADER,
    FrameError,
    pack,
    parse,
    server_paths,
)

if TYPE_CHECKING:
    from ..._config._snapshot import LoadedConfig

__all__ = ["DEFAULT_IDLE", "ResidentServer"]

DEFAULT_IDLE = 300.0
"""Seconds without a request after which the server exits."""
MAX_CONCURRENT = 64
"""Requests answered at once; more wait for a slot."""
REQUEST_TIMEOUT = 10.0
"""Seconds for a whole request to arrive once connected."""
MAX_CONFIGURATIONS = 32
"""Configurations (registries with their sessions) kept at once; past it the least
recently used idle one is closed (it is loaded again when called again)."""


class _Configuration:
    """One configuration's registry and sessions, and what it was loaded from."""

    def __init__(self, fingerprint: tuple[Any, ...], table: SessionTable) -> None:
        self.fingerprint = fingerprint
        self.table = table


class ResidentServer:
    """Serve ``agent-hooks run`` calls on a Unix socket until idle or stopped.

    Args:
        directory: the private socket directory.
        key: the server key (``_protocol.server_key``).
        idle_timeout: seconds without a request before the server exits.
        log: where to write one line per notable event (default: stderr).
    """

    def __init__(
        self,
        directory: str,
        key: str,
        *,
        idle_timeout: float = DEFAULT_IDLE,
        log: Any = None,
    ) -> None:
        self.directory = directory
        self.key = key
        self.socket_path, self.lock_path, _ = server_paths(directory, key)
        self.idle_timeout = idle_timeout
        self._log_stream = log if log is not None else sys.stderr
        self._configs: dict[tuple[Any, ...], _Configuration] = {}
        self._tg: anyio.abc.TaskGroup | None = None
        self._stop = anyio.Event()
        self._slots = anyio.Semaphore(MAX_CONCURRENT)
        self._in_flight = 0
        self._drained = anyio.Event()
        self._last = 0.0
        self._started = time.time()
        self._lock_fd: int | None = None
        self._parser: argparse.ArgumentParser | None = None
        self.requests = 0

    def log(self, message: str) -> None:
        """One line in the server's log."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        print(f"{stamp} agent-hooks daemon[{os.getpid()}]: {message}", file=self._log_stream)
        with contextlib.suppress(Exception):
            self._log_stream.flush()

    def take_lock(self) -> bool:
        """Hold the server lock (one live server per key); ``False`` when another holds it."""
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._lock_fd = fd
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # (who holds it: for tests and operators)
        return True

    def stop(self) -> None:
        """Stop: refuse new requests, finish those under way, close every session."""
        self._stop.set()

    async def run(self, *, spawn_lock_fd: int | None = None) -> None:
        """Listen and serve until stopped or idle. Releases ``spawn_lock_fd`` (the
        starting client's lock) once listening."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.socket_path)  # a stale socket: the lock says no server owns it
        old = os.umask(0o177)
        try:
            listener = await anyio.create_unix_listener(self.socket_path)
        finally:
            os.umask(old)
        os.chmod(self.socket_path, 0o600)
        if spawn_lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(spawn_lock_fd)
        self._last = anyio.current_time()
        self.log(
            f"listening on {self.socket_path} (version {VERSION}, idle exit {self.idle_timeout:g}s)"
        )
        try:
            async with anyio.create_task_group() as tables:
                self._tg = tables
                async with anyio.create_task_group() as conns:
                    conns.start_soon(self._accept, listener, conns)
                    conns.start_soon(self._watch_idle)
                    conns.start_soon(self._watch_signals)
                    await self._stop.wait()
                    with anyio.CancelScope(shield=True):
                        await listener.aclose()
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(self.socket_path)
                    # Requests under way finish; then the watchers end.
                    while self._in_flight:
                        self._drained = anyio.Event()
                        await self._drained.wait()
                    conns.cancel_scope.cancel()
                for config in self._configs.values():
                    config.table.close()
        finally:
            with anyio.CancelScope(shield=True):
                await listener.aclose()
            self.log(f"stopped after {self.requests} request(s)")

    # ------------------------------------------------------------ watchers

    async def _watch_idle(self) -> None:
        while True:
            busy = self._in_flight or any(c.table.in_flight for c in self._configs.values())
            due = self._last + self.idle_timeout
            now = anyio.current_time()
            if not busy and now >= due:
                self.log(f"idle for {self.idle_timeout:g}s; exiting")
                self.stop()
                return
            await anyio.sleep(max(0.05, min(due - now, 5.0)) if not busy else 0.5)

    async def _watch_signals(self) -> None:
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async for signum in signals:
                self.log(f"signal {signal.Signals(signum).name}; stopping")
                self.stop()
                return

    # ---------------------------------------------------------- connections

    async def _accept(self, listener: Any, tg: anyio.abc.TaskGroup) -> None:
        async with listener:
            while True:
                try:
                    stream = await listener.accept()
                except (OSError, anyio.BrokenResourceError) as exc:
                    self.log(f"accept failed ({exc}); backing off")
                    await anyio.sleep(0.1)
                    continue
                tg.start_soon(self._connection, stream)

    async def _connection(self, stream: anyio.abc.SocketStream) -> None:
        async with stream:
            if not _same_user(stream):
                self.log("refused a connection from another user")
                return
            self._in_flight += 1
            try:
                async with self._slots:
                    await self._serve(stream)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                pass  # the client went away; nothing to answer
            except FrameError as exc:
                self.log(f"bad request: {exc}")
            finally:
                self._in_flight -= 1
                self._last = anyio.current_time()
                if not self._in_flight:
                    self._drained.set()

    async def _serve(self, stream: anyio.abc.SocketStream) -> None:
        with anyio.fail_after(REQUEST_TIMEOUT):
            kind, header, body = await _read_frame(stream)
        if kind == b"T":
            await stream.send(pack(b"T", [json.dumps(self.status())]))
            return
        if kind == b"S":
            await stream.send(pack(b"T", [json.dumps(self.status())]))
            self.log("stop requested")
            self.stop()
            return
        if kind != b"Q":
            await stream.send(pack(b"E", [f"unknown request {kind!r}"]))
            return
        version = header[0] if header else None
        if version != VERSION:
            await stream.send(pack(b"V", [VERSION]))
            self.log(f"a client of version {version!r} called; stopping")
            self.stop()
            return
        request = _request(header)
        if request is None:
            await stream.send(pack(b"E", ["malformed request"]))
            return
        argv, cwd, env = request
        if self._stop.is_set():
            await stream.send(pack(b"V", [VERSION]))  # (stopping: answer it yourself)
            return
        self.requests += 1
        self._last = anyio.current_time()
        await stream.send(pack(b"A", [str(os.getpid())]))
        async with anyio.create_task_group() as tg:
            tg.start_soon(_heartbeat, stream)
            code, out, err = await self._run(argv, cwd, env, body)
            tg.cancel_scope.cancel()
        await stream.send(pack(b"R", [str(code), str(len(out))], out + err))

    async def _run(
        self, argv: list[str], cwd: str, env: dict[str, str], stdin: bytes
    ) -> tuple[int, bytes, bytes]:
        """One ``run``, as the client's process would have answered it."""
        from .._cli import build_parser
        from .._cli._run import RunIO, run_resident

        out = io.BytesIO()
        err = io.StringIO()
        # argparse prints usage errors itself; parsing never awaits, so no other
        # request runs while stdout and stderr point at this one's buffers.
        if self._parser is None:
            self._parser = build_parser("run")  # (once: parsing does not change it)
        try:
            with (
                contextlib.redirect_stdout(io.StringIO()) as text_out,
                contextlib.redirect_stderr(err),
            ):
                args = self._parser.parse_args(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
            out.write(text_out.getvalue().encode("utf-8", "backslashreplace"))
            return code, out.getvalue(), err.getvalue().encode("utf-8", "backslashreplace")
        run_io = RunIO(stdin, cwd=cwd, environ=env, stdout=out, stderr=err, resident=True)
        code = await run_resident(args, run_io, self)
        return code, out.getvalue(), err.getvalue().encode("utf-8", "backslashreplace")

    # ------------------------------------------------------ ResidentHost

    def load(self, args: argparse.Namespace, project: str) -> tuple[LoadedConfig, list[str]]:
        """Load the configuration afresh (trust checked against the store as it is now)."""
        from .._cli._run import load_hooks

        return load_hooks(args, project)

    async def table(
        self, args: argparse.Namespace, project: str, config: LoadedConfig
    ) -> SessionTable:
        """The session table of this configuration: the same while the loaded files
        are the same, a new one (with a new registry) once they change."""
        options = (
            tuple(args.config),
            args.format,
            project,
            bool(args.discover),
            args.home,
            bool(args.trust_project_hooks),
            args.trust_store,
            bool(getattr(args, "honor_hel_trust_file", False)),
            bool(args.fail_closed),
        )
        fingerprint = tuple((f.path, f.sha256, f.status, f.trust) for f in config.files)
        known = self._configs.get(options)
        if known is not None and known.fingerprint == fingerprint:
            return known.table
        if known is not None:
            self.log(f"configuration changed for {project}; reloaded")
            known.table.close()  # (its sessions close once their requests are done)
        if known is None and len(self._configs) >= MAX_CONFIGURATIONS:
            idle = [
                (c.table.last_used, k) for k, c in self._configs.items() if not c.table.in_flight
            ]
            if idle:
                self._configs.pop(min(idle)[1]).table.close()
        table = SessionTable(
            config.registry(fail_closed=bool(args.fail_closed)), project_dir=project
        )
        assert self._tg is not None
        await self._tg.start(table.run)
        self._configs[options] = _Configuration(fingerprint, table)
        return table

    def status(self) -> dict[str, object]:
        """What ``agent-hooks daemon status`` shows."""
        return {
            "pid": os.getpid(),
            "version": VERSION,
            "socket": self.socket_path,
            "uptime": round(time.time() - self._started, 3),
            "requests": self.requests,
            "configurations": len(self._configs),
            "sessions": sum(len(c.table) for c in self._configs.values()),
            "idle_timeout": self.idle_timeout,
        }


def _request(fields: list[str]) -> tuple[list[str], str, dict[str, str]] | None:
    """``(argv, cwd, env)`` of a ``Q`` frame's fields; ``None`` when malformed."""
    try:
        count = int(fields[2])
    except (IndexError, ValueError):
        return None
    argv = fields[3 : 3 + count]
    rest = fields[3 + count :]
    if count < 0 or len(argv) != count or len(rest) % 2:
        return None
    return argv, fields[1], dict(zip(rest[::2], rest[1::2], strict=True))


async def _heartbeat(stream: anyio.abc.SocketStream) -> None:
    frame = pack(b"H", [])
    while True:
        await anyio.sleep(HEARTBEAT)
        await stream.send(frame)


async def _read_frame(
    stream: anyio.abc.ByteReceiveStream,
) -> tuple[bytes, list[str], bytes]:
    buffered = bytearray()

    async def exactly(n: int) -> bytes:
        while len(buffered) < n:
            chunk = await stream.receive()
            buffered.extend(chunk)
        data = bytes(buffered[:n])
        del buffered[:n]
        return data

    try:
        kind, head_len, body_len = HEAD.unpack(await exactly(HEAD.size))
        if head_len > MAX_HEADER or body_len > MAX_BODY:
            raise FrameError("request too large")
        head = await exactly(head_len) if head_len else b""
        body = await exactly(body_len) if body_len else b""
    except anyio.EndOfStream:
        raise FrameError("the connection closed mid-request") from None
    parts = iter((head, body))
    header, payload = parse(head_len, body_len, lambda n: next(parts))
    return kind, header, payload


def _same_user(stream: anyio.abc.SocketStream) -> bool:
    """Whether the connecting process runs as this user (Linux ``SO_PEERCRED``; where
    the platform has no peer credentials, the private directory is the guard)."""
    sock = stream.extra(SocketAttribute.raw_socket)
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    creds = sock.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    return peer_uid_allowed(struct.unpack("3i", creds)[1])


def peer_uid_allowed(uid: int) -> bool:
    """The peer check itself: only this process's own user may call."""
    return uid == os.getuid()
