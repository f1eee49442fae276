"""An offline Microsoft Agent Framework ``Agent`` for
tests/adapters/test_adapter_agent_framework.py, with a scripted chat client that calls a
``shell`` tool with ``rm -rf``. A module of its own, imported by the tests that use it,
so that collecting the tests imports no Agent Framework."""

from __future__ import annotations

from typing import Any

from agent_framework import (
    Agent,
    BaseChatClient,
    ChatMiddlewareLayer,
    ChatResponse,
    Content,
    FunctionInvocationLayer,
    Message,
    tool,
)

from agent_hooks.agent_framework import AgentFrameworkHooks


class ScriptedClient(FunctionInvocationLayer[Any], ChatMiddlewareLayer[Any], BaseChatClient[Any]):
    """First a ``shell`` call with ``rm -rf`` (unless ``call=False``), then the finals;
    ``requests`` holds each request's messages."""

    def __init__(self, *finals: str, call: bool = True) -> None:
        super().__init__()
        self.finals = list(finals)
        self.call = call
        self.requests: list[list[Message]] = []

    async def _inner_get_response(self, *, messages: Any, stream: bool, options: Any, **kwargs: Any) -> Any:
        self.requests.append(list(messages))
        if self.call:
            self.call = False
            call = Content.from_function_call("call_1", "shell", arguments={"command": "rm -rf build"})
            return ChatResponse(messages=[Message(role="assistant", contents=[call])])
        return ChatResponse(messages=[Message(role="assistant", contents=[self.finals.pop(0)])])

    def tool_results(self) -> list[Any]:
        return [c.result for m in self.requests[-1] for c in m.contents if c.type == "function_result"]

    def texts(self, request: int) -> list[str]:
        return [m.text for m in self.requests[request] if m.role == "user"]


async def run(hooks: AgentFrameworkHooks, client: ScriptedClient, prompt: str = "clean up") -> Any:
    ran: list[str] = []

    @tool(approval_mode="never_require")
    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    agent = Agent(client=client, tools=[shell], middleware=hooks.middleware)
    async with hooks.run():
        response = await agent.run(prompt)
    return response, ran
