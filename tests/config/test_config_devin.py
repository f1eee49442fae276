"""Devin CLI's hook files: the unwrapped ``.devin/hooks.v1.json``, ``hooks`` in
``.devin/config(.local).json`` beside Devin's other settings, and the user's
``~/.config/devin/config.json`` load from their places; bad content is a diagnostic;
project files need trust; ``install`` writes an entry that blocks when run as Devin
would, and warns that Devin also runs the project's ``.claude/`` hooks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from tests.install_helpers import ah, env_for, graph


def _cmd(command: str, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **extra}


HOOKS_V1 = {
    "PreToolUse": [
        {"matcher": "^exec$", "hooks": [_cmd("./scripts/check-command.sh", timeout=10)]}
    ],
    "PostCompaction": [{"hooks": [_cmd("./scripts/after-compaction.sh")]}],
}
CONFIG = {
    "model": "swe-1.5",
    "permissions": {"allow": ["read"]},
    "read_config_from": {"claude": True},
    "hooks": {"Stop": [{"hooks": [_cmd("./scripts/more.sh", timeout=30)]}]},
}


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    (project / ".devin").mkdir()
    (project / ".devin" / "hooks.v1.json").write_text(json.dumps(HOOKS_V1))
    (project / ".devin" / "config.json").write_text(json.dumps(CONFIG))
    return project


def test_the_unwrapped_hooks_file_loads(tmp_path: Path) -> None:
    project = _project(tmp_path)
    config = agent_hooks.load(project / ".devin" / "hooks.v1.json", trust=True)
    assert config.diagnostics == ()
    [source] = config.sources
    assert source.source.dialect.name == "devin"
    pre, compaction = source.groups
    assert (str(pre.event), pre.matcher) == ("PreToolUse", "^exec$")
    assert pre.nodes[0].timeout == pytest.approx(10.0)
    assert str(compaction.event) == "PostCompact"


def test_hooks_beside_devin_settings_load_without_warnings(tmp_path: Path) -> None:
    project = _project(tmp_path)
    config = agent_hooks.load(project / ".devin" / "config.json", trust=True)
    assert config.diagnostics == ()
    [group] = config.sources[0].groups
    assert str(group.event) == "Stop" and group.nodes[0].timeout == pytest.approx(30.0)


def test_discover_finds_project_local_and_user_files(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".devin" / "config.local.json").write_text(json.dumps(CONFIG))
    home = tmp_path / "home"
    user = home / ".config" / "devin" / "config.json"
    user.parent.mkdir(parents=True)
    user.write_text(json.dumps(CONFIG))
    config = agent_hooks.discover(project, home=home, trust=True, ecosystems=["devin"])
    labels = [Path(s.source.label).name for s in config.sources]
    assert labels == ["hooks.v1.json", "config.json", "config.local.json", "config.json"]
    assert {s.source.dialect.name for s in config.sources} == {"devin"}


def test_an_untrusted_project_file_runs_nothing(tmp_path: Path) -> None:
    project = _project(tmp_path)
    config = agent_hooks.load(project / ".devin" / "hooks.v1.json", project_dir=project)
    assert [len(s.groups) for s in config.sources] == [0]
    assert [d.code.value for d in config.diagnostics] == ["untrusted"]


@pytest.mark.parametrize(
    ("doc", "needle"),
    [
        ([], "an object of events"),
        ({"BeforeTool": [{"hooks": [_cmd("x.sh")]}]}, "unknown event 'BeforeTool'"),
        ({"PreToolUse": {"hooks": []}}, "must be a list"),
    ],
)
def test_bad_content_is_a_diagnostic(tmp_path: Path, doc: Any, needle: str) -> None:
    path = tmp_path / ".devin" / "hooks.v1.json"
    path.parent.mkdir()
    path.write_text(json.dumps(doc))
    config = agent_hooks.load(path, trust=True)
    assert any(needle in d.message for d in config.diagnostics), config.diagnostics


def test_install_writes_a_working_entry_and_warns_of_claude_s_file(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / ".claude").mkdir()
    conf = graph(tmp_path / "conf" / "hooks.json")
    base = ("install", "--config", str(conf), "--project-dir", str(project))
    claude = ah(tmp_path, *base, "--harness", "claude")
    assert claude.returncode == 0, claude.stderr
    proc = ah(tmp_path, *base, "--harness", "devin")
    assert proc.returncode == 0, proc.stderr
    assert "twice" in proc.stderr
    doc = json.loads((project / ".devin" / "config.json").read_text())
    [entry] = doc["hooks"]["PreToolUse"]
    [hook] = entry["hooks"]
    assert hook["command"].startswith("agent-hooks run --dialect devin --event PreToolUse ")
    assert hook["timeout"] == 15
    loaded = agent_hooks.load(project / ".devin" / "config.json", trust=True)
    assert loaded.sources[0].source.dialect.name == "devin"
    # run the written command as Devin would: from the project, DEVIN_PROJECT_DIR set
    payload = {
        "session_id": "ses_01",
        "prompt_id": "p_07",
        "tool_name": "exec",
        "tool_input": {"command": "rm -rf /", "shell_id": "main"},
    }
    command = hook["command"].replace("agent-hooks", f"{sys.executable} -m agent_hooks", 1)
    run = subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=env_for(tmp_path, DEVIN_PROJECT_DIR=str(project)),
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"decision": "block", "reason": "no"}

    gone = ah(tmp_path, "uninstall", "--harness", "devin", "--project-dir", str(project))
    assert gone.returncode == 0, gone.stderr
    assert not (project / ".devin" / "config.json").exists()
