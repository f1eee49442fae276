"""Dispatch is typed: mypy --strict accepts tests/typing_dispatch.py and rejects a
decision used as the wrong event's."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import typing_dispatch

ROOT = Path(__file__).resolve().parents[2]
TESTS = Path(__file__).resolve().parents[1]


def mypy(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", *map(str, files)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_mypy_strict_accepts_the_typed_dispatch_module() -> None:
    done = mypy(TESTS / "typing_dispatch.py")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_rejects_a_decision_of_the_wrong_event(tmp_path: Path) -> None:
    bad = tmp_path / "typing_wrong.py"
    bad.write_text(
        textwrap.dedent(
            """
            from agent_hooks import Decision, PreToolUseInput, Session, StopOutput

            async def wrong(session: Session) -> None:
                d: Decision[StopOutput] = await session.dispatch(PreToolUseInput(tool_name="Bash"))
                session.dispatch(PreToolUseInput(tool_name="Bash")).output
            """
        )
    )
    done = mypy(bad)
    assert done.returncode == 1
    # a PreToolUse decision is not a Stop decision ...
    assert 'typing_wrong.py:5: error: Argument 1 to "dispatch" of "Session"' in done.stdout
    assert "PreToolUseInput" in done.stdout
    # ... and a dispatch must be awaited
    assert "typing_wrong.py:6: error:" in done.stdout


@pytest.mark.anyio
async def test_the_typed_module_runs() -> None:
    decision = await typing_dispatch.check()
    assert decision.blocked
    assert decision.reason == "no .env"


def test_mypy_strict_accepts_the_claude_agent_sdks_hook_matcher(tmp_path: Path) -> None:
    pytest.importorskip("claude_agent_sdk")
    ported = tmp_path / "typing_ported.py"
    ported.write_text(
        textwrap.dedent(
            """
            from typing import Any

            from claude_agent_sdk import HookMatcher as SdkHookMatcher

            from agent_hooks import HookMatcher, HookRegistry, PreToolUseInput


            async def typed(input: PreToolUseInput) -> None:
                return None


            async def sdk_hook(input_data: Any, tool_use_id: str | None, context: Any) -> Any:
                return {}


            registry = HookRegistry(
                {
                    "PreToolUse": [
                        SdkHookMatcher(matcher="Bash", hooks=[sdk_hook], timeout=5),
                        HookMatcher(hooks=[typed]),
                    ]
                }
            )
            more = registry.add({"Stop": [SdkHookMatcher(hooks=[sdk_hook])]})
            """
        )
    )
    done = mypy(ported)
    assert done.returncode == 0, done.stdout + done.stderr
