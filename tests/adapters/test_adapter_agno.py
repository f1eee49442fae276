"""The Agno adapter: a real ``Agent``, offline, with a scripted ``Model`` that calls a
``shell`` tool with ``rm -rf``. The agent's glue is in tests/adapters/offline_agno.py:
every pytest-xdist worker collects this module, so Agno is imported by the tests that
run, not at collection."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_hooks import UserPromptSubmitInput, UserPromptSubmitOutput
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

skip_unless_installed("agno")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from agent_hooks.agno import AgnoHooks
    from tests.adapters.offline_agno import ScriptedModel, run

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    model = ScriptedModel(finals=["ok, I will not"])
    _, ran = await run(AgnoHooks(reg, cwd=str(tmp_path)), model)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (result,) = model.tool_results()
    assert expected in str(result)


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.agno import AgnoHooks
    from tests.adapters.offline_agno import ScriptedModel, run

    _, ran = await run(AgnoHooks(registry("PreToolUse", broken, fail_closed=True)), ScriptedModel(finals=["done"]))
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    from agent_hooks.agno import AgnoHooks
    from tests.adapters.offline_agno import ScriptedModel, run

    model = ScriptedModel(finals=["done"])
    _, ran = await run(AgnoHooks(registry("PreToolUse", make_safe)), model)
    assert ran == ["ls build"]
    assert model.tool_results() == ["ran ls build"]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from agent_hooks.agno import AgnoHooks
    from tests.adapters.offline_agno import ScriptedModel, run

    model = ScriptedModel(finals=["done"])
    _, ran = await run(AgnoHooks(registry("PostToolUse", formatter_ran)), model)
    assert ran == ["rm -rf build"]
    assert model.tool_results() == ["ran rm -rf build\nFORMATTER: 2 files reformatted"]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from agent_hooks.agno import AgnoHooks
    from tests.adapters.offline_agno import ScriptedModel, run

    model = ScriptedModel(finals=["all done", "tests pass"], call=False)
    output, _ = await run(AgnoHooks(registry("Stop", demand_tests, matcher=None)), model)
    assert len(model.requests) == 2
    assert model.texts(1) == ["clean up", "TESTS NOT RUN: run the tests first"]
    assert ("assistant", "all done") in model.requests[1]
    assert output.content == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    from agent_hooks.agno import AgnoHooks
    from tests.adapters.offline_agno import ScriptedModel, run

    seen: list[str] = []
    model = ScriptedModel(finals=["hi"], call=False)
    await run(AgnoHooks(session_hooks(seen)), model, prompt="hello")
    assert seen == ["start", "end"]
    assert model.texts(0) == ["hello\n\nBRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    from agent_hooks.agno import AgentStopped, AgnoHooks
    from tests.adapters.offline_agno import ScriptedModel, run

    model = ScriptedModel(finals=["done"])
    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AgnoHooks(registry("PreToolUse", halt)), model)
    assert len(model.requests) == 1  # the model was not asked again


async def test_a_blocked_prompt_never_reaches_the_model() -> None:
    from agent_hooks.agno import AgnoHooks, PromptBlocked
    from tests.adapters.offline_agno import ScriptedModel, run

    async def no_secrets(input: UserPromptSubmitInput) -> UserPromptSubmitOutput | None:
        return UserPromptSubmitOutput(decision="block", reason="no secrets in prompts")

    model = ScriptedModel(finals=["done"])
    with pytest.raises(PromptBlocked, match="no secrets in prompts"):
        await run(AgnoHooks(registry("UserPromptSubmit", no_secrets, matcher=None)), model)
    assert model.requests == []


async def test_outside_run_nothing_runs() -> None:
    from agno.agent import Agent

    from agent_hooks.agno import AgnoHooks
    from tests.adapters.offline_agno import ScriptedModel

    model = ScriptedModel(finals=["done"])
    agent = AgnoHooks(registry("PreToolUse", no_rm_rf)).install(Agent(model=model))
    output = await agent.arun("clean up")  # the pre-hook fails closed: Agno's input check
    assert "hooks.run()" in str(output.content)
    assert model.requests == []


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("agno_agent.py", tmp_path)
