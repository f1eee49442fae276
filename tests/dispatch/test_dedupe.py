"""Identical command handlers from several groups run once; copies that differ in how
or when they run (an ``if`` rule, fire-and-forget, failure policy) are different handlers."""

from __future__ import annotations

import pytest

from agent_hooks import CommandHook, HookMatcher, HookRegistry, PreToolUseInput

pytestmark = pytest.mark.anyio

BLOCK = "echo blocked >&2; exit 2"


async def dispatch(registry: HookRegistry, command: str):  # type: ignore[no-untyped-def]
    async with registry.session(session_id="s") as session:
        return await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": command})
        )


async def test_identical_commands_run_once() -> None:
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Bash", hooks=[CommandHook(command=BLOCK)]),
                HookMatcher(matcher="Bash|Edit", hooks=[CommandHook(command=BLOCK)]),
            ]
        }
    )
    d = await dispatch(registry, "ls")
    assert len(d.results) == 1 and d.blocked


async def test_a_copy_with_another_if_rule_is_another_handler() -> None:
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(hooks=[CommandHook(command=BLOCK, if_rule="Bash(git *)")]),
                HookMatcher(hooks=[CommandHook(command=BLOCK, if_rule="Bash(rm *)")]),
            ]
        }
    )
    d = await dispatch(registry, "rm -rf /")
    assert d.blocked, "the rm guard must not be merged away by the git guard's copy"
    assert len(d.results) == 1


async def test_a_background_copy_does_not_replace_the_blocking_one() -> None:
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(hooks=[CommandHook(command=BLOCK, async_=True)]),
                HookMatcher(hooks=[CommandHook(command=BLOCK)]),
            ]
        }
    )
    d = await dispatch(registry, "rm -rf /")
    assert d.blocked
