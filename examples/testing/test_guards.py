"""Testing hooks with agent_hooks.testing, the way a hook author would.

Run with: python -m pytest examples/testing

* ``payload(...)`` builds the JSON a harness sends (realistic defaults, override any
  field; on tool events ``command=...``/``file_path=...`` set keys of ``tool_input``);
* ``run_hook(hook, payload)`` runs a shell script, a command, a Python callback or a
  whole hook file against it and returns the typed decision and each handler's result;
* the pytest plugin installed with agent_hooks provides both as fixtures
  (``hook_payload``, ``run_hook``) without an import.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import PreToolUseInput, PreToolUseOutput
from agent_hooks.testing import arun_hook, payload, run_hook

GUARD = Path(__file__).resolve().parent.parent / "hooks" / "block_rm_rf.sh"
"""A plain sh hook script: exit 2 with a reason on stderr blocks the call."""


@pytest.mark.parametrize("command", ["rm -rf /", "rm -r -f build", "cd / && rm -fR home"])
def test_the_shell_guard_blocks_recursive_deletes(command: str) -> None:
    run = run_hook(GUARD, payload("PreToolUse", tool_name="Bash", command=command))
    assert run.blocked
    assert run.reason is not None and "rm -rf" in run.reason
    (result,) = run.results
    assert result.outcome.value == "blocked" and result.exit_code == 2


def test_the_shell_guard_lets_other_commands_through(
    run_hook: Any,
    hook_payload: Any,  # the plugin's fixtures
) -> None:
    run = run_hook(GUARD, hook_payload("PreToolUse", command="rm notes.txt"))
    assert not run.blocked
    assert run.answer == {}  # no opinion: what `agent-hooks run` would print


def test_the_same_script_in_docker_agent_s_dialect() -> None:
    run = run_hook(GUARD, payload("PreToolUse", command="rm -rf /", dialect="docker"))
    assert run.blocked
    # the answer is in the payload's wire format: snake_case for Docker Agent
    assert run.answer["hook_specific_output"]["permission_decision"] == "deny"


async def protect_env(input: PreToolUseInput) -> PreToolUseOutput | None:
    """A typed Python callback: no edits of .env files."""
    if str(input.tool_input.get("file_path", "")).endswith(".env"):
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="secrets")
    return None


def test_a_python_callback() -> None:
    run = run_hook(protect_env, payload("PreToolUse", tool_name="Edit", file_path=".env"))
    assert run.blocked and run.reason == "secrets"
    assert run.verdicts == ("deny",)  # what each handler decided, in order
    assert not run_hook(protect_env, payload("PreToolUse", tool_name="Edit")).blocked


@pytest.mark.anyio
async def test_in_an_async_test(anyio_backend: str) -> None:
    run = await arun_hook(protect_env, payload("PreToolUse", tool_name="Write", file_path="a.env"))
    assert run.blocked


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_a_whole_hook_file(tmp_path: Path) -> None:
    config = tmp_path / "agent-hooks.json"
    config.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": str(GUARD)}]}
                    ]
                }
            }
        )
    )
    assert run_hook(config, payload("PreToolUse", command="rm -rf /")).blocked
    # the matcher applies: an Edit is not the guard's business
    assert not run_hook(config, payload("PreToolUse", tool_name="Edit")).blocked
