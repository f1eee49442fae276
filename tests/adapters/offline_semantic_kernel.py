"""An offline Semantic Kernel ``ChatCompletionAgent`` for
tests/adapters/test_adapter_semantic_kernel.py, with a scripted chat completion service
that calls a ``shell`` tool with ``rm -rf``. A module of its own, imported by the tests
that use it, so that collecting the tests imports no Semantic Kernel."""

from __future__ import annotations

import json
from typing import Any, ClassVar

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
from semantic_kernel.functions import KernelArguments, kernel_function

from agent_hooks.semantic_kernel import AgentHooksFilters


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
