"""Reduction: one decision from many handlers, always in configuration order.

continue/stop_reason, PreToolUse's ranking and companions, updated_input in parallel
and chained runs, context and messages, PermissionRequest, the table's meaning of
``decision: "block"``, and diagnostics that name their handler and source.
"""

from __future__ import annotations

import itertools
from typing import Any

import anyio
import pytest

from agent_hooks import (
    CallbackHook,
    DiagnosticCode,
    HookMatcher,
    HookRegistry,
    PermissionRequestDecision,
    PermissionRequestInput,
    PermissionRequestOutput,
    PostToolUseInput,
    PostToolUseOutput,
    PreCompactInput,
    PreCompactOutput,
    PreToolUseInput,
    PreToolUseOutput,
    Source,
    StopInput,
    StopOutput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
)

pytestmark = pytest.mark.anyio

LIMIT = 5.0


def bash() -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": "rm -rf build"})


def reversed_hooks(outputs: list[Any], names: list[str] | None = None) -> list[CallbackHook]:
    """Callbacks answering ``outputs`` in configuration order but finishing in reverse:
    callback i waits until callback i+1 has finished."""
    n = len(outputs)
    done = [anyio.Event() for _ in range(n)]
    hooks = []
    for i, out in enumerate(outputs):

        async def hook(input: Any, i: int = i, out: Any = out) -> Any:
            if i + 1 < n:
                await done[i + 1].wait()
            done[i].set()
            return out

        hooks.append(CallbackHook(callback=hook, name=names[i] if names else f"h{i}"))
    return hooks


async def decide(event: str, input: Any, outputs: list[Any], **options: Any) -> Any:
    registry = HookRegistry({event: [HookMatcher(hooks=reversed_hooks(outputs))]}, **options)
    async with registry.session() as session:
        with anyio.fail_after(LIMIT):
            return await session.dispatch(input)


# ------------------------------------------------------------ continue


async def test_continue_false_from_any_handler_stops_and_first_stop_reason_wins() -> None:
    ran: list[int] = []

    def out(i: int, **kw: Any) -> PreToolUseOutput:
        ran.append(i)
        return PreToolUseOutput(**kw)

    outputs = [
        out(0, permission_decision="allow"),
        out(1, continue_=False, stop_reason="first"),
        out(2, continue_=True),
        out(3, continue_=False, stop_reason="second"),
    ]
    decision = await decide("PreToolUse", bash(), outputs)
    assert decision.should_continue is False
    assert decision.output.continue_ is False
    assert decision.stop_reason == "first"
    assert len(decision.results) == 4  # every handler still ran
    assert all(r.output is not None for r in decision.results)

    keep_going = await decide("PreToolUse", bash(), [PreToolUseOutput(continue_=True), None])
    assert keep_going.should_continue


# ------------------------------------------------------------ PreToolUse


RANKS = ["deny", "defer", "ask", "allow", None]


@pytest.mark.parametrize("order", list(itertools.permutations(RANKS, 3)))
async def test_pre_tool_use_most_restrictive_wins_whatever_the_order(
    order: tuple[Any, ...],
) -> None:
    outputs = [
        PreToolUseOutput(permission_decision=d, permission_decision_reason=f"because {d}")
        if d
        else None
        for d in order
    ]
    decision = await decide("PreToolUse", bash(), outputs)
    expected = min((d for d in order if d), key=RANKS.index, default=None)
    assert decision.output.permission_decision == expected
    assert decision.output.permission_decision_reason == (
        f"because {expected}" if expected else None
    )
    assert decision.blocked == (expected == "deny")


async def test_deny_beats_allow_regardless_of_order() -> None:
    allow = PreToolUseOutput(permission_decision="allow", permission_decision_reason="fine")
    deny = PreToolUseOutput(permission_decision="deny", permission_decision_reason="dangerous")
    for outputs in ([allow, deny], [deny, allow], [allow, allow, deny, allow]):
        decision = await decide("PreToolUse", bash(), outputs)
        assert decision.blocked
        assert decision.output.permission_decision == "deny"
        assert decision.reason == "dangerous"


