"""Hermes Agent through ``agent-hooks run``: its payloads (snake_case plugin events,
``extra``, ``null`` tool fields on other events) decode without diagnostics,
``terminal`` reaches a Claude-style guard as ``Bash``, and the answer is Hermes' own
``{"action": "block", "message"}`` (``approve`` for ask); a hook written for Hermes
gets Hermes' payload back, and either of its block spellings blocks."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import PreToolUseOutput, UserPromptSubmitOutput
from agent_hooks._wire._translate import answer_to_native
from tests.dialect_helpers import agent_hooks_run, guard_project

GUARD = """#!/bin/sh
payload=$(cat)
case "$payload" in
  *'"tool_name":"Bash"'*'rm -rf /'*) echo "rm -rf / is not allowed" >&2; exit 2;;
esac
exit 0
"""

BASE = {"session_id": "sess_abc123", "cwd": "/w", "profile": "default"}


def _event(name: str, tool: str | None = None, args: Any = None, **extra: Any) -> dict[str, Any]:
    return {"hook_event_name": name, "tool_name": tool, "tool_input": args, **BASE, "extra": extra}


EXAMPLES: list[tuple[dict[str, Any], str, str | None]] = [
    (_event("pre_tool_call", "terminal", {"command": "ls"}, task_id="t-1"), "PreToolUse", "Bash"),
    (_event("post_tool_call", "patch", {"new_string": "x"}, result="ok"), "PostToolUse", "Edit"),
    (_event("pre_llm_call", user_message="hi"), "UserPromptSubmit", None),
    (_event("post_llm_call"), "post_llm_call", None),
    (_event("on_session_start"), "SessionStart", None),
    (_event("on_session_end"), "SessionEnd", None),
    (_event("subagent_start", child_id="c1"), "SubagentStart", None),
    (_event("subagent_stop", child_id="c1"), "SubagentStop", None),
    (_event("pre_verify"), "pre_verify", None),
    (_event("pre_approval_request", tool="terminal"), "pre_approval_request", None),
]


@pytest.mark.parametrize(("data", "canonical", "tool"), EXAMPLES)
def test_payloads_decode_without_diagnostics(
    data: dict[str, Any], canonical: str, tool: str | None
) -> None:
    decoded = agent_hooks.decode_payload(data)  # detected by its event names
    assert decoded.diagnostics == ()
    assert str(decoded.input.event) == canonical
    if tool is not None:
        assert decoded.input.tool_name == tool
    assert decoded.input.session_id == "sess_abc123"


def _answer(output: Any, event: str) -> tuple[dict[str, Any], list[str]]:
    wire = agent_hooks.get_dialect("hermes").native
    assert wire is not None
    native = wire.by_name(event)
    assert native is not None
    answer, diags = answer_to_native(output, wire, native)
    return answer, [d.code.value for d in diags]


def test_answers_are_in_hermes_shape() -> None:
    deny = PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")
    assert _answer(deny, "pre_tool_call") == ({"action": "block", "message": "no"}, [])
    ask = PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?")
    assert _answer(ask, "pre_tool_call") == ({"action": "approve", "message": "sure?"}, [])
    # Hermes has no allow (Claude's approve is not read there): the call goes ahead anyway
    allow = PreToolUseOutput(permission_decision="allow")
    assert _answer(allow, "pre_tool_call") == ({}, ["not_expressible"])
    context = UserPromptSubmitOutput(additional_context="Today is Friday")
    assert _answer(context, "pre_llm_call") == ({"context": "Today is Friday"}, [])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


def run(project: Path, data: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    return agent_hooks_run(project, data, *args, hide=("CLAUDE_", "HERMES_"))


def test_the_claude_guard_blocks_terminal(project: Path) -> None:
    bad = _event("pre_tool_call", "terminal", {"command": "rm -rf /"})
    proc = run(project, {**bad, "cwd": str(project)}, "--dialect", "hermes")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"action": "block", "message": "rm -rf / is not allowed"}
    ok = run(project, {**bad, "cwd": str(project), "tool_input": {"command": "ls"}})
    assert ok.returncode == 0 and ok.stdout.strip() == "{}"


def test_fail_closed_exits_2_which_hermes_blocks_on(project: Path) -> None:
    proc = run(
        project, {"hook_event_name": "pre_tool_call"}, "--dialect", "hermes", "--fail-closed"
    )
    assert proc.returncode == 2


@pytest.mark.parametrize(
    "printed",
    ['{"decision":"block","reason":"no secrets"}', '{"action":"block","message":"no secrets"}'],
)
def test_a_hermes_hook_gets_its_payload_and_either_block_spelling_blocks(
    project: Path, printed: str
) -> None:
    pytest.importorskip("yaml")
    seen = project / "seen.json"
    script = project / "scan.sh"
    script.write_text(f"#!/bin/sh\ncat > {seen}\necho '{printed}'\n")
    script.chmod(0o755)
    home = project.parent / "home"
    config = home / ".hermes" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(
        textwrap.dedent(
            f"""\
            hooks:
              pre_tool_call:
                - matcher: "terminal|write_file"
                  command: "{script}"
            """
        )
    )
    data = {**_event("pre_tool_call", "terminal", {"command": "cat .env"}), "cwd": str(project)}
    proc = agent_hooks_run(
        project, data, "--format", "hermes", hide=("CLAUDE_", "HERMES_"), config=config
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"action": "block", "message": "no secrets"}
    got = json.loads(seen.read_text())
    assert got["tool_name"] == "terminal" and got["hook_event_name"] == "pre_tool_call"
    assert got["extra"] == {}
