"""``--fail-closed`` blocks an answer that cannot be read (issue 27, item 11).

An exit-0 answer that cannot be read whole where a decision may have been (JSON cut
short, a byte order mark, trailing text, two objects, a JSON array, ``"Deny"``, a number
for a decision, a string ``hookSpecificOutput``, the ``hookEventName`` of another event,
a decision key outside ``hookSpecificOutput``) is a failure of the hook on an event that
can block, under its failure policy:

* without ``--fail-closed`` (policy ``warn``) it is read as Claude Code reads it, no
  decision (plain text context where the event takes one), with an
  ``unreadable_answer`` error diagnostic;
* with ``--fail-closed`` (``HookRegistry(fail_closed=True)``) it blocks, with a reason
  naming the hook and what could not be read.

Before the fix every one of them was "no opinion" under ``--fail-closed`` too. Checked
through ``agent-hooks run`` (read as Claude Code reads its answer: a JSON deny or block)
for command and Python hooks, and through the public API for SDK-style dict callbacks,
HTTP hooks and the answers of the other dialects (Gemini CLI, Cursor, Copilot, Codex).

``run`` answers in this process (the answer is what is checked; the Python hooks'
modules have names of their own test's, ``tests/dialect_helpers.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from agent_hooks import (
    CallbackHook,
    CommandHook,
    DiagnosticCode,
    HookMatcher,
    HookRegistry,
    Outcome,
    PreToolUseInput,
    StopInput,
    UserPromptSubmitInput,
    get_dialect,
)
from agent_hooks._dispatch._registry import Source
from tests.cli.test_cli_run import Workspace, answer, cmd
from tests.dialect_helpers import InProcessWorkspace

DENY = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}'

UNREADABLE: dict[str, str] = {
    "cut-short": DENY[:-3],
    "bom": "\ufeff" + DENY,
    "trailing-text": DENY + " done",
    "two-objects": DENY + "\n" + DENY,
    "array": f"[{DENY}]",
    "capitalised": DENY.replace('"deny"', '"Deny"'),
    "number": DENY.replace('"deny"', "1"),
    "string-specific": '{"hookSpecificOutput": "deny"}',
    "other-event": DENY.replace('"PreToolUse"', '"PostToolUse"'),
    "top-level-decision": '{"permissionDecision": "deny"}',
}
"""Each shape as a PreToolUse hook prints it."""

WHAT = {
    "cut-short": "not one JSON object",
    "bom": "byte order mark",
    "trailing-text": "not one JSON object",
    "two-objects": "not one JSON object",
    "array": "array",
    "capitalised": "'Deny'",
    "number": "got 1",
    "string-specific": "hookSpecificOutput must be an object",
    "other-event": "'PostToolUse'",
    "top-level-decision": "belongs inside hookSpecificOutput",
}
"""What the reason of the block says was unreadable."""

DICT_SHAPES = ["array", "capitalised", "number", "string-specific", "other-event"]
DICT_SHAPES += ["top-level-decision"]
"""The shapes a Python callback can return (parsed JSON)."""


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return InProcessWorkspace(tmp_path)


def printing(ws: Workspace, name: str, text: str) -> dict[str, Any]:
    """A command hook that prints ``text`` exactly (UTF-8, from a file)."""
    path = ws.hooks / f"{name}.out"
    path.write_bytes(text.encode("utf-8"))
    return cmd(f"cat '{path}'", name=name)


def returning(ws: Workspace, name: str, obj: Any) -> dict[str, Any]:
    """A Python hook (SDK-style callback in a module next to the config) returning ``obj``
    (the module named after the test's directory too: imported in this process)."""
    module = f"guard_{name.replace('-', '_')}_{ws.tmp.name}"
    ws.write(f"{module}.py", f"def guard(input_data, tool_use_id, context):\n    return {obj!r}\n")
    return {"type": "python", "callable": f"{module}:guard", "name": name}


def flags(fail_closed: bool) -> list[str]:
    return ["--fail-closed"] if fail_closed else []


# ------------------------------------------------------------------ the CLI


@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
@pytest.mark.parametrize("shape", sorted(UNREADABLE))
def test_an_unreadable_command_answer_on_pre_tool_use(
    ws: Workspace, shape: str, fail_closed: bool
) -> None:
    config = ws.config({"PreToolUse": [{"hooks": [printing(ws, shape, UNREADABLE[shape])]}]})
    proc = ws.run("--config", config, *flags(fail_closed))
    got = answer(proc)
    assert "unreadable_answer" in proc.stderr
    if not fail_closed:
        assert got == {}  # no decision: as Claude Code reads it
        return
    specific = got["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    reason = specific["permissionDecisionReason"]
    assert reason.startswith(f"hook {shape} failed: its answer could not be read: ")
    assert WHAT[shape] in reason


@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
@pytest.mark.parametrize("shape", DICT_SHAPES)
def test_an_unreadable_python_hook_answer_on_pre_tool_use(
    ws: Workspace, shape: str, fail_closed: bool
) -> None:
    hook = returning(ws, shape, json.loads(UNREADABLE[shape]))
    config = ws.config({"PreToolUse": [{"hooks": [hook]}]})
    proc = ws.run("--config", config, *flags(fail_closed))
    got = answer(proc)
    if not fail_closed:
        assert got == {}
        return
    specific = got["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"].startswith(f"hook {shape} failed: ")


@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
def test_a_cut_answer_on_user_prompt_submit(ws: Workspace, fail_closed: bool) -> None:
    """Without ``--fail-closed`` the text is context, as Claude Code reads plain stdout
    on UserPromptSubmit; with it, the prompt is blocked."""
    text = '{"decision": "block", "reason": "secret in prompt"'
    config = ws.config({"UserPromptSubmit": [{"hooks": [printing(ws, "prompt-guard", text)]}]})
    payload = ws.payload("UserPromptSubmit")
    got = answer(ws.run("--config", config, *flags(fail_closed), payload=payload))
    if fail_closed:
        assert got["decision"] == "block"
        assert got["reason"].startswith("hook prompt-guard failed: its answer could not be read")
    else:
        assert got["hookSpecificOutput"]["additionalContext"] == text


@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
def test_a_capitalised_block_on_stop(ws: Workspace, fail_closed: bool) -> None:
    text = '{"decision": "Block", "reason": "tests fail"}'
    config = ws.config({"Stop": [{"hooks": [printing(ws, "stop-guard", text)]}]})
    got = answer(ws.run("--config", config, *flags(fail_closed), payload=ws.payload("Stop")))
    if fail_closed:
        assert got["decision"] == "block" and "'Block'" in got["reason"]
    else:
        assert got == {}


@pytest.mark.parametrize(("event", "blocks"), [("SessionStart", False), ("PreToolUse", True)])
def test_only_an_event_that_can_block_is_blocked(ws: Workspace, event: str, blocks: bool) -> None:
    config = ws.config({event: [{"hooks": [printing(ws, "s", UNREADABLE["array"])]}]})
    proc = ws.run("--config", config, "--fail-closed", payload=ws.payload(event))
    got = answer(proc)
    assert ("failed_closed" in proc.stderr) is blocks
    assert (got.get("hookSpecificOutput", {}).get("permissionDecision") == "deny") is blocks


@pytest.mark.parametrize(
    ("text", "decision"),
    [
        (DENY.replace('"deny"', '"allow"'), "allow"),
        ("checked: fine", None),  # plain text is not an answer that tried to be JSON
        ("[checked] fine", None),
        (UNREADABLE["cut-short"], "deny"),
    ],
)
def test_only_an_unreadable_answer_is_a_failure(
    ws: Workspace, text: str, decision: str | None
) -> None:
    config = ws.config({"PreToolUse": [{"hooks": [printing(ws, "guard", text)]}]})
    proc = ws.run("--config", config, "--fail-closed")
    assert answer(proc).get("hookSpecificOutput", {}).get("permissionDecision") == decision
    assert ("unreadable_answer" in proc.stderr) is (decision == "deny")


# ------------------------------------------------------------- Python API


def bash() -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": "rm -rf /"})


async def dispatch(hooks: Any, input: Any, *, source: Any = "python", **options: Any) -> Any:
    registry = HookRegistry(
        {str(input.event): [HookMatcher(hooks=hooks)]}, source=source, **options
    )
    async with registry.session() as session:
        with anyio.fail_after(20):
            return await session.dispatch(input)


@pytest.mark.anyio
@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
@pytest.mark.parametrize("shape", DICT_SHAPES)
async def test_an_unreadable_sdk_callback_answer(shape: str, fail_closed: bool) -> None:
    obj = json.loads(UNREADABLE[shape])

    async def guard(input_data: dict[str, Any], tool_use_id: Any, context: Any) -> Any:
        return obj

    decision = await dispatch([CallbackHook(guard, name="guard")], bash(), fail_closed=fail_closed)
    (result,) = decision.results
    assert result.outcome is Outcome.ERROR
    assert decision.blocked is fail_closed
    if fail_closed:
        assert decision.output.permission_decision == "deny"
        assert (decision.reason or "").startswith("hook guard failed: ")
    else:
        assert decision.output is None or decision.output.permission_decision is None


def command(text: str, name: str = "guard") -> CommandHook:
    """A command hook printing ``text`` exactly (``printf``: no interpreter to start)."""
    return CommandHook(argv=["printf", "%s", text], name=name)


@pytest.mark.anyio
@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
@pytest.mark.parametrize("shape", sorted(UNREADABLE))
async def test_an_unreadable_command_answer_through_the_api(shape: str, fail_closed: bool) -> None:
    decision = await dispatch([command(UNREADABLE[shape])], bash(), fail_closed=fail_closed)
    (result,) = decision.results
    assert result.outcome is Outcome.ERROR
    assert DiagnosticCode.UNREADABLE_ANSWER in {d.code for d in result.diagnostics}
    assert decision.blocked is fail_closed


@pytest.mark.anyio
async def test_a_handlers_own_block_policy_applies_too() -> None:
    hook = CommandHook(argv=["printf", "%s\n", "[1]"], on_error="block")
    decision = await dispatch([hook], bash())
    assert decision.blocked


@pytest.mark.anyio
async def test_the_valid_parts_stand_when_the_failure_is_let_through() -> None:
    """Policy ``warn``: what a lenient reading made of the answer counts (its context)."""
    text = (
        '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", '
        '"additionalContext": "ctx"}, "decision": "Block"}'
    )
    decision = await dispatch([command(text)], UserPromptSubmitInput(prompt="hi"))
    assert not decision.blocked
    assert decision.output.additional_context == "ctx"
    assert decision.results[0].outcome is Outcome.ERROR


# Answers written for another harness, read through that harness's answer row.
DIALECT_ANSWERS = [
    ("gemini", PreToolUseInput, '{"decision": "Deny", "reason": "no"}'),
    ("gemini", PreToolUseInput, '{"decision": 1}'),
    ("gemini", StopInput, '{"decision": "Block", "reason": "again"}'),
    ("cursor", PreToolUseInput, '{"permission": "Deny", "user_message": "no"}'),
    ("cursor", PreToolUseInput, '{"permission": true}'),
    ("copilot", PreToolUseInput, '{"permissionDecision": "Deny"}'),
    ("codex", PreToolUseInput, UNREADABLE["capitalised"]),
    ("codex", PreToolUseInput, UNREADABLE["cut-short"]),
]


def make_input(cls: Any) -> Any:
    if cls is StopInput:
        return StopInput(stop_hook_active=False)
    return bash()


@pytest.mark.anyio
@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
@pytest.mark.parametrize(
    ("dialect", "cls", "text"),
    DIALECT_ANSWERS,
    ids=[f"{d}-{i}" for i, (d, _, _) in enumerate(DIALECT_ANSWERS)],
)
async def test_an_unreadable_answer_of_another_dialect(
    dialect: str, cls: Any, text: str, fail_closed: bool
) -> None:
    """Before the fix Gemini's ``"Block"`` on AfterAgent and non-string verdicts were
    dropped without a word; every one of these was "no opinion" under fail_closed."""
    source = Source(label=dialect, dialect=get_dialect(dialect))
    decision = await dispatch(
        [command(text)], make_input(cls), source=source, fail_closed=fail_closed
    )
    (result,) = decision.results
    assert result.outcome is Outcome.ERROR, result
    assert DiagnosticCode.UNREADABLE_ANSWER in {d.code for d in result.diagnostics}
    assert decision.blocked is fail_closed


@pytest.mark.anyio
@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
async def test_an_unreadable_http_answer(
    monkeypatch: pytest.MonkeyPatch, fail_closed: bool
) -> None:
    pytest.importorskip("h11")
    from agent_hooks._handlers import _http

    async def post(url: str, body: bytes, headers: Any) -> _http.HttpResponse:
        return _http.HttpResponse(status=200, headers={}, body=UNREADABLE["capitalised"].encode())

    monkeypatch.setattr(_http, "http_post", post)
    hook = _http.HttpHook(url="http://127.0.0.1:9/hook", name="web-guard")
    decision = await dispatch([hook], bash(), fail_closed=fail_closed)
    assert decision.results[0].outcome is Outcome.ERROR
    assert decision.blocked is fail_closed
    if fail_closed:
        assert "'Deny'" in (decision.reason or "")


@pytest.mark.anyio
@pytest.mark.parametrize("fail_closed", [False, True], ids=["default", "fail-closed"])
async def test_an_unreadable_decision_with_exit_1_does_not_decide_alone(
    fail_closed: bool,
) -> None:
    """Claude Code lets a JSON answer of a failed hook decide; one whose decision cannot
    be read does not (before the fix it did: nothing blocked under fail_closed)."""
    text = DENY.replace('"deny"', '"Deny"')[:-1] + ', "systemMessage": "x"}'
    hook = CommandHook(argv=["sh", "-c", 'printf "%s" "$1"; exit 1', "sh", text])
    decision = await dispatch([hook], bash(), fail_closed=fail_closed)
    assert decision.results[0].outcome is Outcome.ERROR
    assert decision.blocked is fail_closed
