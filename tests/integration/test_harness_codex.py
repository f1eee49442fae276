"""Codex CLI 0.171.0 (`codex exec`, native binary from npm) with agent-hooks as its hook command."""

from __future__ import annotations

import pytest
import scenarios
from drivers import Driver
from harnesses import World

pytestmark = pytest.mark.integration


def test_runs_against_the_mock(codex: Driver, world: World) -> None:
    scenarios.harness_runs_against_the_mock(codex, world)


def test_shell_guard_exit_2_blocks_the_shell_tool(codex: Driver, world: World) -> None:
    scenarios.shell_guard_blocks(codex, world)


def test_in_process_run_blocks_the_shell_tool(codex: Driver, world: World) -> None:
    scenarios.shell_guard_blocks_in_process(codex, world)


def test_relative_config_path_guard_blocks(codex: Driver, world: World) -> None:
    scenarios.guard_with_relative_config_blocks(codex, world)


def test_python_callback_deny_blocks_the_shell_tool(codex: Driver, world: World) -> None:
    scenarios.python_deny_blocks(codex, world)


def test_fail_closed_blocks_when_the_hook_file_is_broken(codex: Driver, world: World) -> None:
    told = scenarios.fail_closed_blocks_when_hooks_cannot_load(codex, world)
    assert ".agent-hooks/" in told  # the reason names the file that did not load


def test_updated_input_runs_the_rewritten_command(codex: Driver, world: World) -> None:
    scenarios.rewrite_runs_rewritten_command(codex, world)


def test_session_start_context_reaches_the_model(codex: Driver, world: World) -> None:
    scenarios.session_context_reaches_model(codex, world)


def test_prompt_block_stops_before_any_model_request(codex: Driver, world: World) -> None:
    shown = scenarios.prompt_block_stops_before_model(codex, world)
    assert "UserPromptSubmit Blocked" in shown  # Codex logs the block, not the reason


def test_stop_block_continues_once_with_the_reason(codex: Driver, world: World) -> None:
    scenarios.stop_block_continues_once(codex, world)


def test_payloads_decode_and_reach_command_hooks_unchanged(codex: Driver, world: World) -> None:
    scenarios.payloads_decode_and_pass_unchanged(codex, world)
