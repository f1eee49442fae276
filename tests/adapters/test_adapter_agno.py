"""The Agno adapter: a real ``Agent``, offline, with a scripted ``Model`` that calls a
``shell`` tool with ``rm -rf``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agno")

from agno.agent import Agent
from agno.models.base import Model
from agno.models.message import Message
from agno.models.response import ModelResponse

from agent_hooks import UserPromptSubmitInput, UserPromptSubmitOutput
from agent_hooks.agno import AgentStopped, AgnoHooks, PromptBlocked
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


@dataclass
class ScriptedModel(Model):
    """First a ``shell`` call with ``rm -rf`` (unless ``call=False``), then the finals;
    ``requests`` holds each request's messages as ``(role, content)``."""

    id: str = "scripted"
    name: str = "Scripted"
    provider: str = "scripted"
    finals: list[str] = field(default_factory=list)
    call: bool = True
    requests: list[list[tuple[str, Any]]] = field(default_factory=list)

    def invoke(self, *args: Any, **kwargs: Any) -> ModelResponse:
        raise NotImplementedError

    def invoke_stream(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def ainvoke_stream(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def _parse_provider_response(self, response: Any, **kwargs: Any) -> ModelResponse:
        return response  # type: ignore[no-any-return]

    def _parse_provider_response_delta(self, response: Any) -> ModelResponse:
        return response  # type: ignore[no-any-return]

    async def ainvoke(  # type: ignore[override]
        self, messages: list[Message], assistant_message: Message, **kwargs: Any
    ) -> ModelResponse:
        self.requests.append([(m.role, m.content) for m in messages])
        if self.call:
            self.call = False
            arguments = json.dumps({"command": "rm -rf build"})
            call = {"id": "call_1", "type": "function", "function": {"name": "shell", "arguments": arguments}}
            return ModelResponse(role="assistant", tool_calls=[call])
        return ModelResponse(role="assistant", content=self.finals.pop(0))

    def tool_results(self) -> list[Any]:
        return [content for role, content in self.requests[-1] if role == "tool"]

    def texts(self, request: int) -> list[Any]:
        return [content for role, content in self.requests[request] if role == "user"]


async def run(hooks: AgnoHooks, model: ScriptedModel, prompt: str = "clean up") -> Any:
    ran: list[str] = []

    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    agent = hooks.install(Agent(model=model, tools=[shell]))
    async with hooks.run():
        output = await hooks.arun(agent, prompt)
    return output, ran


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    model = ScriptedModel(finals=["ok, I will not"])
    _, ran = await run(AgnoHooks(reg, cwd=str(tmp_path)), model)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (result,) = model.tool_results()
    assert expected in str(result)


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    _, ran = await run(AgnoHooks(registry("PreToolUse", broken, fail_closed=True)), ScriptedModel(finals=["done"]))
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    model = ScriptedModel(finals=["done"])
    _, ran = await run(AgnoHooks(registry("PreToolUse", make_safe)), model)
    assert ran == ["ls build"]
    assert model.tool_results() == ["ran ls build"]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    model = ScriptedModel(finals=["done"])
    _, ran = await run(AgnoHooks(registry("PostToolUse", formatter_ran)), model)
    assert ran == ["rm -rf build"]
    assert model.tool_results() == ["ran rm -rf build\nFORMATTER: 2 files reformatted"]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    model = ScriptedModel(finals=["all done", "tests pass"], call=False)
    output, _ = await run(AgnoHooks(registry("Stop", demand_tests, matcher=None)), model)
    assert len(model.requests) == 2
    assert model.texts(1) == ["clean up", "TESTS NOT RUN: run the tests first"]
    assert ("assistant", "all done") in model.requests[1]
    assert output.content == "tests pass"


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    seen: list[str] = []
    model = ScriptedModel(finals=["hi"], call=False)
    await run(AgnoHooks(session_hooks(seen)), model, prompt="hello")
    assert seen == ["start", "end"]
    assert model.texts(0) == ["hello\n\nBRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    model = ScriptedModel(finals=["done"])
    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AgnoHooks(registry("PreToolUse", halt)), model)
    assert len(model.requests) == 1  # the model was not asked again


async def test_a_blocked_prompt_never_reaches_the_model() -> None:
    async def no_secrets(input: UserPromptSubmitInput) -> UserPromptSubmitOutput | None:
        return UserPromptSubmitOutput(decision="block", reason="no secrets in prompts")

    model = ScriptedModel(finals=["done"])
    with pytest.raises(PromptBlocked, match="no secrets in prompts"):
        await run(AgnoHooks(registry("UserPromptSubmit", no_secrets, matcher=None)), model)
    assert model.requests == []


async def test_outside_run_nothing_runs() -> None:
    model = ScriptedModel(finals=["done"])
    agent = AgnoHooks(registry("PreToolUse", no_rm_rf)).install(Agent(model=model))
    output = await agent.arun("clean up")  # the pre-hook fails closed: Agno's input check
    assert "hooks.run()" in str(output.content)
    assert model.requests == []


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("agno_agent.py", tmp_path)
