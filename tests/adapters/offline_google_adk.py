"""An offline Google ADK agent (``LlmAgent`` run by an ``InMemoryRunner``) for
tests/adapters/test_adapter_google_adk.py, with a scripted ``BaseLlm`` that calls a
``shell`` tool with ``rm -rf``. A module of its own, imported by the tests that use it,
so that collecting the tests imports no Google ADK."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types
from pydantic import Field

from agent_hooks.google_adk import AdkHooks


class ScriptedLlm(BaseLlm):
    """First a ``shell`` call with ``rm -rf`` (unless ``call=False``), then the finals."""

    model: str = "scripted"
    finals: list[str] = Field(default_factory=list)
    call: bool = True
    requests: list[list[types.Content]] = Field(default_factory=list)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.requests.append(list(llm_request.contents))
        if self.call:
            self.call = False
            part = types.Part(
                function_call=types.FunctionCall(
                    name="shell", args={"command": "rm -rf build"}, id="call_1"
                )
            )
        else:
            part = types.Part(text=self.finals.pop(0))
        usage = types.GenerateContentResponseUsageMetadata(
            prompt_token_count=0, candidates_token_count=0, total_token_count=0
        )
        yield LlmResponse(content=types.Content(role="model", parts=[part]), usage_metadata=usage)

    def responses(self) -> list[dict[str, Any]]:
        return [
            dict(p.function_response.response or {})
            for c in self.requests[-1]
            for p in c.parts or []
            if p.function_response is not None
        ]

    def texts(self, request: int) -> list[str]:
        return [p.text for c in self.requests[request] for p in c.parts or [] if p.text]


async def run(hooks: AdkHooks, llm: ScriptedLlm, prompt: str = "clean up") -> tuple[Any, list[str]]:
    ran: list[str] = []

    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    agent = LlmAgent(
        name="dev", model=llm, tools=[shell], before_tool_callback=hooks.before_tool_callback
    )
    runner = InMemoryRunner(agent=agent, app_name="test")
    session = await runner.session_service.create_session(app_name="test", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text=prompt)])
    events = await hooks.run(runner, user_id="u", session_id=session.id, new_message=message)
    return events, ran
