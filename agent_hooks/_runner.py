"""Run handler calls under deadlines, as cheaply as the event loop allows.

A session hands every foreground handler call to a :class:`Runner`:

``await runner.one(fn, arg, timeout)``
    Awaits ``fn(arg)`` in the calling task. Returns its result, or ``None`` when
    ``timeout`` seconds passed first (``fn`` was cancelled and has finished).
    Exceptions raised by ``fn`` propagate. Cancelling the caller cancels ``fn``
    and propagates once ``fn`` has finished.

``await runner.many(jobs)``
    Starts every ``(fn, arg, timeout)`` of ``jobs`` together and returns their
    results in job order, ``None`` for each job that timed out. Each ``fn`` must
    turn its own ``Exception`` into a result; anything else one of them raises
    (``KeyboardInterrupt``, ...) propagates once every job has finished.
    Cancelling the caller cancels every job and propagates once all have finished.

Two implementations share that contract:

:class:`AnyioRunner`
    Cancel scopes and a task group: any backend, any Python. Parallel jobs with
    one deadline share one scope.
:class:`AsyncioRunner`
    Python >= 3.11 on asyncio. An anyio cancel scope costs about as much as a
    whole hand-written dispatch (5-7 µs), so deadlines here are timer handles
    that cancel the task the way ``asyncio.timeout`` does (``Task.cancel`` now,
    ``Task.uncancel`` when the job is done, so the caller's own cancellations are
    never swallowed), and parallel jobs are plain tasks. One rule of anyio is
    kept: a job inside a *shielded* anyio cancel scope is not cancelled until it
    leaves the shield (the expiry waits and tries again), so clean-up a handler
    shields still runs to the end. That check reads anyio's per-task scope
    record; :func:`runner_for_current_loop` picks :class:`AnyioRunner` when the
    installed anyio does not have it.

The runner is chosen once per session (:func:`runner_for_current_loop`); the
dispatch loop does not know which one it has.
"""

from __future__ import annotations

import asyncio
import math
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, TypeVar

import anyio

__all__ = ["AnyioRunner", "AsyncioRunner", "Job", "Runner", "runner_for_current_loop"]

A = TypeVar("A")
R = TypeVar("R")

Job = tuple[Callable[[Any], Awaitable[Any]], Any, float]
"""``(fn, arg, timeout)``: await ``fn(arg)`` for at most ``timeout`` seconds."""

_RETRY_SHIELDED = 0.005
"""Seconds between attempts to expire a deadline while the job sits in a shielded scope."""


class Runner(Protocol):
    """How a session runs handler calls under their deadlines (see the module doc)."""

    async def one(self, fn: Callable[[A], Awaitable[R]], arg: A, timeout: float) -> R | None:
        """Await ``fn(arg)`` for at most ``timeout`` seconds; ``None`` when it timed out."""
        ...

    async def many(self, jobs: Sequence[Job]) -> list[Any]:
        """Run ``jobs`` together; results in order, ``None`` for those that timed out."""
        ...


class AnyioRunner:
    """Deadlines from anyio cancel scopes, parallel jobs in an anyio task group."""

    __slots__ = ()

    async def one(self, fn: Callable[[A], Awaitable[R]], arg: A, timeout: float) -> R | None:
        result: R | None = None
        with anyio.move_on_after(timeout):
            result = await fn(arg)
        return result

    async def many(self, jobs: Sequence[Job]) -> list[Any]:
        slots: list[Any] = [None] * len(jobs)
        # Jobs that start together with one deadline would time out together: one
        # cancel scope serves them all (a scope per job costs more than the rest).
        deadlines = {timeout for _, _, timeout in jobs}
        shared = len(deadlines) == 1

        async def run(i: int, fn: Callable[[Any], Awaitable[Any]], arg: Any, t: float) -> None:
            slots[i] = await fn(arg) if shared else await self.one(fn, arg, t)

        with anyio.move_on_after(deadlines.pop() if shared else math.inf):
            async with anyio.create_task_group() as tg:
                for i in range(1, len(jobs)):
                    tg.start_soon(run, i, *jobs[i])
                await run(0, *jobs[0])  # the first in this task: one task fewer to spawn
        return slots


