"""The Google ADK adapter: a real ``LlmAgent`` run by an ``InMemoryRunner``, offline,
with a scripted ``BaseLlm`` that calls a ``shell`` tool with ``rm -rf``."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types
from pydantic import Field

from agent_hooks.google_adk import AdkHooks, AgentStopped
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


class ScriptedLlm(BaseLlm):
    """First a ``shell`` call with ``rm -rf`` (unless ``call=False``), then the finals."""

    model: str = "scripted"
    finals: list[str] = Field(default_factory=list)
    call: bool = True
    requests: list[list[types.Content]] = Field(default_factory=list)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.requests.append(list(llm_request.contents))
        if self.call:
            self.call = False
            part = types.Part(
                function_call=types.FunctionCall(
                    name="shell", args={"command": "rm -rf build"}, id="call_1"
                )
            )
        else:
            part = types.Part(text=self.finals.pop(0))
        usage = types.GenerateContentResponseUsageMetadata(
            prompt_token_count=0, candidates_token_count=0, total_token_count=0
        )
        yield LlmResponse(content=types.Content(role="model", parts=[part]), usage_metadata=usage)

    def responses(self) -> list[dict[str, Any]]:
        return [
            dict(p.function_response.response or {})
            for c in self.requests[-1]
            for p in c.parts or []
            if p.function_response is not None
        ]

    def texts(self, request: int) -> list[str]:
        return [p.text for c in self.requests[request] for p in c.parts or [] if p.text]


async def run(hooks: AdkHooks, llm: ScriptedLlm, prompt: str = "clean up") -> tuple[Any, list[str]]:
    ran: list[str] = []

    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return f"ran {command}"

    agent = LlmAgent(
        name="dev", model=llm, tools=[shell], before_tool_callback=hooks.before_tool_callback
    )
    runner = InMemoryRunner(agent=agent, app_name="test")
    session = await runner.session_service.create_session(app_name="test", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text=prompt)])
    events = await hooks.run(runner, user_id="u", session_id=session.id, new_message=message)
    return events, ran


@pytest.mark.parametrize("guard", ["claude_file", "python_callback"])
async def test_a_guard_stops_rm_rf(tmp_path: Path, guard: str) -> None:
    reg = claude_project(tmp_path) if guard == "claude_file" else registry("PreToolUse", no_rm_rf)
    llm = ScriptedLlm(finals=["ok, I will not"])
    _, ran = await run(AdkHooks(reg, cwd=str(tmp_path)), llm)
    assert ran == []  # the tool function never ran
    expected = "Blocked by block_rm_rf.sh" if guard == "claude_file" else "no rm -rf (python guard)"
    (response,) = llm.responses()
    assert expected in response["error"]


async def test_a_failing_guard_under_fail_closed_stops_the_tool() -> None:
    _, ran = await run(
        AdkHooks(registry("PreToolUse", broken, fail_closed=True)), ScriptedLlm(finals=["done"])
    )
    assert ran == []


async def test_a_rewrite_changes_the_call() -> None:
    llm = ScriptedLlm(finals=["done"])
    _, ran = await run(AdkHooks(registry("PreToolUse", make_safe)), llm)
    assert ran == ["ls build"]
    assert llm.responses() == [{"result": "ran ls build"}]


async def test_post_tool_use_context_reaches_the_next_model_request() -> None:
    llm = ScriptedLlm(finals=["done"])
    _, ran = await run(AdkHooks(registry("PostToolUse", formatter_ran)), llm)
    assert ran == ["rm -rf build"]
    assert llm.responses() == [
        {"result": "ran rm -rf build", "additional_context": "FORMATTER: 2 files reformatted"}
    ]


async def test_a_stop_block_makes_the_agent_continue_once() -> None:
    llm = ScriptedLlm(finals=["all done", "tests pass"], call=False)
    events, _ = await run(AdkHooks(registry("Stop", demand_tests, matcher=None)), llm)
    assert len(llm.requests) == 2
    assert llm.texts(1)[-1] == "TESTS NOT RUN: run the tests first"
    finals = [
        e for e in events if e.is_final_response() and e.content and e.content.role == "model"
    ]
    assert [e.content.parts[0].text for e in finals] == ["all done", "tests pass"]


async def test_session_start_and_prompt_context_reach_the_first_request() -> None:
    seen: list[str] = []
    reg = session_hooks(seen)
    llm = ScriptedLlm(finals=["hi"], call=False)
    await run(AdkHooks(reg), llm, prompt="hello")
    assert seen == ["start", "end"]
    assert llm.texts(0) == ["hello", "BRANCH: main"]


async def test_continue_false_ends_the_run() -> None:
    with pytest.raises(AgentStopped, match="maintenance window"):
        await run(AdkHooks(registry("PreToolUse", halt)), ScriptedLlm(finals=["done"]))


def test_the_example_runs_offline(tmp_path: Path) -> None:
    check_example("google_adk_agent.py", tmp_path)
