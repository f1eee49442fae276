"""A project's worker: the process in which the resident server's calls for one project
run (``python -I``, started by the server with the socket descriptor ``FD``).

The resident server (``_server``) answers no call itself: it hands each one to the
worker of the call's project, a child process started on the project's first call.
Everything a call can make run, Python hook modules included, runs in that worker, so
nothing of one project (``sys.modules``, ``sys.path``, module globals, the
environment) ever reaches another project's hooks: a module name resolves only
inside the process of the one project it was imported for, and a worker refuses a
call for any other project (:meth:`WorkerHost.load`).

Frames (``_protocol.pack``) on the socket ``FD``: the server sends ``Q`` (header the
call's number, the project, the working directory, the number of arguments, the
arguments, then the environment as name, value, ...; body the payload), or ``P``
(the same header: load the configuration of that ``run`` and make its session table,
running nothing, ``daemon start``'s); the worker answers ``R`` (header the call's number, the exit status, the byte length of the
body's stdout part, then, for every module file it loaded since its last answer that
is not part of the installed interpreter or of this package, the path and its stat
signature; body stdout then stderr). End of file from the server: finish the calls
under way, close every session (draining background work), exit.

Calls run concurrently while they carry the same environment and working directory;
a call with others waits until the calls under way are done, then the worker's
``os.environ`` becomes that call's environment (exactly what an in-process ``run`` of
that client would see) and its working directory the call's. Background work a call
left running (``async`` hooks) sees the environment of the calls that run after it in
the same project.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import os
import signal
import socket
import sys
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
import anyio.lowlevel

from ._protocol import HEAD, MAX_BODY, MAX_HEADER, FrameError, pack, parse

if TYPE_CHECKING:
    from ..._config._snapshot import LoadedConfig
    from .._sessions import SessionTable
    from ._watch import Stamps

__all__ = ["FrameReader", "WorkerHost", "module_signature", "parse_run", "receive_frame", "worker_request"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""This package's directory (its modules change only with its version)."""

GRACE = 30.0
"""Seconds a worker whose server closed gives its calls under way, then its sessions'
background work, before it cuts them and exits."""

MAX_CONFIGURATIONS = 32
"""Configurations (registries with their sessions) a worker keeps at once; past it the
least recently used idle one is closed (it is loaded again when called again)."""


class FrameReader:
    """Frames, one after another, from one byte stream (bytes past a frame, the start
    of the next one, are kept for it)."""

    def __init__(self, stream: anyio.abc.ByteReceiveStream) -> None:
        self._stream = stream
        self._buffered = bytearray()

    async def _exactly(self, n: int) -> bytes:
        while len(self._buffered) < n:
            try:
                chunk = await self._stream.receive()
            except anyio.EndOfStream:
                if self._buffered:
                    raise FrameError("the connection closed mid-frame") from None
                raise
            self._buffered.extend(chunk)
        data = bytes(self._buffered[:n])
        del self._buffered[:n]
        return data

    async def receive(self) -> tuple[bytes, list[str], bytes]:
        """The next frame.

        Raises:
            FrameError: cut short (the peer closed mid-frame) or too large.
            anyio.EndOfStream: the peer closed between frames.
        """
        kind, head_len, body_len = HEAD.unpack(await self._exactly(HEAD.size))
        if head_len > MAX_HEADER or body_len > MAX_BODY:
            raise FrameError("frame too large")
        try:
            head = await self._exactly(head_len) if head_len else b""
            body = await self._exactly(body_len) if body_len else b""
        except anyio.EndOfStream:
            raise FrameError("the connection closed mid-frame") from None
        parts = iter((head, body))
        header, payload = parse(head_len, body_len, lambda n: next(parts))
        return kind, header, payload


async def receive_frame(stream: anyio.abc.ByteReceiveStream) -> tuple[bytes, list[str], bytes]:
    """The one frame a connection carries (:meth:`FrameReader.receive`)."""
    return await FrameReader(stream).receive()


def worker_request(fields: list[str]) -> tuple[list[str], str, dict[str, str]] | None:
    """``(argv, cwd, env)`` of request fields ``cwd, count, *argv, *env``; ``None``
    when malformed."""
    try:
        count = int(fields[1])
    except (IndexError, ValueError):
        return None
    argv = fields[2 : 2 + count]
    rest = fields[2 + count :]
    if count < 0 or len(argv) != count or len(rest) % 2:
        return None
    return argv, fields[0], dict(zip(rest[::2], rest[1::2], strict=True))


