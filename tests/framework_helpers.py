"""Helpers shared by the framework adapter tests (tests/adapters/test_adapter_*.py): a Claude-style
project with a shell guard in ``.claude/settings.json``; typed Python hooks, among them a
guard that crashes, one that ends the run, and SessionStart and SessionEnd hooks that
record that they ran; a check of what each framework example prints; and the skip of a
test module whose framework is not installed."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import (
    HookMatcher,
    HookRegistry,
    PostToolUseInput,
    PostToolUseOutput,
    PreToolUseInput,
    PreToolUseOutput,
    SessionStartInput,
    SessionStartOutput,
    StopInput,
    StopOutput,
    TrustPolicy,
    load,
)


def skip_unless_installed(module: str) -> None:
    """Skip the calling test module, at collection, when ``module`` is not installed;
    unlike ``pytest.importorskip`` it does not import it (a dotted name imports only its
    parent packages): every pytest-xdist worker collects every module, and a framework
    costs seconds to import, so each is imported by the tests that use it."""
    try:
        found = importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # (a parent package is missing)
        found = False
    if not found:
        pytest.skip(f"could not import {module!r}: not installed", allow_module_level=True)


GUARD = """#!/bin/sh
# A Claude Code PreToolUse hook, as users have them: exit 2 blocks, stderr is the reason.
if grep -q 'rm -rf'; then echo "Blocked by block_rm_rf.sh: rm -rf is not allowed" >&2; exit 2; fi
exit 0
"""


def claude_project(root: Path) -> HookRegistry:
    """A project whose ``.claude/settings.json`` runs ``.claude/hooks/block_rm_rf.sh`` on
    every ``Bash`` call (loaded as a trusted project file)."""
    hooks = root / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    script = hooks / "block_rm_rf.sh"
    script.write_text(GUARD)
    os.chmod(script, 0o755)
    settings = root / ".claude" / "settings.json"
    command = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block_rm_rf.sh'
    settings.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
                    ]
                }
            }
        )
    )
    config = load(str(settings), trust=TrustPolicy(store=None, trust_all=True))
    assert not [d for d in config.diagnostics if d.severity.value == "error"], config.diagnostics
    return config.registry()


async def no_rm_rf(input: PreToolUseInput) -> PreToolUseOutput | None:
    """A typed Python guard."""
    if "rm -rf" in str(input.tool_input.get("command", "")):
        return PreToolUseOutput(
            permission_decision="deny", permission_decision_reason="no rm -rf (python guard)"
        )
    return None


async def make_safe(input: PreToolUseInput) -> PreToolUseOutput | None:
    """Rewrites ``rm -rf X`` into ``ls X``."""
    command = str(input.tool_input.get("command", ""))
    if command.startswith("rm -rf "):
        return PreToolUseOutput(
            updated_input={**input.tool_input, "command": "ls " + command[len("rm -rf ") :]}
        )
    return None


async def formatter_ran(input: PostToolUseInput) -> PostToolUseOutput:
    return PostToolUseOutput(additional_context="FORMATTER: 2 files reformatted")


async def demand_tests(input: StopInput) -> StopOutput | None:
    if not input.stop_hook_active:
        return StopOutput(decision="block", reason="TESTS NOT RUN: run the tests first")
    return None


def registry(event: str, hook: Any, matcher: str | None = "Bash", **options: Any) -> HookRegistry:
    return HookRegistry({event: [HookMatcher(matcher=matcher, hooks=[hook])]}, **options)


async def broken(input: PreToolUseInput) -> None:
    """A guard that crashes."""
    raise RuntimeError("guard crashed")


async def halt(input: PreToolUseInput) -> PreToolUseOutput:
    """A guard that ends the run (``continue: false``, "maintenance window")."""
    return PreToolUseOutput(continue_=False, stop_reason="maintenance window")


def session_hooks(seen: list[str], *, with_session_id: bool = False) -> HookRegistry:
    """A SessionStart hook that adds the context ``BRANCH: main`` and a SessionEnd hook;
    each appends to ``seen`` when it runs: ``"start"`` (``"start <session id>"`` with
    ``with_session_id``), then ``"end"``."""

    async def start(input: SessionStartInput) -> SessionStartOutput:
        seen.append(f"start {input.session_id}" if with_session_id else "start")
        return SessionStartOutput(additional_context="BRANCH: main")

    async def end(input: Any, tool_use_id: Any, context: Any) -> dict[str, Any]:
        seen.append("end")
        return {}

    return HookRegistry(
        {"SessionStart": [HookMatcher(hooks=[start])], "SessionEnd": [HookMatcher(hooks=[end])]}
    )


EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "frameworks"

EXAMPLE_LINES = [
    r"^model: shell\('rm -rf build'\)$",
    r"^   the model sees: .*Blocked by block_rm_rf\.sh",
    r"^model: shell\('pytest'\)$",
    r"^   the model (sees|is told): .*\(hook: coverage report written to htmlcov/\)",
    r"^model: Done\.$",
    r"Summarise the test results before stopping\.",
    r"^model: 3 tests passed; coverage is in htmlcov/\.$",
    r"^commands that actually ran: \['pytest -q'\]$",
]
"""What every framework example prints (the same script, the same hooks)."""


def check_example(name: str, cwd: Path) -> None:
    """Run ``examples/frameworks/<name>`` from ``cwd`` (offline): exit 0, the lines of
    :data:`EXAMPLE_LINES` in order, nothing on stderr, nothing left in ``cwd``."""
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.returncode == 0, f"{name} failed:\n{proc.stdout}\n{proc.stderr}"
    position = 0
    for pattern in EXAMPLE_LINES:
        found = re.compile(pattern, re.MULTILINE).search(proc.stdout, position)
        assert found, f"{name}: no line matches {pattern!r} after {position} in:\n{proc.stdout}"
        position = found.end()
    assert proc.stderr == ""
    assert list(cwd.iterdir()) == []
