"""``agent-hooks serve``: the hook graph as a long-lived HTTP hook server.

For Claude Code's ``type: "http"`` hooks: POST a payload, get the JSON ``agent-hooks
run`` would print (HTTP 200). Python callbacks run in-process, so a hook costs a
loopback round trip instead of an interpreter start.

* binds to loopback by default;
* requires ``Authorization: Bearer <token>`` unless auth is explicitly disabled
  (401 otherwise, answered from the request head: the body of a request without the
  token is never buffered); the token is compared in constant time;
* bounded request bodies (413 past the limit), and a bound on the bytes of request
  bodies held at once across all connections (a request waits for room, up to its
  body timeout, then gets 503);
* a cap on open connections: past it the server stops accepting (connections wait in
  the kernel's queue), and idle keep-alive connections are closed first to make room;
  ``EMFILE``/``ENFILE`` from ``accept()`` make it back off and retry, never exit;
* timeouts: the request head must arrive within ``header_timeout`` of the connection
  (or of its first byte on a kept-alive connection), the body within
  ``body_timeout`` of the head (408 and close otherwise), an answer must be taken by
  the client within ``body_timeout``, and a keep-alive connection idle for
  ``idle_timeout`` is closed;
* malformed HTTP gets 400 (431 for a head too large) and the connection closes;
* concurrent requests, HTTP/1.1 keep-alive (and ``Expect: 100-continue``);
* one long-lived session per ``session_id`` (state such as stop-loop counters and
  background work carries across requests), closed after its ``SessionEnd``, after
  ``session_idle`` seconds without a request, and, past ``max_sessions``, least
  recently used first; a closed session drains its background work as any session
  close does, and the server keeps nothing of it;
* ``GET /healthz`` answers ``{"status": "ok"}`` without auth;
* ``fail_closed``: a POST that cannot get the hooks' answer (a payload that cannot be
  read or is too large, a missing token, a busy server, a timeout, malformed HTTP, an
  internal error) is answered with HTTP 200 and a blocking answer for its event
  (Claude Code reads any other status, and a connection it cannot make, as "go on");
  the event is the payload's, else the one the request's path ends with
  (``POST /PreToolUse``); with neither, the answer stops the agent
  (``continue: false``). An event that cannot block keeps the error status;
* graceful shutdown: the listener closes at once (new connections are refused) and
  idle keep-alive connections close; requests already under way finish (up to a
  grace period) and are answered with ``Connection: close``; then every session
  closes, which drains background work.

Uses h11 (the optional ``http`` extra) over anyio streams.
"""

from __future__ import annotations

import errno
import hmac
import http
import json
from collections.abc import Callable
from typing import Any

import anyio
import anyio.abc
from anyio.abc import SocketAttribute

from .._base._diagnostics import Diagnostic, Severity
from .._base._errors import UnknownEventError
from .._dispatch._registry import HookRegistry
from .._events._capabilities import spec_for
from .._events._names import HookEvent, parse_event
from .._handlers._http import _h11
from .._wire._outputs import blocking_output
from ._payload import answer_json, dumps, one_line
from ._sessions import DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE, SessionTable

__all__ = ["HookServer", "blocking_answer"]

DEFAULT_MAX_BODY = 1_048_576
DEFAULT_MAX_CONNECTIONS = 256
DEFAULT_MAX_BUFFERED = 16 * 1_048_576
DEFAULT_HEADER_TIMEOUT = 10.0
DEFAULT_BODY_TIMEOUT = 30.0
DEFAULT_IDLE_TIMEOUT = 30.0

_MAX_HEAD = 16 * 1024
"""The largest request head (request line and headers) accepted: 431 past it."""
_LINGER = 1.0
"""Seconds to keep reading (and discarding) the rest of a request after answering it
early (401, 413, 400, 503), so that closing the socket with unread data does not reset
the connection before the client has read the answer."""
_BACKOFF_MIN, _BACKOFF_MAX = 0.05, 1.0
"""Seconds to wait before accepting again after running out of file descriptors."""

