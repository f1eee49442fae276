"""An offline PydanticAI agent for tests/adapters/test_adapter_pydantic_ai.py: a
``FunctionModel`` script that calls a ``shell`` tool with ``rm -rf``. A module of its
own, imported by the tests that use it, so that collecting the tests imports no
PydanticAI."""

from __future__ import annotations

from typing import Any

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_hooks.pydantic_ai import AgentHooksCapability


class Script:
    """A FunctionModel script: first a ``shell`` call with ``rm -rf``, then the finals."""

    def __init__(self, *finals: str, call: bool = True) -> None:
        self.finals = list(finals)
        self.call = call
        self.requests: list[list[ModelMessage]] = []
        self.instructions: list[str | None] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.requests.append(list(messages))
        self.instructions.append(info.instructions)
        if self.call:
            self.call = False
            return ModelResponse(
                parts=[ToolCallPart("shell", {"command": "rm -rf build"}, tool_call_id="call_1")]
            )
        return ModelResponse(parts=[TextPart(self.finals.pop(0))])

    def last_parts(self) -> list[Any]:
        return [p for m in self.requests[-1] if isinstance(m, ModelRequest) for p in m.parts]


def agent_for(script: Script, hooks: AgentHooksCapability) -> tuple[Agent[None, str], list[str]]:
    ran: list[str] = []

    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    return Agent(FunctionModel(script), tools=[shell], capabilities=[hooks]), ran


def tool_result(script: Script) -> Any:
    (part,) = [p for p in script.last_parts() if isinstance(p, (ToolReturnPart, RetryPromptPart))]
    return part
