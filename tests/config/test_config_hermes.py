"""Hermes Agent's ``hooks:`` block in ``~/.hermes/config.yaml`` (``$HERMES_HOME``) loads
as Hermes reads it: flat entries, ``matcher`` on tool events, seconds (60 by default,
at most 300), ``fail_closed`` on ``pre_tool_call``; bad entries are diagnostics; install
refuses with what to write instead."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import agent_hooks
from tests.install_helpers import ah, graph

pytest.importorskip("yaml")

CONFIG = textwrap.dedent(
    """\
    model:
      default: anthropic/claude-opus
    hooks:
      pre_tool_call:
        - matcher: "terminal|write_file|patch"
          command: "~/.hermes/agent-hooks/secret-scan.sh"
          timeout: 10
          fail_closed: true
      pre_llm_call:
        - command: "~/.hermes/agent-hooks/inject-cwd-context.sh"
      outbound:
        - url: https://hooks.example/notify
    hooks_auto_accept: false
    """
)


def _write(home: Path, text: str = CONFIG) -> Path:
    path = home / ".hermes" / "config.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_the_digest_s_config_loads(tmp_path: Path) -> None:
    config = agent_hooks.load(_write(tmp_path), harness="hermes")
    assert config.diagnostics == ()
    [source] = config.sources
    assert source.source.dialect.name == "hermes"
    guard, context = source.groups
    assert (str(guard.event), guard.matcher) == ("PreToolUse", "terminal|write_file|patch")
    assert guard.nodes[0].timeout == pytest.approx(10.0)
    assert "block" in str(guard.nodes[0].on_error).lower()  # fail_closed: true
    assert str(context.event) == "UserPromptSubmit" and context.matcher is None


def test_discover_reads_the_profile_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    _write(home)
    found = agent_hooks.discover(tmp_path, home=home, ecosystems=["hermes"])
    assert [len(s.groups) for s in found.sources] == [2]
    profile = tmp_path / "profiles" / "work"
    profile.mkdir(parents=True)
    (profile / "config.yaml").write_text("hooks:\n  post_tool_call:\n    - command: log.sh\n")
    monkeypatch.setenv("HERMES_HOME", str(profile))
    moved = agent_hooks.discover(tmp_path, home=home, ecosystems=["hermes"])
    assert [str(g.event) for s in moved.sources for g in s.groups] == ["PostToolUse"]


@pytest.mark.parametrize(
    ("hooks", "needle"),
    [
        ("  pre_tool_cal:\n    - command: x.sh\n", "unknown event 'pre_tool_cal'"),
        ("  pre_tool_call:\n    - timeout: 5\n", "needs a 'command'"),
        ("  pre_tool_call:\n    - command: x.sh\n      timeout: 900\n", "clamped"),
        ("  post_tool_call:\n    - command: x.sh\n      fail_closed: true\n", "pre_tool_call only"),
        ("  pre_llm_call:\n    - command: x.sh\n      matcher: terminal\n", "tool events only"),
        ("  pre_tool_call: x.sh\n", "must be a list"),
    ],
)
def test_bad_entries_are_diagnostics(tmp_path: Path, hooks: str, needle: str) -> None:
    config = agent_hooks.load(_write(tmp_path, "hooks:\n" + hooks), harness="hermes")
    assert any(needle in d.message for d in config.diagnostics), config.diagnostics


def test_a_clamped_timeout_is_300_seconds(tmp_path: Path) -> None:
    text = "hooks:\n  pre_tool_call:\n    - command: x.sh\n      timeout: 900\n"
    config = agent_hooks.load(_write(tmp_path, text), harness="hermes")
    assert config.sources[0].groups[0].nodes[0].timeout == pytest.approx(300.0)


def test_invalid_yaml_is_a_diagnostic_with_its_line(tmp_path: Path) -> None:
    config = agent_hooks.load(_write(tmp_path, "hooks:\n  pre_tool_call: [\n"), harness="hermes")
    [diag] = config.diagnostics
    assert diag.code.value == "config_read_failed" and "line" in str(diag.location)


def test_install_refuses_and_says_what_to_write(tmp_path: Path) -> None:
    conf = graph(tmp_path / "conf" / "hooks.json")
    proc = ah(tmp_path, "install", "--harness", "hermes", "--config", str(conf))
    assert proc.returncode != 0
    assert "config.yaml" in proc.stderr and "fail_closed: true" in proc.stderr
