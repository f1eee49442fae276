"""The server core shared by ``agent-hooks serve`` and ``agent-hooks run`` (in-process
and in the resident server): one session per ``session_id``, kept open across
requests, and one dispatch path for a payload.

A :class:`SessionTable` keeps state that must carry from one hook call to the next
(stop-loop counters, fire-and-forget work and its output, which the next answer of the
same ``session_id`` delivers) in one long-lived :class:`~agent_hooks.Session` per
``session_id``. A session closes after its ``SessionEnd``, after ``session_idle``
seconds without a request, and, past ``max_sessions``, least recently used first; a
closing session drains its background work as any session close does. Payloads
without a ``session_id`` get a one-off session, and so does every payload of a table
that was never started (:meth:`SessionTable.run`): the in-process ``agent-hooks run``
is such a one-off use of the table its resident server keeps.

:meth:`SessionTable.run` owns every session (an anyio task group): when it ends, after
:meth:`SessionTable.close`, every session has closed. Requests under way when
``close`` is called finish first: a session closes when its last user releases it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import anyio
import anyio.abc

from .._dispatch._registry import HookRegistry
from .._dispatch._session import Session
from .._events._names import HookEvent
from .._wire._codec import DecodedInput
from ._payload import BridgeResult, dispatch_payload

__all__ = ["DEFAULT_MAX_SESSIONS", "DEFAULT_SESSION_IDLE", "SessionTable"]

DEFAULT_MAX_SESSIONS = 256
DEFAULT_SESSION_IDLE = 1800.0


class _Hosted:
    """A session kept open across requests, and who is using it."""

    __slots__ = ("closing", "done", "last_used", "session", "users")

    def __init__(self) -> None:
        self.session: Session | None = None
        self.done = anyio.Event()
        self.users = 0
        self.closing = False
        self.last_used = anyio.current_time()


class SessionTable:
    """Long-lived sessions of one registry, by ``session_id``; see the module docs.

    Args:
        registry: the hooks every session dispatches through.
        project_dir: the project root of every session (default: the first payload's
            ``cwd``).
        session_idle: seconds after its last request that a session is closed
            (``None``: only on SessionEnd and past ``max_sessions``).
        max_sessions: sessions kept open at once (least recently used closed first).
    """

    def __init__(
        self,
        registry: HookRegistry,
        *,
        project_dir: str | None = None,
        session_idle: float | None = DEFAULT_SESSION_IDLE,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
    ) -> None:
        self.registry = registry
        self.project_dir = project_dir
        self._session_idle = session_idle
        self._max_sessions = max(1, max_sessions)
        self._sessions: dict[str, _Hosted] = {}
        self._all_hosted: set[_Hosted] = set()
        self._closing = False
        self._lock = anyio.Lock()
        self._tg: anyio.abc.TaskGroup | None = None
        self._stop = anyio.Event()
        self.last_used = 0.0
        """When a request last used the table (``anyio.current_time()``; 0 before any)."""
        self.in_flight = 0
        """Requests being answered right now."""

    def __len__(self) -> int:
        """How many per-``session_id`` sessions are open."""
        return len(self._sessions)

    async def run(
        self, *, task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED
    ) -> None:
        """Host sessions until :meth:`close`; returns once every session has closed
        (their background work drained)."""
        async with anyio.create_task_group() as tg:
            self._tg = tg
            evictor = anyio.CancelScope()
            if self._session_idle is not None:
                tg.start_soon(self._evict_idle, evictor, self._session_idle)
            task_status.started()
            try:
                await self._stop.wait()
            finally:
                # Sessions close (draining their background work) once no request can
                # reach them any more; those in use close when released.
                self._closing = True
                evictor.cancel()
                for hosted in list(self._all_hosted):
                    if not hosted.users:
                        hosted.done.set()
                    hosted.closing = True
                self._sessions.clear()

    def close(self) -> None:
        """Stop taking new sessions and close the open ones (:meth:`run` then returns)."""
        self._stop.set()

    async def answer(
        self,
        payload: Mapping[str, Any] | DecodedInput,
        *,
        fail_closed: bool = False,
        environ: Mapping[str, str] | None = None,
        cwd: str | None = None,
        on_answer: Callable[[BridgeResult], None] | None = None,
    ) -> BridgeResult:
        """Dispatch one payload (a JSON object, or one decoded already) in its
        ``session_id``'s session (a one-off session without one, or once the table is
        closing) and return the answer (:func:`dispatch_payload`; never raises for a bad
        payload or a failing hook)."""
        self.in_flight += 1
        self.last_used = anyio.current_time()
        try:
            if isinstance(payload, DecodedInput):
                session_id: Any = payload.input.session_id
                payload_cwd: Any = payload.input.cwd
            else:
                session_id, payload_cwd = payload.get("session_id"), payload.get("cwd")
            hosted = None
            if isinstance(session_id, str) and session_id:
                hosted = await self._acquire(session_id, payload_cwd or cwd)
            ended = False
            try:
                result = await dispatch_payload(
                    payload,
                    self.registry,
                    project_dir=self.project_dir,
                    fail_closed=fail_closed,
                    session=hosted.session if hosted is not None else None,
                    on_answer=on_answer,
                    environ=environ,
                    cwd=cwd,
                )
                ended = (
                    result.decision is not None and result.decision.event is HookEvent.SESSION_END
                )
            finally:
                if hosted is not None:
                    assert isinstance(session_id, str)
                    self._release(session_id, hosted, ended)
            return result
        finally:
            self.in_flight -= 1
            self.last_used = anyio.current_time()

    # ------------------------------------------------------------ the table

    async def _acquire(self, session_id: str, cwd: Any) -> _Hosted | None:
        async with self._lock:
            hosted = self._sessions.get(session_id)
            if hosted is None:
                if self._closing or self._tg is None:
                    return None
                if len(self._sessions) >= self._max_sessions:
                    self._evict_least_recent()
                hosted = _Hosted()
                project = self.project_dir or (cwd if isinstance(cwd, str) and cwd else None)
                await self._tg.start(self._host, hosted, session_id, project, cwd)
                self._sessions[session_id] = hosted
            hosted.users += 1
            hosted.last_used = anyio.current_time()
            return hosted

    def _release(self, session_id: str, hosted: _Hosted, ended: bool) -> None:
        hosted.users -= 1
        hosted.last_used = anyio.current_time()
        if ended and not hosted.closing:
            hosted.closing = True
            if self._sessions.get(session_id) is hosted:
                del self._sessions[session_id]
        if hosted.closing and not hosted.users:
            hosted.done.set()

    def _close_one(self, session_id: str) -> None:
        """Take an unused session out of the table and let it close."""
        hosted = self._sessions.pop(session_id)
        hosted.closing = True
        hosted.done.set()

    def _evict_least_recent(self) -> None:
        idle = [(h.last_used, sid) for sid, h in self._sessions.items() if not h.users]
        if idle:
            self._close_one(min(idle)[1])

    async def _evict_idle(self, scope: anyio.CancelScope, idle: float) -> None:
        """Close every session unused for ``idle`` seconds, waking when the next one
        is due."""
        with scope:
            while True:
                now = anyio.current_time()
                wake = now + idle
                for sid, hosted in list(self._sessions.items()):
                    if hosted.users:
                        continue  # released later, so due later than ``wake``
                    due = hosted.last_used + idle
                    if due <= now:
                        self._close_one(sid)
                    else:
                        wake = min(wake, due)
                await anyio.sleep_until(wake)

    async def _host(
        self,
        hosted: _Hosted,
        session_id: str,
        project_dir: str | None,
        cwd: Any,
        *,
        task_status: anyio.abc.TaskStatus[None],
    ) -> None:
        self._all_hosted.add(hosted)
        try:
            async with self.registry.session(
                session_id=session_id,
                project_dir=project_dir,
                cwd=cwd if isinstance(cwd, str) and cwd else None,
            ) as s:
                hosted.session = s
                task_status.started()
                await hosted.done.wait()
        finally:
            hosted.session = None
            self._all_hosted.discard(hosted)
