"""Kiro CLI 2.x hooks through ``agent-hooks run --dialect kiro``: its payloads decode
without diagnostics, a block is exit 2 with the reason on stderr, and context for
``agentSpawn`` / ``userPromptSubmit`` is plain stdout."""

from __future__ import annotations

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

EXAMPLES: list[tuple[dict[str, Any], str, dict[str, Any]]] = [
    ({"hook_event_name": "agentSpawn", "cwd": "/w"}, "SessionStart", {}),
    (
        {"hook_event_name": "userPromptSubmit", "cwd": "/w", "prompt": "hi"},
        "UserPromptSubmit",
        {"prompt": "hi"},
    ),
    (
        {
            "hook_event_name": "preToolUse",
            "cwd": "/w",
            "tool_name": "execute_bash",
            "tool_input": {"command": "ls"},
        },
        "PreToolUse",
        {"tool_name": "Bash", "tool_input": {"command": "ls"}},
    ),
    (
        {
            "hook_event_name": "postToolUse",
            "cwd": "/w",
            "tool_name": "fs_write",
            "tool_input": {"path": "a.rs", "file_text": "x"},
            "tool_response": {"success": True, "result": ["ok"]},
        },
        "PostToolUse",
        {"tool_name": "Write", "tool_input": {"file_path": "a.rs", "content": "x"}},
    ),
    ({"hook_event_name": "stop", "cwd": "/w"}, "Stop", {}),
]


@pytest.mark.parametrize(("payload", "event", "fields"), EXAMPLES, ids=[e[1] for e in EXAMPLES])
def test_payloads_decode_without_diagnostics(
    payload: dict[str, Any], event: str, fields: dict[str, Any]
) -> None:
    decoded = agent_hooks.decode_payload(payload, dialect="kiro")
    assert decoded.diagnostics == ()
    assert decoded.input.hook_event_name == event
    for key, value in fields.items():
        assert getattr(decoded.input, key) == value


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    ctx = root / "ctx.sh"
    session_start = [{"hooks": [{"type": "command", "command": str(ctx)}]}]
    guard_project(root, GUARD, {"SessionStart": session_start})
    ctx.write_text(
        "#!/bin/sh\ncat >/dev/null\n"
        'echo \'{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"repo is clean"}}\'\n'
    )
    ctx.chmod(0o755)
    return root


def run(project: Path, data: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return agent_hooks_run(project, data, "--dialect", "kiro", hide=("CLAUDE_",))


def shell(project: Path, command: str) -> dict[str, Any]:
    return {
        "hook_event_name": "preToolUse",
        "cwd": str(project),
        "tool_name": "execute_bash",
        "tool_input": {"command": command},
    }


def test_one_claude_guard_blocks_rm_rf_with_exit_2(project: Path) -> None:
    proc = run(project, shell(project, "rm -rf /"))
    assert proc.returncode == 2
    assert proc.stdout == "" and proc.stderr.strip() == "rm -rf / is not allowed"


def test_a_harmless_command_passes_silently(project: Path) -> None:
    proc = run(project, shell(project, "ls"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""


def test_agent_spawn_context_is_plain_stdout(project: Path) -> None:
    proc = run(project, {"hook_event_name": "agentSpawn", "cwd": str(project)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "repo is clean"
