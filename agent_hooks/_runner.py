"""Run handler calls under deadlines, as cheaply as the event loop allows.

A session hands every foreground handler call to a :class:`Runner`:

``await runner.one(fn, arg, seconds)``
    Awaits ``fn(arg)`` in the calling task. Returns its result, or ``None`` when
    ``seconds`` passed first (``fn`` was cancelled and has finished).
    Exceptions raised by ``fn`` propagate. Cancelling the caller cancels ``fn``
    and propagates once ``fn`` has finished.

``await runner.many(jobs)``
    Starts every ``(fn, arg, timeout)`` of ``jobs`` together and returns their
    results in job order, ``None`` for each job that timed out. Each ``fn`` must
    turn its own ``Exception`` into a result; anything else one of them raises
    (``KeyboardInterrupt``, ...) cancels the others and propagates in a
    ``BaseExceptionGroup`` once every job has finished, as from a task group.
    Cancelling the caller cancels every job and propagates once all have finished.

Two implementations share that contract:

:class:`AnyioRunner`
    Cancel scopes and a task group: any backend, any Python (on trio, trio's own
    scopes). Parallel jobs with one deadline share one scope.
:class:`AsyncioRunner`
    Python >= 3.11 on asyncio. An anyio cancel scope costs about as much as a
    whole hand-written dispatch (5-7 µs), so deadlines here are timer handles
    that cancel the task the way ``asyncio.timeout`` does (``Task.cancel`` now,
    ``Task.uncancel`` when the job is done, so the caller's own cancellations are
    never swallowed), and parallel jobs are plain tasks. The rules of a cancel
    scope are kept: a job past its deadline is cancelled again every few
    milliseconds until it ends (one that catches the cancellation and carries on
    is still bounded); a job inside a *shielded* anyio cancel scope is not
    cancelled until it leaves the shield, so clean-up a handler shields runs to
    the end; and a caller whose anyio scope is cancelled in the very loop
    iteration the deadline passed gets its cancellation, not a timeout. These
    read anyio's per-task scope record; :func:`runner_for_current_loop` picks
    :class:`AnyioRunner` when the installed anyio does not have it.

The runner is chosen once per session (:func:`runner_for_current_loop`); the
dispatch loop does not know which one it has.
"""

from __future__ import annotations

import asyncio
import functools
import math
import sys
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Protocol, TypeVar, cast

import anyio

__all__ = ["AnyioRunner", "AsyncioRunner", "Job", "Runner", "runner_for_current_loop"]

A = TypeVar("A")
R = TypeVar("R")

Job = tuple[Callable[[Any], Awaitable[Any]], Any, float]
"""``(fn, arg, timeout)``: await ``fn(arg)`` for at most ``timeout`` seconds."""

_RETRY = 0.005
"""Seconds between two cancels of a job past its deadline (one that sits in a shielded
scope, or caught the cancellation and carries on)."""


class Runner(Protocol):
    """How a session runs handler calls under their deadlines (see the module doc)."""

    async def one(self, fn: Callable[[A], Awaitable[R]], arg: A, seconds: float) -> R | None:
        """Await ``fn(arg)`` for at most ``seconds``; ``None`` when it timed out."""
        ...

    async def many(self, jobs: Sequence[Job]) -> list[Any]:
        """Run ``jobs`` together; results in order, ``None`` for those that timed out."""
        ...


class AnyioRunner:
    """Deadlines from cancel scopes, parallel jobs in an anyio task group.

    The scopes are anyio's (any backend) or, on trio, trio's own ``move_on_after``:
    the same semantics at half the cost.
    """

    __slots__ = ("_move_on_after", "_task_group")

    def __init__(
        self,
        move_on_after: Callable[[float], Any] = anyio.move_on_after,
        task_group: Callable[[], Any] = anyio.create_task_group,
    ) -> None:
        self._move_on_after = move_on_after
        self._task_group = task_group

    async def one(self, fn: Callable[[A], Awaitable[R]], arg: A, seconds: float) -> R | None:
        result: R | None = None
        with self._move_on_after(max(0.0, seconds)):  # (trio refuses a negative delay)
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

        with self._move_on_after(max(0.0, deadlines.pop()) if shared else math.inf):
            async with self._task_group() as tg:
                for i in range(1, len(jobs)):
                    tg.start_soon(run, i, *jobs[i])
                await run(0, *jobs[0])  # the first in this task: one task fewer to spawn
        return slots


