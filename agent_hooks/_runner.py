"""Run handler calls under deadlines, as cheaply as the event loop allows.

A session hands every foreground handler call to a :class:`Runner`:

``with runner.deadline(seconds) as d: ...``
    A deadline for the calling task around a block. When it passes, the block
    is cancelled; the deadline catches its own cancellation and then
    ``d.cancelled_caught`` is true (call ``await runner.settle(d)`` before going
    on). Exceptions from the block propagate; so does a cancellation of the
    caller, once the block has finished.

``await runner.many(jobs, finish)``
    Starts every ``(fn, arg, timeout)`` of ``jobs`` together and returns their
    results in job order: ``finish(i, value)`` of what job ``i`` returned (or of
    :class:`Raised` with the ``Exception`` it raised), called as it ends, or of
    :data:`TIMED_OUT` once all have ended. Anything else a job raises (``KeyboardInterrupt``, ...)
    cancels the others and propagates in a ``BaseExceptionGroup`` once every job
    has finished, as from a task group. Cancelling the caller cancels every job
    and propagates once all have finished.

Two implementations share that contract:

:class:`AnyioRunner`
    Cancel scopes and a task group: any backend, any Python (on trio, trio's own
    scopes). Parallel jobs with one deadline share one scope.
:class:`AsyncioRunner`
    Python >= 3.11 on asyncio. An anyio cancel scope costs about as much as a
    whole hand-written dispatch (5-7 µs), so deadlines here are entries in a set
    watched by one timer per session, which cancels a task whose deadline passed
    the way ``asyncio.timeout`` does (``Task.cancel`` now, ``Task.uncancel`` when
    the job is done, so the caller's own cancellations are never swallowed), and
    parallel jobs are plain tasks. The rules of a cancel scope are kept: a job
    past its deadline is cancelled again every few milliseconds until it ends
    (one that catches the cancellation and carries on is still bounded); a job
    inside a *shielded* anyio cancel scope is not cancelled until it leaves the
    shield, so clean-up a handler shields runs to the end; and a caller whose
    anyio scope is cancelled in the very loop iteration the deadline passed gets
    its cancellation, not a timeout. These read anyio's per-task scope record;
    :func:`runner_for_current_loop` picks :class:`AnyioRunner` when the
    installed anyio does not have it.

The runner is chosen once per session (:func:`runner_for_current_loop`); the
dispatch loop does not know which one it has.
"""

from __future__ import annotations

import asyncio
import functools
import math
import sys
import time
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Protocol

import anyio

__all__ = [
    "TIMED_OUT",
    "AnyioRunner",
    "Raised",
    "AsyncioRunner",
    "Deadline",
    "Finish",
    "Job",
    "Runner",
    "runner_for_current_loop",
]


Job = tuple[Callable[[Any], Awaitable[Any]], Any, float]
"""``(fn, arg, timeout)``: await ``fn(arg)`` for at most ``timeout`` seconds."""

Finish = Callable[[int, Any], Any]
"""``finish(i, value)``: the result of job ``i``, from what it returned or
:class:`Raised` with the ``Exception`` it raised (called as the job ends)."""


def _as_is(i: int, value: Any) -> Any:
    return value


_TASK_NAME = "agent_hooks handler"
"""The name of the task a parallel handler runs in."""

_RETRY = 0.005
"""Seconds between two cancels of a job past its deadline (one that sits in a shielded
scope, or caught the cancellation and carries on)."""


class Deadline(Protocol):
    """A deadline around a block, as ``with deadline:``; entered once, in the task that
    runs the block. ``cancelled_caught`` tells afterwards that it expired and caught
    the cancellation it sent (anyio's and trio's cancel scopes are deadlines)."""

    @property
    def cancelled_caught(self) -> bool: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, et: Any, exc: Any, tb: Any) -> bool | None: ...


class Runner(Protocol):
    """How a session runs handler calls under their deadlines (see the module doc)."""

    def deadline(self, seconds: float) -> Deadline:
        """A deadline ``seconds`` from now for the calling task (enter it at once)."""
        ...

    async def settle(self, deadline: Deadline) -> None:
        """Call once a deadline caught its cancellation, before going on: the caller's
        own cancellation, if it came in the same loop iteration, is delivered here."""
        ...

    async def many(
        self, jobs: Sequence[Job], finish: Finish | None = None, *, alike: bool = False
    ) -> list[Any]:
        """Run ``jobs`` together; their results in job order (``alike``: the caller
        knows every job has the same timeout). As each job ends in time,
        ``finish(i, value)`` turns what it returned (or :class:`Raised` with the
        ``Exception`` it raised) into its result; once all have ended, it does the
        same with :data:`TIMED_OUT` for each that timed out. What ``finish`` raises
        for a job that ended in time fails the run as a job's ``BaseException`` does;
        for one that timed out, it propagates as it is."""
        ...

    def close(self) -> None:
        """The session is closing: drop its timer, unless a call of it still runs
        (another task's), which keeps the timer that bounds it."""
        ...


