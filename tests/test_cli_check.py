"""``agent-hooks check`` and ``agent-hooks trust``, end to end as subprocesses
(``python -m agent_hooks``): human and JSON output, exit codes, trust round trip."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    e = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("XDG_", "CODEX", "CAGENT", "DOCKER_AGENT"))
    }
    e.update(
        HOME=str(home),
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_CONFIG_HOME=str(home / ".config"),
    )
    return e


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "project"
    p.mkdir()
    return p


def run(
    env: dict[str, str], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agent_hooks", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def write(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=2))
    return path


GOOD = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "./guard.sh",
                        "timeout": 30,
                        "statusMessage": "Guarding",
                    },
                    {"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"},
                ],
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}],
    }
}

BAD = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "[oops", "hooks": [{"type": "command", "command": "./x.sh"}]},
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "./ok.sh"}]},
        ],
        "Stopp": [],
    }
}


def test_check_lists_handlers_per_event(env: dict[str, str], project: Path, tmp_path: Path) -> None:
    config = write(tmp_path / "conf" / "hooks.json", GOOD)
    result = run(env, "check", "--config", str(config), "--project-dir", str(project))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "PreToolUse (2)" in out and "Stop (1)" in out
    assert "[command] ./guard.sh" in out
    assert "matcher: Bash" in out and "timeout: 30s" in out
    assert f"source: {config}  hooks.PreToolUse[0].hooks[0]" in out
    assert "[prompt] Is this safe? $ARGUMENTS" in out and "DISABLED" in out
    assert "warning handler_disabled" in out
    assert "configuration OK" in out


def test_check_json(env: dict[str, str], project: Path, tmp_path: Path) -> None:
    config = write(tmp_path / "conf" / "hooks.json", GOOD)
    result = run(env, "check", "--config", str(config), "--project-dir", str(project), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    guard, prompt = report["events"]["PreToolUse"]
    assert guard["name"] == "./guard.sh" and guard["type"] == "command"
    assert guard["matcher"] == "Bash" and guard["timeout"] == 30 and guard["source"] == str(config)
    assert guard["location"] == "hooks.PreToolUse[0].hooks[0]" and guard["disabled"] is None
    assert prompt["type"] == "prompt" and prompt["disabled"]
    assert report["events"]["Stop"][0]["timeout"] == 600
    assert (
        report["files"][0]["format"] == "claude-hooks" and report["files"][0]["status"] == "loaded"
    )
    assert report["summary"] == {
        "handlers": 2,
        "disabled": 1,
        "errors": 0,
        "warnings": 1,
        "info": 0,
    }


def test_check_exits_1_on_configuration_errors(
    env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    good = write(tmp_path / "a" / "hooks.json", GOOD)
    bad = write(tmp_path / "b" / "hooks.json", BAD)
    result = run(
        env, "check", "--config", str(good), "--config", str(bad), "--project-dir", str(project)
    )
    assert result.returncode == 1
    assert f"{bad}: hooks.PreToolUse[0]: error invalid_matcher" in result.stdout
    assert f"{bad}: hooks.Stopp: error invalid_config" in result.stdout
    assert "./ok.sh" in result.stdout and "./guard.sh" in result.stdout  # neighbours stay
    report = json.loads(
        run(env, "check", "--config", str(bad), "--project-dir", str(project), "--json").stdout
    )
    assert report["summary"]["errors"] == 2
    assert {(d["code"], d["location"]) for d in report["diagnostics"]} >= {
        ("invalid_matcher", "hooks.PreToolUse[0]"),
        ("invalid_config", "hooks.Stopp"),
    }


def test_check_reports_parse_errors_with_lines(
    env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    broken = write(tmp_path / "c" / "hooks.json", '{"hooks": {\n  "Stop": [\n}')
    result = run(env, "check", "--config", str(broken), "--project-dir", str(project), "--json")
    assert result.returncode == 1
    (diag,) = json.loads(result.stdout)["diagnostics"]
    assert diag["code"] == "config_read_failed" and diag["location"].startswith("line 3")


def test_discovery_trust_round_trip(env: dict[str, str], project: Path) -> None:
    write(project / ".claude" / "settings.json", GOOD)
    write(
        Path(env["HOME"]) / ".claude" / "settings.json",
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./user.sh"}]}]}},
    )
    first = run(env, "check", "--project-dir", str(project))
    assert first.returncode == 0
    assert "untrusted" in first.stdout and "agent-hooks trust --project-dir" in first.stdout
    assert "./user.sh" in first.stdout and "./guard.sh" not in first.stdout

    headless = run(env, "check", "--project-dir", str(project), "--trust-project-hooks")
    assert "./guard.sh" in headless.stdout

    granted = run(env, "trust", "--project-dir", str(project))
    assert granted.returncode == 0, granted.stderr
    assert ".claude/settings.json  sha256 " in granted.stdout
    assert "PreToolUse [Bash]: [command] ./guard.sh" in granted.stdout
    store = Path(env["XDG_STATE_HOME"]) / "agent_hooks" / "trust.json"
    assert store.exists()

    second = run(env, "check", "--project-dir", str(project), "--json")
    report = json.loads(second.stdout)
    assert [f["status"] for f in report["files"]] == ["loaded", "loaded"]
    assert [e["name"] for e in report["events"]["Stop"]] == ["./notify.sh", "./user.sh"]

    write(project / ".claude" / "settings.json", {**GOOD, "description": "edited"})
    third = json.loads(run(env, "check", "--project-dir", str(project), "--json").stdout)
    assert third["files"][0]["status"] == "untrusted"

    revoked = run(env, "trust", "--project-dir", str(project), "--revoke")
    assert revoked.returncode == 0 and "Revoked" in revoked.stdout


def test_trust_with_nothing_to_trust(env: dict[str, str], project: Path) -> None:
    result = run(env, "trust", "--project-dir", str(project))
    assert result.returncode == 0 and "nothing to trust" in result.stdout


def test_default_project_dir_is_the_working_directory(env: dict[str, str], project: Path) -> None:
    write(
        project / ".deepagents" / "hooks.json",
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./d.sh"}]}]}},
    )
    result = run(env, "check", "--trust-project-hooks", cwd=project)
    assert result.returncode == 0 and "./d.sh" in result.stdout


def test_no_hooks_and_usage_errors(env: dict[str, str], project: Path) -> None:
    empty = run(env, "check", "--project-dir", str(project))
    assert empty.returncode == 0 and "No hooks configured" in empty.stdout
    assert run(env).returncode == 2  # a subcommand is required
    assert run(env, "check", "--bogus").returncode == 2
    bad_format = run(
        env, "check", "--config", "x.json", "--format", "nope", "--project-dir", str(project)
    )
    assert bad_format.returncode == 2 and "unknown format" in bad_format.stderr
    assert "check" in run(env, "--help").stdout


def test_main_is_importable_and_returns_status(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from agent_hooks.__main__ import main

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert main(["check", "--project-dir", str(project), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["handlers"] == 0


def test_a_missing_config_named_on_the_command_line_is_an_error(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "agent_hooks", "check", "--config", str(tmp_path / "nope.json")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "no such file" in proc.stderr
