"""Start-up of ``agent-hooks run`` (one process per hook event): it imports what the event
and the configuration need and nothing else, and its argument fast path reads a command
line exactly as the parser does."""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path, PurePath

import pytest

from agent_hooks import HookEvent
from agent_hooks._cli import COMMANDS, SUBCOMMANDS, build_parser
from agent_hooks._cli._run import RUN_OPTIONS, parse_run_args, run_hooks
from agent_hooks._config._load import _components, _suffix, detect_format
from agent_hooks._trust import TrustStore, default_trust_path

PY = sys.executable

HOOK_MODULE = """\
from agent_hooks import PreToolUseInput, PreToolUseOutput


def guard(input: PreToolUseInput) -> PreToolUseOutput | None:
    return PreToolUseOutput(additional_context="checked by guard")
"""

QUIET_MODULE = """\
def quiet(input: object) -> None:
    return None
"""

GUARD_ANSWER = {
    "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "checked by guard"}
}

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
    # the command line: no parser for a plain `run`, no other command
    "argparse",
    "agent_hooks._cli._check",
    "agent_hooks._cli._serve",
    # handler kinds the configuration does not use
    "agent_hooks._command",
    "agent_hooks._http",
    "agent_hooks._llm",
    "agent_hooks._mcp",
    "agent_hooks._builtins",
    # loaders of formats not in use, discovery, reloads, plugins
    "agent_hooks._config._codex",
    "agent_hooks._config._deepagents",
    "agent_hooks._config._discover",
    "agent_hooks._config._docker",
    "agent_hooks._config._hel",
    "agent_hooks._config._plugin",
    "agent_hooks._config._reload",
    # lifecycle helpers' results, docs, schemas
    "agent_hooks._outcomes",
    "agent_hooks._docs",
    "agent_hooks._schema",
    # standard library only some paths need
    "datetime",
    "difflib",
    "pathlib",
    "urllib.parse",
}


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "AGENT_HOOKS_"))}
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    return env


def _config(tmp_path: Path, event: str, callable: str) -> Path:
    """A hooks file outside the project (no trust needed) naming ``callable``
    (``guard:guard`` or ``quiet:quiet``)."""
    (tmp_path / "conf").mkdir()
    (tmp_path / "project").mkdir()
    (tmp_path / "conf" / "guard.py").write_text(HOOK_MODULE)
    (tmp_path / "conf" / "quiet.py").write_text(QUIET_MODULE)
    config = tmp_path / "conf" / "hooks.json"
    entry = {"type": "python", "callable": callable}
    config.write_text(json.dumps({"hooks": {event: [{"hooks": [entry]}]}}))
    return config


def _run_and_list_modules(
    tmp_path: Path, event: str, payload: Mapping[str, object], callable: str, answer: object
) -> set[str]:
    config = _config(tmp_path, event, callable)
    out = tmp_path / "modules.json"
    env = {**_env(tmp_path), "MODULES_OUT": str(out)}
    argv = ["run", "--config", str(config), "--project-dir", str(tmp_path / "project")]
    proc = subprocess.run(
        [PY, "-c", RUNNER, *argv],
        input=json.dumps({"hook_event_name": event, "session_id": "s", **payload}).encode(),
        capture_output=True,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout) == answer
    return set(json.loads(out.read_text()))


def test_run_imports_only_what_the_event_and_the_config_need(tmp_path: Path) -> None:
    payload = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
    modules = _run_and_list_modules(tmp_path, "PreToolUse", payload, "guard:guard", GUARD_ANSWER)
    assert "agent_hooks._config._load" in modules  # the check below would be vacuous otherwise
    assert sorted(modules & NOT_IMPORTED_BY_RUN) == []
    events = {m for m in modules if m.startswith("agent_hooks._events.")}
    assert events == {"agent_hooks._events._tool", "agent_hooks._events._tool._pre_tool_use"}


def test_an_event_imports_its_own_module_and_what_it_shares(tmp_path: Path) -> None:
    payload = {"agent_type": "Explore"}
    modules = _run_and_list_modules(tmp_path, "SubagentStop", payload, "quiet:quiet", {})
    events = {m for m in modules if m.startswith("agent_hooks._events.")}
    assert events == {
        "agent_hooks._events._agents",
        "agent_hooks._events._agents._subagent_stop",
        "agent_hooks._events._prompt",
        "agent_hooks._events._prompt._background",  # BackgroundTask, SessionCron
    }


@pytest.mark.parametrize("event", list(HookEvent))
def test_every_event_lives_in_its_own_module(event: HookEvent) -> None:
    from agent_hooks._events import INPUT_TYPES

    cls = INPUT_TYPES[event]
    assert cls.__module__.rsplit(".", 1)[1] == "_" + event.snake
    assert cls.output_type.__module__ == cls.__module__


# ------------------------------------------------------------ command line