_OUT_OF_FDS = frozenset(
    code
    for code in (
        getattr(errno, "EMFILE", None),
        getattr(errno, "ENFILE", None),
        getattr(errno, "ENOBUFS", None),
        getattr(errno, "ENOMEM", None),
    )
    if code is not None
)
_ACCEPT_RETRY = frozenset(
    code
    for code in (
        getattr(errno, "ECONNABORTED", None),
        getattr(errno, "EPROTO", None),
        getattr(errno, "ECONNRESET", None),
        getattr(errno, "EPERM", None),  # a firewall refused the connection (Linux)
    )
    if code is not None
)

_REASONS = {s.value: s.phrase.encode() for s in http.HTTPStatus}


def _connection_cap(requested: int) -> int:
    """``requested``, lowered to half the process's file-descriptor limit: the other
    half stays for hook processes, session files and the interpreter."""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        infinity = resource.RLIM_INFINITY
    except (ImportError, OSError, ValueError):  # pragma: no cover - not on POSIX
        return requested
    if soft == infinity or soft <= 0:  # pragma: no cover - depends on the system
        return requested
    return max(1, min(requested, soft // 2))


def _accept_errno(exc: BaseException) -> int | None:
    """The ``errno`` of an ``accept()`` failure: an ``OSError`` (asyncio), or the
    ``OSError`` a ``BrokenResourceError`` was raised from (trio)."""
    if isinstance(exc, OSError):
        return exc.errno
    cause = exc.__cause__
    return cause.errno if isinstance(cause, OSError) else None


class _ByteBudget:
    """The bytes of request bodies held at once, across connections."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self._freed = anyio.Event()

    async def take(self, n: int, deadline: float) -> bool:
        """Reserve ``n`` bytes, waiting for room until ``deadline``; ``False`` if there
        was none in time."""
        with anyio.CancelScope(deadline=deadline):
            while self.used and self.used + n > self.limit:
                await self._freed.wait()
            self.used += n
            return True
        return False

    def give(self, n: int) -> None:
        if n:
            self.used -= n
            self._freed.set()
            self._freed = anyio.Event()


class _Incoming:
    """One request as it is read: its head, its body so far, the bytes it reserved,
    and the answer it gets without being dispatched (``early``: status and message)."""

    __slots__ = ("chunks", "early", "eof", "event", "request", "reserved", "size", "sized")

    def __init__(self) -> None:
        self.request: Any = None
        self.chunks: list[bytes] = []
        self.size = 0
        self.sized = False
        self.reserved = 0
        self.early: tuple[int, str] | None = None
        self.eof = False
        self.event: HookEvent | None = None
        """The event the request is for, as far as it is known (its path, its payload)."""

    def fail(self, status: int, message: str) -> bool:
        self.early = (status, message)
        return True


class HookServer:
    """Serve a registry over HTTP. Use :meth:`run` inside a task group (or
    ``anyio.run``), and :meth:`shutdown` to stop it gracefully.

    Args:
        max_body: the largest request body, in bytes (413 past it).
        max_buffered: the bytes of request bodies held at once, across connections
            (default: 16 MiB, and never less than ``max_body``); a request waits for
            room up to ``body_timeout``, then gets 503.
        max_connections: open connections at once; past it, connections wait in the
            kernel's accept queue (default: 256, lowered to half the process's
            file-descriptor limit).
        header_timeout: seconds for the request head to arrive, from the connection
            (or from the first byte of a request on a kept-alive connection): 408.
        body_timeout: seconds for the body to arrive once the head has (408), and for
            the client to take the answer.
        idle_timeout: seconds a keep-alive connection may wait for its next request.
        session_idle: seconds after its last request that a ``session_id``'s session
            is closed (``None``: only on SessionEnd and past ``max_sessions``).
        max_sessions: sessions kept open at once (least recently used closed first).
        shutdown_grace: how long :meth:`run` waits, after :meth:`shutdown`, for
            requests under way before cancelling them.
        fail_closed: answer a POST that cannot get the hooks' answer with HTTP 200 and
            :func:`blocking_answer` instead of an error status, and dispatch as
            ``HookRegistry(fail_closed=True)`` does (a failing hook of an event that can
            block blocks it).
        unusable: why the hooks cannot run as configured (a file that did not load):
            every hook call is then answered as failed (HTTP 500 with this message; a
            block under ``fail_closed``) instead of by the hooks that did load.

    Raises:
        ValueError: ``token`` is missing while ``require_auth`` is true; a limit or a
            timeout is not positive; ``max_buffered`` is below ``max_body``.
    """

    def __init__(
        self,
        registry: HookRegistry,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        token: str | None = None,
        require_auth: bool = True,
        max_body: int = DEFAULT_MAX_BODY,
        max_buffered: int | None = None,
        max_connections: int | None = None,
        header_timeout: float = DEFAULT_HEADER_TIMEOUT,
        body_timeout: float = DEFAULT_BODY_TIMEOUT,
        idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        session_idle: float | None = DEFAULT_SESSION_IDLE,
        project_dir: str | None = None,
        shutdown_grace: float = 10.0,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        log: Callable[[str], None] | None = None,
        fail_closed: bool = False,
        unusable: str | None = None,
    ) -> None:
        if require_auth and not token:
            raise ValueError("a bearer token is required (or disable auth explicitly)")
        for name, value in (
            ("max_body", max_body),
            ("max_connections", max_connections),
            ("max_buffered", max_buffered),
            ("header_timeout", header_timeout),
            ("body_timeout", body_timeout),
            ("idle_timeout", idle_timeout),
            ("session_idle", session_idle),
        ):
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be positive, got {value!r}")
        if max_buffered is not None and max_buffered < max_body:
            raise ValueError(f"max_buffered ({max_buffered}) is below max_body ({max_body})")
        self._h11 = _h11()
        if fail_closed and not registry.fail_closed:
            registry = registry.evolve(fail_closed=True)
        self.registry = registry
        self.fail_closed = fail_closed
        self._unusable = unusable
        """Whether failures are answered with a block (see the class)."""
        self.host = host
        self.port: int = port
        self._token = token.encode() if token else None
        self._max_body = max_body
        self._max_buffered = (
            max_buffered if max_buffered is not None else max(DEFAULT_MAX_BUFFERED, max_body)
        )
        self._lowered = max_connections is None
        self.max_connections: int = (
            max_connections
            if max_connections is not None
            else _connection_cap(DEFAULT_MAX_CONNECTIONS)
        )
        """Open connections at once (after lowering the default to the fd limit)."""
        self._header_timeout = header_timeout
        self._body_timeout = body_timeout
        self._idle_timeout = idle_timeout
        self._grace = shutdown_grace
        self._log = log
        self._stop = anyio.Event()
        self._table = SessionTable(
            registry, project_dir=project_dir, session_idle=session_idle, max_sessions=max_sessions
        )
        self._in_flight = 0
        self._connections = 0
        self._no_connections = anyio.Event()
        self._idle_connections: dict[anyio.CancelScope, None] = {}  # oldest first
        self._want_room = False  # (the accept loop waits for a connection to close)
        self._slots: anyio.Semaphore | None = None
        self._budget = _ByteBudget(self._max_buffered)
        self._quiet: set[Diagnostic] = set()

    @property
    def url(self) -> str:
        """``http://host:port`` (the bound port once :meth:`run` has started)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def in_flight(self) -> int:
        """How many requests are being answered right now."""
        return self._in_flight

    @property
    def open_connections(self) -> int:
        """How many connections are open right now."""
        return self._connections

    @property
    def buffered_bytes(self) -> int:
        """The bytes of request bodies held right now (reserved against ``max_buffered``)."""
        return self._budget.used

    @property
    def open_sessions(self) -> int:
        """How many per-``session_id`` sessions are open."""
        return len(self._table)

    @property
    def stopping(self) -> bool:
        """Whether :meth:`shutdown` was called."""
        return self._stop.is_set()

    def shutdown(self) -> None:
        """Stop accepting connections; in-flight requests finish, then :meth:`run` returns."""
        self._stop.set()

    async def run(
        self, *, task_status: anyio.abc.TaskStatus[int] = anyio.TASK_STATUS_IGNORED
    ) -> None:
        """Listen and serve until :meth:`shutdown` (or cancellation). Reports the bound port
        through ``task_status``."""
        listener = await anyio.create_tcp_listener(local_host=self.host, local_port=self.port)
        try:
            self.port = int(listener.extra(SocketAttribute.local_port))
            self._slots = anyio.Semaphore(self.max_connections)
            registry_diagnostics = self.registry.diagnostics
            self._quiet = set(registry_diagnostics)
            if self._log is not None:
                for d in registry_diagnostics:
                    if d.severity is not Severity.INFO:
                        self._log(one_line(str(d)))
                if self.max_connections < DEFAULT_MAX_CONNECTIONS and self._lowered:
                    self._log(
                        f"at most {self.max_connections} connections at once "
                        "(half the open-file limit)"
                    )
            async with anyio.create_task_group() as sessions_tg:
                await sessions_tg.start(self._table.run)
                try:
                    async with anyio.create_task_group() as conn_tg:
                        async with anyio.create_task_group() as accept_tg:
                            for one in listener.listeners:
                                if not isinstance(one, anyio.abc.SocketListener):
                                    raise TypeError(f"not a socket listener: {one!r}")
                                accept_tg.start_soon(self._accept_loop, one, conn_tg)
                            task_status.started(self.port)
                            await self._stop.wait()
                            accept_tg.cancel_scope.cancel()
                        # Stop requested: refuse new connections at once, close the idle
                        # ones, and let the requests under way end.
                        with anyio.CancelScope(shield=True):
                            await listener.aclose()
                        self._shed_idle(everyone=True)
                        with anyio.move_on_after(self._grace):
                            while self._connections:
                                self._no_connections = anyio.Event()
                                await self._no_connections.wait()
                        conn_tg.cancel_scope.cancel()
                finally:
                    # Sessions close (draining their background work) once no request
                    # can reach them any more.
                    self._table.close()
        finally:
            with anyio.CancelScope(shield=True):
                await listener.aclose()

    async def _accept_loop(
        self,
        listener: anyio.abc.SocketListener,
        tg: anyio.abc.TaskGroup,
    ) -> None:
        """Accept while there is room for a connection; back off when the process is out
        of file descriptors (the connection waits in the kernel's queue meanwhile)."""
        slots = self._slots
        assert slots is not None
        delay = 0.0
        while True:
            if slots.value == 0:  # full: an idle keep-alive connection makes room
                self._want_room = True
                self._shed_idle()
                try:
                    await slots.acquire()
                finally:
                    self._want_room = False
            else:
                await slots.acquire()
            try:
                stream = await listener.accept()
            except (OSError, anyio.BrokenResourceError) as exc:
                slots.release()
                code = _accept_errno(exc)
                if code in _ACCEPT_RETRY:
                    continue
                if code not in _OUT_OF_FDS:
                    raise
                if not delay and self._log is not None:
                    self._log(
                        f"cannot accept a connection ({errno.errorcode.get(code or 0, code)}: "
                        f"{self._connections} open); backing off"
                    )
                delay = min(max(2 * delay, _BACKOFF_MIN), _BACKOFF_MAX)
                await anyio.sleep(delay)
                continue
            except BaseException:
                slots.release()
                raise
            delay = 0.0
            self._connections += 1
            tg.start_soon(self._handle, stream, anyio.current_time())

    def _shed_idle(self, *, everyone: bool = False) -> None:
        """Close the oldest idle keep-alive connection (all of them: ``everyone``).
        With none idle now, the next connection to become idle closes instead."""
        while self._idle_connections:
            scope = next(iter(self._idle_connections))
            del self._idle_connections[scope]
            scope.cancel()
            if not everyone:
                self._want_room = False
                return

    # ---------------------------------------------------------------- HTTP

    async def _handle(self, stream: anyio.abc.ByteStream, accepted: float) -> None:
        try:
            await self._serve_connection(stream, accepted)
        except Exception as exc:  # one connection's failure never takes the server down
            if self._log is not None:
                self._log(f"connection dropped: {type(exc).__name__}: {exc}")
        finally:
            with anyio.CancelScope(shield=True):
                await stream.aclose()
            assert self._slots is not None
            self._slots.release()
            self._connections -= 1
            if not self._connections:
                self._no_connections.set()

    async def _serve_connection(self, stream: anyio.abc.ByteStream, accepted: float) -> None:
        h11 = self._h11
        conn = h11.Connection(our_role=h11.SERVER, max_incomplete_event_size=_MAX_HEAD)
        head_deadline: float | None = accepted + self._header_timeout
        while True:
            incoming = _Incoming()
            try:
                try:
                    if not await self._read_request(conn, stream, incoming, head_deadline):
                        return
                except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                    return
                if not await self._answer(conn, stream, incoming):
                    return
            finally:
                self._budget.give(incoming.reserved)
            if incoming.early is not None:
                if incoming.early[0] != 408 and not incoming.eof:
                    await self._linger(stream)
                return
            if conn.our_state is h11.MUST_CLOSE or conn.their_state is h11.MUST_CLOSE:
                return
            try:
                conn.start_next_cycle()
            except h11.LocalProtocolError:
                return
            head_deadline = None  # the next request: idle until its first byte

    async def _read_request(
        self,
        conn: Any,
        stream: anyio.abc.ByteStream,
        incoming: _Incoming,
        deadline: float | None,
    ) -> bool:
        """Read one request into ``incoming``; ``False``: nothing to answer (the
        connection closed or stayed idle too long)."""
        h11 = self._h11
        if deadline is None and conn.trailing_data[0]:  # pipelined: already arriving
            deadline = anyio.current_time() + self._header_timeout
        while True:
            try:
                event = conn.next_event()
            except h11.RemoteProtocolError as exc:
                if incoming.eof:  # the peer went away mid-request: nobody to answer
                    return False
                detail = one_line(str(exc))[:200]
                return incoming.fail(exc.error_status_hint, f"malformed HTTP request: {detail}")
            if event is h11.NEED_DATA:
                # (the head is read in pieces of at most _MAX_HEAD bytes, so that h11
                # sees a head too large before it is complete)
                size = _MAX_HEAD if incoming.request is None else 65536
                if deadline is None:
                    data = await self._receive_idle(stream)
                    if data is None:
                        return False
                    deadline = anyio.current_time() + self._header_timeout
                else:
                    data = await _receive_by(stream, deadline, size)
                    if data is None:
                        if incoming.request is None:
                            return incoming.fail(
                                408, f"request head not received within {self._header_timeout} s"
                            )
                        return incoming.fail(
                            408, f"request body not received within {self._body_timeout} s"
                        )
                incoming.eof = not data
                conn.receive_data(data)
            elif isinstance(event, h11.Request):
                incoming.request = event
                deadline = anyio.current_time() + self._body_timeout
                if await self._check_head(conn, stream, incoming, deadline):
                    return True
            elif isinstance(event, h11.Data):
                incoming.size += len(event.data)
                if incoming.size > self._max_body:
                    return incoming.fail(413, f"request body larger than {self._max_body} bytes")
                if not incoming.sized:
                    assert deadline is not None  # (set when the head arrived)
                    if not await self._budget.take(len(event.data), deadline):
                        return incoming.fail(503, "server busy: too many request bodies held")
                    incoming.reserved += len(event.data)
                incoming.chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                return True
            elif isinstance(event, h11.ConnectionClosed):
                return False

    async def _check_head(
        self, conn: Any, stream: anyio.abc.ByteStream, incoming: _Incoming, deadline: float
    ) -> bool:
        """Decide what can be decided from the request head (``True``: answer early),
        reserve room for a body of known length, and ask for the body if the client
        waits for ``100 Continue``."""
        h11 = self._h11
        request = incoming.request
        length: int | None = None
        for name, value in request.headers:
            if name == b"content-length":  # h11 lower-cases names and checks the value
                length = int(value)
        incoming.event = _path_event(request)
        if length is not None and length > self._max_body:
            return incoming.fail(413, f"request body larger than {self._max_body} bytes")
        if not _is_health_check(request) and not self._authorized(request):
            return incoming.fail(401, "missing or wrong bearer token")
        if length is not None:
            incoming.sized = True
            if not await self._budget.take(length, deadline):
                return incoming.fail(503, "server busy: too many request bodies held")
            incoming.reserved = length
        if conn.they_are_waiting_for_100_continue:
            data = conn.send(h11.InformationalResponse(status_code=100, headers=[]))
            if not await _send_by(stream, data, deadline):
                return incoming.fail(408, "the client did not take 100 Continue in time")
        return False

    async def _receive_idle(self, stream: anyio.abc.ByteStream) -> bytes | None:
        """The first bytes of the next request on a kept-alive connection; ``None``
        when it stays idle for ``idle_timeout``, when room is needed for a new
        connection, or once the server stops."""
        if self._stop.is_set():
            return None
        if self._want_room:  # the server is full: this connection makes room
            self._want_room = False
            return None
        with anyio.move_on_after(self._idle_timeout) as scope:
            self._idle_connections[scope] = None
            try:
                return await _receive(stream, _MAX_HEAD)
            finally:
                self._idle_connections.pop(scope, None)
        return None

    async def _answer(self, conn: Any, stream: anyio.abc.ByteStream, incoming: _Incoming) -> bool:
        """Answer ``incoming``; ``False`` when the answer could not be sent."""
        h11 = self._h11
        if incoming.early is not None:
            status, payload = incoming.early[0], {"error": incoming.early[1]}
        else:
            self._in_flight += 1
            try:
                try:
                    status, payload = await self._respond(incoming)
                except Exception as exc:
                    if self._log is not None:
                        self._log(f"internal error: {type(exc).__name__}: {exc}")
                    status, payload = 500, {"error": f"internal error: {type(exc).__name__}"}
            finally:
                self._in_flight -= 1
        try:
            data = dumps(payload).encode()
        except Exception as exc:  # (dumps writes any answer; this is the last resort)
            if self._log is not None:
                self._log(f"cannot encode the answer: {type(exc).__name__}: {exc}")
            status, payload = 500, {"error": f"internal error: {type(exc).__name__}"}
            data = dumps(payload).encode()
        if status != 200 and self.fail_closed and _is_hook_call(incoming.request):
            closed = self._closed(incoming.event, str(payload.get("error") or status))
            if closed is not None:
                status, data = 200, dumps(closed).encode()
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(data)))]
        if incoming.early is not None or self._stop.is_set():
            headers.append(("Connection", "close"))
        elif self._idle_timeout >= 1:  # how long the client may keep it unused
            headers.append(("Keep-Alive", f"timeout={int(self._idle_timeout)}"))
        if status == 401:
            headers.append(("WWW-Authenticate", "Bearer"))
        try:
            message = (
                conn.send(
                    h11.Response(
                        status_code=status, headers=headers, reason=_REASONS.get(status, b"")
                    )
                )
                + conn.send(h11.Data(data=data))
                + conn.send(h11.EndOfMessage())
            )
        except h11.LocalProtocolError:
            return False
        return await _send_by(stream, message, anyio.current_time() + self._body_timeout)

    async def _linger(self, stream: anyio.abc.ByteStream) -> None:
        """After an early answer: stop sending, then read and drop what the client still
        sends (bounded in time and size), so the close does not reset the connection."""
        with anyio.move_on_after(_LINGER):
            try:
                await stream.send_eof()
                budget = 16 * self._max_body + 65536
                while budget > 0:
                    budget -= len(await stream.receive())
            except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass
            except OSError:  # pragma: no cover - depends on the peer's timing
                pass

    def _closed(self, event: HookEvent | None, error: str) -> dict[str, Any] | None:
        """The blocking answer a failed hook call gets under ``fail_closed`` (logged),
        or ``None`` when its event cannot block."""
        reason = f"agent-hooks serve (fail-closed): {one_line(error)[:500]}"
        closed = blocking_answer(event, reason)
        if closed is not None and self._log is not None:
            self._log(f"{event.value if event else 'unknown event'}: blocked: {reason}")
        return closed

    async def _respond(self, incoming: _Incoming) -> tuple[int, dict[str, Any]]:
        """The answer to a whole request; its body is emptied once decoded, so that only
        the decoded payload stays in memory while the hooks run."""
        request, chunks = incoming.request, incoming.chunks
        body = b"".join(chunks)
        chunks.clear()
        if _is_health_check(request):
            return 200, {"status": "ok"}
        if request.method.upper() != b"POST":
            return 405, {"error": "POST a hook payload"}
        try:
            obj = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            return 400, {"error": f"payload is not valid JSON: {exc}"}
        finally:
            del body
        if not isinstance(obj, dict):
            return 400, {"error": f"payload must be a JSON object, got {type(obj).__name__}"}
        incoming.event = _known_event(obj.get("hook_event_name")) or incoming.event
        if self._unusable is not None:
            return 500, {"error": f"hooks cannot run as configured: {self._unusable}"}
        result = await self._table.answer(obj, fail_closed=self.fail_closed)
        if result.error is not None and result.decision is None:
            # (with a decision, ``error`` is the reason of a block that ``run`` also says
            # with exit 2; the JSON answer carries it, as ``run`` prints it)
            return 400, {"error": result.error}
        if self._log is not None:
            for d in result.diagnostics:
                if d.severity is not Severity.INFO and d not in self._quiet:
                    self._log(one_line(str(d)))
        return 200, result.answer

    def _authorized(self, request: Any) -> bool:
        if self._token is None:
            return True
        for name, value in request.headers:
            if name == b"authorization":
                scheme, _, token = bytes(value).partition(b" ")
                return scheme.lower() == b"bearer" and hmac.compare_digest(
                    token.strip(), self._token
                )
        return False


