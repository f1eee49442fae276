"""Cline 3.x (the CLI on its SDK runtime) sends SDK payloads even to classic
``.clinerules/hooks`` scripts (``hookName: "tool_call"`` ...): each decodes without
diagnostics onto the typed events, a Claude-style guard answers them ``{"cancel": true}``
(Cline ignores exit codes: only that JSON stops the tool), and a guard that cannot read
a payload or load its hooks under ``--fail-closed`` answers ``{"cancel": true}`` too,
with the error on stderr either way. ``agent-hooks`` runs in this process (the answer is
the point; ``run`` as a process is tests/cli/test_cli_run.py's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import TrustPolicy, discover
from tests.cli_inprocess import cli_in_process
from tests.dialect_helpers import agent_hooks_cli, agent_hooks_run, guard_project

GUARD = f"""#!{sys.executable}
import json, sys
p = json.load(sys.stdin)
if p.get("tool_name") == "Bash" and "rm -rf" in p["tool_input"].get("command", ""):
    print("rm -rf is not allowed", file=sys.stderr)
    sys.exit(2)
"""

BASE: dict[str, Any] = {
    "clineVersion": "3.0.65",
    "timestamp": "2026-12-02T08:00:00.000Z",
    "taskId": "conv_1",
    "sessionContext": {"rootSessionId": "conv_1"},
    "workspaceRoots": ["/home/dev/project"],
    "workspaceInfo": {
        "rootPath": "/home/dev/project",
        "latestGitBranchName": "main",
        "latestGitCommitHash": "abc123",
    },
    "userId": "dev",
    "agent_id": "agent_1",
    "parent_agent_id": None,
    "iteration": 2,
}


def _call(commands: Any) -> dict[str, Any]:
    return {
        "hookName": "tool_call",
        "tool_call": {"id": "call_1", "name": "run_commands", "input": {"commands": commands}},
        "preToolUse": {
            "toolName": "run_commands",
            "parameters": {"commands": json.dumps(commands)},
        },
    }


# (hookName, the event's own fields, canonical event, typed fields)
EXAMPLES: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
    (
        "tool_call",
        _call(["rm -rf build"]),
        "PreToolUse",
        {
            "tool_name": "Bash",
            "tool_input": {"command": "rm -rf build"},
            "tool_use_id": "call_1",
            "session_id": "conv_1",
        },
    ),
    (
        "tool_result",
        {
            "tool_result": {
                "id": "call_2",
                "name": "editor",
                "input": {"path": "/home/dev/project/a.ts", "old_text": "a", "new_text": "b"},
                "output": "edited",
                "durationMs": 12,
                "startedAt": "2026-12-02T08:00:00.000Z",
                "endedAt": "2026-12-02T08:00:00.012Z",
            },
            "postToolUse": {
                "toolName": "editor",
                "parameters": {"path": "/home/dev/project/a.ts", "old_text": "a", "new_text": "b"},
                "result": "edited",
                "success": True,
                "executionTimeMs": 12,
            },
        },
        "PostToolUse",
        {
            "tool_name": "Edit",
            "tool_input": {
                "file_path": "/home/dev/project/a.ts",
                "old_string": "a",
                "new_string": "b",
            },
            "tool_response": "edited",
            "duration_ms": 12,
        },
    ),
    (
        "prompt_submit",
        {"userPromptSubmit": {"prompt": "hello", "attachments": []}},
        "UserPromptSubmit",
        {"prompt": "hello"},
    ),
    ("agent_start", {}, "cline.TaskStart", {}),
    ("agent_resume", {}, "cline.TaskResume", {}),
    ("agent_abort", {"reason": "user_cancelled"}, "cline.TaskCancel", {}),
    ("agent_end", {"turn": {"text": "done"}}, "cline.TaskComplete", {}),
    (
        "agent_error",
        {"error": {"name": "Error", "message": "boom", "stack": "at x"}},
        "cline.TaskError",
        {},
    ),
    ("session_shutdown", {"reason": "exit"}, "SessionEnd", {"reason": "exit"}),
]


@pytest.mark.parametrize(("name", "own", "event", "fields"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_sdk_payloads_decode_without_diagnostics(
    name: str, own: dict[str, Any], event: str, fields: dict[str, Any]
) -> None:
    for dialect in (None, "cline"):
        decoded = agent_hooks.decode_payload({**BASE, "hookName": name, **own}, dialect=dialect)
        assert decoded.dialect is not None and decoded.dialect.name == "cline"
        assert decoded.diagnostics == ()
        assert decoded.input.hook_event_name == event
        assert decoded.input.cwd == "/home/dev/project"
        for key, value in fields.items():
            assert getattr(decoded.input, key) == value


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


def _run(project: Path, payload: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    return agent_hooks_run(project, payload, "--dialect", "cline", *args, hide=("CLAUDE_",))


def _sdk(project: Path, commands: Any) -> dict[str, Any]:
    return {**BASE, "workspaceRoots": [str(project)], **_call(commands)}


def test_a_claude_guard_cancels_rm_rf(project: Path) -> None:
    proc = _run(project, _sdk(project, ["rm -rf build"]))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"cancel": True, "errorMessage": "rm -rf is not allowed"}


def test_every_command_of_the_list_is_guarded(project: Path) -> None:
    proc = _run(project, _sdk(project, ["ls", "rm -rf build"]))
    assert json.loads(proc.stdout)["cancel"] is True, proc.stderr
    # the compatibility object's string parameters do not stand in for the call itself
    payload = _sdk(project, ["rm -rf build"])
    payload["preToolUse"]["parameters"] = {"commands": '["ls"]'}
    proc = _run(project, payload)
    assert json.loads(proc.stdout)["cancel"] is True, proc.stderr


def test_harmless_commands_pass(project: Path) -> None:
    proc = _run(project, _sdk(project, ["ls", "git status"]))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "{}"


def test_a_rewrite_is_an_override_input_in_the_sdk_shape(project: Path) -> None:
    hook = project / "rewrite.py"
    hook.write_text(
        f"#!{sys.executable}\nimport json, sys\njson.load(sys.stdin)\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
        "'updatedInput': {'command': 'ls -la'}}}))\n"
    )
    hook.chmod(0o755)
    config = project / "rewrite.json"
    config.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": str(hook)}]}
                    ]
                }
            }
        )
    )
    proc = agent_hooks_run(
        project, _sdk(project, ["ls"]), "--dialect", "cline", hide=("CLAUDE_",), config=config
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"overrideInput": {"commands": ["ls -la"]}}


def test_an_unreadable_payload_is_cancelled_under_fail_closed(project: Path) -> None:
    broken = {**BASE, "hookName": "tool_call", "workspaceRoots": [str(project)]}  # no call
    proc = _run(project, broken, "--fail-closed")
    assert proc.returncode == 2
    answer = json.loads(proc.stdout)
    assert answer["cancel"] is True and "tool_name" in answer["errorMessage"]
    assert "agent-hooks:" in proc.stderr and "tool_name" in proc.stderr
    # without --fail-closed: no answer (Cline goes on), the error on stderr
    proc = _run(project, broken)
    assert proc.stdout == "" and "tool_name" in proc.stderr


def test_bytes_that_are_no_payload_are_cancelled_under_fail_closed(project: Path) -> None:
    argv = ["run", "--dialect", "cline", "--fail-closed"]
    proc = cli_in_process(argv, env=dict(os.environ), cwd=project, input="{not json")
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["cancel"] is True
    assert "not valid JSON" in proc.stderr


def test_hooks_that_cannot_load_cancel_tool_events_only(project: Path) -> None:
    missing = project / "missing.json"
    args = ("--dialect", "cline", "--fail-closed")
    proc = agent_hooks_run(project, _sdk(project, ["ls"]), *args, hide=("CLAUDE_",), config=missing)
    assert proc.returncode == 2
    answer = json.loads(proc.stdout)
    assert answer["cancel"] is True and "no such file" in answer["errorMessage"]
    end = {**BASE, "workspaceRoots": [str(project)], "hookName": "agent_end", "turn": {}}
    proc = agent_hooks_run(project, end, *args, hide=("CLAUDE_",), config=missing)
    assert proc.returncode == 2 and proc.stdout == "" and "no such file" in proc.stderr


def test_cline_3_hook_files_load(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    hooks = project / ".clinerules" / "hooks"
    hooks.mkdir(parents=True)
    for name in ("TaskError", "SessionShutdown.sh", "tool_call"):
        (hooks / name).write_text("#!/bin/sh\nexit 0\n")
        (hooks / name).chmod(0o755)
    config = discover(
        project, home=tmp_path / "home", ecosystems=("cline",), trust=TrustPolicy(trust_all=True)
    )
    events = sorted(str(g.event) for sg in config.sources for g in sg.groups)
    assert events == ["SessionEnd", "cline.TaskError"]
    proc = agent_hooks_cli(
        "check",
        "--project-dir",
        str(project),
        "--trust-project-hooks",
        cwd=project,
        home=tmp_path / "home",
        state=tmp_path / "state",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
