"""Gemini CLI's ``sequential``: when any matching definition sets it, every matching hook
of the event runs one after another in priority order, each seeing the input as the
previous hook modified it (chained execution); without it they run in parallel."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import DiagnosticCode, Severity, TrustPolicy
from tests.dialect_helpers import agent_hooks_cli

pytestmark = pytest.mark.anyio
ALL = TrustPolicy(store=None, trust_all=True)

REWRITE = """echo '{"hookSpecificOutput":{"tool_input":{"command":"ls -la"}}}'"""


def settings(project: Path, seen: Path, *, sequential: Any) -> Path:
    """A project whose ``.gemini/settings.json`` has two BeforeTool definitions: the
    first rewrites the command, the second records the payload it was given."""
    first: dict[str, Any] = {"matcher": "run_shell_command", "hooks": [_cmd(REWRITE)]}
    if sequential is not None:
        first["sequential"] = sequential
    second = {"matcher": "run_shell_command", "hooks": [_cmd(f"cat > {seen}; echo '{{}}'")]}
    path = project / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": {"BeforeTool": [first, second]}}))
    return path


def _cmd(command: str) -> dict[str, Any]:
    return {"type": "command", "command": command, "timeout": 10000}


def payload(project: Path) -> dict[str, Any]:
    return {
        "session_id": "8f2c",
        "transcript_path": "/t.json",
        "cwd": str(project),
        "timestamp": "2026-12-01T14:28:59.751Z",
        "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "ls"},
    }


@pytest.mark.parametrize(("sequential", "seen_command"), [(True, "ls -la"), (False, "ls")])
async def test_sequential_chains_every_matching_hook(
    tmp_path: Path, sequential: bool, seen_command: str
) -> None:
    project, seen = tmp_path / "proj", tmp_path / "seen.json"
    path = settings(project, seen, sequential=sequential)
    config = agent_hooks.load(path, harness="gemini", trust=ALL)
    assert config.diagnostics == ()
    decoded = agent_hooks.decode_payload(payload(project), dialect="gemini")
    result = await agent_hooks.dispatch_payload(decoded, config.registry())
    assert json.loads(seen.read_text())["tool_input"]["command"] == seen_command
    # the tool runs with the rewritten command either way
    assert result.answer["hookSpecificOutput"]["tool_input"] == {"command": "ls -la"}


def test_a_sequential_that_is_not_a_boolean_is_a_warning(tmp_path: Path) -> None:
    path = settings(tmp_path / "proj", tmp_path / "seen.json", sequential="yes")
    (diag,) = agent_hooks.load(path, harness="gemini", trust=ALL).diagnostics
    assert diag.code is DiagnosticCode.INVALID_CONFIG and diag.severity is Severity.WARNING
    assert diag.location == "hooks.BeforeTool[0]"


@pytest.mark.parametrize(("sequential", "seen_command"), [(True, "ls -la"), (None, "ls")])
def test_agent_hooks_run_chains_a_sequential_definition(
    tmp_path: Path, sequential: bool | None, seen_command: str
) -> None:
    project, seen = tmp_path / "proj", tmp_path / "seen.json"
    path = settings(project, seen, sequential=sequential)
    proc = agent_hooks_cli(
        "run",
        "--dialect",
        "gemini",
        "--config",
        str(path),
        "--trust-project-hooks",
        cwd=project,
        home=tmp_path / "home",
        state=tmp_path / "state",
        hide=("GEMINI_",),
        payload=payload(project),
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(seen.read_text())["tool_input"]["command"] == seen_command
    assert json.loads(proc.stdout)["hookSpecificOutput"]["tool_input"] == {"command": "ls -la"}
