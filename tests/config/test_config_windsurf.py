"""Windsurf ``hooks.json`` files load unchanged from the system, user and workspace
locations, merged in Windsurf's order; ``check`` lists them and ``install`` writes one
(``agent-hooks`` in this process: what it prints and writes is the point)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import agent_hooks
from tests.cli_inprocess import cli_in_process

REALISTIC = {
    "hooks": {
        "pre_run_command": [
            {
                "command": "python3 /abs/path/block_dangerous.py",
                "show_output": True,
                "working_directory": "scripts",
            }
        ],
        "pre_read_code": [{"command": "./check_read.sh"}],
        "pre_mcp_tool_use": [{"command": "./mcp.sh"}],
        "post_cascade_response": [{"command": "./log.sh"}],
    }
}


def test_a_realistic_file_loads_unchanged(tmp_path: Path) -> None:
    path = tmp_path / ".windsurf" / "hooks.json"
    path.parent.mkdir()
    path.write_text(json.dumps(REALISTIC))
    config = agent_hooks.load(path, project_dir=tmp_path, trust=True)
    assert not [
        d
        for d in config.diagnostics
        if d.severity.name in ("ERROR", "WARNING") and d.code.value != "launch_failed"
    ]
    [source] = config.sources
    assert source.source.dialect.name == "windsurf"
    timeouts = [n.timeout for ns in config.registry().compile().nodes.values() for n in ns]
    assert set(timeouts) == {60.0}
    matchers = [(str(g.event), g.matcher) for g in source.groups]
    assert matchers == [
        ("PreToolUse", "Bash"),
        ("PreToolUse", "Read"),
        ("PreToolUse", "mcp__.*"),
        ("post_cascade_response", None),
    ]


def test_unknown_events_and_keys_are_reported_and_the_rest_loads(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    doc = {
        "hooks": {
            "pre_tool": [{"command": "a"}],
            "pre_read_code": [{"command": "b", "timeout": 5}, 3],
        }
    }
    path.write_text(json.dumps(doc))
    config = agent_hooks.load(path, format="windsurf", trust=True)
    messages = " ".join(d.message for d in config.diagnostics)
    assert "pre_tool" in messages and "'timeout'" in messages
    assert [len(g.nodes) for g in config.sources[0].groups] == [1]


def test_layers_merge_system_then_user_then_workspace(tmp_path: Path) -> None:
    project, home = tmp_path / "p", tmp_path / "h"
    (project / ".git").mkdir(parents=True)
    for path, cmd in [
        (home / ".codeium" / "windsurf" / "hooks.json", "user.sh"),
        (project / ".windsurf" / "hooks.json", "workspace.sh"),
    ]:
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps({"hooks": {"pre_user_prompt": [{"command": cmd}]}}))
    config = agent_hooks.discover(project, home=home, trust=True, ecosystems=["windsurf"])
    names = [n.node.name for s in config.registry().compile().nodes.values() for n in s]
    assert names == ["user.sh", "workspace.sh"]


def test_check_and_install(tmp_path: Path) -> None:
    hooks = tmp_path / "hooks.json"
    hooks.write_text(
        json.dumps({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "g.sh"}]}]}})
    )
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_STATE_HOME": str(tmp_path / "s")}
    argv = [
        "install",
        "--harness",
        "windsurf",
        "--config",
        str(hooks),
        "--project-dir",
        str(tmp_path),
    ]
    proc = cli_in_process(argv, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / ".windsurf" / "hooks.json").read_text())
    assert sorted(doc["hooks"]) == [
        "pre_mcp_tool_use",
        "pre_read_code",
        "pre_run_command",
        "pre_write_code",
    ]
    assert doc["hooks"]["pre_run_command"] == [
        # (a project file is committed: the path is relative to the project root)
        {"command": "agent-hooks run --dialect windsurf --config hooks.json"}
    ]
    argv = [
        "check",
        "--trust-project-hooks",
        "--config",
        str(tmp_path / ".windsurf" / "hooks.json"),
    ]
    proc = cli_in_process(argv, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(windsurf, 4 handlers" in proc.stdout
