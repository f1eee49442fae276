"""``agent-hooks serve``: the hook graph as a long-lived HTTP hook server.

For Claude Code's ``type: "http"`` hooks: POST a payload, get the JSON ``agent-hooks
run`` would print (HTTP 200). Python callbacks run in-process, so a hook costs a
loopback round trip instead of an interpreter start.

* binds to loopback by default;
* requires ``Authorization: Bearer <token>`` unless auth is explicitly disabled
  (401 otherwise); the token is compared in constant time;
* bounded request bodies (413 past the limit);
* concurrent requests, HTTP/1.1 keep-alive (and ``Expect: 100-continue``);
* one long-lived session per ``session_id`` (state such as stop-loop counters and
  background work carries across requests), closed after its ``SessionEnd`` and,
  past ``max_sessions``, least recently used first;
* ``GET /healthz`` answers ``{"status": "ok"}`` without auth;
* graceful shutdown: stop accepting, let in-flight dispatches finish (up to a
  grace period), then close every session, which drains background work.

Uses h11 (the optional ``http`` extra) over anyio streams.
"""

from __future__ import annotations

import hmac
import http
import json
import time
from collections.abc import Callable
from typing import Any

import anyio
import anyio.abc
from anyio.abc import SocketAttribute

from .._base._diagnostics import Diagnostic, Severity
from .._dispatch._registry import HookRegistry
from .._dispatch._session import Session
from .._events._names import HookEvent
from .._handlers._http import _h11
from ._payload import dispatch_payload, one_line

__all__ = ["HookServer"]

DEFAULT_MAX_BODY = 1_048_576
DEFAULT_MAX_SESSIONS = 256
_LINGER = 1.0
"""Seconds to keep reading (and discarding) a too-large body after answering 413, so
that closing the socket with unread data does not reset the connection before the
client has read the answer."""


_REASONS = {s.value: s.phrase.encode() for s in http.HTTPStatus}


class _Hosted:
    """A session kept open across requests, and who is using it."""

    __slots__ = ("closing", "done", "last_used", "session", "users")

    def __init__(self) -> None:
        self.session: Session | None = None
        self.done = anyio.Event()
        self.users = 0
        self.closing = False
        self.last_used = time.monotonic()


