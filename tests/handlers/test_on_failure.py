"""Claude Code's ``onFailure`` (2.1.295 and later) on command, http and mcp_tool hooks
(issue 27, item 9).

``"onFailure": "block"`` makes a hook that could not start, timed out, exited with a
status other than 0 and 2, crashed, or printed JSON that is invalid or fails validation
block the action it guards, as exit 2 would; ``continue`` (the default) reports the
failure and lets the action go ahead. Claude Code ignores it for async hooks and on Stop,
SubagentStop, TaskCompleted and TeammateIdle (and, for ``mcp_tool``, on Setup and
SessionStart): there it is a warning (``on_failure_ignored``) and nothing blocks. A value
that is neither is an ``invalid_config`` warning and the entry loads with the default
(for ``mcp_tool``, Claude Code reads any value but ``continue`` as ``block``).

The CLI tests run ``agent-hooks run`` on a Claude hooks file and read the answer as
Claude Code reads it (a deny JSON, a ``decision: block``, or exit 2 and stderr); the
family tests run the same file at each Claude-compatible harness's own place. ``run``
runs in this process (the point is what a failing hook makes of the answer; ``run`` as
a process is tests/cli/test_cli_run.py's). The ``mcp_tool`` tests go through the Python
API with a fake MCP caller (the CLI has none).
"""

from __future__ import annotations

import json
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
import pytest
from anyio.abc import SocketAttribute

from agent_hooks import (
    DiagnosticCode,
    Outcome,
    PreToolUseInput,
    UserPromptSubmitInput,
)
from agent_hooks._config._load import load
from agent_hooks._handlers._kinds import model_kinds
from agent_hooks._wire._dialects import get_dialect
from tests.cli.test_cli_run import Workspace, answer, cmd
from tests.dialect_helpers import InProcessWorkspace
from tests.dialects.test_dialect_claude_family import HARNESSES as FAMILY
from tests.dialects.test_dialect_claude_family import payload as family_payload


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return InProcessWorkspace(tmp_path)


INVALID_DECISION = json.dumps(
    {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}}
)

WRONG_TYPE = json.dumps(
    {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": 5}}
)
"""A field that decides nothing, of the wrong type."""

FAILURES: dict[str, dict[str, Any]] = {
    "exit-1": cmd("echo boom >&2; exit 1", name="exit-1"),
    "crash": cmd("kill -SEGV $$", name="crash"),
    "missing": cmd("/nonexistent/agent-hooks-guard.sh", name="missing"),
    "timeout": cmd("sleep 30", name="timeout", timeout=1),
    "invalid-json": cmd("echo '{\"hookSpecificOutput\": '", name="invalid-json"),
    "fails-validation": cmd(f"printf '%s' '{INVALID_DECISION}'", name="fails-validation"),
    "wrong-type": cmd(f"printf '%s' '{WRONG_TYPE}'", name="wrong-type"),
}


def with_policy(entry: dict[str, Any], value: object) -> dict[str, Any]:
    return {**entry, "onFailure": value}


def denied(proc: Any, name: str) -> None:
    """The answer Claude Code reads as a blocked tool call, with the failure as reason."""
    specific = answer(proc)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny", proc.stderr
    assert specific["permissionDecisionReason"].startswith(f"hook {name} failed"), specific
    assert "failed_closed" in proc.stderr


# ------------------------------------------------------------- Claude Code, CLI


@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_on_failure_block_blocks_a_failing_pre_tool_use_hook(ws: Workspace, failure: str) -> None:
    """Before the fix ``onFailure`` was an unknown field: every failure let the call run."""
    entry = FAILURES[failure]
    default = ws.config({"PreToolUse": [{"hooks": [entry]}]}, "default.json")
    assert answer(ws.run("--config", default)) == {}  # continue: reported, goes ahead
    config = ws.config({"PreToolUse": [{"hooks": [with_policy(entry, "block")]}]})
    proc = ws.run("--config", config)
    denied(proc, failure)
    assert "unknown field 'onFailure'" not in proc.stderr


@pytest.mark.parametrize("failure", ["exit-1", "fails-validation"])
def test_on_failure_continue_is_the_default(ws: Workspace, failure: str) -> None:
    config = ws.config({"PreToolUse": [{"hooks": [with_policy(FAILURES[failure], "continue")]}]})
    proc = ws.run("--config", config)
    assert answer(proc) == {}
    assert "onFailure" not in proc.stderr and "failed_closed" not in proc.stderr


def test_a_hook_that_answers_does_not_fail(ws: Workspace) -> None:
    """``block`` changes nothing for a hook that worked: its answer stands."""
    allow = json.dumps(
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    )
    hooks = [
        with_policy(cmd(f"printf '%s' '{allow}'", name="allows"), "block"),
        with_policy(cmd("true", name="silent"), "block"),
    ]
    proc = ws.run("--config", ws.config({"PreToolUse": [{"hooks": hooks}]}))
    assert answer(proc)["hookSpecificOutput"]["permissionDecision"] == "allow"
    assert "onFailure" not in proc.stderr and "failed_closed" not in proc.stderr
    # beside them, a failing one with the same policy blocks
    hooks.append(with_policy(FAILURES["exit-1"], "block"))
    denied(ws.run("--config", ws.config({"PreToolUse": [{"hooks": hooks}]}, "more.json")), "exit-1")


def test_on_failure_block_blocks_a_prompt(ws: Workspace) -> None:
    entry = with_policy(FAILURES["exit-1"], "block")
    config = ws.config({"UserPromptSubmit": [{"hooks": [entry]}]})
    got = answer(ws.run("--config", config, payload=ws.payload("UserPromptSubmit")))
    assert got == {"decision": "block", "reason": "hook exit-1 failed: boom"}


def test_an_exit_2_hook_is_not_a_failure(ws: Workspace) -> None:
    entry = with_policy(cmd("echo 'not this one' >&2; exit 2", name="deny"), "block")
    proc = ws.run("--config", ws.config({"PreToolUse": [{"hooks": [entry]}]}))
    specific = answer(proc)["hookSpecificOutput"]
    assert specific == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "not this one",
    }
    assert "failed_closed" not in proc.stderr and "onFailure" not in proc.stderr


