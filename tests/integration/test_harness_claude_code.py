"""Claude Code 2.1.332 (the native binary from npm) with agent-hooks as its hook command."""

from __future__ import annotations

import secrets

import pytest
import scenarios
from drivers import ClaudeCodeDriver, Driver, command_hook
from harnesses import GUARD_SH_REASON, PROMPT_BLOCK_REASON, World, agent_hooks_server

pytestmark = pytest.mark.integration


def test_runs_against_the_mock(claude_code: Driver, world: World) -> None:
    scenarios.harness_runs_against_the_mock(claude_code, world)


def test_shell_guard_exit_2_blocks_the_shell_tool(claude_code: Driver, world: World) -> None:
    scenarios.shell_guard_blocks(claude_code, world)


def test_in_process_run_blocks_the_shell_tool(claude_code: Driver, world: World) -> None:
    scenarios.shell_guard_blocks_in_process(claude_code, world)


def test_relative_config_path_guard_blocks(claude_code: Driver, world: World) -> None:
    scenarios.guard_with_relative_config_blocks(claude_code, world)


def test_python_callback_deny_blocks_the_shell_tool(claude_code: Driver, world: World) -> None:
    scenarios.python_deny_blocks(claude_code, world)


def test_fail_closed_blocks_when_the_hook_file_is_broken(claude_code: Driver, world: World) -> None:
    told = scenarios.fail_closed_blocks_when_hooks_cannot_load(claude_code, world)
    assert ".agent-hooks/" in told  # the reason names the file that did not load


def test_updated_input_runs_the_rewritten_command(claude_code: Driver, world: World) -> None:
    scenarios.rewrite_runs_rewritten_command(claude_code, world)


def test_session_start_context_reaches_the_model(claude_code: Driver, world: World) -> None:
    scenarios.session_context_reaches_model(claude_code, world)


def test_prompt_block_stops_before_any_model_request(claude_code: Driver, world: World) -> None:
    shown = scenarios.prompt_block_stops_before_model(claude_code, world)
    assert PROMPT_BLOCK_REASON in shown


def test_stop_block_continues_once_with_the_reason(claude_code: Driver, world: World) -> None:
    scenarios.stop_block_continues_once(claude_code, world)


def test_payloads_decode_and_reach_command_hooks_unchanged(
    claude_code: Driver, world: World
) -> None:
    scenarios.payloads_decode_and_pass_unchanged(claude_code, world)


def test_serve_as_http_hook_blocks_the_shell_tool(claude_code: Driver, world: World) -> None:
    """``agent-hooks serve`` as a ``type: "http"`` hook: the same guard, over HTTP."""
    assert isinstance(claude_code, ClaudeCodeDriver)
    token = secrets.token_urlsafe(24)
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [command_hook(world.bin / "guard.sh")]}]}
    config = claude_code.configure(world, hooks, record=False)
    with agent_hooks_server(world, config, fmt="claude-settings", token=token) as url:
        entry = {
            "type": "http",
            "url": f"{url}/hooks",
            "headers": {"Authorization": "Bearer $AGENT_HOOKS_TOKEN"},
            "allowedEnvVars": ["AGENT_HOOKS_TOKEN"],
            "timeout": 60,
        }
        scenarios.blocked_shell_call(
            claude_code,
            world,
            command_hook(world.bin / "guard.sh"),
            GUARD_SH_REASON,
            harness_entry=entry,
            env={"AGENT_HOOKS_TOKEN": token},
        )