class AsyncioRunner:
    """Deadlines from timer handles, parallel jobs as asyncio tasks (Python >= 3.11)."""

    __slots__ = ("_states",)

    def __init__(self, task_states: Any) -> None:
        self._states = task_states  # anyio's task -> TaskState record (cancel_scope chain)

    async def one(self, fn: Callable[[A], Awaitable[R]], arg: A, timeout: float) -> R | None:
        task = asyncio.current_task()
        assert task is not None
        expiry = self._expiry(task)
        loop = task.get_loop()
        expiry.handle = loop.call_at(loop.time() + timeout, expiry.fire)
        try:
            return await _guarded(fn, arg, expiry)
        finally:
            expiry.cancel()

    async def many(self, jobs: Sequence[Job]) -> list[Any]:
        timeout = jobs[0][2]
        if any(job[2] != timeout for job in jobs):
            return await self._many_deadlines(jobs)
        # One deadline for all: one timer, and the other jobs run bare in their tasks.
        host = asyncio.current_task()
        assert host is not None
        loop = host.get_loop()
        children = [loop.create_task(fn(arg)) for fn, arg, _ in jobs[1:]]
        group = _GroupExpiry(self._expiry(host), children, self._states)
        group.handle = loop.call_at(loop.time() + timeout, group.fire)
        try:
            first = await _guarded(jobs[0][0], jobs[0][1], group.host)
            group.host.cancel()  # the first job is done: the deadline is the children's now
            pending = [c for c in children if not c.done()]
            if pending:
                await _all_done(loop, pending)
        except BaseException:
            await self._abort(children)
            raise
        finally:
            group.cancel()
        return [first, *(None if c.cancelled() else c.result() for c in children)]

    async def _many_deadlines(self, jobs: Sequence[Job]) -> list[Any]:
        loop = asyncio.get_running_loop()
        one = self.one
        children = [loop.create_task(one(*job)) for job in jobs[1:]]
        try:
            first = await one(*jobs[0])  # the first in this task: one task fewer to spawn
            pending = [c for c in children if not c.done()]
            if pending:
                await _all_done(loop, pending)
        except BaseException:
            await self._abort(children)
            raise
        return [first, *(c.result() for c in children)]

    def _expiry(self, task: asyncio.Task[Any]) -> _Expiry:
        state = self._states.get(task)
        return _Expiry(task, state.cancel_scope if state is not None else None, self._states)

    async def _abort(self, children: list[asyncio.Task[Any]]) -> None:
        """Cancel the unfinished children (respecting their shields) and wait for all."""
        pending = [c for c in children if not c.done()]
        for child in pending:
            _Expiry(child, None, self._states).fire()
        if pending:
            with anyio.CancelScope(shield=True):
                await _all_done(asyncio.get_running_loop(), pending)
        for child in children:  # mark every outcome as seen; the caller's error wins
            if not child.cancelled():
                child.exception()


class _Expiry:
    """The timer callback of one deadline: cancels its task unless the task is shielded."""

    __slots__ = ("base", "done", "fired", "handle", "states", "task")

    def __init__(self, task: asyncio.Task[Any], base: Any, states: Any) -> None:
        self.task = task
        self.base = base  # the anyio scope that was innermost when the job started
        self.states = states
        self.fired = False
        self.done = False
        self.handle: asyncio.TimerHandle | asyncio.Handle | None = None


    def cancel(self) -> None:
        """Stand down: the job is over (its timer, or a pending retry, never fires)."""
        self.done = True
        if self.handle is not None:
            self.handle.cancel()

    def fire(self) -> None:
        if self.done or self.task.done():
            return
        if self._shielded():
            self.handle = self.task.get_loop().call_later(_RETRY_SHIELDED, self.fire)
            return
        self.fired = True
        self.task.cancel()

    def _shielded(self) -> bool:
        state = self.states.get(self.task)
        scope = state.cancel_scope if state is not None else None
        while scope is not None and scope is not self.base:
            if scope._shield:
                return True
            scope = scope._parent_scope
        return False


class _GroupExpiry:
    """The one timer of parallel jobs sharing a deadline: expires the first job (run by
    the host task, unless it is over) and every unfinished child task."""

    __slots__ = ("children", "handle", "host", "states")

    def __init__(self, host: _Expiry, children: list[asyncio.Task[Any]], states: Any) -> None:
        self.host = host
        self.children = children
        self.states = states
        self.handle: asyncio.TimerHandle | None = None

    def fire(self) -> None:
        self.handle = None
        for child in self.children:
            if not child.done():
                _Expiry(child, None, self.states).fire()
        self.host.fire()

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        self.host.cancel()


async def _guarded(fn: Callable[[A], Awaitable[R]], arg: A, expiry: _Expiry) -> R | None:
    """Await ``fn(arg)`` in ``expiry``'s task; ``None`` when ``expiry`` cancelled it."""
    task = expiry.task
    cancelling = task.cancelling()
    try:
        result = await fn(arg)
    except asyncio.CancelledError:
        if expiry.fired and task.uncancel() <= cancelling:
            return None
        raise
    if expiry.fired:  # the job swallowed the cancellation and answered anyway
        task.uncancel()
    return result


async def _all_done(loop: asyncio.AbstractEventLoop, tasks: list[asyncio.Task[Any]]) -> None:
    waiter = loop.create_future()
    left = len(tasks)

    def done(_: asyncio.Task[Any]) -> None:
        nonlocal left
        left -= 1
        if not left and not waiter.done():
            waiter.set_result(None)

    for t in tasks:
        t.add_done_callback(done)
    try:
        await waiter
    finally:
        for t in tasks:
            t.remove_done_callback(done)


def _anyio_task_states() -> Any:
    """anyio's record of each asyncio task's innermost cancel scope, if it looks as expected."""
    try:
        from anyio._backends import _asyncio as backend
    except ImportError:  # pragma: no cover - anyio always ships its asyncio backend
        return None
    states = getattr(backend, "_task_states", None)
    scope_slots = getattr(backend.CancelScope, "__slots__", ())
    state_slots = getattr(getattr(backend, "TaskState", None), "__slots__", ())
    if states is None or not {"_shield", "_parent_scope"} <= set(scope_slots):
        return None
    if "cancel_scope" not in state_slots:
        return None
    return states


_ANYIO = AnyioRunner()
_ASYNCIO: AsyncioRunner | None = None


def runner_for_current_loop() -> Runner:
    """The cheapest correct runner for the running event loop (call from inside it)."""
    global _ASYNCIO
    if sys.version_info < (3, 11):
        return _ANYIO
    try:
        asyncio.get_running_loop()
        if asyncio.current_task() is None:
            return _ANYIO
    except RuntimeError:  # not asyncio (trio)
        return _ANYIO
    if _ASYNCIO is None:
        states = _anyio_task_states()
        if states is None:
            return _ANYIO
        _ASYNCIO = AsyncioRunner(states)
    return _ASYNCIO
