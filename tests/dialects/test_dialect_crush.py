"""Crush through ``agent-hooks run``: its PreToolUse payload (``event``, lowercase tool
names) decodes without diagnostics, a Claude-style guard blocks it in Crush's envelope
(``{"decision": "deny", "reason": ...}``), and a Crush hook's exit 49 or ``halt`` (end
the turn) is never read as an allow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import PreToolUseOutput
from agent_hooks._wire._translate import answer_to_native
from tests.dialect_helpers import agent_hooks_run, guard_project

GUARD = """#!/bin/sh
payload=$(cat)
case "$payload" in
  *'"tool_name":"Bash"'*'rm -rf /'*) echo "rm -rf / is not allowed" >&2; exit 2;;
esac
exit 0
"""


def payload(cwd: str, tool: str = "bash", **tool_input: Any) -> dict[str, Any]:
    return {
        "event": "PreToolUse",
        "session_id": "313909e",
        "cwd": cwd,
        "tool_name": tool,
        "tool_input": tool_input or {"command": "ls"},
    }


@pytest.mark.parametrize(
    ("tool", "tool_input", "canonical"),
    [
        ("bash", {"command": "rm -rf /"}, "Bash"),
        ("view", {"file_path": "/w/a.go", "offset": 0, "limit": 200}, "Read"),
        ("edit", {"file_path": "/w/a.go", "old_string": "a", "new_string": "b"}, "Edit"),
        ("write", {"file_path": "/w/b.go", "content": "package b"}, "Write"),
        ("mcp_github_create_issue", {"title": "x"}, "mcp_github_create_issue"),
    ],
)
def test_payloads_decode_without_diagnostics(
    tool: str, tool_input: dict[str, Any], canonical: str
) -> None:
    decoded = agent_hooks.decode_payload(payload("/w", tool, **tool_input), dialect="crush")
    assert decoded.diagnostics == ()
    assert isinstance(decoded.input, agent_hooks.PreToolUseInput)
    assert decoded.input.tool_name == canonical
    assert decoded.input.tool_input == tool_input
    assert decoded.input.session_id == "313909e" and decoded.input.cwd == "/w"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


def test_one_claude_guard_blocks_rm_rf_in_crushs_envelope(project: Path) -> None:
    data = payload(str(project), command="rm -rf /")
    proc = agent_hooks_run(project, data, "--dialect", "crush", hide=("CLAUDE_", "CRUSH"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"decision": "deny", "reason": "rm -rf / is not allowed"}
    proc = agent_hooks_run(project, payload(str(project)), "--dialect", "crush", hide=("CLAUDE_",))
    assert proc.returncode == 0 and proc.stdout.strip() == "{}"


def _crush_project(tmp_path: Path, script: str) -> Path:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    hook = project / "hook.sh"
    hook.write_text("#!/bin/sh\ncat > \"$(dirname \"$0\")/seen.json\"\n" + script)
    hook.chmod(0o755)
    settings = {"hooks": {"PreToolUse": [{"matcher": "^bash$", "command": str(hook)}]}}
    (project / "crush.json").write_text(json.dumps(settings))
    return project


def _run(project: Path, *args: str, caller: dict[str, Any] | None = None) -> Any:
    proc = agent_hooks_run(
        project,
        caller or payload(str(project), command="make deploy"),
        *args,
        hide=("CLAUDE_", "CRUSH"),
        config=project / "crush.json",
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_crush_hook_gets_crushs_payload_and_its_exit_2_blocks(tmp_path: Path) -> None:
    project = _crush_project(tmp_path, "echo 'not today' >&2\nexit 2\n")
    assert _run(project, "--dialect", "crush") == {"decision": "deny", "reason": "not today"}
    sent = json.loads((project / "seen.json").read_text())
    assert sent["event"] == "PreToolUse" and sent["tool_name"] == "bash"
    claude = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "make deploy"},
    }
    answer = _run(project, caller=claude)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny" and answer["permissionDecisionReason"] == "not today"


@pytest.mark.parametrize(
    "script",
    ["echo 'stop everything' >&2\nexit 49\n", "echo '{\"halt\": true, \"reason\": \"stop everything\"}'\n"],
    ids=["exit-49", "halt"],
)
def test_a_crush_hook_that_ends_the_turn_is_a_halt_not_an_allow(tmp_path: Path, script: str) -> None:
    project = _crush_project(tmp_path, script)
    answer = _run(project, "--dialect", "crush")
    assert answer["halt"] is True and answer["reason"] == "stop everything"
    assert answer.get("decision") != "allow"


def test_a_rewrite_is_updated_input_and_context_is_context(tmp_path: Path) -> None:
    said = {"decision": "allow", "updated_input": {"command": "bun test"}, "context": "use bun"}
    project = _crush_project(tmp_path, f"echo '{json.dumps(said)}'\n")
    assert _run(project, "--dialect", "crush") == said


def test_claudes_hook_specific_output_from_a_crush_hook_is_read(tmp_path: Path) -> None:
    said = {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}}
    project = _crush_project(tmp_path, f"echo '{json.dumps(said)}'\n")
    assert _run(project, "--dialect", "crush") == {"decision": "deny", "reason": "no"}


def test_ask_is_answered_deny_and_fail_closed_blocks_a_crash(tmp_path: Path) -> None:
    wire = agent_hooks.get_dialect("crush").native
    assert wire is not None
    answer, diags = answer_to_native(
        PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?"),
        wire,
        wire.events[0],
    )
    assert answer == {"decision": "deny", "reason": "sure?"}
    assert [d.code.value for d in diags] == ["not_expressible"]
    project = _crush_project(tmp_path, "exit 1\n")
    assert _run(project, "--dialect", "crush") == {}
    assert _run(project, "--dialect", "crush", "--fail-closed")["decision"] == "deny"
