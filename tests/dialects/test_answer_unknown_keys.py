"""An unknown key never weakens a decision (issue 27, item 8).

A deny with a misspelt sibling key (``permissionDecisionReson``) or an extra top-level
key (``blocked_command``) is honoured, as Claude Code honours it (it strips keys it does
not know): from a command hook through ``agent-hooks run`` (the harness reads a JSON
deny), and from an SDK-style Python callback through the public API (before the fix the
callback's whole answer was dropped as invalid and the call allowed). The key is
reported with an ``unknown_field`` warning; a callback's unknown keys are left out.

``run`` runs in this process (its answer is the point; ``run`` as a process is
tests/cli/test_cli_run.py's): each Python hook's module has a name of its own, so every
test imports its own file.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest

from agent_hooks import (
    CallbackHook,
    DiagnosticCode,
    HookMatcher,
    HookRegistry,
    Outcome,
    PermissionRequestInput,
    PreToolUseInput,
    Severity,
    StopInput,
)
from tests.cli.test_cli_run import Workspace, answer, cmd
from tests.dialect_helpers import InProcessWorkspace

DENY = {"hookEventName": "PreToolUse", "permissionDecision": "deny"}

ANSWERS: dict[str, dict[str, Any]] = {
    "misspelt-reason": {"hookSpecificOutput": {**DENY, "permissionDecisionReson": "no"}},
    "extra-top-level": {
        "hookSpecificOutput": {**DENY, "permissionDecisionReason": "no"},
        "blocked_command": "rm -rf /",
    },
    "both": {
        "hookSpecificOutput": {**DENY, "permissionDecisionReson": "no", "ruleId": 7},
        "blocked_command": "rm -rf /",
        "x-trace": {"id": 1},
    },
}
UNKNOWN = {
    "misspelt-reason": {"permissionDecisionReson"},
    "extra-top-level": {"blocked_command"},
    "both": {"permissionDecisionReson", "ruleId", "blocked_command", "x-trace"},
}


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return InProcessWorkspace(tmp_path)


def printing(ws: Workspace, name: str, obj: Any) -> dict[str, Any]:
    """A command hook that prints ``obj`` as JSON (from a file: the bytes as they are)."""
    path = ws.write(f"{name}.json", json.dumps(obj))
    return cmd(f"cat '{path}'", name=name)


def returning(ws: Workspace, name: str, obj: Any) -> dict[str, Any]:
    """A Python hook (SDK-style callback, loaded from the file) that returns ``obj`` (its
    module named once: ``run`` imports it into this process)."""
    module = f"guard_{name.replace('-', '_')}_{uuid.uuid4().hex}"
    ws.write(
        f"{module}.py",
        f"def guard(input_data, tool_use_id, context):\n    return {obj!r}\n",
    )
    return {"type": "python", "callable": f"{module}:guard", "name": name}


@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
@pytest.mark.parametrize("kind", ["command", "python"])
@pytest.mark.parametrize("shape", sorted(ANSWERS))
def test_a_deny_survives_unknown_keys_through_run(
    ws: Workspace, shape: str, kind: str, fail_closed: bool
) -> None:
    """Read as Claude Code reads ``run``'s answer: a JSON deny. Before the fix the Python
    hook's deny was dropped: ``{}``, the call allowed (``--fail-closed``: a deny, but as
    a failure of the hook, not its own decision)."""
    make = printing if kind == "command" else returning
    config = ws.config({"PreToolUse": [{"hooks": [make(ws, shape, ANSWERS[shape])]}]})
    proc = ws.run("--config", config, *(["--fail-closed"] if fail_closed else []))
    specific = answer(proc)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert not specific.get("permissionDecisionReason", "").startswith("hook ")
    assert "failed_closed" not in proc.stderr


# ------------------------------------------------------------- Python API


def sdk_callback(obj: dict[str, Any]) -> Any:
    async def guard(input_data: dict[str, Any], tool_use_id: Any, context: Any) -> Any:
        return obj

    return guard


async def dispatch(hook: Any, input: Any, **options: Any) -> Any:
    event = str(input.event)
    registry = HookRegistry({event: [HookMatcher(hooks=[hook])]}, **options)
    async with registry.session() as session:
        with anyio.fail_after(10):
            return await session.dispatch(input)


def bash() -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": "rm -rf /"})


@pytest.mark.anyio
@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
@pytest.mark.parametrize("shape", sorted(ANSWERS))
async def test_a_callbacks_deny_survives_unknown_keys(shape: str, fail_closed: bool) -> None:
    """Before the fix: the answer was invalid, no decision, and the call was allowed
    under the default policy."""
    hook = CallbackHook(sdk_callback(ANSWERS[shape]), name="guard")
    decision = await dispatch(hook, bash(), fail_closed=fail_closed)
    (result,) = decision.results
    assert result.outcome is Outcome.OK
    assert decision.blocked
    assert decision.output.permission_decision == "deny"
    unknown = [d for d in decision.diagnostics if d.code is DiagnosticCode.UNKNOWN_FIELD]
    assert {d.location.rsplit(".", 1)[-1] for d in unknown if d.location} == UNKNOWN[shape]
    assert all(d.severity is Severity.WARNING and d.handler == "guard" for d in unknown)
    # left out, not passed on to the harness
    assert decision.output.extra == {} and decision.output.extra_specific == {}
    assert DiagnosticCode.FAILED_CLOSED not in {d.code for d in decision.diagnostics}


@pytest.mark.anyio
async def test_a_misspelt_reason_does_not_lose_the_reason_of_a_valid_one() -> None:
    obj = {"hookSpecificOutput": {**DENY, "permissionDecisionReason": "no", "reson": "x"}}
    decision = await dispatch(CallbackHook(sdk_callback(obj)), bash())
    assert decision.blocked and decision.output.permission_decision_reason == "no"


@pytest.mark.anyio
async def test_a_permission_request_deny_survives_an_unknown_key() -> None:
    obj = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "no"},
            "decison": "allow",
        },
        "note": "audit",
    }
    input = PermissionRequestInput(tool_name="Bash", tool_input={"command": "rm -rf /"})
    decision = await dispatch(CallbackHook(sdk_callback(obj)), input)
    assert decision.blocked
    assert decision.output.permission_decision.behavior == "deny"


@pytest.mark.anyio
async def test_a_stop_block_survives_an_unknown_key() -> None:
    obj = {"decision": "block", "reason": "tests fail", "severity": "high"}
    decision = await dispatch(CallbackHook(sdk_callback(obj)), StopInput(stop_hook_active=False))
    assert decision.blocked and decision.output.reason == "tests fail"


@pytest.mark.anyio
async def test_an_unknown_key_does_not_turn_an_allow_into_a_failure() -> None:
    """Under ``fail_closed`` an unknown key is not a failure: nothing blocks."""
    obj = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    obj["checked_by"] = "guard"
    decision = await dispatch(CallbackHook(sdk_callback(obj)), bash(), fail_closed=True)
    assert not decision.blocked
    assert decision.output.permission_decision == "allow"
    assert decision.results[0].outcome is Outcome.OK
