"""Bad answers from callbacks: a wrong type or invalid values give a diagnostic and no
decision from that callback (unknown keys are left out with a warning); the dispatch and the other handlers
carry on.
"""

from __future__ import annotations

from typing import Any

import pytest

from agent_hooks import (
    CallbackHook,
    DiagnosticCode,
    HookMatcher,
    HookRegistry,
    Outcome,
    PermissionRequestDecision,
    PermissionRequestInput,
    PermissionRequestOutput,
    PreToolUseInput,
    PreToolUseOutput,
    SessionStartInput,
    SessionStartOutput,
    Severity,
    StopOutput,
)

pytestmark = pytest.mark.anyio


def bash() -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"})


async def run_with(answer: Any, *, sdk: bool, on_error: Any = None) -> Any:
    """Dispatch PreToolUse to a callback answering ``answer`` and an honest sibling."""
    if sdk:

        async def bad(data: dict[str, Any], tool_use_id: Any, context: Any) -> Any:
            return answer
    else:

        async def bad(input: PreToolUseInput) -> Any:  # type: ignore[misc]
            return answer

    async def sibling(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(additional_context="sibling ok", permission_decision="ask")

    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    hooks=[CallbackHook(callback=bad, name="bad", on_error=on_error), sibling]
                )
            ]
        },
        source="app",
    )
    async with registry.session() as session:
        return await session.dispatch(bash())


def codes(decision: Any) -> list[DiagnosticCode]:
    return [d.code for d in decision.diagnostics]


def assert_no_decision_from_bad(decision: Any) -> None:
    bad, sibling = decision.results
    assert bad.output is None
    assert bad.outcome is Outcome.ERROR
    assert sibling.outcome is Outcome.OK
    assert decision.output.permission_decision == "ask"  # only the sibling's decision
    assert decision.output.additional_context == "sibling ok"
    assert not decision.blocked
    assert all(d.handler == "bad" and d.source == "app" for d in decision.diagnostics)


@pytest.mark.parametrize("sdk", [False, True])
@pytest.mark.parametrize(
    "answer", ["deny", 42, ["deny"], ("a", "b"), object(), StopOutput(decision="block")]
)
async def test_an_answer_of_the_wrong_type_is_rejected(answer: Any, sdk: bool) -> None:
    decision = await run_with(answer, sdk=sdk)
    assert_no_decision_from_bad(decision)
    assert codes(decision) == [DiagnosticCode.INVALID_OUTPUT]
    message = decision.diagnostics[0].message
    assert type(answer).__name__ in message
    assert "PreToolUseOutput" in message


async def test_unknown_keys_are_dropped_and_the_decision_stands() -> None:
    """An unknown key never weakens a decision (issue 27, item 8): it is left out with a
    warning, as Claude Code strips it (tests/dialects/test_answer_unknown_keys.py)."""
    answer = {
        "permisionDecision": "deny",
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"},
    }
    decision = await run_with(answer, sdk=True)
    assert decision.blocked and decision.output.permission_decision == "deny"
    assert codes(decision) == [DiagnosticCode.UNKNOWN_FIELD]
    assert "permisionDecision" in decision.diagnostics[0].message
    assert decision.diagnostics[0].severity is Severity.WARNING
    assert decision.output.extra == {}


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        (
            {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}},
            DiagnosticCode.INVALID_VALUE,
        ),
        ({"continue": "no"}, DiagnosticCode.WRONG_TYPE),
        ({"systemMessage": 7, "suppressOutput": False}, DiagnosticCode.WRONG_TYPE),
        (
            {"hookSpecificOutput": {"hookEventName": "Stop", "permissionDecision": "deny"}},
            DiagnosticCode.MISMATCHED_OUTPUT,
        ),
    ],
)
async def test_invalid_values_in_a_dict_answer_make_it_invalid(
    answer: dict[str, Any], code: DiagnosticCode
) -> None:
    decision = await run_with(answer, sdk=True)
    assert_no_decision_from_bad(decision)
    assert codes(decision) == [code, DiagnosticCode.INVALID_OUTPUT]


@pytest.mark.parametrize(
    ("answer", "field"),
    [
        (PreToolUseOutput(permission_decision="maybe"), "permission_decision"),  # type: ignore[arg-type]
        (PreToolUseOutput(continue_="no"), "continue_"),  # type: ignore[arg-type]
        (PreToolUseOutput(additional_context=123), "additional_context"),  # type: ignore[arg-type]
        (PreToolUseOutput(updated_input=["not", "a", "map"]), "updated_input"),  # type: ignore[arg-type]
        (PreToolUseOutput(decision="approve", reason="x"), "decision"),  # type: ignore[arg-type]
    ],
)
async def test_invalid_values_in_a_typed_answer_make_it_invalid(answer: Any, field: str) -> None:
    decision = await run_with(answer, sdk=False)
    assert_no_decision_from_bad(decision)
    assert codes(decision) == [DiagnosticCode.INVALID_VALUE, DiagnosticCode.INVALID_OUTPUT]
    assert decision.diagnostics[0].message.startswith(field)
    assert decision.diagnostics[0].severity is Severity.ERROR


async def test_nested_values_are_checked_too() -> None:
    async def bad(input: PermissionRequestInput) -> PermissionRequestOutput:
        return PermissionRequestOutput(
            permission_decision=PermissionRequestDecision(behavior="perhaps")  # type: ignore[arg-type]
        )

    registry = HookRegistry({"PermissionRequest": [HookMatcher(hooks=[bad])]})
    async with registry.session() as session:
        decision = await session.dispatch(PermissionRequestInput(tool_name="Bash"))
    assert decision.output.permission_decision is None
    assert DiagnosticCode.INVALID_VALUE in codes(decision)


async def test_an_invalid_answer_is_a_failure_under_the_handlers_policy() -> None:
    decision = await run_with({"continue": "no"}, sdk=True, on_error="block")
    assert decision.blocked
    assert decision.reason is not None and "invalid answer" in decision.reason


async def test_fields_an_event_does_not_honour_are_dropped_not_fatal() -> None:
    async def typed(input: SessionStartInput) -> SessionStartOutput:
        return SessionStartOutput(additional_context="ctx", decision="block", reason="no")

    registry = HookRegistry({"SessionStart": [HookMatcher(hooks=[typed])]})
    async with registry.session() as session:
        decision = await session.dispatch(SessionStartInput(source="startup"))
    assert decision.context == "ctx"
    assert decision.output.decision is None
    assert codes(decision) == [DiagnosticCode.UNSUPPORTED_FIELD]


async def test_an_sdk_callback_returning_none_has_no_opinion() -> None:
    decision = await run_with(None, sdk=True)
    bad, _ = decision.results
    assert bad.output is None and bad.outcome is Outcome.OK
    assert [(d.code, d.severity) for d in decision.diagnostics] == [
        (DiagnosticCode.INVALID_OUTPUT, Severity.INFO)
    ]
    typed_none = await run_with(None, sdk=False)
    assert typed_none.diagnostics == ()
