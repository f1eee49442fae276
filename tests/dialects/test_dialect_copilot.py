"""GitHub Copilot CLI's wire format. Its camelCase form does not name the event in the
payload (``--event``); ``toolArgs`` may be a JSON string; tool names are its own
(``bash``, ``edit`` with ``path``/``old_str``/``new_str``). Answers are flat camelCase
(``permissionDecision``, ``modifiedArgs``, ``behavior``, ``decision``). A crash of a
preToolUse command fails closed ("hook errored"); exit 2 only denies on preToolUse and
permissionRequest. Its PascalCase, Claude-compatible form reads as Claude's."""

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
    PermissionRequestDecision,
    PermissionRequestOutput,
    PreToolUseInput,
    PreToolUseOutput,
    SessionStartOutput,
    Source,
    StopInput,
    StopOutput,
    UserPromptSubmitOutput,
)
from agent_hooks._base._errors import InvalidPayloadError
from agent_hooks._wire._codec import encode_input
from agent_hooks._wire._detect import decode_payload, detect_dialect
from agent_hooks._wire._dialects import COPILOT
from tests.dialect_examples import COPILOT as EXAMPLES
from tests.dialect_examples import Example
from tests.dialect_helpers import answer, codes, decode_example, example_ids, text

pytestmark = pytest.mark.anyio

PY = sys.executable


@pytest.mark.parametrize("dialect", [None, "copilot"])
@pytest.mark.parametrize("example", EXAMPLES, ids=example_ids(EXAMPLES))
def test_every_example_decodes_without_diagnostics(example: Example, dialect: str | None) -> None:
    native, _, payload, _, _ = example
    decoded = decode_example(example, dialect)
    assert decoded.dialect is COPILOT
    assert decoded.native_event is not None and decoded.native_event.name == native
    assert decoded.input.session_id == "c0ffee"
    again = encode_input(decoded.input, attrs.evolve(COPILOT, native_event=native))
    expected = dict(payload)
    if isinstance(expected.get("toolArgs"), str):  # a JSON string, read as the object
        expected["toolArgs"] = json.loads(expected["toolArgs"])
    assert again == expected


def test_tool_arguments_use_claude_keys() -> None:
    payload = EXAMPLES[6][2]
    decoded = decode_payload(payload, event="preToolUse")
    assert isinstance(decoded.input, PreToolUseInput)
    assert decoded.input.tool_name == "Edit"
    assert decoded.input.tool_input == {"file_path": "a.py", "old_string": "a", "new_string": "b"}


def test_the_event_must_be_named() -> None:
    with pytest.raises(InvalidPayloadError, match="--event"):
        decode_payload({"sessionId": "s", "toolName": "bash", "toolArgs": {}})
    with pytest.raises(InvalidPayloadError, match="unknown event"):
        decode_payload({"sessionId": "s"}, event="preToolUze")


def test_detection_and_the_pascal_form() -> None:
    assert detect_dialect({"sessionId": "s"}) is COPILOT
    pascal = {
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "timestamp": "2026-12-01T14:28:59.751Z",
        "cwd": "/p",
        "tool_name": "Bash",
        "tool_input": {"command": "ls", "description": "list"},
    }
    decoded = decode_payload(pascal, dialect="copilot")
    assert decoded.native_event is None and decoded.diagnostics == ()
    assert isinstance(decoded.input, PreToolUseInput) and decoded.input.tool_name == "Bash"


PRE = EXAMPLES[4][2]
EDIT = EXAMPLES[6][2]
REQUEST = EXAMPLES[7][2]
STOP = EXAMPLES[10][2]
START = EXAMPLES[0][2]
PROMPT = EXAMPLES[2][2]


@pytest.mark.parametrize(
    ("payload", "event", "output", "expected"),
    [
        (
            PRE,
            "preToolUse",
            PreToolUseOutput(permission_decision="deny", permission_decision_reason="no rm"),
            '{"permissionDecision":"deny","permissionDecisionReason":"no rm"}',
        ),
        (
            PRE,
            "preToolUse",
            PreToolUseOutput(permission_decision="ask"),
            '{"permissionDecision":"ask"}',
        ),
        (
            EDIT,
            "preToolUse",
            PreToolUseOutput(
                permission_decision="allow",
                updated_input={"file_path": "b.py", "old_string": "a", "new_string": "c"},
            ),
            '{"permissionDecision":"allow","modifiedArgs":{"path":"b.py","old_str":"a","new_str":"c"}}',
        ),
        (
            REQUEST,
            None,
            PermissionRequestOutput(
                permission_decision=PermissionRequestDecision(
                    behavior="deny", message="no", interrupt=True
                )
            ),
            '{"behavior":"deny","message":"no","interrupt":true}',
        ),
        (
            REQUEST,
            None,
            PermissionRequestOutput(
                permission_decision=PermissionRequestDecision(behavior="allow")
            ),
            '{"behavior":"allow"}',
        ),
        (
            STOP,
            "agentStop",
            StopOutput(decision="block", reason="run tests"),
            '{"decision":"block","reason":"run tests"}',
        ),
        (
            START,
            "sessionStart",
            SessionStartOutput(additional_context="ctx"),
            '{"additionalContext":"ctx"}',
        ),
        (PRE, "preToolUse", None, "{}"),
    ],
)
async def test_answers_in_copilot_shape(
    payload: Any, event: str | None, output: Any, expected: str
) -> None:
    result = await answer(payload, output, event=event)
    assert text(result) == expected
    assert "not_expressible" not in codes(result)


