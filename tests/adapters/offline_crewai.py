"""An offline CrewAI crew for tests/adapters/test_adapter_crewai.py, with scripted
``BaseLLM``s (native tool calling, and the text-based ReAct loop) that call a ``shell``
tool with ``rm -rf``. A module of its own, imported by the tests that use it, so that
collecting the tests imports no CrewAI."""

from __future__ import annotations

import json
from typing import Any

from crewai import Agent, Crew, Task
from crewai.llms.base_llm import BaseLLM
from crewai.tools import tool
from pydantic import Field

from agent_hooks.crewai import CrewAIHooks


class ScriptedLLM(BaseLLM):
    """Native tool calling: first each batch of ``calls`` (one request each: a string
    is a ``shell`` call with that command, a dict the ``function`` as it is), then the
    ``finals``; ``requests`` holds each request's messages."""

    calls: list[list[str | dict[str, Any]]] = Field(default_factory=lambda: [["rm -rf build"]])
    finals: list[str] = Field(default_factory=list)
    requests: list[list[dict[str, Any]]] = Field(default_factory=list)

    def supports_function_calling(self) -> bool:
        return True

    def get_input_tokens_count(self, *args: Any, **kwargs: Any) -> int:
        return 1  # (CrewAI's fallback estimate logs a warning for unknown models)

    def call(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
        self.requests.append([dict(m) for m in messages])
        if self.calls:
            batch = self.calls.pop(0)
            shell = {"name": "shell", "arguments": ""}
            return [
                {
                    "id": f"call_{len(self.requests)}_{i}",
                    "type": "function",
                    "function": (
                        {**shell, "arguments": json.dumps({"command": c})}
                        if isinstance(c, str)
                        else c
                    ),
                }
                for i, c in enumerate(batch)
            ]
        return self.finals.pop(0)

    def tool_results(self) -> list[Any]:
        return [m["content"] for m in self.requests[-1] if m["role"] == "tool"]

    def texts(self, request: int) -> list[Any]:
        return [m["content"] for m in self.requests[request] if m["role"] == "user"]


def scripted(*finals: str, calls: list[list[str | dict[str, Any]]] | None = None) -> ScriptedLLM:
    return ScriptedLLM(
        model="scripted", finals=list(finals), calls=[["rm -rf build"]] if calls is None else calls
    )


def crew(
    llm: ScriptedLLM, ran: list[str], hooks: CrewAIHooks | None, prompt: str = "clean up"
) -> Crew:
    """A crew of one agent with a ``shell`` tool that records what it ran; its task
    has the hooks' guardrail (Stop) when ``hooks`` is given."""

    @tool("shell")
    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        if command == "explode":
            raise RuntimeError("disk on fire")
        return f"ran {command}"

    agent = Agent(
        role="dev", goal="keep the build clean", backstory="careful", llm=llm, tools=[shell]
    )
    guardrail = {"guardrail": hooks.guardrail} if hooks is not None else {}
    task = Task(description=prompt, expected_output="a summary", agent=agent, **guardrail)
    return Crew(agents=[agent], tasks=[task])


def run(hooks: CrewAIHooks, llm: ScriptedLLM, prompt: str = "clean up") -> tuple[Any, list[str]]:
    ran: list[str] = []
    the_crew = crew(llm, ran, hooks, prompt)
    with hooks.run():
        output = the_crew.kickoff()
    return output, ran


class ReActLLM(BaseLLM):
    """No native tool calling: CrewAI's text-based (ReAct) loop parses the replies."""

    replies: list[str] = Field(default_factory=list)
    requests: list[list[dict[str, Any]]] = Field(default_factory=list)

    def get_input_tokens_count(self, *args: Any, **kwargs: Any) -> int:
        return 1

    def call(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
        self.requests.append([dict(m) for m in messages])
        return self.replies.pop(0)
