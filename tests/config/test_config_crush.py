"""Crush's ``hooks`` in ``crush.json`` / ``.crush.json`` and
``~/.config/crush/crush.json``: a realistic file (JSON with comments, Crush's other
settings beside) loads, its event keys are read as Crush reads them, bad entries are
dropped alone, and ``install`` writes an entry that Crush runs and that blocks."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import agent_hooks
from tests.config_helpers import cli
from tests.install_helpers import env_for

REALISTIC = """\
{
  "$schema": "https://charm.land/crush.json",
  "options": {"debug": false},
  // keep rm -rf out of reach
  "hooks": {
    "PreToolUse": [
      {"name": "no-rm-rf", "matcher": "^bash$", "command": "./hooks/no-rm-rf.sh", "timeout": 10},
      {"command": "./hooks/log.sh"}
    ],
    "pre_tool_use": [{"matcher": "^(edit|write)$", "command": "./hooks/lint.sh"}]
  }
}
"""


def _project(tmp_path: Path, name: str = "crush.json", text: str = REALISTIC) -> Path:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    (project / name).write_text(text)
    return project / name


@pytest.mark.parametrize("name", ["crush.json", ".crush.json"])
def test_a_realistic_file_loads_as_crushs_by_its_name(tmp_path: Path, name: str) -> None:
    path = _project(tmp_path, name)
    config = agent_hooks.load(path, trust=True)
    assert config.diagnostics == ()
    [file] = config.files
    assert (file.format, file.scope, file.handlers) == ("crush", "project", 3)
    [source] = config.sources
    assert source.source.dialect.name == "crush"
    assert [g.matcher for g in source.groups] == ["^bash$", None, "^(edit|write)$"]
    assert [n.timeout for g in source.groups for n in g.nodes] == [10.0, None, None]


def test_project_files_need_trust(tmp_path: Path) -> None:
    config = agent_hooks.load(_project(tmp_path))
    assert config.files[0].status == "untrusted"
    assert not [g for s in config.sources for g in s.groups]


def test_discover_reads_the_project_and_the_global_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _project(tmp_path)
    home = tmp_path / "home"
    user = home / ".config" / "crush" / "crush.json"
    user.parent.mkdir(parents=True)
    user.write_text('{"hooks": {"PreToolUse": [{"command": "/opt/guard.sh"}]}}')
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    config = agent_hooks.discover(path.parent, home=home, trust=True, ecosystems=["crush"])
    assert [(f.scope, f.path) for f in config.files] == [
        ("project", str(path)),
        ("user", str(user)),
    ]
    moved = tmp_path / "xdg" / "crush" / "crush.json"
    moved.parent.mkdir(parents=True)
    moved.write_text(user.read_text())
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    config = agent_hooks.discover(path.parent, home=home, trust=True, ecosystems=["crush"])
    assert [f.path for f in config.files][1:] == [str(moved)]


def test_other_events_and_bad_entries_are_dropped_alone(tmp_path: Path) -> None:
    doc = {
        "hooks": {
            "PostToolUse": [{"command": "x"}],
            "PreToolUse": [
                "not an entry",
                {"command": "ok.sh", "when": "always"},
                {"command": "y", "matcher": "(bash"},
                {"command": "z", "timeout": -1},
            ],
        }
    }
    config = agent_hooks.load(_project(tmp_path, text=json.dumps(doc)), trust=True)
    found = sorted((d.location or "", d.severity.name) for d in config.diagnostics)
    assert ("hooks.PostToolUse", "WARNING") in found
    assert ("hooks.PreToolUse[0]", "ERROR") in found
    assert ("hooks.PreToolUse[1]", "WARNING") in found
    assert ("hooks.PreToolUse[2]", "ERROR") in found
    assert ("hooks.PreToolUse[3].hooks[0]", "WARNING") in found  # (the default timeout)
    groups = config.sources[0].groups
    assert [g.location for g in groups] == ["hooks.PreToolUse[1]", "hooks.PreToolUse[3]"]


def test_install_writes_an_entry_crush_runs_and_it_blocks(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    guard = project / "guard.json"
    guard.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [
                                {"type": "command", "command": "echo no >&2; exit 2", "timeout": 10}
                            ],
                        }
                    ]
                }
            }
        )
    )
    args = ["--harness", "crush", "--project-dir", str(project), "--config", str(guard)]
    proc = cli(tmp_path, "install", *args, "--trust-project-hooks")
    assert proc.returncode == 0, proc.stderr
    [entry] = json.loads((project / "crush.json").read_text())["hooks"]["PreToolUse"]
    assert entry["command"].startswith("agent-hooks run --dialect crush ")
    assert entry["timeout"] == 15
    # run it as Crush does: in a shell, in the project, with its variables and payload
    python_bin = str(Path(os.sys.executable).parent)
    env = env_for(tmp_path, CRUSH="1", CRUSH_PROJECT_DIR=str(project))
    env["PATH"] = python_bin + os.pathsep + env.get("PATH", "")
    payload = {
        "event": "PreToolUse",
        "session_id": "313909e",
        "cwd": str(project),
        "tool_name": "bash",
        "tool_input": {"command": "rm -rf /"},
    }
    ran = subprocess.run(
        ["sh", "-c", entry["command"]],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == {"decision": "deny", "reason": "no"}
