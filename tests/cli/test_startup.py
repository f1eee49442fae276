"""Start-up: ``import agent_hooks`` stays light (no event classes, handler kinds or config
loaders until they are used), and ``agent-hooks run`` imports neither the other commands nor
the handler kinds and loaders its configuration does not use (no process runner for a
configuration of Python hooks)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path, PurePath

import pytest

from agent_hooks._bridges._cli import COMMANDS, build_parser
from agent_hooks._config._trust import TrustStore, default_trust_path
from agent_hooks._events._catalog import FAMILIES

PY = sys.executable

HOOK_MODULE = """\
from agent_hooks import PreToolUseInput, PreToolUseOutput


def guard(input: PreToolUseInput) -> PreToolUseOutput | None:
    return PreToolUseOutput(additional_context="checked by guard")
"""

GUARD_ANSWER = {
    "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "checked by guard"}
}

NO_DAEMON = "AGENT_HOOKS_NO_DAEMON"  # (kept: tests/conftest.py keeps run in-process)

# Runs the command line in-process, then writes the names of every imported module.
RUNNER = """\
import json, os, sys
from agent_hooks.__main__ import main

status = main()
with open(os.environ["MODULES_OUT"], "w") as f:
    json.dump(sorted(sys.modules), f)
sys.exit(status)
"""

NOT_IMPORTED_BY_RUN = {
    # the other commands: a command line naming `run` registers run's parser only
    "agent_hooks._bridges._cli._check",
    "agent_hooks._bridges._cli._serve",
    # handler kinds the configuration does not use, and the process runner
    "agent_hooks._handlers._command",
    "agent_hooks._handlers._process",
    "agent_hooks._handlers._process_asyncio",
    "agent_hooks._handlers._http",
    "agent_hooks._handlers._llm",
    "agent_hooks._handlers._mcp",
    "agent_hooks._handlers._builtins",
    # loaders of formats not in use, discovery, reloads, plugins
    "agent_hooks._config._codex",
    "agent_hooks._config._deepagents",
    "agent_hooks._config._discover",
    "agent_hooks._config._docker",
    "agent_hooks._config._hel",
    "agent_hooks._config._plugin",
    "agent_hooks._config._reload",
    # docs and schemas
    "agent_hooks._events._docs",
    "agent_hooks._wire._schema",
}


def _env(tmp_path: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "AGENT_HOOKS_")) or k == NO_DAEMON
    }
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    return env


def _config(tmp_path: Path) -> Path:
    """A hooks file outside the project (no trust needed) with one Python hook for
    PreToolUse."""
    (tmp_path / "conf").mkdir()
    (tmp_path / "project").mkdir()
    (tmp_path / "conf" / "guard.py").write_text(HOOK_MODULE)
    config = tmp_path / "conf" / "hooks.json"
    entry = {"type": "python", "callable": "guard:guard"}
    config.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [entry]}]}}))
    return config


def _run_and_list_modules(tmp_path: Path) -> set[str]:
    """The modules a ``run`` of a PreToolUse payload against :func:`_config` imports."""
    config = _config(tmp_path)
    out = tmp_path / "modules.json"
    env = {**_env(tmp_path), "MODULES_OUT": str(out)}
    argv = ["run", "--config", str(config), "--project-dir", str(tmp_path / "project")]
    payload = {
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    }
    proc = subprocess.run(
        [PY, "-c", RUNNER, *argv],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout) == GUARD_ANSWER
    return set(json.loads(out.read_text()))


def test_import_agent_hooks_stays_light() -> None:
    proc = subprocess.run(
        [PY, "-c", "import json, sys, agent_hooks; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        check=True,
    )
    modules = set(json.loads(proc.stdout))
    assert "agent_hooks" in modules
    event_classes = tuple(f"agent_hooks._events.{family}" for family in FAMILIES)
    assert sorted(m for m in modules if m.startswith(event_classes)) == []
    handlers_and_loaders = ("agent_hooks._handlers.", "agent_hooks._config.")
    assert sorted(m for m in modules if m.startswith(handlers_and_loaders)) == []
    assert "anyio" not in modules


def test_run_imports_only_what_the_config_needs(tmp_path: Path) -> None:
    modules = _run_and_list_modules(tmp_path)
    assert "agent_hooks._config._load" in modules  # the check below would be vacuous otherwise
    assert sorted(modules & NOT_IMPORTED_BY_RUN) == []


def test_run_imports_the_event_classes_of_its_event_only(tmp_path: Path) -> None:
    """A PreToolUse run imports PreToolUse's module (and its family's shared field
    texts), not the other events the session's lifecycle helpers dispatch."""
    modules = _run_and_list_modules(tmp_path)
    event_classes = tuple(f"agent_hooks._events.{family}" for family in FAMILIES)
    assert sorted(m for m in modules if m.startswith(event_classes)) == [
        "agent_hooks._events._tool",
        "agent_hooks._events._tool._pre_tool_use",
    ]


