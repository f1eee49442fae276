"""A Haystack Agent (3.x) guarded by agent_hooks, offline.

The model is Haystack's ``MockChatGenerator`` with a reply function (no network, no
API key). It asks its ``shell`` tool for ``rm -rf build``, then ``pytest``, then
answers. The hooks, set up by ``guarded_project.py`` as in every framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[haystack]'. Run: python examples/frameworks/haystack_agent.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import anyio
from guarded_project import COMMANDS, SCRIPT, project_hooks
from haystack.components.agents import Agent
from haystack.components.generators.chat import MockChatGenerator
from haystack.dataclasses import ChatMessage, ChatRole, ToolCall
from haystack.tools import Tool

from agent_hooks.haystack import HaystackHooks

REPLIES = list(SCRIPT)


def reply(messages: list[ChatMessage]) -> ChatMessage | str:
    """Replies from ``REPLIES``: a command is a ``shell`` call, anything else the answer."""
    last = messages[-1]
    if last.tool_call_result is not None:
        print(f"   the model sees: {last.tool_call_result.result!r}")
    elif last.is_from(ChatRole.USER) and len(messages) > 2:
        print(f"   Stop hook -> the model is told: {last.text!r}")
    text = REPLIES.pop(0)
    if text in COMMANDS:
        print(f"model: shell({text!r})")
        call = ToolCall(tool_name="shell", arguments={"command": text}, id=f"c{len(REPLIES)}")
        return ChatMessage.from_assistant(tool_calls=[call])
    print(f"model: {text}")
    return text


async def main(project: Path) -> None:
    hooks = HaystackHooks(project_hooks(project), cwd=str(project))
    ran: list[str] = []

    def shell(command: str) -> str:
        ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""

    tool = Tool(
        name="shell",
        description="Run a shell command.",
        parameters={"type": "object", "properties": {"command": {"type": "string"}}},
        function=shell,
    )
    agent = Agent(
        chat_generator=MockChatGenerator(response_fn=reply), tools=[tool], hooks=hooks.hooks
    )
    async with hooks.run():
        await agent.run_async(messages=[ChatMessage.from_user("Clean the build and test.")])
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
