"""An offline AutoGen ``ToolAgent`` runtime for tests/adapters/test_adapter_autogen.py,
with a scripted ``ChatCompletionClient`` that calls a ``shell`` tool with ``rm -rf``. A
module of its own, imported by the tests that use it, so that collecting the tests
imports no autogen-core."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

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

from agent_hooks.autogen import AutoGenHooks


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
