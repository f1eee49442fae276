"""A Semantic Kernel agent guarded by agent_hooks, offline.

The model is a scripted chat completion service (a ``ChatCompletionClientBase``; no
network, no API key). It asks its ``shell`` function for ``rm -rf build``, then
``pytest``, then answers. The hooks, set up by ``guarded_project.py`` as in every
framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` function is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[semantic-kernel]'.
Run: python examples/frameworks/semantic_kernel_agent.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import ClassVar

import anyio
from guarded_project import COMMANDS, SCRIPT, project_hooks
from semantic_kernel import Kernel
from semantic_kernel.agents import ChatCompletionAgent
from semantic_kernel.connectors.ai import FunctionChoiceBehavior, PromptExecutionSettings
from semantic_kernel.connectors.ai.chat_completion_client_base import ChatCompletionClientBase
from semantic_kernel.contents import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
)
from semantic_kernel.functions import KernelArguments, kernel_function

from agent_hooks.semantic_kernel import AgentHooksFilters


class ScriptedService(ChatCompletionClientBase):
    """Replies from ``SCRIPT``: a command is a ``shell`` call, anything else the answer."""

    SUPPORTS_FUNCTION_CALLING: ClassVar[bool] = True
    replies: list[str]

    async def _inner_get_chat_message_contents(
        self, chat_history: ChatHistory, settings: PromptExecutionSettings
    ) -> list[ChatMessageContent]:
        last = chat_history.messages[-1]
        for item in last.items:
            if isinstance(item, FunctionResultContent):
                print(f"   the model sees: {str(item.result)!r}")
        if last.role == AuthorRole.USER and len(chat_history.messages) > 1:
            print(f"   Stop hook -> the model is told: {last.content!r}")
        reply = self.replies.pop(0)
        if reply in COMMANDS:
            print(f"model: shell({reply!r})")
            call = FunctionCallContent(
                id=f"c{len(self.replies)}", name="tools-shell", arguments=json.dumps({"command": reply})
            )
            return [ChatMessageContent(role=AuthorRole.ASSISTANT, items=[call])]
        print(f"model: {reply}")
        return [ChatMessageContent(role=AuthorRole.ASSISTANT, content=reply)]


class Tools:
    def __init__(self) -> None:
        self.ran: list[str] = []

    @kernel_function(description="Run a shell command.")
    def shell(self, command: str) -> str:
        self.ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""


async def main(project: Path) -> None:
    hooks = AgentHooksFilters(project_hooks(project), cwd=str(project))
    tools = Tools()
    kernel = hooks.install(Kernel())
    kernel.add_plugin(tools, "tools")
    settings = PromptExecutionSettings(function_choice_behavior=FunctionChoiceBehavior.Auto())
    agent = ChatCompletionAgent(
        service=ScriptedService(ai_model_id="scripted", replies=list(SCRIPT)),
        name="coder",
        kernel=kernel,
        arguments=KernelArguments(settings=settings),
    )
    async with hooks.run():
        await hooks.get_response(agent, "Clean the build and test.")
    print(f"commands that actually ran: {tools.ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
