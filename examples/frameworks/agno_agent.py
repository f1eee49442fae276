"""An Agno agent guarded by agent_hooks, offline.

The model is a scripted ``agno.models.base.Model`` (no network, no API key). It asks
its ``shell`` tool for ``rm -rf build``, then ``pytest``, then answers. The hooks, set
up by ``guarded_project.py`` as in every framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[agno]'. Run: python examples/frameworks/agno_agent.py
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from agno.agent import Agent
from agno.models.base import Model
from agno.models.message import Message
from agno.models.response import ModelResponse
from guarded_project import COMMANDS, SCRIPT, project_hooks

from agent_hooks.agno import AgnoHooks


@dataclass
class ScriptedModel(Model):
    """Replies from ``SCRIPT``: a command is a ``shell`` call, anything else the answer."""

    id: str = "scripted"
    name: str = "Scripted"
    provider: str = "scripted"
    replies: list[str] = field(default_factory=lambda: list(SCRIPT))

    def invoke(self, *args: Any, **kwargs: Any) -> ModelResponse:
        raise NotImplementedError  # the example runs async only

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
        last = messages[-1]
        if last.role == "tool":
            print(f"   the model sees: {last.content!r}")
        elif last.role == "user" and any(m.role == "assistant" for m in messages):
            print(f"   Stop hook -> the model is told: {last.content!r}")
        reply = self.replies.pop(0)
        if reply in COMMANDS:
            print(f"model: shell({reply!r})")
            function = {"name": "shell", "arguments": json.dumps({"command": reply})}
            call = {"id": f"c{len(self.replies)}", "type": "function", "function": function}
            return ModelResponse(role="assistant", tool_calls=[call])
        print(f"model: {reply}")
        return ModelResponse(role="assistant", content=reply)


async def main(project: Path) -> None:
    hooks = AgnoHooks(project_hooks(project), cwd=str(project))
    ran: list[str] = []

    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""

    agent = hooks.install(Agent(model=ScriptedModel(), tools=[shell]))
    async with hooks.run():
        await hooks.arun(agent, "Clean the build and test.")
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
