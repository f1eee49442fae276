"""Codex configuration: hooks.json and [hooks] tables in config.toml, per layer
(the project's .codex/ needs trust), timeout minimum 1, commandWindows on POSIX."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import DiagnosticCode, HookEvent, PreToolUseInput, Severity
from agent_hooks._config._codex import load_codex_dir
from agent_hooks._config._compat import load_codex_toml
from agent_hooks._config._discover import discover
from agent_hooks._config._load import load
from agent_hooks._config._trust import TrustPolicy
from agent_hooks._wire._dialects import CODEX

pytestmark = pytest.mark.anyio
ALL = TrustPolicy(store=None, trust_all=True)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return home


def write(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


CONFIG_TOML = """\
model = "gpt-5"
approval_policy = "on-request"

[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "echo 'no shell for you' >&2; exit 2"
timeout = 30

[[hooks.SessionStart]]
matcher = "startup"

[[hooks.SessionStart.hooks]]
type = "command"
command = "echo session"
"""


async def test_config_toml_hooks_tables(home: Path, tmp_path: Path) -> None:
    write(home / ".codex" / "config.toml", CONFIG_TOML)
    config = load_codex_dir(tmp_path / "project")
    assert [f.format for f in config.files] == ["codex-toml"]
    assert config.diagnostics == ()
    assert config.sources[0].source.dialect is CODEX
    groups = config.sources[0].groups
    assert [(g.event, g.matcher, g.location) for g in groups] == [
        (HookEvent.PRE_TOOL_USE, "Bash", "hooks.PreToolUse[0]"),
        (HookEvent.SESSION_START, "startup", "hooks.SessionStart[0]"),
    ]
    async with config.registry().session(cwd=str(tmp_path)) as session:
        d = await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"}))
    assert d.blocked and d.reason == "no shell for you"


def test_hooks_json_and_toml_in_both_layers(home: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    hook = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo pj"}]}]}}
    write(project / ".codex" / "hooks.json", hook)
    write(project / ".codex" / "config.toml", 'model = "x"\n')  # no hooks: not a hook source
    write(
        home / ".codex" / "hooks.json",
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo uj"}]}]}},
    )
    write(home / ".codex" / "config.toml", CONFIG_TOML)
    config = discover(project, trust=ALL, ecosystems=("codex",))
    assert [(Path(f.path).name, f.scope, f.precedence) for f in config.files] == [
        ("hooks.json", "project", 200),
        ("hooks.json", "user", 300),
        ("config.toml", "user", 300),
    ]
    names = [cn.info.name for cn in config.registry().compile().nodes[HookEvent.STOP]]
    assert names == ["echo pj", "echo uj"]


def test_project_layer_needs_trust(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write(project / ".codex" / "config.toml", CONFIG_TOML)
    config = discover(project, ecosystems=("codex",))
    assert [f.status for f in config.files] == ["untrusted"]
    assert [d.code for d in config.diagnostics] == [DiagnosticCode.UNTRUSTED]


def test_codex_home_is_honoured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(
        tmp_path / "ch" / "hooks.json",
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}},
    )
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "ch"))
    config = load_codex_dir(None)
    assert config.files[0].path == str(tmp_path / "ch" / "hooks.json")


def test_timeout_minimum_and_command_windows(tmp_path: Path) -> None:
    path = write(
        tmp_path / ".codex" / "hooks.json",
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "hooks": [
                            {
                                "type": "command",
                                "command": "echo posix",
                                "commandWindows": "echo win",
                                "timeout": 0.2,
                            }
                        ]
                    }
                ]
            }
        },
    )
    config = load(path, trust=ALL)
    (diag,) = config.diagnostics
    assert diag.severity is Severity.INFO and "minimum" in diag.message
    node = config.sources[0].groups[0].nodes[0]
    assert node.name == "echo posix" and node.timeout == 1.0


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path / "config.toml", "[[hooks.Stop]]\nmatcher = \n")
    (diag,) = load_codex_toml(path).diagnostics
    assert diag.code is DiagnosticCode.CONFIG_READ_FAILED
    assert "line 2" in diag.message


def test_toml_wrong_shapes(tmp_path: Path) -> None:
    path = write(tmp_path / "config.toml", 'hooks = "x"\n')
    assert [d.location for d in load(path).diagnostics] == ["hooks"]
    path = write(tmp_path / "config.toml", '[hooks]\nStop = "x"\nStpo = []\n')
    assert {d.location for d in load(path).diagnostics} == {"hooks.Stop", "hooks.Stpo"}
