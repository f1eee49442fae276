"""A LangChain ``create_agent`` agent guarded by agent_hooks, offline.

The model is scripted (no network, no API key). It asks its ``shell`` tool for
``rm -rf build``, then ``pytest``, then answers. The hooks, set up by
``guarded_project.py`` as in every framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[langchain]'. Run: python examples/frameworks/langchain_agent.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import anyio
from guarded_project import COMMANDS, SCRIPT, project_hooks
from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool

from agent_hooks.langchain import AgentHooksMiddleware


class ScriptedModel(BaseChatModel):
    """Replies from a script, one per model request."""

    replies: list[AIMessage]

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedModel:  # type: ignore[override,unused-ignore]
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kw: Any) -> ChatResult:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            print(f"   the model sees: {last.content!r}")
        elif isinstance(last, HumanMessage) and len(messages) > 1:
            print(f"   Stop hook -> the model is told: {last.content!r}")
        reply = self.replies.pop(0)
        for call in reply.tool_calls:
            print(f"model: shell({call['args']['command']!r})")
        if reply.content:
            print(f"model: {reply.content}")
        return ChatResult(generations=[ChatGeneration(message=reply)])


def call(command: str, n: int) -> AIMessage:
    return AIMessage(
        content="", tool_calls=[{"name": "shell", "args": {"command": command}, "id": f"c{n}"}]
    )


async def main(project: Path) -> None:
    registry = project_hooks(project)
    ran: list[str] = []

    @tool
    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""

    model = ScriptedModel(
        replies=[
            call(reply, n) if reply in COMMANDS else AIMessage(content=reply)
            for n, reply in enumerate(SCRIPT, 1)
        ]
    )
    hooks = AgentHooksMiddleware(registry, cwd=str(project))
    agent = create_agent(model, tools=[shell], middleware=[hooks])
    async with hooks.run():
        await agent.ainvoke({"messages": [HumanMessage(content="Clean the build and test.")]})
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
