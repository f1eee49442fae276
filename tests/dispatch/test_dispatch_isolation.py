"""Answers, payloads and failures of one handler never leak into another's or another
dispatch's.

A callback's answer is read anew every time it is given, even when it is the same
object edited in place or compares equal to an earlier one; each handler gets a
payload of its own, so editing it changes nothing else; the answers of a dispatch are
folded anew; a handler's failure, however odd, stays in its own result; and each
deadline expires at its own time, whatever other deadlines run. On asyncio and trio.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agent_hooks import (
    DiagnosticCode,
    HandlerNode,
    HookCall,
    HookMatcher,
    HookRegistry,
    Outcome,
    PostToolUseInput,
    PreToolUseInput,
    PreToolUseOutput,
)

pytestmark = pytest.mark.anyio

LIMIT = 5.0  # a deadlock or a missed timeout fails instead of hanging


def bash(command: str = "ls") -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": command}, tool_use_id="t")


def registry(*hooks: Any, timeout: float | None = None) -> HookRegistry:
    return HookRegistry(
        {"PreToolUse": [HookMatcher(matcher="Bash", hooks=list(hooks), timeout=timeout)]}
    )


# ------------------------------------------------------------ answers read anew


@pytest.mark.parametrize("alone", [True, False], ids=["alone", "with-another"])
async def test_an_answer_edited_in_place_is_read_again(alone: bool) -> None:
    answer: dict[str, Any] = {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}
    }

    async def same_dict(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        return answer  # one dict, edited between dispatches

    async def quiet(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        return {}

    hooks = [same_dict] if alone else [same_dict, quiet]
    async with registry(*hooks).session() as session:
        assert (await session.dispatch(bash())).output.permission_decision == "deny"
        answer["hookSpecificOutput"]["permissionDecision"] = "allow"
        assert (await session.dispatch(bash())).output.permission_decision == "allow"
        answer["hookSpecificOutput"]["permissionDecision"] = "deny"
        assert (await session.dispatch(bash())).output.permission_decision == "deny"


async def test_equal_answers_with_numbers_of_another_type_are_decoded_again() -> None:
    """``0 == False`` in Python, but ``"continue": 0`` is not a boolean: the callback's
    answer is invalid, though it compares equal to a valid one seen just before."""
    answers = iter(
        [{"continue": False, "stopReason": "halt"}, {"continue": 0, "stopReason": "halt"}]
    )

    async def flip(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        return next(answers)

    async with registry(flip).session() as session:
        first = await session.dispatch(bash())
        assert first.should_continue is False and first.stop_reason == "halt"
        second = await session.dispatch(bash())
        assert second.results[0].outcome is Outcome.ERROR
        assert second.should_continue is True
        assert DiagnosticCode.WRONG_TYPE in {d.code for d in second.diagnostics}


async def test_a_fresh_dict_each_time_gives_the_same_decision() -> None:
    async def literal(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "ok"}}

    async with registry(literal).session() as session:
        decisions = [await session.dispatch(bash()) for _ in range(3)]
    assert [d.output.additional_context for d in decisions] == ["ok"] * 3
    assert all(d.results[0].outcome is Outcome.OK for d in decisions)


async def test_one_callback_registered_for_two_events_answers_each_for_its_own() -> None:
    async def both(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        return {"decision": "block", "reason": "no"}

    reg = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[both])], "PostToolUse": [HookMatcher(hooks=[both])]}
    )
    async with reg.session() as session:
        pre = await session.dispatch(bash())
        post = await session.dispatch(
            PostToolUseInput(tool_name="Bash", tool_input={}, tool_response="x", tool_use_id="t")
        )
        pre_again = await session.dispatch(bash())
    assert pre.blocked and post.blocked and pre_again.blocked
    assert type(pre.output) is PreToolUseOutput and type(pre_again.output) is PreToolUseOutput
    assert type(post.output).__name__ == "PostToolUseOutput"


async def test_a_callback_returning_none_in_a_parallel_group_did_not_time_out() -> None:
    async def nothing(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        await anyio.lowlevel.checkpoint()
        return None

    async def context(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "c"}}

    async with registry(nothing, context, nothing).session() as session:
        decision = await session.dispatch(bash())
    assert [r.outcome for r in decision.results] == [Outcome.OK] * 3
    codes = [d.code for d in decision.diagnostics]
    assert DiagnosticCode.TIMEOUT not in codes
    assert codes.count(DiagnosticCode.INVALID_OUTPUT) == 2  # "return {} for no opinion"
    assert decision.output.additional_context == "c"


async def test_an_answer_spelling_a_key_two_ways_is_read_in_its_own_order() -> None:
    """``async`` and ``async_`` in one answer: the last one wins, so the same keys in
    another order mean another thing, though the two dicts compare equal."""
    answers = iter([{"async": True, "async_": False}, {"async_": False, "async": True}])

    async def both(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        return next(answers)

    async with registry(both).session() as session:
        first = await session.dispatch(bash())
        second = await session.dispatch(bash())
    assert first.results[0].is_async is False
    assert second.results[0].is_async is True


async def test_an_answer_with_diagnostics_reports_them_in_its_own_key_order() -> None:
    answers = iter([{"foo": 1, "bar": 2}, {"bar": 2, "foo": 1}])

    async def odd(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        return next(answers)

    async with registry(odd).session() as session:
        first = await session.dispatch(bash())
        second = await session.dispatch(bash())

    def paths(d: Any) -> list[str | None]:
        return [x.location for x in d.diagnostics if x.location and x.location.startswith("$")]

    assert paths(first) == ["$.foo", "$.bar"]
    assert paths(second) == ["$.bar", "$.foo"]


# ------------------------------------------------------------ payload isolation


@pytest.mark.parametrize("hooks", [1, 2], ids=["alone", "parallel"])
async def test_a_callback_editing_its_payload_changes_nothing_else(hooks: int) -> None:
    seen: list[str] = []

    async def vandal(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        input_data["tool_input"]["command"] = "rm -rf /"
        input_data["tool_name"] = "Nope"
        return {}

    async def reader(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        await anyio.lowlevel.checkpoint()  # after the vandal ran
        seen.append(input_data["tool_input"]["command"])
        return {}

    event = bash("ls")
    async with registry(vandal, *[reader] * (hooks - 1)).session() as session:
        decision = await session.dispatch(event)
        again = await session.dispatch(event)
    assert event.tool_input == {"command": "ls"}
    assert decision.input.tool_input == {"command": "ls"} == again.input.tool_input
    assert decision.input.tool_name == "Bash"
    assert seen == ["ls"] * 2 * (hooks - 1)


async def test_a_lone_callback_editing_extra_payload_fields_changes_nothing_else() -> None:
    async def vandal(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        input_data["meta"]["x"] = "changed"
        input_data["tags"].append("changed")
        return {}

    event = PreToolUseInput(
        tool_name="Bash",
        tool_input={"command": "ls"},
        tool_use_id="t",
        extra={"meta": {"x": "orig"}, "tags": ["orig"]},
    )
    async with registry(vandal).session() as session:
        decision = await session.dispatch(event)
        await session.dispatch(event)
    assert event.extra == {"meta": {"x": "orig"}, "tags": ["orig"]}
    assert decision.input.extra == event.extra


# ------------------------------------------------------------ folds made anew


async def test_typed_answers_edited_between_dispatches_fold_anew() -> None:
    """The same two answer objects each time, one of them edited in place: the merge of
    their ``metadata`` must be made again, not remembered."""
    first = PreToolUseOutput(metadata={"a": 1}, updated_input={"command": "ls"})
    second = PreToolUseOutput(metadata={"b": 2})

    async def one(input: PreToolUseInput) -> PreToolUseOutput:
        return first

    async def two(input: PreToolUseInput) -> PreToolUseOutput:
        return second

    async with registry(one, two).session() as session:
        before = await session.dispatch(bash())
        assert before.output.metadata == {"a": 1, "b": 2}
        assert first.metadata is not None and first.updated_input is not None
        first.metadata["a"] = 5
        first.updated_input["command"] = "pwd"
        after = await session.dispatch(bash())
    assert after.output.metadata == {"a": 5, "b": 2}
    assert after.output.updated_input == {"command": "pwd"}


async def test_recurring_answers_fold_the_same_way_every_time() -> None:
    def answer(i: int) -> Any:
        async def cb(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
            if i == 0:
                return {
                    "hookSpecificOutput": {
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "ask",
                        "permissionDecisionReason": "check",
                    }
                }
            return {"systemMessage": f"m{i}", "suppressOutput": i == 2}

        return cb

    async with registry(*[answer(i) for i in range(4)]).session() as session:
        decisions = [await session.dispatch(bash()) for _ in range(3)]
    for d in decisions:
        assert d.output.permission_decision == "ask"
        assert d.output.permission_decision_reason == "check"
        assert d.output.system_message == "m1\nm2\nm3"  # suppressOutput does not hide it
    assert decisions[0].output == decisions[2].output


@pytest.mark.parametrize("count", [1, 2], ids=["alone", "parallel"])
async def test_answers_are_not_kept_alive_by_the_dispatch(count: int) -> None:
    refs: list[weakref.ref[PreToolUseOutput]] = []

    async def fresh(input: PreToolUseInput) -> PreToolUseOutput:
        out = PreToolUseOutput(additional_context="x" * 1000)
        refs.append(weakref.ref(out))
        return out

    async with registry(*[fresh] * count).session() as session:
        for _ in range(20):
            await session.dispatch(bash())
    gc.collect()
    assert [r for r in refs if r() is not None] == []


# ------------------------------------------------------------ contained failures


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


@pytest.mark.parametrize("count", [1, 2], ids=["alone", "parallel"])
async def test_an_exception_that_cannot_be_printed_is_still_contained(count: int) -> None:
    async def bad(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        await anyio.lowlevel.checkpoint()
        raise Unprintable()

    async def ok(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        return {}

    async with registry(bad, *[ok] * (count - 1)).session() as session:
        decision = await session.dispatch(bash())
    failed = decision.results[0]
    assert failed.outcome is Outcome.ERROR
    assert failed.reason is not None and failed.reason.startswith("Unprintable: <")
    assert [r.outcome for r in decision.results[1:]] == [Outcome.OK] * (count - 1)


@pytest.mark.parametrize("count", [1, 2], ids=["alone", "parallel"])
async def test_a_returned_exception_is_a_bad_answer_not_a_raise(count: int) -> None:
    async def odd(input: PreToolUseInput) -> Any:
        return ValueError("boom")

    async def ok(input: PreToolUseInput) -> None:
        return None

    async with registry(odd, *[ok] * (count - 1)).session() as session:
        decision = await session.dispatch(bash())
    codes = {d.code for d in decision.results[0].diagnostics}
    assert DiagnosticCode.INVALID_OUTPUT in codes
    assert DiagnosticCode.HANDLER_ERROR not in codes


class NoResult:
    """A broken handler kind: its node's call answers ``None`` instead of a result."""

    def to_node(self) -> HandlerNode:
        async def call(c: HookCall) -> Any:
            await anyio.lowlevel.checkpoint()
            return None

        return HandlerNode(name="no-result", kind="broken", call=call)


