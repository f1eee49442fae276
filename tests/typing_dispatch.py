"""Static typing of dispatch, checked by ``mypy --strict`` (see tests/package/test_typing.py).

Dispatching an event's input class is known to produce a decision of that event's
output class. The module is importable too: ``check`` runs the same lines for real.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import assert_type

from agent_hooks import (
    Decision,
    HookMatcher,
    HookOutput,
    HookRegistry,
    PermissionRequestDecision,
    PermissionRequestInput,
    PermissionRequestOutput,
    PreToolUseInput,
    PreToolUseOutput,
    Session,
    StopInput,
    StopOutput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
)


async def deny_env(input: PreToolUseInput) -> PreToolUseOutput | None:
    if str(input.tool_input.get("file_path", "")).endswith(".env"):
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no .env")
    return None


async def dispatch_is_typed(session: Session) -> None:
    pre = await session.dispatch(
        PreToolUseInput(tool_name="Edit", tool_input={"file_path": ".env"})
    )
    assert_type(pre, Decision[PreToolUseOutput])
    assert_type(pre.output, PreToolUseOutput)
    assert_type(pre.output.permission_decision, Literal["allow", "deny", "ask", "defer"] | None)
    assert_type(pre.blocked, bool)
    assert_type(pre.reason, str | None)
    assert_type(pre.system_messages, tuple[str, ...])

    stop = await session.dispatch(StopInput())
    assert_type(stop, Decision[StopOutput])
    assert_type(stop.output.decision, Literal["block"] | None)

    prompt = await session.dispatch(UserPromptSubmitInput(prompt="hello"))
    assert_type(prompt, Decision[UserPromptSubmitOutput])
    assert_type(prompt.output.additional_context, str | None)

    permission = await session.dispatch(PermissionRequestInput(tool_name="Bash"))
    assert_type(permission, Decision[PermissionRequestOutput])
    assert_type(permission.output.permission_decision, PermissionRequestDecision | None)


def describe(decision: Decision) -> str:
    """A bare ``Decision`` (any event's) is a ``Decision[HookOutput]``, not an error."""
    assert_type(decision.output, HookOutput)
    return f"{decision.event}: {decision.reason}"


async def check() -> Decision[PreToolUseOutput]:
    """Run the typed lines against a real session; returns the PreToolUse decision."""
    registry = HookRegistry({"PreToolUse": [HookMatcher(matcher="Edit|Write", hooks=[deny_env])]})
    async with registry.session(session_id="typing") as session:
        await dispatch_is_typed(session)
        decision = await session.dispatch(
            PreToolUseInput(tool_name="Write", tool_input={"file_path": "app/.env"})
        )
        describe(decision)
        return decision
