"""Kiro agent configurations (CLI 2.x) load their ``hooks`` unchanged; the v3 hook files
and legacy ``*.kiro.hook`` files are refused with a clear ``invalid_config`` error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import agent_hooks
from agent_hooks._config._kiro import kiro_matcher
from tests.dialect_helpers import agent_hooks_cli

AGENT = {
    "name": "dev",
    "description": "my agent",
    "tools": ["*"],
    "hooks": {
        "agentSpawn": [{"command": "git status --short"}],
        "preToolUse": [
            {
                "matcher": "execute_bash",
                "command": "./guard.sh",
                "timeout_ms": 5000,
                "cache_ttl_seconds": 0,
            }
        ],
        "postToolUse": [
            {"matcher": "fs_write", "command": "cargo fmt --all", "only_when_turn_complete": True},
            {"matcher": "fs_*", "command": "echo changed"},
        ],
    },
}


def _write(path: Path, doc: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    return path


def test_an_agent_configuration_loads_its_hooks(tmp_path: Path) -> None:
    path = _write(tmp_path / ".kiro" / "agents" / "dev.json", AGENT)
    config = agent_hooks.load(path, project_dir=tmp_path, trust=True)
    [source] = config.sources
    assert source.source.dialect.name == "kiro"
    assert [(str(g.event), g.matcher) for g in source.groups] == [
        ("SessionStart", None),
        ("PreToolUse", "execute_bash"),
        ("PostToolUse", "fs_.*"),
    ]
    timeouts = {
        n.node.name: n.timeout for ns in config.registry().compile().nodes.values() for n in ns
    }
    assert timeouts == {"git status --short": 30.0, "./guard.sh": 5.0, "echo changed": 30.0}
    errors = [d for d in config.diagnostics if d.severity.name == "ERROR"]
    assert len(errors) == 1 and "only_when_turn_complete" in errors[0].message


@pytest.mark.parametrize(
    ("matcher", "regex"),
    [
        ("*", None),
        ("fs_write", "fs_write"),
        ("fs_*", "fs_.*"),
        ("@git", "@git/.*"),
        ("@git/status", "@git/status"),
        ("@builtin", "[^@].*"),
    ],
)
def test_matchers(matcher: str, regex: str | None) -> None:
    assert kiro_matcher(matcher) == regex


@pytest.mark.parametrize(
    ("rel", "doc"),
    [
        (
            ".kiro/hooks/lint.json",
            {
                "version": "v1",
                "hooks": [
                    {
                        "name": "lint",
                        "trigger": "PostFileSave",
                        "action": {"type": "command", "command": "npm run lint"},
                    }
                ],
            },
        ),
        (
            ".kiro/hooks/tsc.kiro.hook",
            {
                "version": "1.0.0",
                "when": {"type": "fileEdited", "patterns": ["*.ts"]},
                "then": {"type": "runCommand", "command": "npx tsc"},
            },
        ),
    ],
)
def test_v3_and_legacy_files_are_refused_clearly(tmp_path: Path, rel: str, doc: object) -> None:
    path = _write(tmp_path / rel, doc)
    config = agent_hooks.load(path, trust=True)
    assert all(s.groups == () for s in config.sources)
    [error] = [d for d in config.diagnostics if d.severity.name == "ERROR"]
    assert error.code.value == "invalid_config" and "not supported" in error.message


def test_discover_and_check(tmp_path: Path) -> None:
    project, home = tmp_path / "p", tmp_path / "h"
    (project / ".git").mkdir(parents=True)
    _write(
        project / ".kiro" / "agents" / "dev.json",
        {"hooks": {"preToolUse": [{"command": "./g.sh"}]}},
    )
    _write(
        home / ".aws" / "amazonq" / "cli-agents" / "q.json",
        {"hooks": {"agentSpawn": [{"command": "x"}]}},
    )
    config = agent_hooks.discover(project, home=home, trust=True, ecosystems=["kiro"])
    assert sorted(str(g.event) for s in config.sources for g in s.groups) == [
        "PreToolUse",
        "SessionStart",
    ]
    proc = agent_hooks_cli(
        "check",
        "--trust-project-hooks",
        "--config",
        str(project / ".kiro" / "agents" / "dev.json"),
        cwd=project,
        home=home,
        state=tmp_path / "s",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "(kiro, 1 handler" in proc.stdout
