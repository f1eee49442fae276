"""A CrewAI crew guarded by agent_hooks, offline.

The model is a scripted ``crewai.llms.base_llm.BaseLLM`` with native tool calling (no
network, no API key; CrewAI ships no fake model). It asks its ``shell`` tool for
``rm -rf build``, then ``pytest``, then answers. The hooks, set up by
``guarded_project.py`` as in every framework example here:

* the project's ``.claude/settings.json`` runs ``hooks/block_rm_rf.sh`` on ``Bash``
  (the ``shell`` tool is ``Bash`` to the hooks): the ``rm -rf`` call never runs;
* a Python callback rewrites ``pytest`` into ``pytest -q`` and adds context after it;
* a Stop hook (the task's guardrail) sends the agent back once: "summarise the test
  results".

CrewAI's hooks are synchronous: the crew runs as usual, inside ``with hooks.run():``.

Needs: pip install 'py-agent-hooks[crewai]' (in a virtualenv of its own: CrewAI cannot
be installed beside the OpenAI Agents SDK). Run: python examples/frameworks/crewai_crew.py
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

# Offline: no telemetry, no tracing prompt, no version check (CrewAI's own switches).
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")
os.environ.setdefault("CREWAI_DISABLE_VERSION_CHECK", "true")

from crewai import Agent, Crew, Task
from crewai.llms.base_llm import BaseLLM
from crewai.tools import tool
from guarded_project import COMMANDS, SCRIPT, project_hooks
from pydantic import Field

from agent_hooks.crewai import CrewAIHooks


class ScriptedLLM(BaseLLM):
    """Replies from ``SCRIPT``: a command is a ``shell`` call, anything else the answer."""

    replies: list[str] = Field(default_factory=lambda: list(SCRIPT))
    asked: int = 0

    def supports_function_calling(self) -> bool:
        return True

    def get_input_tokens_count(self, *args: Any, **kwargs: Any) -> int:
        return 1  # (no tokenizer for a scripted model)

    def call(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
        last = messages[-1]
        if last["role"] == "tool":
            print(f"   the model sees: {last['content']!r}")
        elif self.asked:  # a new task prompt after the first: the guardrail's retry
            print(f"   Stop hook -> the model is told: {last['content']!r}")
        self.asked += 1
        reply = self.replies.pop(0)
        if reply in COMMANDS:
            print(f"model: shell({reply!r})")
            arguments = json.dumps({"command": reply})
            return [
                {
                    "id": f"c{self.asked}",
                    "type": "function",
                    "function": {"name": "shell", "arguments": arguments},
                }
            ]
        print(f"model: {reply}")
        return reply


def main(project: Path) -> None:
    hooks = CrewAIHooks(project_hooks(project), cwd=str(project))
    ran: list[str] = []

    @tool("shell")
    def shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "3 passed" if command.startswith("pytest") else ""

    agent = Agent(
        role="developer",
        goal="Keep the build clean and tested.",
        backstory="A careful engineer.",
        llm=ScriptedLLM(model="scripted"),
        tools=[shell],
    )
    task = Task(
        description="Clean the build and test.",
        expected_output="A short report.",
        agent=agent,
        guardrail=hooks.guardrail,  # Stop
    )
    with hooks.run():
        Crew(agents=[agent], tasks=[task]).kickoff()
    print(f"commands that actually ran: {ran}")


with tempfile.TemporaryDirectory() as tmp:
    main(Path(tmp))
