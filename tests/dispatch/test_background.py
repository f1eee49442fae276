"""Fire-and-forget handlers: they never hold up a decision, cannot block or rewrite,
deliver their context, messages and failures with the session's next dispatch, honour
async_rewake, and never outlive their session.
"""

from __future__ import annotations

from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agent_hooks import (
    CallbackHook,
    DiagnosticCode,
    HandlerNode,
    HandlerResult,
    HookCall,
    HookMatcher,
    HookRegistry,
    Outcome,
    PostToolUseInput,
    PreToolUseInput,
    PreToolUseOutput,
    Session,
    StopInput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
)

pytestmark = pytest.mark.anyio

SHORT = 0.05
LIMIT = 5.0


def bash() -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": "make test"})


class Delivered:
    """``on_background_result`` for a session: wait until n background results are in."""

    def __init__(self) -> None:
        self.results: list[HandlerResult] = []
        self._changed = anyio.Event()

    def __call__(self, result: HandlerResult) -> None:
        self.results.append(result)
        self._changed.set()
        self._changed = anyio.Event()

    async def wait_for(self, n: int) -> None:
        with anyio.fail_after(LIMIT):
            while len(self.results) < n:
                await self._changed.wait()


async def test_background_never_holds_up_the_decision_and_arrives_with_the_next_dispatch() -> None:
    release = anyio.Event()

    async def background(input: PreToolUseInput) -> PreToolUseOutput:
        await release.wait()
        return PreToolUseOutput(additional_context="bg context", system_message="bg message")

    async def foreground(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(additional_context="fg context")

    async def prompt(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        return UserPromptSubmitOutput(additional_context="prompt context", system_message="fg msg")

    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    hooks=[
                        CallbackHook(callback=background, name="bg", background=True),
                        foreground,
                    ]
                )
            ],
            "UserPromptSubmit": [HookMatcher(hooks=[prompt])],
        }
    )
    delivered = Delivered()
    async with registry.session(on_background_result=delivered) as session:
        with anyio.fail_after(LIMIT):
            first = await session.dispatch(bash())  # returns while the background hook waits
        assert first.context == "fg context"
        assert first.background == ()
        assert [r.handler.name for r in first.results if r.handler] == [
            foreground.__module__ + "." + foreground.__qualname__
        ]
        release.set()
        await delivered.wait_for(1)
        second = await session.dispatch(UserPromptSubmitInput(prompt="next"))
        assert [r.handler.name for r in second.background if r.handler] == ["bg"]
        assert second.context == "prompt context\nbg context"
        assert second.system_messages == ("fg msg", "bg message")
        third = await session.dispatch(StopInput())
        assert third.background == ()  # delivered once
        assert third.context is None
    assert session.undelivered == ()


async def test_background_cannot_block_or_rewrite() -> None:
    async def meddler(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(
            permission_decision="deny",
            permission_decision_reason="no",
            updated_input={"command": "rm -rf /"},
            continue_=False,
            stop_reason="stop",
            decision="block",
            reason="blocked",
            additional_context="advice",
        )

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CallbackHook(callback=meddler, background=True)])]}
    )
    delivered = Delivered()
    async with registry.session(on_background_result=delivered) as session:
        first = await session.dispatch(bash())
        assert not first.blocked and first.should_continue
        await delivered.wait_for(1)
        second = await session.dispatch(StopInput())
    assert not second.blocked and second.should_continue
    (bg,) = second.background
    assert bg.output is not None
    assert bg.output.additional_context == "advice"  # type: ignore[attr-defined]
    for field in ("permission_decision", "updated_input", "continue_", "decision", "reason"):
        assert getattr(bg.output, field) is None, field
    assert second.context == "advice"


async def test_background_runs_under_its_own_timeout_and_failures_arrive_as_diagnostics() -> None:
    async def slow(input: PreToolUseInput) -> None:
        await anyio.sleep_forever()

    async def broken(input: PreToolUseInput) -> None:
        raise RuntimeError("background boom")

    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    hooks=[
                        CallbackHook(callback=slow, name="slow-bg", background=True, timeout=SHORT),
                        CallbackHook(callback=broken, name="broken-bg", background=True),
                    ]
                )
            ]
        },
        source="app",
    )
    delivered = Delivered()
    async with registry.session(on_background_result=delivered) as session:
        first = await session.dispatch(bash())
        assert first.diagnostics == ()
        await delivered.wait_for(2)
        second = await session.dispatch(StopInput())
    # a Python callback timing out on PreToolUse would block; in the background it cannot
    assert not second.blocked
    outcomes = {r.handler.name: r.outcome for r in second.background if r.handler}
    assert outcomes == {"slow-bg": Outcome.TIMEOUT, "broken-bg": Outcome.ERROR}
    codes = {(d.handler, d.code) for d in second.diagnostics}
    assert {
        ("slow-bg", DiagnosticCode.TIMEOUT),
        ("slow-bg", DiagnosticCode.BACKGROUND_FAILED),
        ("broken-bg", DiagnosticCode.HANDLER_ERROR),
        ("broken-bg", DiagnosticCode.BACKGROUND_FAILED),
    } <= codes
    assert all(d.source == "app" for d in second.diagnostics)
    assert any("background boom" in d.message for d in second.diagnostics)


def rewaker(reason: str) -> HandlerNode:
    async def call(c: HookCall) -> HandlerResult:
        await anyio.lowlevel.checkpoint()
        return HandlerResult(outcome=Outcome.BLOCKED, reason=reason, exit_code=2)

    return HandlerNode(name="tests", kind="fake", call=call, background=True, async_rewake=True)