def parse_run(
    parser: argparse.ArgumentParser, argv: list[str]
) -> argparse.Namespace | tuple[int, bytes, bytes]:
    """``run``'s arguments, or the answer argparse gave instead (help, a usage error) as
    ``(status, stdout, stderr)``. argparse prints those itself; parsing never awaits, so
    no other request runs while stdout and stderr point at this one's buffers."""
    err = io.StringIO()
    try:
        with (
            contextlib.redirect_stdout(io.StringIO()) as text_out,
            contextlib.redirect_stderr(err),
        ):
            return parser.parse_args(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        return (
            code,
            text_out.getvalue().encode("utf-8", "backslashreplace"),
            err.getvalue().encode("utf-8", "backslashreplace"),
        )


def module_signature(path: str) -> str | None:
    """What tells an edited module file from the one loaded: device, inode, size,
    modification and change times; ``None`` when it cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"


class _Gate:
    """Admits calls whose context (environment, working directory) is the one in
    force; another context waits until the calls under way are done (first come,
    first admitted), then becomes the one in force."""

    def __init__(self) -> None:
        self._context: tuple[Any, ...] | None = None
        self._active = 0
        self._queue: collections.deque[tuple[tuple[Any, ...], anyio.Event]] = collections.deque()

    async def enter(self, context: tuple[Any, ...]) -> None:
        if not self._queue and (self._active == 0 or self._context == context):
            self._admit(context)
            return
        admitted = anyio.Event()
        entry = (context, admitted)
        self._queue.append(entry)
        try:
            await admitted.wait()
        except BaseException:
            if entry in self._queue:
                self._queue.remove(entry)
            else:
                self.leave()
            raise

    def leave(self) -> None:
        self._active -= 1
        if self._active or not self._queue:
            return
        context = self._queue[0][0]
        self._install(context)
        waiting = list(self._queue)
        self._queue.clear()
        for entry in waiting:
            if entry[0] == context:
                self._active += 1
                entry[1].set()
            else:
                self._queue.append(entry)

    def _admit(self, context: tuple[Any, ...]) -> None:
        if self._context != context:
            self._install(context)
        self._active += 1

    def _install(self, context: tuple[Any, ...]) -> None:
        cwd, env = context
        self._context = context
        os.environ.clear()
        os.environ.update(dict(env))
        with contextlib.suppress(OSError):
            os.chdir(cwd)


class _Configuration:
    """One configuration's registry and sessions, and what it was loaded from."""

    def __init__(self, fingerprint: tuple[Any, ...], table: SessionTable) -> None:
        self.fingerprint = fingerprint
        self.table = table


class WorkerHost:
    """The calls of one project, answered as an in-process ``run`` answers them, with
    the configuration's long-lived sessions (the ``RunHost`` of ``run``).

    Args:
        log: where to write one line per notable event.
    """

    def __init__(self, log: Any) -> None:
        self.project: str | None = None
        self._log_stream = log
        self._configs: dict[tuple[Any, ...], _Configuration] = {}
        self._tg: anyio.abc.TaskGroup | None = None
        self._parser: argparse.ArgumentParser | None = None
        self._gate = _Gate()
        self._seen: set[str] = set()
        self._skip: tuple[str, ...] = ()
        self._loading: tuple[tuple[str, str], ...] | None = None
        self._loads: collections.OrderedDict[
            tuple[Any, ...], tuple[tuple[LoadedConfig, list[str]], Stamps]
        ] = collections.OrderedDict()

    def log(self, message: str) -> None:
        """One line in the server's log."""
        print(f"agent-hooks worker[{os.getpid()}]: {message}", file=self._log_stream)
        with contextlib.suppress(Exception):
            self._log_stream.flush()

    async def serve(self, stream: anyio.abc.ByteStream) -> None:
        """Answer the server's calls on ``stream`` until it closes; then close every
        session and return."""
        from ..._handlers._pyref import installation_dirs
        from .._cli import build_parser

        self._parser = build_parser("run")
        _preload()
        self._skip = tuple(os.path.join(d, "") for d in {*installation_dirs(), _PACKAGE})
        self.new_modules()  # (what is loaded now is the interpreter's and this package's)
        lock = anyio.Lock()

        async def send(frame: bytes) -> None:
            async with lock:
                with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                    await stream.send(frame)

        warming = anyio.CancelScope()

        async def warm_up() -> None:
            with warming:
                await _warm_up()

        async with anyio.create_task_group() as tables:
            self._tg = tables
            tables.start_soon(warm_up)
            async with anyio.create_task_group() as calls:
                frames = FrameReader(stream)
                while True:
                    try:
                        kind, header, body = await frames.receive()
                    except (anyio.EndOfStream, FrameError, OSError):
                        break
                    except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                        break
                    if kind in (b"Q", b"P") and header:
                        calls.start_soon(self._call, header, body, send, kind == b"P")
                warming.cancel()
                # (the server closed its end: it sends that only with no call under way,
                # so calls still running lost their server; they get a grace, no more)
                calls.cancel_scope.deadline = anyio.current_time() + GRACE
            for config in self._configs.values():
                config.table.close()
            tables.cancel_scope.deadline = anyio.current_time() + GRACE

    async def _call(
        self, header: list[str], body: bytes, send: Any, prepare: bool = False
    ) -> None:
        number = header[0]
        request = worker_request(header[2:]) if len(header) > 1 else None
        if request is None:
            code, out, err = 1, b"", b"agent-hooks: internal error: malformed worker request\n"
        else:
            argv, cwd, env = request
            if self.project is None:
                from ._routing import loading_of

                self.project, self._loading = header[1], loading_of(env)
            await self._gate.enter((cwd, tuple(sorted(env.items()))))
            try:
                if prepare:
                    code, out, err = await self._prepare(argv, cwd, env)
                else:
                    code, out, err = await self._run(argv, cwd, env, body)
            finally:
                self._gate.leave()
        await send(pack(b"R", [number, str(code), str(len(out)), *self.new_modules()], out + err))

    def new_modules(self) -> list[str]:
        """Path and signature of every module file loaded since the last call that is
        not the interpreter's or this package's (what an edit must reload)."""
        fields: list[str] = []
        for module in list(sys.modules.values()):
            try:
                path = vars(module).get("__file__")
            except TypeError:
                continue
            if not isinstance(path, str) or path in self._seen:
                continue
            self._seen.add(path)
            real = os.path.realpath(path)
            if real.startswith(self._skip) or path.startswith(self._skip):
                continue
            signature = module_signature(path)
            if signature is not None:
                fields += (path, signature)
        return fields

    async def _run(
        self, argv: list[str], cwd: str, env: dict[str, str], stdin: bytes
    ) -> tuple[int, bytes, bytes]:
        """One ``run``, as the client's process would have answered it."""
        from .._cli._run import RunIO, answer_run

        assert self._parser is not None
        args = parse_run(self._parser, argv)
        if not isinstance(args, argparse.Namespace):
            return args
        out = io.BytesIO()
        err = io.StringIO()
        run_io = RunIO(stdin, cwd=cwd, environ=env, stdout=out, stderr=err, resident=True)
        code = await answer_run(args, run_io, self)
        return code, out.getvalue(), err.getvalue().encode("utf-8", "backslashreplace")

    async def _prepare(
        self, argv: list[str], cwd: str, env: dict[str, str]
    ) -> tuple[int, bytes, bytes]:
        """Load the configuration of ``run ARGV`` and make its session table, running
        nothing (``daemon start``: :func:`~agent_hooks._bridges._cli._run.prepare_run`);
        what went wrong is left to the first call, which reports it."""
        from .._cli._run import prepare_run

        assert self._parser is not None and self.project is not None
        args = parse_run(self._parser, argv)
        if isinstance(args, argparse.Namespace):
            try:
                await prepare_run(args, self.project, cwd, env, self)
            except Exception as exc:  # (the call that loads it again reports it)
                self.log(f"could not prepare {argv[1:]!r} ahead of its first call: {exc}")
        return 0, b"", b""

    # ----------------------------------------------------------- RunHost

    def load(self, args: argparse.Namespace, project: str) -> tuple[LoadedConfig, list[str]]:
        """The configuration as a fresh load would find it now (trust checked against
        the store as it is now): the last load of the same options, directory and
        environment when nothing it read, nor any directory above it, has changed
        since (:mod:`._watch`), else a new load. ``--discover`` and
        ``--honor-hel-trust-file`` load afresh on every call (what they look for is
        not all named by what they open).

        Raises:
            ValueError: ``project`` is not this worker's project (the server routed the
                call by another reading of it), or the call's loading environment
                (:mod:`._routing`) is not the one of its first call; nothing of it is
                loaded here.
        """
        from .._cli._run import load_hooks
        from ._routing import loading_of
        from ._watch import Stamps, now_ns, recording

        if project != self.project:
            raise ValueError(
                f"the resident server routed a call for {project!r} to the worker of "
                f"{self.project!r}; not loaded (run with --no-daemon)"
            )
        if loading_of(os.environ) != self._loading:
            raise ValueError(
                "the resident server routed a call to a worker loaded with other values of "
                "the variables that decide what loads (HOME, XDG_*, the harness's own); "
                "not loaded (run with --no-daemon)"
            )
        if args.discover or getattr(args, "honor_hel_trust_file", False):
            return load_hooks(args, project)
        key = (
            _options(args, project),
            os.getcwd(),
            tuple(sorted(os.environ.items())),
        )
        kept = self._loads.get(key)
        if kept is not None and kept[1].unchanged():
            self._loads.move_to_end(key)
            return kept[0]
        from ..._config._managed import managed_dir
        from ..._config._trust import TrustStore

        started = now_ns()
        with recording() as seen:
            loaded = load_hooks(args, project)
        # (the interpreter's and this package's files change only with their version;
        # modules a configuration imports replace the worker when they change: the
        # server compares their signatures before every call)
        seen = {p for p in seen if p is None or not (p.startswith(self._skip) or p.endswith(".pyc"))}
        seen.update(args.config)
        seen.add(str(managed_dir()))  # (looked at on every call, even while it is absent)
        seen.add(str(TrustStore(args.trust_store).path if args.trust_store else TrustStore().path))
        stamps = Stamps.taken(seen, started)
        if stamps is None:
            self._loads.pop(key, None)
        else:
            self._loads[key] = (loaded, stamps)
            self._loads.move_to_end(key)
            while len(self._loads) > MAX_CONFIGURATIONS:
                self._loads.popitem(last=False)
        return loaded

    async def table(
        self, args: argparse.Namespace, project: str, config: LoadedConfig
    ) -> SessionTable:
        """The session table of this configuration: the same while the loaded files
        are the same, a new one (with a new registry) once they change."""
        from .._cli._run import registry_options
        from .._sessions import SessionTable

        options = _options(args, project)
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
        table = SessionTable(config.registry(**registry_options(args)), project_dir=project)
        assert self._tg is not None
        await self._tg.start(table.run)
        self._configs[options] = _Configuration(fingerprint, table)
        return table


def _preload() -> None:
    """Import what a call needs of this package (and nothing of any project) before
    the first call comes: a spare worker claimed by a new project then answers at
    once. The rest of what a call may import lazily follows in :func:`_warm_up`."""
    from ..._config import _load, _trust  # noqa: F401
    from ..._dispatch import _registry  # noqa: F401
    from ..._wire import _detect  # noqa: F401
    from .. import _answer, _payload, _sessions  # noqa: F401
    from .._cli import _run  # noqa: F401
    from . import _routing, _watch  # noqa: F401


_WARMED = ("_events", "_wire", "_handlers", "_dispatch", "_config")
"""The layers whose every module a worker imports in the background (:func:`_warm_up`)."""


async def _warm_up() -> None:
    """Import, one module at a time and letting calls run between two, every module of
    the lower layers (the event classes, the wire dialects, the handler kinds, the
    harness formats), which a call otherwise imports lazily on its first use (about
    100 ms for a first call on a quiet machine). A worker started ahead of its calls
    (the spare, or ``daemon start``'s) then answers its first call about as fast as
    its later ones, and a call that comes meanwhile waits for one module's import at
    most. A module whose optional dependency is not installed is left to the call
    that needs it (which reports it)."""
    import importlib
    import pkgutil

    root = __name__.split(".", 1)[0]
    for layer in _WARMED:
        package = importlib.import_module(f"{root}.{layer}")
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            await anyio.lowlevel.checkpoint()
            with contextlib.suppress(ImportError):
                importlib.import_module(info.name)


def _options(args: argparse.Namespace, project: str) -> tuple[Any, ...]:
    """What of ``run``'s arguments decides which configuration loads and how its
    registry is built (``--shadow`` and ``--log`` are registry options)."""
    return (
        tuple(args.config),
        args.format,
        project,
        bool(args.discover),
        args.home,
        bool(args.trust_project_hooks),
        args.trust_store,
        bool(getattr(args, "honor_hel_trust_file", False)),
        bool(args.fail_closed),
        bool(getattr(args, "shadow", False)),
        getattr(args, "log", None),
    )


async def _main(fd: int) -> None:
    sock = socket.socket(fileno=fd)
    stream = await anyio.abc.UNIXSocketStream.from_socket(sock)
    async with stream:
        await WorkerHost(sys.stderr).serve(stream)


def main(argv: list[str]) -> int:
    """The worker process: serve the socket ``argv[0]`` (a descriptor) until it closes."""
    # The server owns this process's life (it closes the socket to stop it): a signal
    # sent to the whole process group must not cut the calls under way.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.dup2(2, 1)  # (what hook code prints goes to the server's log, never to the socket)
    try:
        fd = int(argv[0])
    except (IndexError, ValueError):
        print("agent-hooks worker: usage: _worker FD", file=sys.stderr)
        return 2
    from .._cli._run import quiet_diagnostics_log

    with quiet_diagnostics_log():
        anyio.run(_main, fd)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
