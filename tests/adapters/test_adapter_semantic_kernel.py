"""The Semantic Kernel adapter: a real ``ChatCompletionAgent``, offline, with a scripted
chat completion service that calls a ``shell`` function with ``rm -rf``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("semantic_kernel")

from semantic_kernel import Kernel
from semantic_kernel.agents import ChatCompletionAgent
from semantic_kernel.connectors.ai import FunctionChoiceBehavior, PromptExecutionSettings
from semantic_kernel.connectors.ai.chat_completion_client_base import ChatCompletionClientBase
from semantic_kernel.contents import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
)
from semantic_kernel.exceptions import KernelInvokeException
from semantic_kernel.functions import KernelArguments, kernel_function

from agent_hooks.semantic_kernel import AgentHooksFilters, AgentStopped
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


class ScriptedService(ChatCompletionClientBase):
    """First a ``tools-shell`` call with ``rm -rf`` (unless ``call=False``), then the
    finals; ``requests`` holds each request's chat history."""

    SUPPORTS_FUNCTION_CALLING: ClassVar[bool] = True
    finals: list[str]
    call: bool = True
    requests: list[list[ChatMessageContent]]

    async def _inner_get_chat_message_contents(
        self, chat_history: ChatHistory, settings: PromptExecutionSettings
    ) -> list[ChatMessageContent]:
        self.requests.append(list(chat_history.messages))
        if self.call:
            self.call = False
            call = FunctionCallContent(
                id="call_1", name="tools-shell", arguments=json.dumps({"command": "rm -rf build"})
            )
            return [ChatMessageContent(role=AuthorRole.ASSISTANT, items=[call])]
        return [ChatMessageContent(role=AuthorRole.ASSISTANT, content=self.finals.pop(0))]

    def tool_results(self) -> list[Any]:
        return [
            item.result
            for message in self.requests[-1]
            for item in message.items
            if isinstance(item, FunctionResultContent)
        ]

    def texts(self, request: int) -> list[str]:
        return [m.content for m in self.requests[request] if m.role == AuthorRole.USER]


def service(*finals: str, call: bool = True) -> ScriptedService:
    return ScriptedService(ai_model_id="scripted", finals=list(finals), call=call, requests=[])


class Tools:
    def __init__(self) -> None:
        self.ran: list[str] = []

    @kernel_function(description="Run a shell command.")
    def shell(self, command: str) -> str:
        self.ran.append(command)
        return f"ran {command}"




async def run(hooks: AgentHooksFilters, model: ScriptedService, prompt: str = "clean up") -> Any:
    tools = Tools()
    kernel = hooks.install(Kernel())
    kernel.add_plugin(tools, "tools")
    settings = PromptExecutionSettings(function_choice_behavior=FunctionChoiceBehavior.Auto())
    agent = ChatCompletionAgent(
        service=model, name="coder", kernel=kernel, arguments=KernelArguments(settings=settings)
    )
    async with hooks.run():
        response = await hooks.get_response(agent, prompt)
    return response, tools.ran


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    model = service("ok, I will not")
    _, ran = await run(AgentHooksFilters(reg, cwd=str(tmp_path)), model)
    assert ran == []  # the function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (result,) = model.tool_results()
    assert expected in str(result)


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    hooks = AgentHooksFilters(registry("PreToolUse", broken, fail_closed=True))
    _, ran = await run(hooks, service("done"))
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    model = service("done")
    _, ran = await run(AgentHooksFilters(registry("PreToolUse", make_safe)), model)
    assert ran == ["ls build"]
    assert model.tool_results() == ["ran ls build"]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    model = service("done")
    _, ran = await run(AgentHooksFilters(registry("PostToolUse", formatter_ran)), model)
    assert ran == ["rm -rf build"]
    assert model.tool_results() == ["ran rm -rf build\nFORMATTER: 2 files reformatted"]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    model = service("all done", "tests pass", call=False)
    response, _ = await run(AgentHooksFilters(registry("Stop", demand_tests, matcher=None)), model)
    assert len(model.requests) == 2
    assert model.texts(1)[-1] == "TESTS NOT RUN: run the tests first"
    assert str(response.message.content) == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    seen: list[str] = []
    model = service("hi", call=False)
    await run(AgentHooksFilters(session_hooks(seen)), model, prompt="hello")
    assert seen == ["start", "end"]
    assert model.texts(0) == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    model = service("done")
    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AgentHooksFilters(registry("PreToolUse", halt)), model)
    assert len(model.requests) == 1  # the model was not asked again


async def test_a_function_the_application_invokes_is_hooked_too() -> None:
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