def test_commands_name_the_module_that_registers_them() -> None:
    registered: dict[str, str] = {}
    for module in SUBCOMMANDS:
        parser = argparse.ArgumentParser()
        subparsers = parser.add_subparsers()
        __import__(module, fromlist=("register",)).register(subparsers)
        registered.update(dict.fromkeys(subparsers.choices, module))
    assert registered == dict(COMMANDS)


def test_a_parser_for_one_command_reads_it_as_the_full_parser_does() -> None:
    argv = ["run", "--config", "a.json", "--report"]
    assert vars(build_parser("run").parse_args(argv)) == vars(build_parser().parse_args(argv))


def _parsed(argv: list[str]) -> dict[str, object] | None:
    """What the full parser makes of ``run`` + argv, or None when it refuses it."""
    try:
        return vars(build_parser().parse_args(["run", *argv]))
    except SystemExit:
        return None


HARNESS_FORMS = [
    [],
    ["--config", "/etc/hooks.json"],
    ["--config=/etc/hooks.json", "--config", "b.toml", "--fail-closed"],
    ["--config", "h.json", "--project-dir", "/repo", "--format", "claude-hooks"],
    ["--discover", "--home", "/home/u", "--trust-project-hooks", "--trust-store", "t.json"],
    ["--report", "--report", "--format", "a", "--format=b"],
    ["--config", "has space.json", "--config", "ünïcode.json"],
]


@pytest.mark.parametrize("argv", HARNESS_FORMS)
def test_plain_command_lines_take_the_fast_path(argv: list[str]) -> None:
    fast = parse_run_args(argv)
    assert fast is not None
    assert vars(fast) == _parsed(argv)


def test_the_fast_path_agrees_with_the_parser_or_steps_aside() -> None:
    tokens = [
        *(option.flag for option in RUN_OPTIONS),
        "--config=x",
        "--report=1",
        "--config=",
        "--conf",
        "--help",
        "-h",
        "--",
        "-",
        "-x",
        "--unknown",
        "value",
        "",
        "-1",
        "a=b",
    ]
    rng = random.Random(7)
    fast_taken = 0
    for n in range(6):
        combos = itertools.product(tokens, repeat=n) if n <= 2 else []
        samples = list(combos) + [tuple(rng.choices(tokens, k=n)) for _ in range(300)]
        for argv in map(list, samples):
            fast = parse_run_args(argv)
            if fast is None:
                continue
            fast_taken += 1
            assert vars(fast) == _parsed(argv), argv
            assert fast.func is run_hooks
    assert fast_taken > 100


# ------------------------------------------------- paths without pathlib


def test_file_names_split_as_pathlib_splits_them() -> None:
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


def test_run_with_the_parser_and_with_the_fast_path_answers_alike(tmp_path: Path) -> None:
    config = _config(tmp_path, "PreToolUse", "guard:guard")
    payload = json.dumps({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash"})
    project = str(tmp_path / "project")
    reports = []
    # the first command line is plain (fast path); "--conf" is an abbreviation (the parser)
    for option in ("--config", "--conf"):
        proc = subprocess.run(
            [PY, "-m", "agent_hooks", "run", option, str(config), "--report"],
            input=payload.encode(),
            capture_output=True,
            env={**_env(tmp_path), "CLAUDE_PROJECT_DIR": project},
            check=False,
        )
        assert proc.returncode == 0, proc.stderr.decode()
        reports.append(json.loads(proc.stdout))
    assert reports[0]["decision"] == reports[1]["decision"] == GUARD_ANSWER
    assert [h["name"] for h in reports[0]["handlers"]] == ["guard:guard"]


@pytest.mark.parametrize(("seconds", "flagged"), [(999.9, False), (1000, True), (30000, True)])
def test_python_hooks_keep_the_millisecond_timeout_diagnostic(
    seconds: float, flagged: bool
) -> None:
    from agent_hooks import DiagnosticCode
    from agent_hooks._kinds import KindContext, build_handler

    ctx = KindContext(location="hooks.PreToolUse[0].hooks[0]")
    entry = {"type": "python", "callable": "os.path:basename", "timeout": seconds}
    node = build_handler(entry, ctx)
    assert node is not None and node.timeout == seconds
    codes = {d.code for d in ctx.diagnostics}
    assert (DiagnosticCode.TIMEOUT_LOOKS_LIKE_MS in codes) is flagged


def test_lifecycle_helpers_keep_resolvable_annotations() -> None:
    import typing

    import agent_hooks
    from agent_hooks import _lifecycle

    hints = typing.get_type_hints(agent_hooks.Session.call_tool)
    assert hints["return"] is agent_hooks.ToolCallOutcome
    if sys.version_info >= (3, 11):  # 3.10 leaves strings inside Callable[...] as they are
        callback_args = typing.get_args(typing.get_args(hints["permission"])[0])
        assert callback_args[0] == [agent_hooks.PermissionPrompt]
    assert typing.get_type_hints(agent_hooks.Session.check_stop)["return"] is (
        agent_hooks.StopOutcome
    )
    assert _lifecycle.PermissionAnswer is agent_hooks.PermissionAnswer  # the former home
