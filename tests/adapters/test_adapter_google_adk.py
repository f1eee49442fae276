"""The Google ADK adapter: a real ``LlmAgent`` run by an ``InMemoryRunner``, offline, with
a scripted ``BaseLlm`` that calls a ``shell`` tool with ``rm -rf``. The agent's glue is
in tests/adapters/offline_google_adk.py: every pytest-xdist worker collects this module,
so Google ADK is imported by the tests that run, not at collection."""

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

skip_unless_installed("google.adk")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from agent_hooks.google_adk import AdkHooks
    from tests.adapters.offline_google_adk import ScriptedLlm, run

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    llm = ScriptedLlm(finals=["ok, I will not"])
    _, ran = await run(AdkHooks(reg, cwd=str(tmp_path)), llm)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (response,) = llm.responses()
    assert expected in response["error"]


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.google_adk import AdkHooks
    from tests.adapters.offline_google_adk import ScriptedLlm, run

    _, ran = await run(
        AdkHooks(registry("PreToolUse", broken, fail_closed=True)), ScriptedLlm(finals=["done"])
    )
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    from agent_hooks.google_adk import AdkHooks
    from tests.adapters.offline_google_adk import ScriptedLlm, run

    llm = ScriptedLlm(finals=["done"])
    _, ran = await run(AdkHooks(registry("PreToolUse", make_safe)), llm)
    assert ran == ["ls build"]
    assert llm.responses() == [{"result": "ran ls build"}]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from agent_hooks.google_adk import AdkHooks
    from tests.adapters.offline_google_adk import ScriptedLlm, run

    llm = ScriptedLlm(finals=["done"])
    _, ran = await run(AdkHooks(registry("PostToolUse", formatter_ran)), llm)
    assert ran == ["rm -rf build"]
    assert llm.responses() == [
        {"result": "ran rm -rf build", "additional_context": "FORMATTER: 2 files reformatted"}
    ]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from agent_hooks.google_adk import AdkHooks
    from tests.adapters.offline_google_adk import ScriptedLlm, run

    llm = ScriptedLlm(finals=["all done", "tests pass"], call=False)
    events, _ = await run(AdkHooks(registry("Stop", demand_tests, matcher=None)), llm)
    assert len(llm.requests) == 2
    assert llm.texts(1)[-1] == "TESTS NOT RUN: run the tests first"
    finals = [
        e for e in events if e.is_final_response() and e.content and e.content.role == "model"
    ]
    assert [e.content.parts[0].text for e in finals] == ["all done", "tests pass"]


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    from agent_hooks.google_adk import AdkHooks
    from tests.adapters.offline_google_adk import ScriptedLlm, run

    seen: list[str] = []
    reg = session_hooks(seen)
    llm = ScriptedLlm(finals=["hi"], call=False)
    await run(AdkHooks(reg), llm, prompt="hello")
    assert seen == ["start", "end"]
    assert llm.texts(0) == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    from agent_hooks.google_adk import AdkHooks, AgentStopped
    from tests.adapters.offline_google_adk import ScriptedLlm, run

    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AdkHooks(registry("PreToolUse", halt)), ScriptedLlm(finals=["done"]))


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("google_adk_agent.py", tmp_path)
