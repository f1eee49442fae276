"""Goose's Open Plugins hooks, as its docs describe them: ``on_failure: block`` applies to
PreToolUse only (Stop stays fail-open); another value skips the whole ``hooks.json``; a
printed ``{"decision": "allow"}`` with a non-zero exit and a stray stdout line decide
nothing, a printed block blocks even with a non-zero exit; ``disabledPlugins`` in
``~/.config/goose/settings.json`` or ``<project>/.config/goose/settings.json`` switches a
plugin's hooks off."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import DiagnosticCode, HookEvent, Severity, TrustPolicy
from tests.dialect_helpers import agent_hooks_cli

pytestmark = pytest.mark.anyio
ALL = TrustPolicy(store=None, trust_all=True)


def plugin(root: Path, name: str, hooks: dict[str, Any]) -> Path:
    path = root / ".agents" / "plugins" / name / "hooks" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks}))
    return path


def cmd(command: str, **kw: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **kw}


def shell_group(*hooks: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"matcher": "developer__shell", "hooks": list(hooks)}]


def payload(project: Path, event: str = "PreToolUse") -> dict[str, Any]:
    base = {"event": event, "session_id": "s1", "working_dir": str(project)}
    if event == "PreToolUse":
        return {**base, "tool_name": "developer__shell", "tool_input": {"command": "ls"}}
    return base


def run(
    project: Path, config: Path, event: str = "PreToolUse", *args: str, process: bool = False
) -> Any:
    """``agent-hooks run`` in this process (``process``: in a subprocess, for async tests)."""
    proc = agent_hooks_cli(
        "run",
        "--dialect",
        "goose",
        "--config",
        str(config),
        "--trust-project-hooks",
        *args,
        cwd=project,
        home=project.parent / "home",
        state=project.parent / "state",
        hide=("GOOSE_",),
        payload=payload(project, event),
        process=process,
    )
    return proc


def answer(proc: subprocess.CompletedProcess[str]) -> Any:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# --------------------------------------------------------------------- on_failure


async def test_on_failure_block_blocks_pre_tool_use_only(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = plugin(
        project,
        "guard",
        {
            "PreToolUse": shell_group(cmd("exit 1", on_failure="block")),
            "Stop": [{"hooks": [cmd("exit 1", on_failure="block")]}],
        },
    )
    config = agent_hooks.load(path, harness="goose", trust=ALL)
    (note,) = config.diagnostics
    assert note.severity is Severity.INFO and note.location == "hooks.Stop[0].hooks[0]"
    assert "PreToolUse only" in note.message
    async with config.registry().session(cwd=str(project)) as session:
        pre = await session.dispatch(
            agent_hooks.PreToolUseInput(tool_name="developer__shell", tool_input={})
        )
        stop = await session.dispatch(agent_hooks.StopInput())
    assert pre.blocked and not stop.blocked
    assert answer(run(project, path, process=True))["decision"] == "block"
    assert answer(run(project, path, "Stop", process=True)) == {}


@pytest.mark.parametrize("value", ["deny", "Block", True, ["block"]])
def test_another_on_failure_skips_the_whole_file(tmp_path: Path, value: object) -> None:
    project = tmp_path / "proj"
    guard = cmd("""echo '{"decision":"block","reason":"no"}'""")
    path = plugin(
        project,
        "guard",
        {
            "PreToolUse": shell_group(guard),
            "Stop": [{"hooks": [cmd("true", on_failure=value)]}],
        },
    )
    config = agent_hooks.load(path, harness="goose", trust=ALL)
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.INVALID_CONFIG and diag.severity is Severity.ERROR
    assert diag.location == "hooks.Stop[0].hooks[0]" and "whole hooks file" in diag.message
    assert config.sources[0].groups == ()
    proc = run(project, path)  # as Goose: the file's guard does not run
    assert answer(proc) == {} and "whole hooks file" in proc.stderr
    closed = run(project, path, "PreToolUse", "--fail-closed")
    assert closed.returncode == 2  # (exit 2 blocks PreToolUse in Goose)


# ------------------------------------------------------------------------ answers


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("""echo '{"decision":"allow"}'; exit 1""", {}),
        ("""echo '{"decision":"block","reason":"no"}'; exit 1""", {"decision": "block"}),
        ("""echo '{"decision":"block","reason":"no"}'; exit 3""", {"decision": "block"}),
        ("""echo progress; echo '{"decision":"block","reason":"no"}'""", {}),
        ("""echo '{"decision":"block","reason":"no"}'""", {"decision": "block"}),
        ("""echo '{"decision":"allow"}'""", {"decision": "allow"}),
    ],
)
def test_what_goose_reads_of_a_hook_s_answer(
    tmp_path: Path, script: str, expected: dict[str, str]
) -> None:
    project = tmp_path / "proj"
    path = plugin(project, "guard", {"PreToolUse": shell_group(cmd(script))})
    got = answer(run(project, path))
    assert {k: v for k, v in got.items() if k == "decision"} == expected
    if expected.get("decision") == "block":
        assert got["reason"] == "no"


async def test_a_printed_allow_with_a_failing_exit_is_no_decision_in_the_api(
    tmp_path: Path,
) -> None:
    project = tmp_path / "proj"
    path = plugin(
        project,
        "guard",
        {"PreToolUse": shell_group(cmd("""echo '{"decision":"allow"}'; exit 1"""))},
    )
    config = agent_hooks.load(path, harness="goose", trust=ALL)
    decoded = agent_hooks.decode_payload(payload(project), dialect="goose")
    result = await agent_hooks.dispatch_payload(decoded, config.registry())
    assert result.answer == {}
    assert [d.code for d in result.diagnostics] == [DiagnosticCode.NONZERO_EXIT]


# ---------------------------------------------------------------- disabledPlugins


@pytest.mark.parametrize("where", ["home", "project"])
def test_disabled_plugins_switch_a_plugin_off(tmp_path: Path, where: str) -> None:
    project, home = tmp_path / "proj", tmp_path / "home"
    plugin(project, "guard", {"PreToolUse": shell_group(cmd("echo guard"))})
    plugin(project, "audit", {"PreToolUse": shell_group(cmd("echo audit"))})
    plugin(home, "personal", {"PreToolUse": shell_group(cmd("echo personal"))})
    settings = (home if where == "home" else project) / ".config" / "goose" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"disabledPlugins": ["guard", "personal"]}))
    config = agent_hooks.discover(project, home=home, ecosystems=("goose",), trust=ALL)
    nodes = config.registry().compile().nodes[HookEvent.PRE_TOOL_USE]
    assert [cn.node.name for cn in nodes] == ["echo audit"]
    off = [d for d in config.diagnostics if d.code is DiagnosticCode.HOOKS_DISABLED]
    assert {Path(d.source or "").parts[-3] for d in off} == {"guard", "personal"}
    assert all(str(settings) in d.message for d in off)


def test_a_disabled_plugin_is_not_run_by_agent_hooks_run(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    guard = cmd("""echo '{"decision":"block","reason":"no"}'""")
    plugin(project, "guard", {"PreToolUse": shell_group(guard)})
    settings = project / ".config" / "goose" / "settings.json"
    settings.parent.mkdir(parents=True)
    proc = agent_hooks_cli(
        "run",
        "--dialect",
        "goose",
        "--discover",
        "--trust-project-hooks",
        cwd=project,
        home=tmp_path / "home",
        state=tmp_path / "state",
        hide=("GOOSE_",),
        payload=payload(project),
    )
    assert answer(proc)["decision"] == "block"
    settings.write_text(json.dumps({"disabledPlugins": ["guard"]}))
    proc = agent_hooks_cli(
        "run",
        "--dialect",
        "goose",
        "--discover",
        "--trust-project-hooks",
        cwd=project,
        home=tmp_path / "home",
        state=tmp_path / "state",
        hide=("GOOSE_",),
        payload=payload(project),
    )
    assert answer(proc) == {}
