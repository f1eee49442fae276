"""The resident hook server: ``agent-hooks run`` calls answered by one long-lived
process per user, interpreter and version (see ``_protocol``), each call in the worker
process of its project and loading environment (``_routing``, ``_worker``).

Each request runs the same code as an in-process ``run``
(:func:`~agent_hooks._bridges._cli._run.answer_run`) with the client's command line,
working directory, environment and payload, and returns the bytes that would have
been printed and the exit status. The server itself parses the command line and
finds the call's project as ``run`` does (``--project-dir``, ``$CLAUDE_PROJECT_DIR``,
the payload's ``cwd``, the caller's directory); it never imports hook code. The call
runs in that project's worker, a child process started (or the spare claimed) on the
project's first call, which loads the configuration again whenever what it read
changed (``_watch``: an edited file, or a trust store that changed, counts at once)
and keeps, while what loaded stays the same, the
configuration's registry and long-lived sessions (``SessionTable``), so per-session
state and background output carry from one call to the next.

Isolation: one worker per project, and a worker refuses a call for any other project,
so a Python module name never resolves across projects and no ``sys.modules``,
``sys.path``, module global or environment of one project reaches another's hooks.
Each answer lists the module files the worker loaded from outside the installed
interpreter and this package, with their stat signatures (device, inode, size,
modification and change times); before each call the server compares them with the
files as they are, and a worker with an edited module is retired (it finishes the
calls under way) and a fresh one answers, so an edited handler, or a module it
imports, answers at the next call exactly as ``--no-daemon`` does. Workers are
bounded (:data:`MAX_WORKERS`, least recently used idle one closed first; closed
after :data:`WORKER_IDLE` seconds without a call) and owned by the server: it closes
them when it stops, and a worker whose server died reads end of file and exits.
Cost: one interpreter with the package loaded per active project (about 30 MB
each) and, on a project's first call or the first after an edit, the start of one
(a few hundred ms); afterwards, a few ``stat`` calls and one local socket round trip.

Environment: Python callbacks see the calling client's own environment
(``os.environ`` of the worker is the call's environment while it runs: calls with
another environment or working directory wait for the ones under way), exactly what
an in-process ``run`` of that client sees; command hooks start from the client's
environment (after credential stripping) in the client's directory. Workers start
with a clean environment (the loading variables, ``PATH``, the locale,
``PYTHON*``); the server itself runs no hook code.

Security: the socket's directory is private (0700), the socket is 0600, and a
connecting process of another user is refused before its request is read
(``SO_PEERCRED`` on Linux; where the platform has no peer credentials, the directory's
mode is the guard). Requests are bounded in size (``_protocol``), in number at once,
and in the time to arrive. At start a dead socket of this user at the socket path is
replaced; anything else there (a directory, another kind of file, another owner's
socket) is reported (:class:`SocketPathError`) and the server does not start.

A client that goes away mid-request costs only its answer: the call finishes, and no
other call is touched. The server exits after ``idle_timeout`` seconds without a
request, on ``stop``, on SIGTERM/SIGINT, and when a client of another package version
calls (the client answers in-process and starts the new version's server); in every
case it refuses new requests, finishes those under way (each answered once, its hooks
run once) and closes its workers (draining their background work).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

import anyio
import anyio.abc
from anyio.abc import SocketAttribute

from ..._base._version import VERSION
from ._fifo import FifoDoor
from ._protocol import HEARTBEAT, FrameError, pack, peer_uid, server_paths
from ._routing import WorkerKey, loading_names, worker_key
from ._worker import FrameReader, module_signature, parse_run, receive_frame, worker_request

__all__ = [
    "DEFAULT_IDLE",
    "MAX_WORKERS",
    "WORKER_IDLE",
    "ResidentServer",
    "SocketPathError",
]

DEFAULT_IDLE = 300.0
"""Seconds without a request after which the server exits."""
MAX_CONCURRENT = 64
"""Requests answered at once; more wait for a slot."""
REQUEST_TIMEOUT = 10.0
"""Seconds for a whole request to arrive once connected."""
MAX_WORKERS = 16
"""Project workers kept at once; past it the least recently used idle one is closed."""
WORKER_IDLE = 120.0
"""Seconds without a call after which a project's worker is closed."""
WORKER_GRACE = 30.0
"""Seconds a closing worker has to finish its background work before it is killed."""

