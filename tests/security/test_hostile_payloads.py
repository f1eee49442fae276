"""Hostile payloads and answers must not switch a guard off (issue 15, items 1 and 2).

A lone UTF-16 surrogate (the JSON escape ``\\ud800`` without its partner) and nesting as
deep as the JSON parser accepts reach hooks, and come back from them, without an
exception on the way: the payload a hook reads is valid UTF-8 JSON carrying the
surrogate as the same escape the harness wrote, and a deny hook still denies. A payload
nested deeper than the parser goes is refused up front (exit 1, 2 with --fail-closed),
never run with its hooks skipped; an answer nested that deep is a failure of its hook.

CLI tests answer ``agent-hooks run`` in this process (the answer is what is checked,
``tests/dialect_helpers.py``; its stack is deeper than a fresh process's).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import anyio
import pytest

from agent_hooks import (
    CommandHook,
    HookMatcher,
    HookRegistry,
    InvalidPayloadError,
    PreToolUseInput,
    decode_input,
    decode_output,
    encode_input,
    payload_bytes,
)
from agent_hooks._bridges._payload import dumps
from agent_hooks._wire._fields import to_json
from tests.cli.test_cli_run import Workspace, answer, cmd
from tests.dialect_helpers import InProcessWorkspace

SURROGATE = "\ud800"
TOO_DEEP = 40_000
"""Deeper than Python's JSON parser goes on every supported version (3.13 reads about
10,000 levels), yet under a command hook's 100,000-byte stdout cap as ``[[...]]``."""


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return InProcessWorkspace(tmp_path)


def nested(depth: int, leaf: Any) -> Any:
    """``{"a": {"a": ... leaf}}``, ``depth`` objects deep (built without recursion)."""
    value = leaf
    for _ in range(depth):
        value = {"a": value}
    return value


def nested_text(depth: int, leaf: str) -> str:
    return '{"a":' * depth + leaf + "}" * depth


def depth_of(value: Any) -> int:
    """How many containers deep ``value`` goes (without recursion)."""
    deepest = 0
    todo = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            todo.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            todo.extend((v, depth + 1) for v in item)
        else:
            deepest = max(deepest, depth)
    return deepest


# ------------------------------------------------------------ the wire codecs


def test_a_lone_surrogate_is_written_as_the_escape_the_harness_wrote() -> None:
    raw = (
        '{"hook_event_name":"PreToolUse","session_id":"s\\ud800","tool_name":"Bash",'
        '"tool_input":{"command":"rm -rf / \\ud800","\\udfff":["\\udc00","é"]}}'
    )
    decoded = decode_input(raw)
    data = payload_bytes(decoded.input)
    text = data.decode("utf-8")  # valid UTF-8, strictly
    assert '"command":"rm -rf / \\ud800"' in text
    assert '"\\udfff":["\\udc00","é"]' in text  # other non-ASCII text stays as it is
    assert json.loads(text)["tool_input"] == decoded.input.tool_input
    assert json.loads(text)["session_id"] == "s" + SURROGATE


def test_a_surrogate_pair_stays_one_character() -> None:
    decoded = decode_input(
        '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"x":"\\ud83d\\ude00"}}'
    )
    assert decoded.input.tool_input == {"x": "😀"}
    assert "😀".encode() in payload_bytes(decoded.input)


def test_dumps_never_writes_what_utf8_or_json_cannot_hold() -> None:
    from agent_hooks._wire._json import dump_bytes

    value = {"a": [SURROGATE, math.nan, -math.inf], SURROGATE: 1.5}
    assert dumps(value) == '{"a":["\\ud800",null,null],"\\ud800":1.5}'
    assert dump_bytes(value) == dumps(value).encode()
    deep = [SURROGATE]
    for _ in range(5_000):
        deep = [deep]
    text = dumps(deep)
    assert text == "[" * 5_001 + '"\\ud800"' + "]" * 5_001
    assert dump_bytes(deep) == text.encode()


def test_dumps_and_to_json_refuse_a_value_that_holds_itself() -> None:
    loop: dict[str, Any] = {"x": 1}
    loop["self"] = [loop]
    with pytest.raises(ValueError, match="ircular"):
        dumps(loop)
    with pytest.raises(ValueError, match="holds itself"):
        to_json(loop, wire="claude", output=False)
    shared = {"k": [1]}
    assert to_json({"a": shared, "b": [shared, shared]}, wire="claude", output=False) == {
        "a": {"k": [1]},
        "b": [{"k": [1]}, {"k": [1]}],
    }


