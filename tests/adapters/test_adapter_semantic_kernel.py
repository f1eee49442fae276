"""The Semantic Kernel adapter: a real ``ChatCompletionAgent``, offline, with a scripted
chat completion service that calls a ``shell`` function with ``rm -rf``. The agent's
glue is in tests/adapters/offline_semantic_kernel.py: every pytest-xdist worker collects
this module, so Semantic Kernel is imported by the tests that run, not at collection."""

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

skip_unless_installed("semantic_kernel")

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    from agent_hooks.semantic_kernel import AgentHooksFilters
    from tests.adapters.offline_semantic_kernel import run, service

    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    model = service("ok, I will not")
    _, ran = await run(AgentHooksFilters(reg, cwd=str(tmp_path)), model)
    assert ran == []  # the function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (result,) = model.tool_results()
    assert expected in str(result)


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    from agent_hooks.semantic_kernel import AgentHooksFilters
    from tests.adapters.offline_semantic_kernel import run, service

    hooks = AgentHooksFilters(registry("PreToolUse", broken, fail_closed=True))
    _, ran = await run(hooks, service("done"))
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    from agent_hooks.semantic_kernel import AgentHooksFilters
    from tests.adapters.offline_semantic_kernel import run, service

    model = service("done")
    _, ran = await run(AgentHooksFilters(registry("PreToolUse", make_safe)), model)
    assert ran == ["ls build"]
    assert model.tool_results() == ["ran ls build"]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    from agent_hooks.semantic_kernel import AgentHooksFilters
    from tests.adapters.offline_semantic_kernel import run, service

    model = service("done")
    _, ran = await run(AgentHooksFilters(registry("PostToolUse", formatter_ran)), model)
    assert ran == ["rm -rf build"]
    assert model.tool_results() == ["ran rm -rf build\nFORMATTER: 2 files reformatted"]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    from agent_hooks.semantic_kernel import AgentHooksFilters
    from tests.adapters.offline_semantic_kernel import run, service

    model = service("all done", "tests pass", call=False)
    response, _ = await run(AgentHooksFilters(registry("Stop", demand_tests, matcher=None)), model)
    assert len(model.requests) == 2
    assert model.texts(1)[-1] == "TESTS NOT RUN: run the tests first"
    assert str(response.message.content) == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    from agent_hooks.semantic_kernel import AgentHooksFilters
    from tests.adapters.offline_semantic_kernel import run, service

    seen: list[str] = []
    model = service("hi", call=False)
    await run(AgentHooksFilters(session_hooks(seen)), model, prompt="hello")
    assert seen == ["start", "end"]
    assert model.texts(0) == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    from agent_hooks.semantic_kernel import AgentHooksFilters, AgentStopped
    from tests.adapters.offline_semantic_kernel import run, service

    model = service("done")
    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AgentHooksFilters(registry("PreToolUse", halt)), model)
    assert len(model.requests) == 1  # the model was not asked again


async def test_a_function_the_application_invokes_is_hooked_too() -> None:
    from semantic_kernel import Kernel

    from agent_hooks.semantic_kernel import AgentHooksFilters
    from tests.adapters.offline_semantic_kernel import Tools

    hooks = AgentHooksFilters(registry("PreToolUse", no_rm_rf))
    tools = Tools()
    kernel = hooks.install(Kernel())
    plugin = kernel.add_plugin(tools, "tools")
    async with hooks.run():
        denied = await kernel.invoke(plugin["shell"], command="rm -rf build")
        allowed = await kernel.invoke(plugin["shell"], command="ls")
    assert tools.ran == ["ls"]
    assert denied is not None and denied.value == "no rm -rf (python guard)"
    assert allowed is not None and allowed.value == "ran ls"


async def test_outside_run_the_filters_refuse() -> None:
    from semantic_kernel import Kernel
    from semantic_kernel.exceptions import KernelInvokeException

    from agent_hooks.semantic_kernel import AgentHooksFilters
    from tests.adapters.offline_semantic_kernel import Tools

    hooks = AgentHooksFilters(registry("PreToolUse", no_rm_rf))
    tools = Tools()
    kernel = hooks.install(Kernel())
    plugin = kernel.add_plugin(tools, "tools")
    with pytest.raises(KernelInvokeException) as raised:  # the kernel wraps what filters raise
        await kernel.invoke(plugin["shell"], command="ls")
    assert isinstance(raised.value.__cause__, RuntimeError)
    assert "hooks.run()" in str(raised.value.__cause__)
    assert tools.ran == []


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("semantic_kernel_agent.py", tmp_path)