_HOME = os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
)
"""Where this ``agent_hooks`` package was imported from: its workers import the same."""
_WORKER_BOOT = (
    "import sys\n"
    "if sys.argv[1] not in sys.path: sys.path.insert(0, sys.argv[1])\n"
    "from agent_hooks._bridges._daemon._worker import main\n"
    "sys.exit(main(sys.argv[2:]))\n"
)
"""A worker starts isolated as the server does (``python -I``: no ``PYTHONPATH``, no
working directory on its path), with this package found first."""
_KEPT_ENV = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT")


class SocketPathError(OSError):
    """Something that is not a dead socket of this user is at the socket path."""


def _worker_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The clean environment a worker starts with: what decides which files load and
    which interpreter runs, nothing of any client's secrets (each call brings its own)."""
    names = set(loading_names())
    kept = {k: v for k, v in environ.items() if k in names or k in _KEPT_ENV}
    kept.update((k, v) for k, v in environ.items() if k.startswith(("PYTHON", "LC_")))
    return kept


class _Worker:
    """The server's side of one project's worker process."""

    def __init__(self, project: str, log: Any, key: WorkerKey | None = None) -> None:
        self.project = project
        self.key: WorkerKey | None = key
        self._log = log
        self.signatures: dict[str, str] = {}
        self.calls = 0
        self.retired = False
        self.dead = False
        self.last_used = 0.0
        self.exited = anyio.Event()
        self._numbers = 0
        self._pending: dict[str, tuple[anyio.Event, list[Any]]] = {}
        self._stream: anyio.abc.SocketStream | None = None
        self._process: anyio.abc.Process | None = None
        self._send_lock = anyio.Lock()

    async def run(self, *, task_status: anyio.abc.TaskStatus[None]) -> None:
        """Start the process, then read its answers until it exits."""
        ours, theirs = socket.socketpair()
        try:
            try:
                self._process = await anyio.open_process(
                    [sys.executable, "-I", "-c", _WORKER_BOOT, _HOME, str(theirs.fileno())],
                    stdin=subprocess.DEVNULL,
                    stdout=None,
                    stderr=None,
                    pass_fds=(theirs.fileno(),),
                    env=_worker_env(os.environ),
                )
            finally:
                theirs.close()
            self._stream = await anyio.abc.UNIXSocketStream.from_socket(ours)
        except BaseException:
            ours.close()
            self.dead = True
            self.exited.set()
            raise
        self._log(f"worker {self._process.pid} started for {self.project or '(spare)'}")
        task_status.started()
        frames = FrameReader(self._stream)
        try:
            while True:
                try:
                    kind, header, body = await frames.receive()
                except (anyio.EndOfStream, FrameError, OSError):
                    break
                except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                    break
                if kind != b"R" or len(header) < 3 or (len(header) - 3) % 2:
                    continue
                waiter = self._pending.pop(header[0], None)
                fields = header[3:]
                self.signatures.update(zip(fields[::2], fields[1::2], strict=True))
                if waiter is not None:
                    waiter[1].append((header[1], header[2], body))
                    waiter[0].set()
        finally:
            self.dead = True
            for event, _ in self._pending.values():
                event.set()  # (no answer: the call reports the worker's end)
            self._pending.clear()
            with anyio.CancelScope(shield=True):
                with anyio.move_on_after(WORKER_GRACE):
                    await self._process.wait()
                self.kill()
                await self._process.wait()
                await self._stream.aclose()
                self._log(
                    f"worker {self._process.pid} for {self.project} exited "
                    f"({self._process.returncode})"
                )
                self.exited.set()

    @property
    def pid(self) -> int | None:
        """The worker process's id (``None`` before it starts)."""
        return None if self._process is None else self._process.pid

    def changed(self) -> bool:
        """Whether a module file the worker loaded is not the one it loaded."""
        return any(module_signature(p) != sig for p, sig in self.signatures.items())

    async def call(
        self, fields: list[str], body: bytes, kind: bytes = b"Q"
    ) -> tuple[int, bytes, bytes] | None:
        """The worker's answer to one call (``kind`` ``P``: a configuration prepared);
        ``None`` when the worker ended first."""
        self._numbers += 1
        number = str(self._numbers)
        event: anyio.Event = anyio.Event()
        answer: list[Any] = []
        self._pending[number] = (event, answer)
        self.calls += 1
        try:
            if self.dead or self._stream is None:
                return None
            try:
                async with self._send_lock:
                    await self._stream.send(pack(kind, [number, self.project, *fields], body))
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                return None
            await event.wait()
        finally:
            self._pending.pop(number, None)
            self.calls -= 1
            self.last_used = anyio.current_time()
            if self.retired and not self.calls:
                await self._close_input()
        if not answer:
            return None
        code, cut, data = answer[0]
        try:
            status, split = int(code), int(cut)
        except ValueError:
            return None
        return status, data[:split], data[split:]

    async def retire(self) -> None:
        """Take no more calls; close once the calls under way are answered."""
        self.retired = True
        if not self.calls:
            await self._close_input()

    async def _close_input(self) -> None:
        if self._stream is not None and not self.dead:
            with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
                async with self._send_lock:
                    await self._stream.send_eof()

    def kill(self) -> None:
        """End the process now (past its grace, or when the server must go)."""
        if self._process is not None and self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()


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
        self._workers: collections.OrderedDict[WorkerKey, _Worker] = collections.OrderedDict()
        self._retired: set[_Worker] = set()
        self._tg: anyio.abc.TaskGroup | None = None
        self._stop = anyio.Event()
        self._slots = anyio.Semaphore(MAX_CONCURRENT)
        self._in_flight = 0
        self._drained = anyio.Event()
        self._last = 0.0
        self._started = time.time()
        self._lock_fd: int | None = None
        self._parser: argparse.ArgumentParser | None = None
        self._spawning = anyio.Lock()
        self._spare: _Worker | None = None
        self._spare_starting = False
        self.requests = 0

    def log(self, message: str) -> None:
        """One line in the server's log."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        print(f"{stamp} agent-hooks daemon[{os.getpid()}]: {message}", file=self._log_stream)
        with contextlib.suppress(Exception):
            self._log_stream.flush()

    def take_lock(self) -> bool:
        """Hold the server lock (one live server per key); ``False`` when another holds it."""
        import fcntl

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
        """Stop: refuse new requests, finish those under way, close every worker."""
        self._stop.set()

    def clear_socket_path(self) -> None:
        """Make way for the socket: a dead socket of this user there is removed (the lock,
        held, says no server owns it).

        Raises:
            SocketPathError: a directory, another kind of file or another user's socket
                is there; it is left alone.
        """
        try:
            st = os.lstat(self.socket_path)
        except FileNotFoundError:
            return
        if stat.S_ISSOCK(st.st_mode) and st.st_uid == os.getuid():
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.socket_path)
            return
        what = (
            "a directory"
            if stat.S_ISDIR(st.st_mode)
            else "another user's socket"
            if stat.S_ISSOCK(st.st_mode)
            else "a file that is not a socket"
        )
        raise SocketPathError(
            f"cannot listen on {self.socket_path}: {what} is there; remove it "
            "(the resident server does not start; calls are answered in-process)"
        )

    async def run(
        self,
        *,
        spawn_lock_fd: int | None = None,
        warm: str | None = None,
        warm_run: tuple[str, list[str]] | None = None,
    ) -> None:
        """Listen and serve until stopped or idle. Releases ``spawn_lock_fd`` (the
        starting client's lock) once listening. Starts the spare worker (see
        :meth:`_worker`), or the worker of project ``warm`` when given, with the
        configuration of ``warm_run`` (:meth:`warm`) loaded.

        Raises:
            SocketPathError: see :meth:`clear_socket_path`.
        """
        self.clear_socket_path()
        old = os.umask(0o177)
        try:
            listener = await anyio.create_unix_listener(self.socket_path)
        finally:
            os.umask(old)
        os.chmod(self.socket_path, 0o600)
        door = self._open_door()
        if spawn_lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(spawn_lock_fd)
        self._last = anyio.current_time()
        self.log(
            f"listening on {self.socket_path} (version {VERSION}, idle exit {self.idle_timeout:g}s)"
        )
        try:
            async with anyio.create_task_group() as workers:
                self._tg = workers
                async with anyio.create_task_group() as conns:
                    accepting = anyio.CancelScope()
                    conns.start_soon(self._accept, listener, conns, accepting)
                    announced = anyio.CancelScope()
                    if door is not None:
                        conns.start_soon(self._accept_fifo, door, conns, announced)
                    conns.start_soon(self._watch_idle)
                    conns.start_soon(self._watch_signals)
                    if warm is not None:
                        workers.start_soon(self.warm, warm, None, warm_run)
                    else:
                        workers.start_soon(self._start_spare)
                    self._warm_up()
                    await self._stop.wait()
                    accepting.cancel()
                    announced.cancel()
                    with anyio.CancelScope(shield=True):
                        await listener.aclose()
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(self.socket_path)
                        if door is not None:
                            # (calls announced and not read: each is told to answer
                            # by itself, as a request on the socket now would be)
                            for name in door.leftover():
                                conns.start_soon(self._fifo_connection, door, name)
                            door.close()
                    # Requests under way finish; then the watchers end.
                    while self._in_flight:
                        self._drained = anyio.Event()
                        await self._drained.wait()
                    conns.cancel_scope.cancel()
                spare, self._spare = self._spare, None
                everyone = [*self._workers.values(), *self._retired, *([spare] if spare else [])]
                for worker in everyone:
                    await worker.retire()
                with anyio.move_on_after(WORKER_GRACE):
                    for worker in everyone:
                        await worker.exited.wait()
                for worker in everyone:
                    worker.kill()
        finally:
            with anyio.CancelScope(shield=True):
                await listener.aclose()
            if door is not None:
                door.close()
            self.log(f"stopped after {self.requests} request(s)")

    def _warm_up(self) -> None:
        """Import what reading a call needs (the ``run`` parser, payload decoding,
        finding the project) now that the server listens, so a session's first call
        does not: calls that come in the meantime wait for it as they would have."""
        from ..._config import _common  # noqa: F401
        from ..._wire import _detect  # noqa: F401
        from .._cli import (
            _run,  # noqa: F401
            build_parser,
        )

        if self._parser is None:
            self._parser = build_parser("run")

    def _open_door(self) -> FifoDoor | None:
        """The FIFO the quick client calls through on Linux (:mod:`._fifo`); ``None``
        elsewhere, or when it cannot be made (calls then come on the socket)."""
        if not sys.platform.startswith("linux"):
            return None
        door = FifoDoor(self.directory, self.key)
        try:
            door.open()
        except OSError as exc:
            door.close()
            self.log(f"no FIFO for quick clients ({exc}); they call on the socket")
            return None
        return door

    # ------------------------------------------------------------ watchers

    async def _watch_idle(self) -> None:
        while True:
            now = anyio.current_time()
            self._retired = {w for w in self._retired if not w.exited.is_set()}
            for worker in list(self._workers.values()):
                if not worker.calls and now - worker.last_used >= WORKER_IDLE:
                    await self._retire(worker)
            busy = self._in_flight
            due = self._last + self.idle_timeout
            if not busy and now >= due:
                self.log(f"idle for {self.idle_timeout:g}s; exiting")
                self.stop()
                return
            await anyio.sleep(max(0.05, min(due - now, 5.0)) if not busy else 0.5)

    async def _watch_signals(self) -> None:
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async for signum in signals:
                if not self._stop.is_set():
                    self.log(f"signal {signal.Signals(signum).name}; stopping")
                    self.stop()
                # (kept receiving: a second signal must not kill the calls under way)

    # ---------------------------------------------------------- connections

    async def _accept(
        self, listener: Any, tg: anyio.abc.TaskGroup, scope: anyio.CancelScope
    ) -> None:
        with scope:
            while True:
                try:
                    stream = await listener.accept()
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    return  # (the listener closed: stopping)
                except OSError as exc:
                    self.log(f"accept failed ({exc}); backing off")
                    await anyio.sleep(0.1)
                    continue
                tg.start_soon(self._connection, stream)

    async def _accept_fifo(
        self, door: FifoDoor, tg: anyio.abc.TaskGroup, scope: anyio.CancelScope
    ) -> None:
        with scope:
            while True:
                for name in await door.names():
                    tg.start_soon(self._fifo_connection, door, name)

    async def _fifo_connection(self, door: FifoDoor, name: str) -> None:
        stream = door.connect(name)
        if stream is None:
            return  # (its client is gone, or they are not this user's FIFOs)
        async with stream:
            await self._handle(stream)

    async def _connection(self, stream: anyio.abc.SocketStream) -> None:
        async with stream:
            if not _same_user(stream):
                self.log("refused a connection from another user")
                return
            await self._handle(stream)

    async def _handle(self, stream: anyio.abc.ByteStream) -> None:
        """One request, on the socket or through FIFOs."""
        self._in_flight += 1
        try:
            async with self._slots:
                await self._serve(stream)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            pass  # the client went away; nothing to answer
        except FrameError as exc:
            self.log(f"bad request: {exc}")
        except anyio.EndOfStream:
            pass  # (connected and left without a word)
        finally:
            self._in_flight -= 1
            self._last = anyio.current_time()
            if not self._in_flight:
                self._drained.set()

    async def _serve(self, stream: anyio.abc.ByteStream) -> None:
        with anyio.fail_after(REQUEST_TIMEOUT):
            kind, header, body = await receive_frame(stream)
        if kind == b"T":
            await stream.send(pack(b"T", [json.dumps(self.status())]))
            return
        if kind == b"W":
            # (a project's worker started ahead of its first call: ``daemon start``)
            await stream.send(pack(b"T", [json.dumps(self.status())]))
            # (header: the version, the project, the caller's directory, the number of
            # ``run`` options and the options to prepare, then the caller's environment
            # as name, value, ...: the worker is the one its calls will be routed to)
            warm = _warm_request(header)
            if warm is not None:
                project, cwd, options, environ = warm
                assert self._tg is not None
                self._tg.start_soon(self.warm, project, environ, (cwd, options))
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
        request = worker_request(header[1:])  # (the version comes first)
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
        gone = anyio.Event()
        async with anyio.create_task_group() as tg:
            tg.start_soon(_heartbeat, stream, gone, self.log)
            code, out, err = await self._run(argv, cwd, env, body, header[1:])
            tg.cancel_scope.cancel()
        if not gone.is_set():
            await stream.send(pack(b"R", [str(code), str(len(out))], out + err))
        if self._spare is None or self._spare.dead:
            # (after the answer, so its start does not compete with a call for the CPU)
            assert self._tg is not None
            self._tg.start_soon(self._start_spare)

    async def _run(
        self, argv: list[str], cwd: str, env: dict[str, str], stdin: bytes, fields: list[str]
    ) -> tuple[int, bytes, bytes]:
        """One ``run``, as the client's process would have answered it: parsed here, run
        in the worker of its project."""
        from .._cli import build_parser

        if self._parser is None:
            self._parser = build_parser("run")  # (once: parsing does not change it)
        args = parse_run(self._parser, argv)
        if not isinstance(args, argparse.Namespace):
            return args
        project = _project_of(args, stdin, cwd, env)
        worker = await self._worker(project, env)
        answer = None if worker is None else await worker.call(fields, stdin)
        if answer is not None:
            return answer
        # (the worker ended mid-call: the hooks may have run; the client must not run
        # them again, so this is the answer, as a failure)
        from .._answer import Failure, Options, reply

        message = f"the resident server's worker for {project} ended before answering; no answer"
        done = reply(Failure(message), stdin, Options.of(args, resident=True))
        return done.status, done.stdout, done.stderr.encode("utf-8", "backslashreplace")

    async def warm(
        self,
        project: str,
        environ: Mapping[str, str] | None = None,
        run: tuple[str, list[str]] | None = None,
    ) -> None:
        """Have the worker of ``project`` and ``environ`` (default: this server's) up
        before its first call (the spare starts once a call has been answered), and
        with ``run`` (the working directory and the options of the ``run`` calls to
        come) their configuration loaded."""
        environ = os.environ if environ is None else environ
        worker = await self._worker(project, environ)
        if worker is not None and run is not None:
            cwd, options = run
            argv = ["run", *options]
            fields = [cwd, str(len(argv)), *argv]
            for name, value in environ.items():
                fields += (name, value)
            await worker.call(fields, b"", kind=b"P")
        self._last = anyio.current_time()

    async def _start_spare(self) -> None:
        """Start the spare worker unless there is one: a worker that has imported this
        package and loaded no project's code, which a new project's first call claims
        (so that call does not wait for an interpreter to start)."""
        if self._spare_starting or self._stop.is_set():
            return
        if self._spare is not None and not self._spare.dead:
            return
        spare = _Worker("", self.log)
        assert self._tg is not None
        self._spare_starting = True
        try:
            await self._tg.start(spare.run)
        except OSError as exc:
            self.log(f"cannot start a spare worker: {exc}")
            return
        finally:
            self._spare_starting = False
        if self._stop.is_set() or (self._spare is not None and not self._spare.dead):
            await spare.retire()  # (stopping, or another took its place meanwhile)
            return
        self._spare = spare

    def _claim_spare(self, project: str, key: WorkerKey) -> _Worker | None:
        """The spare worker, now ``project``'s (it has loaded no project, so it is as
        fresh as a new one); another spare starts once the next call is answered."""
        spare, self._spare = self._spare, None
        if spare is None or spare.dead:
            return None
        spare.project, spare.key = project, key
        self.log(f"worker {spare.pid} claimed for {project}")
        return spare

    async def _worker(self, project: str, environ: Mapping[str, str]) -> _Worker | None:
        """The live worker of ``project`` and the loading environment of ``environ``
        (:mod:`._routing`): the one it has, else the spare (claimed), else a new one; a
        new one also when a module file it loaded changed since."""
        key = worker_key(project, environ)
        async with self._spawning:
            worker = self._workers.get(key)
            if worker is not None and (worker.dead or worker.changed()):
                self.log(f"a module of {project} changed (or its worker ended); new worker")
                await self._retire(worker)
                worker = None
            if worker is None:
                while len(self._workers) >= MAX_WORKERS:
                    idle = [w for w in self._workers.values() if not w.calls]
                    if not idle:
                        break
                    await self._retire(min(idle, key=lambda w: w.last_used))
                claimed = self._claim_spare(project, key)
                if claimed is not None:
                    worker = claimed
                else:
                    worker = _Worker(project, self.log, key)
                    assert self._tg is not None
                    try:
                        await self._tg.start(worker.run)
                    except OSError as exc:
                        self.log(f"cannot start a worker for {project}: {exc}")
                        return None
                self._workers[key] = worker
            self._workers.move_to_end(key)
            return worker

    async def _retire(self, worker: _Worker) -> None:
        if worker.key is not None and self._workers.get(worker.key) is worker:
            del self._workers[worker.key]
        self._retired.add(worker)
        await worker.retire()

    def status(self) -> dict[str, object]:
        """What ``agent-hooks daemon status`` shows."""
        return {
            "pid": os.getpid(),
            "version": VERSION,
            "socket": self.socket_path,
            "uptime": round(time.time() - self._started, 3),
            "requests": self.requests,
            "in_flight": self._in_flight,
            "workers": len(self._workers),
            "spare_worker": self._spare is not None and not self._spare.dead,
            "idle_timeout": self.idle_timeout,
        }


def _warm_request(
    header: list[str],
) -> tuple[str, str, list[str], dict[str, str]] | None:
    """The project, directory, ``run`` options and environment of a ``W`` request;
    ``None`` when it is malformed or of another version."""
    try:
        version, project, cwd, count = header[:4]
        n = int(count)
    except ValueError:
        return None
    rest = header[4 + n :]
    if version != VERSION or not (os.path.isabs(project) and os.path.isabs(cwd)) or n < 0:
        return None
    if len(header) < 4 + n or len(rest) % 2:
        return None
    return project, cwd, header[4 : 4 + n], dict(zip(rest[::2], rest[1::2], strict=True))


def _project_of(args: argparse.Namespace, stdin: bytes, cwd: str, env: dict[str, str]) -> str:
    """The project ``run`` will load for this call, read as ``run`` reads it (the worker
    refuses a call for another project, so a misreading fails, never mixes)."""
    from ..._wire._detect import decode_payload
    from .._cli._run import project_of

    try:
        dialect, event = getattr(args, "dialect", None), getattr(args, "event", None)
        payload_cwd = decode_payload(stdin, dialect=dialect, event=event).input.cwd
    except Exception:  # (the worker reports a bad payload as run does)
        payload_cwd = None
    try:
        return project_of(args, payload_cwd, cwd, env)
    except (TypeError, ValueError):  # (the worker reports it as run does)
        return cwd


async def _heartbeat(
    stream: anyio.abc.ByteStream, gone: anyio.Event, log: Callable[[str], None]
) -> None:
    """Heartbeats until cancelled; sets ``gone`` (and stops) when the client left."""
    frame = pack(b"H", [])
    while True:
        await anyio.sleep(HEARTBEAT)
        try:
            await stream.send(frame)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            gone.set()
            log("a client left before its answer; its call goes on, its answer is dropped")
            return


def _same_user(stream: anyio.abc.SocketStream) -> bool:
    """Whether the connecting process runs as this user (its peer credentials, read as
    the client reads the server's; where the platform cannot tell, the private
    directory, closed to other users, is the guard)."""
    uid = peer_uid(stream.extra(SocketAttribute.raw_socket))
    return uid is None or peer_uid_allowed(uid)


def peer_uid_allowed(uid: int) -> bool:
    """The peer check itself: only this process's own (effective) user may call."""
    return uid == os.geteuid()
