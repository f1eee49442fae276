"""Cline's hooks through ``agent-hooks run``: its nested camelCase payloads decode
without diagnostics onto the typed events, the answer is ``{"cancel": true,
"errorMessage": ...}`` (and ``contextModification``), and a Cline hook's exit status
never blocks: only its JSON does."""

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

COMMON = {
    "clineVersion": "4.1.13",
    "timestamp": "1764599339751",
    "taskId": "task-1",
    "workspaceRoots": ["/w"],
    "userId": "u1",
    "model": {"provider": "anthropic", "slug": "claude"},
}

EXAMPLES: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
    (
        "PreToolUse",
        {
            "preToolUse": {
                "toolName": "execute_command",
                "parameters": {"command": "npm test", "requires_approval": "false"},
            }
        },
        "PreToolUse",
        {"tool_name": "Bash"},
    ),
    (
        "PreToolUse",
        {
            "preToolUse": {
                "toolName": "write_to_file",
                "parameters": {"path": "a.ts", "content": "x"},
            }
        },
        "PreToolUse",
        {"tool_name": "Write", "tool_input": {"file_path": "a.ts", "content": "x"}},
    ),
    (
        "PostToolUse",
        {
            "postToolUse": {
                "toolName": "read_file",
                "parameters": {"path": "a.ts"},
                "result": "text",
                "success": True,
                "executionTimeMs": 12,
            }
        },
        "PostToolUse",
        {"tool_name": "Read", "tool_response": "text"},
    ),
    (
        "UserPromptSubmit",
        {"userPromptSubmit": {"prompt": "hello", "attachments": []}},
        "UserPromptSubmit",
        {"prompt": "hello"},
    ),
    (
        "TaskStart",
        {"taskStart": {"taskMetadata": {"taskId": "task-1", "ulid": "01", "initialTask": "go"}}},
        "cline.TaskStart",
        {},
    ),
    (
        "TaskResume",
        {"taskResume": {"taskMetadata": {"taskId": "task-1"}, "previousState": {}}},
        "cline.TaskResume",
        {},
    ),
    ("TaskCancel", {"taskCancel": {"taskMetadata": {"taskId": "task-1"}}}, "cline.TaskCancel", {}),
    (
        "TaskComplete",
        {"taskComplete": {"taskMetadata": {"taskId": "task-1"}}},
        "cline.TaskComplete",
        {},
    ),
]


@pytest.mark.parametrize(("native", "own", "event", "fields"), EXAMPLES)
def test_payloads_decode_without_diagnostics(
    native: str, own: dict[str, Any], event: str, fields: dict[str, Any]
) -> None:
    decoded = agent_hooks.decode_payload({**COMMON, "hookName": native, **own})
    assert decoded.dialect is not None and decoded.dialect.name == "cline"
    assert decoded.diagnostics == ()
    assert decoded.input.hook_event_name == event
    assert decoded.input.session_id == "task-1" and decoded.input.cwd == "/w"
    for key, value in fields.items():
        assert getattr(decoded.input, key) == value


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


def run(project: Path, config: Path, data: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return agent_hooks_run(project, data, hide=("CLAUDE_",), config=config)


def shell(project: Path, command: str) -> dict[str, Any]:
    return {
        **COMMON,
        "workspaceRoots": [str(project)],
        "hookName": "PreToolUse",
        "preToolUse": {"toolName": "execute_command", "parameters": {"command": command}},
    }


def test_one_claude_guard_blocks_rm_rf_as_a_cancel(project: Path) -> None:
    proc = run(project, project / ".claude" / "settings.json", shell(project, "rm -rf /"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == '{"cancel":true,"errorMessage":"rm -rf / is not allowed"}'


def test_a_harmless_command_passes(project: Path) -> None:
    proc = run(project, project / ".claude" / "settings.json", shell(project, "ls"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "{}"


def test_context_is_a_context_modification(project: Path) -> None:
    hook = project / "ctx.sh"
    hook.write_text(
        "#!/bin/sh\ncat >/dev/null\n"
        'echo \'{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"be brief"}}\'\n'
    )
    hook.chmod(0o755)
    config = project / "ctx.json"
    config.write_text(
        json.dumps(
            {
                "hooks": {
                    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": str(hook)}]}]
                }
            }
        )
    )
    payload = {
        **COMMON,
        "hookName": "UserPromptSubmit",
        "userPromptSubmit": {"prompt": "hi", "attachments": []},
    }
    proc = run(project, config, payload)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"contextModification": "be brief"}


def _cline_hook(project: Path, body: str) -> Path:
    hooks = project / ".clinerules" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    path = hooks / "PreToolUse"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def test_a_cline_hook_gets_its_own_payload_and_its_cancel_blocks_claude_code(project: Path) -> None:
    seen = project / "seen.json"
    hook = _cline_hook(
        project, f'cat > {seen}\necho \'{{"cancel":true,"errorMessage":"Use .ts files"}}\'\n'
    )
    claude = {
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "a.js", "content": "x"},
    }
    proc = run(project, hook, claude)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)["hookSpecificOutput"]
    assert (
        out["permissionDecision"] == "deny" and out["permissionDecisionReason"] == "Use .ts files"
    )
    got = json.loads(seen.read_text())
    assert got["hookName"] == "PreToolUse"
    assert got["preToolUse"] == {
        "toolName": "write_to_file",
        "parameters": {"path": "a.js", "content": "x"},
    }


def test_a_cline_hook_exit_status_never_blocks(project: Path) -> None:
    hook = _cline_hook(project, 'cat >/dev/null\necho "failed" >&2\nexit 2\n')
    proc = run(project, hook, shell(project, "rm -rf /"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "{}"