async def test_async_rewake_wakes_the_agent_and_shows_in_the_next_decision() -> None:
    woken: list[str] = []
    registry = HookRegistry({"PostToolUse": [HookMatcher(hooks=[rewaker("3 tests failed")])]})
    delivered = Delivered()
    async with registry.session(on_rewake=woken.append, on_background_result=delivered) as session:
        first = await session.dispatch(PostToolUseInput(tool_name="Edit"))
        assert first.rewake == ()
        await delivered.wait_for(1)
        assert woken == ["3 tests failed"]
        second = await session.dispatch(StopInput())
        assert second.rewake == ("3 tests failed",)
        assert not second.blocked  # a rewake is not a block of this Stop
        third = await session.dispatch(StopInput())
        assert third.rewake == ()


async def test_an_async_on_rewake_callback_is_not_cut_short_by_closing() -> None:
    woken: list[str] = []

    async def on_rewake(reason: str) -> None:
        await anyio.lowlevel.checkpoint()
        woken.append(reason)

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[rewaker("lint failed")])]})
    async with registry.session(on_rewake=on_rewake) as session:
        await session.dispatch(bash())
    assert woken == ["lint failed"]


@pytest.mark.parametrize("key", ["async_", "async"])
async def test_an_sdk_async_answer_holds_no_decision(key: str) -> None:
    async def sdk(data: dict[str, Any], tool_use_id: Any, context: Any) -> dict[str, Any]:
        return {
            key: True,
            "asyncTimeout": 500,
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"},
        }

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[sdk])]})
    async with registry.session() as session:
        decision = await session.dispatch(bash())
    assert not decision.blocked
    assert decision.output.permission_decision is None
    (result,) = decision.results
    assert result.is_async and result.output is None
    assert [d.code for d in decision.diagnostics] == [DiagnosticCode.ASYNC_REPLY]


async def test_closing_the_session_awaits_pending_background_work() -> None:
    finished: list[str] = []

    async def worker(input: PreToolUseInput) -> PreToolUseOutput:
        for _ in range(20):
            await anyio.lowlevel.checkpoint()
        finished.append("worker")
        return PreToolUseOutput(additional_context="late context")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CallbackHook(callback=worker, background=True)])]}
    )
    async with registry.session() as session:
        await session.dispatch(bash())
        assert finished == []  # still pending when the body ends
    assert finished == ["worker"]
    (late,) = session.undelivered
    assert late.outcome is Outcome.OK
    assert late.output is not None
    assert late.output.additional_context == "late context"  # type: ignore[attr-defined]


async def test_nothing_outlives_the_session() -> None:
    flag: list[str] = []
    cancelled: list[str] = []

    async def lingering(input: PreToolUseInput) -> None:
        try:
            await anyio.sleep(3600)
        except anyio.get_cancelled_exc_class():
            cancelled.append("lingering")
            raise
        flag.append("set")  # would happen after a long wait; never does

    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    hooks=[CallbackHook(callback=lingering, name="lingering", background=True)]
                )
            ]
        },
        background_drain_timeout=SHORT,
        source="app",
    )
    start = anyio.current_time()
    async with registry.session() as session:
        await session.dispatch(bash())
    assert anyio.current_time() - start < LIMIT
    assert cancelled == ["lingering"]
    for _ in range(10):
        await anyio.lowlevel.checkpoint()
    assert flag == []
    (cut,) = session.undelivered
    assert cut.outcome is Outcome.CANCELLED
    assert cut.handler is not None and cut.handler.name == "lingering"
    (diag,) = cut.diagnostics
    assert diag.code is DiagnosticCode.BACKGROUND_CANCELLED
    assert (diag.handler, diag.source) == ("lingering", "app")


async def test_a_closing_session_is_cancelled_from_outside_cleanly() -> None:
    cancelled: list[str] = []

    async def lingering(input: PreToolUseInput) -> None:
        try:
            await anyio.sleep_forever()
        finally:
            cancelled.append("bg")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CallbackHook(callback=lingering, background=True)])]},
        background_drain_timeout=SHORT,
    )
    with anyio.CancelScope() as scope:
        async with registry.session() as session:
            await session.dispatch(bash())
            scope.cancel()
            await anyio.lowlevel.checkpoint()
    assert scope.cancelled_caught
    assert cancelled == ["bg"]
    assert [r.outcome for r in session.undelivered] == [Outcome.CANCELLED]


async def test_background_work_needs_an_open_session() -> None:
    async def bg(input: PreToolUseInput) -> None:
        return None

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CallbackHook(callback=bg, background=True)])]}
    )
    session = registry.session()
    assert isinstance(session, Session)
    with pytest.raises(RuntimeError, match="async with"):
        await session.dispatch(bash())


async def test_a_failing_session_callback_is_contained(caplog: pytest.LogCaptureFixture) -> None:
    async def note(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(additional_context="noted")

    def broken(result: Any) -> None:
        raise RuntimeError("app bug")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CallbackHook(note, background=True)])]}
    )
    async with registry.session(on_background_result=broken) as session:
        await session.dispatch(PreToolUseInput(tool_name="Bash"))
        await anyio.wait_all_tasks_blocked()
        d = await session.dispatch(PreToolUseInput(tool_name="Bash"))
    assert d.context == "noted"
    assert any("session callback" in r.message for r in caplog.records)
