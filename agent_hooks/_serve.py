"""``agent-hooks serve``: the hook graph as a long-lived HTTP hook server.

For Claude Code's ``type: "http"`` hooks: POST a payload, get the JSON ``agent-hooks
run`` would print (HTTP 200). Python callbacks run in-process, so a hook costs a
loopback round trip instead of an interpreter start.

* binds to loopback by default;
* requires ``Authorization: Bearer <token>`` unless auth is explicitly disabled
  (401 otherwise); the token is compared in constant time;
* bounded request bodies (413 past the limit);
* concurrent requests, HTTP/1.1 keep-alive;
* ``GET /healthz`` answers ``{"status": "ok"}`` without auth;
* graceful shutdown: stop accepting, let in-flight dispatches finish (up to a
  grace period), then close every session, which drains background work.

Uses h11 (the optional ``http`` extra) over anyio streams.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable
from typing import Any

import anyio
import anyio.abc
from anyio.abc import SocketAttribute

from ._bridge import dispatch_payload
from ._http import _h11
from ._registry import HookRegistry
from ._session import Session

__all__ = ["HookServer"]

DEFAULT_MAX_BODY = 1_048_576


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
        self._log = log
        self._stop = anyio.Event()
        self._sessions_done = anyio.Event()
        self._sessions: dict[str, Session] = {}
        self._session_lock = anyio.Lock()
        self._in_flight = 0
        self._idle = anyio.Event()
        self._sessions_tg: anyio.abc.TaskGroup | None = None

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
                with anyio.CancelScope(shield=True):
                    await listener.aclose()
                self._sessions_done.set()  # sessions close, draining background work

    async def _watch_stop(self, scope: anyio.CancelScope) -> None:
        await self._stop.wait()
        scope.cancel()

    async def _session(self, session_id: str) -> Session:
        async with self._session_lock:
            found = self._sessions.get(session_id)
            if found is not None:
                return found
            assert self._sessions_tg is not None
            session: Session = await self._sessions_tg.start(self._host_session, session_id)
            self._sessions[session_id] = session
            return session

    async def _host_session(
        self, session_id: str, *, task_status: anyio.abc.TaskStatus[Session]
    ) -> None:
        async with self.registry.session(session_id=session_id, project_dir=self._project_dir) as s:
            task_status.started(s)
            await self._sessions_done.wait()

    async def _handle(self, stream: anyio.abc.ByteStream) -> None:
        h11 = self._h11
        conn = h11.Connection(our_role=h11.SERVER)
        async with stream:
            while True:
                try:
                    request, body, too_large = await self._read_request(conn, stream)
                except (anyio.EndOfStream, anyio.BrokenResourceError, h11.RemoteProtocolError):
                    return
                if request is None:
                    return
                self._in_flight += 1
                try:
                    status, payload = await self._respond(request, body, too_large)
                    data = json.dumps(payload, separators=(",", ":")).encode()
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
                            conn.send(h11.Response(status_code=status, headers=headers))
                        )
                        await stream.send(conn.send(h11.Data(data=data)))
                        await stream.send(conn.send(h11.EndOfMessage()))
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
                if conn.our_state is h11.MUST_CLOSE or conn.their_state is h11.MUST_CLOSE:
                    return
                try:
                    conn.start_next_cycle()
                except h11.LocalProtocolError:
                    return

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
                length = dict((k.lower(), v) for k, v in event.headers).get(b"content-length")
                if length is not None and length.isdigit() and int(length) > self._max_body:
                    return request, b"", True
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
        except (UnicodeDecodeError, ValueError) as exc:
            return 400, {"error": f"payload is not JSON: {exc}"}
        session = None
        if isinstance(obj, dict) and isinstance(obj.get("session_id"), str):
            session = await self._session(obj["session_id"])
        result = await dispatch_payload(
            obj if isinstance(obj, dict) else body,
            self.registry,
            project_dir=self._project_dir,
            session=session,
        )
        if result.error is not None:
            return 400, {"error": result.error}
        if self._log is not None:
            for d in result.diagnostics:
                self._log(str(d))
        return 200, result.answer

    def _authorized(self, request: Any) -> bool:
        if self._token is None:
            return True
        for name, value in request.headers:
            if name.lower() == b"authorization":
                scheme, _, token = bytes(value).partition(b" ")
                return scheme.lower() == b"bearer" and hmac.compare_digest(
                    token.strip(), self._token
                )
        return False
