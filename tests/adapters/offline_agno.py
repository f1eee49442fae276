"""An offline Agno ``Agent`` for tests/adapters/test_adapter_agno.py, with a scripted
``Model`` that calls a ``shell`` tool with ``rm -rf``. A module of its own, imported by
the tests that use it, so that collecting the tests imports no Agno."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agno.agent import Agent
from agno.models.base import Model
from agno.models.message import Message
from agno.models.response import ModelResponse

from agent_hooks.agno import AgnoHooks


@dataclass
class ScriptedModel(Model):
    """First a ``shell`` call with ``rm -rf`` (unless ``call=False``), then the finals;
    ``requests`` holds each request's messages as ``(role, content)``."""

    id: str = "scripted"
    name: str = "Scripted"
    provider: str = "scripted"
    finals: list[str] = field(default_factory=list)
    call: bool = True
    requests: list[list[tuple[str, Any]]] = field(default_factory=list)

    def invoke(self, *args: Any, **kwargs: Any) -> ModelResponse:
        raise NotImplementedError

    def invoke_stream(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def ainvoke_stream(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def _parse_provider_response(self, response: Any, **kwargs: Any) -> ModelResponse:
        return response  # type: ignore[no-any-return]

    def _parse_provider_response_delta(self, response: Any) -> ModelResponse:
        return response  # type: ignore[no-any-return]

    async def ainvoke(  # type: ignore[override]
        self, messages: list[Message], assistant_message: Message, **kwargs: Any
    ) -> ModelResponse:
        self.requests.append([(m.role, m.content) for m in messages])
        if self.call:
            self.call = False
            arguments = json.dumps({"command": "rm -rf build"})
            call = {"id": "call_1", "type": "function", "function": {"name": "shell", "arguments": arguments}}
            return ModelResponse(role="assistant", tool_calls=[call])
        return ModelResponse(role="assistant", content=self.finals.pop(0))

    def tool_results(self) -> list[Any]:
        return [content for role, content in self.requests[-1] if role == "tool"]

    def texts(self, request: int) -> list[Any]:
        return [content for role, content in self.requests[request] if role == "user"]


async def run(hooks: AgnoHooks, model: ScriptedModel, prompt: str = "clean up") -> Any:
    ran: list[str] = []

    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    agent = hooks.install(Agent(model=model, tools=[shell]))
    async with hooks.run():
        output = await hooks.arun(agent, prompt)
    return output, ran
