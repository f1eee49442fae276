"""An OpenAI Agents SDK agent guarded by agent_hooks, offline.

The model is a scripted ``agents.Model`` (no network, no API key). It asks its
``shell`` function tool for ``rm -rf build``, then ``pytest``, then answers. The hooks,
set up by ``guarded_project.py`` as in every framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[openai-agents]'. Run: python examples/frameworks/openai_agents_run.py
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
from agents import Agent, Model, ModelResponse, RunConfig, function_tool
from agents.usage import Usage
from guarded_project import COMMANDS, SCRIPT, project_hooks
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from agent_hooks.openai_agents import AgentHooksRunner

REPLIES = list(SCRIPT)


class ScriptedModel(Model):
    """Replies from ``REPLIES``: a command is a ``shell`` call, anything else the answer."""

    async def get_response(
        self, system_instructions: Any, input: Any, *a: Any, **kw: Any
    ) -> ModelResponse:
        last = input[-1] if isinstance(input, list) else {}
        if last.get("type") == "function_call_output":
            print(f"   the model sees: {last['output']!r}")
        elif last.get("role") == "user" and len(input) > 1:
            print(f"   Stop hook -> the model is told: {last['content']!r}")
        reply = REPLIES.pop(0)
        item: Any
        if reply in COMMANDS:
            print(f"model: shell({reply!r})")
            args = json.dumps({"command": reply})
            item = ResponseFunctionToolCall(
                arguments=args, call_id=f"c{len(REPLIES)}", name="shell", type="function_call"
            )
        else:
            print(f"model: {reply}")
            text = ResponseOutputText(text=reply, type="output_text", annotations=[])
            item = ResponseOutputMessage(
                id="m", content=[text], role="assistant", status="completed", type="message"
            )
        return ModelResponse(output=[item], usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kw: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


async def main(project: Path) -> None:
    registry = project_hooks(project)
    ran: list[str] = []

    @function_tool
    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""

    agent = Agent(name="dev", instructions="Help.", model=ScriptedModel(), tools=[shell])
    runner = AgentHooksRunner(registry, cwd=str(project))
    await runner.run(
        agent, "Clean the build and test.", run_config=RunConfig(tracing_disabled=True)
    )
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