@pytest.mark.parametrize("count", [1, 2], ids=["alone", "parallel"])
async def test_a_node_that_returns_no_result_is_an_error_not_a_timeout(count: int) -> None:
    async with registry(*[NoResult() for _ in range(count)]).session() as session:
        decision = await session.dispatch(bash())
    assert [r.outcome for r in decision.results] == [Outcome.ERROR] * count
    assert all(r.reason and "not a HandlerResult" in r.reason for r in decision.results)


# ------------------------------------------------------------ deadlines side by side


async def test_a_near_deadline_after_a_far_one_still_expires_on_time() -> None:
    """A handler with a far deadline ran first; the hanging one after it, with a near
    deadline, must still be cut at its own time, not after a minute."""
    never = anyio.Event()

    async def quick(input: PreToolUseInput) -> None:
        await anyio.lowlevel.checkpoint()

    async def hangs(input: PreToolUseInput) -> None:
        await never.wait()

    reg = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Read", hooks=[quick], timeout=60),
                HookMatcher(matcher="Bash", hooks=[hangs], timeout=0.05),
            ]
        }
    )
    async with reg.session() as session:
        far = PreToolUseInput(tool_name="Read", tool_input={}, tool_use_id="r")
        await session.dispatch(far)
        with anyio.fail_after(LIMIT):
            decision = await session.dispatch(bash())
        assert decision.results[0].outcome is Outcome.TIMEOUT
        assert (await session.dispatch(far)).results[0].outcome is Outcome.OK


