"""The project and the hooks every framework example in this folder runs with.

:func:`project_hooks` writes the project's ``.claude/settings.json``, which runs
``examples/hooks/block_rm_rf.sh`` on ``Bash`` (the adapters map the ``shell`` tool to
``Bash``), loads it as a project you reviewed (trusted for this run) and adds three
Python callbacks:

* ``quiet_pytest`` (PreToolUse on ``Bash``) rewrites ``pytest`` into ``pytest -q``;
* ``after_tests`` (PostToolUse on ``Bash``) adds context after the call;
* ``summarise_first`` (Stop) sends the agent back once: "summarise the test results".

:data:`SCRIPT` is what each example's scripted model replies, one reply a request.

Not run on its own: each example imports it (run as a script, an example has this
folder on ``sys.path``).
"""

from __future__ import annotations

import json
from pathlib import Path

from agent_hooks import (
    HookMatcher,
    HookRegistry,
    PostToolUseInput,
    PostToolUseOutput,
    PreToolUseInput,
    PreToolUseOutput,
    StopInput,
    StopOutput,
    TrustPolicy,
    load,
)

GUARD = Path(__file__).resolve().parent.parent / "hooks" / "block_rm_rf.sh"
"""The shell guard of ``examples/hooks``: exit 2 (blocked) on ``rm -rf``."""

SCRIPT = ("rm -rf build", "pytest", "Done.", "3 tests passed; coverage is in htmlcov/.")
"""The scripted model's replies in order: two ``shell`` commands, an answer, and the
answer it gives after the Stop hook sent it back."""

COMMANDS = SCRIPT[:2]
"""The replies that are ``shell`` calls (the others are answers)."""


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


def project_hooks(project: Path) -> HookRegistry:
    """Write ``project/.claude/settings.json`` (:data:`GUARD` on ``Bash``), load it and
    add the Python callbacks: the registry an example's agent runs with."""
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    hook = {"type": "command", "command": str(GUARD)}
    settings.write_text(
        json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}})
    )
    # A project you reviewed: trust its hook file for this run.
    config = load(str(settings), trust=TrustPolicy(store=None, trust_all=True))
    return config.registry().add(
        {
            "PreToolUse": [HookMatcher(matcher="Bash", hooks=[quiet_pytest])],
            "PostToolUse": [HookMatcher(matcher="Bash", hooks=[after_tests])],
            "Stop": [HookMatcher(hooks=[summarise_first])],
        }
    )