def blocking_answer(event: HookEvent | None, reason: str) -> dict[str, Any] | None:
    """The Claude Code answer (JSON, for an HTTP 200) that blocks ``event`` with
    ``reason``: the event's own block (``PreToolUse``: ``permissionDecision: "deny"``;
    ``PermissionRequest``: a deny decision; ``Stop``, ``UserPromptSubmit``,
    ``PostToolUse``: ``decision: "block"``), as ``agent-hooks run`` writes it.
    ``None`` when the event cannot block. With no event known, or an event whose block
    has no JSON form (``TaskCompleted``, ``TeammateIdle``): ``continue: false`` (the
    agent stops; ``stopReason`` tells the user why) with ``decision: "block"`` and
    ``reason`` beside it, which every event's answer may carry."""
    if event is not None:
        spec = spec_for(event)
        if not spec.can_block:
            return None
        output = blocking_output(spec, reason) if spec.json_block else None
        if output is not None:
            return answer_json(output, "claude", event)
    return {"continue": False, "stopReason": reason, "decision": "block", "reason": reason}


def _known_event(name: Any) -> HookEvent | None:
    """The event ``name`` spells (any spelling :func:`parse_event` reads), else ``None``."""
    if not isinstance(name, str):
        return None
    try:
        return parse_event(name)
    except UnknownEventError:
        return None


