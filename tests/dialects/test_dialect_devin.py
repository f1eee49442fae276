"""Devin CLI through ``agent-hooks run``: its payloads (Claude Code's keys, ``prompt_id``,
no ``cwd``, lowercase tools) decode without diagnostics, ``exec`` reaches a Claude-style
guard as ``Bash``, and the answer is Devin's documented ``{"decision": "block"}``; a
hook written for Devin gets Devin's own payload back and ``DEVIN_PROJECT_DIR``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import PermissionRequestDecision, PermissionRequestOutput, PreToolUseOutput
from agent_hooks._wire._translate import answer_to_native
from tests.dialect_helpers import agent_hooks_run, guard_project

GUARD = """#!/bin/sh
payload=$(cat)
case "$payload" in
  *'"tool_name":"Bash"'*'rm -rf /'*) echo "rm -rf / is not allowed" >&2; exit 2;;
esac
exit 0
"""

_ID = {"session_id": "ses_01", "prompt_id": "p_07"}

# (event, payload as the digest shows it, canonical event, canonical tool)
EXAMPLES: list[tuple[str, dict[str, Any], str, str | None]] = [
    (
        "PreToolUse",
        {**_ID, "tool_name": "exec", "tool_input": {"command": "ls", "shell_id": "main"}},
        "PreToolUse",
        "Bash",
    ),
    (
        "PostToolUse",
        {
            **_ID,
            "tool_name": "edit",
            "tool_input": {"file_path": "a.py"},
            "tool_response": {"success": True, "output": "ok", "error": None},
        },
        "PostToolUse",
        "Edit",
    ),
    (
        "PermissionRequest",
        {**_ID, "tool_name": "mcp__github__create_issue", "tool_input": {"title": "t"}},
        "PermissionRequest",
        "mcp__github__create_issue",
    ),
    ("UserPromptSubmit", {**_ID, "prompt": "fix the tests"}, "UserPromptSubmit", None),
    ("Stop", {**_ID, "stop_hook_active": False}, "Stop", None),
    ("PostCompaction", {**_ID, "summary": "we fixed the tests"}, "PostCompact", None),
    ("SessionStart", {"session_id": "ses_01", "source": "startup"}, "SessionStart", None),
    ("SessionEnd", {**_ID, "reason": "exit"}, "SessionEnd", None),
]


@pytest.mark.parametrize(("event", "data", "canonical", "tool"), EXAMPLES)
@pytest.mark.parametrize("named", [True, False], ids=["hook_event_name", "--event"])
def test_payloads_decode_without_diagnostics(
    event: str, data: dict[str, Any], canonical: str, tool: str | None, named: bool
) -> None:
    payload = {**data, "hook_event_name": event} if named else data
    decoded = agent_hooks.decode_payload(payload, dialect="devin", event=None if named else event)
    assert decoded.diagnostics == ()
    assert str(decoded.input.event) == canonical
    assert getattr(decoded.input, "tool_name", None) == tool


def test_post_compaction_summary_is_the_compact_summary() -> None:
    decoded = agent_hooks.decode_payload(
        {**_ID, "hook_event_name": "PostCompaction", "summary": "s"}, dialect="devin"
    )
    assert decoded.input.compact_summary == "s"


def _answer(output: Any, event: str = "PreToolUse") -> tuple[dict[str, Any], list[str]]:
    wire = agent_hooks.get_dialect("devin").native
    assert wire is not None
    native = wire.by_name(event)
    assert native is not None
    answer, diags = answer_to_native(output, wire, native)
    return answer, [d.code.value for d in diags]


def test_answers_are_in_devin_s_shape() -> None:
    deny = PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")
    assert _answer(deny) == ({"decision": "block", "reason": "no"}, [])
    allow = PreToolUseOutput(permission_decision="allow")
    assert _answer(allow) == ({"decision": "approve"}, [])
    # no documented ask: the nearest that cannot let the call through unasked
    ask = PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?")
    assert _answer(ask) == ({"decision": "block", "reason": "sure?"}, ["not_expressible"])
    request = PermissionRequestOutput(
        permission_decision=PermissionRequestDecision(behavior="deny", message="not here")
    )
    assert _answer(request, "PermissionRequest")[0] == {"decision": "block", "reason": "not here"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


def run(project: Path, data: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    return agent_hooks_run(project, data, "--dialect", "devin", *args, hide=("CLAUDE_", "DEVIN_"))


@pytest.mark.parametrize(
    "named", [("--event", "PreToolUse"), ()], ids=["--event", "hook_event_name"]
)
def test_the_claude_guard_blocks_exec(project: Path, named: tuple[str, ...]) -> None:
    data: dict[str, Any] = {
        **_ID,
        "tool_name": "exec",
        "tool_input": {"command": "rm -rf /", "shell_id": "main"},
    }
    if not named:
        data["hook_event_name"] = "PreToolUse"
    proc = run(project, data, *named)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"decision": "block", "reason": "rm -rf / is not allowed"}
    harmless = run(project, {**data, "tool_input": {"command": "ls"}}, *named)
    assert harmless.returncode == 0 and harmless.stdout.strip() == "{}"


def test_a_payload_without_its_event_fails_open_unless_told_to_fail_closed(
    project: Path,
) -> None:
    data = {**_ID, "tool_name": "exec", "tool_input": {"command": "rm -rf /"}}
    proc = run(project, data)
    assert proc.returncode == 1 and "--event" in proc.stderr  # Devin: "failed, go on"
    proc = run(project, data, "--fail-closed")
    assert proc.returncode == 2  # Devin: exit 2 blocks


def test_a_devin_hook_gets_devin_s_payload_and_project_dir(project: Path) -> None:
    seen = project / "seen.txt"
    script = project / "check.sh"
    script.write_text(
        f'#!/bin/sh\ncat > {seen}\necho >> {seen}\necho "$DEVIN_PROJECT_DIR" >> {seen}\n'
        'echo \'{"decision":"block","reason":"not in this repo"}\'\n'
    )
    script.chmod(0o755)
    hooks = project / ".devin" / "hooks.v1.json"
    hooks.parent.mkdir()
    hooks.write_text(
        json.dumps(
            {
                "PreToolUse": [
                    {"matcher": "^exec$", "hooks": [{"type": "command", "command": str(script)}]}
                ]
            }
        )
    )
    data = {**_ID, "tool_name": "exec", "tool_input": {"command": "make"}}
    proc = agent_hooks_run(
        project,
        data,
        "--dialect",
        "devin",
        "--event",
        "PreToolUse",
        hide=("CLAUDE_", "DEVIN_"),
        config=hooks,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"decision": "block", "reason": "not in this repo"}
    first, project_dir = seen.read_text().splitlines()
    assert json.loads(first)["tool_name"] == "exec"
    assert project_dir == str(project)
