"""Gemini CLI 0.61.0 (`gemini -p`, yolo mode) with agent-hooks as its hook command.

The scenarios need this build to speak the harness's dialect (issue 17): until then
they skip with the reason; the first test checks the harness and its mock alone."""

from __future__ import annotations

import pytest
import scenarios
from drivers import Driver
from harnesses import World

pytestmark = pytest.mark.integration


def test_runs_against_the_mock(gemini_cli_harness: Driver, world: World) -> None:
    scenarios.harness_runs_against_the_mock(gemini_cli_harness, world)


def test_shell_guard_exit_2_blocks_the_shell_tool(gemini_cli: Driver, world: World) -> None:
    scenarios.shell_guard_blocks(gemini_cli, world)


def test_in_process_run_blocks_the_shell_tool(gemini_cli: Driver, world: World) -> None:
    scenarios.shell_guard_blocks_in_process(gemini_cli, world)


def test_relative_config_path_guard_blocks(gemini_cli: Driver, world: World) -> None:
    scenarios.guard_with_relative_config_blocks(gemini_cli, world)


def test_python_callback_deny_blocks_the_shell_tool(gemini_cli: Driver, world: World) -> None:
    scenarios.python_deny_blocks(gemini_cli, world)


def test_fail_closed_blocks_when_the_hook_file_is_broken(gemini_cli: Driver, world: World) -> None:
    told = scenarios.fail_closed_blocks_when_hooks_cannot_load(gemini_cli, world)
    assert ".agent-hooks/" in told  # the reason names the file that did not load


def test_updated_input_runs_the_rewritten_command(gemini_cli: Driver, world: World) -> None:
    scenarios.rewrite_runs_rewritten_command(gemini_cli, world)


def test_session_start_context_reaches_the_model(gemini_cli: Driver, world: World) -> None:
    scenarios.session_context_reaches_model(gemini_cli, world)


def test_prompt_block_stops_before_any_model_request(gemini_cli: Driver, world: World) -> None:
    scenarios.prompt_block_stops_before_model(gemini_cli, world)


def test_stop_block_continues_once_with_the_reason(gemini_cli: Driver, world: World) -> None:
    scenarios.stop_block_continues_once(gemini_cli, world)


def test_payloads_decode_and_reach_command_hooks_unchanged(
    gemini_cli: Driver, world: World
) -> None:
    scenarios.payloads_decode_and_pass_unchanged(gemini_cli, world)
