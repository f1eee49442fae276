"""Cline's hook files (executables named by their event) load unchanged from the
workspace's ``.clinerules/hooks/`` and the user's hooks directories; ``check`` lists
them; a file Cline would not run is reported, not run. ``agent-hooks`` runs in this
process (what it prints and writes is the point)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import agent_hooks
from agent_hooks._config._discover import project_hook_files
from tests.cli_inprocess import cli_in_process

HOOK = """#!/bin/bash
INPUT=$(cat)
if [ "$(jq -r .preToolUse.toolName <<<"$INPUT")" = write_to_file ]; then
  echo '{"cancel":true,"errorMessage":"Use .ts files"}'; exit 0; fi
echo '{"cancel":false}'
"""


def _hook(directory: Path, name: str, body: str = HOOK, mode: int = 0o755) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(body)
    path.chmod(mode)
    return path


def test_discover_finds_workspace_and_user_hooks(tmp_path: Path) -> None:
    project, home = tmp_path / "p", tmp_path / "h"
    (project / ".git").mkdir(parents=True)
    _hook(project / ".clinerules" / "hooks", "PreToolUse")
    _hook(project / ".clinerules" / "hooks", "README.md", "# hooks\n", 0o644)
    _hook(home / "Documents" / "Cline" / "Hooks", "UserPromptSubmit.py", "#!/usr/bin/env python3\n")
    config = agent_hooks.discover(project, home=home, trust=True, ecosystems=["cline"])
    events = sorted(str(g.event) for s in config.sources for g in s.groups)
    assert events == ["PreToolUse", "UserPromptSubmit"]
    assert all(s.source.dialect.name == "cline" for s in config.sources)
    assert not [d for d in config.diagnostics if d.severity.name in ("ERROR", "WARNING")]
    nodes = [n for ns in config.registry().compile().nodes.values() for n in ns]
    assert {n.timeout for n in nodes} == {30.0}


def test_a_hook_that_is_not_executable_is_reported_and_not_run(tmp_path: Path) -> None:
    path = _hook(tmp_path / ".clinerules" / "hooks", "PreToolUse", mode=0o644)
    config = agent_hooks.load(path, trust=True)
    assert config.sources[0].groups == ()
    assert any("not executable" in d.message for d in config.diagnostics)


def test_project_hook_files_lists_cline_hooks(tmp_path: Path) -> None:
    _hook(tmp_path / ".clinerules" / "hooks", "PreToolUse")
    _hook(tmp_path / ".clinerules" / "hooks", "notes.txt", "x", 0o644)
    assert ".clinerules/hooks/PreToolUse" in project_hook_files(tmp_path)
    assert ".clinerules/hooks/notes.txt" not in project_hook_files(tmp_path)


def test_check_lists_a_cline_hook(tmp_path: Path) -> None:
    path = _hook(tmp_path / ".clinerules" / "hooks", "PreToolUse")
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_STATE_HOME": str(tmp_path / "s")}
    proc = cli_in_process(
        ["check", "--trust-project-hooks", "--config", str(path)], env=env, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(cline, 1 handler" in proc.stdout


def test_install_writes_one_script_per_event_and_uninstall_removes_only_those(
    tmp_path: Path,
) -> None:
    hooks = tmp_path / "hooks.json"
    hooks.write_text(
        '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "g.sh"}]}]}}'
    )
    mine = _hook(tmp_path / ".clinerules" / "hooks", "UserPromptSubmit")
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_STATE_HOME": str(tmp_path / "s")}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        argv = [*args, "--harness", "cline", "--project-dir", str(tmp_path)]
        return cli_in_process(argv, env=env, cwd=tmp_path)

    proc = cli("install", "--config", str(hooks))
    assert proc.returncode == 0, proc.stderr
    script = tmp_path / ".clinerules" / "hooks" / "PreToolUse"
    assert os.access(script, os.X_OK)
    # (a project file is committed: the path is relative to the project root)
    assert "exec agent-hooks run --dialect cline --config hooks.json" in script.read_text()
    config = agent_hooks.load(script, trust=True)
    assert config.sources[0].source.dialect.name == "cline"
    proc = cli("uninstall")
    assert proc.returncode == 0, proc.stderr
    assert not script.exists() and mine.exists()


def test_install_explains_the_harnesses_it_cannot_write(tmp_path: Path) -> None:
    for name in ("augment", "goose", "kiro"):
        proc = cli_in_process(
            ["install", "--harness", name, "--config", "x.json"], env=dict(os.environ), cwd=tmp_path
        )
        assert proc.returncode == 1 and f"does not write {name}'s hooks" in proc.stderr


def test_a_powershell_hook_is_not_a_posix_hook(tmp_path: Path) -> None:
    from agent_hooks._config._cline import cline_event_of

    if os.name == "nt":  # pragma: no cover
        assert cline_event_of("PreToolUse.ps1") == "PreToolUse"
    else:
        assert cline_event_of("PreToolUse.ps1") is None
        assert cline_event_of("pretooluse.py") == "PreToolUse"
