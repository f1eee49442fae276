"""``agent-hooks install`` / ``uninstall`` as a subprocess, for every harness: the entries
that make the harness call ``agent-hooks run`` for the events the graph handles are
merged into its own file without touching other entries, written once however often
install runs, and uninstall removes exactly those (the file comes back as it was)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import load
from tests.config_helpers import cli, write

GRAPH = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "echo guard", "timeout": 10}],
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}],
        "TurnStart": [{"hooks": [{"type": "command", "command": "echo turn"}]}],
    }
}

# (harness, project file, its existing content, the native events, how to read the commands)
CASES: list[tuple[str, str, dict[str, Any], dict[str, str]]] = [
    (
        "claude",
        ".claude/settings.json",
        {
            "permissions": {"allow": ["Bash(ls)"]},
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Edit", "hooks": [{"type": "command", "command": "lint"}]}
                ]
            },
        },
        {"PreToolUse": "PreToolUse", "Stop": "Stop"},
    ),
    (
        "codex",
        ".codex/hooks.json",
        {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "hello"}]}]}},
        {"PreToolUse": "PreToolUse", "Stop": "Stop"},
    ),
    (
        "gemini",
        ".gemini/settings.json",
        {
            "general": {"vimMode": True},
            "hooks": {
                "BeforeTool": [
                    {"matcher": "write_file", "hooks": [{"type": "command", "command": "mine"}]}
                ]
            },
        },
        {"PreToolUse": "BeforeTool", "Stop": "AfterAgent"},
    ),
    (
        "cursor",
        ".cursor/hooks.json",
        {"version": 1, "hooks": {"stop": [{"command": "./loop.sh", "loop_limit": None}]}},
        {"PreToolUse": "preToolUse", "Stop": "stop"},
    ),
    (
        "copilot",
        ".github/hooks/agent-hooks.json",
        {"version": 1, "hooks": {"sessionStart": [{"bash": "echo hi"}]}},
        {"PreToolUse": "preToolUse", "Stop": "agentStop"},
    ),
    (
        "crush",
        "crush.json",
        {
            "$schema": "https://charm.land/crush.json",
            "options": {"debug": False},
            "hooks": {"PreToolUse": [{"name": "lint", "matcher": "^edit$", "command": "./l.sh"}]},
        },
        {"PreToolUse": "PreToolUse"},
    ),
]


def _commands(doc: dict[str, Any], native: str) -> list[str]:
    found = []
    for entry in doc["hooks"].get(native, []):
        for key in ("command", "bash"):
            if isinstance(entry.get(key), str):
                found.append(entry[key])
        for h in entry.get("hooks", []):
            found.append(h["command"])
    return found


@pytest.mark.parametrize(
    ("harness", "rel", "existing", "natives"), CASES, ids=[c[0] for c in CASES]
)
def test_install_round_trip(
    tmp_path: Path, harness: str, rel: str, existing: dict[str, Any], natives: dict[str, str]
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    graph = write(tmp_path / "graph" / "hooks.json", GRAPH)
    target = write(project / rel, existing)
    before = target.read_text()
    args = ["--harness", harness, "--project-dir", str(project)]

    dry = cli(tmp_path, "install", *args, "--config", str(graph), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert target.read_text() == before  # nothing written
    assert "TurnStart" in dry.stderr  # what the harness has no event for is said

    for _ in range(2):  # a second install adds nothing
        proc = cli(tmp_path, "install", *args, "--config", str(graph))
        assert proc.returncode == 0, proc.stderr
    doc = json.loads(target.read_text())
    assert json.loads(dry.stdout) == doc
    for native in natives.values():
        ours = [
            c
            for c in _commands(doc, native)
            if c.startswith(f"agent-hooks run --dialect {harness}")
        ]
        assert len(ours) == 1
        words = shlex.split(ours[0])
        assert words[words.index("--config") + 1] == str(graph)
        if harness == "copilot":
            assert words[words.index("--event") + 1] == native
    for key, value in existing.items():  # other settings and entries untouched
        if key != "hooks":
            assert doc[key] == value
    for native, entries in existing.get("hooks", {}).items():
        assert doc["hooks"][native][: len(entries)] == entries
    # the harness's own loader reads the result, our entries included
    config = load(target, project_dir=project, trust=True)
    assert config.files[0].status == "loaded"
    assert not [d for d in config.diagnostics if d.severity.value == "error"]

    proc = cli(tmp_path, "uninstall", *args)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(target.read_text()) == existing


def test_an_empty_file_goes_away(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    graph = write(tmp_path / "hooks.json", GRAPH)
    args = ["--harness", "cursor", "--project-dir", str(project)]
    assert cli(tmp_path, "install", *args, "--config", str(graph), "--fail-closed").returncode == 0
    doc = json.loads((project / ".cursor" / "hooks.json").read_text())
    assert doc["hooks"]["preToolUse"][0]["failClosed"] is True
    assert "--fail-closed" in doc["hooks"]["preToolUse"][0]["command"]
    assert cli(tmp_path, "uninstall", *args).returncode == 0
    assert not (project / ".cursor" / "hooks.json").exists()


def test_user_scope(tmp_path: Path) -> None:
    graph = write(tmp_path / "hooks.json", GRAPH)
    proc = cli(
        tmp_path, "install", "--harness", "gemini", "--scope", "user", "--config", str(graph)
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "home" / ".gemini" / "settings.json").read_text())
    (entry,) = doc["hooks"]["BeforeTool"]
    assert entry["hooks"][0]["timeout"] == 15000  # the graph's 10 s + 5, in milliseconds


def test_refusals(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    settings = write(project / ".claude" / "settings.json", GRAPH)
    proc = cli(
        tmp_path,
        "install",
        "--harness",
        "claude",
        "--project-dir",
        str(project),
        "--config",
        str(settings),
    )
    assert proc.returncode == 1 and "forever" in proc.stderr
    proc = cli(tmp_path, "install", "--harness", "vim", "--config", str(settings))
    assert proc.returncode == 1 and "unknown harness" in proc.stderr
    proc = cli(tmp_path, "install", "--harness", "cursor", "--discover")
    assert proc.returncode == 1
    write(project / ".cursor" / "hooks.json", "[1, 2]")
    graph = write(tmp_path / "hooks.json", GRAPH)
    proc = cli(
        tmp_path,
        "install",
        "--harness",
        "cursor",
        "--project-dir",
        str(project),
        "--config",
        str(graph),
    )
    assert proc.returncode == 1 and (project / ".cursor" / "hooks.json").read_text() == "[1, 2]"
