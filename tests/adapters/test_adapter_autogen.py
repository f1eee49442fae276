"""The AutoGen (autogen-core) adapter: a real ``SingleThreadedAgentRuntime`` with a
``ToolAgent``, offline, with a scripted ``ChatCompletionClient`` that calls a ``shell``
tool with ``rm -rf``. The agent's glue is in tests/adapters/offline_autogen.py: every
pytest-xdist worker collects this module, so autogen-core is imported by the tests that
run, not at collection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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

skip_unless_installed("autogen_core")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from agent_hooks.autogen import AutoGenHooks
    from tests.adapters.offline_autogen import ScriptedClient, run

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    client = ScriptedClient("ok, I will not")
    _, ran = await run(AutoGenHooks(reg, cwd=str(tmp_path)), client)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    ((result, error),) = client.tool_results()
    assert error
    assert expected in result


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.autogen import AutoGenHooks
    from tests.adapters.offline_autogen import ScriptedClient, run

    _, ran = await run(AutoGenHooks(registry("PreToolUse", broken, fail_closed=True)), ScriptedClient("done"))
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    from agent_hooks.autogen import AutoGenHooks
    from tests.adapters.offline_autogen import ScriptedClient, run

    client = ScriptedClient("done")
    _, ran = await run(AutoGenHooks(registry("PreToolUse", make_safe)), client)
    assert ran == ["ls build"]
    assert client.tool_results() == [("ran ls build", False)]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from agent_hooks.autogen import AutoGenHooks
    from tests.adapters.offline_autogen import ScriptedClient, run

    client = ScriptedClient("done")
    _, ran = await run(AutoGenHooks(registry("PostToolUse", formatter_ran)), client)
    assert ran == ["rm -rf build"]
    assert client.tool_results() == [("ran rm -rf build\nFORMATTER: 2 files reformatted", False)]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from agent_hooks.autogen import AutoGenHooks
    from tests.adapters.offline_autogen import ScriptedClient, run

    client = ScriptedClient("all done", "tests pass", call=False)
    messages, _ = await run(AutoGenHooks(registry("Stop", demand_tests, matcher=None)), client)
    assert len(client.requests) == 2
    assert client.texts(1)[-1] == "TESTS NOT RUN: run the tests first"
    assert messages[-1].content == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    from agent_hooks.autogen import AutoGenHooks
    from tests.adapters.offline_autogen import ScriptedClient, run

    seen: list[str] = []
    client = ScriptedClient("hi", call=False)
    await run(AutoGenHooks(session_hooks(seen)), client, prompt="hello")
    assert seen == ["start", "end"]
    assert client.texts(0) == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    from agent_hooks.autogen import AgentStopped, AutoGenHooks
    from tests.adapters.offline_autogen import ScriptedClient, run

    client = ScriptedClient("done")
    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AutoGenHooks(registry("PreToolUse", halt)), client)
    assert len(client.requests) == 1  # the model was not asked again


async def test_a_failing_tool_is_reported_to_post_tool_use_failure() -> None:
    from agent_hooks.autogen import AutoGenHooks
    from tests.adapters.offline_autogen import ScriptedClient, run

    failures: list[str] = []

    async def record(input: Any, tool_use_id: Any, context: Any) -> dict[str, Any]:
        failures.append(str(input["error"]))
        return {}

    client = ScriptedClient("done")
    _, ran = await run(AutoGenHooks(registry("PostToolUseFailure", record)), client, fail=True)
    assert ran == ["rm -rf build"]
    assert len(failures) == 1 and "disk full" in failures[0]
    ((result, error),) = client.tool_results()
    assert error and "disk full" in result


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("autogen_agent.py", tmp_path)