class HookServer:
    """Serve a registry over HTTP. Use :meth:`run` inside a task group (or
    ``anyio.run``), and :meth:`shutdown` to stop it gracefully.

    Raises:
        ValueError: ``token`` is missing while ``require_auth`` is true.
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
        project_dir: str | None = None,
        shutdown_grace: float = 10.0,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        log: Callable[[str], None] | None = None,
    ) -> None:
        if require_auth and not token:
            raise ValueError("a bearer token is required (or disable auth explicitly)")
        self._h11 = _h11()
        self.registry = registry
        self.host = host
        self.port = port
        self._token = token.encode() if token else None
        self._max_body = max_body
        self._project_dir = project_dir
        self._grace = shutdown_grace
        self._max_sessions = max(1, max_sessions)
        self._log = log
        self._stop = anyio.Event()
        self._sessions: dict[str, _Hosted] = {}
        self._all_hosted: set[_Hosted] = set()
        self._closing = False
        self._session_lock = anyio.Lock()
        self._in_flight = 0
        self._idle = anyio.Event()
        self._sessions_tg: anyio.abc.TaskGroup | None = None
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
    def open_sessions(self) -> int:
        """How many per-``session_id`` sessions are open."""
        return len(self._sessions)

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
        self.port = int(listener.extra(SocketAttribute.local_port))
        registry_diagnostics = self.registry.diagnostics
        self._quiet = set(registry_diagnostics)
        if self._log is not None:
            for d in registry_diagnostics:
                if d.severity is not Severity.INFO:
                    self._log(one_line(str(d)))
        try:
            async with anyio.create_task_group() as sessions_tg:
                self._sessions_tg = sessions_tg
                try:
                    async with anyio.create_task_group() as conn_tg:
                        with anyio.CancelScope() as accept_scope:
                            conn_tg.start_soon(self._watch_stop, accept_scope)
                            task_status.started(self.port)
                            await listener.serve(self._handle, task_group=conn_tg)
                        # Stop requested: no new connections. Let in-flight requests end.
                        with anyio.move_on_after(self._grace):
                            while self._in_flight:
                                self._idle = anyio.Event()
                                await self._idle.wait()
                        conn_tg.cancel_scope.cancel()  # idle keep-alive connections
                finally:
                    # Sessions close (draining their background work) once no request
                    # can reach them any more.
                    self._closing = True
                    for hosted in list(self._all_hosted):
                        hosted.done.set()
        finally:
            with anyio.CancelScope(shield=True):
                await listener.aclose()

    async def _watch_stop(self, scope: anyio.CancelScope) -> None:
        await self._stop.wait()
        scope.cancel()

    # ------------------------------------------------------------ sessions

    async def _acquire(self, session_id: str, cwd: Any) -> _Hosted | None:
        async with self._session_lock:
            hosted = self._sessions.get(session_id)
            if hosted is None:
                if self._closing or self._sessions_tg is None:
                    return None
                if len(self._sessions) >= self._max_sessions:
                    self._evict()
                hosted = _Hosted()
                project = self._project_dir or (cwd if isinstance(cwd, str) and cwd else None)
                await self._sessions_tg.start(self._host_session, hosted, session_id, project)
                self._sessions[session_id] = hosted
            hosted.users += 1
            hosted.last_used = time.monotonic()
            return hosted

    def _release(self, session_id: str, hosted: _Hosted, ended: bool) -> None:
        hosted.users -= 1
        hosted.last_used = time.monotonic()
        if ended and not hosted.closing:
            hosted.closing = True
            if self._sessions.get(session_id) is hosted:
                del self._sessions[session_id]
        if hosted.closing and not hosted.users:
            hosted.done.set()

    def _evict(self) -> None:
        idle = [(h.last_used, sid) for sid, h in self._sessions.items() if not h.users]
        if idle:
            _, sid = min(idle)
            hosted = self._sessions.pop(sid)
            hosted.closing = True
            hosted.done.set()

    async def _host_session(
        self,
        hosted: _Hosted,
        session_id: str,
        project_dir: str | None,
        *,
        task_status: anyio.abc.TaskStatus[None],
    ) -> None:
        self._all_hosted.add(hosted)
        try:
            async with self.registry.session(session_id=session_id, project_dir=project_dir) as s:
                hosted.session = s
                task_status.started()
                await hosted.done.wait()
        finally:
            self._all_hosted.discard(hosted)

    # ---------------------------------------------------------------- HTTP

    async def _handle(self, stream: anyio.abc.ByteStream) -> None:
        try:
            await self._serve_connection(stream)
        except Exception as exc:  # one connection's failure never takes the server down
            if self._log is not None:
                self._log(f"connection dropped: {type(exc).__name__}: {exc}")

    async def _serve_connection(self, stream: anyio.abc.ByteStream) -> None:
        h11 = self._h11
        conn = h11.Connection(our_role=h11.SERVER)
        async with stream:
            while True:
                try:
                    request, body, too_large = await self._read_request(conn, stream)
                except (
                    anyio.EndOfStream,
                    anyio.BrokenResourceError,
                    anyio.ClosedResourceError,
                    h11.RemoteProtocolError,
                ):
                    return
                if request is None:
                    return
                self._in_flight += 1
                try:
                    try:
                        status, payload = await self._respond(request, body, too_large)
                    except Exception as exc:
                        if self._log is not None:
                            self._log(f"internal error: {type(exc).__name__}: {exc}")
                        status, payload = 500, {"error": f"internal error: {type(exc).__name__}"}
                    data = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
                    headers = [
                        ("Content-Type", "application/json"),
                        ("Content-Length", str(len(data))),
                    ]
                    if too_large or self._stop.is_set():
                        headers.append(("Connection", "close"))
                    if status == 401:
                        headers.append(("WWW-Authenticate", "Bearer"))
                    try:
                        await stream.send(
                            conn.send(
                                h11.Response(
                                    status_code=status,
                                    headers=headers,
                                    reason=_REASONS.get(status, b""),
                                )
                            )
                            + conn.send(h11.Data(data=data))
                            + conn.send(h11.EndOfMessage())
                        )
                    except (
                        anyio.BrokenResourceError,
                        anyio.ClosedResourceError,
                        h11.LocalProtocolError,
                    ):
                        return
                finally:
                    self._in_flight -= 1
                    if not self._in_flight:
                        self._idle.set()
                if too_large:
                    await self._linger(stream)
                    return
                if conn.our_state is h11.MUST_CLOSE or conn.their_state is h11.MUST_CLOSE:
                    return
                try:
                    conn.start_next_cycle()
                except h11.LocalProtocolError:
                    return

    async def _linger(self, stream: anyio.abc.ByteStream) -> None:
        """After a 413: stop sending, then read and drop what the client still sends
        (bounded in time and size), so the close does not reset the connection."""
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

    async def _read_request(
        self, conn: Any, stream: anyio.abc.ByteStream
    ) -> tuple[Any, bytes, bool]:
        h11 = self._h11
        request = None
        chunks: list[bytes] = []
        size = 0
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                try:
                    data = await stream.receive()
                except anyio.EndOfStream:
                    data = b""
                conn.receive_data(data)
                continue
            if isinstance(event, h11.Request):
                request = event
                length = None
                for name, value in event.headers:
                    if name == b"content-length":  # h11 lower-cases header names
                        length = value
                if length is not None and length.isdigit() and int(length) > self._max_body:
                    return request, b"", True
                if conn.they_are_waiting_for_100_continue:
                    await stream.send(
                        conn.send(h11.InformationalResponse(status_code=100, headers=[]))
                    )
            elif isinstance(event, h11.Data):
                size += len(event.data)
                if size > self._max_body:
                    return request, b"", True
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                return request, b"".join(chunks), False
            elif isinstance(event, h11.ConnectionClosed):
                return None, b"", False

    async def _respond(
        self, request: Any, body: bytes, too_large: bool
    ) -> tuple[int, dict[str, Any]]:
        target = request.target.decode("latin-1").split("?", 1)[0]
        method = request.method.decode("latin-1").upper()
        if method == "GET" and target == "/healthz":
            return 200, {"status": "ok"}
        if too_large:
            return 413, {"error": f"request body larger than {self._max_body} bytes"}
        if not self._authorized(request):
            return 401, {"error": "missing or wrong bearer token"}
        if method != "POST":
            return 405, {"error": "POST a hook payload"}
        try:
            obj = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            return 400, {"error": f"payload is not valid JSON: {exc}"}
        if not isinstance(obj, dict):
            return 400, {"error": f"payload must be a JSON object, got {type(obj).__name__}"}
        hosted = None
        session_id = obj.get("session_id")
        if isinstance(session_id, str) and session_id:
            hosted = await self._acquire(session_id, obj.get("cwd"))
        ended = False
        try:
            result = await dispatch_payload(
                obj,
                self.registry,
                project_dir=self._project_dir,
                session=hosted.session if hosted is not None else None,
            )
            ended = result.decision is not None and result.decision.event is HookEvent.SESSION_END
        finally:
            if hosted is not None:
                assert isinstance(session_id, str)
                self._release(session_id, hosted, ended)
        if result.error is not None:
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
