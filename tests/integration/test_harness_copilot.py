"""GitHub Copilot CLI 1.0.102 (`copilot -p`, offline BYOK, repo hooks in camelCase) with agent-hooks as its hook command.

The scenarios need this build to speak the harness's dialect (issue 17): until then
they skip with the reason; the first test checks the harness and its mock alone.
Python handlers are kept in a Claude Code format file next to the Copilot hook file
(this build's Copilot loader refuses them; one test shows it)."""

from __future__ import annotations

import pytest
import scenarios
from drivers import Driver
from harnesses import World

pytestmark = pytest.mark.integration


def test_runs_against_the_mock(copilot_cli_harness: Driver, world: World) -> None:
    scenarios.harness_runs_against_the_mock(copilot_cli_harness, world)


def test_shell_guard_exit_2_blocks_the_shell_tool(copilot_cli: Driver, world: World) -> None:
    scenarios.shell_guard_blocks(copilot_cli, world)


def test_in_process_run_blocks_the_shell_tool(copilot_cli: Driver, world: World) -> None:
    scenarios.shell_guard_blocks_in_process(copilot_cli, world)


def test_relative_config_path_guard_blocks(copilot_cli: Driver, world: World) -> None:
    scenarios.guard_with_relative_config_blocks(copilot_cli, world)


def test_python_callback_deny_blocks_the_shell_tool(copilot_cli: Driver, world: World) -> None:
    scenarios.python_deny_blocks(copilot_cli, world)


def test_python_handler_in_the_copilot_hook_file_denies(copilot_cli: Driver, world: World) -> None:
    """The README: hooks "in any supported format, with Python callbacks (by reference)
    and shell commands side by side". The other Copilot scenarios keep their Python
    handlers in a Claude Code format file beside the Copilot one; this one does not."""
    scenarios.python_deny_blocks(copilot_cli, world, python_beside=False)


def test_fail_closed_blocks_when_the_hook_file_is_broken(copilot_cli: Driver, world: World) -> None:
    told = scenarios.fail_closed_blocks_when_hooks_cannot_load(copilot_cli, world)
    assert "exited with code 2" in told  # Copilot passes no stderr on


def test_updated_input_runs_the_rewritten_command(copilot_cli: Driver, world: World) -> None:
    scenarios.rewrite_runs_rewritten_command(copilot_cli, world)


def test_session_start_context_reaches_the_model(copilot_cli: Driver, world: World) -> None:
    scenarios.session_context_reaches_model(copilot_cli, world)


def test_prompt_block_is_reported_as_not_expressible(copilot_cli: Driver, world: World) -> None:
    """Copilot ignores what userPromptSubmitted answers: no prompt block to prove. The
    turn goes on and agent-hooks says the block was left out (``not_expressible``)."""
    scenarios.prompt_block_not_expressible(copilot_cli, world)


def test_stop_block_continues_once_with_the_reason(copilot_cli: Driver, world: World) -> None:
    scenarios.stop_block_continues_once(copilot_cli, world)


def test_payloads_decode_and_reach_command_hooks_unchanged(
    copilot_cli: Driver, world: World
) -> None:
    scenarios.payloads_decode_and_pass_unchanged(copilot_cli, world)
