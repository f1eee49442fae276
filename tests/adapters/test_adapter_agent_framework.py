"""The Microsoft Agent Framework adapter: a real ``Agent``, offline, with a scripted chat
client (the framework's ``BaseChatClient`` with its function-invocation layer) that
calls a ``shell`` tool with ``rm -rf``. The agent's glue is in
tests/adapters/offline_agent_framework.py: every pytest-xdist worker collects this
module, so Agent Framework is imported by the tests that run, not at collection."""

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

skip_unless_installed("agent_framework")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from agent_hooks.agent_framework import AgentFrameworkHooks
    from tests.adapters.offline_agent_framework import ScriptedClient, run

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    client = ScriptedClient("ok, I will not")
    _, ran = await run(AgentFrameworkHooks(reg, cwd=str(tmp_path)), client)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (result,) = client.tool_results()
    assert expected in str(result)


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.agent_framework import AgentFrameworkHooks
    from tests.adapters.offline_agent_framework import ScriptedClient, run

    hooks = AgentFrameworkHooks(registry("PreToolUse", broken, fail_closed=True))
    _, ran = await run(hooks, ScriptedClient("done"))
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    from agent_hooks.agent_framework import AgentFrameworkHooks
    from tests.adapters.offline_agent_framework import ScriptedClient, run

    client = ScriptedClient("done")
    _, ran = await run(AgentFrameworkHooks(registry("PreToolUse", make_safe)), client)
    assert ran == ["ls build"]
    assert client.tool_results() == ["ran ls build"]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from agent_hooks.agent_framework import AgentFrameworkHooks
    from tests.adapters.offline_agent_framework import ScriptedClient, run

    client = ScriptedClient("done")
    _, ran = await run(AgentFrameworkHooks(registry("PostToolUse", formatter_ran)), client)
    assert ran == ["rm -rf build"]
    assert client.tool_results() == ["ran rm -rf build\nFORMATTER: 2 files reformatted"]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from agent_hooks.agent_framework import AgentFrameworkHooks
    from tests.adapters.offline_agent_framework import ScriptedClient, run

    client = ScriptedClient("all done", "tests pass", call=False)
    response, _ = await run(AgentFrameworkHooks(registry("Stop", demand_tests, matcher=None)), client)
    assert len(client.requests) == 2
    assert client.texts(1)[-1] == "TESTS NOT RUN: run the tests first"
    assert response.text == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    from agent_hooks.agent_framework import AgentFrameworkHooks
    from tests.adapters.offline_agent_framework import ScriptedClient, run

    seen: list[str] = []
    client = ScriptedClient("hi", call=False)
    await run(AgentFrameworkHooks(session_hooks(seen)), client, prompt="hello")
    assert seen == ["start", "end"]
    assert client.texts(0) == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    from agent_hooks.agent_framework import AgentFrameworkHooks, AgentStopped
    from tests.adapters.offline_agent_framework import ScriptedClient, run

    client = ScriptedClient("done")
    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AgentFrameworkHooks(registry("PreToolUse", halt)), client)
    assert len(client.requests) == 1  # the model was not asked again


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("agent_framework_agent.py", tmp_path)


def test_the_experimental_agent_hooks_cannot_run_beside_this_library() -> None:
    """agent-framework's AGENT-HOOKS-0.1 interceptors need ``agent-hooks-sdk``, whose
    import name is ``agent_hooks``, this library's own: they import this library and
    fail, so they are not mapped (docs/frameworks.md). Fails when that changes."""
    from agent_framework import create_agent_hooks_middleware

    with (
        pytest.warns(Warning, match="experimental"),
        pytest.raises(ImportError, match="from 'agent_hooks'"),
    ):
        create_agent_hooks_middleware([])