class AsyncioRunner:
    """Deadlines from timer handles, parallel jobs as asyncio tasks (Python >= 3.11)."""

    __slots__ = ("_states",)

    def __init__(self, task_states: Any) -> None:
        self._states = task_states  # anyio's task -> TaskState record (cancel_scope chain)

    async def one(self, fn: Callable[[A], Awaitable[R]], arg: A, seconds: float) -> R | None:
        task: Any = asyncio.current_task()  # (Task.cancelling and uncancel: Python >= 3.11)
        state = self._states.get(task)
        expiry = _Expiry(task, state.cancel_scope if state is not None else None, self._states)
        loop = task.get_loop()
        expiry.handle = loop.call_at(loop.time() + seconds, expiry.fire)
        cancelling = task.cancelling()
        try:
            result = await fn(arg)
        except asyncio.CancelledError:
            if expiry.stand_down() and task.cancelling() <= cancelling:
                if expiry.caller_cancelled():
                    # The caller's anyio scope was cancelled in the same loop iteration:
                    # anyio found the task's wake-up taken and delivers again; take it
                    # here, in anyio's own form, rather than report a timeout.
                    await asyncio.sleep(0)
                return None
            raise
        finally:
            expiry.stand_down()
        return result

    async def many(self, jobs: Sequence[Job]) -> list[Any]:
        # Every job gets a task (the caller only waits), so that cancelling the caller
        # reaches all of them at once, as it would in a task group.
        loop = asyncio.get_running_loop()
        timeout = jobs[0][2]
        group: _GroupExpiry | None = None
        if all(job[2] == timeout for job in jobs):
            # One deadline for all: one timer, and the jobs run bare in their tasks.
            children: list[asyncio.Task[Any]] = [
                loop.create_task(cast(Coroutine[Any, Any, Any], fn(arg))) for fn, arg, _ in jobs
            ]
            group = _GroupExpiry(children, self._states)
            group.handle = loop.call_at(loop.time() + timeout, group.fire)
        else:
            children = [loop.create_task(self.one(*job)) for job in jobs]
        try:
            await _all_done(loop, children)
            failed = [c.exception() for c in children if _failed(c)]
            if failed:
                # As a task group does: the others are cancelled, the errors raised together.
                await self._abort(children)
                raise _base_exception_group()("a hook raised", failed)
        except BaseException:
            await self._abort(children)
            raise
        finally:
            if group is not None:
                group.stand_down()
        return [None if c.cancelled() else c.result() for c in children]

    async def _abort(self, children: list[asyncio.Task[Any]]) -> None:
        """Cancel the unfinished children (respecting their shields) and wait for all."""
        pending = [c for c in children if not c.done()]
        for child in pending:
            _Expiry(child, None, self._states).fire()
        loop = asyncio.get_running_loop()
        while pending:
            try:
                with anyio.CancelScope(shield=True):  # (anyio holds its cancels back)
                    await _all_done(loop, pending)
            except asyncio.CancelledError:
                pass  # a native cancel of the caller: the error already on its way stands
            pending = [c for c in pending if not c.done()]
        for child in children:  # mark every outcome as seen; the caller's error wins
            if not child.cancelled():
                child.exception()


class _Expiry:
    """A passed deadline, as a cancel scope would have it: the task is cancelled at every
    chance (now and every few milliseconds while the job goes on) except while it sits
    in a shielded anyio scope it entered during the job."""

    __slots__ = ("base", "cancels", "done", "handle", "states", "task")

    def __init__(self, task: asyncio.Task[Any], base: Any, states: Any) -> None:
        self.task: Any = task
        self.base = base  # the anyio scope that was innermost when the job started
        self.states = states
        self.cancels = 0
        self.done = False
        self.handle: asyncio.TimerHandle | None = None

    def fire(self) -> None:
        if self.done or self.task.done():
            return
        if not self._shielded():
            self.cancels += 1
            self.task.cancel()
        self.handle = self.task.get_loop().call_later(_RETRY, self.fire)

    def stand_down(self) -> bool:
        """The job is over: no more cancels, and the ones made are withdrawn from the
        task's count. Returns whether the deadline had cancelled the task."""
        self.done = True
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        fired = self.cancels > 0
        while self.cancels:
            self.task.uncancel()
            self.cancels -= 1
        return fired

    def caller_cancelled(self) -> bool:
        """Whether an anyio scope around the job (up to the nearest shield) is cancelled."""
        scope = self.base
        while scope is not None:
            if scope._cancel_called:
                return True
            if scope._shield:
                return False
            scope = scope._parent_scope
        return False

    def _shielded(self) -> bool:
        state = self.states.get(self.task)
        scope = state.cancel_scope if state is not None else None
        while scope is not None and scope is not self.base:
            if scope._shield:
                return True
            scope = scope._parent_scope
        return False


