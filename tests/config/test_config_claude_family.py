"""Hook files of the Claude-compatible harnesses (Factory Droid, Qwen Code, Augment,
Goose, OpenHands, Trae, Qoder, CodeBuddy) load unchanged from their own locations, with their
timeout units and schema extras; ``check`` lists them and ``install`` writes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from tests.dialect_helpers import agent_hooks_cli, agent_hooks_run


def _cmd(command: str, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **extra}


FILES: dict[str, tuple[str, dict[str, Any], float]] = {
    "factory": (
        ".factory/hooks.json",
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "Execute",
                        "hooks": [
                            _cmd('"$FACTORY_PROJECT_DIR"/.factory/hooks/guard.sh', timeout=30)
                        ],
                    }
                ]
            }
        },
        30.0,
    ),
    "qwen": (
        ".qwen/settings.json",
        {
            "general": {"vimMode": True},
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "^run_shell_command$",
                        "sequential": False,
                        "hooks": [
                            _cmd(
                                "$QWEN_PROJECT_DIR/.qwen/hooks/guard.sh",
                                name="guard",
                                timeout=10000,
                                env={"MODE": "strict"},
                                statusMessage="checking",
                            )
                        ],
                    }
                ]
            },
        },
        10.0,
    ),
    "augment": (
        ".augment/settings.json",
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "launch-process",
                        "hooks": [_cmd("/etc/augment/hooks/validate-command.sh", timeout=5000)],
                        "metadata": {"includeUserContext": True},
                    }
                ]
            }
        },
        5.0,
    ),
    "goose": (
        ".agents/plugins/guard/hooks/hooks.json",
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "developer__shell",
                        "hooks": [
                            _cmd("${PLUGIN_ROOT}/scripts/guard.sh", timeout=10, on_failure="block")
                        ],
                    }
                ]
            }
        },
        10.0,
    ),
    "openhands": (
        ".openhands/hooks.json",
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [_cmd("./guard.sh", timeout=20)]}]}},
        20.0,
    ),
    "trae": (
        ".trae/hooks.json",
        {
            "version": 1,
            "hooks": {
                "Stop": [{"loop_limit": 5, "hooks": [_cmd("./more.sh", timeout=30)]}],
            },
        },
        30.0,
    ),
    "qoder": (
        ".qoder/settings.json",
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [_cmd("./guard.sh", timeout=7)]}]}},
        7.0,
    ),
    "codebuddy": (
        ".codebuddy/settings.json",
        {
            "model": "hunyuan-turbos",
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "^Bash$",
                        "hooks": [
                            _cmd('"$CODEBUDDY_PROJECT_DIR"/.codebuddy/hooks/guard.sh', timeout=30)
                        ],
                    }
                ]
            },
        },
        30.0,
    ),
}
HARNESSES = sorted(FILES)


def _write(root: Path, harness: str) -> Path:
    rel, doc, _ = FILES[harness]
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_realistic_file_loads_unchanged(tmp_path: Path, harness: str) -> None:
    (tmp_path / ".git").mkdir()
    path = _write(tmp_path, harness)
    config = agent_hooks.load(path, project_dir=tmp_path, trust=True)
    errors = [d for d in config.diagnostics if d.severity.name == "ERROR"]
    assert errors == []
    [source] = config.sources
    assert source.source.dialect.name == harness
    [group] = source.groups
    [node] = group.nodes
    assert node.timeout == pytest.approx(FILES[harness][2])


@pytest.mark.parametrize("harness", HARNESSES)
def test_discover_finds_each_harness(tmp_path: Path, harness: str) -> None:
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    _write(project, harness)
    config = agent_hooks.discover(project, home=tmp_path / "home", trust=True, ecosystems=[harness])
    assert [s.source.dialect.name for s in config.sources] == [harness]


def test_check_lists_every_harness_file(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    args = []
    for harness in HARNESSES:
        args += ["--config", str(_write(tmp_path, harness))]
    proc = agent_hooks_cli(
        "check",
        "--trust-project-hooks",
        *args,
        cwd=tmp_path,
        home=tmp_path / "home",
        state=tmp_path / "s",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for harness in HARNESSES:
        assert f"({harness}, 1 handler" in proc.stdout


def test_goose_on_failure_block_fails_closed(tmp_path: Path) -> None:
    path = _write(tmp_path, "goose")
    config = agent_hooks.load(path, trust=True)
    [node] = config.sources[0].groups[0].nodes
    assert "block" in str(node.on_error).lower()


def test_augment_warns_of_a_command_that_is_not_a_sh_file(tmp_path: Path) -> None:
    path = tmp_path / ".augment" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [_cmd("python3 stop.py")]}]}}))
    config = agent_hooks.load(path, trust=True)
    assert any(".sh" in d.message for d in config.diagnostics)
    assert len(config.sources[0].groups) == 1


def test_unknown_event_is_skipped_alone(tmp_path: Path) -> None:
    path = tmp_path / ".factory" / "hooks.json"
    path.parent.mkdir()
    doc = {
        "hooks": {"BeforeTool": [{"hooks": [_cmd("x.sh")]}], "Stop": [{"hooks": [_cmd("y.sh")]}]}
    }
    path.write_text(json.dumps(doc))
    config = agent_hooks.load(path, trust=True)
    assert [g.event for g in config.sources[0].groups] == ["Stop"]
    assert any("BeforeTool" in d.message for d in config.diagnostics)


def test_disable_all_hooks_in_a_qwen_settings_file(tmp_path: Path) -> None:
    path = tmp_path / ".qwen" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({**FILES["qwen"][1], "disableAllHooks": True}))
    config = agent_hooks.load(path, trust=True)
    assert all(n.disabled for s in config.sources for g in s.groups for n in g.nodes)


def test_a_factory_hook_gets_factory_names_and_its_project_dir(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    seen = project / "seen.json"
    script = project / "hook.sh"
    script.write_text(
        f'#!/bin/sh\ncat > {seen}\necho >> {seen}\necho "$FACTORY_PROJECT_DIR" >> {seen}\n'
    )
    script.chmod(0o755)
    (project / ".factory").mkdir()
    (project / ".factory" / "hooks.json").write_text(
        json.dumps(
            {"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [_cmd(str(script))]}]}}
        )
    )
    payload = {
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Execute",
        "tool_input": {"command": "ls"},
    }
    proc = agent_hooks_run(
        project,
        payload,
        "--dialect",
        "factory",
        hide=("CLAUDE_", "FACTORY_"),
        config=project / ".factory" / "hooks.json",
    )
    assert proc.returncode == 0, proc.stderr
    first, project_dir = seen.read_text().splitlines()
    assert json.loads(first)["tool_name"] == "Execute"
    assert project_dir == str(project)


@pytest.mark.parametrize(
    ("harness", "target", "unit"),
    [
        ("factory", ".factory/settings.json", 1),
        ("qwen", ".qwen/settings.json", 1000),
        ("openhands", ".openhands/hooks.json", 1),
        ("trae", ".trae/hooks.json", 1),
        ("qoder", ".qoder/settings.json", 1),
        ("codebuddy", ".codebuddy/settings.json", 1),
    ],
)
def test_install_writes_the_harness_file(
    tmp_path: Path, harness: str, target: str, unit: int
) -> None:
    (tmp_path / "hooks.json").write_text(
        json.dumps({"hooks": {"PreToolUse": [{"hooks": [_cmd("g.sh", timeout=10)]}]}})
    )
    proc = agent_hooks_cli(
        "install",
        "--harness",
        harness,
        "--config",
        str(tmp_path / "hooks.json"),
        "--project-dir",
        str(tmp_path),
        cwd=tmp_path,
        home=tmp_path / "home",
        state=tmp_path / "s",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / target).read_text())
    [entry] = doc["hooks"]["PreToolUse"]
    [hook] = entry["hooks"]
    assert hook["command"].startswith(f"agent-hooks run --dialect {harness} ")
    assert hook["timeout"] == 15 * unit
    config = agent_hooks.load(tmp_path / target, trust=True)
    assert config.sources[0].source.dialect.name == harness


def test_qwen_http_hook_timeouts_are_seconds(tmp_path: Path) -> None:
    path = tmp_path / ".qwen" / "settings.json"
    path.parent.mkdir()
    hook = {"type": "http", "url": "https://hooks.example/check", "timeout": 30}
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [hook]}]}}))
    config = agent_hooks.load(path, trust=True)
    [node] = [n for ns in config.registry().compile().nodes.values() for n in ns]
    assert node.timeout == 30.0
