"""One Claude-style guard, a shell script in ``.claude/settings.json``, blocks ``rm -rf /``
whichever harness calls ``agent-hooks run``: Claude Code's PreToolUse, Copilot's
``preToolUse`` (``bash``), Cursor's ``beforeShellExecution`` and Gemini CLI's
``BeforeTool`` (``run_shell_command``), each answered in its own format. The guard
always gets a Claude-shaped payload (``tool_name: "Bash"``)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.dialect_helpers import agent_hooks_run, guard_project

GUARD = """#!/bin/sh
payload=$(cat)
printf '%s' "$payload" >> "$(dirname "$0")/seen.jsonl"
echo >> "$(dirname "$0")/seen.jsonl"
case "$payload" in
  *'"tool_name":"Bash"'*'rm -rf /'*) echo "rm -rf / is not allowed" >&2; exit 2;;
esac
exit 0
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


def run(project: Path, payload: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    return agent_hooks_run(project, payload, *args, hide=("CLAUDE_", "COPILOT_"))


def cases(cwd: str, command: str) -> list[tuple[str, dict[str, Any], list[str]]]:
    return [
        (
            "claude",
            {
                "session_id": "s",
                "transcript_path": "/t",
                "cwd": cwd,
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": command},
            },
            [],
        ),
        (
            "copilot",
            {
                "sessionId": "s",
                "timestamp": 1764599339751,
                "cwd": cwd,
                "toolName": "bash",
                "toolArgs": {"command": command, "description": "x"},
            },
            ["--event", "preToolUse"],
        ),
        (
            "cursor",
            {
                "conversation_id": "c",
                "generation_id": "g",
                "hook_event_name": "beforeShellExecution",
                "workspace_roots": [cwd],
                "command": command,
                "cwd": cwd,
                "sandbox": False,
            },
            [],
        ),
        (
            "gemini",
            {
                "session_id": "s",
                "transcript_path": "/t",
                "cwd": cwd,
                "hook_event_name": "BeforeTool",
                "timestamp": "2026-12-01T14:28:59.751Z",
                "tool_name": "run_shell_command",
                "tool_input": {"command": command},
            },
            [],
        ),
        (
            "codebuddy",
            {
                "session_id": "s",
                "transcript_path": "/home/dev/.codebuddy/projects/p/00893aaf.jsonl",
                "cwd": cwd,
                "permission_mode": "default",
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": command},
            },
            ["--dialect", "codebuddy"],
        ),
        (
            "kimi",
            {
                "hook_event_name": "PreToolUse",
                "session_id": "session_abc",
                "session_title": "Fix the login page",
                "client_type": "kimi_code_cli",
                "cwd": cwd,
                "tool_name": "Bash",
                "tool_input": {"command": command},
                "tool_call_id": "call_7",
            },
            [],
        ),
        (
            "crush",
            {
                "event": "PreToolUse",
                "session_id": "313909e",
                "cwd": cwd,
                "tool_name": "bash",
                "tool_input": {"command": command},
            },
            ["--dialect", "crush"],
        ),
        (
            "vibe",
            {
                "hook_event_name": "pre_tool",
                "session_id": "s-1",
                "parent_session_id": None,
                "transcript_path": "/home/dev/.vibe/sessions/s-1.jsonl",
                "cwd": cwd,
                "tool_name": "bash",
                "tool_call_id": "call_42",
                "tool_input": {"command": command},
            },
            [],
        ),
    ]


DENIED = {
    "claude": '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",'
    '"permissionDecisionReason":"rm -rf / is not allowed"}}',
    "copilot": '{"permissionDecision":"deny","permissionDecisionReason":"rm -rf / is not allowed"}',
    "cursor": '{"permission":"deny","user_message":"rm -rf / is not allowed",'
    '"agent_message":"rm -rf / is not allowed"}',
    "gemini": '{"decision":"deny","reason":"rm -rf / is not allowed"}',
    "codebuddy": '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":'
    '"deny","permissionDecisionReason":"rm -rf / is not allowed"}}',
    "kimi": '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":'
    '"deny","permissionDecisionReason":"rm -rf / is not allowed"}}',
    "crush": '{"decision":"deny","reason":"rm -rf / is not allowed"}',
    "vibe": '{"decision":"deny","reason":"rm -rf / is not allowed"}',
}


@pytest.mark.parametrize("harness", list(DENIED))
def test_one_guard_blocks_rm_rf_in_every_harness(project: Path, harness: str) -> None:
    name, payload, args = next(c for c in cases(str(project), "rm -rf /") if c[0] == harness)
    proc = run(project, payload, *args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == DENIED[name]
    seen = [json.loads(line) for line in (project / "seen.jsonl").read_text().splitlines()]
    assert seen[-1]["hook_event_name"] == "PreToolUse" and seen[-1]["tool_name"] == "Bash"
    assert seen[-1]["tool_input"]["command"] == "rm -rf /"


@pytest.mark.parametrize("harness", list(DENIED))
def test_a_harmless_command_passes(project: Path, harness: str) -> None:
    _name, payload, args = next(c for c in cases(str(project), "ls") if c[0] == harness)
    proc = run(project, payload, *args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "{}"


def test_the_dialect_can_be_named(project: Path) -> None:
    _, payload, _ = cases(str(project), "rm -rf /")[3]
    proc = run(project, payload, "--dialect", "gemini-cli")
    assert proc.stdout.strip() == DENIED["gemini"]


def test_copilot_is_told_a_bad_payload_without_failing_its_tool_closed(project: Path) -> None:
    proc = run(project, {"sessionId": "s", "toolName": "bash"}, "--dialect", "copilot")
    assert proc.returncode == 0 and proc.stdout == ""
    assert "--event" in proc.stderr
    proc = run(
        project, {"sessionId": "s", "toolName": "bash"}, "--dialect", "copilot", "--fail-closed"
    )
    assert proc.returncode == 2


def test_an_unknown_dialect_is_an_error(project: Path) -> None:
    proc = run(project, {"hook_event_name": "PreToolUse"}, "--dialect", "vim")
    assert proc.returncode == 1 and "unknown dialect" in proc.stderr


# ---------------------------------------------------------------- Devin, Antigravity, Hermes
# (each: the payload its digest shows, the arguments its installed entry passes, its deny)
MORE: dict[str, tuple[dict[str, Any], list[str], dict[str, Any]]] = {
    "devin": (
        {
            "session_id": "ses_01",
            "prompt_id": "p_07",
            "tool_name": "exec",
            "tool_input": {"command": "rm -rf /", "shell_id": "main"},
        },
        ["--dialect", "devin", "--event", "PreToolUse"],
        {"decision": "block", "reason": "rm -rf / is not allowed"},
    ),
}

MORE["antigravity"] = (
    {
        "conversationId": "c-0a1b",
        "stepIdx": 7,
        "modelName": "gemini-3.8-flash-low",
        "workspacePaths": ["{cwd}"],
        "transcriptPath": "/t.jsonl",
        "artifactDirectoryPath": "/a",
        "toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf /", "Cwd": "{cwd}"}},
    },
    ["--dialect", "antigravity", "--event", "PreToolUse"],
    {"decision": "deny", "reason": "rm -rf / is not allowed"},
)

MORE["hermes"] = (
    {
        "hook_event_name": "pre_tool_call",
        "tool_name": "terminal",
        "tool_input": {"command": "rm -rf /"},
        "session_id": "sess_abc123",
        "cwd": "{cwd}",
        "profile": "default",
        "extra": {"task_id": "t-1", "tool_call_id": "call_9"},
    },
    ["--dialect", "hermes"],
    {"action": "block", "message": "rm -rf / is not allowed"},
)


@pytest.mark.parametrize("harness", sorted(MORE))
def test_the_guard_blocks_in_the_newer_harnesses(project: Path, harness: str) -> None:
    payload, args, denied = MORE[harness]
    payload = json.loads(json.dumps(payload).replace("{cwd}", str(project)))
    proc = run(project, payload, *args)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == denied
    seen = [json.loads(line) for line in (project / "seen.jsonl").read_text().splitlines()]
    assert seen[-1]["hook_event_name"] == "PreToolUse" and seen[-1]["tool_name"] == "Bash"
    assert seen[-1]["tool_input"]["command"] == "rm -rf /"
