"""Antigravity CLI's ``hooks.json`` (keyed by hook name; tool events hold matcher
groups, the others flat handlers) loads from ``.agents/``, ``~/.gemini/config/`` and
plugins; bad content is a diagnostic; project files need trust; ``install`` writes an
entry that blocks when run as Antigravity runs it (``sh -c`` from the file's directory)."""

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


HOOKS = {
    "my-linter-hook": {
        "PostToolUse": [
            {"matcher": "run_command", "hooks": [_cmd("./scripts/lint.sh", timeout=10)]}
        ]
    },
    "safety-gate": {
        "enabled": False,
        "PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./safety-check.sh"}]}],
    },
    "reminder": {"PreInvocation": [_cmd("./scripts/reminder.sh")]},
    "keep-going": {"Stop": [_cmd("./scripts/more.sh", timeout=20)]},
}


def _load(tmp_path: Path, doc: Any) -> agent_hooks.LoadedConfig:
    path = tmp_path / ".agents" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    return agent_hooks.load(path, harness="antigravity", trust=True)


def test_the_digest_s_file_loads(tmp_path: Path) -> None:
    config = _load(tmp_path, HOOKS)
    [source] = config.sources
    assert source.source.dialect.name == "antigravity"
    got = [(str(g.event), g.matcher, [n.timeout for n in g.nodes]) for g in source.groups]
    assert got == [
        ("PostToolUse", "run_command", [10.0]),
        ("BeforeLLMCall", None, [None]),
        ("Stop", None, [20.0]),
    ]
    # the disabled hook is said, at severity info, and nothing else is
    assert [(d.severity.value, d.location) for d in config.diagnostics] == [
        ("info", "safety-gate.enabled")
    ]


def test_the_older_wrapped_shape_reads_as_a_hook_named_hooks(tmp_path: Path) -> None:
    doc = {"hooks": {"PreToolUse": [{"matcher": "", "hooks": [_cmd("./gate.sh")]}]}}
    config = _load(tmp_path, doc)
    assert config.diagnostics == ()
    [group] = config.sources[0].groups
    assert str(group.event) == "PreToolUse" and group.matcher is None


@pytest.mark.parametrize(
    ("doc", "needle"),
    [
        ([], "an object of named hooks"),
        ({"h": []}, "must be an object of events"),
        ({"h": {"Stop": [{"hooks": [_cmd("x.sh")]}]}}, "Stop takes handlers"),
        ({"h": {"PreToolUse": [_cmd("x.sh")]}}, "PreToolUse takes {matcher, hooks"),
        ({"h": {"SessionStart": [_cmd("x.sh")]}}, "unknown event 'SessionStart'"),
        ({"h": {"Stop": {"command": "x.sh"}}}, "Stop must be a list"),
        ({"h": {"Stop": [{"matcher": "x", **_cmd("x.sh")}]}}, "'matcher' on Stop is ignored"),
    ],
)
def test_bad_content_is_a_diagnostic(tmp_path: Path, doc: Any, needle: str) -> None:
    config = _load(tmp_path, doc)
    assert any(needle in d.message for d in config.diagnostics), config.diagnostics


def test_discover_finds_project_user_and_plugin_files(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    home = tmp_path / "home"
    for path in (
        project / ".agents" / "hooks.json",
        home / ".gemini" / "config" / "hooks.json",
        home / ".gemini" / "config" / "plugins" / "guard" / "hooks.json",
    ):
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(HOOKS))
    config = agent_hooks.discover(project, home=home, trust=True, ecosystems=["antigravity"])
    assert [s.source.precedence for s in config.sources] == [200, 300, 400]
    untrusted = agent_hooks.discover(project, home=home, ecosystems=["antigravity"])
    assert [len(s.groups) for s in untrusted.sources] == [0, 3, 3]
    assert "untrusted" in [d.code.value for d in untrusted.diagnostics]


def test_a_hook_runs_from_the_directory_of_its_file(tmp_path: Path) -> None:
    doc = {"h": {"Stop": [_cmd("./scripts/more.sh")]}}
    config = _load(tmp_path, doc)
    [node] = config.sources[0].groups[0].nodes
    assert str(tmp_path / ".agents") in repr(node)


def test_install_writes_a_working_entry(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    target = project / ".agents" / "hooks.json"
    target.parent.mkdir()
    target.write_text(json.dumps({"reminder": HOOKS["reminder"]}))
    conf = graph(tmp_path / "conf" / "hooks.json")
    proc = ah(
        tmp_path,
        "install",
        "--harness",
        "agy",
        "--config",
        str(conf),
        "--project-dir",
        str(project),
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(target.read_text())
    assert doc["reminder"] == HOOKS["reminder"]  # the user's own named hook is kept
    [group] = doc["hooks"]["PreToolUse"]
    [hook] = group["hooks"]
    assert hook["command"].startswith("agent-hooks run --dialect antigravity --event PreToolUse ")
    assert "Stop" not in doc["hooks"]  # flat events: not written (said on stderr)
    loaded = agent_hooks.load(target, harness="antigravity", trust=True)
    assert [str(g.event) for g in loaded.sources[0].groups] == ["BeforeLLMCall", "PreToolUse"]
    payload = {
        "conversationId": "c-1",
        "workspacePaths": [str(project)],
        "toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf /"}},
    }
    command = hook["command"].replace("agent-hooks", f"{sys.executable} -m agent_hooks", 1)
    run = subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=target.parent,
        env=env_for(tmp_path),
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"decision": "deny", "reason": "no"}
    gone = ah(tmp_path, "uninstall", "--harness", "antigravity", "--project-dir", str(project))
    assert gone.returncode == 0, gone.stderr
    assert json.loads(target.read_text()) == {"reminder": HOOKS["reminder"]}
