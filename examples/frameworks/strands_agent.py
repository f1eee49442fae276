"""A Strands Agents agent guarded by agent_hooks, offline.

The model is a scripted ``strands.models.Model`` (no network, no API key). It asks
its ``shell`` tool for ``rm -rf build``, then ``pytest``, then answers. The hooks:

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
from strands import Agent, tool
from strands.models import Model

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
from agent_hooks.strands import AgentHooksPlugin

GUARD = Path(__file__).resolve().parent.parent / "hooks" / "block_rm_rf.sh"
SCRIPT = ["rm -rf build", "pytest", "Done.", "3 tests passed; coverage is in htmlcov/."]


class ScriptedModel(Model):
    """Replies from ``SCRIPT``: a command is a ``shell`` call, anything else the answer."""

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
        reply = SCRIPT.pop(0)
        yield {"messageStart": {"role": "assistant"}}
        if reply in ("rm -rf build", "pytest"):
            print(f"model: shell({reply!r})")
            start = {"toolUse": {"name": "shell", "toolUseId": f"c{len(SCRIPT)}"}}
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
