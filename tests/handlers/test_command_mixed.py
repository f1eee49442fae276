"""Python callbacks and command hooks in one matcher group reduce through the same reducer.

A callback's answer and a command's printed JSON become the same typed output
and are folded together, in configuration order, by the same field rules
(deny beats allow, contexts and messages join, the last rewrite wins...).
Swapping a callback for a command that prints the same answer never changes
the decision.  Every async test runs on asyncio and on trio.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest

from agent_hooks import (
    CommandHook,
    Decision,
    DiagnosticCode,
    HookInput,
    HookMatcher,
    HookRegistry,
    Outcome,
    PreToolUseInput,
    PreToolUseOutput,
    StopInput,
    StopOutput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
)

pytestmark = pytest.mark.anyio

PY = sys.executable


def bash_call(command: str = "ls") -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": command})


def printing(answer: Mapping[str, Any], code: int = 0, stderr: str = "") -> CommandHook:
    """A command hook printing ``answer`` as JSON (and ``stderr``), exiting ``code``."""
    script = f"printf '%s' {shlex.quote(json.dumps(answer))}"
    if stderr:
        script += f"; printf '%s' {shlex.quote(stderr)} >&2"
    return CommandHook(command=f"{script}; exit {code}")


def returning(answer: Mapping[str, Any]) -> Any:
    """A Claude Agent SDK callback returning ``answer`` (the same wire dict)."""

    async def sdk_callback(
        input_data: dict[str, Any], tool_use_id: str | None, context: Any
    ) -> Any:
        return dict(answer)

    return sdk_callback


async def dispatch(
    hooks: Sequence[Any], input: HookInput[Any], tmp_path: Path, **options: Any
) -> Decision[Any]:
    reg = HookRegistry({input.event: [HookMatcher(hooks=list(hooks))]}, **options)
    async with reg.session(cwd=str(tmp_path)) as s:
        return await s.dispatch(input)


def codes(d: Decision[Any]) -> list[DiagnosticCode]:
    return sorted(x.code for x in d.diagnostics)


def pre(**specific: Any) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **specific}}


# --------------------------------------------------------------------------- #
# One group, both kinds
# --------------------------------------------------------------------------- #


async def test_callback_and_command_in_one_group(tmp_path: Path) -> None:
    async def allow(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(
            permission_decision="allow",
            permission_decision_reason="python allows",
            additional_context="from python",
            system_message="python says hi",
        )

    command = printing(
        {
            "systemMessage": "command says hi",
            **pre(
                permissionDecision="deny",
                permissionDecisionReason="command denies",
                additionalContext="from command",
            ),
        }
    )
    d = await dispatch([allow, command], bash_call(), tmp_path)
    assert [r.handler.kind for r in d.results if r.handler] == ["python", "command"]
    assert [r.outcome for r in d.results] == [Outcome.OK, Outcome.OK]
    # deny > allow, whichever kind answered it; the reason goes with the winner
    assert d.blocked
    assert d.output.permission_decision == "deny"
    assert d.reason == "command denies"
    # JOIN fields from both, in configuration order
    assert d.context == "from python\nfrom command"
    assert d.system_messages == ("python says hi\ncommand says hi",)


async def test_configuration_order_not_completion_order(tmp_path: Path) -> None:
    fifo = tmp_path / "pid"
    os.mkfifo(fifo)

    async def slow(input: PreToolUseInput) -> PreToolUseOutput:
        # Finish only after the command hook's process has exited.
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        data = b""
        try:
            while not data.endswith(b"\n"):
                await anyio.wait_readable(fd)
                try:
                    chunk = os.read(fd, 64)
                except BlockingIOError:
                    continue
                if not chunk:
                    break
                data += chunk
        finally:
            anyio.notify_closing(fd)
            os.close(fd)
        try:
            pidfd = os.pidfd_open(int(data))
        except ProcessLookupError:
            pass  # already exited and reaped
        else:
            try:
                await anyio.wait_readable(pidfd)
            finally:
                anyio.notify_closing(pidfd)
                os.close(pidfd)
        return PreToolUseOutput(additional_context="first in config, last to finish")

    answer = json.dumps(pre(additionalContext="second in config, first to finish"))
    command = CommandHook(command=f"echo $$ > {fifo}; echo {shlex.quote(answer)}")
    with anyio.fail_after(20):
        d = await dispatch([slow, command], bash_call(), tmp_path)
    assert d.context == "first in config, last to finish\nsecond in config, first to finish", (
        d.diagnostics
    )
    assert [r.handler.kind for r in d.results if r.handler] == ["python", "command"]


async def test_command_exit_2_blocks_a_callback_allow(tmp_path: Path) -> None:
    async def allow(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="allow", additional_context="py context")

    command = CommandHook(command="echo 'rm is not allowed' >&2; exit 2")
    d = await dispatch([allow, command], bash_call("rm -rf /"), tmp_path)
    assert d.blocked
    assert d.reason == "rm is not allowed"
    assert d.context == "py context"
    assert [r.outcome for r in d.results] == [Outcome.OK, Outcome.BLOCKED]


async def test_block_reasons_join_across_kinds(tmp_path: Path) -> None:
    async def block(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        return UserPromptSubmitOutput(decision="block", reason="python reason")

    hooks = [
        CommandHook(command="echo plain context"),
        block,
        printing({"decision": "block", "reason": "command reason"}),
        CommandHook(command="echo 'exit two' >&2; exit 2"),
    ]
    d = await dispatch(hooks, UserPromptSubmitInput(prompt="p"), tmp_path)
    assert d.blocked
    assert d.output.reason == "python reason\ncommand reason\nexit two"
    assert d.context == "plain context"


async def test_continue_false_and_stop_reason_across_kinds(tmp_path: Path) -> None:
    async def stop(input: StopInput) -> StopOutput:
        return StopOutput(continue_=False, stop_reason="python stop")

    command = printing({"continue": False, "stopReason": "command stop"})
    d = await dispatch([command, stop], StopInput(), tmp_path)
    assert not d.should_continue
    assert d.stop_reason == "command stop"  # first in configuration order
    d = await dispatch([stop, command], StopInput(), tmp_path)
    assert d.stop_reason == "python stop"


async def test_last_rewrite_wins_across_kinds_with_a_diagnostic(tmp_path: Path) -> None:
    async def rewrite(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(updated_input={"command": "from python"})

    command = printing(pre(updatedInput={"command": "from command"}))
    d = await dispatch([rewrite, command], bash_call(), tmp_path)
    assert d.output.updated_input == {"command": "from command"}
    [diag] = [x for x in d.diagnostics if x.code is DiagnosticCode.OVERRIDDEN]
    assert "overridden by" in diag.message
    d = await dispatch([command, rewrite], bash_call(), tmp_path)
    assert d.output.updated_input == {"command": "from python"}


async def test_chained_rewrites_thread_through_both_kinds(tmp_path: Path) -> None:
    async def add_flag(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(updated_input={"command": input.tool_input["command"] + " -la"})

    code = (
        "import json, sys\n"
        "cmd = json.load(sys.stdin)['tool_input']['command']\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'updatedInput': {'command': cmd + ' --color'}}}))\n"
    )
    command = CommandHook(argv=[PY, "-c", code])
    d = await dispatch(
        [add_flag, command], bash_call("ls"), tmp_path, execution={"PreToolUse": "chained"}
    )
    assert d.input.tool_input == {"command": "ls -la --color"}
    assert d.output.updated_input == {"command": "ls -la --color"}
    assert DiagnosticCode.OVERRIDDEN not in codes(d)


async def test_failures_of_both_kinds_follow_the_group_policy(tmp_path: Path) -> None:
    async def broken(input: PreToolUseInput) -> PreToolUseOutput:
        raise RuntimeError("callback bug")

    hooks = [broken, CommandHook(command="echo 'command bug' >&2; exit 1")]
    reg = HookRegistry({"PreToolUse": [HookMatcher(hooks=hooks, on_failure="block")]})
    async with reg.session(cwd=str(tmp_path)) as s:
        d = await s.dispatch(bash_call())
    assert d.blocked
    assert [r.outcome for r in d.results] == [Outcome.ERROR, Outcome.ERROR]
    assert [x.code for x in d.diagnostics].count(DiagnosticCode.FAILED_CLOSED) == 2
    assert d.reason and "callback bug" in d.reason
    # the same group failing open
    d = await dispatch(hooks, bash_call(), tmp_path)
    assert not d.blocked
    assert {DiagnosticCode.HANDLER_ERROR, DiagnosticCode.NONZERO_EXIT} <= set(codes(d))


# --------------------------------------------------------------------------- #
# A callback and a command with the same answer are interchangeable
# --------------------------------------------------------------------------- #

ANSWERS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (
        pre(permissionDecision="allow", additionalContext="a", updatedInput={"command": "ls -a"}),
        {"systemMessage": "b", **pre(permissionDecision="ask", permissionDecisionReason="why")},
    ),
    (
        pre(permissionDecision="deny", permissionDecisionReason="first"),
        pre(permissionDecision="deny", permissionDecisionReason="second"),
    ),
    (
        pre(updatedInput={"command": "one"}),
        {"suppressOutput": True, **pre(updatedInput={"command": "two"})},
    ),
    (
        {"decision": "block", "reason": "legacy"},
        {"continue": False, "stopReason": "halt"},
    ),
    (
        pre(permissionDecision="defer", additionalContext="x"),
        pre(permissionDecision="ask", additionalContext="y"),
    ),
]


@pytest.mark.parametrize(("first", "second"), ANSWERS)
async def test_same_answer_same_decision_whatever_the_kind(
    tmp_path: Path, first: dict[str, Any], second: dict[str, Any]
) -> None:
    decisions = []
    for make_first in (returning, printing):
        for make_second in (returning, printing):
            d = await dispatch([make_first(first), make_second(second)], bash_call(), tmp_path)
            assert all(r.outcome is Outcome.OK for r in d.results), d.diagnostics
            decisions.append(d)
    reference = decisions[0]
    for d in decisions[1:]:
        assert d.output == reference.output
        assert d.blocked == reference.blocked
        assert d.reason == reference.reason
        assert d.should_continue == reference.should_continue
        assert codes(d) == codes(reference)
