"""The CrewAI adapter: a real ``Crew``, offline, with a scripted ``BaseLLM`` whose native
tool calls go through CrewAI's own agent loop and hooks (CrewAI ships no fake model).
CrewAI cannot be installed beside the OpenAI Agents SDK: .ci/run runs this file in a
virtualenv of its own, and the main one skips it. The agent's glue is in
tests/adapters/offline_crewai.py: every pytest-xdist worker collects this module, so
CrewAI is imported by the tests that run, not at collection."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

# CrewAI's own switches: no telemetry, no tracing prompt, no version check (offline).
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")
os.environ.setdefault("CREWAI_DISABLE_VERSION_CHECK", "true")

from agent_hooks import (
    HookRegistry,
    PostToolUseFailureInput,
    PreToolUseInput,
    PreToolUseOutput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
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

skip_unless_installed("crewai")

pytestmark = [
    # CrewAI 1.15 reads its own deprecated fields while it builds and runs a crew
    pytest.mark.filterwarnings("ignore::DeprecationWarning:crewai"),
    # CrewAI's lazy crewai.rag module refuses its own submodule as an attribute on import;
    # now that the first test imports CrewAI (not the collection), its warning lands there
    pytest.mark.filterwarnings("ignore:Cannot set an attribute on 'crewai:ImportWarning"),
]


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import run, scripted

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    llm = scripted("ok, I will not")
    output, ran = run(CrewAIHooks(reg, cwd=str(tmp_path)), llm)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (result,) = llm.tool_results()
    assert expected in result  # the reason, not CrewAI's generic "blocked by hook"
    assert output.raw == "ok, I will not"


def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import run, scripted

    llm = scripted("done")
    _, ran = run(CrewAIHooks(registry("PreToolUse", broken, fail_closed=True)), llm)
    assert ran == []


def test_a_rewrite_runs_the_new_input() -> None:
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import run, scripted

    llm = scripted("done")
    _, ran = run(CrewAIHooks(registry("PreToolUse", make_safe)), llm)
    assert ran == ["ls build"]
    assert llm.tool_results() == ["ran ls build"]


def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import run, scripted

    llm = scripted("done")
    _, ran = run(CrewAIHooks(registry("PostToolUse", formatter_ran)), llm)
    assert ran == ["rm -rf build"]
    assert llm.tool_results() == ["ran rm -rf build\nFORMATTER: 2 files reformatted"]


def test_parallel_calls_are_each_hooked() -> None:
    """Three calls in one model response (CrewAI runs them at once on worker
    threads, each in a copy of the context): each ``POST_TOOL_CALL`` finishes its own
    call."""
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import run, scripted

    llm = scripted("done", calls=[["rm -rf build", "ls", "rm -rf dist"]])
    _, ran = run(CrewAIHooks(registry("PreToolUse", no_rm_rf)), llm)
    assert ran == ["ls"]
    assert sorted(llm.tool_results()) == sorted(
        ["no rm -rf (python guard)", "ran ls", "no rm -rf (python guard)"]
    )


def test_an_agent_kicked_off_without_a_crew_is_hooked_too() -> None:
    from crewai import Agent
    from crewai.tools import tool

    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import scripted

    ran: list[str] = []

    @tool("shell")
    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    llm = scripted("ok")
    agent = Agent(
        role="dev", goal="keep the build clean", backstory="careful", llm=llm, tools=[shell]
    )
    with CrewAIHooks(registry("PreToolUse", no_rm_rf)).run():
        agent.kickoff("clean up")
    assert ran == []
    assert llm.tool_results() == ["no rm -rf (python guard)"]


@pytest.mark.parametrize(
    ("hook", "event", "ran_commands", "observation"),
    [
        (no_rm_rf, "PreToolUse", [], "Observation: no rm -rf (python guard)"),
        (make_safe, "PreToolUse", ["ls build"], "Observation: ran ls build"),
        (
            formatter_ran,
            "PostToolUse",
            ["rm -rf build"],
            "Observation: ran rm -rf build\nFORMATTER: 2 files reformatted",
        ),
    ],
)
def test_the_text_based_tool_loop_is_hooked_too(
    hook: Any, event: str, ran_commands: list[str], observation: str
) -> None:
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import ReActLLM, crew

    action = 'Thought: clean\nAction: shell\nAction Input: {"command": "rm -rf build"}'
    final = "Thought: I now know the final answer\nFinal Answer: done"
    llm = ReActLLM(model="scripted", replies=[action, final])
    ran: list[str] = []
    the_crew = crew(llm, ran, None)  # (a ScriptedLLM's place: any BaseLLM)
    with CrewAIHooks(registry(event, hook)).run():
        the_crew.kickoff()
    assert ran == ran_commands
    assert any(observation in m["content"] for m in llm.requests[-1] if m["role"] == "assistant")


def test_a_call_without_arguments_cannot_be_rewritten_and_is_refused() -> None:
    from crewai import Agent, Crew, Task
    from crewai.tools import tool

    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import scripted

    async def add_argument(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(updated_input={"verbose": True})

    ran: list[str] = []

    @tool("status")
    def status() -> str:
        """Show the status."""
        ran.append("status")
        return "clean"

    llm = scripted("done", calls=[[{"name": "status", "arguments": "{}"}]])
    agent = Agent(role="dev", goal="g", backstory="b", llm=llm, tools=[status])
    task = Task(description="status?", expected_output="a summary", agent=agent)
    with CrewAIHooks(registry("PreToolUse", add_argument, matcher=None)).run():
        Crew(agents=[agent], tasks=[task]).kickoff()
    assert ran == []
    (result,) = llm.tool_results()
    assert "cannot give 'status' a rewritten input" in result


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])  # (CrewAI's akickoff is asyncio's)
async def test_akickoff_in_an_async_program_is_hooked(anyio_backend: str) -> None:
    """The hooks block the calling loop's thread while the session's own loop, in the
    portal, answers them: no deadlock."""
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import crew, scripted

    ran: list[str] = []
    llm = scripted("done")
    hooks = CrewAIHooks(registry("PreToolUse", no_rm_rf))
    the_crew = crew(llm, ran, hooks)
    with hooks.run():
        output = await the_crew.akickoff()
    assert ran == []
    assert llm.tool_results() == ["no rm -rf (python guard)"]
    assert output.raw == "done"


def test_a_tool_error_goes_to_post_tool_use_failure() -> None:
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import run, scripted

    failures: list[str] = []

    async def record(input: PostToolUseFailureInput) -> None:
        failures.append(input.error)

    llm = scripted("done", calls=[["explode"]])
    _, ran = run(CrewAIHooks(registry("PostToolUseFailure", record)), llm)
    assert ran == ["explode"]
    assert len(failures) == 1 and "disk on fire" in failures[0]


def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import run, scripted

    llm = scripted("all done", "tests pass", calls=[])
    output, _ = run(CrewAIHooks(registry("Stop", demand_tests, matcher=None)), llm)
    assert len(llm.requests) == 2
    (retry,) = llm.texts(1)
    assert "TESTS NOT RUN: run the tests first" in retry
    assert "all done" in retry  # CrewAI shows the previous answer with the feedback
    assert output.raw == "tests pass"


def test_session_start_context_reaches_the_first_request() -> None:
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import run, scripted

    seen: list[str] = []
    llm = scripted("hi", calls=[])
    run(CrewAIHooks(session_hooks(seen)), llm, prompt="say hello")
    assert seen == ["start", "end"]
    (first,) = llm.texts(0)
    assert "say hello" in first and "BRANCH: main" in first


def test_the_task_is_the_prompt_and_its_context_reaches_the_first_request() -> None:
    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import run, scripted

    prompts: list[str] = []

    async def note(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        prompts.append(input.prompt)
        return UserPromptSubmitOutput(additional_context="TICKET: 42")

    llm = scripted("hi", calls=[])
    run(CrewAIHooks(registry("UserPromptSubmit", note, matcher=None)), llm, prompt="say hello")
    assert prompts == ["say hello"]
    (first,) = llm.texts(0)
    assert "TICKET: 42" in first


def test_continue_false_ends_the_run() -> None:
    from agent_hooks.crewai import AgentStopped, CrewAIHooks
    from tests.adapters.offline_crewai import run, scripted

    llm = scripted("done")
    with pytest.raises(AgentStopped, match="maintenance window"):
        run(CrewAIHooks(registry("PreToolUse", halt)), llm)
    assert len(llm.requests) == 1  # the model was not asked again


def test_a_blocked_prompt_never_reaches_the_model() -> None:
    from agent_hooks.crewai import CrewAIHooks, PromptBlocked
    from tests.adapters.offline_crewai import run, scripted

    async def no_secrets(input: UserPromptSubmitInput) -> UserPromptSubmitOutput | None:
        return UserPromptSubmitOutput(decision="block", reason="no secrets in prompts")

    llm = scripted("done")
    with pytest.raises(PromptBlocked, match="no secrets in prompts"):
        run(CrewAIHooks(registry("UserPromptSubmit", no_secrets, matcher=None)), llm)
    assert llm.requests == []


def test_the_hooks_are_registered_only_while_the_run_is_open() -> None:
    from crewai.hooks import InterceptionPoint, get_hooks

    from agent_hooks.crewai import CrewAIHooks
    from tests.adapters.offline_crewai import crew, run, scripted

    before = {point: get_hooks(point) for point in InterceptionPoint}
    hooks = CrewAIHooks(registry("PreToolUse", no_rm_rf))
    _, ran = run(hooks, scripted("done"))
    assert ran == []
    assert {point: get_hooks(point) for point in InterceptionPoint} == before
    # a second crew after the block is not guarded by the first one's hooks
    ran_after: list[str] = []
    llm = scripted("done")
    crew(llm, ran_after, None).kickoff()
    assert ran_after == ["rm -rf build"]
    assert llm.tool_results() == ["ran rm -rf build"]


def test_one_run_at_a_time_and_no_guardrail_outside_a_run() -> None:
    from agent_hooks.crewai import CrewAIHooks

    first, second = CrewAIHooks(HookRegistry()), CrewAIHooks(HookRegistry())
    with first.run(), pytest.raises(RuntimeError, match="already open"), second.run():
        pass
    with pytest.raises(RuntimeError, match=r"hooks\.run"):
        first.guardrail(object())


def test_a_run_closes_cleanly_when_the_crew_fails() -> None:
    from agent_hooks.crewai import CrewAIHooks

    seen: list[str] = []
    hooks = CrewAIHooks(session_hooks(seen))
    with pytest.raises(ValueError, match="boom"), hooks.run():
        raise ValueError("boom")
    assert seen == ["start", "end"]


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("crewai_crew.py", tmp_path)
