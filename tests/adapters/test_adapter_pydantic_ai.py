"""The PydanticAI adapter: a real ``Agent``, offline, with a ``FunctionModel`` that calls
a ``shell`` tool with ``rm -rf``. The agent's glue is in
tests/adapters/offline_pydantic_ai.py: every pytest-xdist worker collects this module, so
PydanticAI is imported by the tests that run, not at collection."""

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

skip_unless_installed("pydantic_ai")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from pydantic_ai.messages import ToolReturnPart

    from agent_hooks.pydantic_ai import AgentHooksCapability
    from tests.adapters.offline_pydantic_ai import Script, agent_for, tool_result

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    script = Script("ok, I will not")
    agent, ran = agent_for(script, AgentHooksCapability(reg, cwd=str(tmp_path)))
    result = await agent.run("clean up")
    assert ran == []  # the tool function never ran
    assert result.output == "ok, I will not"
    part = tool_result(script)
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    assert isinstance(part, ToolReturnPart)
    assert expected in part.model_response_str()
    assert part.outcome == "failed"


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.pydantic_ai import AgentHooksCapability
    from tests.adapters.offline_pydantic_ai import Script, agent_for

    script = Script("done")
    agent, ran = agent_for(
        script, AgentHooksCapability(registry("PreToolUse", broken, fail_closed=True))
    )
    await agent.run("clean up")
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    from agent_hooks.pydantic_ai import AgentHooksCapability
    from tests.adapters.offline_pydantic_ai import Script, agent_for, tool_result

    script = Script("done")
    agent, ran = agent_for(script, AgentHooksCapability(registry("PreToolUse", make_safe)))
    await agent.run("clean up")
    assert ran == ["ls build"]
    assert tool_result(script).content == "ran ls build"


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from pydantic_ai.messages import UserPromptPart

    from agent_hooks.pydantic_ai import AgentHooksCapability
    from tests.adapters.offline_pydantic_ai import Script, agent_for, tool_result

    script = Script("done")
    agent, ran = agent_for(script, AgentHooksCapability(registry("PostToolUse", formatter_ran)))
    await agent.run("clean up")
    assert ran == ["rm -rf build"]
    assert tool_result(script).content == "ran rm -rf build"
    prompts = [p.content for p in script.last_parts() if isinstance(p, UserPromptPart)]
    assert "FORMATTER: 2 files reformatted" in prompts


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from pydantic_ai.messages import UserPromptPart

    from agent_hooks.pydantic_ai import AgentHooksCapability
    from tests.adapters.offline_pydantic_ai import Script, agent_for

    script = Script("all done", "tests pass", call=False)
    agent, _ = agent_for(script, AgentHooksCapability(registry("Stop", demand_tests, matcher=None)))
    result = await agent.run("clean up")
    assert len(script.requests) == 2
    (retry,) = [p for p in script.last_parts() if isinstance(p, UserPromptPart)][-1:]
    assert "TESTS NOT RUN: run the tests first" in str(retry.content)
    assert result.output == "tests pass"


async def test_session_start_and_prompt_context_are_instructions() -> None:
    from agent_hooks.pydantic_ai import AgentHooksCapability
    from tests.adapters.offline_pydantic_ai import Script, agent_for

    seen: list[str] = []
    reg = session_hooks(seen, with_session_id=True)
    script = Script("hi", call=False)
    agent, _ = agent_for(script, AgentHooksCapability(reg, session_id="s-42"))
    await agent.run("hello")
    assert seen == ["start s-42", "end"]
    assert script.instructions == ["BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    from agent_hooks.pydantic_ai import AgentHooksCapability, AgentStopped
    from tests.adapters.offline_pydantic_ai import Script, agent_for

    agent, ran = agent_for(Script("done"), AgentHooksCapability(registry("PreToolUse", halt)))
    with pytest.raises(AgentStopped, match="maintenance window"):
        await agent.run("clean up")
    assert ran == []


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("pydantic_ai_agent.py", tmp_path)


async def test_ask_defers_the_call_for_approval() -> None:
    from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults
    from pydantic_ai.models.function import FunctionModel

    from agent_hooks.pydantic_ai import AgentHooksCapability
    from tests.adapters.offline_pydantic_ai import Script

    async def ask(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?")

    ran: list[str] = []

    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    script = Script("done")
    hooks = AgentHooksCapability(registry("PreToolUse", ask), approval=True)
    agent: Agent[None, str | DeferredToolRequests] = Agent(
        FunctionModel(script),
        tools=[shell],
        capabilities=[hooks],
        output_type=[str, DeferredToolRequests],  # type: ignore[arg-type,unused-ignore]
    )
    first = await agent.run("clean up")
    assert isinstance(first.output, DeferredToolRequests)
    (pending,) = first.output.approvals
    assert pending.tool_call_id == "call_1"
    assert first.output.metadata["call_1"] == {"reason": "sure?", "hook_decision": "ask"}
    assert ran == []
    second = await agent.run(
        message_history=first.all_messages(),
        deferred_tool_results=DeferredToolResults(approvals={"call_1": True}),
    )
    assert ran == ["rm -rf build"]
    assert second.output == "done"
