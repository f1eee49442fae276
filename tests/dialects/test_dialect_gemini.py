"""Gemini CLI's wire format: its payloads decode into the typed events (``BeforeTool`` is
PreToolUse, ``run_shell_command`` is Bash), answers go back in its shape, its hooks get
its payloads, and its exit-code rules (2 blocks; 3 and above with text blocks, as Gemini
CLI 0.61.0 was seen to do; 1 warns)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from agent_hooks import (
    CallbackHook,
    CommandHook,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
    SessionStartOutput,
    Source,
    StopOutput,
    UserPromptSubmitOutput,
)
from agent_hooks._wire._codec import encode_input
from agent_hooks._wire._detect import detect_dialect
from agent_hooks._wire._dialects import GEMINI
from tests.dialect_examples import GEMINI as EXAMPLES
from tests.dialect_examples import Example
from tests.dialect_helpers import answer, codes, decode_example, example_ids, text

pytestmark = pytest.mark.anyio

PY = sys.executable


@pytest.mark.parametrize("dialect", [None, "gemini"])
@pytest.mark.parametrize("example", EXAMPLES, ids=example_ids(EXAMPLES))
def test_every_example_decodes_without_diagnostics(example: Example, dialect: str | None) -> None:
    native, _, payload, _, _ = example
    decoded = decode_example(example, dialect)
    if dialect is None and native in (
        "SessionStart",
        "SessionEnd",
        "Notification",
        "BeforeToolSelection",
    ):
        # names Claude Code shares, with the same payload and answer: read as Claude's
        assert decoded.dialect is None
        return
    assert decoded.dialect is GEMINI
    assert decoded.native_event is not None and decoded.native_event.name == native
    # and a Gemini hook gets it back as Gemini sent it
    again = encode_input(decoded.input, attrs.evolve(GEMINI, native_event=native))
    assert again == payload


def test_detection_by_event_name() -> None:
    assert detect_dialect({"hook_event_name": "BeforeTool"}) is GEMINI
    assert detect_dialect({"hook_event_name": "AfterAgent"}) is GEMINI
    assert detect_dialect({"hook_event_name": "PreToolUse"}) is None


BEFORE_TOOL = EXAMPLES[7][2]
AFTER_AGENT = EXAMPLES[3][2]
BEFORE_AGENT = EXAMPLES[2][2]
SESSION_START = EXAMPLES[0][2]


@pytest.mark.parametrize(
    ("payload", "output", "expected"),
    [
        (
            BEFORE_TOOL,
            PreToolUseOutput(permission_decision="deny", permission_decision_reason="no rm"),
            '{"decision":"deny","reason":"no rm"}',
        ),
        (BEFORE_TOOL, PreToolUseOutput(permission_decision="allow"), '{"decision":"allow"}'),
        (BEFORE_TOOL, PreToolUseOutput(permission_decision="ask"), '{"decision":"ask"}'),
        (
            BEFORE_TOOL,
            PreToolUseOutput(permission_decision="allow", updated_input={"command": "ls"}),
            '{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool",'
            '"tool_input":{"command":"ls"}}}',
        ),
        (
            BEFORE_TOOL,
            PreToolUseOutput(continue_=False, stop_reason="halt"),
            '{"continue":false,"stopReason":"halt"}',
        ),
        (
            AFTER_AGENT,
            StopOutput(decision="block", reason="run the tests"),
            '{"decision":"deny","reason":"run the tests"}',
        ),
        (
            BEFORE_AGENT,
            UserPromptSubmitOutput(additional_context="branch: main"),
            '{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"branch: main"}}',
        ),
        (
            BEFORE_AGENT,
            UserPromptSubmitOutput(decision="block", reason="no"),
            '{"decision":"deny","reason":"no"}',
        ),
        (BEFORE_TOOL, None, "{}"),
    ],
)
async def test_answers_in_gemini_shape(payload: Any, output: Any, expected: str) -> None:
    result = await answer(payload, output, dialect="gemini")
    assert text(result) == expected
    assert "not_expressible" not in codes(result)


async def test_session_start_context_is_claude_shaped_and_named() -> None:
    result = await answer(
        SESSION_START, SessionStartOutput(additional_context="hello"), dialect="gemini"
    )
    assert text(result) == (
        '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"hello"}}'
    )


async def test_defer_is_the_nearest_ask_with_a_diagnostic() -> None:
    result = await answer(BEFORE_TOOL, PreToolUseOutput(permission_decision="defer"))
    assert text(result) == '{"decision":"ask"}'
    assert "not_expressible" in codes(result)


# ---------------------------------------------------------------- hooks of a Gemini file


def _script(tmp: Path, body: str) -> str:
    path = tmp / "hook.py"
    path.write_text(f"import sys, json\n{body}\n", encoding="utf-8")
    return f"{PY} {path}"


def _registry(command: str) -> HookRegistry:
    return HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="run_shell_command", hooks=[CommandHook(command=command)])
            ]
        },
        source=Source(label="gemini-settings", dialect=GEMINI),
    )


async def _dispatch(registry: HookRegistry, command: str = "rm -rf /") -> Any:
    async with registry.session(session_id="s") as s:
        return await s.dispatch(PreToolUseInput(tool_name="Bash", tool_input={"command": command}))


async def test_a_gemini_hook_gets_a_gemini_payload(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    cmd = _script(tmp_path, f"open({str(seen)!r}, 'w').write(sys.stdin.read())")
    await _dispatch(_registry(cmd))
    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "BeforeTool"
    assert payload["tool_name"] == "run_shell_command"
    assert payload["tool_input"] == {"command": "rm -rf /"}


async def test_its_json_deny_blocks(tmp_path: Path) -> None:
    cmd = _script(tmp_path, "print(json.dumps({'decision': 'deny', 'reason': 'nope'}))")
    d = await _dispatch(_registry(cmd))
    assert d.blocked and d.reason == "nope"


@pytest.mark.parametrize(("status", "blocks"), [(2, True), (3, True), (7, True), (1, False)])
async def test_exit_codes(tmp_path: Path, status: int, blocks: bool) -> None:
    cmd = _script(tmp_path, f"sys.stderr.write('refused'); sys.exit({status})")
    d = await _dispatch(_registry(cmd))
    assert d.blocked is blocks
    if blocks:
        assert "refused" in (d.reason or "")


async def test_exit_three_without_text_does_not_block(tmp_path: Path) -> None:
    d = await _dispatch(_registry(_script(tmp_path, "sys.exit(3)")))
    assert not d.blocked


async def test_a_claude_if_rule_matches_gemini_shell_calls() -> None:
    seen: list[str] = []

    async def guard(input: PreToolUseInput) -> PreToolUseOutput:
        seen.append(input.tool_name)
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="rm")

    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Bash", hooks=[CallbackHook(guard, if_rule="Bash(rm *)")])
            ]
        }
    )
    async with registry.session() as s:
        d = await s.dispatch(
            PreToolUseInput(tool_name="run_shell_command", tool_input={"command": "rm -rf /"})
        )
        ok = await s.dispatch(
            PreToolUseInput(tool_name="run_shell_command", tool_input={"command": "ls"})
        )
    assert d.blocked and not ok.blocked
    assert seen == ["run_shell_command"]


async def test_keys_of_gemini_hooks_pass_through() -> None:
    """``clearContext`` (AfterAgent) is Gemini's own; a Gemini hook's answer keeps it."""
    from agent_hooks._wire._codec import decode_output

    out = decode_output(
        "Stop",
        '{"decision": "deny", "reason": "again", "hookSpecificOutput": {"clearContext": true}}',
        dialect=attrs.evolve(GEMINI, native_event="AfterAgent"),
    ).output
    assert out is not None
    result = await answer(AFTER_AGENT, out, dialect="gemini")
    assert text(result) == (
        '{"decision":"deny","reason":"again","hookSpecificOutput":'
        '{"hookEventName":"AfterAgent","clearContext":true}}'
    )
