"""A Google ADK agent guarded by agent_hooks, offline.

The model is a scripted ``BaseLlm`` (no network, no API key). It asks its ``shell``
tool for ``rm -rf build``, then ``pytest``, then answers. The hooks:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[google-adk]'. Run: python examples/frameworks/google_adk_agent.py
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import AsyncGenerator
from pathlib import Path

import anyio
from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types

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
from agent_hooks.google_adk import AdkHooks

GUARD = Path(__file__).resolve().parent.parent / "hooks" / "block_rm_rf.sh"
SCRIPT = ["rm -rf build", "pytest", "Done.", "3 tests passed; coverage is in htmlcov/."]


class ScriptedLlm(BaseLlm):
    """Replies from ``SCRIPT``: a command is a ``shell`` call, anything else the answer."""

    model: str = "scripted"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1].parts or []
        for part in last:
            if part.function_response is not None:
                print(f"   the model sees: {part.function_response.response}")
            elif part.text and len(llm_request.contents) > 1:
                print(f"   Stop hook -> the model is told: {part.text!r}")
        reply = SCRIPT.pop(0)
        if reply in ("rm -rf build", "pytest"):
            print(f"model: shell({reply!r})")
            call = types.FunctionCall(name="shell", args={"command": reply}, id=f"c{len(SCRIPT)}")
            answer = types.Part(function_call=call)
        else:
            print(f"model: {reply}")
            answer = types.Part(text=reply)
        usage = types.GenerateContentResponseUsageMetadata(
            prompt_token_count=0, candidates_token_count=0, total_token_count=0
        )
        yield LlmResponse(content=types.Content(role="model", parts=[answer]), usage_metadata=usage)


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

    hooks = AdkHooks(registry, cwd=str(project))
    agent = LlmAgent(
        name="dev",
        model=ScriptedLlm(),
        tools=[shell],
        before_tool_callback=hooks.before_tool_callback,
    )
    runner = InMemoryRunner(agent=agent, app_name="example")
    session = await runner.session_service.create_session(app_name="example", user_id="me")
    message = types.Content(role="user", parts=[types.Part(text="Clean the build and test.")])
    await hooks.run(runner, user_id="me", session_id=session.id, new_message=message)
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    anyio.run(main, Path(tmp))