@pytest.mark.parametrize(
    ("event", "fields"),
    [
        ("Stop", {}),
        ("SubagentStop", {"agent_id": "a", "agent_type": "t"}),
        ("TaskCompleted", {"task_id": "1", "task_subject": "s"}),
        ("TeammateIdle", {"teammate_name": "t", "team_name": "x"}),
    ],
)
def test_on_failure_is_ignored_on_events_claude_code_ignores_it_on(
    ws: Workspace, event: str, fields: dict[str, Any]
) -> None:
    config = ws.config({event: [{"hooks": [with_policy(FAILURES["exit-1"], "block")]}]})
    proc = ws.run("--config", config, payload=ws.payload(event, **fields))
    assert answer(proc) == {}
    assert "on_failure_ignored" in proc.stderr and f"ignored on {event}" in proc.stderr
    assert "failed_closed" not in proc.stderr


def test_on_failure_is_ignored_for_async_hooks(ws: Workspace) -> None:
    entry = with_policy({**FAILURES["exit-1"], "async": True}, "block")
    proc = ws.run("--config", ws.config({"PreToolUse": [{"hooks": [entry]}]}))
    assert answer(proc) == {}
    assert "on_failure_ignored" in proc.stderr and "for async hooks" in proc.stderr


@pytest.mark.parametrize("value", ["sometimes", "Block", True, 2, None])
def test_an_invalid_on_failure_is_a_diagnostic_and_the_entry_loads(
    ws: Workspace, value: object
) -> None:
    failing = with_policy(FAILURES["exit-1"], value)
    config = ws.config({"PreToolUse": [{"hooks": [failing]}]})
    proc = ws.run("--config", config)
    assert answer(proc) == {}  # the default: continue
    assert (
        "invalid_config" in proc.stderr and "'onFailure' must be continue or block" in proc.stderr
    )
    # the entry is loaded (it runs): an exit 2 with the same bad value still denies
    deny = with_policy(cmd("echo no >&2; exit 2", name="deny"), value)
    proc = ws.run("--config", ws.config({"PreToolUse": [{"hooks": [deny]}]}, "deny.json"))
    assert answer(proc)["hookSpecificOutput"]["permissionDecisionReason"] == "no"


def test_other_formats_do_not_read_on_failure(ws: Workspace) -> None:
    """Codex's hooks.json has Claude Code's shape but not its ``onFailure``: the same
    entry blocks from a Claude file only."""
    codex = ws.tmp / "project" / ".codex" / "hooks.json"
    codex.parent.mkdir(parents=True)
    entry = with_policy({**FAILURES["exit-1"], "name": "codex"}, "block")
    codex.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [entry]}]}}))
    proc = ws.run("--config", codex, "--trust-project-hooks")
    assert answer(proc) == {}
    assert "unknown field 'onFailure'" in proc.stderr
    claude = ws.config({"PreToolUse": [{"hooks": [{**entry, "name": "claude"}]}]})
    proc = ws.run("--config", codex, "--config", claude, "--trust-project-hooks")
    denied(proc, "claude")
    assert proc.stderr.count("failed_closed") == 1


