"""A Microsoft Agent Framework agent guarded by agent_hooks, offline.

The model is a scripted chat client (the framework's ``BaseChatClient`` with its
function-invocation layer; no network, no API key). It asks its ``shell`` tool for
``rm -rf build``, then ``pytest``, then answers. The hooks, set up by
``guarded_project.py`` as in every framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[agent-framework]'.
Run: python examples/frameworks/agent_framework_agent.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import anyio
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
from guarded_project import COMMANDS, SCRIPT, project_hooks

from agent_hooks.agent_framework import AgentFrameworkHooks


class ScriptedClient(FunctionInvocationLayer[Any], ChatMiddlewareLayer[Any], BaseChatClient[Any]):
    """Replies from ``SCRIPT``: a command is a ``shell`` call, anything else the answer."""

    def __init__(self) -> None:
        super().__init__()
        self.replies = list(SCRIPT)

    async def _inner_get_response(self, *, messages: Any, stream: bool, options: Any, **kwargs: Any) -> Any:
        last = messages[-1]
        for content in last.contents:
            if content.type == "function_result":
                print(f"   the model sees: {content.result!r}")
        if last.role == "user" and len(messages) > 1:
            print(f"   Stop hook -> the model is told: {last.text!r}")
        reply = self.replies.pop(0)
        if reply in COMMANDS:
            print(f"model: shell({reply!r})")
            call = Content.from_function_call(f"c{len(self.replies)}", "shell", arguments={"command": reply})
            return ChatResponse(messages=[Message(role="assistant", contents=[call])])
        print(f"model: {reply}")
        return ChatResponse(messages=[Message(role="assistant", contents=[reply])])


async def main(project: Path) -> None:
    hooks = AgentFrameworkHooks(project_hooks(project), cwd=str(project))
    ran: list[str] = []

    @tool(approval_mode="never_require")
    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""

    agent = Agent(client=ScriptedClient(), tools=[shell], middleware=hooks.middleware)
    async with hooks.run():
        await agent.run("Clean the build and test.")
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