def test_a_payload_nested_deeply_is_encoded_whole_and_shares_nothing() -> None:
    tool_input = nested(5_000, {"command": "rm -rf /"})
    input = PreToolUseInput(tool_name="Bash", tool_input=tool_input)
    encoded = encode_input(input)
    assert depth_of(encoded["tool_input"]) == 5_001
    inner, original = encoded["tool_input"], tool_input
    while "a" in original:
        assert inner is not original
        inner, original = inner["a"], original["a"]
    assert inner == original and inner is not original
    assert nested_text(5_000, '{"command":"rm -rf /"}').encode() in payload_bytes(input)


def test_a_payload_deeper_than_the_parser_goes_is_refused_with_a_clear_error() -> None:
    raw = '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":' + (
        "[" * TOO_DEEP + "]" * TOO_DEEP + "}"
    )
    with pytest.raises(InvalidPayloadError, match="nested too deeply"):
        decode_input(raw)


def test_an_answer_deeper_than_the_parser_goes_is_a_diagnostic() -> None:
    text = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"x":'
    text += "[" * TOO_DEEP + "]" * TOO_DEEP + "}}}"
    decoded = decode_output("PreToolUse", text)
    assert decoded.output is None
    assert [d.code.value for d in decoded.diagnostics] == ["malformed_json"]
    assert "nested too deeply" in decoded.diagnostics[0].message


def test_a_deep_value_in_a_message_is_cut() -> None:
    decoded = decode_output(
        "PreToolUse",
        {"hookSpecificOutput": {"hookEventName": nested(5_000, 1), "permissionDecision": "deny"}},
    )
    assert decoded.output is not None and decoded.output.permission_decision is None
    assert [d.code.value for d in decoded.diagnostics] == ["mismatched_output"]
    assert len(decoded.diagnostics[0].message) < 300


# ------------------------------------------------------------- Python API


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool_input", "as_text"),
    [
        ({"command": "rm -rf / " + SURROGATE}, '{"command":"rm -rf / \\ud800"}'),
        (nested(5_000, {"command": "rm -rf /"}), nested_text(5_000, '{"command":"rm -rf /"}')),
    ],
    ids=["lone-surrogate", "5000-deep"],
)
async def test_a_command_guard_blocks_hostile_input(
    tmp_path: Path, tool_input: dict[str, Any], as_text: str
) -> None:
    seen = tmp_path / "stdin.json"
    guard = CommandHook(command=f"cat > '{seen}'; echo no >&2; exit 2")
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[guard])]})
    async with registry.session(cwd=str(tmp_path)) as session:
        with anyio.fail_after(30):
            decision = await session.dispatch(
                PreToolUseInput(tool_name="Bash", tool_input=tool_input)
            )
    assert decision.blocked and decision.reason == "no"
    text = seen.read_bytes().decode("utf-8")  # valid UTF-8, strictly
    assert f'"tool_input":{as_text}' in text


# --------------------------------------------------------------- the CLI


def recording_guard(ws: Workspace, **more: Any) -> Path:
    """A config whose PreToolUse hook saves its stdin to ``stdin.json`` and denies."""
    seen = ws.tmp / "stdin.json"
    return ws.config(
        {"PreToolUse": [{"hooks": [cmd(f"cat > '{seen}'; echo denied >&2; exit 2", **more)]}]}
    )


DENIED = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "denied",
    }
}


@pytest.mark.parametrize(
    "field", ["tool_input", "session_id", "transcript_path", "tool_use_id", "permission_mode"]
)
@pytest.mark.parametrize("fail_closed", [False, True])
def test_run_denies_a_payload_holding_a_lone_surrogate(
    ws: Workspace, field: str, fail_closed: bool
) -> None:
    """Before the fix: ``{}``, exit 0 (the hook failed with UnicodeEncodeError), even with
    --fail-closed."""
    config = recording_guard(ws)
    payload = ws.payload(permission_mode="default")
    if field == "tool_input":
        payload["tool_input"] = {"command": "rm -rf / " + SURROGATE}
    else:
        payload[field] += SURROGATE
    stdin = json.dumps(payload).encode()
    assert b"\\ud800" in stdin  # the escape, as a harness writes it
    args = ["--config", config] + (["--fail-closed"] if fail_closed else [])
    assert answer(ws.run(*args, stdin=stdin)) == DENIED
    seen = (ws.tmp / "stdin.json").read_bytes()
    assert b"\\ud800" in seen
    assert json.loads(seen.decode("utf-8")) == payload


