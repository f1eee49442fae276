"""A LangChain ``create_agent`` agent guarded by agent_hooks, offline.

The model is scripted (no network, no API key). It asks its ``shell`` tool for
``rm -rf build``, then ``pytest``, then answers. The hooks:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[langchain]'. Run: python examples/frameworks/langchain_agent.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import anyio
from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool

from agent_hooks import (
    HookMatcher,
    PostToolUseInput,
    PostToolUseOutput,
    PreToolUseInput,
    PreToolUseOutput,
    StopInput,
    StopOutput,
    TrustPolicy,
    load,
)
from agent_hooks.langchain import AgentHooksMiddleware

GUARD = Path(__file__).resolve().parent.parent / "hooks" / "block_rm_rf.sh"


class ScriptedModel(BaseChatModel):
    """Replies from a script, one per model request."""

    replies: list[AIMessage]

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedModel:  # type: ignore[override]
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


async def quiet_pytest(input: PreToolUseInput) -> PreToolUseOutput | None:
    if input.tool_input.get("command") == "pytest":
        return PreToolUseOutput(updated_input={"command": "pytest -q"})
    return None


async def after_tests(input: PostToolUseInput) -> PostToolUseOutput:
    return PostToolUseOutput(additional_context="(hook: coverage report written to htmlcov/)")


async def summarise_first(input: StopInput) -> StopOutput | None:
    if not input.stop_hook_active:
        return StopOutput(decision="block", reason="Summarise the test results before stopping.")
    return None


async def main(project: Path) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    hook = {"type": "command", "command": str(GUARD)}
    settings.write_text(
        json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}})
    )
    # A project you reviewed: trust its hook file for this run.
    config = load(str(settings), trust=TrustPolicy(store=None, trust_all=True))
    registry = config.registry().add(
        {
            "PreToolUse": [HookMatcher(matcher="Bash", hooks=[quiet_pytest])],
            "PostToolUse": [HookMatcher(matcher="Bash", hooks=[after_tests])],
            "Stop": [HookMatcher(hooks=[summarise_first])],
        }
    )

    ran: list[str] = []

    @tool
    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""

    model = ScriptedModel(
        replies=[
            call("rm -rf build", 1),
            call("pytest", 2),
            AIMessage(content="Done."),
            AIMessage(content="3 tests passed; coverage is in htmlcov/."),
        ]
    )
    hooks = AgentHooksMiddleware(registry, cwd=str(project))
    agent = create_agent(model, tools=[shell], middleware=[hooks])
    async with hooks.run():
        await agent.ainvoke({"messages": [HumanMessage(content="Clean the build and test.")]})
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
