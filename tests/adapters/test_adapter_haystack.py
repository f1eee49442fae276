"""The Haystack adapter: a real ``Agent`` (Haystack 3.x), offline, with Haystack's
``MockChatGenerator`` calling a ``shell`` tool with ``rm -rf``. The agent's glue is in
tests/adapters/offline_haystack.py: every pytest-xdist worker collects this module, so
Haystack is imported by the tests that run, not at collection."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.framework_helpers import (
    broken,
    check_example,
    claude_project,
    demand_tests,
    formatter_ran,
    halt,
    make_safe,
    no_rm_rf,
    registry,
    session_hooks,
    skip_unless_installed,
)

skip_unless_installed("haystack")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from agent_hooks.haystack import HaystackHooks
    from tests.adapters.offline_haystack import Script, run

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    script = Script("ok, I will not")
    _, ran = await run(HaystackHooks(reg, cwd=str(tmp_path)), script)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    ((result, error),) = script.tool_results()
    assert error
    assert expected in str(result)


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.haystack import HaystackHooks
    from tests.adapters.offline_haystack import Script, run

    hooks = HaystackHooks(registry("PreToolUse", broken, fail_closed=True))
    _, ran = await run(hooks, Script("done"))
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    from agent_hooks.haystack import HaystackHooks
    from tests.adapters.offline_haystack import Script, run

    script = Script("done")
    _, ran = await run(HaystackHooks(registry("PreToolUse", make_safe)), script)
    assert ran == ["ls build"]
    assert script.tool_results() == [("ran ls build", False)]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from agent_hooks.haystack import HaystackHooks
    from tests.adapters.offline_haystack import Script, run

    script = Script("done")
    _, ran = await run(HaystackHooks(registry("PostToolUse", formatter_ran)), script)
    assert ran == ["rm -rf build"]
    assert script.tool_results() == [("ran rm -rf build\nFORMATTER: 2 files reformatted", False)]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from agent_hooks.haystack import HaystackHooks
    from tests.adapters.offline_haystack import Script, run

    script = Script("all done", "tests pass", call=False)
    result, _ = await run(HaystackHooks(registry("Stop", demand_tests, matcher=None)), script)
    assert len(script.requests) == 2
    assert script.texts(1)[-1] == "TESTS NOT RUN: run the tests first"
    assert result["last_message"].text == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    from agent_hooks.haystack import HaystackHooks
    from tests.adapters.offline_haystack import Script, run

    seen: list[str] = []
    script = Script("hi", call=False)
    await run(HaystackHooks(session_hooks(seen)), script, prompt="hello")
    assert seen == ["start", "end"]
    assert script.texts(0) == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    from agent_hooks.haystack import AgentStopped, HaystackHooks
    from tests.adapters.offline_haystack import Script, run

    script = Script("done")
    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(HaystackHooks(registry("PreToolUse", halt)), script)
    assert len(script.requests) == 1  # the model was not asked again


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("haystack_agent.py", tmp_path)


async def test_in_one_step_the_refused_call_never_runs_and_the_other_does() -> None:
    from haystack.components.agents import Agent
    from haystack.components.generators.chat import MockChatGenerator
    from haystack.dataclasses import ChatMessage, ToolCall
    from haystack.tools import Tool

    from agent_hooks.haystack import HaystackHooks

    requests: list[list[ChatMessage]] = []

    def two_calls(messages: list[ChatMessage]) -> ChatMessage | str:
        requests.append(list(messages))
        if len(requests) > 1:
            return "done"
        calls = [
            ToolCall(tool_name="shell", arguments={"command": "rm -rf build"}, id="a"),
            ToolCall(tool_name="shell", arguments={"command": "ls"}, id="b"),
        ]
        return ChatMessage.from_assistant(tool_calls=calls)

    ran: list[str] = []

    def shell(command: str) -> str:
        ran.append(command)
        return f"ran {command}"

    hooks = HaystackHooks(registry("PreToolUse", no_rm_rf))
    tool = Tool(
        name="shell",
        description="Run a shell command.",
        parameters={"type": "object", "properties": {"command": {"type": "string"}}},
        function=shell,
    )
    agent = Agent(
        chat_generator=MockChatGenerator(response_fn=two_calls), tools=[tool], hooks=hooks.hooks
    )
    async with hooks.run():
        await agent.run_async(messages=[ChatMessage.from_user("clean up")])
    assert ran == ["ls"]
    results = {
        m.tool_call_result.origin.id: m.tool_call_result.result
        for m in requests[-1]
        if m.tool_call_result is not None
    }
    assert results == {"a": "no rm -rf (python guard)", "b": "ran ls"}
