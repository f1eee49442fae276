"""The Stop loop: a Stop block keeps the agent going; the session counts consecutive
continuations, tells the next Stop input (``stop_hook_active``), and stops honouring
blocks past the cap (8 by default) with a ``continuation_cap`` diagnostic.
"""

from __future__ import annotations

from typing import Any

import pytest

from agent_hooks import (
    CallbackHook,
    DiagnosticCode,
    HookMatcher,
    HookRegistry,
    StopInput,
    StopOutput,
    SubagentStopInput,
    SubagentStopOutput,
)

pytestmark = pytest.mark.anyio


class Stopper:
    """A Stop hook that blocks while ``blocking`` is set and records what it saw."""

    def __init__(self, blocking: bool = True) -> None:
        self.blocking = blocking
        self.seen: list[bool | None] = []

    async def __call__(self, input: StopInput | SubagentStopInput) -> Any:
        self.seen.append(input.stop_hook_active)
        if not self.blocking:
            return None
        return input.output_type(decision="block", reason="keep working")


def cap_diags(decision: Any) -> list[Any]:
    return [d for d in decision.diagnostics if d.code is DiagnosticCode.CONTINUATION_CAP]


async def test_a_stop_block_continues_and_sets_stop_hook_active_next_time() -> None:
    stopper = Stopper()
    registry = HookRegistry({"Stop": [HookMatcher(hooks=[stopper])]})
    async with registry.session() as session:
        first = await session.dispatch(StopInput())
        assert first.blocked
        assert first.reason == "keep working"
        assert first.input.stop_hook_active is False
        second = await session.dispatch(StopInput())
        assert second.input.stop_hook_active is True
        stopper.blocking = False
        third = await session.dispatch(StopInput())
        assert not third.blocked
        assert third.input.stop_hook_active is True  # it still came from a continuation
        fourth = await session.dispatch(StopInput())
        assert fourth.input.stop_hook_active is False  # the streak ended
    assert stopper.seen == [False, True, True, False]


async def test_blocks_are_not_honoured_after_eight_in_a_row() -> None:
    stopper = Stopper()
    registry = HookRegistry(
        {"Stop": [HookMatcher(hooks=[CallbackHook(callback=stopper, name="nag")])]}, source="app"
    )
    async with registry.session() as session:
        decisions = [await session.dispatch(StopInput()) for _ in range(10)]
    assert [d.blocked for d in decisions] == [True] * 8 + [False, True]
    assert [bool(cap_diags(d)) for d in decisions] == [False] * 8 + [True, False]
    (diag,) = cap_diags(decisions[8])
    assert "8 times in a row" in diag.message
    assert (diag.handler, diag.source) == ("nag", "app")
    assert decisions[8].output.decision is None and decisions[8].output.reason is None
    # the handler ran every time; after the cap the count starts over
    assert stopper.seen == [False] + [True] * 8 + [False]


@pytest.mark.parametrize("cap", [0, 1, 3])
async def test_the_cap_is_configurable(cap: int) -> None:
    registry = HookRegistry({"Stop": [HookMatcher(hooks=[Stopper()])]}, stop_continuation_cap=cap)
    async with registry.session() as session:
        decisions = [await session.dispatch(StopInput()) for _ in range(cap + 1)]
    assert [d.blocked for d in decisions] == [True] * cap + [False]
    assert cap_diags(decisions[-1])


async def test_an_explicit_stop_hook_active_is_kept() -> None:
    stopper = Stopper()
    registry = HookRegistry({"Stop": [HookMatcher(hooks=[stopper])]})
    async with registry.session() as session:
        await session.dispatch(StopInput(stop_hook_active=True))
        await session.dispatch(StopInput(stop_hook_active=False))
    assert stopper.seen == [True, False]


async def test_subagents_and_the_main_agent_are_counted_apart() -> None:
    main, sub = Stopper(), Stopper()
    registry = HookRegistry(
        {"Stop": [HookMatcher(hooks=[main])], "SubagentStop": [HookMatcher(hooks=[sub])]},
        stop_continuation_cap=2,
    )
    async with registry.session() as session:
        await session.dispatch(StopInput())
        await session.dispatch(SubagentStopInput(agent_id="a1", agent_type="Explore"))
        await session.dispatch(SubagentStopInput(agent_id="a2", agent_type="Explore"))
        await session.dispatch(StopInput())
        third = await session.dispatch(StopInput())
        sub_second = await session.dispatch(SubagentStopInput(agent_id="a1", agent_type="Explore"))
    assert main.seen == [False, True, True]
    assert sub.seen == [False, False, True]
    assert not third.blocked and cap_diags(third)
    assert sub_second.blocked and isinstance(sub_second.output, SubagentStopOutput)


async def test_a_stop_with_no_handlers_resets_nothing_it_should_not() -> None:
    registry = HookRegistry({"Stop": [HookMatcher(hooks=[Stopper()])]}, stop_continuation_cap=1)
    async with registry.session() as session:
        assert (await session.dispatch(StopInput())).blocked
        capped = await session.dispatch(StopInput())
        assert not capped.blocked
        assert isinstance(capped.output, StopOutput)
        assert (await session.dispatch(StopInput())).blocked
