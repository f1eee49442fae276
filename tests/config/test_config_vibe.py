"""Mistral Vibe's ``[[hooks]]`` in ``.vibe/hooks.toml`` and ``~/.vibe/hooks.toml``
(``$VIBE_HOME``): a realistic file loads, a project's needs trust, entries Vibe would
refuse are dropped alone, its ``match`` patterns select as Vibe's do, and ``install``
says why it does not write the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import agent_hooks
from tests.dialect_helpers import agent_hooks_cli, agent_hooks_run

REALISTIC = """\
[[hooks]]
name = "deny-rm-rf"
type = "pre_tool"
command = "uv run python /home/dev/hooks/guard-bash"
match = "bash"
timeout = 12.5
strict = true
description = "Block rm -rf"

[[hooks]]
name = "lint-after-write"
type = "post_tool"
command = "ruff check --quiet"
match = "re:(write_file|search_replace)"

[[hooks]]
name = "tests-pass"
type = "post_agent"
command = "./scripts/check-tests.sh"
"""


def _write(root: Path, text: str = REALISTIC) -> Path:
    path = root / ".vibe" / "hooks.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_realistic_project_file_loads_when_trusted(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    path = _write(tmp_path)
    config = agent_hooks.load(path, trust=True)
    assert config.diagnostics == ()
    [file] = config.files
    assert (file.format, file.scope, file.handlers) == ("vibe", "project", 3)
    groups = config.sources[0].groups
    assert [g.event for g in groups] == ["PreToolUse", "PostToolUse", "Stop"]
    [strict] = groups[0].nodes
    assert strict.timeout == 12.5 and "block" in str(strict.on_error).lower()
    assert agent_hooks.load(path).files[0].status == "untrusted"


def test_discover_reads_project_then_user_file_and_vibe_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, home = tmp_path / "p", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    _write(project)
    user = _write(home, '[[hooks]]\nname = "u"\ntype = "pre_tool"\ncommand = "x"\n')
    monkeypatch.delenv("VIBE_HOME", raising=False)
    config = agent_hooks.discover(project, home=home, trust=True, ecosystems=["vibe"])
    assert [f.scope for f in config.files] == ["project", "user"]
    assert config.files[1].path == str(user)
    moved = tmp_path / "vibe-home"
    moved.mkdir()
    (moved / "hooks.toml").write_text(user.read_text())
    monkeypatch.setenv("VIBE_HOME", str(moved))
    config = agent_hooks.discover(project, home=home, trust=True, ecosystems=["vibe"])
    assert config.files[1].path == str(moved / "hooks.toml")


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ('type = "pre_tool"\ncommand = "x"', "'name' must be"),
        ('name = "a"\ncommand = "x"', "'type' must be"),
        ('name = "a"\ntype = "pre_tool"', "'command' must be"),
        ('name = "a"\ntype = "post_agent"\ncommand = "x"\nstrict = true', "tool hooks only"),
        ('name = "a"\ntype = "pre_tool"\ncommand = "x"\nmatcher = "bash"', "unknown key(s)"),
        ('name = "a"\ntype = "pre_tool"\ncommand = "x"\nstrict = "yes"', "'strict' must be"),
    ],
)
def test_an_entry_vibe_refuses_is_dropped_alone(tmp_path: Path, entry: str, says: str) -> None:
    path = _write(tmp_path, f'[[hooks]]\n{entry}\n\n[[hooks]]\nname = "ok"\ntype = "post_agent"\ncommand = "y"\n')
    config = agent_hooks.load(path, trust=True)
    [diag] = config.diagnostics
    assert says in diag.message and diag.location == "hooks[0]"
    assert [g.event for g in config.sources[0].groups] == ["Stop"]


def test_an_unknown_type_and_bad_toml_are_reported(tmp_path: Path) -> None:
    path = _write(tmp_path, '[[hooks]]\nname = "a"\ntype = "pre_prompt"\ncommand = "x"\n')
    config = agent_hooks.load(path, trust=True)
    assert "pre_prompt" in config.diagnostics[0].message
    config = agent_hooks.load(_write(tmp_path, "[[hooks]\n"), trust=True)
    assert [d.code.value for d in config.diagnostics] == ["config_read_failed"]


@pytest.mark.parametrize(
    ("match", "tool", "runs"),
    [
        ("BASH", "bash", True),
        ("read_*", "read_file", True),
        ("read_*", "bash", False),
        ("re:(read_file|grep)", "grep", True),
        ("re:read_fil", "read_file", False),  # (a re: pattern matches the whole name)
        ("*", "github_create_issue", True),
    ],
)
def test_match_selects_tools_as_vibe_does(
    tmp_path: Path, match: str, tool: str, runs: bool
) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    body = (
        f'[[hooks]]\nname = "g"\ntype = "pre_tool"\nmatch = "{match}"\n'
        "command = \"echo '{\\\"decision\\\":\\\"deny\\\",\\\"reason\\\":\\\"matched\\\"}'\"\n"
    )
    config = _write(project, body)
    payload = {
        "hook_event_name": "pre_tool",
        "session_id": "s-1",
        "cwd": str(project),
        "tool_name": tool,
        "tool_call_id": "c1",
        "tool_input": {},
    }
    proc = agent_hooks_run(project, payload, hide=("CLAUDE_", "VIBE_"), config=config)
    assert proc.returncode == 0, proc.stderr
    assert (json.loads(proc.stdout).get("decision") == "deny") is runs


def test_install_says_why_it_does_not_write_vibes_file(tmp_path: Path) -> None:
    (tmp_path / "hooks.json").write_text('{"hooks": {}}')
    proc = agent_hooks_cli(
        "install",
        "--harness",
        "vibe",
        "--config",
        str(tmp_path / "hooks.json"),
        cwd=tmp_path,
        home=tmp_path / "home",
        state=tmp_path / "s",
    )
    assert proc.returncode != 0
    assert "strict = true" in proc.stderr and "--dialect vibe" in proc.stderr
    assert not (tmp_path / ".vibe").exists()
