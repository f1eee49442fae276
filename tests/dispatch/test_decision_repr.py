"""A decision prints as one short line: event, verdict, reason, and how many handler
results and diagnostics it holds (the values themselves are one attribute away)."""

from __future__ import annotations

import pytest

from agent_hooks import (
    CommandHook,
    Diagnostic,
    DiagnosticCode,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
    Severity,
    StopInput,
    StopOutput,
)
from agent_hooks.testing import run_hook

pytestmark = pytest.mark.anyio


def deny_env(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no .env")


def allow(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(permission_decision="allow")


async def test_a_deny_prints_event_verdict_reason_and_counts() -> None:
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(hooks=[allow, deny_env, CommandHook(command="exit 0")]),
            ]
        }
    )
    async with registry.session(session_id="repr") as session:
        decision = await session.dispatch(
            PreToolUseInput(tool_name="Write", tool_input={"file_path": ".env", "content": "x" * 5000})
        )
    text = repr(decision)
    assert text == (
        "Decision(event='PreToolUse', verdict='deny', reason='no .env', handlers=3, "
        f"diagnostics={len(decision.diagnostics)})"
    )
    assert len(text) < 200
    assert str(decision) == text  # (print() shows the same line)


async def test_a_long_reason_is_cut_and_no_opinion_is_none() -> None:
    def block(input: StopInput) -> StopOutput:
        return StopOutput(decision="block", reason="keep going: " + "the tests still fail " * 20)

    registry = HookRegistry({"Stop": [HookMatcher(hooks=[block])]})
    async with registry.session() as session:
        decision = await session.dispatch(StopInput())
        quiet = await session.dispatch(PreToolUseInput(tool_name="Bash"))
    text = repr(decision)
    assert text.startswith("Decision(event='Stop', verdict='block', reason='keep going: the tests")
    assert "...'" in text
    assert len(text) < 200
    assert repr(quiet) == (
        "Decision(event='PreToolUse', verdict=None, reason=None, handlers=0, diagnostics=0)"
    )


def test_a_hook_run_prints_its_decision_short() -> None:
    run = run_hook(deny_env, {"hook_event_name": "PreToolUse", "tool_name": "Edit"})
    assert "Decision(event='PreToolUse', verdict='deny', reason='no .env', handlers=1" in repr(run)
    assert len(repr(run)) < 400


def test_a_diagnostic_prints_the_fields_it_has() -> None:
    d = Diagnostic(
        code=DiagnosticCode.TIMEOUT,
        message="timed out after 5s",
        severity=Severity.ERROR,
        handler="./guard.sh",
    )
    assert repr(d) == (
        "Diagnostic(code='timeout', severity='error', message='timed out after 5s', "
        "handler='./guard.sh')"
    )
    placed = d.at(source="hooks.json", location="PreToolUse[0].hooks[1]")
    assert repr(placed).endswith(
        "source='hooks.json', location='PreToolUse[0].hooks[1]', handler='./guard.sh')"
    )
