"""The LangChain adapter: a real ``create_agent`` agent, offline, with a scripted chat
model that calls a ``shell`` tool with ``rm -rf``. The agent's glue is in
tests/adapters/offline_langchain.py: every pytest-xdist worker collects this module, so
LangChain and LangGraph are imported by the tests that run, not at collection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent_hooks import (
    CallbackHook,
    HookMatcher,
    HookRegistry,
    PostToolUseFailureInput,
    PostToolUseFailureOutput,
    PreToolUseInput,
    PreToolUseOutput,
)
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

skip_unless_installed("langchain.agents")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"  # LangGraph runs on asyncio


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import agent_for, invoke, rm_rf_then_done, tool_messages

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    model = rm_rf_then_done("ok, I will not")
    hooks = AgentHooksMiddleware(reg, cwd=str(tmp_path))
    agent, ran = agent_for(model, hooks)
    await invoke(agent, hooks)
    assert ran == []  # the tool function never ran
    (refusal,) = tool_messages(model)
    assert refusal.status == "error"
    assert refusal.tool_call_id == "call_1"
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    assert expected in str(refusal.content)


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import agent_for, invoke, rm_rf_then_done, tool_messages

    hooks = AgentHooksMiddleware(registry("PreToolUse", broken, fail_closed=True))
    model = rm_rf_then_done("done")
    agent, ran = agent_for(model, hooks)
    await invoke(agent, hooks)
    assert ran == []
    assert tool_messages(model)[0].status == "error"


async def test_a_rewrite_changes_the_call() -> None:
    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import agent_for, invoke, rm_rf_then_done, tool_messages

    hooks = AgentHooksMiddleware(registry("PreToolUse", make_safe))
    model = rm_rf_then_done("done")
    agent, ran = agent_for(model, hooks)
    await invoke(agent, hooks)
    assert ran == ["ls build"]
    assert tool_messages(model)[0].content == "ran ls build"


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import agent_for, invoke, rm_rf_then_done, tool_messages

    hooks = AgentHooksMiddleware(registry("PostToolUse", formatter_ran))
    model = rm_rf_then_done("done")
    agent, ran = agent_for(model, hooks)
    await invoke(agent, hooks)
    assert ran == ["rm -rf build"]
    (message,) = tool_messages(model)
    assert message.content == "ran rm -rf build\n\nFORMATTER: 2 files reformatted"


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import ScriptedModel, agent_for, invoke

    hooks = AgentHooksMiddleware(registry("Stop", demand_tests, matcher=None))
    model = ScriptedModel(
        replies=[AIMessage(content="all done"), AIMessage(content="tests pass")], requests=[]
    )
    agent, _ = agent_for(model, hooks)
    result = await invoke(agent, hooks)
    assert len(model.requests) == 2
    feedback = model.requests[1][-1]
    assert isinstance(feedback, HumanMessage)
    assert feedback.content == "TESTS NOT RUN: run the tests first"
    assert result["messages"][-1].content == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    from langchain_core.messages import AIMessage

    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import ScriptedModel, agent_for, invoke

    seen: list[str] = []
    reg = session_hooks(seen)
    hooks = AgentHooksMiddleware(reg)
    model = ScriptedModel(replies=[AIMessage(content="hi")], requests=[])
    agent, _ = agent_for(model, hooks)
    await invoke(agent, hooks)
    assert seen == ["start", "end"]
    assert [m.content for m in model.requests[0]] == ["clean up", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    from agent_hooks.langchain import AgentHooksMiddleware, AgentStopped
    from tests.adapters.offline_langchain import agent_for, invoke, rm_rf_then_done

    hooks = AgentHooksMiddleware(registry("PreToolUse", halt))
    agent, ran = agent_for(rm_rf_then_done("done"), hooks)
    with pytest.raises(AgentStopped, match="maintenance window"):
        await invoke(agent, hooks)
    assert ran == []


async def test_ask_goes_to_langgraph_interrupt() -> None:
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    from agent_hooks.langchain import AgentHooksMiddleware, interrupt_permission
    from tests.adapters.offline_langchain import agent_for, rm_rf_then_done, tool_messages

    async def ask(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?")

    hooks = AgentHooksMiddleware(registry("PreToolUse", ask), permission=interrupt_permission)
    model = rm_rf_then_done("done")
    agent, ran = agent_for(model, hooks, checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": "t1"}}
    async with hooks.run():
        first = await agent.ainvoke({"messages": [HumanMessage(content="go")]}, config)
        (pending,) = first["__interrupt__"]
        assert pending.value["tool_name"] == "shell"
        assert pending.value["reason"] == "sure?"
        assert ran == []
        await agent.ainvoke(Command(resume={"allow": False, "message": "the user said no"}), config)
    assert ran == []
    assert tool_messages(model)[0].content == "the user said no"


async def test_a_bash_if_rule_matches_the_shell_tool() -> None:
    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import agent_for, invoke, rm_rf_then_done

    async def deny(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="rule")

    rule = CallbackHook(deny, if_rule="Bash(rm *)")
    hooks = AgentHooksMiddleware(HookRegistry({"PreToolUse": [HookMatcher(hooks=[rule])]}))
    agent, ran = agent_for(rm_rf_then_done("done"), hooks)
    await invoke(agent, hooks)
    assert ran == []


@pytest.mark.parametrize(
    ("aliases", "denied"),
    [(None, True), ({"shell": "shell"}, False), ({"shell": "Run"}, False)],
)
async def test_the_tool_name_mapping_is_configurable(
    aliases: dict[str, str] | None, denied: bool
) -> None:
    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import agent_for, invoke, rm_rf_then_done

    hooks = AgentHooksMiddleware(registry("PreToolUse", no_rm_rf), tool_aliases=aliases)
    agent, ran = agent_for(rm_rf_then_done("done"), hooks)
    await invoke(agent, hooks)
    assert ran == ([] if denied else ["rm -rf build"])


async def test_a_custom_name_maps_onto_bash() -> None:
    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool

    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import ScriptedModel, invoke

    hooks = AgentHooksMiddleware(
        registry("PreToolUse", no_rm_rf), tool_aliases={"shell": "shell", "run": "Bash"}
    )
    model = ScriptedModel(
        replies=[
            AIMessage(
                content="",
                tool_calls=[{"name": "run", "args": {"command": "rm -rf /"}, "id": "c1"}],
            ),
            AIMessage(content="done"),
        ]
    )
    ran: list[str] = []

    @tool
    def run(command: str) -> str:
        """Run a command."""
        ran.append(command)
        return "ok"

    agent = create_agent(model, tools=[run], middleware=[hooks])
    await invoke(agent, hooks)
    assert ran == []


async def test_a_tool_exception_goes_to_post_tool_use_failure_then_propagates() -> None:
    from langchain.agents import create_agent
    from langchain_core.tools import tool

    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import invoke, rm_rf_then_done

    seen: list[str | None] = []

    async def failed(input: PostToolUseFailureInput) -> None:
        seen.append(input.error)

    hooks = AgentHooksMiddleware(registry("PostToolUseFailure", failed))

    @tool
    def shell(command: str) -> str:
        """Run a shell command."""
        raise ValueError("disk full")

    agent = create_agent(rm_rf_then_done("done"), tools=[shell], middleware=[hooks])
    with pytest.raises(ValueError, match="disk full"):
        await invoke(agent, hooks)
    assert seen == ["ValueError: disk full"]


async def test_an_error_tool_message_gets_post_tool_use_failure_feedback() -> None:
    from langchain.agents import create_agent
    from langchain_core.tools import StructuredTool, ToolException

    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import invoke, rm_rf_then_done, tool_messages

    async def hint(input: PostToolUseFailureInput) -> PostToolUseFailureOutput:
        return PostToolUseFailureOutput(additional_context="HINT: free some space")

    hooks = AgentHooksMiddleware(registry("PostToolUseFailure", hint))

    def run(command: str) -> str:
        """Run a shell command."""
        raise ToolException("disk full")

    shell = StructuredTool.from_function(run, name="shell", handle_tool_error=True)
    model = rm_rf_then_done("done")
    agent = create_agent(model, tools=[shell], middleware=[hooks])
    await invoke(agent, hooks)
    (message,) = tool_messages(model)
    assert message.status == "error"
    assert message.content == "disk full\n\nHINT: free some space"


async def test_deep_agents_file_tools_map_onto_claude_names() -> None:
    from langchain_core.messages import AIMessage

    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import ScriptedModel, invoke, tool_messages

    deepagents = pytest.importorskip("deepagents")

    async def protect_env(input: PreToolUseInput) -> PreToolUseOutput | None:
        if str(input.tool_input.get("file_path", "")).endswith(".env"):
            return PreToolUseOutput(
                permission_decision="deny", permission_decision_reason=".env holds secrets"
            )
        return None

    hooks = AgentHooksMiddleware(registry("PreToolUse", protect_env, matcher="Write|Edit"))
    write = {"name": "write_file", "args": {"file_path": "/.env", "content": "K=1"}, "id": "c1"}
    model = ScriptedModel(
        replies=[AIMessage(content="", tool_calls=[write]), AIMessage(content="done")]
    )
    agent = deepagents.create_deep_agent(model=model, middleware=[hooks])
    result = await invoke(agent, hooks)
    assert "/.env" not in result.get("files", {})  # Deep Agents' write_file never ran
    (refusal,) = tool_messages(model)
    assert refusal.content == ".env holds secrets"


async def test_outside_run_is_an_error() -> None:
    from langchain_core.messages import HumanMessage

    from agent_hooks.langchain import AgentHooksMiddleware
    from tests.adapters.offline_langchain import agent_for, rm_rf_then_done

    hooks = AgentHooksMiddleware(HookRegistry())
    agent, _ = agent_for(rm_rf_then_done("done"), hooks)
    with pytest.raises(RuntimeError, match=r"middleware\.run"):
        await agent.ainvoke({"messages": [HumanMessage(content="x")]})


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("langchain_agent.py", tmp_path)
