"""A Google ADK agent guarded by agent_hooks, offline.

The model is a scripted ``BaseLlm`` (no network, no API key). It asks its ``shell``
tool for ``rm -rf build``, then ``pytest``, then answers. The hooks, set up by
``guarded_project.py`` as in every framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook sends the agent back once: "summarise the test results".

Needs: pip install 'py-agent-hooks[google-adk]'. Run: python examples/frameworks/google_adk_agent.py
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncGenerator
from pathlib import Path

import anyio
from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types
from guarded_project import COMMANDS, SCRIPT, project_hooks

from agent_hooks.google_adk import AdkHooks

REPLIES = list(SCRIPT)


class ScriptedLlm(BaseLlm):
    """Replies from ``REPLIES``: a command is a ``shell`` call, anything else the answer."""

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
        reply = REPLIES.pop(0)
        if reply in COMMANDS:
            print(f"model: shell({reply!r})")
            call = types.FunctionCall(name="shell", args={"command": reply}, id=f"c{len(REPLIES)}")
            answer = types.Part(function_call=call)
        else:
            print(f"model: {reply}")
            answer = types.Part(text=reply)
        usage = types.GenerateContentResponseUsageMetadata(
            prompt_token_count=0, candidates_token_count=0, total_token_count=0
        )
        yield LlmResponse(content=types.Content(role="model", parts=[answer]), usage_metadata=usage)


async def main(project: Path) -> None:
    registry = project_hooks(project)
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