def test_run_denies_a_payload_nested_490_levels(ws: Workspace) -> None:
    """Before the fix: ``{}``, exit 0 (the hook failed with RecursionError)."""
    config = recording_guard(ws)
    payload = ws.payload(tool_input=nested(490, {"command": "rm -rf /"}))
    stdin = json.dumps(payload, separators=(",", ":")).encode()
    assert len(stdin) < 4_000
    for args in (["--config", config], ["--config", config, "--fail-closed"]):
        assert answer(ws.run(*args, stdin=stdin)) == DENIED
        assert json.loads((ws.tmp / "stdin.json").read_text()) == payload


def test_run_refuses_a_payload_deeper_than_the_parser_goes(ws: Workspace) -> None:
    config = recording_guard(ws)
    stdin = json.dumps(ws.payload(tool_input={"x": "@"})).replace(
        '"@"', "[" * TOO_DEEP + "]" * TOO_DEEP
    )
    proc = ws.run("--config", config, stdin=stdin.encode())
    assert proc.returncode == 1 and proc.stdout == ""
    assert "nested too deeply" in proc.stderr
    proc = ws.run("--config", config, "--fail-closed", stdin=stdin.encode())
    assert proc.returncode == 2 and proc.stdout == ""
    assert "nested too deeply" in proc.stderr
    assert not (ws.tmp / "stdin.json").exists()  # never run with its hook skipped


def printing(ws: Workspace, text: str) -> dict[str, Any]:
    """A PreToolUse hook that prints ``text`` (from a file) and exits 0."""
    out = ws.write("answer.json", text)
    return cmd(f"cat '{out}'")


def test_run_prints_an_answer_holding_a_lone_surrogate(ws: Workspace) -> None:
    """Before the fix: exit 1, no output ("internal error: UnicodeEncodeError")."""
    reason = '"denied \\ud800 here"'
    text = json.dumps(DENIED).replace('"denied"', reason)
    config = ws.config({"PreToolUse": [{"hooks": [printing(ws, text)]}]})
    for fail_closed in ([], ["--fail-closed"]):
        proc = ws.run("--config", config, *fail_closed)
        assert proc.returncode == 0, proc.stderr
        assert "\\ud800" in proc.stdout
        got = answer(proc)
        assert got["hookSpecificOutput"]["permissionDecisionReason"] == f"denied {SURROGATE} here"
    proc = ws.run("--config", config, "--report")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["handlers"][0]["reason"] == f"denied {SURROGATE} here"


def test_run_reads_an_answer_nested_600_levels(ws: Workspace) -> None:
    """Before the fix: exit 1, no output ("internal error: RecursionError")."""
    deep = {**DENIED["hookSpecificOutput"], "updatedInput": nested(600, {"command": "ls"})}
    text = json.dumps({"hookSpecificOutput": deep})
    config = ws.config({"PreToolUse": [{"hooks": [printing(ws, text)]}]})
    got = answer(ws.run("--config", config))
    assert got["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert depth_of(got["hookSpecificOutput"]["updatedInput"]) == 601


def test_run_an_answer_deeper_than_the_parser_goes_is_a_failure_of_its_hook(
    ws: Workspace,
) -> None:
    """Its failure policy applies: warn (the default) says so, --fail-closed blocks."""
    text = json.dumps({"hookSpecificOutput": {**DENIED["hookSpecificOutput"], "x": "@"}})
    text = text.replace('"@"', "[" * TOO_DEEP + "]" * TOO_DEEP)
    config = ws.config({"PreToolUse": [{"hooks": [printing(ws, text)]}]})
    proc = ws.run("--config", config)
    assert answer(proc) == {}
    assert "error" in proc.stderr and "answer.json" in proc.stderr
    proc = ws.run("--config", config, "--fail-closed")
    got = answer(proc)
    assert got["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "answer.json" in got["hookSpecificOutput"]["permissionDecisionReason"]


@pytest.mark.parametrize("cwd", ["/tmp/project" + SURROGATE, "/tmp/pro\0ject"])
def test_run_refuses_a_cwd_that_is_no_path(ws: Workspace, cwd: str) -> None:
    """The project directory (and with it which files count as project files) comes from
    the payload's cwd here: one that cannot name a directory is a bad payload (before:
    an encoding error or "embedded null byte" out of the trust check)."""
    config = recording_guard(ws)
    stdin = json.dumps(ws.payload(cwd=cwd)).encode()
    proc = ws.run("--config", config, stdin=stdin)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "is not a path" in proc.stderr
    proc = ws.run("--config", config, "--fail-closed", stdin=stdin)
    assert proc.returncode == 2 and "is not a path" in proc.stderr
    assert not (ws.tmp / "stdin.json").exists()