# ------------------------------------------------- the Claude-compatible family

HARNESSES = [h for h in FAMILY if get_dialect(h).on_failure]
"""The family harnesses that read Claude Code's ``onFailure`` (CodeBuddy and Devin CLI do
not document it: there the key is an unknown field, as in the harness)."""

FAMILY_FILES = {
    "factory": ".factory/hooks.json",
    "qwen": ".qwen/settings.json",
    "augment": ".augment/settings.json",
    "goose": ".agents/plugins/guard/hooks/hooks.json",
    "openhands": ".openhands/hooks.json",
    "trae": ".trae/hooks.json",
    "qoder": ".qoder/settings.json",
    "codebuddy": ".codebuddy/settings.json",
    "devin": ".devin/config.json",
}


def family_run(ws: Workspace, harness: str, entry: dict[str, Any], tag: str) -> Any:
    path = ws.tmp / tag / FAMILY_FILES[harness]
    path.parent.mkdir(parents=True, exist_ok=True)
    (ws.tmp / tag / ".git").mkdir(exist_ok=True)
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [entry]}]}}))
    data = family_payload(harness, str(ws.tmp / tag), "ls")
    return ws.run("--config", path, "--trust-project-hooks", "--dialect", harness, payload=data)


@pytest.mark.parametrize("harness", HARNESSES)
@pytest.mark.parametrize("failure", ["exit-1", "missing"])
def test_every_claude_format_harness_honours_on_failure(
    ws: Workspace, harness: str, failure: str
) -> None:
    entry = FAILURES[failure]
    proc = family_run(ws, harness, entry, "default")
    assert answer(proc) == {}, proc.stderr
    proc = family_run(ws, harness, with_policy(entry, "block"), "blocking")
    got = answer(proc)
    if harness == "goose":
        assert got["decision"] == "block", proc.stderr
        assert got["reason"].startswith(f"hook {failure} failed")
    else:
        specific = got["hookSpecificOutput"]
        assert specific["permissionDecision"] == "deny", proc.stderr
        assert specific["permissionDecisionReason"].startswith(f"hook {failure} failed")
    assert "unknown field 'onFailure'" not in proc.stderr


@pytest.mark.parametrize("harness", HARNESSES)
def test_the_family_ignores_on_failure_where_claude_code_does(ws: Workspace, harness: str) -> None:
    entry = with_policy({**FAILURES["exit-1"], "async": True}, "block")
    proc = family_run(ws, harness, entry, "async")
    assert answer(proc) == {}
    assert "on_failure_ignored" in proc.stderr


# ------------------------------------------------------------- http (Python API)


async def http_dispatch(tmp_path: Path, url: str, **entry: Any) -> Any:
    hook = {"type": "http", "url": url, **entry}
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [hook]}]}}))
    config = load(path)
    assert config.diagnostics == ()
    async with config.registry().session() as session:
        return await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={}))


@pytest.mark.anyio
async def test_an_unreachable_http_hook_blocks_with_on_failure(tmp_path: Path) -> None:
    pytest.importorskip("h11")
    with socket.socket() as sock:  # a port nothing listens on once it is closed
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/hook"
    d = await http_dispatch(tmp_path, url)
    assert [r.outcome for r in d.results] == [Outcome.ERROR] and not d.blocked
    d = await http_dispatch(tmp_path, url, onFailure="block")
    assert [r.outcome for r in d.results] == [Outcome.ERROR] and d.blocked


@pytest.mark.anyio
async def test_an_http_answer_that_fails_validation_blocks_with_on_failure(
    tmp_path: Path,
) -> None:
    pytest.importorskip("h11")
    from tests.handlers.test_http_hooks import LocalServer, Reply

    srv = LocalServer()
    srv.reply = Reply(body=WRONG_TYPE.encode())
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    srv.port = listener.extra(SocketAttribute.local_port)
    async with listener, anyio.create_task_group() as tg:
        tg.start_soon(listener.serve, srv.handle)
        d = await http_dispatch(tmp_path, srv.url)
        assert [r.outcome for r in d.results] == [Outcome.OK] and not d.blocked
        d = await http_dispatch(tmp_path, srv.url, onFailure="block")
        assert [r.outcome for r in d.results] == [Outcome.ERROR] and d.blocked
        assert "fails validation" in (d.results[0].reason or "")
        tg.cancel_scope.cancel()


# --------------------------------------------------------- mcp_tool (Python API)