class _GroupExpiry:
    """The one timer of parallel jobs sharing a deadline: expires every unfinished one."""

    __slots__ = ("children", "expiries", "handle", "states")

    def __init__(self, children: list[asyncio.Task[Any]], states: Any) -> None:
        self.children = children
        self.states = states
        self.expiries: list[_Expiry] = []
        self.handle: asyncio.TimerHandle | None = None

    def fire(self) -> None:
        self.handle = None
        for child in self.children:
            if not child.done():
                expiry = _Expiry(child, None, self.states)
                self.expiries.append(expiry)
                expiry.fire()

    def stand_down(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        for expiry in self.expiries:
            expiry.stand_down()


def _failed(task: asyncio.Task[Any]) -> bool:
    return task.done() and not task.cancelled() and task.exception() is not None


async def _all_done(loop: asyncio.AbstractEventLoop, tasks: list[asyncio.Task[Any]]) -> None:
    """Wait until every task is done, or one of them failed."""
    waiter = loop.create_future()
    left = len(tasks)

    def done(task: asyncio.Task[Any]) -> None:
        nonlocal left
        left -= 1
        if (not left or _failed(task)) and not waiter.done():
            waiter.set_result(None)

    for t in tasks:
        t.add_done_callback(done)
    try:
        await waiter
    finally:
        for t in tasks:
            t.remove_done_callback(done)


class _TrioGroup:
    """A trio nursery that, like anyio's task group on trio, raises a group made only of
    cancellations as one ``trio.Cancelled`` (the enclosing scope catches it as usual)."""

    __slots__ = ("_cancelled", "_group", "_manager")

    def __init__(self, trio: Any) -> None:
        self._manager = trio.open_nursery()
        self._cancelled = trio.Cancelled
        self._group: type[BaseException] = _base_exception_group()

    async def __aenter__(self) -> Any:
        return await self._manager.__aenter__()

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        try:
            result: bool | None = await self._manager.__aexit__(*exc_info)
            return result
        except self._group as exc:
            group: Any = exc
            cancelled, rest = group.split(self._cancelled)
            if rest is None and cancelled is not None:
                leaf = cancelled
                while isinstance(leaf, self._group):
                    leaf = leaf.exceptions[0]  # type: ignore[attr-defined]
                raise leaf from None
            raise


def _base_exception_group() -> type[BaseException]:
    """``BaseExceptionGroup`` (the ``exceptiongroup`` back-port before Python 3.11, which
    trio and anyio require there)."""
    import builtins

    found = getattr(builtins, "BaseExceptionGroup", None)
    if found is None:  # pragma: no cover - Python 3.10
        found = __import__("exceptiongroup").BaseExceptionGroup
    group: type[BaseException] = found
    return group


def _anyio_task_states() -> Any:
    """anyio's record of each asyncio task's innermost cancel scope, if it looks as expected."""
    try:
        from anyio._backends import _asyncio as backend
    except ImportError:  # pragma: no cover - anyio always ships its asyncio backend
        return None
    states = getattr(backend, "_task_states", None)
    scope_slots = getattr(backend.CancelScope, "__slots__", ())
    state_slots = getattr(getattr(backend, "TaskState", None), "__slots__", ())
    if states is None or not {"_shield", "_parent_scope", "_cancel_called"} <= set(scope_slots):
        return None
    if "cancel_scope" not in state_slots:
        return None
    return states


_ANYIO = AnyioRunner()
_ASYNCIO: AsyncioRunner | None = None
_TRIO: AnyioRunner | None = None


def runner_for_current_loop() -> Runner:
    """The cheapest correct runner for the running event loop (call from inside it)."""
    global _ASYNCIO, _TRIO
    try:
        asyncio.get_running_loop()
        on_asyncio = asyncio.current_task() is not None
    except RuntimeError:
        on_asyncio = False
    if not on_asyncio:
        if _TRIO is None and "trio" in sys.modules:
            trio = sys.modules["trio"]
            try:
                trio.lowlevel.current_task()
            except RuntimeError:  # neither asyncio nor trio: let anyio sort it out
                return _ANYIO
            # trio's own scopes and nurseries cost half of anyio's.
            _TRIO = AnyioRunner(trio.move_on_after, functools.partial(_TrioGroup, trio))
        return _TRIO if _TRIO is not None else _ANYIO
    if sys.version_info < (3, 11):
        return _ANYIO
    if _ASYNCIO is None:
        states = _anyio_task_states()
        if states is None:
            return _ANYIO
        _ASYNCIO = AsyncioRunner(states)
    return _ASYNCIO
