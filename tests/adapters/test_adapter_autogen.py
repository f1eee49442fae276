"""The AutoGen (autogen-core) adapter: a real ``SingleThreadedAgentRuntime`` with a
``ToolAgent``, offline, with a scripted ``ChatCompletionClient`` that calls a ``shell``
tool with ``rm -rf``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("autogen_core")

from autogen_core import AgentId, FunctionCall, SingleThreadedAgentRuntime
from autogen_core.models import (
    ChatCompletionClient,
    CreateResult,
    FunctionExecutionResultMessage,
    LLMMessage,
    ModelInfo,
    RequestUsage,
    UserMessage,
)
from autogen_core.tool_agent import ToolAgent
from autogen_core.tools import FunctionTool

from agent_hooks.autogen import AgentStopped, AutoGenHooks
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
)

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class ScriptedClient(ChatCompletionClient):
    """First a ``shell`` call with ``rm -rf`` (unless ``call=False``), then the finals;
    ``requests`` holds each request's messages."""

    def __init__(self, *finals: str, call: bool = True) -> None:
        self.finals = list(finals)
        self.call = call
        self.requests: list[list[LLMMessage]] = []

    async def create(self, messages: Sequence[LLMMessage], **kwargs: Any) -> CreateResult:
        self.requests.append(list(messages))
        usage = RequestUsage(prompt_tokens=0, completion_tokens=0)
        if self.call:
            self.call = False
            call = FunctionCall(id="call_1", name="shell", arguments='{"command": "rm -rf build"}')
            return CreateResult(finish_reason="function_calls", content=[call], usage=usage, cached=False)
        return CreateResult(finish_reason="stop", content=self.finals.pop(0), usage=usage, cached=False)

    def create_stream(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError

    async def close(self) -> None:
        pass

    def actual_usage(self) -> RequestUsage:
        return RequestUsage(prompt_tokens=0, completion_tokens=0)

    total_usage = actual_usage

    def count_tokens(self, messages: Any, **kwargs: Any) -> int:
        return 0

    def remaining_tokens(self, messages: Any, **kwargs: Any) -> int:
        return 1000

    @property
    def capabilities(self) -> Any:
        return self.model_info

    @property
    def model_info(self) -> ModelInfo:
        return ModelInfo(
            vision=False, function_calling=True, json_output=False, family="unknown", structured_output=False
        )

    def tool_results(self) -> list[tuple[str, bool]]:
        return [
            (r.content, r.is_error)
            for m in self.requests[-1]
            if isinstance(m, FunctionExecutionResultMessage)
            for r in m.content
        ]

    def texts(self, request: int) -> list[Any]:
        return [m.content for m in self.requests[request] if isinstance(m, UserMessage)]


async def run(
    hooks: AutoGenHooks, client: ScriptedClient, prompt: str = "clean up", *, fail: bool = False
) -> Any:
    ran: list[str] = []

    async def shell(command: str) -> str:
        ran.append(command)
        if fail:
            raise OSError("disk full")
        return f"ran {command}"

    tool = FunctionTool(shell, description="Run a shell command.", name="shell")
    runtime = SingleThreadedAgentRuntime(intervention_handlers=[hooks])
    await ToolAgent.register(runtime, "tools", lambda: ToolAgent("runs tools", [tool]))
    runtime.start()
    try:
        async with hooks.run():
            messages = await hooks.caller_loop(
                runtime,
                AgentId("tools", "default"),
                client,
                [UserMessage(content=prompt, source="user")],
                [tool],
            )
    finally:
        await runtime.stop()
    return messages, ran


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    client = ScriptedClient("ok, I will not")
    _, ran = await run(AutoGenHooks(reg, cwd=str(tmp_path)), client)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    ((result, error),) = client.tool_results()
    assert error
    assert expected in result


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    _, ran = await run(AutoGenHooks(registry("PreToolUse", broken, fail_closed=True)), ScriptedClient("done"))
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    client = ScriptedClient("done")
    _, ran = await run(AutoGenHooks(registry("PreToolUse", make_safe)), client)
    assert ran == ["ls build"]
    assert client.tool_results() == [("ran ls build", False)]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    client = ScriptedClient("done")
    _, ran = await run(AutoGenHooks(registry("PostToolUse", formatter_ran)), client)
    assert ran == ["rm -rf build"]
    assert client.tool_results() == [("ran rm -rf build\nFORMATTER: 2 files reformatted", False)]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    client = ScriptedClient("all done", "tests pass", call=False)
    messages, _ = await run(AutoGenHooks(registry("Stop", demand_tests, matcher=None)), client)
    assert len(client.requests) == 2
    assert client.texts(1)[-1] == "TESTS NOT RUN: run the tests first"
    assert messages[-1].content == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    seen: list[str] = []
    client = ScriptedClient("hi", call=False)
    await run(AutoGenHooks(session_hooks(seen)), client, prompt="hello")
    assert seen == ["start", "end"]
    assert client.texts(0) == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    client = ScriptedClient("done")
    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AutoGenHooks(registry("PreToolUse", halt)), client)
    assert len(client.requests) == 1  # the model was not asked again


async def test_a_failing_tool_is_reported_to_post_tool_use_failure() -> None:
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
