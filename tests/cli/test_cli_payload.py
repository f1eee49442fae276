"""``agent-hooks payload``: prints a realistic payload of any event in any dialect,
with --set overrides (fields, tool_input keys, dotted paths, JSON values), that a shell
hook reads as its harness's own; clear errors with exit status 1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_hooks._bridges._cli import main
from agent_hooks._wire._dialects import DIALECTS
from agent_hooks.testing import payload

GUARD = Path(__file__).resolve().parents[2] / "examples" / "hooks" / "block_rm_rf.sh"


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agent_hooks", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_it_prints_the_testing_payload(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["payload", "PreToolUse", "--set", "command=rm -rf /"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == payload("PreToolUse", command="rm -rf /")
    assert printed["tool_input"] == {"command": "rm -rf /"}


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_every_dialect(dialect: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["payload", "Stop", "--dialect", dialect]) == 0
    assert json.loads(capsys.readouterr().out) == payload("Stop", dialect=dialect)


def test_set_reads_json_values_and_dotted_paths(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["payload", "PreToolUse", "--dialect", "docker", "--set", "tool_name=Edit"]
    args += ["--set", "file_path=.env", "--set", "tool_input.replace_all=true"]
    args += ["--set", "x_custom.depth=2", "--cwd", "/srv/app", "--indent", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("{\n  ")
    data: dict[str, Any] = json.loads(out)
    assert data["hook_event_name"] == "pre_tool_use" and data["cwd"] == "/srv/app"
    assert data["tool_input"]["file_path"] == ".env"
    assert data["tool_input"]["replace_all"] is True
    assert data["x_custom"] == {"depth": 2}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["PreToolUze"], "did you mean PreToolUse"),
        (["Stop", "--dialect", "nope"], "unknown dialect 'nope'"),
        (["Stop", "--set", "command=ls"], "Stop payloads have no field 'command'"),
        (["Stop", "--set", "stop_hook_active=maybe"], "stop_hook_active"),
        (["Stop", "--set", "noequals"], "--set needs KEY=VALUE"),
        (["Stop", "--set", "cwd.x=1"], "'cwd' is not an object"),
    ],
)
def test_errors_exit_1_with_a_message(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["payload", *args]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("agent-hooks payload: error: ")
    assert message in captured.err


def test_piped_into_a_shell_hook_and_into_agent_hooks_run() -> None:
    made = run_cli("payload", "PreToolUse", "--set", "command=rm -rf /")
    assert made.returncode == 0 and made.stderr == ""
    guard = subprocess.run(
        [str(GUARD)], input=made.stdout, capture_output=True, text=True, timeout=60, check=False
    )
    assert guard.returncode == 2 and "rm -rf" in guard.stderr
    assert run_cli("payload", "PreToolUse", "--set", "command=ls").returncode == 0


def test_help_lists_the_command() -> None:
    done = run_cli("--help")
    assert "payload" in done.stdout
    assert "KEY=VALUE" in run_cli("payload", "--help").stdout
