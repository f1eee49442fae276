"""Windsurf's Cascade hooks through ``agent-hooks run``: its payloads (``tool_info``,
snake_case events) decode without diagnostics onto the typed events, and its answer is
an exit status (2 blocks, the reason on stderr) with nothing on stdout."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from tests.dialect_helpers import agent_hooks_run, guard_project

GUARD = """#!/bin/sh
payload=$(cat)
case "$payload" in
  *'"tool_name":"Bash"'*'rm -rf /'*) echo "rm -rf / is not allowed" >&2; exit 2;;
esac
exit 0
"""

BASE = {"trajectory_id": "t1", "execution_id": "e1", "timestamp": "2026-12-01T14:28:59Z"}

EXAMPLES: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
    ("pre_read_code", {"file_path": "/w/a.py"}, "PreToolUse", {"tool_name": "Read"}),
    ("post_read_code", {"file_path": "/w/a.py"}, "PostToolUse", {"tool_name": "Read"}),
    (
        "pre_write_code",
        {"file_path": "/w/a.py", "edits": [{"old_string": "a", "new_string": "b"}]},
        "PreToolUse",
        {"tool_name": "Edit"},
    ),
    (
        "post_write_code",
        {"file_path": "/w/a.py", "edits": [{"old_string": "a", "new_string": "b"}]},
        "PostToolUse",
        {"tool_name": "Edit"},
    ),
    (
        "pre_run_command",
        {"command_line": "npm test", "cwd": "/w"},
        "PreToolUse",
        {"tool_name": "Bash", "tool_input": {"command": "npm test"}, "cwd": "/w"},
    ),
    (
        "post_run_command",
        {"command_line": "npm test", "cwd": "/w"},
        "PostToolUse",
        {"tool_name": "Bash"},
    ),
    (
        "pre_mcp_tool_use",
        {
            "mcp_server_name": "github",
            "mcp_tool_name": "create_issue",
            "mcp_tool_arguments": {"title": "x"},
        },
        "PreToolUse",
        {"tool_name": "mcp__github__create_issue", "tool_input": {"title": "x"}},
    ),
    (
        "post_mcp_tool_use",
        {
            "mcp_server_name": "github",
            "mcp_tool_name": "create_issue",
            "mcp_tool_arguments": {"title": "x"},
            "mcp_result": "created",
        },
        "PostToolUse",
        {"tool_response": "created"},
    ),
    ("pre_user_prompt", {"user_prompt": "hello"}, "UserPromptSubmit", {"prompt": "hello"}),
    ("post_cascade_response", {"response": "# Done"}, "post_cascade_response", {}),
    (
        "post_cascade_response_with_transcript",
        {"transcript_path": "/h/.windsurf/transcripts/t1.jsonl"},
        "post_cascade_response_with_transcript",
        {},
    ),
    (
        "post_setup_worktree",
        {"worktree_path": "/w2", "root_workspace_path": "/w"},
        "post_setup_worktree",
        {},
    ),
]


def windsurf(event: str, tool_info: dict[str, Any]) -> dict[str, Any]:
    return {"agent_action_name": event, **BASE, "tool_info": tool_info}


@pytest.mark.parametrize(
    ("native", "info", "event", "fields"), EXAMPLES, ids=[e[0] for e in EXAMPLES]
)
def test_payloads_decode_without_diagnostics(
    native: str, info: dict[str, Any], event: str, fields: dict[str, Any]
) -> None:
    decoded = agent_hooks.decode_payload(windsurf(native, info))
    assert decoded.dialect is not None and decoded.dialect.name == "windsurf"
    assert decoded.diagnostics == ()
    assert decoded.input.hook_event_name == event
    assert decoded.input.session_id == "t1"
    for key, value in fields.items():
        assert getattr(decoded.input, key) == value


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


def run(
    project: Path, config: Path, data: dict[str, Any], *args: str
) -> subprocess.CompletedProcess[str]:
    return agent_hooks_run(project, data, *args, hide=("CLAUDE_",), config=config)


def test_one_claude_guard_blocks_rm_rf_with_exit_2(project: Path) -> None:
    payload = windsurf("pre_run_command", {"command_line": "rm -rf /", "cwd": str(project)})
    proc = run(project, project / ".claude" / "settings.json", payload)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip() == "rm -rf / is not allowed"


def test_a_harmless_command_passes_with_nothing_on_stdout(project: Path) -> None:
    payload = windsurf("pre_run_command", {"command_line": "ls", "cwd": str(project)})
    proc = run(project, project / ".claude" / "settings.json", payload, "--dialect", "windsurf")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""


def test_a_windsurf_hook_gets_its_own_payload_and_blocks_claude_code(project: Path) -> None:
    seen = project / "seen.json"
    script = project / "ws.sh"
    script.write_text(
        f'#!/bin/sh\ncat > {seen}\ngrep -q "rm -rf" {seen} && {{ echo "no" >&2; exit 2; }}\nexit 0\n'
    )
    script.chmod(0o755)
    config = project / ".windsurf" / "hooks.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"hooks": {"pre_run_command": [{"command": str(script)}]}}))
    claude = {
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /tmp/x"},
    }
    proc = run(project, config, claude)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    got = json.loads(seen.read_text())
    assert got["agent_action_name"] == "pre_run_command"
    assert got["tool_info"] == {"command_line": "rm -rf /tmp/x", "cwd": str(project)}
    # a read is not a command: that hook does not run
    seen.unlink()
    proc = run(project, config, {**claude, "tool_name": "Read", "tool_input": {"file_path": "x"}})
    assert proc.returncode == 0 and not seen.exists()