class Raised:
    """What :meth:`Runner.many` hands ``finish`` for a job that raised an ``Exception``
    (a box: a job may also return an exception object as its value)."""

    __slots__ = ("exc",)

    def __init__(self, exc: Exception) -> None:
        self.exc = exc


class _TimedOut:
    def __repr__(self) -> str:
        return "TIMED_OUT"


TIMED_OUT: Any = _TimedOut()
"""What :meth:`Runner.many` gives for a job that ran past its deadline."""


async def _timed(runner: Runner, job: Job) -> Any:
    """A job under its own deadline: what it returned, else :data:`TIMED_OUT`."""
    fn, arg, seconds = job
    deadline = runner.deadline(seconds)
    with deadline:
        return await fn(arg)
    await runner.settle(deadline)
    return TIMED_OUT


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

    def deadline(self, seconds: float) -> Deadline:
        scope: Deadline = self._move_on_after(max(0.0, seconds))  # (trio refuses a negative delay)
        return scope

    async def settle(self, deadline: Deadline) -> None:
        pass  # a cancel scope delivers its caller's cancellation itself

    async def many(
        self, jobs: Sequence[Job], finish: Finish | None = None, *, alike: bool = False
    ) -> list[Any]:
        slots: list[Any] = [TIMED_OUT] * len(jobs)
        done = finish or _as_is
        # Jobs that start together with one deadline would time out together: one
        # cancel scope serves them all (a scope per job costs more than the rest).
        deadlines = {timeout for _, _, timeout in jobs}
        shared = len(deadlines) == 1

        async def run(i: int, job: Job) -> None:
            value: Any
            try:
                value = await job[0](job[1]) if shared else await _timed(self, job)
            except Exception as exc:
                value = Raised(exc)
            if value is not TIMED_OUT:
                slots[i] = done(i, value)

        with self._move_on_after(max(0.0, deadlines.pop()) if shared else math.inf):
            async with self._task_group() as tg:
                for i in range(1, len(jobs)):
                    tg.start_soon(run, i, jobs[i])
                await run(0, jobs[0])  # the first in this task: one task fewer to spawn
        _finish_timed_out(slots, done)  # (those a shared deadline cut short)
        return slots

    def close(self) -> None:
        pass


