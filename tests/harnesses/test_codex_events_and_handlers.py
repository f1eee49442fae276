"""Codex 0.171.0: SessionEnd and Interrupt hooks (3 s at most), ``mcp_tool`` handlers
(skipped on SessionEnd), ``prompt``/``agent`` handlers parsed and skipped, the
``command_windows`` spelling, and the refusals of a ``hooks.json`` Codex refuses."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import DiagnosticCode, HookEvent, Severity, TrustPolicy, model_kinds
from tests.dialect_helpers import agent_hooks_cli

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


def codex_file(tmp_path: Path, hooks: Mapping[str, Any], **root: Any) -> Path:
    return write(tmp_path / "proj" / ".codex" / "hooks.json", {**root, "hooks": hooks})


def cmd(command: str, **kw: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **kw}


BASE = {"session_id": "s1", "cwd": "/w", "transcript_path": None, "model": "gpt-5.5"}


class Caller:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    async def __call__(self, server: str, tool: str, arguments: Mapping[str, Any]) -> Any:
        self.calls.append((server, tool, dict(arguments)))
        return {"content": [{"type": "text", "text": "rules loaded"}]}


def test_session_end_and_interrupt_load_and_decode(tmp_path: Path) -> None:
    path = codex_file(
        tmp_path,
        {
            "SessionEnd": [{"hooks": [cmd("echo bye")]}],
            "Interrupt": [{"hooks": [cmd("echo stopped")]}],
        },
    )
    config = agent_hooks.load(path, harness="codex", trust=ALL)
    assert config.diagnostics == ()
    assert [g.event for g in config.sources[0].groups] == [
        HookEvent.SESSION_END,
        HookEvent.INTERRUPT,
    ]
    end = agent_hooks.decode_payload(
        {**BASE, "hook_event_name": "SessionEnd", "reason": "other"}, dialect="codex"
    )
    assert end.diagnostics == ()
    assert isinstance(end.input, agent_hooks.SessionEndInput) and end.input.reason == "other"
    stop = agent_hooks.decode_payload(
        {**BASE, "hook_event_name": "Interrupt", "turn_id": "t1"}, dialect="codex"
    )
    assert stop.diagnostics == ()
    assert isinstance(stop.input, agent_hooks.InterruptInput)


def test_session_end_and_interrupt_timeouts_are_clamped_to_3_seconds(tmp_path: Path) -> None:
    path = codex_file(
        tmp_path,
        {
            "SessionEnd": [{"hooks": [cmd("echo long", timeout=30), cmd("echo default")]}],
            "Interrupt": [{"hooks": [cmd("echo short", timeout=2)]}],
            "Stop": [{"hooks": [cmd("echo stop", timeout=30)]}],
        },
    )
    config = agent_hooks.load(path, harness="codex", trust=ALL)
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.INVALID_CONFIG and diag.severity is Severity.WARNING
    assert "clamped to 3" in diag.message and diag.location == "hooks.SessionEnd[0].hooks[0]"
    compiled = config.registry().compile()
    timeouts = {n.info.name: n.timeout for nodes in compiled.nodes.values() for n in nodes}
    assert timeouts == {"echo long": 3.0, "echo default": 3.0, "echo short": 2.0, "echo stop": 30}


async def test_mcp_tool_handlers_run_with_a_caller_and_are_skipped_on_session_end(
    tmp_path: Path,
) -> None:
    entry = {"type": "mcp_tool", "server": "policy", "tool": "load_rules", "input": {"a": 1}}
    path = codex_file(
        tmp_path,
        {"SessionStart": [{"hooks": [entry]}], "SessionEnd": [{"hooks": [entry]}]},
    )
    caller = Caller()
    config = agent_hooks.load(path, harness="codex", trust=ALL, kinds=model_kinds(mcp=caller))
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.HANDLER_DISABLED and diag.severity is Severity.WARNING
    assert diag.location == "hooks.SessionEnd[0].hooks[0]" and "SessionEnd" in diag.message
    async with config.registry().session(cwd=str(tmp_path)) as session:
        start = await session.dispatch(agent_hooks.SessionStartInput(source="startup"))
        await session.dispatch(agent_hooks.SessionEndInput(reason="other"))
    assert caller.calls == [("policy", "load_rules", {"a": 1})]
    assert start.context == "rules loaded"


async def test_prompt_and_agent_handlers_are_parsed_and_skipped(tmp_path: Path) -> None:
    asked: list[str] = []

    async def client(prompt: str, *, model: str | None, schema: str | None) -> Any:
        asked.append(prompt)
        return {"ok": False, "reason": "no"}

    async def agent(prompt: str, *, input: Mapping[str, Any], model: str | None) -> Any:
        asked.append(prompt)
        return {"ok": False, "reason": "no"}

    path = codex_file(
        tmp_path,
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "prompt", "prompt": "Is $ARGUMENTS safe?"},
                        {"type": "agent", "prompt": "Check $ARGUMENTS"},
                    ],
                }
            ]
        },
    )
    config = agent_hooks.load(
        path, harness="codex", trust=ALL, kinds=model_kinds(client, agent=agent)
    )
    assert [(d.code, d.severity) for d in config.diagnostics] == [
        (DiagnosticCode.HANDLER_DISABLED, Severity.WARNING)
    ] * 2
    assert all("not supported yet" in d.message for d in config.diagnostics)
    async with config.registry().session(cwd=str(tmp_path)) as session:
        d = await session.dispatch(
            agent_hooks.PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"})
        )
    assert not d.blocked and asked == []


def test_command_windows_spellings(tmp_path: Path) -> None:
    path = codex_file(
        tmp_path, {"Stop": [{"hooks": [cmd("echo posix", command_windows="echo win")]}]}
    )
    config = agent_hooks.load(path, harness="codex", trust=ALL)
    assert config.diagnostics == ()
    assert config.sources[0].groups[0].nodes[0].name == "echo posix"
    both = cmd("echo posix", command_windows="echo win", commandWindows="echo win")
    path = codex_file(tmp_path, {"Stop": [{"hooks": [cmd("true")]}, {"hooks": [both]}]})
    config = agent_hooks.load(path, harness="codex", trust=ALL)
    (diag,) = config.diagnostics
    assert diag.severity is Severity.ERROR and diag.location == "hooks.Stop[1].hooks[0]"
    assert config.sources[0].groups == ()


def test_command_windows_twice_in_config_toml_refuses_its_hooks(tmp_path: Path) -> None:
    path = write(
        tmp_path / "config.toml",
        '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "true"\n'
        'commandWindows = "a"\ncommand_windows = "b"\n',
    )
    config = agent_hooks.load(path, harness="codex", trust=ALL)
    assert [d.severity for d in config.diagnostics] == [Severity.ERROR]
    assert config.sources[0].groups == ()


@pytest.mark.parametrize("key", ["$schema", "version", "enabled"])
def test_unknown_root_keys_refuse_the_file(tmp_path: Path, key: str) -> None:
    path = codex_file(tmp_path, {"Stop": [{"hooks": [cmd("true")]}]}, **{key: 1})
    config = agent_hooks.load(path, harness="codex", trust=ALL)
    (diag,) = config.diagnostics
    assert diag.severity is Severity.ERROR and repr(key) in diag.message
    assert config.sources[0].groups == ()
    ok = codex_file(tmp_path, {"Stop": [{"hooks": [cmd("true")]}]}, description="policy")
    assert agent_hooks.load(ok, harness="codex", trust=ALL).diagnostics == ()


def run(project: Path, payload: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    return agent_hooks_cli(
        "run",
        "--dialect",
        "codex",
        "--config",
        str(project / ".codex" / "hooks.json"),
        "--trust-project-hooks",
        *args,
        cwd=project,
        home=project.parent / "home",
        state=project.parent / "state",
        hide=("CODEX_",),
        payload=payload,
    )


def test_agent_hooks_run_answers_session_end_and_interrupt(tmp_path: Path) -> None:
    log = tmp_path / "log"
    codex_file(
        tmp_path,
        {
            "SessionEnd": [{"hooks": [cmd(f"cat >> {log}; echo >> {log}", timeout=60)]}],
            "Interrupt": [{"hooks": [cmd(f"cat >> {log}; echo >> {log}")]}],
        },
    )
    project = tmp_path / "proj"
    for event, extra in (("SessionEnd", {"reason": "other"}), ("Interrupt", {"turn_id": "t"})):
        proc = run(project, {**BASE, "cwd": str(project), "hook_event_name": event, **extra})
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout or "{}") == {}
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(p["hook_event_name"], p.get("reason")) for p in seen] == [
        ("SessionEnd", "other"),
        ("Interrupt", None),
    ]


def test_agent_hooks_run_refuses_a_file_codex_refuses(tmp_path: Path) -> None:
    guard = {"PreToolUse": [{"matcher": "Bash", "hooks": [cmd("echo no >&2; exit 2")]}]}
    codex_file(tmp_path, guard, **{"$schema": "https://example.invalid/hooks.json"})
    project = tmp_path / "proj"
    payload = {
        **BASE,
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    }
    proc = run(project, payload)  # (as Codex: the file's hooks do not run)
    assert proc.returncode == 0 and json.loads(proc.stdout) == {}
    assert "'$schema'" in proc.stderr
    closed = run(project, payload, "--fail-closed")  # a guard refused whole still blocks
    assert closed.returncode == 2 and "'$schema'" in closed.stderr
