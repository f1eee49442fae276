"""The Strands Agents adapter: a real ``Agent``, offline, with a scripted ``Model`` that
calls a ``shell`` tool with ``rm -rf``."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("strands")

from strands import Agent, tool
from strands.models import Model
from strands.types.interrupt import InterruptResponseContent

from agent_hooks import PreToolUseInput, PreToolUseOutput
from agent_hooks.strands import AgentHooksPlugin, AgentStopped
from tests.framework_helpers import (
    broken,
    check_example,
    claude_project,
    demand_tests,
    formatter_ran,
    halt,
    make_safe,
    no_rm_rf,
    registry,
    session_hooks,
)

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class ScriptedModel(Model):
    """First a ``shell`` call with ``rm -rf`` (unless ``call=False``), then the finals."""

    def __init__(self, *finals: str, call: bool = True) -> None:
        self.finals = list(finals)
        self.call = call
        self.requests: list[list[Any]] = []

    def update_config(self, **model_config: Any) -> None:
        pass

    def get_config(self) -> Any:
        return {}

    def structured_output(self, *args: Any, **kwargs: Any) -> AsyncGenerator[Any, None]:
        raise NotImplementedError

    async def stream(self, messages: Any, *args: Any, **kwargs: Any) -> AsyncIterable[Any]:
        self.requests.append(json.loads(json.dumps(messages, default=str)))
        yield {"messageStart": {"role": "assistant"}}
        if self.call:
            self.call = False
            start = {"toolUse": {"name": "shell", "toolUseId": "call_1"}}
            yield {"contentBlockStart": {"start": start}}
            delta = {"toolUse": {"input": json.dumps({"command": "rm -rf build"})}}
            yield {"contentBlockDelta": {"delta": delta}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}
        else:
            yield {"contentBlockDelta": {"delta": {"text": self.finals.pop(0)}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}

    def tool_results(self) -> list[dict[str, Any]]:
        return [
            block["toolResult"]
            for message in self.requests[-1]
            for block in message["content"]
            if "toolResult" in block
        ]

    def texts(self, request: int) -> list[str]:
        return [b["text"] for m in self.requests[request] for b in m["content"] if "text" in b]


def agent_for(model: ScriptedModel, hooks: AgentHooksPlugin) -> tuple[Agent, list[str]]:
    ran: list[str] = []

    @tool
    def shell(command: str) -> str:
        """Run a shell command.

        Args:
            command: the command line
        """
        ran.append(command)
        return f"ran {command}"

    return Agent(model=model, tools=[shell], plugins=[hooks], callback_handler=None), ran


async def run(hooks: AgentHooksPlugin, model: ScriptedModel, prompt: str = "clean up") -> Any:
    agent, ran = agent_for(model, hooks)
    async with hooks.run():
        result = await agent.invoke_async(prompt)
    return result, ran


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    model = ScriptedModel("ok, I will not")
    _, ran = await run(AgentHooksPlugin(reg, cwd=str(tmp_path)), model)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (result,) = model.tool_results()
    assert result["status"] == "error"
    assert expected in result["content"][0]["text"]


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    hooks = AgentHooksPlugin(registry("PreToolUse", broken, fail_closed=True))
    _, ran = await run(hooks, ScriptedModel("done"))
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    model = ScriptedModel("done")
    _, ran = await run(AgentHooksPlugin(registry("PreToolUse", make_safe)), model)
    assert ran == ["ls build"]
    assert model.tool_results()[0]["content"] == [{"text": "ran ls build"}]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    model = ScriptedModel("done")
    _, ran = await run(AgentHooksPlugin(registry("PostToolUse", formatter_ran)), model)
    assert ran == ["rm -rf build"]
    assert model.tool_results()[0]["content"] == [
        {"text": "ran rm -rf build"},
        {"text": "FORMATTER: 2 files reformatted"},
    ]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    model = ScriptedModel("all done", "tests pass", call=False)
    result, _ = await run(AgentHooksPlugin(registry("Stop", demand_tests, matcher=None)), model)
    assert len(model.requests) == 2
    assert model.texts(1)[-1] == "TESTS NOT RUN: run the tests first"
    assert str(result).strip() == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    seen: list[str] = []
    reg = session_hooks(seen)
    model = ScriptedModel("hi", call=False)
    await run(AgentHooksPlugin(reg), model, prompt="hello")
    assert seen == ["start", "end"]
    assert model.texts(0) == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AgentHooksPlugin(registry("PreToolUse", halt)), ScriptedModel("done"))


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("strands_agent.py", tmp_path)


async def test_ask_interrupts_the_agent_and_the_answer_resumes_it() -> None:
    async def ask(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="ask", permission_decision_reason="sure?")

    model = ScriptedModel("done")
    hooks = AgentHooksPlugin(registry("PreToolUse", ask), interrupt_on_ask=True)
    agent, ran = agent_for(model, hooks)
    async with hooks.run():
        first = await agent.invoke_async("clean up")
        assert first.stop_reason == "interrupt"
        assert first.interrupts is not None
        (pending,) = first.interrupts
        assert pending.name == "agent_hooks.permission"
        assert pending.reason["tool_name"] == "shell"
        assert pending.reason["reason"] == "sure?"
        assert ran == []
        answer = {"allow": False, "message": "the user said no"}
        resume: list[InterruptResponseContent] = [
            {"interruptResponse": {"interruptId": pending.id, "response": answer}}
        ]
        await agent.invoke_async(resume)
    assert ran == []
    (result,) = model.tool_results()
    assert result["content"] == [{"text": "the user said no"}]
