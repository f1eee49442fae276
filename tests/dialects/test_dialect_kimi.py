"""Kimi Code through ``agent-hooks run``: its twenty events decode without diagnostics,
a Claude-style guard blocks it in its own shape (``hookSpecificOutput.permissionDecision:
"deny"``), and what Kimi cannot say (``ask``, a rewrite) is never answered as an allow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import PreToolUseOutput
from agent_hooks._wire._translate import answer_to_native
from tests.dialect_helpers import agent_hooks_run, guard_project

COMMON = {
    "session_id": "session_abc",
    "session_title": "Fix the login page",
    "client_type": "kimi_code_cli",
    "cwd": "/home/dev/project",
}
TOOL = {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}, "tool_call_id": "call_7"}
EVENTS: dict[str, dict[str, Any]] = {
    "PreToolUse": TOOL,
    "PostToolUse": {**TOOL, "tool_output": "removed"},
    "PostToolUseFailure": {**TOOL, "error": "exit status 1"},
    "PermissionRequest": TOOL,
    "PermissionResult": {**TOOL, "decision": "approved"},
    "UserPromptSubmit": {"prompt": "fix the login page", "is_steer": False},
    "UserPromptQueued": {"prompt_id": "p1", "prompt": "and the tests", "queue_length": 1},
    "TurnStarted": {"turn_id": "t1", "origin_kind": "user", "origin_name": "user", "prompt": "hi"},
    "Stop": {"stop_hook_active": False},
    "StopFailure": {"error_type": "rate_limit", "error_message": "429"},
    "Interrupt": {"turn_id": "t1", "reason": "cancelled"},
    "SessionStart": {"source": "startup", "model": "kimi-k2", "profile": "default"},
    "SessionEnd": {"reason": "exit"},
    "SessionHeartbeat": {"uptime_ms": 60000},
    "SubagentStart": {"agent_name": "coder", "prompt": "write it"},
    "SubagentStop": {"agent_name": "coder", "response": "done"},
    "TaskStarted": {
        "task_id": "k1",
        "kind": "process",
        "description": "npm test",
        "status": "running",
        "detached": False,
        "started_at": "2026-12-01T14:28:59Z",
    },
    "PreCompact": {"trigger": "auto", "token_count": 120000},
    "PostCompact": {"trigger": "auto", "estimated_token_count": 30000},
    "Notification": {"sink": "context", "type": "task.completed", "title": "npm test finished"},
}
CANONICAL = {"TurnStarted": "TurnStart"}

GUARD = """#!/bin/sh
payload=$(cat)
case "$payload" in
  *'"tool_name":"Bash"'*'rm -rf /'*) echo "rm -rf / is not allowed" >&2; exit 2;;
