"""An offline OpenAI Agents SDK agent for tests/adapters/test_adapter_openai_agents.py: a
custom ``Model`` that calls a ``shell`` function tool with ``rm -rf``. A module of its own,
imported by the tests that use it, so that collecting the tests imports no Agents SDK."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from agents import Agent, Model, ModelResponse, RunConfig, function_tool
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

OFFLINE = RunConfig(tracing_disabled=True)


class ScriptedModel(Model):
    """First a ``shell`` call with ``rm -rf`` (unless ``call=False``), then the finals."""

    def __init__(self, *finals: str, call: bool = True) -> None:
        self.finals = list(finals)
        self.call = call
        self.requests: list[list[Any]] = []

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kw: Any
    ) -> ModelResponse:
        self.requests.append([input] if isinstance(input, str) else list(input))
        if self.call:
            self.call = False
            item: Any = ResponseFunctionToolCall(
                arguments=json.dumps({"command": "rm -rf build"}),
                call_id="call_1",
                name="shell",
                type="function_call",
                id="fc_1",
            )
        else:
            item = ResponseOutputMessage(
                id="msg_1",
                content=[
                    ResponseOutputText(text=self.finals.pop(0), type="output_text", annotations=[])
                ],
                role="assistant",
                status="completed",
                type="message",
            )
        return ModelResponse(output=[item], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kw: Any) -> AsyncIterator[Any]:
        raise NotImplementedError

    def outputs(self) -> list[str]:
        return [
            str(i.get("output"))
            for i in self.requests[-1]
            if isinstance(i, dict) and i.get("type") == "function_call_output"
        ]


def agent_for(model: ScriptedModel) -> tuple[Agent[Any], list[str]]:
    ran: list[str] = []

    @function_tool
    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    return Agent(name="dev", instructions="help", model=model, tools=[shell]), ran