def _path_event(request: Any) -> HookEvent | None:
    """The event the request's path ends with (``/PreToolUse``, ``/hooks/pre_tool_use``)."""
    path = bytes(request.target).split(b"?", 1)[0].rstrip(b"/")
    return _known_event(path.rsplit(b"/", 1)[-1].decode("latin-1"))


def _is_hook_call(request: Any) -> bool:
    """Whether a request may be a harness's hook call: a POST, or one whose head could
    not be read."""
    return request is None or bool(request.method.upper() == b"POST")


def _is_health_check(request: Any) -> bool:
    target = bytes(request.target).split(b"?", 1)[0]
    return bool(request.method.upper() == b"GET" and target == b"/healthz")


async def _receive(stream: anyio.abc.ByteStream, size: int) -> bytes:
    """The next bytes (at most ``size``), ``b""`` at the end of the stream."""
    try:
        return await stream.receive(size)
    except anyio.EndOfStream:
        return b""


async def _receive_by(stream: anyio.abc.ByteStream, deadline: float, size: int) -> bytes | None:
    """The next bytes (at most ``size``; ``b""`` at the end), or ``None`` if none came by
    ``deadline``."""
    with anyio.CancelScope(deadline=deadline):
        return await _receive(stream, size)
    return None


async def _send_by(stream: anyio.abc.ByteStream, data: bytes, deadline: float) -> bool:
    """Send ``data``; ``False`` if the peer is gone or did not take it by ``deadline``."""
    with anyio.CancelScope(deadline=deadline):
        try:
            await stream.send(data)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            return False
        return True
    return False