async def test_deadlines_running_together_expire_each_at_its_own_time() -> None:
    never = anyio.Event()
    ended: dict[str, float] = {}

    def hang(name: str) -> Any:
        async def hook(input: PreToolUseInput) -> None:
            try:
                await never.wait()
            finally:
                ended[name] = anyio.current_time()

        return hook

    reg = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Bash", hooks=[hang("short")], timeout=0.05),
                HookMatcher(matcher="Read", hooks=[hang("long")], timeout=0.4),
            ]
        }
    )
    results: dict[str, Outcome] = {}
    async with reg.session() as session:

        async def run(tool: str) -> None:
            d = await session.dispatch(PreToolUseInput(tool_name=tool, tool_input={}))
            results[tool] = d.results[0].outcome

        start = anyio.current_time()
        with anyio.fail_after(LIMIT):
            async with anyio.create_task_group() as tg:
                tg.start_soon(run, "Read")
                tg.start_soon(run, "Bash")
    assert results == {"Bash": Outcome.TIMEOUT, "Read": Outcome.TIMEOUT}
    assert ended["short"] - start < 0.3 <= ended["long"] - start


# ------------------------------------------------------------ sys.exit in a callback


class _ExitsWhenRead(dict[str, Any]):
    """An answer whose reading calls ``sys.exit`` (user code runs while it is decoded)."""

    def __iter__(self) -> Any:
        raise SystemExit(3)

    def keys(self) -> Any:
        raise SystemExit(3)


async def test_sys_exit_in_a_callback_or_its_answer_is_contained() -> None:
    async def typed(input: PreToolUseInput) -> None:
        raise SystemExit(2)

    async def sdk(input_data: dict[str, Any], tool_use_id: str | None, ctx: Any) -> Any:
        return _ExitsWhenRead(systemMessage="never read")

    async def fine(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(additional_context="still here")

    async with registry(typed, sdk, fine).session() as session:
        decision = await session.dispatch(bash())
    failed = [r for r in decision.results if r.outcome is Outcome.ERROR]
    assert [(r.reason or "").rsplit("<locals>.", 1)[-1] for r in failed] == [
        "typed called sys.exit(2); a Python hook returns its answer (None for no opinion) instead",
        "sdk called sys.exit(3); a Python hook returns its answer (None for no opinion) instead",
    ]
    assert decision.output.additional_context == "still here"
