"""Configuration files have a bounded size once expanded: bytes, values (YAML aliases
counted as expanded, alias bombs refused before anything expands), nesting, matcher
groups and handlers per file. A file over a limit is refused whole, with an error
naming it; files of normal size are unaffected. Loading never raises on content.
(``trust`` runs in this process; ``check`` on an alias bomb in one of its own, bounded.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent_hooks import DiagnosticCode, LoadedConfig, Severity, TrustPolicy, load
from agent_hooks._config._common import (
    MAX_CONFIG_BYTES,
    MAX_CONFIG_DEPTH,
    MAX_CONFIG_NODES,
    MAX_GROUPS_PER_FILE,
    MAX_HANDLERS_PER_FILE,
    read_bytes,
)
from agent_hooks._config._docker import docker_cli_hooks
from tests.cli_inprocess import cli_in_process

DOCKER_EVENTS = [
    "pre_tool_use",
    "post_tool_use",
    "session_start",
    "session_end",
    "user_prompt_submit",
    "stop",
    "turn_start",
    "turn_end",
    "before_llm_call",
    "after_llm_call",
    "on_error",
    "on_user_input",
    "notification",
    "on_max_iterations",
    "on_agent_switch",
    "on_session_resume",
    "tool_response_transform",
    "tool_input_transform",
    "subagent_stop",
    "permission_request",
]


def alias_bomb(groups: int, handlers: int, events: int = len(DOCKER_EVENTS)) -> str:
    """A Docker Agent ``hooks.d`` file whose aliases expand to
    ``events * groups * handlers`` handler entries."""
    lines = [
        "h: &h {type: command, command: 'true'}",
        "l: &l [" + ", ".join(["*h"] * handlers) + "]",
        "g: &g {hooks: *l}",
        "G: &G [" + ", ".join(["*g"] * groups) + "]",
    ]
    lines += [f"{e}: *G" for e in DOCKER_EVENTS[:events]]
    return "\n".join(lines) + "\n"


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def refused(config: LoadedConfig, path: Path, fragment: str) -> None:
    """The file is refused whole: no hooks, status invalid, one error naming it."""
    assert [f.status for f in config.files] == ["invalid"], config.files
    assert not [g for sg in config.sources for g in sg.groups]
    errors = [d for d in config.diagnostics if d.severity is Severity.ERROR]
    assert len(errors) == 1, errors
    (error,) = errors
    assert error.code is DiagnosticCode.CONFIG_READ_FAILED
    assert error.source == str(path)
    assert "too large" in error.message and fragment in error.message, error.message


def hooks_json(groups: int, handlers: int) -> str:
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}] * handlers}
    return json.dumps({"hooks": {"PreToolUse": [group] * groups}})


# ------------------------------------------------------------------- YAML aliases


def test_the_issue_alias_bomb_is_refused_quickly_by_check(tmp_path: Path) -> None:
    """1.6 KB expanding to 400,000 handlers (45 s and 850 MB in `check` before): refused
    before it expands, in a subprocess bounded in time and address space."""
    pytest.importorskip("yaml")
    bomb = write(tmp_path / "bomb.yaml", alias_bomb(groups=100, handlers=200))
    assert len(bomb.read_bytes()) < 2048
    limit = 1 << 30
    code = (
        "import resource, sys; "
        f"resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit})); "
        "from agent_hooks.__main__ import main; sys.exit(main())"
    )
    env = {
        **{k: v for k, v in os.environ.items() if k in ("PATH", "PYTHONPATH")},
        "HOME": str(tmp_path / "home"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code, "check", "--config", str(bomb)],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=15,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("check did not refuse the alias bomb within 15 s")
    assert time.monotonic() - started < 10
    assert proc.returncode == 1, proc.stderr
    assert f"{bomb}: error config_read_failed: configuration too large" in proc.stdout
    assert "aliases are expanded" in proc.stdout
    assert "0 handlers active" in proc.stdout


@pytest.mark.parametrize(
    "text",
    [
        # more handlers than a file may hold, through aliases
        alias_bomb(groups=30, handlers=40, events=2),
        # nested aliases in a key nobody reads: refused all the same (billion laughs)
        "agents:\n  root:\n    hooks: {}\n"
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n"
            for i in range(8)
        ),
    ],
    ids=["handlers", "laughs"],
)
def test_yaml_alias_amplification_is_refused(tmp_path: Path, text: str) -> None:
    pytest.importorskip("yaml")
    path = write(tmp_path / "agent.yaml", text)
    started = time.monotonic()
    config = load(path)
    assert time.monotonic() - started < 2
    refused(config, path, "")


def test_a_recursive_alias_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    path = write(tmp_path / "hooks.d" / "loop.yaml", "pre_tool_use: &a\n  - *a\n")
    refused(load(path), path, "inside its own anchor")


def test_deep_yaml_is_refused(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    path = write(tmp_path / "hooks.d" / "deep.yaml", "pre_tool_use: " + "[" * 5000 + "]" * 5000)
    refused(load(path), path, "levels deep")


def test_normal_yaml_with_aliases_still_loads(tmp_path: Path) -> None:
    """Aliases are fine: a handler reused a few times loads as before."""
    pytest.importorskip("yaml")
    path = write(tmp_path / "hooks.d" / "ok.yaml", alias_bomb(groups=3, handlers=4, events=5))
    config = load(path)
    assert [f.status for f in config.files] == ["loaded"]
    # (the anchors' own keys, h, l, g and G, load as untyped events)
    typed = [g for sg in config.sources for g in sg.groups if g.event not in ("h", "l", "g", "G")]
    assert sum(len(g.nodes) for g in typed) == 60


# ----------------------------------------------------------- every other format


def test_a_file_over_the_byte_limit_is_refused_unparsed(tmp_path: Path) -> None:
    padding = "x" * MAX_CONFIG_BYTES
    path = write(tmp_path / "hooks.json", json.dumps({"description": padding, "hooks": {}}))
    config = load(path)
    refused(config, path, f"more than {MAX_CONFIG_BYTES:,} bytes")
    assert config.files[0].sha256 is None
    # reading is bounded too (a file that is a device or keeps growing)
    assert len(read_bytes(str(path))) == MAX_CONFIG_BYTES + 1


@pytest.mark.parametrize(
    ("groups", "handlers", "fragment"),
    [
        (1, MAX_HANDLERS_PER_FILE + 1, f"more than {MAX_HANDLERS_PER_FILE:,} handlers"),
        (MAX_GROUPS_PER_FILE + 1, 0, f"more than {MAX_GROUPS_PER_FILE:,} matcher groups"),
    ],
)
def test_json_over_the_entry_limits_is_refused(
    tmp_path: Path, groups: int, handlers: int, fragment: str
) -> None:
    path = write(tmp_path / "hooks.json", hooks_json(groups, handlers))
    refused(load(path), path, fragment)


def test_json_at_the_limits_loads(tmp_path: Path) -> None:
    path = write(tmp_path / "hooks.json", hooks_json(10, MAX_HANDLERS_PER_FILE // 10))
    config = load(path)
    assert [f.status for f in config.files] == ["loaded"]
    assert config.files[0].handlers == MAX_HANDLERS_PER_FILE


def test_json_with_too_many_values_is_refused(tmp_path: Path) -> None:
    doc = {"permissions": {"allow": [0] * MAX_CONFIG_NODES}, "hooks": {}}
    path = write(tmp_path / "settings.json", json.dumps(doc, separators=(",", ":")))
    refused(load(path), path, f"more than {MAX_CONFIG_NODES:,} values")


@pytest.mark.parametrize("name", ["hooks.json", "settings.json", ".deepagents/hooks.json"])
def test_deep_json_is_refused_not_raised(tmp_path: Path, name: str) -> None:
    path = write(tmp_path / name, '{"hooks": ' + "[" * 100_000 + "]" * 100_000 + "}")
    refused(load(path, trust=True), path, f"more than {MAX_CONFIG_DEPTH} levels deep")
    shallow = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "x": '
    path = write(tmp_path / name, shallow + "[" * 200 + "]" * 200 + "}]}]}}")
    refused(load(path, trust=True), path, "levels deep")


def test_toml_over_the_limits_is_refused(tmp_path: Path) -> None:
    entry = '[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "true"\n'
    text = "[[hooks.PreToolUse]]\n" + entry * (MAX_HANDLERS_PER_FILE + 1)
    path = write(tmp_path / ".codex" / "config.toml", text)
    refused(load(path, trust=True), path, "handlers")
    path = write(tmp_path / "deep.toml", "a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    refused(load(path, trust=True), path, "levels deep")


def test_an_untrusted_file_over_the_limits_is_reported_too(tmp_path: Path) -> None:
    project = tmp_path / "project"
    path = write(project / ".claude" / "settings.json", hooks_json(1, MAX_HANDLERS_PER_FILE + 1))
    config = load(path, trust=TrustPolicy(store=None))
    assert [f.status for f in config.files] == ["untrusted"]
    errors = [d for sg in config.skipped for d in sg.diagnostics if d.severity is Severity.ERROR]
    assert len(errors) == 1 and "too large" in errors[0].message


def test_too_many_command_line_hooks_are_a_diagnostic(tmp_path: Path) -> None:
    config = docker_cli_hooks({"pre_tool_use": ["true"] * (MAX_HANDLERS_PER_FILE + 1)})
    assert not [g for sg in config.sources for g in sg.groups]
    assert any("too large" in d.message or "too many" in d.message for d in config.diagnostics)


def test_trust_refuses_a_file_over_the_limits(tmp_path: Path) -> None:
    project = tmp_path / "project"
    path = write(project / ".claude" / "settings.json", hooks_json(1, MAX_HANDLERS_PER_FILE + 1))
    env = {
        **{k: v for k, v in os.environ.items() if k in ("PATH", "PYTHONPATH")},
        "HOME": str(tmp_path / "home"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    proc = cli_in_process(["trust", "--project-dir", str(project)], env=env, cwd=os.getcwd())
    assert proc.returncode == 1 and "nothing was trusted" in proc.stderr
    assert str(path) in proc.stderr and "too large" in proc.stderr
