"""Cursor's wire format: snake_case payloads with ``conversation_id`` and
``workspace_roots`` decode into the typed events (``beforeShellExecution`` is a
PreToolUse of Bash with the command as its input), answers go back flat
(``permission``, ``user_message``, ``agent_message``, ``followup_message``), a Cursor
hook gets the payload of the event it is configured under, exit 2 blocks with stderr
as the reason (stdout is not read), and ``stop`` follow-ups stop at the loop limit."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from agent_hooks import (
    CommandHook,
    HookMatcher,
    HookRegistry,
    PostToolUseOutput,
    PreToolUseInput,
    PreToolUseOutput,
    SessionStartOutput,
    Source,
    StopOutput,
    UserPromptSubmitOutput,
)
from agent_hooks._wire._codec import encode_input
from agent_hooks._wire._detect import decode_payload, detect_dialect
from agent_hooks._wire._dialects import CURSOR
from tests.dialect_examples import CURSOR as EXAMPLES
from tests.dialect_helpers import answer, codes, text

pytestmark = pytest.mark.anyio

PY = sys.executable
FILLED = {
    "session_id",
    "cwd",
    "stop_hook_active",
}  # from conversation_id, workspace_roots, loop_count


@pytest.mark.parametrize("dialect", [None, "cursor"])
@pytest.mark.parametrize(
    ("native", "event", "payload", "canonical", "tool"),
    EXAMPLES,
    ids=[e[0] for e in EXAMPLES],
)
def test_every_example_decodes_without_diagnostics(
    native: str,
    event: str | None,
    payload: dict[str, Any],
    canonical: str,
    tool: str | None,
    dialect: str | None,
) -> None:
    decoded = decode_payload(json.dumps(payload), dialect=dialect, event=event)
    assert decoded.diagnostics == ()
    assert decoded.dialect is CURSOR
    assert decoded.native_event is not None and decoded.native_event.name == native
    assert decoded.input.event == canonical
    assert getattr(decoded.input, "tool_name", None) == tool
    assert decoded.input.session_id == "conv-1" and decoded.input.cwd == "/work/proj"
    again = encode_input(decoded.input, attrs.evolve(CURSOR, native_event=native))
    expected = dict(payload)
    if isinstance(expected.get("tool_input"), str):  # MCP: a JSON string, read as the object
        expected["tool_input"] = json.loads(expected["tool_input"])
    assert {k: v for k, v in again.items() if k not in FILLED or k in payload} == expected


def test_a_shell_command_is_a_bash_call_with_its_command() -> None:
    payload = next(e[2] for e in EXAMPLES if e[0] == "beforeShellExecution")
    decoded = decode_payload(payload)
    assert isinstance(decoded.input, PreToolUseInput)
    assert decoded.input.tool_input == {"command": "rm -rf /"}
    claude = encode_input(decoded.input, "claude")
    assert claude["hook_event_name"] == "PreToolUse" and claude["tool_name"] == "Bash"


def test_detection_by_marker_fields() -> None:
    assert detect_dialect({"hook_event_name": "stop", "conversation_id": "c"}) is CURSOR
    assert detect_dialect({"hook_event_name": "beforeShellExecution"}) is CURSOR
    assert detect_dialect({"hook_event_name": "stop"}) is None  # Docker Agent's stop


def _example(name: str) -> dict[str, Any]:
    return next(e[2] for e in EXAMPLES if e[0] == name)


@pytest.mark.parametrize(
    ("native", "output", "expected"),
    [
        (
            "preToolUse",
            PreToolUseOutput(permission_decision="deny", permission_decision_reason="no rm"),
            '{"permission":"deny","user_message":"no rm","agent_message":"no rm"}',
        ),
        ("preToolUse", PreToolUseOutput(permission_decision="allow"), '{"permission":"allow"}'),
        (
            "preToolUse",
            PreToolUseOutput(permission_decision="allow", updated_input={"command": "ls"}),
            '{"permission":"allow","updated_input":{"command":"ls"}}',
        ),
        (
            "beforeShellExecution",
            PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?"),
            '{"permission":"ask","user_message":"sure?","agent_message":"sure?"}',
        ),
        (
            "beforeShellExecution",
            PreToolUseOutput(permission_decision="deny", permission_decision_reason="no"),
            '{"permission":"deny","user_message":"no","agent_message":"no"}',
        ),
        (
            "beforeReadFile",
            PreToolUseOutput(permission_decision="deny", permission_decision_reason="secret"),
            '{"permission":"deny","user_message":"secret"}',
        ),
        (
            "stop",
            StopOutput(decision="block", reason="run the tests"),
            '{"followup_message":"run the tests"}',
        ),
        (
            "beforeSubmitPrompt",
            UserPromptSubmitOutput(decision="block", reason="not here"),
            '{"continue":false,"user_message":"not here"}',
        ),
        (
            "sessionStart",
            SessionStartOutput(additional_context="hi"),
            '{"additional_context":"hi"}',
        ),
        (
            "postToolUse",
            PostToolUseOutput(additional_context="note"),
            '{"additional_context":"note"}',
        ),
        ("preToolUse", None, "{}"),
    ],
)
async def test_answers_in_cursor_shape(native: str, output: Any, expected: str) -> None:
    result = await answer(_example(native), output)
    assert text(result) == expected
    assert "not_expressible" not in codes(result)


@pytest.mark.parametrize("decision", ["ask", "defer"])
async def test_ask_on_pre_tool_use_is_the_nearest_deny(decision: str) -> None:
    result = await answer(
        _example("preToolUse"),
        PreToolUseOutput(permission_decision=decision, permission_decision_reason="check"),  # type: ignore[arg-type]
    )
    assert text(result) == '{"permission":"deny","user_message":"check","agent_message":"check"}'
    assert "not_expressible" in codes(result)


async def test_context_cursor_cannot_take_is_reported() -> None:
    result = await answer(
        _example("beforeSubmitPrompt"), UserPromptSubmitOutput(additional_context="x")
    )
    assert text(result) == "{}"
    assert "not_expressible" in codes(result)


async def test_a_post_tool_block_becomes_context() -> None:
    result = await answer(
        _example("postToolUse"), PostToolUseOutput(decision="block", reason="bad")
    )
    assert text(result) == '{"additional_context":"bad"}'
    assert "not_expressible" in codes(result)


async def test_stop_follow_ups_end_at_the_loop_limit() -> None:
    payload = {**_example("stop"), "loop_count": 5}
    result = await answer(payload, StopOutput(decision="block", reason="again"))
    assert text(result) == "{}"
    assert "continuation_cap" in codes(result)


# ---------------------------------------------------------------- hooks of a Cursor file


def _registry(tmp: Path, body: str, native: str = "beforeShellExecution") -> HookRegistry:
    path = tmp / "hook.py"
    path.write_text(f"import sys, json\n{body}\n", encoding="utf-8")
    return HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CommandHook(command=f"{PY} {path}")])]},
        source=Source(label="cursor", dialect=attrs.evolve(CURSOR, native_event=native)),
    )


async def _dispatch(registry: HookRegistry) -> Any:
    async with registry.session(session_id="s") as s:
        return await s.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "rm -rf /"})
        )


async def test_a_cursor_shell_hook_gets_its_own_payload(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    await _dispatch(_registry(tmp_path, f"open({str(seen)!r}, 'w').write(sys.stdin.read())"))
    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "beforeShellExecution"
    assert payload["command"] == "rm -rf /"
    assert "tool_name" not in payload and "tool_input" not in payload


async def test_its_flat_deny_blocks(tmp_path: Path) -> None:
    body = "print(json.dumps({'permission': 'deny', 'user_message': 'nope'}))"
    d = await _dispatch(_registry(tmp_path, body))
    assert d.blocked and d.reason == "nope"


async def test_exit_2_blocks_with_stderr_and_ignores_stdout(tmp_path: Path) -> None:
    body = "print(json.dumps({'permission': 'allow'})); sys.stderr.write('no'); sys.exit(2)"
    d = await _dispatch(_registry(tmp_path, body))
    assert d.blocked and d.reason == "no"


async def test_other_failures_fail_open(tmp_path: Path) -> None:
    d = await _dispatch(_registry(tmp_path, "sys.exit(1)"))
    assert not d.blocked


def test_a_continuation_is_stop_hook_active() -> None:
    stop = _example("stop")
    assert decode_payload(stop).input.stop_hook_active is False
    assert decode_payload({**stop, "loop_count": 2}).input.stop_hook_active is True


async def test_stop_context_keeps_going_as_a_follow_up() -> None:
    result = await answer(_example("stop"), StopOutput(additional_context="also run lint"))
    assert text(result) == '{"followup_message":"also run lint"}'
