"""An offline Strands Agents ``Agent`` for tests/adapters/test_adapter_strands.py, with a
scripted ``Model`` that calls a ``shell`` tool with ``rm -rf``. A module of its own,
imported by the tests that use it, so that collecting the tests imports no Strands."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterable
from typing import Any

from strands import Agent, tool
from strands.models import Model

from agent_hooks.strands import AgentHooksPlugin


class ScriptedModel(Model):
    """First a ``shell`` call with ``rm -rf`` (unless ``call=False``), then the finals."""

    def __init__(self, *finals: str, call: bool = True) -> None:
        self.finals = list(finals)
        self.call = call
        self.requests: list[list[Any]] = []

    def update_config(self, **model_config: Any) -> None:
        pass

    def get_config(self) -> Any:
        return {}

    def structured_output(self, *args: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:
        raise NotImplementedError

    async def stream(self, messages: Any, *args: Any, **kwargs: Any) -> AsyncIterable[Any]:
        self.requests.append(json.loads(json.dumps(messages, default=str)))
        yield {"messageStart": {"role": "assistant"}}
        if self.call:
            self.call = False
            start = {"toolUse": {"name": "shell", "toolUseId": "call_1"}}
            yield {"contentBlockStart": {"start": start}}
            delta = {"toolUse": {"input": json.dumps({"command": "rm -rf build"})}}
            yield {"contentBlockDelta": {"delta": delta}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}
        else:
            yield {"contentBlockDelta": {"delta": {"text": self.finals.pop(0)}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}

    def tool_results(self) -> list[dict[str, Any]]:
        return [
            block["toolResult"]
            for message in self.requests[-1]
            for block in message["content"]
            if "toolResult" in block
        ]

    def texts(self, request: int) -> list[str]:
        return [b["text"] for m in self.requests[request] for b in m["content"] if "text" in b]


def agent_for(model: ScriptedModel, hooks: AgentHooksPlugin) -> tuple[Agent, list[str]]:
    ran: list[str] = []

    @tool
    def shell(command: str) -> str:
        """Run a shell command.

        Args:
            command: the command line
        """
        ran.append(command)
        return f"ran {command}"

    return Agent(model=model, tools=[shell], plugins=[hooks], callback_handler=None), ran


async def run(hooks: AgentHooksPlugin, model: ScriptedModel, prompt: str = "clean up") -> Any:
    agent, ran = agent_for(model, hooks)
    async with hooks.run():
        result = await agent.invoke_async(prompt)
    return result, ran
