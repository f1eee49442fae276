"""An offline Haystack ``Agent`` for tests/adapters/test_adapter_haystack.py, with a
``MockChatGenerator`` script that calls a ``shell`` tool with ``rm -rf``. A module of
its own, imported by the tests that use it, so that collecting the tests imports no
Haystack."""

from __future__ import annotations

from typing import Any

from haystack.components.agents import Agent
from haystack.components.generators.chat import MockChatGenerator
from haystack.dataclasses import ChatMessage, ChatRole, ToolCall
from haystack.tools import Tool

from agent_hooks.haystack import HaystackHooks


class Script:
    """The model: first a ``shell`` call with ``rm -rf`` (unless ``call=False``), then
    the finals; ``requests`` holds each request's messages."""

    def __init__(self, *finals: str, call: bool = True) -> None:
        self.finals = list(finals)
        self.call = call
        self.requests: list[list[ChatMessage]] = []

    def __call__(self, messages: list[ChatMessage]) -> ChatMessage | str:
        self.requests.append(list(messages))
        if self.call:
            self.call = False
            call = ToolCall(tool_name="shell", arguments={"command": "rm -rf build"}, id="call_1")
            return ChatMessage.from_assistant(tool_calls=[call])
        return self.finals.pop(0)

    def tool_results(self) -> list[tuple[Any, bool]]:
        return [
            (m.tool_call_result.result, m.tool_call_result.error)
            for m in self.requests[-1]
            if m.tool_call_result is not None
        ]

    def texts(self, request: int) -> list[str | None]:
        return [m.text for m in self.requests[request] if m.is_from(ChatRole.USER)]


async def run(hooks: HaystackHooks, script: Script, prompt: str = "clean up") -> Any:
    ran: list[str] = []

    def shell(command: str) -> str:
        ran.append(command)
        return f"ran {command}"

    tool = Tool(
        name="shell",
        description="Run a shell command.",
        parameters={"type": "object", "properties": {"command": {"type": "string"}}},
        function=shell,
    )
    agent = Agent(
        chat_generator=MockChatGenerator(response_fn=script), tools=[tool], hooks=hooks.hooks
    )
    async with hooks.run():
        result = await agent.run_async(messages=[ChatMessage.from_user(prompt)])
    return result, ran
