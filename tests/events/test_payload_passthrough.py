"""Unknown fields and nulls survive (issue 20, item 2).

Every field of a payload reaches command hooks as the harness sent it: ``null``
values, keys no class declares (at the top or nested in a typed value), values that did
not fit their field, in their order. Keys of a hook's answer that this version does not
know pass through to the harness; across handlers the last in configuration order wins
per key, and a value it replaces is reported. ``agent-hooks run`` runs in this process
(the bytes a hook gets are the point).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import (
    CommandHook,
    DiagnosticCode,
    HookMatcher,
    HookRegistry,
    PreCompactInput,
    PreToolUseInput,
    PreToolUseOutput,
    Severity,
    decode_input,
    decode_output,
    encode_input,
    encode_output,
)
from agent_hooks._wire._codec import payload_bytes
from tests.cli_inprocess import cli_in_process

NO_DAEMON = "AGENT_HOOKS_NO_DAEMON"  # (kept: tests/conftest.py keeps run in-process)


def compact(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


PRE_COMPACT = {
    "session_id": "57948015",
    "transcript_path": "/home/dev/t.jsonl",
    "cwd": "/home/dev/proj",
    "hook_event_name": "PreCompact",
    "trigger": "manual",
    "custom_instructions": None,
}

STOP = {
    "session_id": "s",
    "cwd": "/tmp",
    "prompt_id": "p",
    "hook_event_name": "Stop",
    "stop_hook_active": False,
    "last_assistant_message": None,
    "background_tasks": [{"id": "b1", "kind": "shell", "new_nested_key": None}],
    "brand_new": {"a": [None, 1]},
}


# ---------------------------------------------------------------- payloads


@pytest.mark.parametrize("payload", [PRE_COMPACT, STOP], ids=["pre-compact-null", "stop-nested"])
def test_a_decoded_payload_is_written_back_byte_for_byte(payload: dict[str, Any]) -> None:
    raw = compact(payload)
    decoded = decode_input(raw)
    assert payload_bytes(decoded.input) == raw
    assert encode_input(decoded.input) == payload


def test_the_null_is_kept_and_the_field_reads_as_unset() -> None:
    decoded = decode_input(compact(PRE_COMPACT))
    assert isinstance(decoded.input, PreCompactInput)
    assert decoded.input.custom_instructions is None
    assert decoded.diagnostics == ()


def test_a_value_that_did_not_fit_its_field_reaches_hooks_as_it_came() -> None:
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": 5}
    decoded = decode_input(compact(payload))
    assert decoded.input.tool_use_id is None  # type: ignore[attr-defined]
    assert [d.code for d in decoded.diagnostics] == [DiagnosticCode.INVALID_FIELD]
    assert encode_input(decoded.input) == payload


def test_a_changed_field_is_written_in_its_place_and_the_rest_as_it_came() -> None:
    import attrs

    payload = {
        "session_id": "s",
        "hook_event_name": "PreToolUse",
        "tool_name": "shell",
        "tool_input": {"command": "ls", "odd": None},
        "later": None,
    }
    decoded = decode_input(compact(payload))
    changed = attrs.evolve(decoded.input, tool_name="Bash", cwd="/work")
    assert encode_input(changed) == {
        "session_id": "s",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",  # changed, in its place
        "tool_input": {"command": "ls", "odd": None},
        "later": None,
        "cwd": "/work",  # not in the payload: after it
    }
    assert list(encode_input(changed)) == [
        "session_id",
        "hook_event_name",
        "tool_name",
        "tool_input",
        "later",
        "cwd",
    ]
    cleared = attrs.evolve(decoded.input, tool_input={"command": "pwd"})
    assert encode_input(cleared)["tool_input"] == {"command": "pwd"}


def test_the_payload_is_fresh_data_every_time() -> None:
    decoded = decode_input(compact(STOP))
    first = encode_input(decoded.input)
    first["brand_new"]["a"].append("x")
    first["background_tasks"][0]["id"] = "changed"
    assert encode_input(decoded.input) == STOP


def test_a_python_built_input_is_encoded_as_before() -> None:
    payload = encode_input(PreToolUseInput(tool_name="Bash", session_id="s"))
    assert payload == {
        "session_id": "s",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {},
    }


@pytest.mark.anyio
async def test_a_command_hook_gets_the_payload_the_harness_sent(tmp_path: Path) -> None:
    got = tmp_path / "got.json"
    hook = CommandHook(command=f"cat > {got}")
    registry = HookRegistry(
        {"PreCompact": [HookMatcher(hooks=[hook])], "Stop": [HookMatcher(hooks=[hook])]}
    )
    for payload in (PRE_COMPACT, {**STOP, "cwd": str(tmp_path)}):
        payload = {**payload, "cwd": str(tmp_path)}
        raw = compact(payload)
        async with registry.session(session_id=payload["session_id"], cwd=str(tmp_path)) as s:
            await s.dispatch(decode_input(raw).input)
        assert got.read_bytes() == raw


# ----------------------------------------------------------------- answers


def test_unknown_answer_keys_are_kept_and_encoded_back() -> None:
    answer = {
        "permissionDisplay": {"title": "Run it?"},
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "futureField": [1, None],
        },
    }
    decoded = decode_output("PreToolUse", answer)
    assert decoded.output == PreToolUseOutput(
        permission_decision="ask",
        extra={"permissionDisplay": {"title": "Run it?"}},
        extra_specific={"futureField": [1, None]},
    )
    assert all(
        d.code is DiagnosticCode.UNKNOWN_FIELD and d.severity is Severity.INFO
        for d in decoded.diagnostics
    )
    assert decoded.output is not None
    assert encode_output(decoded.output) == answer


def test_an_echoed_payload_key_is_not_passed_on() -> None:
    decoded = decode_output("PreToolUse", {"tool_name": "Bash", "hook_event_name": "PreToolUse"})
    assert decoded.output == PreToolUseOutput()
    assert {d.severity for d in decoded.diagnostics} == {Severity.WARNING}


def test_known_keys_of_another_event_are_still_dropped() -> None:
    decoded = decode_output("Stop", {"hookSpecificOutput": {"updatedInput": {}}})
    assert decoded.output is not None
    assert decoded.output.extra_specific == {}
    assert [d.code for d in decoded.diagnostics] == [DiagnosticCode.UNSUPPORTED_FIELD]


@pytest.mark.anyio
async def test_one_handler_passes_unknown_keys_on_and_a_merge_reports_what_it_drops() -> None:
    def echo(obj: Any, name: str) -> CommandHook:
        return CommandHook(command=f"printf '%s' '{json.dumps(obj)}'", name=name)

    one = {"future": 1, "hookSpecificOutput": {"hookEventName": "PreToolUse", "f": "a"}}
    two = {"future": 2, "other": True, "hookSpecificOutput": {"f": "a", "g": "b"}}
    call = PreToolUseInput(tool_name="Bash")

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[echo(one, "one")])]})
    async with registry.session(session_id="s") as session:
        decision = await session.dispatch(call)
    assert encode_output(decision.output) == one
    assert not [d for d in decision.diagnostics if d.code is DiagnosticCode.OVERRIDDEN]

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[echo(one, "one"), echo(two, "two")])]}
    )
    async with registry.session(session_id="s") as session:
        decision = await session.dispatch(call)
    assert encode_output(decision.output) == {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "f": "a", "g": "b"},
        "future": 2,
        "other": True,
    }
    (overridden,) = [d for d in decision.diagnostics if d.code is DiagnosticCode.OVERRIDDEN]
    assert "future from one" in overridden.message and "overridden by two" in overridden.message
    assert overridden.handler == "two"


def test_a_background_answer_passes_no_unknown_keys() -> None:
    """Fire-and-forget answers may only add context and messages; a key this version
    does not know might decide something, so it is not kept."""
    from agent_hooks._wire._outputs import strip_decisions

    answer = PreToolUseOutput(
        system_message="hi",
        extra={"future": 1},
        extra_specific={"g": 2},
        permission_decision="deny",
    )
    assert strip_decisions(answer) == PreToolUseOutput(system_message="hi")


# ---------------------------------------------------------------- the CLI


def test_run_passes_a_pre_compact_null_and_an_answers_unknown_keys(tmp_path: Path) -> None:
    project = tmp_path / "project"
    conf = tmp_path / "conf"
    project.mkdir()
    conf.mkdir()
    got = tmp_path / "got.json"
    answer = {"systemMessage": "ok", "futureTopLevel": {"x": None}}
    config = conf / "settings.json"
    config.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreCompact": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": f"cat > {got}; printf '%s' '{json.dumps(answer)}'",
                                }
                            ]
                        }
                    ]
                }
            }
        )
    )
    raw = compact({**PRE_COMPACT, "cwd": str(project)})
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "AGENT_HOOKS_")) or k == NO_DAEMON
    }
    env.update(HOME=str(tmp_path / "home"), XDG_STATE_HOME=str(tmp_path / "state"))
    proc = cli_in_process(["run", "--config", str(config)], env=env, cwd=tmp_path, input=raw)
    assert proc.returncode == 0, proc.stderr
    assert got.read_bytes() == raw
    assert json.loads(proc.stdout) == answer
