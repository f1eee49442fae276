"""The Claude Agent SDK adapter with the real ``claude_agent_sdk`` installed: its
``HookMatcher`` type, ``ClaudeAgentOptions(hooks=...)``, and its callback calling
convention ``(input_data, tool_use_id, context) -> dict`` with ``continue_``. The SDK's
CLI is not needed: one test drives the SDK's own control protocol through a fake
transport (tests/adapters/offline_claude_agent_sdk.py). Every pytest-xdist worker
collects this module, so the SDK is imported by the tests that run, not at collection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from agent_hooks import (
    CommandHook,
    HookEvent,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
    RegistrationError,
    StopOutput,
)
from agent_hooks._config._load import load
from agent_hooks.claude_agent_sdk import (
    SDK_EVENTS,
    claude_agent_sdk_hooks,
    sdk_callback,
)
from tests.framework_helpers import skip_unless_installed

skip_unless_installed("claude_agent_sdk")

pytestmark = pytest.mark.anyio


def sdk_pre_tool_use(command: str = "ls") -> dict[str, Any]:
    """A PreToolUse input as the SDK hands it to a callback (``PreToolUseHookInput``)."""
    return {
        "session_id": "sdk-session",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1",
    }


def context_hook(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(additional_context="python saw " + input.tool_input["command"])


def stop_hook(input: Any) -> StopOutput:
    return StopOutput(continue_=False, stop_reason="done for today", system_message="bye")


def mixed_registry() -> HookRegistry:
    return HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    matcher="Bash",
                    hooks=[
                        context_hook,
                        CommandHook(
                            command="""case "$(cat)" in *'rm -rf'*) echo 'no rm -rf' >&2; exit 2;; esac""",
                            timeout=7,
                        ),
                    ],
                )
            ],
            "Stop": [HookMatcher(hooks=[stop_hook])],
            "SessionStart": [HookMatcher(hooks=[lambda input: None])],  # not an SDK event
        }
    )


# ------------------------------------------------------------------- shape


def test_hooks_dict_uses_the_sdks_types() -> None:
    import claude_agent_sdk as sdk

    hooks = claude_agent_sdk_hooks(mixed_registry())
    assert set(hooks) == {"PreToolUse", "Stop"}  # SDK events with handlers only
    for matchers in hooks.values():
        (matcher,) = matchers
        assert isinstance(matcher, sdk.HookMatcher)
        assert matcher.matcher is None  # agent_hooks matches by itself
        (callback,) = matcher.hooks
        assert callable(callback)
    # the SDK's timeout covers the slowest handler of the event
    assert hooks["PreToolUse"][0].timeout is not None
    assert hooks["PreToolUse"][0].timeout >= 7
    options = sdk.ClaudeAgentOptions(hooks=hooks)  # type: ignore[arg-type,unused-ignore]
    assert options.hooks is hooks


def test_events_and_timeout_can_be_chosen() -> None:
    hooks = claude_agent_sdk_hooks(
        mixed_registry(), events=["PreToolUse", HookEvent.POST_TOOL_USE], timeout=3
    )
    assert set(hooks) == {"PreToolUse", "PostToolUse"}
    assert {m[0].timeout for m in hooks.values()} == {3}


def test_events_the_sdk_does_not_call_are_refused() -> None:
    with pytest.raises(RegistrationError, match="SessionStart"):
        claude_agent_sdk_hooks(mixed_registry(), events=["SessionStart"])


def test_sdk_events_are_events_the_sdk_knows() -> None:
    import typing

    import claude_agent_sdk as sdk

    known: set[Any] = set()
    for arg in typing.get_args(sdk.types.HookEvent):
        known.update(typing.get_args(arg) or (arg,))
    assert {e.value for e in SDK_EVENTS} <= known


# ------------------------------------------------------------ calling it


async def test_callback_returns_the_reduced_decision() -> None:
    hooks = claude_agent_sdk_hooks(mixed_registry())
    callback = hooks["PreToolUse"][0].hooks[0]
    answer = await callback(sdk_pre_tool_use("rm -rf /"), "toolu_1", {"signal": None})
    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no rm -rf",
            "additionalContext": "python saw rm -rf /",
        }
    }
    answer = await callback(sdk_pre_tool_use("git status"), "toolu_2", {"signal": None})
    assert answer == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": "python saw git status",
        }
    }


async def test_continue_comes_back_as_continue_() -> None:
    hooks = claude_agent_sdk_hooks(mixed_registry())
    stop = {
        "session_id": "sdk-session",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/tmp",
        "hook_event_name": "Stop",
        "stop_hook_active": False,
    }
    answer = await hooks["Stop"][0].hooks[0](stop, None, {"signal": None})
    assert answer == {"continue_": False, "stopReason": "done for today", "systemMessage": "bye"}
    assert "continue" not in answer


async def test_no_opinion_is_an_empty_dict() -> None:
    callback = sdk_callback(HookRegistry())
    assert await callback(sdk_pre_tool_use(), "toolu_1", {"signal": None}) == {}


async def test_a_session_target_keeps_state_across_calls() -> None:
    seen: list[str | None] = []

    def remember(input: PreToolUseInput) -> None:
        seen.append(input.session_id)

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[remember])]})
    async with registry.session(session_id="mine") as session:
        hooks = claude_agent_sdk_hooks(session)
        callback = hooks["PreToolUse"][0].hooks[0]
        payload = sdk_pre_tool_use()
        del payload["session_id"]
        await callback(payload, "toolu_1", {"signal": None})
        await callback(sdk_pre_tool_use(), "toolu_2", {"signal": None})
    assert seen == ["mine", "sdk-session"]


async def test_config_file_hooks_through_the_sdk(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [
                                {"type": "command", "command": "echo 'from config' >&2; exit 2"}
                            ],
                        }
                    ]
                }
            }
        )
    )
    registry = load(path, project_dir=tmp_path / "elsewhere").registry()
    hooks = claude_agent_sdk_hooks(registry)
    answer = await hooks["PreToolUse"][0].hooks[0](sdk_pre_tool_use(), "toolu_1", {"signal": None})
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert answer["hookSpecificOutput"]["permissionDecisionReason"] == "from config"


# ------------------------------------------- through the SDK's control protocol


async def test_through_the_sdk_control_protocol() -> None:
    import claude_agent_sdk as sdk

    from tests.adapters.offline_claude_agent_sdk import FakeCLI

    cli = FakeCLI()
    options = sdk.ClaudeAgentOptions(hooks=claude_agent_sdk_hooks(mixed_registry()))  # type: ignore[arg-type,unused-ignore]
    with anyio.fail_after(30):
        async with sdk.ClaudeSDKClient(options=options, transport=cli):
            assert cli.initialize is not None
            registered = cli.initialize["hooks"]
            assert set(registered) == {"PreToolUse", "Stop"}
            pre_id = registered["PreToolUse"][0]["hookCallbackIds"][0]
            stop_id = registered["Stop"][0]["hookCallbackIds"][0]

            response = await cli.call_hook(pre_id, sdk_pre_tool_use("rm -rf /"), "toolu_9")
            assert response["subtype"] == "success"
            assert response["response"] == {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "no rm -rf",
                    "additionalContext": "python saw rm -rf /",
                }
            }
            stop = {
                "session_id": "sdk-session",
                "transcript_path": "/tmp/t.jsonl",
                "cwd": "/tmp",
                "hook_event_name": "Stop",
                "stop_hook_active": False,
            }
            response = await cli.call_hook(stop_id, stop, None)
            # the SDK turned our continue_ back into the CLI's "continue"
            assert response["response"] == {
                "continue": False,
                "stopReason": "done for today",
                "systemMessage": "bye",
            }
