"""A PydanticAI agent guarded by agent_hooks, offline.

The model is a ``FunctionModel`` script (no network, no API key). It asks its
``shell`` tool for ``rm -rf build``, then ``pytest``, then answers. The hooks:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[pydantic-ai]'. Run: python examples/frameworks/pydantic_ai_agent.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import anyio
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
from agent_hooks.pydantic_ai import AgentHooksCapability

GUARD = Path(__file__).resolve().parent.parent / "hooks" / "block_rm_rf.sh"

SCRIPT = [
    ToolCallPart("shell", {"command": "rm -rf build"}, tool_call_id="c1"),
    ToolCallPart("shell", {"command": "pytest"}, tool_call_id="c2"),
    TextPart("Done."),
    TextPart("3 tests passed; coverage is in htmlcov/."),
]


def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    last = messages[-1]
    if isinstance(last, ModelRequest):
        for part in last.parts:
            if isinstance(part, ToolReturnPart):
                print(f"   the model sees: {part.model_response_str()!r}")
            elif isinstance(part, UserPromptPart) and len(messages) > 1:
                print(f"   the model is told: {part.content!r}")
    reply = SCRIPT.pop(0)
    if isinstance(reply, ToolCallPart):
        print(f"model: shell({reply.args_as_dict()['command']!r})")
    else:
        print(f"model: {reply.content}")
    return ModelResponse(parts=[reply])


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