async def test_a_prompt_block_cannot_be_said_and_is_reported() -> None:
    result = await answer(
        PROMPT, UserPromptSubmitOutput(decision="block", reason="no"), event="userPromptSubmitted"
    )
    assert text(result) == "{}"
    assert "not_expressible" in codes(result)


async def test_continue_false_cannot_be_said_and_is_reported() -> None:
    result = await answer(
        PRE, PreToolUseOutput(continue_=False, stop_reason="halt"), event="preToolUse"
    )
    assert text(result) == "{}"
    assert "not_expressible" in codes(result)


# ---------------------------------------------------------------- hooks of a Copilot file


def _registry(tmp: Path, body: str, event: str = "PreToolUse") -> HookRegistry:
    path = tmp / "hook.py"
    path.write_text(f"import sys, json\n{body}\n", encoding="utf-8")
    return HookRegistry(
        {event: [HookMatcher(matcher="bash", hooks=[CommandHook(command=f"{PY} {path}")])]}
        if event == "PreToolUse"
        else {event: [HookMatcher(hooks=[CommandHook(command=f"{PY} {path}")])]},
        source=Source(label="copilot", dialect=COPILOT),
    )


async def _pre(registry: HookRegistry) -> Any:
    async with registry.session(session_id="s") as s:
        return await s.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "rm -rf /"})
        )


async def test_a_copilot_hook_gets_its_camel_case_payload(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    await _pre(_registry(tmp_path, f"open({str(seen)!r}, 'w').write(sys.stdin.read())"))
    payload = json.loads(seen.read_text())
    assert payload["toolName"] == "bash" and payload["toolArgs"] == {"command": "rm -rf /"}
    assert payload["sessionId"] == "s" and "hook_event_name" not in payload


async def test_its_flat_deny_blocks(tmp_path: Path) -> None:
    body = "print(json.dumps({'permissionDecision': 'deny', 'permissionDecisionReason': 'nope'}))"
    d = await _pre(_registry(tmp_path, body))
    assert d.blocked and d.reason == "nope"


@pytest.mark.parametrize("status", [1, 3, 127])
async def test_a_crashing_pre_tool_use_hook_fails_closed(tmp_path: Path, status: int) -> None:
    d = await _pre(_registry(tmp_path, f"sys.exit({status})"))
    assert d.blocked and "hook errored" in (d.reason or "")


async def test_exit_2_denies_pre_tool_use(tmp_path: Path) -> None:
    d = await _pre(_registry(tmp_path, "sys.stderr.write('no'); sys.exit(2)"))
    assert d.blocked


async def test_exit_2_on_agent_stop_is_only_a_warning(tmp_path: Path) -> None:
    registry = _registry(tmp_path, "sys.stderr.write('again'); sys.exit(2)", event="Stop")
    async with registry.session(session_id="s") as s:
        d = await s.dispatch(StopInput())
    assert not d.blocked
    assert any(x.code.value == "nonzero_exit" for x in d.diagnostics)


def test_a_pascal_permission_request_entry_still_gets_camel_case() -> None:
    """Copilot 1.0.102 sends its camelCase payload to a PascalCase PermissionRequest entry."""
    decoded = decode_payload(REQUEST, dialect="copilot", event="PermissionRequest")
    assert decoded.native_event is not None and decoded.native_event.name == "permissionRequest"
    assert decoded.input.event == "PermissionRequest" and decoded.diagnostics == ()


async def test_a_replaced_result_is_modified_result() -> None:
    from agent_hooks import PostToolUseOutput

    post = EXAMPLES[8][2]
    result = await answer(
        post, PostToolUseOutput(updated_tool_output="redacted"), event="postToolUse"
    )
    assert (
        text(result) == '{"modifiedResult":{"resultType":"success","textResultForLlm":"redacted"}}'
    )


async def test_what_has_no_place_is_reported() -> None:
    result = await answer(PRE, PreToolUseOutput(terminal_sequence="\x07"), event="preToolUse")
    assert text(result) == "{}"
    assert "not_expressible" in codes(result)
