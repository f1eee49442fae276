"""An AutoGen (autogen-core) tool agent guarded by agent_hooks, offline.

The model is a scripted ``ChatCompletionClient`` (no network, no API key). It asks the
``ToolAgent``'s ``shell`` tool for ``rm -rf build``, then ``pytest``, then answers. The
hooks, set up by ``guarded_project.py`` as in every framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[autogen]'. Run: python examples/frameworks/autogen_agent.py
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import anyio
from autogen_core import AgentId, FunctionCall, SingleThreadedAgentRuntime
from autogen_core.models import (
    ChatCompletionClient,
    CreateResult,
    FunctionExecutionResultMessage,
    LLMMessage,
    ModelInfo,
    RequestUsage,
    UserMessage,
)
from autogen_core.tool_agent import ToolAgent
from autogen_core.tools import FunctionTool
from guarded_project import COMMANDS, SCRIPT, project_hooks

from agent_hooks.autogen import AutoGenHooks

NO_USAGE = RequestUsage(prompt_tokens=0, completion_tokens=0)


class ScriptedClient(ChatCompletionClient):
    """Replies from ``SCRIPT``: a command is a ``shell`` call, anything else the answer."""

    def __init__(self) -> None:
        self.replies = list(SCRIPT)

    async def create(self, messages: Sequence[LLMMessage], **kwargs: Any) -> CreateResult:
        last = messages[-1]
        if isinstance(last, FunctionExecutionResultMessage):
            for result in last.content:
                print(f"   the model sees: {result.content!r}")
        elif isinstance(last, UserMessage) and len(messages) > 1:
            print(f"   Stop hook -> the model is told: {last.content!r}")
        reply = self.replies.pop(0)
        if reply in COMMANDS:
            print(f"model: shell({reply!r})")
            arguments = json.dumps({"command": reply})
            call = FunctionCall(id=f"c{len(self.replies)}", name="shell", arguments=arguments)
            return CreateResult(finish_reason="function_calls", content=[call], usage=NO_USAGE, cached=False)
        print(f"model: {reply}")
        return CreateResult(finish_reason="stop", content=reply, usage=NO_USAGE, cached=False)

    def create_stream(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError

    async def close(self) -> None:
        pass

    def actual_usage(self) -> RequestUsage:
        return NO_USAGE

    def total_usage(self) -> RequestUsage:
        return NO_USAGE

    def count_tokens(self, messages: Any, **kwargs: Any) -> int:
        return 0

    def remaining_tokens(self, messages: Any, **kwargs: Any) -> int:
        return 1000

    @property
    def capabilities(self) -> Any:
        return self.model_info

    @property
    def model_info(self) -> ModelInfo:
        return ModelInfo(
            vision=False, function_calling=True, json_output=False, family="unknown", structured_output=False
        )


async def main(project: Path) -> None:
    hooks = AutoGenHooks(project_hooks(project), cwd=str(project))
    ran: list[str] = []

    async def shell(command: str) -> str:
        ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""

    tool = FunctionTool(shell, description="Run a shell command.", name="shell")
    runtime = SingleThreadedAgentRuntime(intervention_handlers=[hooks])
    await ToolAgent.register(runtime, "tools", lambda: ToolAgent("runs tools", [tool]))
    runtime.start()
    try:
        async with hooks.run():
            prompt = [UserMessage(content="Clean the build and test.", source="user")]
            await hooks.caller_loop(runtime, AgentId("tools", "default"), ScriptedClient(), prompt, [tool])
    finally:
        await runtime.stop()
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