async def test_reason_comes_from_the_first_handler_at_the_winning_rank() -> None:
    outputs = [
        PreToolUseOutput(permission_decision="ask", permission_decision_reason="ask-reason"),
        PreToolUseOutput(permission_decision="deny", permission_decision_reason="deny-1"),
        PreToolUseOutput(permission_decision="deny"),
        PreToolUseOutput(permission_decision="deny", permission_decision_reason="deny-3"),
    ]
    decision = await decide("PreToolUse", bash(), outputs)  # deny-3 finishes first
    assert decision.output.permission_decision_reason == "deny-1"
    # a reason without a decision is no decision
    lone = await decide("PreToolUse", bash(), [PreToolUseOutput(permission_decision_reason="x")])
    assert lone.output.permission_decision is None
    assert lone.output.permission_decision_reason is None


async def test_updated_input_in_parallel_last_in_configuration_order_wins() -> None:
    outputs = [
        PreToolUseOutput(updated_input={"command": "a"}),
        PreToolUseOutput(additional_context="no rewrite"),
        PreToolUseOutput(updated_input={"command": "b"}),
        PreToolUseOutput(updated_input={"command": "c"}),
    ]
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(hooks=reversed_hooks(outputs, ["first", "quiet", "second", "third"]))
            ]
        },
        source="app",
    )
    async with registry.session() as session:
        decision = await session.dispatch(bash())
    assert decision.output.updated_input == {"command": "c"}
    assert decision.input.tool_input == {"command": "rm -rf build"}  # parallel: not threaded
    (diag,) = [d for d in decision.diagnostics if d.code is DiagnosticCode.OVERRIDDEN]
    assert "updatedInput" in diag.message
    assert "from first (app), second (app) overridden by third (app)" in diag.message
    assert (diag.handler, diag.source) == ("third", "app")


async def test_updated_input_chained_is_the_chains_final_input() -> None:
    async def add(input: PreToolUseInput, suffix: str) -> PreToolUseOutput:
        return PreToolUseOutput(updated_input={"command": input.tool_input["command"] + suffix})

    async def a(input: PreToolUseInput) -> PreToolUseOutput:
        return await add(input, " --dry-run")

    async def b(input: PreToolUseInput) -> PreToolUseOutput:
        return await add(input, " --verbose")

    async def c(input: PreToolUseInput) -> None:
        return None

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[a, b, c])]})
    async with registry.session() as session:
        decision = await session.dispatch(bash(), execution="chained")
    final = {"command": "rm -rf build --dry-run --verbose"}
    assert decision.output.updated_input == final
    assert decision.input.tool_input == final
    assert not [d for d in decision.diagnostics if d.code is DiagnosticCode.OVERRIDDEN]


async def test_additional_context_from_every_handler_in_order() -> None:
    outputs = [
        PreToolUseOutput(additional_context="one"),
        None,
        PreToolUseOutput(additional_context="two", permission_decision="allow"),
        PreToolUseOutput(additional_context="three"),
    ]
    decision = await decide("PreToolUse", bash(), outputs)
    assert decision.output.additional_context == "one\ntwo\nthree"
    assert decision.context == "one\ntwo\nthree"


async def test_metadata_merges_key_by_key_later_wins() -> None:
    outputs = [
        PreToolUseOutput(metadata={"a": "1", "b": "1"}),
        PreToolUseOutput(metadata={"b": "2", "c": "2"}),
    ]
    decision = await decide("PreToolUse", bash(), outputs)
    assert decision.output.metadata == {"a": "1", "b": "2", "c": "2"}


# ------------------------------------------------------ PermissionRequest


def pr(behavior: str, message: str | None = None) -> PermissionRequestOutput:
    return PermissionRequestOutput(
        permission_decision=PermissionRequestDecision(behavior=behavior, message=message)  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("answers", "expected"),
    [
        (["allow", "deny"], "deny"),
        (["deny", "allow"], "deny"),
        (["allow", None, "allow"], "allow"),
        ([None, "allow"], "allow"),
        ([None, None], None),
        ([], None),
    ],
)
async def test_permission_request_any_deny_wins_else_any_allow(
    answers: list[str | None], expected: str | None
) -> None:
    outputs = [pr(a, f"msg {i}") if a else None for i, a in enumerate(answers)]
    decision = await decide("PermissionRequest", PermissionRequestInput(tool_name="Bash"), outputs)
    pd = decision.output.permission_decision
    assert (pd.behavior if pd else None) == expected
    assert decision.blocked == (expected == "deny")
    if expected == "deny":
        first_deny = answers.index("deny")
        assert decision.reason == f"msg {first_deny}"


