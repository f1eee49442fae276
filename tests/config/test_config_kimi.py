"""Kimi Code's ``[[hooks]]`` in ``~/.kimi-code/config.toml`` (``$KIMI_CODE_HOME``): a
realistic file loads beside Kimi's other settings, its strict schema is reported entry
by entry, its matchers are tested as Kimi tests them, and ``install`` says why it does
not write the file."""

from __future__ import annotations

from pathlib import Path

import pytest

import agent_hooks
from tests.dialect_helpers import agent_hooks_cli

REALISTIC = """\
default_model = "kimi-k2-turbo"

[models.kimi-k2-turbo]
provider = "kimi"
max_context_size = 262144

[[hooks]]
event = "PreToolUse"
matcher = "Bash|Shell"
command = "node ~/.kimi-code/hooks/block-dangerous-bash.mjs"
timeout = 5

[[hooks]]
event = "SessionStart"
matcher = "startup"
command = "~/.kimi-code/hooks/hello.sh"

[[hooks]]
event = "Stop"
command = "~/.kimi-code/hooks/check-tests.sh"
timeout = 600
"""


def _write(home: Path, text: str) -> Path:
    path = home / ".kimi-code" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_realistic_file_loads_as_kimis_by_its_place(tmp_path: Path) -> None:
    path = _write(tmp_path, REALISTIC)
    config = agent_hooks.load(path)
    assert config.diagnostics == ()
    [source] = config.sources
    assert source.source.dialect.name == "kimi"
    [file] = config.files
    assert (file.format, file.scope) == ("kimi-toml", "user")
    assert [g.event for g in source.groups] == ["PreToolUse", "SessionStart", "Stop"]
    assert [n.timeout for g in source.groups for n in g.nodes] == [5.0, None, 600.0]


def test_discover_finds_it_under_home_or_kimi_code_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    _write(tmp_path / "home", REALISTIC)
    config = agent_hooks.discover(project, home=tmp_path / "home", ecosystems=["kimi"])
    assert [s.source.dialect.name for s in config.sources] == ["kimi"]
    moved = tmp_path / "elsewhere"
    (moved).mkdir()
    (moved / "config.toml").write_text(REALISTIC)
    monkeypatch.setenv("KIMI_CODE_HOME", str(moved))
    config = agent_hooks.discover(project, home=tmp_path / "home", ecosystems=["kimi"])
    assert [f.path for f in config.files] == [str(moved / "config.toml")]


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ('event = "PreToolUse"\ncommand = "x"\nname = "guard"', "unknown key(s) 'name'"),
        ('command = "x"', "no 'event'"),
        ('event = "PreToolUse"', "'command' must be a non-empty string"),
        ('event = "PreToolUse"\ncommand = "x"\ntimeout = 0', "'timeout' must be whole seconds"),
        ('event = "PreToolUse"\ncommand = "x"\ntimeout = 2.5', "'timeout' must be whole seconds"),
        ('event = "PreToolUse"\ncommand = "x"\ntimeout = 601', "'timeout' must be whole seconds"),
    ],
)
def test_a_hook_that_breaks_kimis_schema_is_dropped_alone(
    tmp_path: Path, entry: str, says: str
) -> None:
    path = _write(tmp_path, f'[[hooks]]\n{entry}\n\n[[hooks]]\nevent = "Stop"\ncommand = "y"\n')
    config = agent_hooks.load(path, harness="kimi")
    [diag] = config.diagnostics
    assert says in diag.message and diag.severity.name == "ERROR"
    assert diag.location == "hooks[0]"
    assert [g.event for g in config.sources[0].groups] == ["Stop"]


def test_an_unknown_event_is_skipped_with_a_warning(tmp_path: Path) -> None:
    path = _write(tmp_path, '[[hooks]]\nevent = "BeforeTool"\ncommand = "x"\n')
    config = agent_hooks.load(path, harness="kimi")
    [diag] = config.diagnostics
    assert "BeforeTool" in diag.message and diag.severity.name == "WARNING"
    assert config.sources[0].groups == ()


def test_matchers_kimi_would_never_match_or_cannot_read_drop_their_hook(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[[hooks]]\nevent = "Stop"\nmatcher = "tests"\ncommand = "x"\n'
        '[[hooks]]\nevent = "PreToolUse"\nmatcher = "(Bash"\ncommand = "x"\n'
        '[[hooks]]\nevent = "Stop"\nmatcher = ".*"\ncommand = "x"\n',
    )
    config = agent_hooks.load(path, harness="kimi")
    assert [d.code.value for d in config.diagnostics] == ["unsupported_matcher", "invalid_matcher"]
    assert [g.location for g in config.sources[0].groups] == ["hooks[2]"]


def test_bad_toml_and_a_hooks_table_are_reported(tmp_path: Path) -> None:
    config = agent_hooks.load(_write(tmp_path, "[[hooks]\n"), harness="kimi")
    assert [d.code.value for d in config.diagnostics] == ["config_read_failed"]
    config = agent_hooks.load(_write(tmp_path, '[hooks]\nevent = "Stop"\n'), harness="kimi")
    assert [d.code.value for d in config.diagnostics] == ["invalid_config"]


def test_install_says_why_it_does_not_write_kimis_file(tmp_path: Path) -> None:
    (tmp_path / "hooks.json").write_text('{"hooks": {}}')
    proc = agent_hooks_cli(
        "install",
        "--harness",
        "kimi",
        "--config",
        str(tmp_path / "hooks.json"),
        cwd=tmp_path,
        home=tmp_path / "home",
        state=tmp_path / "s",
    )
    assert proc.returncode != 0
    assert "[[hooks]]" in proc.stderr and "--dialect kimi" in proc.stderr
    assert not (tmp_path / "home" / ".kimi-code").exists()
