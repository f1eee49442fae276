"""MCP tool hooks against a fake caller: ``${path}`` substitution into the tool
arguments, the tool's text read like command stdout, ``isError``, a missing server
and a failing caller as non-blocking errors, and ``type: mcp_tool`` from a config.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
import attrs
import pytest

from agent_hooks import (
    Decision,
    DiagnosticCode,
    HookEvent,
    HookInput,
    HookMatcher,
    HookRegistry,
    McpToolHook,
    Outcome,
    PostToolUseInput,
    PreToolUseInput,
    RegistrationError,
    SessionStartInput,
    Severity,
    UserPromptSubmitInput,
    default_kinds,
)
from agent_hooks._config._load import load
from agent_hooks._handlers._kinds import model_kinds
from agent_hooks._handlers._mcp import substitute_paths

pytestmark = pytest.mark.anyio

SOURCE = "tests/mcp-hooks"


@attrs.frozen
class ToolCall:
    server: str
    tool: str
    arguments: Mapping[str, Any]


class FakeCaller:
    """An :class:`~agent_hooks.McpCaller` for connected ``servers``: each tool's answer
    is a fixed result (a ``CallToolResult`` mapping or text) or an exception to raise."""

    def __init__(self, **servers: Mapping[str, object]) -> None:
        self.servers = servers
        self.calls: list[ToolCall] = []

    async def __call__(self, server: str, tool: str, arguments: Mapping[str, Any]) -> Any:
        self.calls.append(ToolCall(server, tool, arguments))
        await anyio.lowlevel.checkpoint()
        if server not in self.servers:
            raise LookupError(f"no MCP server named {server!r}")
        answer = self.servers[server][tool]
        if isinstance(answer, BaseException):
            raise answer
        return answer


def text(*parts: str, is_error: bool = False) -> dict[str, Any]:
    """A ``CallToolResult`` with text content."""
    result: dict[str, Any] = {"content": [{"type": "text", "text": p} for p in parts]}
    if is_error:
        result["isError"] = True
    return result


def write_file(path: str = "/repo/src/app.py") -> PostToolUseInput:
    return PostToolUseInput(
        tool_name="Write",
        tool_input={"file_path": path, "content": "print('hi')"},
        tool_response={"success": True},
        tool_use_id="tu_7",
    )


async def run(
    hook: McpToolHook, input: HookInput[Any], *, also: list[Any] | None = None
) -> Decision[Any]:
    registry = HookRegistry(
        {input.event: [HookMatcher(hooks=[hook, *(also or [])])]}, source=SOURCE
    )
    async with registry.session(session_id="s1", cwd="/repo") as session:
        return await session.dispatch(input)


def scan(caller: FakeCaller, **kw: Any) -> McpToolHook:
    kw.setdefault("input", {"file_path": "${tool_input.file_path}"})
    return McpToolHook(server="my_server", tool="security_scan", caller=caller, **kw)


# --------------------------------------------------------------- substitution


async def test_path_substitution_into_the_tool_arguments() -> None:
    caller = FakeCaller(my_server={"security_scan": text("")})
    hook = scan(
        caller,
        input={
            "file_path": "${tool_input.file_path}",
            "label": "scan of ${tool_input.file_path} by ${tool_name}",
            "whole": "${tool_input}",
            "nested": {"list": ["${session_id}", 3, "${hook_event_name}"]},
            "missing": "${tool_input.no_such_key}",
            "in_text": "[${nope.deeper}]",
            "plain": "no placeholders, $HOME stays",
            "number": 7,
        },
    )
    await run(hook, write_file())
    (call,) = caller.calls
    assert (call.server, call.tool) == ("my_server", "security_scan")
    assert call.arguments == {
        "file_path": "/repo/src/app.py",
        "label": "scan of /repo/src/app.py by Write",
        "whole": {"file_path": "/repo/src/app.py", "content": "print('hi')"},
        "nested": {"list": ["s1", 3, "PostToolUse"]},
        "missing": "",
        "in_text": "[]",
        "plain": "no placeholders, $HOME stays",
        "number": 7,
    }


def test_substitute_paths_unit() -> None:
    payload = {"a": {"b": [10, {"c": "deep"}]}, "n": 5, "flag": True}
    assert substitute_paths("${a.b.1.c}", payload) == "deep"
    assert substitute_paths("${a.b.0}", payload) == 10
    assert substitute_paths("n=${n} f=${flag} b=${a.b.0}", payload) == "n=5 f=true b=10"
    assert substitute_paths("${a.b.9}", payload) == ""
    assert substitute_paths(["${n}", {"k": "${flag}"}], payload) == [5, {"k": True}]


async def test_the_configured_arguments_are_not_changed_between_calls() -> None:
    caller = FakeCaller(my_server={"security_scan": text("")})
    hook = scan(caller)
    await run(hook, write_file("/a.py"))
    await run(hook, write_file("/b.py"))
    assert [c.arguments["file_path"] for c in caller.calls] == ["/a.py", "/b.py"]
    assert hook.input == {"file_path": "${tool_input.file_path}"}


# ------------------------------------------------------------ reading answers


async def test_text_answer_is_context_where_plain_stdout_is() -> None:
    caller = FakeCaller(my_server={"security_scan": text("Repo uses ruff.", "And mypy.")})
    d = await run(scan(caller, input={}), UserPromptSubmitInput(prompt="hi"))
    assert d.context == "Repo uses ruff.\nAnd mypy."
    assert d.results[0].outcome is Outcome.OK
    assert d.diagnostics == ()


async def test_plain_text_result_is_read_too() -> None:
    caller = FakeCaller(my_server={"security_scan": "loaded 3 rules"})
    d = await run(scan(caller, input={}), SessionStartInput(source="startup"))
    assert d.context == "loaded 3 rules"


async def test_text_answer_where_plain_stdout_is_not_context_is_ignored_with_a_note() -> None:
    caller = FakeCaller(my_server={"security_scan": text("no issues")})
    d = await run(scan(caller), write_file())
    assert d.context is None
    (diag,) = d.diagnostics
    assert diag.code is DiagnosticCode.PLAIN_STDOUT_IGNORED and diag.severity is Severity.INFO


async def test_json_answer_decides_like_command_stdout() -> None:
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "writes a secret",
        }
    }
    caller = FakeCaller(my_server={"security_scan": text(json.dumps(deny))})
    d = await run(scan(caller), PreToolUseInput(tool_name="Write", tool_input={"file_path": "/x"}))
    assert d.blocked and d.reason == "writes a secret"
    assert caller.calls[0].arguments == {"file_path": "/x"}

    block = {"decision": "block", "reason": "secret found in /x"}
    caller = FakeCaller(my_server={"security_scan": text(json.dumps(block))})
    d = await run(scan(caller), write_file("/x"))
    assert d.blocked and d.reason == "secret found in /x"

    context = {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "1 warning"}
    }
    caller = FakeCaller(my_server={"security_scan": text(json.dumps(context))})
    d = await run(scan(caller), write_file())
    assert d.context == "1 warning" and not d.blocked


async def test_non_text_content_is_no_opinion() -> None:
    caller = FakeCaller(
        my_server={
            "security_scan": {
                "content": [{"type": "image", "data": "...", "mimeType": "image/png"}]
            }
        }
    )
    d = await run(scan(caller), write_file())
    assert d.results[0].outcome is Outcome.OK
    assert not d.blocked and d.context is None and d.diagnostics == ()


# ----------------------------------------------------------------- failures


@pytest.mark.parametrize(
    ("caller", "words"),
    [
        pytest.param(
            FakeCaller(my_server={"security_scan": text("scanner crashed", is_error=True)}),
            ["returned an error", "scanner crashed"],
            id="isError",
        ),
        pytest.param(FakeCaller(), ["'my_server'", "not connected"], id="missing-server"),
        pytest.param(
            FakeCaller(my_server={"security_scan": ConnectionResetError("pipe closed")}),
            ["my_server/security_scan", "ConnectionResetError", "pipe closed"],
            id="caller-raises",
        ),
    ],
)
@pytest.mark.parametrize(
    "input",
    [
        write_file(),
        PreToolUseInput(tool_name="Write", tool_input={"file_path": "/x"}),
        UserPromptSubmitInput(prompt="hi"),
    ],
    ids=["PostToolUse", "PreToolUse", "UserPromptSubmit"],
)
async def test_failures_are_non_blocking_errors_and_the_dispatch_goes_on(
    caller: FakeCaller, words: list[str], input: HookInput[Any]
) -> None:
    """Even on PreToolUse: a failing MCP hook does not block (Claude Code)."""
    answered = FakeCaller(other={"note": text(json.dumps({"systemMessage": "second ran"}))})
    second = McpToolHook(server="other", tool="note", caller=answered)
    d = await run(scan(caller), input, also=[second])
    assert not d.blocked
    first, after = d.results
    assert first.outcome is Outcome.ERROR and after.outcome is Outcome.OK
    assert d.system_messages == ("second ran",)
    (diag,) = d.diagnostics
    assert diag.severity is Severity.WARNING
    assert all(w in diag.message for w in words), diag.message
    assert (diag.source, diag.location) == (SOURCE, f"{input.event.value}[0].hooks[0]")
    assert diag.handler == "mcp my_server/security_scan"


async def test_a_hanging_tool_times_out_without_blocking() -> None:
    class Hangs:
        async def __call__(self, server: str, tool: str, arguments: Mapping[str, Any]) -> Any:
            await anyio.sleep_forever()

    hook = McpToolHook(server="s", tool="t", caller=Hangs(), timeout=0.05)
    d = await run(hook, PreToolUseInput(tool_name="Write", tool_input={}))
    assert not d.blocked
    assert d.results[0].outcome is Outcome.TIMEOUT
    assert [x.code for x in d.diagnostics] == [DiagnosticCode.TIMEOUT]


def test_construction_needs_server_and_tool() -> None:
    caller = FakeCaller()
    with pytest.raises(RegistrationError):
        McpToolHook(server="", tool="t", caller=caller)
    with pytest.raises(RegistrationError):
        McpToolHook(server="s", tool="", caller=caller)
    node = McpToolHook(server="s", tool="t", caller=caller, status_message="Scanning").to_node()
    assert (node.name, node.kind, node.status_message) == ("mcp s/t", "mcp_tool", "Scanning")


# --------------------------------------------------------------- from config


SETTINGS = {
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [
                    {
                        "type": "mcp_tool",
                        "server": "my_server",
                        "tool": "security_scan",
                        "input": {"file_path": "${tool_input.file_path}"},
                        "statusMessage": "Scanning the file",
                    },
                    {"type": "mcp_tool", "server": "offline", "tool": "lint"},
                ],
            }
        ]
    }
}


async def test_mcp_tool_entries_from_a_claude_settings_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(SETTINGS))
    finding = {"decision": "block", "reason": "hard-coded token in app.py"}
    caller = FakeCaller(my_server={"security_scan": text(json.dumps(finding))})
    config = load(path, kinds={**default_kinds(), **model_kinds(mcp=caller)})
    assert config.diagnostics == ()
    nodes = config.registry().compile().nodes[HookEvent.POST_TOOL_USE]
    assert [(n.info.name, n.info.status_message) for n in nodes] == [
        ("mcp my_server/security_scan", "Scanning the file"),
        ("mcp offline/lint", None),
    ]
    async with config.registry().session(cwd=str(tmp_path)) as session:
        d = await session.dispatch(write_file())
        # a tool the matcher does not name: nothing is called
        await session.dispatch(
            PostToolUseInput(tool_name="Read", tool_input={"file_path": "/r"}, tool_response={})
        )
    assert d.blocked and d.reason == "hard-coded token in app.py"
    # (parallel handlers: the calls are made in whatever order the tasks start)
    assert sorted((c.server, c.tool, dict(c.arguments)) for c in caller.calls) == [
        ("my_server", "security_scan", {"file_path": "/repo/src/app.py"}),
        ("offline", "lint", {}),
    ]
    (diag,) = d.diagnostics
    assert "not connected" in diag.message
    assert (diag.source, diag.location) == (str(path), "hooks.PostToolUse[0].hooks[1]")


def test_mcp_tool_config_errors(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    entries = [
        {"type": "mcp_tool", "server": "s"},
        {"type": "mcp_tool", "server": "s", "tool": "t", "input": ["not", "a", "map"]},
    ]
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": entries}]}}))
    config = load(path, kinds={**default_kinds(), **model_kinds(mcp=FakeCaller())})
    first, second = config.diagnostics
    assert first.code is DiagnosticCode.INVALID_HANDLER and "'server' and 'tool'" in first.message
    assert first.location == "hooks.Stop[0].hooks[0]"
    assert second.code is DiagnosticCode.INVALID_CONFIG and "'input'" in second.message
    assert second.location == "hooks.Stop[0].hooks[1]"
    (group,) = config.sources[0].groups
    assert [n.name for n in group.nodes] == ["mcp s/t"]
