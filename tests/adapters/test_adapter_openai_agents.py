"""The OpenAI Agents SDK adapter: a real ``Agent`` run by ``Runner``, offline, with a
custom ``Model`` that calls a ``shell`` function tool with ``rm -rf``. The agent's glue
is in tests/adapters/offline_openai_agents.py: every pytest-xdist worker collects this
module, so the Agents SDK is imported by the tests that run, not at collection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent_hooks import HookMatcher, HookRegistry
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

skip_unless_installed("agents")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from agent_hooks.openai_agents import AgentHooksRunner
    from tests.adapters.offline_openai_agents import OFFLINE, ScriptedModel, agent_for

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    model = ScriptedModel("ok, I will not")
    agent, ran = agent_for(model)
    result = await AgentHooksRunner(reg, cwd=str(tmp_path)).run(
        agent, "clean up", run_config=OFFLINE
    )
    assert ran == []  # the tool function never ran
    assert result.final_output == "ok, I will not"
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (output,) = model.outputs()
    assert expected in output


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.openai_agents import AgentHooksRunner
    from tests.adapters.offline_openai_agents import OFFLINE, ScriptedModel, agent_for

    agent, ran = agent_for(ScriptedModel("done"))
    runner = AgentHooksRunner(registry("PreToolUse", broken, fail_closed=True))
    await runner.run(agent, "clean up", run_config=OFFLINE)
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    from agent_hooks.openai_agents import AgentHooksRunner
    from tests.adapters.offline_openai_agents import OFFLINE, ScriptedModel, agent_for

    model = ScriptedModel("done")
    agent, ran = agent_for(model)
    await AgentHooksRunner(registry("PreToolUse", make_safe)).run(agent, "go", run_config=OFFLINE)
    assert ran == ["ls build"]
    assert model.outputs() == ["ran ls build"]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from agent_hooks.openai_agents import AgentHooksRunner
    from tests.adapters.offline_openai_agents import OFFLINE, ScriptedModel, agent_for

    model = ScriptedModel("done")
    agent, ran = agent_for(model)
    await AgentHooksRunner(registry("PostToolUse", formatter_ran)).run(
        agent, "go", run_config=OFFLINE
    )
    assert ran == ["rm -rf build"]
    assert model.outputs() == ["ran rm -rf build\n\nFORMATTER: 2 files reformatted"]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from agent_hooks.openai_agents import AgentHooksRunner
    from tests.adapters.offline_openai_agents import OFFLINE, ScriptedModel, agent_for

    model = ScriptedModel("all done", "tests pass", call=False)
    agent, _ = agent_for(model)
    runner = AgentHooksRunner(registry("Stop", demand_tests, matcher=None))
    result = await runner.run(agent, "go", run_config=OFFLINE)
    assert len(model.requests) == 2
    assert model.requests[1][-1] == {
        "role": "user",
        "content": "TESTS NOT RUN: run the tests first",
    }
    assert result.final_output == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    from agent_hooks.openai_agents import AgentHooksRunner
    from tests.adapters.offline_openai_agents import OFFLINE, ScriptedModel, agent_for

    seen: list[str] = []
    reg = session_hooks(seen)
    model = ScriptedModel("hi", call=False)
    agent, _ = agent_for(model)
    await AgentHooksRunner(reg).run(agent, "hello", run_config=OFFLINE)
    assert seen == ["start", "end"]
    assert [i.get("content") for i in model.requests[0]] == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    from agent_hooks.openai_agents import AgentHooksRunner, AgentStopped
    from tests.adapters.offline_openai_agents import OFFLINE, ScriptedModel, agent_for

    agent, ran = agent_for(ScriptedModel("done"))
    with pytest.raises(AgentStopped, match="maintenance window"):
        await AgentHooksRunner(registry("PreToolUse", halt)).run(agent, "go", run_config=OFFLINE)
    assert ran == []


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("openai_agents_run.py", tmp_path)


async def test_the_tools_of_agents_handed_off_to_are_hooked() -> None:
    from agents import Agent, ModelResponse
    from agents.usage import Usage
    from openai.types.responses import ResponseFunctionToolCall

    from agent_hooks.openai_agents import AgentHooksRunner
    from tests.adapters.offline_openai_agents import OFFLINE, ScriptedModel, agent_for

    model = ScriptedModel("ok, I will not")
    worker, ran = agent_for(model)
    front = ScriptedModel()

    async def hand_off(*args: Any, **kw: Any) -> ModelResponse:
        call = ResponseFunctionToolCall(
            arguments="{}", call_id="h1", name="transfer_to_dev", type="function_call", id="fc_h"
        )
        return ModelResponse(output=[call], usage=Usage(), response_id=None)

    front.get_response = hand_off  # type: ignore[method-assign]
    triage = Agent(name="triage", instructions="route", model=front, handoffs=[worker])
    runner = AgentHooksRunner(registry("PreToolUse", no_rm_rf))
    result = await runner.run(triage, "clean up", run_config=OFFLINE)
    assert ran == []
    assert result.final_output == "ok, I will not"
    assert any("no rm -rf (python guard)" in o for o in model.outputs())


async def test_run_hooks_dispatch_llm_events_and_keep_the_applications_hooks() -> None:
    from agents import RunHooks

    from agent_hooks.openai_agents import AgentHooksRunner
    from tests.adapters.offline_openai_agents import OFFLINE, ScriptedModel, agent_for

    seen: list[str] = []

    async def record(input: Any, tool_use_id: Any, context: Any) -> dict[str, Any]:
        seen.append(input["hook_event_name"])
        return {}

    class Mine(RunHooks[Any]):
        async def on_llm_end(self, *args: Any) -> None:
            seen.append("app on_llm_end")

    reg = HookRegistry(
        {
            "BeforeLLMCall": [HookMatcher(hooks=[record])],
            "AfterLLMCall": [HookMatcher(hooks=[record])],
        }
    )
    agent, _ = agent_for(ScriptedModel("hi", call=False))
    await AgentHooksRunner(reg).run(agent, "hello", run_config=OFFLINE, hooks=Mine())
    assert seen == ["BeforeLLMCall", "AfterLLMCall", "app on_llm_end"]


async def test_a_before_llm_call_block_ends_the_run() -> None:
    from agent_hooks.openai_agents import AgentHooksRunner, AgentStopped
    from tests.adapters.offline_openai_agents import OFFLINE, ScriptedModel, agent_for

    async def no_model(input: Any, tool_use_id: Any, context: Any) -> dict[str, Any]:
        return {"decision": "block", "reason": "budget exhausted"}

    reg = HookRegistry({"BeforeLLMCall": [HookMatcher(hooks=[no_model])]})
    model = ScriptedModel("hi", call=False)
    agent, _ = agent_for(model)
    with pytest.raises(AgentStopped, match="budget exhausted"):
        await AgentHooksRunner(reg).run(agent, "hello", run_config=OFFLINE)
    assert model.requests == []