# ------------------------------------------------------------ command line


def test_commands_name_the_module_that_registers_them() -> None:
    registered: dict[str, str] = {}
    for module in dict.fromkeys(COMMANDS.values()):
        parser = argparse.ArgumentParser()
        subparsers = parser.add_subparsers()
        importlib.import_module(module).register(subparsers)
        registered.update(dict.fromkeys(subparsers.choices, module))
    assert registered == dict(COMMANDS)


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--config", "a.json", "--config=b.toml", "--report", "--fail-closed"],
        ["run", "--discover", "--home", "/h", "--trust-project-hooks", "--trust-store", "t"],
        ["check", "--config", "a.json", "--json"],
        ["trust", "--project-dir", "/p", "--revoke"],
        ["serve", "--config", "a.json", "--port", "0", "--no-auth"],
    ],
)
def test_a_parser_for_one_command_reads_it_as_the_full_parser_does(argv: list[str]) -> None:
    assert vars(build_parser(argv[0]).parse_args(argv)) == vars(build_parser().parse_args(argv))


# ------------------------------------------------- paths without pathlib


def test_file_names_split_as_pathlib_splits_them() -> None:
    from agent_hooks._config._load import _components, _suffix

    names = ["a", "b.c", ".", "..", "", "x.yaml", ".hidden", "file.", "a.b.c", "hooks.d"]
    rng = random.Random(3)
    for _ in range(3000):
        parts = rng.choices(names, k=rng.randint(0, 5))
        path = rng.choice(["", "/", "//", "./"]) + "/".join(parts) + rng.choice(["", "/", "/."])
        p = PurePath(path)
        got = _components(path)
        assert (got[-1] if got else "") == p.name, path
        assert (got[-2] if len(got) > 1 else "") == p.parent.name, path
        assert _suffix(p.name) == p.suffix, path


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        ("/r/.claude/settings.json", "claude-settings"),
        ("/r/.claude/settings.json/", "claude-settings"),
        ("/p/hooks/hooks.json", "claude-plugin"),
        ("/x/hooks.d/a.YAML", "docker-dropin"),
        ("/r/.codex/hooks.json", "codex-json"),
        ("/r/.codex/config.toml", "codex-toml"),
        ("/r/.hel//hooks.json", "hel"),
        ("/r/.deepagents/./hooks.json", "deepagents"),
        ("hooks.json", "claude-hooks"),
    ],
)
def test_detect_format_by_name(path: str, fmt: str) -> None:
    from agent_hooks._config._load import detect_format

    assert detect_format(path) == fmt


def test_the_default_trust_store_is_the_default_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for state in (str(tmp_path / "state") + "//", "relative/ignored", ""):
        monkeypatch.setenv("XDG_STATE_HOME", state)
        store = TrustStore()
        assert store.path == default_trust_path()
        assert repr(store) == f"TrustStore({str(default_trust_path())!r})"
    custom = TrustStore(tmp_path / "t.json")
    assert custom.path == tmp_path / "t.json"
    custom.path = tmp_path / "other.json"
    assert custom.path == tmp_path / "other.json"


def test_a_store_that_cannot_be_read_is_named_in_its_diagnostic(tmp_path: Path) -> None:
    store_file = tmp_path / "state" / "trust.json"
    store_file.mkdir(parents=True)  # a directory: reading it fails
    store = TrustStore(store_file)
    projects, diags = store.read()
    assert projects == {}
    assert [d.source for d in diags] == [str(store_file)]


@pytest.mark.parametrize(("seconds", "flagged"), [(999.9, False), (1000, True), (30000, True)])
def test_python_hooks_keep_the_millisecond_timeout_diagnostic(
    seconds: float, flagged: bool
) -> None:
    from agent_hooks import DiagnosticCode
    from agent_hooks._handlers._kinds import KindContext, build_handler

    ctx = KindContext(location="hooks.PreToolUse[0].hooks[0]")
    entry = {"type": "python", "callable": "os.path:basename", "timeout": seconds}
    node = build_handler(entry, ctx)
    assert node is not None and node.timeout == seconds
    codes = {d.code for d in ctx.diagnostics}
    assert (DiagnosticCode.TIMEOUT_LOOKS_LIKE_MS in codes) is flagged


def test_lifecycle_helpers_keep_resolvable_annotations() -> None:
    import typing

    import agent_hooks

    hints = typing.get_type_hints(agent_hooks.Session.call_tool)
    assert hints["return"] is agent_hooks.ToolCallOutcome
    if sys.version_info >= (3, 11):  # 3.10 leaves strings inside Callable[...] as they are
        callback_args = typing.get_args(typing.get_args(hints["permission"])[0])
        assert callback_args[0] == [agent_hooks.PermissionPrompt]
    assert typing.get_type_hints(agent_hooks.Session.check_stop)["return"] is (
        agent_hooks.StopOutcome
    )
