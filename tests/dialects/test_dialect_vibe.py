"""Mistral Vibe through ``agent-hooks run``: its ``pre_tool``, ``post_tool`` and
``post_agent`` payloads decode without diagnostics, a Claude-style guard blocks it as
``{"decision": "deny", "reason": ...}`` (always with a reason: Vibe lets a reasonless
deny through), and its own hooks' answers and ``strict`` switch are read as Vibe reads
them."""

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
COMMON = {
    "session_id": "s-1",
    "parent_session_id": None,
    "transcript_path": "/home/dev/.vibe/sessions/s-1.jsonl",
    "cwd": "/home/dev/project",
}


def pre(cwd: str = "/home/dev/project", tool: str = "bash", **tool_input: Any) -> dict[str, Any]:
    return {
        "hook_event_name": "pre_tool",
        **COMMON,
        "cwd": cwd,
        "tool_name": tool,
        "tool_call_id": "call_42",
        "tool_input": tool_input or {"command": "ls"},
    }


POST = {
    **pre(),
    "hook_event_name": "post_tool",
    "tool_status": "success",
    "tool_output": {"stdout": "a\n"},
    "tool_output_text": "a\n",
    "tool_error": None,
    "duration_ms": 12,
}
AGENT = {"hook_event_name": "post_agent", **COMMON, "agent_name": "default"}


@pytest.mark.parametrize(
    ("data", "event", "tool"),
    [
        (pre(), "PreToolUse", "Bash"),
        (pre(tool="read_file", path="/w/a.py", offset=0, limit=50), "PreToolUse", "Read"),
        (pre(tool="github_create_issue", title="x"), "PreToolUse", "github_create_issue"),
        (POST, "PostToolUse", "Bash"),
        (AGENT, "Stop", None),
    ],
)
def test_payloads_decode_without_diagnostics(
    data: dict[str, Any], event: str, tool: str | None
) -> None:
    decoded = agent_hooks.decode_payload(data)
    assert decoded.dialect.name == "vibe"
    assert decoded.diagnostics == ()
    assert decoded.input.event == event
    assert getattr(decoded.input, "tool_name", None) == tool


def test_read_file_path_is_file_path() -> None:
    decoded = agent_hooks.decode_payload(pre(tool="read_file", path="/w/a.py"))
    assert isinstance(decoded.input, agent_hooks.PreToolUseInput)
    assert decoded.input.tool_input == {"file_path": "/w/a.py"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


def test_one_claude_guard_blocks_rm_rf(project: Path) -> None:
    data = pre(str(project), command="rm -rf /")
    proc = agent_hooks_run(project, data, "--dialect", "vibe", hide=("CLAUDE_", "VIBE_"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"decision": "deny", "reason": "rm -rf / is not allowed"}
    proc = agent_hooks_run(project, pre(str(project)), hide=("CLAUDE_", "VIBE_"))
    assert proc.returncode == 0 and json.loads(proc.stdout) == {}


def test_a_deny_always_carries_a_reason_and_ask_is_a_deny() -> None:
    wire = agent_hooks.get_dialect("vibe").native
    assert wire is not None
    native = wire.by_name("pre_tool")
    assert native is not None
    answer, _ = answer_to_native(PreToolUseOutput(permission_decision="deny"), wire, native)
    assert answer == {"decision": "deny", "reason": "denied by a pre_tool hook"}
    answer, diags = answer_to_native(
        PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?"),
        wire,
        native,
    )
    assert answer == {"decision": "deny", "reason": "sure?"}
    assert [d.code.value for d in diags] == ["not_expressible"]
    answer, _ = answer_to_native(
        PreToolUseOutput(permission_decision="allow", updated_input={"command": "ls -la"}),
        wire,
        native,
    )
    assert answer == {
        "decision": "allow",
        "hook_specific_output": {"hookEventName": "pre_tool", "tool_input": {"command": "ls -la"}},
    }


def _vibe_project(tmp_path: Path, body: str, script: str) -> Path:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / ".vibe").mkdir()
    hook = project / "hook.sh"
    hook.write_text("#!/bin/sh\ncat > \"$(dirname \"$0\")/seen.json\"\n" + script)
    hook.chmod(0o755)
    (project / ".vibe" / "hooks.toml").write_text(body.replace("HOOK", str(hook)))
    return project


def _run(project: Path, data: dict[str, Any], *args: str) -> Any:
    proc = agent_hooks_run(
        project, data, *args, hide=("CLAUDE_", "VIBE_"), config=project / ".vibe" / "hooks.toml"
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


PRE_HOOK = '[[hooks]]\nname = "guard"\ntype = "pre_tool"\nmatch = "bash"\ncommand = "HOOK"\n'


def test_a_vibe_hook_gets_vibes_payload_and_its_deny_is_read(tmp_path: Path) -> None:
    said = {"decision": "deny", "reason": "not on main"}
    project = _vibe_project(tmp_path, PRE_HOOK, f"echo '{json.dumps(said)}'\n")
    assert _run(project, pre(str(project), command="git push")) == said
    sent = json.loads((project / "seen.json").read_text())
    assert (sent["hook_event_name"], sent["tool_name"]) == ("pre_tool", "bash")
    assert sent["tool_call_id"] == "call_42"
    claude = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git push"},
    }
    answer = _run(project, claude)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny" and answer["permissionDecisionReason"] == "not on main"


def test_a_rewrite_from_a_vibe_hook_is_the_whole_new_input(tmp_path: Path) -> None:
    said = {"hook_specific_output": {"tool_input": {"command": "ls -la"}}}
    project = _vibe_project(tmp_path, PRE_HOOK, f"echo '{json.dumps(said)}'\n")
    answer = _run(project, pre(str(project)))
    assert answer["hook_specific_output"]["tool_input"] == {"command": "ls -la"}


@pytest.mark.parametrize(("strict", "denied"), [(False, False), (True, True)])
def test_strict_makes_a_failure_deny(tmp_path: Path, strict: bool, denied: bool) -> None:
    body = PRE_HOOK + ("strict = true\n" if strict else "")
    project = _vibe_project(tmp_path, body, "echo 'crashed' >&2\nexit 1\n")
    answer = _run(project, pre(str(project)))
    assert (answer.get("decision") == "deny") is denied
    if denied:
        assert answer["reason"]


def test_fail_closed_denies_in_its_shape(tmp_path: Path) -> None:
    project = _vibe_project(tmp_path, PRE_HOOK, "exit 1\n")
    answer = _run(project, pre(str(project)), "--fail-closed")
    assert answer["decision"] == "deny" and answer["reason"]


def test_a_post_agent_deny_keeps_the_agent_going(tmp_path: Path) -> None:
    body = '[[hooks]]\nname = "tests"\ntype = "post_agent"\ncommand = "HOOK"\n'
    said = {"decision": "deny", "reason": "run the tests first"}
    project = _vibe_project(tmp_path, body, f"echo '{json.dumps(said)}'\n")
    assert _run(project, {**AGENT, "cwd": str(project)}) == said
    claude = {"session_id": "s", "cwd": str(project), "hook_event_name": "Stop"}
    assert _run(project, claude) == {"decision": "block", "reason": "run the tests first"}
