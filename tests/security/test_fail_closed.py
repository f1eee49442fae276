"""A hook that fails on a blocking event is a failure of that hook (issue 15, item 4).

Whatever went wrong between the payload and the answer (the hook could not start, timed
out, exited with a failure status, raised, called ``sys.exit()``, answered what cannot
be read, or its input could not be prepared), the hook's failure policy decides, and
``agent-hooks run --fail-closed`` makes that policy ``block`` for every handler of an
event that can block, whatever the handler's own ``on_error`` says. Events that cannot
block, and fire-and-forget handlers, are left as they are.

CLI tests answer ``agent-hooks run`` in this process (the answer is what is checked;
``tests/dialect_helpers.py``); the guards' module is named after the test's
directory.
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
)
from agent_hooks._handlers._http import HttpHook
from tests.cli.test_cli_run import Workspace, answer, cmd
from tests.dialect_helpers import InProcessWorkspace


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return InProcessWorkspace(tmp_path)


GUARDS = """\
import sys


def raises(input):
    raise RuntimeError("guard broke")


def exits(input):
    sys.exit(0)  # a habit from hook scripts: "exit 0 allows"


def garbled(input_data, tool_use_id, context):
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}}
"""


def failing_hooks(ws: Workspace) -> dict[str, dict[str, Any]]:
    guards = f"guards_{ws.tmp.name}"  # (imported in this process: a name of its own)
    ws.write(f"{guards}.py", GUARDS)
    return {
        "exit-1": cmd("echo boom >&2; exit 1", name="exit-1"),
        "not-found": cmd(str(ws.tmp / "no-such-hook"), name="not-found"),
        "timeout": cmd("sleep 30", name="timeout", timeout=1),
        "raises": {"type": "python", "callable": f"{guards}:raises", "name": "raises"},
        "sys-exit": {"type": "python", "callable": f"{guards}:exits", "name": "sys-exit"},
        "bad-answer": {"type": "python", "callable": f"{guards}:garbled", "name": "bad-answer"},
    }


FAILURES = ["exit-1", "not-found", "timeout", "raises", "sys-exit", "bad-answer"]


@pytest.mark.parametrize("failure", FAILURES)
def test_fail_closed_blocks_when_a_hook_fails_on_pre_tool_use(ws: Workspace, failure: str) -> None:
    """Before the fix: ``{}`` and exit 0 under --fail-closed (``sys-exit``: no output at
    all)."""
    hook = failing_hooks(ws)[failure]
    config = ws.config({"PreToolUse": [{"hooks": [hook]}]})
    proc = ws.run("--config", config)
    assert answer(proc) == {}  # the default policy, warn: fail open, and say so
    assert f"[{failure}]" in proc.stderr
    proc = ws.run("--config", config, "--fail-closed")
    specific = answer(proc)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"].startswith(f"hook {failure} failed: ")
    assert "failed_closed" in proc.stderr


@pytest.mark.parametrize("policy", ["warn", "ignore"])
def test_fail_closed_wins_over_a_handlers_own_policy(ws: Workspace, policy: str) -> None:
    config = ws.config(
        {"PreToolUse": [{"hooks": [cmd("exit 1", name="lenient", on_error=policy)]}]}
    )
    assert answer(ws.run("--config", config)) == {}
    specific = answer(ws.run("--config", config, "--fail-closed"))["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        ("UserPromptSubmit", {"decision": "block", "reason": "hook exit-1 failed: boom"}),
        ("Stop", {"decision": "block", "reason": "hook exit-1 failed: boom"}),
    ],
)
def test_fail_closed_blocks_other_blocking_events(
    ws: Workspace, event: str, expected: dict[str, Any]
) -> None:
    config = ws.config({event: [{"hooks": [failing_hooks(ws)["exit-1"]]}]})
    assert answer(ws.run("--config", config, payload=ws.payload(event))) == {}
    got = answer(ws.run("--config", config, "--fail-closed", payload=ws.payload(event)))
    assert got == expected


def test_fail_closed_blocks_an_exit_code_only_event_with_exit_2(ws: Workspace) -> None:
    config = ws.config({"TeammateIdle": [{"hooks": [failing_hooks(ws)["exit-1"]]}]})
    payload = ws.payload("TeammateIdle", teammate_name="t", team_name="x")
    assert answer(ws.run("--config", config, payload=payload)) == {}
    proc = ws.run("--config", config, "--fail-closed", payload=payload)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "hook exit-1 failed: boom"


@pytest.mark.parametrize("event", ["Notification", "SessionStart"])
def test_fail_closed_leaves_events_that_cannot_block_alone(ws: Workspace, event: str) -> None:
    config = ws.config({event: [{"hooks": [failing_hooks(ws)["exit-1"]]}]})
    payload = ws.payload(event, message="hi", notification_type="idle")
    proc = ws.run("--config", config, "--fail-closed", payload=payload)
    assert answer(proc) == {}
    assert "boom" in proc.stderr and "failed_closed" not in proc.stderr


def test_fail_closed_leaves_fire_and_forget_hooks_alone(ws: Workspace) -> None:
    config = ws.config({"PreToolUse": [{"hooks": [cmd("exit 1", name="bg", **{"async": True})]}]})
    assert answer(ws.run("--config", config, "--fail-closed")) == {}


def test_a_python_hook_calling_sys_exit_does_not_end_run(ws: Workspace) -> None:
    """Before the fix the process exited 0 with no output: the deny of the other hook
    was lost."""
    hooks = failing_hooks(ws)
    deny = cmd("echo no >&2; exit 2", name="deny")
    config = ws.config({"PreToolUse": [{"hooks": [deny, hooks["sys-exit"]]}]})
    proc = ws.run("--config", config)
    specific = answer(proc)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert specific["permissionDecisionReason"] == "no"
    assert "sys.exit(0)" in proc.stderr


def test_a_hook_module_calling_sys_exit_as_it_loads_is_a_bad_handler(ws: Workspace) -> None:
    """Before the fix: exit 0 with nothing printed, which the harness reads as "allow".
    Now it is a handler that cannot be loaded, like one whose import fails: a
    configuration error, which ``--fail-closed`` turns into a block."""
    ws.write("quits.py", "import sys\nsys.exit(0)\n\ndef guard(input):\n    return None\n")
    config = ws.config({"PreToolUse": [{"hooks": [{"type": "python", "callable": "quits:guard"}]}]})
    proc = ws.run("--config", config)
    assert proc.returncode == 0 and answer(proc) == {}
    assert "SystemExit" in proc.stderr and "quits" in proc.stderr
    proc = ws.run("--config", config, "--fail-closed")
    assert proc.returncode == 2 and "SystemExit" in proc.stderr


def test_the_report_says_the_failure_blocked(ws: Workspace) -> None:
    config = ws.config({"PreToolUse": [{"hooks": [failing_hooks(ws)["exit-1"]]}]})
    proc = ws.run("--config", config, "--fail-closed", "--report")
    assert proc.returncode == 0, proc.stderr
    (handler,) = json.loads(proc.stdout)["handlers"]
    assert handler["outcome"] == "error" and handler["decision"] == "deny"
    assert [d["code"] for d in handler["diagnostics"]] == ["nonzero_exit", "failed_closed"]


# ------------------------------------------------------------- Python API


def test_fail_closed_sets_block_on_blocking_events_only() -> None:
    def guard(input: PreToolUseInput) -> None:
        return None

    hook = CommandHook(command="true", on_error="ignore")
    background = CommandHook(command="sleep 0", on_error="warn", async_=True)
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(hooks=[hook, CallbackHook(guard, name="guard"), background])
            ],
            "SessionStart": [HookMatcher(hooks=[hook])],
        },
        on_error="warn",
    )
    compiled = registry.evolve(fail_closed=True).compile()
    policies = {
        (event.value, n.info.name): n.on_error
        for event, nodes in compiled.nodes.items()
        for n in nodes
    }
    assert policies == {
        ("PreToolUse", "true"): "block",
        ("PreToolUse", "guard"): "block",
        ("PreToolUse", "sleep 0"): "warn",  # fire-and-forget: it never decides
        ("SessionStart", "true"): "ignore",  # SessionStart cannot block
    }
    assert {n.on_error for nodes in registry.compile().nodes.values() for n in nodes} == {
        "ignore",
        "warn",
    }  # the registry it was made from is left as it was


@pytest.mark.anyio
async def test_an_http_hook_whose_payload_cannot_be_written_fails() -> None:
    """A value set from Python that is not JSON data: the hook is not called and has
    failed (before the fix: a warning that read like a connection failure)."""
    input = PreToolUseInput(tool_name="Bash", tool_input={"when": object()})
    for policy, blocked in (("warn", False), ("block", True)):
        hook = HttpHook(url="http://127.0.0.1:9/never-called", on_error=policy)  # type: ignore[arg-type]
        registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[hook])]})
        async with registry.session() as session:
            with anyio.fail_after(10):
                decision = await session.dispatch(input)
        (result,) = decision.results
        assert result.outcome is Outcome.ERROR
        assert result.diagnostics[0].code is DiagnosticCode.PAYLOAD_UNENCODABLE
        assert "not JSON data" in result.diagnostics[0].message
        assert decision.blocked is blocked


@pytest.mark.anyio
async def test_an_http_answer_too_deep_to_read_is_a_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before the fix: RecursionError out of the hook, reported as "hook raised"."""
    from agent_hooks._handlers import _http

    async def post(url: str, body: bytes, headers: Any) -> _http.HttpResponse:
        deep = b'{"x":' + b"[" * 40_000 + b"]" * 40_000 + b"}"
        return _http.HttpResponse(status=200, headers={}, body=deep)

    monkeypatch.setattr(_http, "http_post", post)
    hook = HttpHook(url="http://127.0.0.1:9/hook", on_error="block")
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[hook])]})
    async with registry.session() as session:
        with anyio.fail_after(10):
            decision = await session.dispatch(
                PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"})
            )
    (result,) = decision.results
    assert result.outcome is Outcome.ERROR
    assert "nested too deeply" in (result.reason or "")
    assert decision.blocked


@pytest.mark.anyio
async def test_a_command_hook_whose_payload_cannot_be_written_fails(tmp_path: Path) -> None:
    ran = tmp_path / "ran"
    hook = CommandHook(command=f"touch '{ran}'", on_error="block")
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[hook])]})
    async with registry.session(cwd=str(tmp_path)) as session:
        with anyio.fail_after(10):
            decision = await session.dispatch(
                PreToolUseInput(tool_name="Bash", tool_input={"when": {1, 2}})
            )
    assert decision.blocked and not ran.exists()
    assert decision.results[0].outcome is Outcome.ERROR


def test_sys_exit_in_a_thread_callback_is_a_failure() -> None:
    import sys

    def exits(input: PreToolUseInput) -> None:
        sys.exit(3)

    async def main() -> Any:
        registry = HookRegistry(
            {
                "PreToolUse": [
                    HookMatcher(hooks=[CallbackHook(exits, thread=True, on_error="block")])
                ]
            }
        )
        async with registry.session() as session:
            return await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={}))

    decision = anyio.run(main)
    assert decision.blocked
    assert "sys.exit(3)" in (decision.reason or "")