# --------------------------------------------------- decision: block, per table


async def test_user_prompt_submit_block() -> None:
    outputs = [
        UserPromptSubmitOutput(additional_context="ctx"),
        UserPromptSubmitOutput(decision="block", reason="contains a secret"),
    ]
    decision = await decide("UserPromptSubmit", UserPromptSubmitInput(prompt="key=abc"), outputs)
    assert decision.blocked
    assert decision.output.decision == "block"
    assert decision.reason == "contains a secret"


async def test_pre_compact_block() -> None:
    outputs = [None, PreCompactOutput(decision="block", reason="not now")]
    decision = await decide("PreCompact", PreCompactInput(trigger="auto"), outputs)
    assert decision.blocked
    assert decision.reason == "not now"


async def test_stop_block_keeps_the_agent_going() -> None:
    outputs = [StopOutput(decision="block", reason="tests are failing")]
    decision = await decide("Stop", StopInput(), outputs)
    assert decision.blocked
    assert decision.reason == "tests are failing"


async def test_post_tool_use_feedback_reasons_are_joined_in_order() -> None:
    outputs = [
        PostToolUseOutput(decision="block", reason="lint failed"),
        PostToolUseOutput(additional_context="note"),
        PostToolUseOutput(decision="block", reason="types failed"),
    ]
    decision = await decide("PostToolUse", PostToolUseInput(tool_name="Edit"), outputs)
    assert decision.blocked
    assert decision.output.reason == "lint failed\ntypes failed"
    assert decision.context == "note"


async def test_pre_tool_use_block_denies_the_tool() -> None:
    async def legacy(data: dict[str, Any], tool_use_id: Any, context: Any) -> dict[str, Any]:
        return {"decision": "block", "reason": "legacy no"}

    async def typed(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(decision="block", reason="typed no")

    for hook, reason in ((legacy, "legacy no"), (typed, "typed no")):
        registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[hook])]})
        async with registry.session() as session:
            decision = await session.dispatch(bash())
        assert decision.blocked
        assert decision.reason == reason
    # the SDK's deprecated spelling becomes a deny
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[legacy])]})
    async with registry.session() as session:
        assert (await session.dispatch(bash())).output.permission_decision == "deny"


# -------------------------------------------------------- messages, diagnostics


async def test_system_messages_in_order_whatever_suppress_output_says() -> None:
    # Claude Code accepts suppressOutput and does not act on it: every message is delivered.
    outputs = [
        PreToolUseOutput(system_message="one"),
        PreToolUseOutput(system_message="two", suppress_output=True),
        None,
        PreToolUseOutput(system_message="three"),
    ]
    decision = await decide("PreToolUse", bash(), outputs)
    assert decision.output.system_message == "one\ntwo\nthree"
    assert decision.system_messages == ("one\ntwo\nthree",)
    assert decision.output.suppress_output is True


async def test_every_diagnostic_names_its_handler_and_source() -> None:
    async def unknown_key(data: dict[str, Any], tool_use_id: Any, context: Any) -> dict[str, Any]:
        return {"notAKey": 1}

    async def raises(input: Any) -> None:
        raise RuntimeError("x")

    async def rewrite(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(updated_input={})

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CallbackHook(callback=unknown_key, name="bad-keys")])]},
        source=Source(label="app"),
    ).add(
        {
            "PreToolUse": [
                HookMatcher(
                    hooks=[
                        CallbackHook(callback=raises, name="raiser"),
                        CallbackHook(callback=rewrite, name="rw1"),
                        CallbackHook(callback=rewrite, name="rw2"),
                    ]
                )
            ]
        },
        source="plugin",
    )
    async with registry.session() as session:
        decision = await session.dispatch(bash())
    assert {(d.code, d.handler, d.source) for d in decision.diagnostics} == {
        (DiagnosticCode.UNKNOWN_FIELD, "bad-keys", "app"),
        (DiagnosticCode.HANDLER_ERROR, "raiser", "plugin"),
        (DiagnosticCode.OVERRIDDEN, "rw2", "plugin"),
    }
    for d in decision.diagnostics:
        assert d.handler and d.handler in str(d)
        assert d.source and d.source in str(d)
    (overridden,) = [d for d in decision.diagnostics if d.code is DiagnosticCode.OVERRIDDEN]
    assert "rw1 (plugin)" in overridden.message and "rw2 (plugin)" in overridden.message
