"""A PydanticAI agent guarded by agent_hooks, offline.

The model is a ``FunctionModel`` script (no network, no API key). It asks its
``shell`` tool for ``rm -rf build``, then ``pytest``, then answers. The hooks, set up
by ``guarded_project.py`` as in every framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[pydantic-ai]'. Run: python examples/frameworks/pydantic_ai_agent.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import anyio
from guarded_project import COMMANDS, SCRIPT, project_hooks
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agent_hooks.pydantic_ai import AgentHooksCapability

REPLIES: list[ToolCallPart | TextPart] = [
    ToolCallPart("shell", {"command": reply}, tool_call_id=f"c{n}")
    if reply in COMMANDS
    else TextPart(reply)
    for n, reply in enumerate(SCRIPT, 1)
]


def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    last = messages[-1]
    if isinstance(last, ModelRequest):
        for part in last.parts:
            if isinstance(part, ToolReturnPart):
                print(f"   the model sees: {part.model_response_str()!r}")
            elif isinstance(part, UserPromptPart) and len(messages) > 1:
                print(f"   the model is told: {part.content!r}")
    reply = REPLIES.pop(0)
    if isinstance(reply, ToolCallPart):
        print(f"model: shell({reply.args_as_dict()['command']!r})")
    else:
        print(f"model: {reply.content}")
    return ModelResponse(parts=[reply])


async def main(project: Path) -> None:
    registry = project_hooks(project)
    ran: list[str] = []

    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""

    agent = Agent(
        FunctionModel(model),
        tools=[shell],
        capabilities=[AgentHooksCapability(registry, cwd=str(project))],
    )
    await agent.run("Clean the build and test.")
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
