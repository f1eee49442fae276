"""A Strands Agents agent guarded by agent_hooks, offline.

The model is a scripted ``strands.models.Model`` (no network, no API key). It asks
its ``shell`` tool for ``rm -rf build``, then ``pytest``, then answers. The hooks, set
up by ``guarded_project.py`` as in every framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[strands]'. Run: python examples/frameworks/strands_agent.py
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import AsyncGenerator, AsyncIterable
from pathlib import Path
from typing import Any

import anyio
from guarded_project import COMMANDS, SCRIPT, project_hooks
from strands import Agent, tool
from strands.models import Model

from agent_hooks.strands import AgentHooksPlugin

REPLIES = list(SCRIPT)


class ScriptedModel(Model):
    """Replies from ``REPLIES``: a command is a ``shell`` call, anything else the answer."""

    def update_config(self, **model_config: Any) -> None:
        pass

    def get_config(self) -> Any:
        return {}

    def structured_output(self, *args: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:
        raise NotImplementedError

    async def stream(self, messages: Any, *args: Any, **kwargs: Any) -> AsyncIterable[Any]:
        for block in messages[-1]["content"] if len(messages) > 1 else []:
            if "toolResult" in block:
                texts = [c["text"] for c in block["toolResult"]["content"] if "text" in c]
                print(f"   the model sees: {' | '.join(texts)!r}")
            elif "text" in block:
                print(f"   Stop hook -> the model is told: {block['text']!r}")
        reply = REPLIES.pop(0)
        yield {"messageStart": {"role": "assistant"}}
        if reply in COMMANDS:
            print(f"model: shell({reply!r})")
            start = {"toolUse": {"name": "shell", "toolUseId": f"c{len(REPLIES)}"}}
            yield {"contentBlockStart": {"start": start}}
            delta = {"toolUse": {"input": json.dumps({"command": reply})}}
            yield {"contentBlockDelta": {"delta": delta}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}
        else:
            print(f"model: {reply}")
            yield {"contentBlockDelta": {"delta": {"text": reply}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}


async def main(project: Path) -> None:
    registry = project_hooks(project)
    ran: list[str] = []

    @tool
    def shell(command: str) -> str:
        """Run a shell command.

        Args:
            command: the command line
        """
        ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""

    hooks = AgentHooksPlugin(registry, cwd=str(project))
    agent = Agent(model=ScriptedModel(), tools=[shell], plugins=[hooks], callback_handler=None)
    async with hooks.run():
        await agent.invoke_async("Clean the build and test.")
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
