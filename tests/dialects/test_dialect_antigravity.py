"""Antigravity CLI through ``agent-hooks run``: its camelCase payloads (no event name:
``--event``; the call in ``toolCall{name, args}``, PascalCase arguments) decode without
diagnostics, ``run_command`` reaches a Claude-style guard as ``Bash``, and the answer is
Antigravity's: a PreToolUse decision always (a missing one fails closed there), Stop's
``{"decision": "continue"}``; a hook written for Antigravity gets its own payload back."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import PreToolUseOutput, StopOutput
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
    "conversationId": "c-0a1b",
    "modelName": "gemini-3.8-flash-low",
    "workspacePaths": ["/w"],
    "transcriptPath": "/t.jsonl",
    "artifactDirectoryPath": "/a",
}


def _tool(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {**COMMON, "stepIdx": 7, "toolCall": {"name": name, "args": args}}


EXAMPLES: list[tuple[str, dict[str, Any], str, str | None]] = [
    ("PreToolUse", _tool("run_command", {"CommandLine": "ls", "Cwd": "/w"}), "PreToolUse", "Bash"),
    ("PreToolUse", _tool("write_to_file", {"TargetFile": "/w/a.py"}), "PreToolUse", "Write"),
    (
        "PostToolUse",
        {**_tool("view_file", {"AbsolutePath": "/w/a"}), "error": None},
        "PostToolUse",
        "Read",
    ),
    ("PreInvocation", {**COMMON, "invocationNum": 0, "initialNumSteps": 3}, "BeforeLLMCall", None),
    ("PostInvocation", COMMON, "PostInvocation", None),
    (
        "Stop",
        {
            **COMMON,
            "executionNum": 1,
            "terminationReason": "NO_TOOL_CALL",
            "error": None,
            "fullyIdle": True,
        },
        "Stop",
        None,
    ),
]


@pytest.mark.parametrize(("event", "data", "canonical", "tool"), EXAMPLES)
def test_payloads_decode_without_diagnostics(
    event: str, data: dict[str, Any], canonical: str, tool: str | None
) -> None:
    decoded = agent_hooks.decode_payload(data, dialect="agy", event=event)
    assert decoded.diagnostics == ()
    assert str(decoded.input.event) == canonical
    assert getattr(decoded.input, "tool_name", None) == tool
    assert decoded.input.session_id == "c-0a1b" and decoded.input.cwd == "/w"


def test_command_line_is_the_bash_command() -> None:
    decoded = agent_hooks.decode_payload(EXAMPLES[0][1], dialect="antigravity", event="PreToolUse")
    assert decoded.input.tool_input == {"command": "ls", "Cwd": "/w"}


def _answer(output: Any, event: str) -> tuple[dict[str, Any], list[str]]:
    wire = agent_hooks.get_dialect("antigravity").native
    assert wire is not None
    native = wire.by_name(event)
    assert native is not None
    answer, diags = answer_to_native(output, wire, native, tool_name="Bash")
    return answer, [d.code.value for d in diags]


def test_answers_are_in_antigravity_s_shape() -> None:
    deny = PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")
    assert _answer(deny, "PreToolUse") == ({"decision": "deny", "reason": "no"}, [])
    # no verdict is still a decision: Antigravity fails closed on a missing one
    assert _answer(PreToolUseOutput(), "PreToolUse") == ({"decision": "allow"}, [])
    rewrite = PreToolUseOutput(permission_decision="allow", updated_input={"command": "ls -a"})
    assert _answer(rewrite, "PreToolUse")[0] == {
        "decision": "allow",
        "overwrite": {"CommandLine": "ls -a"},
    }
    keep_going = StopOutput(decision="block", reason="run the tests")
    assert _answer(keep_going, "Stop") == ({"decision": "continue", "reason": "run the tests"}, [])
    assert _answer(StopOutput(), "Stop") == ({}, [])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


def run(project: Path, data: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    return agent_hooks_run(project, data, "--dialect", "antigravity", *args, hide=("CLAUDE_",))


def test_the_guard_blocks_and_a_harmless_call_is_allowed(project: Path) -> None:
    bad = run(project, _tool("run_command", {"CommandLine": "rm -rf /"}), "--event", "PreToolUse")
    assert bad.returncode == 0, bad.stderr
    assert json.loads(bad.stdout) == {"decision": "deny", "reason": "rm -rf / is not allowed"}
    ok = run(project, _tool("run_command", {"CommandLine": "ls"}), "--event", "PreToolUse")
    assert ok.returncode == 0 and json.loads(ok.stdout) == {"decision": "allow"}


def test_without_its_event_the_call_fails_and_antigravity_blocks_it(project: Path) -> None:
    proc = run(project, _tool("run_command", {"CommandLine": "ls"}))
    assert proc.returncode != 0 and proc.stdout == "" and "--event" in proc.stderr
    closed = run(project, _tool("run_command", {"CommandLine": "ls"}), "--fail-closed")
    assert closed.returncode == 2 and closed.stdout == ""


def test_an_antigravity_hook_gets_its_own_payload(project: Path) -> None:
    seen = project / "seen.json"
    script = project / "gate.sh"
    script.write_text(f'#!/bin/sh\ncat > {seen}\necho \'{{"decision":"ask","reason":"sure?"}}\'\n')
    script.chmod(0o755)
    hooks = project / ".agents" / "hooks.json"
    hooks.parent.mkdir()
    gate = {"matcher": "^run_command$", "hooks": [{"type": "command", "command": str(script)}]}
    hooks.write_text(json.dumps({"safety-gate": {"PreToolUse": [gate]}}))
    data = _tool("run_command", {"CommandLine": "make", "Cwd": str(project)})
    proc = agent_hooks_run(
        project,
        data,
        "--dialect",
        "antigravity",
        "--event",
        "PreToolUse",
        "--format",
        "antigravity",
        hide=("CLAUDE_",),
        config=hooks,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"decision": "ask", "reason": "sure?"}
    got = json.loads(seen.read_text())
    assert got["toolCall"] == {
        "name": "run_command",
        "args": {"CommandLine": "make", "Cwd": str(project)},
    }
    assert got["conversationId"] == "c-0a1b" and "hook_event_name" not in got
