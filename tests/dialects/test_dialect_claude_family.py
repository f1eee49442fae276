"""The Claude-compatible harnesses (Factory Droid, Qwen Code, Augment/Auggie, Goose,
OpenHands, Trae, Qoder, CodeBuddy) through ``agent-hooks run``: their payloads decode without
diagnostics, their tool names reach a Claude-style guard as Claude Code's, and the
answer comes back in the shape each reads."""

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

CLAUDE_DENY = (
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",'
    '"permissionDecisionReason":"rm -rf / is not allowed"}}'
)


def payload(harness: str, cwd: str, command: str) -> dict[str, Any]:
    """A PreToolUse payload as each harness's digest shows it."""
    common = {"session_id": "s", "transcript_path": "/t", "cwd": cwd}
    shell = {"command": command}
    payloads: dict[str, dict[str, Any]] = {
        "factory": {
            **common,
            "permission_mode": "auto-high",
            "hook_event_name": "PreToolUse",
            "tool_name": "Execute",
            "tool_input": shell,
        },
        "qwen": {
            **common,
            "hook_event_name": "PreToolUse",
            "timestamp": "2026-12-01T14:28:59.751Z",
            "permission_mode": "default",
            "tool_name": "run_shell_command",
            "tool_input": shell,
            "tool_use_id": "t1",
        },
        "augment": {
            "hook_event_name": "PreToolUse",
            "conversation_id": "c1",
            "workspace_roots": [cwd],
            "tool_name": "launch-process",
            "tool_input": shell,
            "is_mcp_tool": False,
        },
        "goose": {
            "event": "PreToolUse",
            "session_id": "s",
            "working_dir": cwd,
            "tool_name": "developer__shell",
            "tool_input": shell,
            "tool_call_id": "t1",
        },
        "openhands": {
            **common,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": shell,
        },
        "trae": {
            **common,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": shell,
        },
        "qoder": {
            **common,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": shell,
        },
        "codebuddy": {
            **common,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": shell,
        },
    }
    return payloads[harness]


DENIED = {
    "factory": CLAUDE_DENY,
    "qwen": CLAUDE_DENY,
    "augment": CLAUDE_DENY,
    "goose": '{"decision":"block","reason":"rm -rf / is not allowed"}',
    "openhands": CLAUDE_DENY,
    "trae": CLAUDE_DENY,
    "qoder": CLAUDE_DENY,
    "codebuddy": CLAUDE_DENY,
}
HARNESSES = sorted(DENIED)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return guard_project(tmp_path / "proj", GUARD)


def run(project: Path, data: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    return agent_hooks_run(project, data, *args, hide=("CLAUDE_", "FACTORY_"))


@pytest.mark.parametrize("harness", HARNESSES)
def test_payloads_decode_without_diagnostics(harness: str) -> None:
    decoded = agent_hooks.decode_payload(payload(harness, "/w", "ls"), dialect=harness)
    assert decoded.diagnostics == ()
    assert isinstance(decoded.input, agent_hooks.PreToolUseInput)
    assert decoded.input.tool_name == "Bash"
    assert decoded.input.tool_input == {"command": "ls"}
    assert decoded.input.cwd == "/w"


@pytest.mark.parametrize("harness", HARNESSES)
def test_one_guard_blocks_rm_rf(project: Path, harness: str) -> None:
    proc = run(project, payload(harness, str(project), "rm -rf /"), "--dialect", harness)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == DENIED[harness]


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_harmless_command_passes(project: Path, harness: str) -> None:
    proc = run(project, payload(harness, str(project), "ls"), "--dialect", harness)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "{}"


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("factory-droid", "factory"),
        ("droid", "factory"),
        ("qwen-code", "qwen"),
        ("auggie", "augment"),
    ],
)
def test_aliases_name_the_dialect(alias: str, name: str) -> None:
    assert agent_hooks.get_dialect(alias).name == name


def test_augment_session_and_directory_come_from_its_own_keys() -> None:
    decoded = agent_hooks.decode_payload(payload("augment", "/w", "ls"), dialect="augment")
    assert decoded.input.session_id == "c1"


def test_factory_tool_names_are_matcher_aliases_both_ways() -> None:
    aliases = agent_hooks.get_dialect("factory").tool_matcher_aliases
    assert "Bash" in aliases["Execute"] and "Execute" in aliases["Bash"]
    assert "Write" in aliases["Create"] and set(aliases["ApplyPatch"]) == {"Write", "Edit"}


def test_augment_reads_a_stop_block_inside_hook_specific_output(project: Path) -> None:
    stop = project / "stop.sh"
    stop.write_text(
        '#!/bin/sh\ncat >/dev/null\necho \'{"decision":"block","reason":"run the tests"}\'\n'
    )
    stop.chmod(0o755)
    config = project / "stop.json"
    config.write_text(
        json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": str(stop)}]}]}})
    )
    payload = {
        "hook_event_name": "Stop",
        "conversation_id": "c1",
        "workspace_roots": [str(project)],
        "agent_stop_cause": "end_turn",
    }
    proc = agent_hooks_run(
        project, payload, "--dialect", "augment", hide=("CLAUDE_",), config=config
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "Stop",
            "decision": "block",
            "reason": "run the tests",
        }
    }


def test_augment_cannot_ask_so_an_ask_is_a_deny() -> None:
    from agent_hooks import PreToolUseOutput
    from agent_hooks._wire._translate import answer_to_native

    wire = agent_hooks.get_dialect("augment").native
    assert wire is not None
    native = wire.by_name("PreToolUse")
    assert native is not None
    answer, diags = answer_to_native(
        PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?"),
        wire,
        native,
    )
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert [d.code.value for d in diags] == ["not_expressible"]
