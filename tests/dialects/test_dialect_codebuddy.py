"""CodeBuddy Code through ``agent-hooks run``: where its answers differ from Claude
Code's (a rewrite is ``modifiedInput``, a prompt block is ``continue: false``, and on
Stop ``continue: false`` keeps the agent going), each is written and read the way
CodeBuddy means it, and a deny never comes back as an allow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from tests.dialect_helpers import agent_hooks_run


def _payload(event: str, cwd: str, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": "abc123",
        "transcript_path": "/home/dev/.codebuddy/projects/p/00893aaf.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": event,
        **fields,
    }


def _project(tmp_path: Path, event: str, script: str, matcher: str | None = None) -> Path:
    """A project whose ``.codebuddy/settings.json`` runs ``script`` on ``event``."""
    project = tmp_path / "proj"
    (project / ".codebuddy").mkdir(parents=True)
    hook = project / "hook.sh"
    hook.write_text("#!/bin/sh\ncat > /dev/null\n" + script)
    hook.chmod(0o755)
    group: dict[str, Any] = {
        "hooks": [{"type": "command", "command": '"$CODEBUDDY_PROJECT_DIR"/hook.sh'}]
    }
    if matcher is not None:
        group["matcher"] = matcher
    settings = {"hooks": {event: [group]}}
    (project / ".codebuddy" / "settings.json").write_text(json.dumps(settings))
    return project


def _run(project: Path, payload: dict[str, Any], *args: str) -> Any:
    proc = agent_hooks_run(
        project,
        payload,
        "--dialect",
        "codebuddy",
        *args,
        hide=("CLAUDE_", "CODEBUDDY_"),
        config=project / ".codebuddy" / "settings.json",
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


EVENTS = [
    ("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}}),
    ("PostToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {}}),
    ("Notification", {"message": "waiting", "notification_type": "idle_prompt"}),
    ("UserPromptSubmit", {"prompt": "hi"}),
    ("Stop", {"stop_hook_active": False}),
    ("SubagentStop", {"stop_hook_active": False}),
    ("PreCompact", {"trigger": "manual", "custom_instructions": ""}),
    ("SessionStart", {"source": "startup"}),
    ("SessionEnd", {"reason": "other"}),
    (
        "PostToolUseFailure",
        {
            "tool_name": "Bash",
            "tool_input": {"command": "false"},
            "error": "exit 1",
            "tool_error_code": 1,
            "tool_error_name": "ToolError",
            "tool_use_id": "t1",
        },
    ),
]


@pytest.mark.parametrize(("event", "fields"), EVENTS, ids=[e for e, _ in EVENTS])
def test_documented_payloads_decode_without_diagnostics(event: str, fields: dict[str, Any]) -> None:
    decoded = agent_hooks.decode_payload(_payload(event, "/w", **fields), dialect="codebuddy")
    assert decoded.diagnostics == ()
    assert decoded.input.event == event


def test_a_stop_block_is_continue_false_which_keeps_codebuddy_going(tmp_path: Path) -> None:
    project = _project(
        tmp_path, "Stop", 'echo \'{"decision":"block","reason":"run the tests"}\'\n'
    )
    answer = _run(project, _payload("Stop", str(project), stop_hook_active=False))
    assert answer == {"continue": False, "reason": "run the tests"}


def test_a_codebuddy_stop_hook_continue_false_is_read_as_keep_going(tmp_path: Path) -> None:
    project = _project(tmp_path, "Stop", 'echo \'{"continue":false,"reason":"not done"}\'\n')
    answer = _run(project, _payload("Stop", str(project), stop_hook_active=False))
    assert answer == {"continue": False, "reason": "not done"}
    # a Claude Code caller gets the same intent in its own words: keep going
    proc = agent_hooks_run(
        project,
        _payload("Stop", str(project), stop_hook_active=False),
        hide=("CLAUDE_", "CODEBUDDY_"),
        config=project / ".codebuddy" / "settings.json",
    )
    assert json.loads(proc.stdout) == {"decision": "block", "reason": "not done"}


def test_a_claude_halt_on_stop_is_not_written_as_keep_going(tmp_path: Path) -> None:
    from agent_hooks import StopOutput
    from agent_hooks._wire._translate import answer_to_native

    wire = agent_hooks.get_dialect("codebuddy").native
    assert wire is not None
    native = wire.by_name("Stop")
    assert native is not None
    answer, _ = answer_to_native(StopOutput(continue_=False, stop_reason="halt"), wire, native)
    assert answer.get("continue") is not False


def test_a_prompt_block_is_continue_false_with_a_reason(tmp_path: Path) -> None:
    project = _project(
        tmp_path, "UserPromptSubmit", 'echo \'{"decision":"block","reason":"no secrets"}\'\n'
    )
    answer = _run(project, _payload("UserPromptSubmit", str(project), prompt="my key is x"))
    assert answer == {"continue": False, "reason": "no secrets"}


def test_a_rewrite_is_written_as_modified_input(tmp_path: Path) -> None:
    rewrite = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": {"command": "ls -la"},
        }
    }
    project = _project(tmp_path, "PreToolUse", f"echo '{json.dumps(rewrite)}'\n", "^Bash$")
    answer = _run(
        project, _payload("PreToolUse", str(project), tool_name="Bash", tool_input={"command": "ls"})
    )
    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "modifiedInput": {"command": "ls -la"},
        }
    }


def test_a_codebuddy_hooks_deny_with_modified_input_stays_a_deny(tmp_path: Path) -> None:
    said = {
        "hookSpecificOutput": {
            "permissionDecision": "deny",
            "permissionDecisionReason": "not here",
            "modifiedInput": {"command": "true"},
        }
    }
    project = _project(tmp_path, "PreToolUse", f"echo '{json.dumps(said)}'\n")
    answer = _run(
        project,
        _payload("PreToolUse", str(project), tool_name="Bash", tool_input={"command": "rm -rf /"}),
    )
    specific = answer["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"] == "not here"


def test_exit_2_blocks_and_fail_closed_blocks_a_crash(tmp_path: Path) -> None:
    project = _project(tmp_path, "PreToolUse", "echo 'stop it' >&2\nexit 2\n")
    payload = _payload("PreToolUse", str(project), tool_name="Bash", tool_input={"command": "x"})
    answer = _run(project, payload)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert answer["hookSpecificOutput"]["permissionDecisionReason"] == "stop it"
    crash = _project(tmp_path / "c", "PreToolUse", "exit 1\n")
    payload = _payload("PreToolUse", str(crash), tool_name="Bash", tool_input={"command": "x"})
    assert _run(crash, payload) == {}
    answer = _run(crash, payload, "--fail-closed")
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_project_directory_variable_is_set_for_its_hooks(tmp_path: Path) -> None:
    project = _project(tmp_path, "SessionStart", 'echo "$CODEBUDDY_PROJECT_DIR" > seen\n')
    _run(project, _payload("SessionStart", str(project), source="startup"))
    assert (project / "seen").read_text().strip() == str(project)


def test_on_exit_2_its_hooks_stdout_is_the_message_before_stderr(tmp_path: Path) -> None:
    project = _project(
        tmp_path, "PreToolUse", "echo 'use the deploy script'\necho 'stderr text' >&2\nexit 2\n"
    )
    payload = _payload("PreToolUse", str(project), tool_name="Bash", tool_input={"command": "x"})
    specific = _run(project, payload)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"] == "use the deploy script"