class Caller:
    """An MCP caller with one connected server, ``guard``, whose tool ``check`` answers
    ``answer`` (raised when it is an exception)."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    async def __call__(self, server: str, tool: str, arguments: Mapping[str, Any]) -> Any:
        await anyio.lowlevel.checkpoint()
        if server != "guard":
            raise LookupError(f"no MCP server named {server!r}")
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


def texts(*parts: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": p} for p in parts]}


MCP_FAILURES: dict[str, tuple[str, object]] = {
    "not-connected": ("elsewhere", texts("{}")),
    "raises": ("guard", RuntimeError("tool crashed")),
    "is-error": ("guard", {**texts("denied by server"), "isError": True}),
    "plain-text": ("guard", texts("looks fine to me")),
    "image": ("guard", {"content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}]}),
    "no-hook-fields": ("guard", texts('{"verdict": "ok"}')),
    "fails-validation": ("guard", texts(INVALID_DECISION)),
    "wrong-type": ("guard", texts(WRONG_TYPE)),
    "invalid-json": ("guard", texts('{"hookSpecificOutput": ')),
}


def mcp_config(tmp_path: Path, event: str, answer: object, **entry: Any) -> Any:
    server = entry.pop("server", "guard")
    hook = {"type": "mcp_tool", "server": server, "tool": "check", **entry}
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {event: [{"hooks": [hook]}]}}))
    return load(path, kinds=model_kinds(mcp=Caller(answer)))


@pytest.mark.anyio
@pytest.mark.parametrize("failure", sorted(MCP_FAILURES))
async def test_on_failure_block_blocks_a_failing_mcp_tool_hook(
    tmp_path: Path, failure: str
) -> None:
    server, answer_ = MCP_FAILURES[failure]
    call = PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"})
    lenient = mcp_config(tmp_path, "PreToolUse", answer_, server=server)
    async with lenient.registry().session() as session:
        d = await session.dispatch(call)
    assert not d.blocked
    config = mcp_config(tmp_path, "PreToolUse", answer_, server=server, onFailure="block")
    assert config.diagnostics == ()
    async with config.registry().session() as session:
        d = await session.dispatch(call)
    assert d.blocked, d.diagnostics
    assert [r.outcome for r in d.results] == [Outcome.ERROR]
    assert DiagnosticCode.FAILED_CLOSED in {x.code for x in d.diagnostics}


@pytest.mark.anyio
@pytest.mark.parametrize("answer_", [texts("{}"), texts(""), {"content": []}, ""])
async def test_an_mcp_tool_may_answer_empty_json_or_nothing(
    tmp_path: Path, answer_: object
) -> None:
    config = mcp_config(tmp_path, "PreToolUse", answer_, onFailure="block")
    (group,) = config.sources[0].groups
    assert group.nodes[0].on_error == "block"
    async with config.registry().session() as session:
        d = await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={}))
    assert not d.blocked and [r.outcome for r in d.results] == [Outcome.OK]


@pytest.mark.anyio
async def test_plain_text_is_the_answer_on_pre_compact(tmp_path: Path) -> None:
    from agent_hooks import PreCompactInput

    config = mcp_config(tmp_path, "PreCompact", texts("keep the test names"), onFailure="block")
    (group,) = config.sources[0].groups
    assert group.nodes[0].on_error == "block"
    async with config.registry().session() as session:
        d = await session.dispatch(PreCompactInput(trigger="manual"))
    assert [r.outcome for r in d.results] == [Outcome.OK]


@pytest.mark.anyio
async def test_any_value_but_continue_reads_as_block_for_mcp_tool(tmp_path: Path) -> None:
    config = mcp_config(tmp_path, "PreToolUse", texts("nope"), onFailure="always")
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.INVALID_CONFIG and "read as block" in diag.message
    async with config.registry().session() as session:
        d = await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={}))
    assert d.blocked


@pytest.mark.anyio
@pytest.mark.parametrize("event", ["SessionStart", "Setup", "Stop"])
async def test_mcp_tool_on_failure_is_ignored_where_claude_code_ignores_it(
    tmp_path: Path, event: str
) -> None:
    config = mcp_config(tmp_path, event, RuntimeError("down"), onFailure="block")
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.ON_FAILURE_IGNORED and f"on {event}" in diag.message
    (group,) = config.sources[0].groups
    assert group.nodes[0].on_error is None


@pytest.mark.anyio
async def test_mcp_tool_on_failure_blocks_a_prompt(tmp_path: Path) -> None:
    config = mcp_config(tmp_path, "UserPromptSubmit", RuntimeError("down"), onFailure="block")
    async with config.registry().session() as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    assert d.blocked
