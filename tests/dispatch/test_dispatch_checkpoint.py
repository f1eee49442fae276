"""Every dispatch passes a checkpoint, even when every handler is a plain function: a
cancelled caller meets its cancellation, other tasks run, and nothing piles up in the
event loop between dispatches."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import anyio
import pytest

from agent_hooks import (
    CommandHook,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
    SessionEndInput,
)

pytestmark = pytest.mark.anyio


def plain(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(additional_context="seen")


def registry(*hooks: Any) -> HookRegistry:
    return HookRegistry(
        {
            "PreToolUse": [HookMatcher(hooks=list(hooks) or [plain])],
            "SessionEnd": [HookMatcher(hooks=[lambda input: None])],
        }
    )


def bash(command: str = "ls") -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": command})


async def test_a_cancelled_caller_is_cancelled_at_the_next_dispatch() -> None:
    ran: list[int] = []
    async with registry().session() as session:
        with anyio.CancelScope() as scope:
            scope.cancel()
            ran.append(1)
            await session.dispatch(bash())
            ran.append(2)  # never reached: the dispatch is a checkpoint
        assert scope.cancelled_caught
        assert ran == [1]


async def test_session_end_still_runs_for_a_cancelled_caller() -> None:
    async with registry().session() as session:
        with anyio.CancelScope() as scope:
            scope.cancel()
            decision = await session.dispatch(SessionEndInput(reason="other"))
        assert [r.outcome.value for r in decision.results] == ["ok"]
        assert not scope.cancelled_caught


async def test_other_tasks_run_during_a_loop_of_plain_dispatches() -> None:
    other_ran = anyio.Event()

    async def other() -> None:
        other_ran.set()

    async with registry().session() as session, anyio.create_task_group() as tg:
        tg.start_soon(other)
        for _ in range(50):
            if other_ran.is_set():
                break
            await session.dispatch(bash())
        assert other_ran.is_set()


async def test_a_loop_of_dispatches_can_be_cancelled_from_outside() -> None:
    count = 0
    async with registry().session() as session:
        with anyio.move_on_after(0.05) as scope:
            while True:  # (without a checkpoint per dispatch this never ends)
                await session.dispatch(bash())
                count += 1
        assert scope.cancelled_caught and count > 0


async def test_a_session_keeps_no_payload_after_its_dispatches() -> None:
    """Dispatched inputs (and the big payloads they carry) are not kept by the session:
    once the caller drops them, they are gone, before and after the session closes."""
    kept: list[weakref.ref[Any]] = []
    hook = CommandHook(command="cat >/dev/null", name="reads stdin")
    async with registry(plain, hook).session() as session:
        for i in range(8):
            input = bash("x" * 1_000_000 + str(i))
            kept.append(weakref.ref(input))
            decision = await session.dispatch(input)
            assert [r.outcome.value for r in decision.results] == ["ok", "ok"]
            del input, decision
        gc.collect()
        assert [r for r in kept if r() is not None] == []