esac
exit 0
"""
DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "rm -rf / is not allowed",
    }
}


def payload(event: str, cwd: str = "/home/dev/project", **fields: Any) -> dict[str, Any]:
    return {"hook_event_name": event, **COMMON, "cwd": cwd, **EVENTS[event], **fields}


@pytest.mark.parametrize("event", list(EVENTS))
def test_every_event_decodes_without_diagnostics(event: str) -> None:
    decoded = agent_hooks.decode_payload(payload(event), dialect="kimi")
    assert decoded.diagnostics == ()
    assert decoded.input.event == CANONICAL.get(event, event)


def test_its_payloads_are_told_from_claude_codes_and_named_canonically() -> None:
    decoded = agent_hooks.decode_payload(payload("PostToolUse"))
    assert decoded.dialect.name == "kimi"
    assert isinstance(decoded.input, agent_hooks.PostToolUseInput)
    assert decoded.input.tool_use_id == "call_7"
    assert decoded.input.tool_response == "removed"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


@pytest.mark.parametrize("args", [("--dialect", "kimi"), ("--dialect", "kimi-code"), ()])
def test_one_claude_guard_blocks_rm_rf(project: Path, args: tuple[str, ...]) -> None:
    data = payload("PreToolUse", str(project), tool_input={"command": "rm -rf /"})
    proc = agent_hooks_run(project, data, *args, hide=("CLAUDE_", "KIMI_"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == DENY
    proc = agent_hooks_run(project, payload("PreToolUse", str(project)), *args, hide=("CLAUDE_",))
    assert proc.stdout.strip() == "{}"


def _kimi_config(tmp_path: Path, body: str) -> Path:
    config = tmp_path / "home" / ".kimi-code" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(body)
    return config


def test_a_kimi_hook_gets_kimis_payload_and_its_exit_2_blocks(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    seen = tmp_path / "seen.json"
    hook = tmp_path / "guard.sh"
    hook.write_text(f"#!/bin/sh\ncat > {seen}\necho 'not in this repo' >&2\nexit 2\n")
    hook.chmod(0o755)
    config = _kimi_config(
        tmp_path, f'[[hooks]]\nevent = "PreToolUse"\nmatcher = "Bash"\ncommand = "{hook}"\n'
    )
    claude = {
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "tool_use_id": "tu1",
    }
    proc = agent_hooks_run(project, claude, hide=("CLAUDE_", "KIMI_"), config=config)
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert answer["permissionDecisionReason"] == "not in this repo"
    sent = json.loads(seen.read_text())
    assert sent["tool_call_id"] == "tu1" and "tool_use_id" not in sent


def test_a_prompt_matcher_is_tested_against_the_prompt(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    config = _kimi_config(
        tmp_path,
        '[[hooks]]\nevent = "UserPromptSubmit"\nmatcher = "secret"\n'
        "command = \"echo 'no secrets here' >&2; exit 2\"\n",
    )
    for prompt, blocked in (("my secret key", True), ("fix it", False)):
        data = payload("UserPromptSubmit", str(project), prompt=prompt)
        proc = agent_hooks_run(project, data, hide=("CLAUDE_", "KIMI_"), config=config)
        assert proc.returncode == 0, proc.stderr
        answer = json.loads(proc.stdout)
        if blocked:
            assert answer == {
                "hookSpecificOutput": {
                    "hookEventName": "UserPromptSubmit",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "no secrets here",
                }
            }
        else:
            assert answer == {}


def _script(tmp_path: Path, name: str, answer: dict[str, Any]) -> Path:
    script = tmp_path / name
    script.write_text(f"#!/bin/sh\ncat > /dev/null\necho '{json.dumps(answer)}'\n")
    script.chmod(0o755)
    return script


def test_prompt_context_is_its_message_and_a_stop_block_keeps_going(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    says = _script(tmp_path, "says.sh", {"message": "the tests live in spec/"})
    stop = _script(
        tmp_path,
        "stop.sh",
        {
            "hookSpecificOutput": {
                "permissionDecision": "deny",
                "permissionDecisionReason": "run the tests",
            }
        },
    )
    config = _kimi_config(
        tmp_path,
        f'[[hooks]]\nevent = "UserPromptSubmit"\ncommand = "{says}"\n'
        f'[[hooks]]\nevent = "Stop"\ncommand = "{stop}"\ntimeout = 10\n',
    )
    assert agent_hooks.load(config, harness="kimi").diagnostics == ()
    proc = agent_hooks_run(
        project,
        payload("UserPromptSubmit", str(project)),
        hide=("CLAUDE_", "KIMI_"),
        config=config,
    )
    assert json.loads(proc.stdout) == {"message": "the tests live in spec/"}
    proc = agent_hooks_run(
        project, payload("Stop", str(project)), hide=("CLAUDE_", "KIMI_"), config=config
    )
    assert json.loads(proc.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "Stop",
            "permissionDecision": "deny",
            "permissionDecisionReason": "run the tests",
        }
    }
    # a Claude Code caller is told the same in its own words: keep going
    claude = {"session_id": "s", "cwd": str(project), "hook_event_name": "Stop"}
    proc = agent_hooks_run(project, claude, hide=("CLAUDE_", "KIMI_"), config=config)
    assert json.loads(proc.stdout) == {"decision": "block", "reason": "run the tests"}


def test_ask_is_a_deny_and_a_rewrite_is_said_to_be_left_out() -> None:
    wire = agent_hooks.get_dialect("kimi").native
    assert wire is not None
    native = wire.by_name("PreToolUse")
    assert native is not None
    answer, diags = answer_to_native(
        PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?"),
        wire,
        native,
    )
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert [d.code.value for d in diags] == ["not_expressible"]
    answer, diags = answer_to_native(
        PreToolUseOutput(permission_decision="allow", updated_input={"command": "ls"}),
        wire,
        native,
    )
    assert "updatedInput" not in json.dumps(answer)
    assert [d.code.value for d in diags] == ["not_expressible"]


def test_fail_closed_blocks_a_crash_in_its_shape(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    config = _kimi_config(tmp_path, '[[hooks]]\nevent = "PreToolUse"\ncommand = "exit 1"\n')
    data = payload("PreToolUse", str(project))
    proc = agent_hooks_run(project, data, hide=("CLAUDE_", "KIMI_"), config=config)
    assert proc.returncode == 0 and proc.stdout.strip() == "{}"
    proc = agent_hooks_run(
        project, data, "--fail-closed", hide=("CLAUDE_", "KIMI_"), config=config
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
