"""Each handler is called with its own settings: timeout, project dir, env, process limiter.

Every handler call gets a ``HookCall`` of its own, made when the handler is run: it
carries the dispatched input, the handler's own timeout, and the session's settings as
they are at that dispatch (a project dir or env changed since, the limiter of the loop
the session runs in now), never another handler's or a stale one's.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agent_hooks import (
    HandlerNode,
    HandlerResult,
    HookCall,
    HookMatcher,
    HookRegistry,
    Outcome,
    PreToolUseInput,
    SessionEndInput,
)

pytestmark = pytest.mark.anyio


def bash() -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"}, tool_use_id="t")


class Probe:
    """A handler kind that records the call it was given."""

    def __init__(self, name: str, seen: dict[str, HookCall], timeout: float | None = None) -> None:
        self.name, self.seen, self.timeout = name, seen, timeout

    def to_node(self) -> HandlerNode:
        async def call(c: HookCall) -> HandlerResult:
            self.seen[self.name] = c
            return HandlerResult()

        return HandlerNode(name=self.name, kind="probe", call=call, timeout=self.timeout)


async def test_many_parallel_handlers_each_get_their_own_timeout() -> None:
    # Many handlers with timeouts that differ only a little: nobody may get a
    # neighbour's call, in any of several dispatches.
    seen: dict[str, HookCall] = {}
    probes = [Probe(f"h{i}", seen, timeout=1.0 + i / 100) for i in range(300)]
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=probes)]})
    async with registry.session(session_id="s") as session:
        for _ in range(3):
            seen.clear()
            decision = await session.dispatch(bash())
            assert len(decision.results) == 300
            wrong = {
                name: c.timeout
                for name, c in seen.items()
                if c.timeout != 1.0 + int(name[1:]) / 100
            }
            assert wrong == {}


async def test_each_handler_gets_its_own_call_with_the_dispatched_input() -> None:
    seen: dict[str, HookCall] = {}
    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[Probe("a", seen), Probe("b", seen)])]}
    )
    async with registry.session(session_id="s") as session:
        first, second = bash(), PreToolUseInput(tool_name="Read", tool_input={}, tool_use_id="u")
        decision = await session.dispatch(first)
        calls = dict(seen)
        assert calls["a"] is not calls["b"]
        assert calls["a"].input == decision.input == calls["b"].input
        assert calls["a"].input.tool_name == "Bash" and calls["a"].input.session_id == "s"
        decision = await session.dispatch(second)
        assert seen["a"] is not calls["a"] and seen["b"] is not calls["b"]  # new calls
        assert seen["a"].input == decision.input == seen["b"].input
        assert seen["a"].input.tool_name == "Read" and seen["b"].input.tool_name == "Read"
        assert calls["a"].input.tool_name == "Bash"  # the first dispatch's call is as it was


async def test_a_new_project_dir_reaches_the_next_dispatch() -> None:
    seen: dict[str, HookCall] = {}
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[Probe("a", seen)])]})
    async with registry.session(session_id="s", project_dir="/tmp") as session:
        await session.dispatch(bash())
        assert seen["a"].project_dir == "/tmp"
        session.project_dir = "/usr"
        await session.dispatch(bash())
        assert seen["a"].project_dir == "/usr"


async def test_a_new_env_reaches_the_next_dispatch() -> None:
    seen: dict[str, HookCall] = {}
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[Probe("a", seen)])]})
    async with registry.session(session_id="s", env={"MODE": "one"}) as session:
        await session.dispatch(bash())
        assert seen["a"].env["MODE"] == "one"
        session.env = {**session.env, "MODE": "two"}
        await session.dispatch(bash())
        assert seen["a"].env["MODE"] == "two"


@pytest.mark.parametrize("second", ["asyncio", "trio"])
def test_a_session_opened_again_in_another_loop_uses_that_loops_limiter(second: str) -> None:
    seen: dict[str, HookCall] = {}
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[Probe("a", seen)])]})
    session = registry.session(session_id="s")
    limiters: list[Any] = []

    async def main() -> None:
        async with session as s:
            await s.dispatch(bash())
            limiter = seen["a"].process_limiter
            assert limiter is not None
            async with limiter:  # usable in this loop
                pass
            limiters.append(limiter)

    anyio.run(main, backend="asyncio")
    anyio.run(main, backend=second)
    assert limiters[0] is not limiters[1]


@pytest.mark.parametrize("event", ["PreToolUse", "SessionEnd"])
async def test_a_negative_timeout_times_the_handler_out_instead_of_raising(
    anyio_backend: str, event: str
) -> None:
    never = anyio.Event()

    async def hang(input: Any) -> None:
        await never.wait()

    registry = HookRegistry(
        {event: [HookMatcher(hooks=[hang], timeout=-1)]},
        session_end_timeout=-1 if event == "SessionEnd" else 1.5,
    )
    async with registry.session(session_id="s") as session:
        with anyio.fail_after(5):
            decision = await session.dispatch(
                bash() if event == "PreToolUse" else SessionEndInput(reason="other")
            )
        assert [r.outcome for r in decision.results] == [Outcome.TIMEOUT]
