"""The Strands Agents adapter: a real ``Agent``, offline, with a scripted ``Model`` that
calls a ``shell`` tool with ``rm -rf``. The agent's glue is in
tests/adapters/offline_strands.py: every pytest-xdist worker collects this module, so
Strands is imported by the tests that run, not at collection."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_hooks import PreToolUseInput, PreToolUseOutput
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

skip_unless_installed("strands")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from agent_hooks.strands import AgentHooksPlugin
    from tests.adapters.offline_strands import ScriptedModel, run

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    model = ScriptedModel("ok, I will not")
    _, ran = await run(AgentHooksPlugin(reg, cwd=str(tmp_path)), model)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (result,) = model.tool_results()
    assert result["status"] == "error"
    assert expected in result["content"][0]["text"]


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.strands import AgentHooksPlugin
    from tests.adapters.offline_strands import ScriptedModel, run

    hooks = AgentHooksPlugin(registry("PreToolUse", broken, fail_closed=True))
    _, ran = await run(hooks, ScriptedModel("done"))
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    from agent_hooks.strands import AgentHooksPlugin
    from tests.adapters.offline_strands import ScriptedModel, run

    model = ScriptedModel("done")
    _, ran = await run(AgentHooksPlugin(registry("PreToolUse", make_safe)), model)
    assert ran == ["ls build"]
    assert model.tool_results()[0]["content"] == [{"text": "ran ls build"}]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from agent_hooks.strands import AgentHooksPlugin
    from tests.adapters.offline_strands import ScriptedModel, run

    model = ScriptedModel("done")
    _, ran = await run(AgentHooksPlugin(registry("PostToolUse", formatter_ran)), model)
    assert ran == ["rm -rf build"]
    assert model.tool_results()[0]["content"] == [
        {"text": "ran rm -rf build"},
        {"text": "FORMATTER: 2 files reformatted"},
    ]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from agent_hooks.strands import AgentHooksPlugin
    from tests.adapters.offline_strands import ScriptedModel, run

    model = ScriptedModel("all done", "tests pass", call=False)
    result, _ = await run(AgentHooksPlugin(registry("Stop", demand_tests, matcher=None)), model)
    assert len(model.requests) == 2
    assert model.texts(1)[-1] == "TESTS NOT RUN: run the tests first"
    assert str(result).strip() == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    from agent_hooks.strands import AgentHooksPlugin
    from tests.adapters.offline_strands import ScriptedModel, run

    seen: list[str] = []
    reg = session_hooks(seen)
    model = ScriptedModel("hi", call=False)
    await run(AgentHooksPlugin(reg), model, prompt="hello")
    assert seen == ["start", "end"]
    assert model.texts(0) == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    from agent_hooks.strands import AgentHooksPlugin, AgentStopped
    from tests.adapters.offline_strands import ScriptedModel, run

    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AgentHooksPlugin(registry("PreToolUse", halt)), ScriptedModel("done"))


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("strands_agent.py", tmp_path)


async def test_ask_interrupts_the_agent_and_the_answer_resumes_it() -> None:
    from strands.types.interrupt import InterruptResponseContent

    from agent_hooks.strands import AgentHooksPlugin
    from tests.adapters.offline_strands import ScriptedModel, agent_for

    async def ask(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?")

    model = ScriptedModel("done")
    hooks = AgentHooksPlugin(registry("PreToolUse", ask), interrupt_on_ask=True)
    agent, ran = agent_for(model, hooks)
    async with hooks.run():
        first = await agent.invoke_async("clean up")
        assert first.stop_reason == "interrupt"
        assert first.interrupts is not None
        (pending,) = first.interrupts
        assert pending.name == "agent_hooks.permission"
        assert pending.reason["tool_name"] == "shell"
        assert pending.reason["reason"] == "sure?"
        assert ran == []
        answer = {"allow": False, "message": "the user said no"}
        resume: list[InterruptResponseContent] = [
            {"interruptResponse": {"interruptId": pending.id, "response": answer}}
        ]
        await agent.invoke_async(resume)
    assert ran == []
    (result,) = model.tool_results()
    assert result["content"] == [{"text": "the user said no"}]
