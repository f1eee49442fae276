"""An offline LangChain ``create_agent`` agent for
tests/adapters/test_adapter_langchain.py, with a scripted chat model that calls a
``shell`` tool with ``rm -rf``. A module of its own, imported by the tests that use it,
so that collecting the tests imports neither LangChain nor LangGraph."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from pydantic import Field

from agent_hooks.langchain import AgentHooksMiddleware


class ScriptedModel(BaseChatModel):
    """Answers each request with the next scripted message; records every request."""

    replies: list[AIMessage]
    requests: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedModel:  # type: ignore[override,unused-ignore]
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.requests.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=self.replies.pop(0))])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._generate(messages)


def rm_rf_then_done(*finals: str) -> ScriptedModel:
    call = {"name": "shell", "args": {"command": "rm -rf build"}, "id": "call_1"}
    return ScriptedModel(
        replies=[AIMessage(content="", tool_calls=[call]), *(AIMessage(content=f) for f in finals)],
        requests=[],
    )


def agent_for(
    model: ScriptedModel, hooks: AgentHooksMiddleware, **kw: Any
) -> tuple[Any, list[str]]:
    ran: list[str] = []

    @tool
    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    return create_agent(model, tools=[shell], middleware=[hooks], **kw), ran


def tool_messages(model: ScriptedModel) -> list[ToolMessage]:
    return [m for m in model.requests[-1] if isinstance(m, ToolMessage)]


async def invoke(agent: Any, hooks: AgentHooksMiddleware, prompt: str = "clean up") -> Any:
    async with hooks.run():
        return await agent.ainvoke({"messages": [HumanMessage(content=prompt)]})