class AsyncioRunner:
    """Deadlines from one timer per session, parallel jobs as asyncio tasks (Python >= 3.11).

    Every running deadline is in :attr:`_active`; one timer handle is armed at the
    earliest of them, and only moved when a new deadline comes before it. A call that
    ends in time leaves the set and nothing else (a timer handle per call, made and
    cancelled, would cost more than the rest of the deadline). When the timer fires,
    the deadlines that passed expire and it is armed at the next one.
    """

    __slots__ = (
        "_active",
        "_armed",
        "_create_task",
        "_current_task",
        "_handle",
        "_last_state",
        "_last_task",
        "_loop",
        "_new_task",
        "_state_of",
        "_states",
        "_time",
    )

    def __init__(self, task_states: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._states = task_states  # anyio's task -> TaskState record (cancel_scope chain)
        self._state_of = task_states.data.get  # (a WeakKeyDictionary's dict: no method frame)
        self._loop = loop
        self._last_task: Any = None
        self._last_state: Any = None
        self._current_task = _current_task_reader(loop)
        self._create_task: Callable[[Coroutine[Any, Any, None]], asyncio.Task[None]] = (
            functools.partial(loop.create_task, name=_TASK_NAME)
        )
        # (a loop class of its own may make tasks its own way: it is left to do so)
        self._new_task = (
            functools.partial(asyncio.Task, loop=loop, name=_TASK_NAME)
            if type(loop).create_task is asyncio.BaseEventLoop.create_task
            else self._create_task
        )
        # The loop's clock; asyncio's own is time.monotonic behind a method frame.
        self._time: Callable[[], float] = (
            time.monotonic if type(loop).time is asyncio.BaseEventLoop.time else loop.time
        )
        self._active: set[_Timed] = set()
        self._armed = math.inf
        self._handle: asyncio.TimerHandle | None = None

    def deadline(self, seconds: float) -> Deadline:
        task: Any = self._current_task(self._loop)  # (cancelling, uncancel: Python >= 3.11)
        # anyio keeps one state record per task for the task's life: the last one found
        # is kept with its task (until the session closes) to spare the weak lookup.
        if task is self._last_task:
            state = self._last_state
        else:
            state = self._state_of(weakref.ref(task))
            if state is not None:
                self._last_task, self._last_state = task, state
        base = state.cancel_scope if state is not None else None
        return _Deadline(self, task, base, self._time() + seconds)

    async def settle(self, deadline: Deadline) -> None:
        if getattr(deadline, "caller_cancelled", False):
            # The caller's anyio scope was cancelled in the same loop iteration: anyio
            # found the task's wake-up taken and delivers again; take it here, in
            # anyio's own form, rather than report a timeout.
            await asyncio.sleep(0)

    def _watch(self, timed: _Timed) -> None:
        self._active.add(timed)
        if timed.when < self._armed:
            self._arm(timed.when)

    def _arm(self, when: float) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._armed = when
        self._handle = self._loop.call_at(when, self._fire)

    def _fire(self) -> None:
        # (asyncio runs a timer up to a clock tick early: what it was armed for has passed)
        now = max(self._loop.time(), self._armed)
        self._handle = None
        self._armed = math.inf
        upcoming = math.inf
        for timed in [t for t in self._active if t.when <= now]:
            self._active.discard(timed)
            timed.expire()
        for timed in self._active:
            upcoming = min(upcoming, timed.when)
        if upcoming < math.inf:
            self._armed = upcoming
            self._handle = self._loop.call_at(upcoming, self._fire)

    def close(self) -> None:
        self._last_task = self._last_state = None
        # A call still running in another task keeps the timer that bounds it.
        if not self._active and self._handle is not None:
            self._handle.cancel()
            self._handle = None
            self._armed = math.inf

    async def many(
        self, jobs: Sequence[Job], finish: Finish | None = None, *, alike: bool = False
    ) -> list[Any]:
        # Every job gets a task (the caller only waits), so that cancelling the caller
        # reaches all of them at once, as it would in a task group.
        loop = self._loop
        timeout = jobs[0][2]
        gather = _Gather(loop, len(jobs), finish or _as_is)
        child = _child
        # (asyncio's Task itself when the loop has no task factory: create_task's frame
        # and a generated task name nearly double what a job's task costs)
        spawn = self._new_task if loop.get_task_factory() is None else self._create_task
        group: _GroupDeadline | None = None
        if alike or all(job[2] == timeout for job in jobs):
            # One deadline for all: one entry, and the jobs run bare in their tasks.
            children = [spawn(child(gather, i, fn, arg)) for i, (fn, arg, _) in enumerate(jobs)]
            group = _GroupDeadline(children, self._states, self._time() + timeout)
            self._watch(group)
        if group is None:
            timed = functools.partial(_timed, self)
            children = [spawn(child(gather, i, timed, job)) for i, job in enumerate(jobs)]
        try:
            await gather.waiter
            if gather.failed:
                # As a task group does: the others are cancelled, the errors raised together.
                await self._abort(children)
        except BaseException:
            await self._abort(children)
            raise
        finally:
            if group is not None:
                self._active.discard(group)
                if group.expiries:
                    group.stand_down()
        if gather.failed:
            raise _base_exception_group()("a hook raised", gather.failed)
        if gather.finished < len(jobs):
            _finish_timed_out(gather.results, gather.finish)
        return gather.results

    async def _abort(self, children: list[asyncio.Task[Any]]) -> None:
        """Cancel the unfinished children (respecting their shields) and wait for all."""
        pending = [c for c in children if not c.done()]
        for child in pending:
            _Expiry(child, None, self._states).fire()
        loop = self._loop
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


class _Timed(Protocol):
    """What the runner's timer watches: a point in time, and what passing it does."""

    when: float

    def expire(self) -> None: ...


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


class _Deadline:
    """One call's deadline on an :class:`AsyncioRunner` (``with`` it around the call; it
    runs from when it is made).

    Leaving it in time costs a set removal. If it expired, it stands its cancels down
    (``Task.uncancel``), and catches the cancellation when it was its own, as
    ``asyncio.timeout`` does, so the caller's own cancellations are never swallowed.
    """

    __slots__ = ("base", "cancelled_caught", "cancelling", "expiry", "runner", "task", "when")

    def __init__(self, runner: AsyncioRunner, task: Any, base: Any, when: float) -> None:
        self.runner = runner
        self.task = task
        self.base = base
        self.when = when
        self.expiry: _Expiry | None = None
        self.cancelled_caught = False
        """Whether it expired and caught its own cancellation (the call timed out)."""
        self.cancelling = task.cancelling()
        runner._watch(self)

    @property
    def caller_cancelled(self) -> bool:
        """Whether the caller's own scope was cancelled as the deadline caught its own."""
        return self.cancelled_caught and self.expiry is not None and self.expiry.caller_cancelled()

    def __enter__(self) -> _Deadline:
        return self

    def __exit__(self, et: Any, exc: Any, tb: Any) -> bool:
        expiry = self.expiry
        if expiry is None:  # in time (the common case)
            self.runner._active.discard(self)
            return False
        if not expiry.stand_down():
            return False  # it expired in a shield and the job ended before leaving it
        if (
            et is not None
            and issubclass(et, asyncio.CancelledError)
            and self.task.cancelling() <= self.cancelling
        ):
            self.cancelled_caught = True
            return True
        return False

    def expire(self) -> None:
        self.expiry = _Expiry(self.task, self.base, self.runner._states)
        self.expiry.fire()


class _GroupDeadline:
    """The one deadline of parallel jobs that share it: expires every unfinished one."""

    __slots__ = ("children", "expiries", "states", "when")

    def __init__(self, children: list[asyncio.Task[Any]], states: Any, when: float) -> None:
        self.children = children
        self.states = states
        self.when = when
        self.expiries: list[_Expiry] = []

    def expire(self) -> None:
        for child in self.children:
            if not child.done():
                expiry = _Expiry(child, None, self.states)
                self.expiries.append(expiry)
                expiry.fire()

    def stand_down(self) -> None:
        for expiry in self.expiries:
            expiry.stand_down()


def _finish_timed_out(results: list[Any], finish: Finish) -> None:
    for i, result in enumerate(results):
        if result is TIMED_OUT:
            results[i] = finish(i, TIMED_OUT)


class _Gather:
    """The results of parallel jobs as they come in, and the future their caller waits
    on: done when every job has ended, or at once when one raised something that is
    neither an ``Exception`` nor a cancellation."""

    __slots__ = ("failed", "finish", "finished", "left", "results", "waiter")

    def __init__(self, loop: asyncio.AbstractEventLoop, n: int, finish: Finish) -> None:
        self.results: list[Any] = [TIMED_OUT] * n
        self.finish = finish
        self.failed: list[BaseException] = []
        self.left = n
        self.finished = 0  # jobs that ended in time
        self.waiter: asyncio.Future[None] = loop.create_future()


async def _child(gather: _Gather, i: int, fn: Callable[[Any], Awaitable[Any]], arg: Any) -> None:
    """One parallel job in its task: its result goes to ``gather``."""
    value: Any
    try:
        try:
            value = await fn(arg)
        except Exception as exc:
            value = Raised(exc)
        if value is not TIMED_OUT:
            gather.results[i] = gather.finish(i, value)
            gather.finished += 1
    except asyncio.CancelledError:
        raise
    except BaseException as exc:  # (the job's, or what finish raised)
        gather.failed.append(exc)
        raise
    finally:
        gather.left -= 1
        if (not gather.left or gather.failed) and not gather.waiter.done():
            gather.waiter.set_result(None)


def _current_task_reader(loop: asyncio.AbstractEventLoop) -> Callable[[Any], Any]:
    """``asyncio.current_task(loop)``, or the read of asyncio's own loop -> task table it
    does (on Python 3.11, ``current_task`` first asks for the running loop, which costs
    as much as a third of a deadline). Call it from a task: the table is used only if
    it names that task."""
    table = getattr(asyncio.tasks, "_current_tasks", None)
    if type(table) is dict and table.get(loop) is asyncio.current_task():
        reader: Callable[[Any], Any] = table.get
        return reader
    return asyncio.current_task


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
    if "cancel_scope" not in state_slots or not isinstance(getattr(states, "data", None), dict):
        return None
    return states


_ANYIO = AnyioRunner()
_TRIO: AnyioRunner | None = None
_STATES: Any = False  # anyio's task states once looked up (None: not as expected)


def runner_for_current_loop() -> Runner:
    """The cheapest correct runner for the running event loop (call from inside it).

    An :class:`AsyncioRunner` is made per call (it keeps the timer of its session);
    the cancel-scope runners hold nothing and are shared.
    """
    global _TRIO, _STATES
    try:
        loop = asyncio.get_running_loop()
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
    if _STATES is False:
        _STATES = _anyio_task_states()
    if _STATES is None:
        return _ANYIO
    return AsyncioRunner(_STATES, loop)
