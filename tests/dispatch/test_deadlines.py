"""What a handler's deadline and the caller's cancellation do, on asyncio and trio.

Every foreground handler runs under a cancel scope of its own (its timeout plus its
node's clean-up slack): a handler that hangs times out alone, in a parallel group as
well as by itself, shielded clean-up runs to its end, and the caller is never left
cancelled. Cancelling the caller cancels every handler first and then propagates, even
when it lands together with a deadline. An exception that is not an ``Exception``
propagates (from a parallel group in a ``BaseExceptionGroup``, as from a task group),
and a handler's own cancel scopes cancel only itself.

Concurrency is ordered with ``anyio.Event``s. Sleeps only stand for slow work or a hang
that a deadline has to cut; ``time.sleep`` stalls the loop on purpose in the tests
where two deadlines must expire in the same loop iteration.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agent_hooks import (
    CallbackHook,
    DiagnosticCode,
    HookMatcher,
    HookRegistry,
    Outcome,
    PreToolUseInput,
    PreToolUseOutput,
)

pytestmark = pytest.mark.anyio

SHORT = 0.02  # a handler timeout that is quickly over
LONG = 60.0  # a handler timeout that never expires during a test
LIMIT = 5.0  # generous bound: a deadlock or a missed timeout fails instead of hanging
STUCK = 0.3  # a tighter bound where a deadline that is not re-applied would hang the callback

if sys.version_info >= (3, 11):
    from builtins import BaseExceptionGroup
else:  # anyio depends on the backport there
    from exceptiongroup import BaseExceptionGroup


class Boom(BaseException):
    """Not an Exception and not a cancellation: a handler must not turn it into a result."""


def bash(command: str = "ls") -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": command}, tool_use_id="t")


def registry(*hooks: Any, timeout: float = SHORT, **options: Any) -> HookRegistry:
    """One ``Bash`` group holding ``hooks`` with ``timeout``, and a ``Read`` group that
    answers at once (a further dispatch that must still work)."""

    async def reader(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(additional_context="read ok")

    return HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Bash", hooks=list(hooks), timeout=timeout),
                HookMatcher(matcher="Read", hooks=[reader]),
            ]
        },
        **options,
    )


def answer(text: str, timeout: float | None = None) -> Any:
    """A callback answering ``text`` at once (``timeout``: its own, else the group's)."""

    async def hook(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(additional_context=text)

    return CallbackHook(callback=hook, name=text, timeout=timeout)


def current_asyncio_task(backend: str) -> asyncio.Task[Any] | None:
    return asyncio.current_task() if backend == "asyncio" else None


async def assert_caller_not_cancelled(backend: str, session: Any) -> None:
    """The dispatching task carries no cancellation: no pending request, a checkpoint
    passes, and another dispatch works."""
    task = current_asyncio_task(backend)
    if task is not None and sys.version_info >= (3, 11):  # (Task.cancelling is 3.11+)
        assert task.cancelling() == 0
    with anyio.fail_after(LIMIT):
        await anyio.lowlevel.checkpoint()
        later = await session.dispatch(PreToolUseInput(tool_name="Read", tool_input={}))
    assert [r.outcome for r in later.results] == [Outcome.OK]
    assert later.output.additional_context == "read ok"
    if task is not None and sys.version_info >= (3, 11):
        assert task.cancelling() == 0


# ------------------------------------------------------------------ deadlines


@pytest.mark.parametrize("signature", ["typed", "sdk"])
async def test_a_hanging_callback_times_out_and_the_caller_is_not_left_cancelled(
    anyio_backend: str, signature: str
) -> None:
    never = anyio.Event()
    ended: list[str] = []

    async def typed(input: PreToolUseInput) -> PreToolUseOutput | None:
        try:
            await never.wait()
        finally:
            ended.append("typed")
        return None

    async def sdk(
        input_data: dict[str, Any], tool_use_id: str | None, context: Any
    ) -> dict[str, Any]:
        try:
            await never.wait()
        finally:
            ended.append("sdk")
        return {}

    hook = typed if signature == "typed" else sdk
    async with registry(CallbackHook(callback=hook, name="hangs")).session(
        session_id="s", cwd="/tmp"
    ) as session:
        for n in (1, 2):  # a second timeout in the same task works the same
            before = time.perf_counter()
            with anyio.fail_after(LIMIT):
                decision = await session.dispatch(bash())
            elapsed = time.perf_counter() - before
            (result,) = decision.results
            assert result.outcome is Outcome.TIMEOUT
            # The timeout was waited for; the handler's duration is counted from its own
            # start, which comes after the deadline was set (by how much depends on load).
            assert elapsed >= SHORT
            assert 0 < result.duration <= elapsed
            assert [d.code for d in decision.diagnostics if d.code is DiagnosticCode.TIMEOUT] == [
                DiagnosticCode.TIMEOUT
            ]
            assert decision.blocked  # a Python callback timing out fails PreToolUse closed
            assert ended == [signature] * n  # cancelled and finished, not left running
            await assert_caller_not_cancelled(anyio_backend, session)


@pytest.mark.parametrize("deadlines", ["shared", "own"])
@pytest.mark.parametrize("hanging", [0, 1, 2])
async def test_one_hanging_callback_of_a_parallel_group_times_out_alone(
    anyio_backend: str, hanging: int, deadlines: str
) -> None:
    """``shared``: the group's timeout for all three (one deadline); ``own``: the
    answering callbacks have a long timeout of their own (a deadline per handler)."""
    never = anyio.Event()
    names = ["h0", "h1", "h2"]

    async def hang(input: PreToolUseInput) -> PreToolUseOutput:
        await never.wait()
        return PreToolUseOutput(additional_context="never")

    hooks = [
        CallbackHook(callback=hang, name=name)
        if i == hanging
        else answer(name, timeout=LONG if deadlines == "own" else None)
        for i, name in enumerate(names)
    ]
    async with registry(*hooks).session(session_id="s", cwd="/tmp") as session:
        before = time.perf_counter()
        with anyio.fail_after(LIMIT):
            decision = await session.dispatch(bash())
        elapsed = time.perf_counter() - before
        assert [r.handler.name for r in decision.results] == names  # configuration order
        assert [r.outcome for r in decision.results] == [
            Outcome.TIMEOUT if i == hanging else Outcome.OK for i in range(3)
        ]
        answered = [n for i, n in enumerate(names) if i != hanging]
        assert decision.output.additional_context == "\n".join(answered)
        assert decision.blocked  # the timed-out Python callback fails closed
        # The timeout was waited for; the handler's duration is counted from its own start,
        # which comes after the group's deadline was set (by how much depends on the load).
        assert elapsed >= SHORT
        assert 0 < decision.results[hanging].duration <= elapsed
        await assert_caller_not_cancelled(anyio_backend, session)


async def test_a_callback_that_swallows_its_timeout_and_answers_is_ok(anyio_backend: str) -> None:
    never = anyio.Event()

    async def stubborn(input: PreToolUseInput) -> PreToolUseOutput:
        try:
            await never.wait()
        except anyio.get_cancelled_exc_class():
            pass
        return PreToolUseOutput(additional_context="answered anyway")

    async with registry(stubborn).session() as session:
        with anyio.fail_after(LIMIT):
            decision = await session.dispatch(bash())
        (result,) = decision.results
        assert result.outcome is Outcome.OK
        assert decision.output.additional_context == "answered anyway"
        await assert_caller_not_cancelled(anyio_backend, session)


# ---------------------------------------------------------- shielded clean-up

MODES = ["single", "parallel-first", "parallel-later", "parallel-own-deadlines"]


def arranged(mode: str, slow: Any) -> list[Any]:
    """``slow`` alone, first or second of a parallel pair whose handlers have the
    group's timeout, or in a pair whose other handler has a timeout of its own."""
    return {
        "single": [slow],
        "parallel-first": [slow, answer("quick")],
        "parallel-later": [answer("quick"), slow],
        "parallel-own-deadlines": [answer("quick", timeout=LONG), slow],
    }[mode]


@pytest.mark.parametrize("mode", MODES)
async def test_the_deadline_still_bounds_a_callback_that_catches_its_cancellation(
    anyio_backend: str, mode: str
) -> None:
    """A cancel scope cancels every checkpoint after its deadline: a callback that
    catches the first cancellation and waits on (unshielded) is cancelled again."""
    never, caught = anyio.Event(), anyio.Event()

    async def keeps_waiting(input: PreToolUseInput) -> None:
        try:
            await never.wait()
        except anyio.get_cancelled_exc_class():
            caught.set()
            await never.wait()  # unshielded: the expired deadline cancels this too
            raise

    slow = CallbackHook(callback=keeps_waiting, name="slow")
    async with registry(*arranged(mode, slow)).session() as session:
        with anyio.fail_after(STUCK):
            decision = await session.dispatch(bash())
        assert caught.is_set()
        outcomes = {r.handler.name: r.outcome for r in decision.results}
        assert outcomes["slow"] is Outcome.TIMEOUT
        if mode != "single":
            assert outcomes["quick"] is Outcome.OK
        await assert_caller_not_cancelled(anyio_backend, session)


@pytest.mark.parametrize("mode", MODES)
async def test_shielded_clean_up_after_a_timeout_runs_to_the_end(
    anyio_backend: str, mode: str
) -> None:
    never, cleaning, may_finish = anyio.Event(), anyio.Event(), anyio.Event()
    cleaned: list[bool] = []

    async def slow(input: PreToolUseInput) -> None:
        try:
            await never.wait()
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                cleaning.set()
                await may_finish.wait()  # set by the helper a few checkpoints later
                for _ in range(3):
                    await anyio.lowlevel.checkpoint()
                cleaned.append(True)
            raise

    async def helper() -> None:
        await cleaning.wait()
        for _ in range(5):
            await anyio.lowlevel.checkpoint()
        may_finish.set()

    async with registry(*arranged(mode, CallbackHook(callback=slow, name="slow"))).session() as s:
        async with anyio.create_task_group() as tg:
            tg.start_soon(helper)
            with anyio.fail_after(LIMIT):
                decision = await s.dispatch(bash())
        assert cleaned == [True]
        outcomes = {r.handler.name: r.outcome for r in decision.results}
        assert outcomes["slow"] is Outcome.TIMEOUT
        if mode != "single":
            assert outcomes["quick"] is Outcome.OK
            assert decision.output.additional_context == "quick"
        await assert_caller_not_cancelled(anyio_backend, s)


@pytest.mark.parametrize("mode", MODES)
async def test_a_deadline_expiring_inside_a_shield_waits_for_it_to_be_left(
    anyio_backend: str, mode: str
) -> None:
    never = anyio.Event()
    steps: list[str] = []

    async def slow(input: PreToolUseInput) -> None:
        try:
            with anyio.CancelScope(shield=True):
                await anyio.sleep(2 * SHORT)  # slow work that outlasts the deadline
                steps.append("shielded work done")
            await never.wait()  # the hang the deadline cuts once the shield is left
            steps.append("not cancelled")
        finally:
            steps.append("finally")

    async with registry(*arranged(mode, CallbackHook(callback=slow, name="slow"))).session() as s:
        with anyio.fail_after(LIMIT):
            decision = await s.dispatch(bash())
        assert steps == ["shielded work done", "finally"]
        slow_result = next(r for r in decision.results if r.handler.name == "slow")
        assert slow_result.outcome is Outcome.TIMEOUT
        assert 2 * SHORT * 0.9 <= slow_result.duration < LIMIT
        await assert_caller_not_cancelled(anyio_backend, s)


# ---------------------------------------------------------- the caller cancels


@pytest.mark.parametrize("mode", ["single", "parallel"])
async def test_cancelling_the_caller_cancels_the_callbacks_first(
    anyio_backend: str, mode: str
) -> None:
    never = anyio.Event()
    names = ["c0"] if mode == "single" else ["c0", "c1", "c2"]
    started: list[str] = []
    ended: list[str] = []
    tasks: list[Any] = []
    all_started = anyio.Event()

    def hanging(name: str) -> Any:
        async def hook(input: PreToolUseInput) -> None:
            tasks.append(current_asyncio_task(anyio_backend))
            started.append(name)
            if len(started) == len(names):
                all_started.set()
            try:
                await never.wait()
            finally:
                ended.append(name)

        return CallbackHook(callback=hook, name=name)

    ended_when_propagating: list[str] = []
    after_dispatch = False
    scope = anyio.CancelScope()

    async def run(session: Any) -> None:
        nonlocal after_dispatch
        with scope:
            try:
                await session.dispatch(bash())
            except anyio.get_cancelled_exc_class():
                ended_when_propagating.extend(ended)
                raise
            after_dispatch = True

    async with registry(*[hanging(n) for n in names], timeout=LONG).session() as session:
        async with anyio.create_task_group() as tg:
            tg.start_soon(run, session)
            with anyio.fail_after(LIMIT):
                await all_started.wait()
            scope.cancel()
        assert scope.cancelled_caught
        assert not after_dispatch
        assert sorted(ended_when_propagating) == names  # every callback finished first
        if anyio_backend == "asyncio":
            assert all(t is not None and t.done() for t in tasks)
        await assert_caller_not_cancelled(anyio_backend, session)


@pytest.mark.parametrize("shielded_at", [0, 1])
async def test_cancelling_the_caller_waits_for_a_parallel_callbacks_shielded_clean_up(
    anyio_backend: str, shielded_at: int
) -> None:
    never, release = anyio.Event(), anyio.Event()
    in_shield = anyio.Event()
    other_started = anyio.Event()
    steps: list[str] = []

    async def shielded(input: PreToolUseInput) -> None:
        try:
            with anyio.CancelScope(shield=True):
                in_shield.set()
                await release.wait()
                steps.append("shielded done")
            await never.wait()
            steps.append("shielded not cancelled")
        finally:
            steps.append("shielded finally")

    async def other(input: PreToolUseInput) -> None:
        other_started.set()
        await never.wait()

    hooks = [CallbackHook(callback=other, name="other")]
    hooks.insert(shielded_at, CallbackHook(callback=shielded, name="shielded"))
    propagated = anyio.Event()
    scope = anyio.CancelScope()

    async def run(session: Any) -> None:
        with scope:
            try:
                await session.dispatch(bash())
            finally:
                propagated.set()

    async with registry(*hooks, timeout=LONG).session() as session:
        async with anyio.create_task_group() as tg:
            tg.start_soon(run, session)
            with anyio.fail_after(LIMIT):
                await in_shield.wait()
                await other_started.wait()
            scope.cancel()
            for _ in range(10):
                await anyio.lowlevel.checkpoint()
            assert not propagated.is_set()  # the shielded clean-up is not abandoned
            release.set()
            with anyio.fail_after(LIMIT):
                await propagated.wait()
        assert scope.cancelled_caught
        assert steps == ["shielded done", "shielded finally"]
        await assert_caller_not_cancelled(anyio_backend, session)


async def test_cancelling_the_caller_cancels_the_siblings_of_a_shielded_first_callback(
    anyio_backend: str,
) -> None:
    """The caller's cancellation reaches every parallel callback at once, as in a task
    group: a shielded first callback does not hold it back from the others."""
    never, release = anyio.Event(), anyio.Event()
    in_shield, other_started, other_ended = anyio.Event(), anyio.Event(), anyio.Event()

    async def shielded(input: PreToolUseInput) -> None:
        with anyio.CancelScope(shield=True):
            in_shield.set()
            await release.wait()
        await never.wait()

    async def other(input: PreToolUseInput) -> None:
        other_started.set()
        try:
            await never.wait()
        finally:
            other_ended.set()

    scope = anyio.CancelScope()

    async def run(session: Any) -> None:
        with scope:
            await session.dispatch(bash())

    hooks = [CallbackHook(callback=shielded, name="first"), CallbackHook(callback=other)]
    async with registry(*hooks, timeout=LONG).session() as session:
        async with anyio.create_task_group() as tg:
            tg.start_soon(run, session)
            with anyio.fail_after(LIMIT):
                await in_shield.wait()
                await other_started.wait()
            scope.cancel()
            try:
                for _ in range(10):
                    await anyio.lowlevel.checkpoint()
                assert other_ended.is_set()  # cancelled at once, not when "first" is done
            finally:
                release.set()
        assert scope.cancelled_caught


# ------------------------------------- the caller's cancel meets an expired deadline


async def test_the_callers_cancel_landing_with_the_timeout_still_cancels_the_dispatch(
    anyio_backend: str,
) -> None:
    never = anyio.Event()
    scope = anyio.CancelScope()
    got_decision: list[Any] = []

    async def hook(input: PreToolUseInput) -> None:
        try:
            await never.wait()
        except anyio.get_cancelled_exc_class():
            scope.cancel()  # the caller is cancelled while the deadline's cancel unwinds
            raise

    async with registry(hook).session() as session:
        with anyio.fail_after(LIMIT):
            with scope:
                got_decision.append(await session.dispatch(bash()))
                await anyio.lowlevel.checkpoint()  # (the cancel lands here at the latest)
        assert scope.cancelled_caught
        assert got_decision == []  # the dispatch itself was cancelled
        await assert_caller_not_cancelled(anyio_backend, session)


@pytest.mark.parametrize("order", ["deadline-first", "caller-first"])
async def test_the_callers_cancel_in_the_deadlines_loop_iteration_is_not_lost(
    anyio_backend: str, order: str
) -> None:
    """The caller's scope expires 2 ms after (or before) the handler's deadline, and the
    handler stalls the loop past both, so that both expire in the same loop iteration:
    the dispatch is cancelled all the same, not answered with a timeout."""
    never = anyio.Event()
    got_decision: list[Any] = []

    async def hook(input: PreToolUseInput) -> None:
        time.sleep(SHORT + 0.03)  # noqa: ASYNC251 - the stall is the point
        await never.wait()

    offset = 0.002 if order == "deadline-first" else -0.002
    async with registry(hook).session() as session:
        with anyio.fail_after(LIMIT):
            # (the handler's deadline is SHORT after a moment just after this one)
            with anyio.CancelScope(deadline=anyio.current_time() + SHORT + offset) as scope:
                got_decision.append(await session.dispatch(bash()))
                await anyio.lowlevel.checkpoint()
        assert scope.cancelled_caught
        assert got_decision == []  # the dispatch itself was cancelled
        await assert_caller_not_cancelled(anyio_backend, session)


# -------------------------------------------------------- exceptions in groups


async def test_a_raising_callback_in_a_parallel_group_is_contained(anyio_backend: str) -> None:
    raised = anyio.Event()

    async def raises(input: PreToolUseInput) -> None:
        try:
            raise RuntimeError("kaput")
        finally:
            raised.set()

    def after_the_raise(text: str) -> Any:
        async def hook(input: PreToolUseInput) -> PreToolUseOutput:
            await raised.wait()  # still running after the sibling raised
            await anyio.lowlevel.checkpoint()
            return PreToolUseOutput(additional_context=text)

        return CallbackHook(callback=hook, name=text)

    hooks = [
        after_the_raise("a"),
        CallbackHook(callback=raises, name="raises"),
        after_the_raise("c"),
    ]
    async with registry(*hooks, timeout=LONG).session() as session:
        with anyio.fail_after(LIMIT):
            decision = await session.dispatch(bash())
        assert [r.outcome for r in decision.results] == [Outcome.OK, Outcome.ERROR, Outcome.OK]
        assert decision.results[1].reason == "RuntimeError: kaput"
        assert decision.output.additional_context == "a\nc"
        assert not decision.blocked
        await assert_caller_not_cancelled(anyio_backend, session)


@pytest.mark.parametrize("deadlines", ["shared", "own"])
@pytest.mark.parametrize("booming", [0, 1])
async def test_a_base_exception_from_a_parallel_callback_propagates_after_the_others(
    anyio_backend: str, booming: int, deadlines: str
) -> None:
    """Anything but an ``Exception`` cancels the others and propagates in a
    ``BaseExceptionGroup`` once every handler has finished, on every backend, as from
    a task group."""
    never = anyio.Event()
    started = anyio.Event()
    ended: list[str] = []

    async def boom(input: PreToolUseInput) -> None:
        await started.wait()
        raise Boom("not a handler failure")

    def waiter(name: str) -> Any:
        async def hook(input: PreToolUseInput) -> None:
            started.set()
            try:
                await never.wait()
            finally:
                ended.append(name)

        # (a long deadline: the others must be cancelled at once, not time out)
        return CallbackHook(callback=hook, name=name, timeout=LONG)

    hooks = [waiter("w0"), waiter("w1")]
    own = SHORT if deadlines == "own" else LONG
    hooks.insert(booming, CallbackHook(callback=boom, name="boom", timeout=own))
    caught: BaseException | None = None
    ended_when_raised: list[str] = []
    async with registry(*hooks).session() as session:
        with anyio.fail_after(LIMIT):
            try:
                await session.dispatch(bash())
            except BaseException as exc:  # whatever it is: inspect it below
                caught = exc
                ended_when_raised.extend(ended)
        assert sorted(ended_when_raised) == ["w0", "w1"]
        assert isinstance(caught, BaseExceptionGroup)
        assert [type(e) for e in caught.exceptions] == [Boom]
        await assert_caller_not_cancelled(anyio_backend, session)


async def test_a_base_exception_from_a_single_callback_propagates_as_it_is(
    anyio_backend: str,
) -> None:
    async def boom(input: PreToolUseInput) -> None:
        await anyio.lowlevel.checkpoint()
        raise Boom("single")

    async with registry(boom).session() as session:
        with pytest.raises(Boom, match="single"):
            await session.dispatch(bash())
        await assert_caller_not_cancelled(anyio_backend, session)


# -------------------------------------------------- a callback's own scopes


@pytest.mark.parametrize("mode", ["single", "parallel"])
async def test_a_callbacks_own_cancel_scopes_cancel_only_itself(
    anyio_backend: str, mode: str
) -> None:
    never = anyio.Event()

    async def moves_on(input: PreToolUseInput) -> PreToolUseOutput:
        with anyio.move_on_after(SHORT) as own:
            await never.wait()
        assert own.cancelled_caught
        await anyio.lowlevel.checkpoint()  # nothing cancelled is left behind
        return PreToolUseOutput(additional_context="moved on")

    async def fails(input: PreToolUseInput) -> PreToolUseOutput:
        with anyio.fail_after(SHORT):
            await never.wait()
        return PreToolUseOutput(additional_context="unreachable")

    hooks = [moves_on] if mode == "single" else [moves_on, fails, answer("plain")]
    async with registry(*hooks, timeout=LONG).session() as session:
        with anyio.fail_after(LIMIT):
            decision = await session.dispatch(bash())
        outcomes = [r.outcome for r in decision.results]
        if mode == "single":
            assert outcomes == [Outcome.OK]
            assert decision.output.additional_context == "moved on"
        else:
            assert outcomes == [Outcome.OK, Outcome.ERROR, Outcome.OK]
            assert decision.results[1].reason is not None
            assert decision.results[1].reason.startswith("TimeoutError")
            assert decision.output.additional_context == "moved on\nplain"
        await assert_caller_not_cancelled(anyio_backend, session)


@pytest.mark.parametrize("mode", MODES)
async def test_the_hook_deadline_survives_an_own_scope_expiring_in_the_same_iteration(
    anyio_backend: str, mode: str
) -> None:
    """The callback's own ``move_on_after`` and the hook's deadline expire in one loop
    iteration (the loop is stalled past both). The own scope catches its own
    cancellation; the hook's must still cut the hang that follows."""
    never = anyio.Event()
    steps: list[str] = []

    async def slow(input: PreToolUseInput) -> None:
        try:
            with anyio.move_on_after(SHORT / 2):
                time.sleep(SHORT + 0.03)  # noqa: ASYNC251 - stall past both deadlines
                await never.wait()
            steps.append("own scope left")
            await never.wait()
        finally:
            steps.append("finally")

    async with registry(*arranged(mode, CallbackHook(callback=slow, name="slow"))).session() as s:
        with anyio.fail_after(STUCK):
            decision = await s.dispatch(bash())
        slow_result = next(r for r in decision.results if r.handler.name == "slow")
        assert slow_result.outcome is Outcome.TIMEOUT
        assert steps[-1] == "finally"
        await assert_caller_not_cancelled(anyio_backend, s)
