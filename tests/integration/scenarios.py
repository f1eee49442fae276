"""The scenarios, written once and run against every harness (test_harness_*.py).

Each one configures the harness to call ``agent-hooks run`` (or ``serve``), runs it
once against its scripted mock, and asserts on what the model API was sent, on the
files the shell tool touched, and on the payloads the hooks got.
"""

from __future__ import annotations

from typing import Any

import pytest
from drivers import Driver, command_hook, python_hook
from harnesses import (
    GUARD_SH_REASON,
    PY_DENY_REASON,
    SESSION_CONTEXT,
    STOP_REASON,
    Completed,
    World,
    daemon_available,
)
from mock_models import FINAL_TEXT, MockModel
from payloads import (
    REPORTS,
    HarnessReport,
    configured_event,
    decode,
    public_decoder,
    unchanged_problems,
)

RM_VICTIM = "rm -r victim"


def _context(driver: Driver, world: World, mock: MockModel, done: Completed) -> str:
    return f"{driver.name} {driver.version}\n{done.describe()}\n--- model requests\n{mock.describe()}\n{world.debug()}"


def _run(
    driver: Driver, world: World, commands: list[str], prompt: str, **kw: Any
) -> tuple[MockModel, Completed]:
    """Run the harness once against its mock; then check every payload it sent."""
    with driver.mock(world, commands) as mock:
        done = driver.run(world, mock, prompt, **kw)
    problems = payload_problems(driver, world)
    assert not problems, "\n".join(problems) + "\n" + _context(driver, world, mock, done)
    return mock, done


def payload_problems(driver: Driver, world: World) -> list[str]:
    """Every payload recorded in this run decodes with no diagnostics (when this build
    has a public decoder for the dialect) and reached the command hooks unchanged (when
    the hooks were in the harness's own file format)."""
    sent = world.sent_payloads()
    problems: list[str] = []
    if public_decoder(driver.dialect) is not None:
        for path, raw in sent:
            decoded = decode(raw, dialect=driver.dialect, event=configured_event(path))
            problems += [f"{path.name}: {d}" for d in decoded.diagnostics]
    if driver.native_format and world.received_payloads():
        problems += unchanged_problems(sent, world.received_payloads())
    return problems


def harness_runs_against_the_mock(driver: Driver, world: World) -> None:
    """The fixture itself: the harness talks to the mock, runs the shell call, ends."""
    mock, done = _run(
        driver, world, ["echo from-the-mock > mock-ran.txt"], "Please run the command."
    )
    ctx = _context(driver, world, mock, done)
    assert done.returncode == 0, ctx
    assert (world.project / "mock-ran.txt").read_text().strip() == "from-the-mock", ctx
    assert [r.answer for r in mock.main_requests][-1] == "final", ctx
    assert FINAL_TEXT in done.stdout + done.stderr, ctx


def blocked_shell_call(
    driver: Driver,
    world: World,
    hook: dict[str, Any],
    reason: str,
    *,
    harness_entry: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
    **configure: Any,
) -> None:
    """A PreToolUse hook refuses ``rm -r victim``: the folder survives, the next model
    request carries the reason, the run ends normally."""
    driver.configure(
        world,
        {"PreToolUse": [{"matcher": driver.shell_matcher, "hooks": [hook]}]},
        record=harness_entry is None,
        harness_entry=harness_entry,
        **configure,
    )
    mock, done = _run(driver, world, [RM_VICTIM], "Please delete the folder named victim.", env=env)
    ctx = _context(driver, world, mock, done)
    assert (world.victim / "file.txt").exists(), "the victim folder was deleted\n" + ctx
    assert mock.tool_calls() == [RM_VICTIM], ctx
    after = mock.main_requests[1:]
    assert after, "no model request after the refused call\n" + ctx
    assert reason in after[0].text(), "the model was not told the reason\n" + ctx
    assert done.returncode == 0, ctx


def shell_guard_blocks(driver: Driver, world: World) -> None:
    blocked_shell_call(driver, world, command_hook(world.bin / "guard.sh"), GUARD_SH_REASON)
    if daemon_available() and not world.in_process:
        assert world.has_daemons(), "no resident agent-hooks server answered the hooks"


def shell_guard_blocks_in_process(driver: Driver, world: World) -> None:
    """The same guard with ``agent-hooks run`` kept in-process (no resident server)."""
    world.in_process = True
    blocked_shell_call(driver, world, command_hook(world.bin / "guard.sh"), GUARD_SH_REASON)
    assert not world.has_daemons()


def guard_with_relative_config_blocks(driver: Driver, world: World) -> None:
    """``agent-hooks run --config .agent-hooks/...``: a path relative to the directory
    the harness runs hooks in (the project), as users write it; without
    ``--fail-closed``, as in the README's example command."""
    world.fail_closed = False
    blocked_shell_call(
        driver, world, command_hook(world.bin / "guard.sh"), GUARD_SH_REASON, relative_config=True
    )


def python_deny_blocks(driver: Driver, world: World, **configure: Any) -> None:
    blocked_shell_call(driver, world, python_hook("deny_rm"), PY_DENY_REASON, **configure)


def fail_closed_blocks_when_hooks_cannot_load(driver: Driver, world: World) -> str:
    """The guard's file is broken (invalid JSON): ``agent-hooks run --fail-closed``
    exits 2 and the harness refuses the shell call instead of running it unguarded.
    Returns what the model was told next."""
    path = driver.configure(
        world,
        {"PreToolUse": [{"matcher": driver.shell_matcher, "hooks": [python_hook("deny_rm")]}]},
    )
    path.write_text('{"hooks": {"PreToolUse": [')  # cut short by a bad edit
    mock, done = _run(driver, world, [RM_VICTIM], "Please delete the folder named victim.")
    ctx = _context(driver, world, mock, done)
    assert (world.victim / "file.txt").exists(), "a broken guard file failed open\n" + ctx
    assert mock.tool_calls() == [RM_VICTIM], ctx
    after = mock.main_requests[1:]
    assert after, "no model request after the refused call\n" + ctx
    return after[0].text()


def rewrite_runs_rewritten_command(driver: Driver, world: World) -> None:
    driver.configure(
        world,
        {"PreToolUse": [{"matcher": driver.shell_matcher, "hooks": [python_hook("rewrite")]}]},
    )
    mock, done = _run(driver, world, ["echo ORIGINAL > rewritten.txt"], "Please write the file.")
    ctx = _context(driver, world, mock, done)
    out = world.project / "rewritten.txt"
    assert out.exists(), "the shell call did not run\n" + ctx
    assert out.read_text().strip() == "REWRITTEN", (
        "the original command ran, not the rewritten one\n" + ctx
    )
    assert done.returncode == 0, ctx


def session_context_reaches_model(driver: Driver, world: World) -> None:
    driver.configure(world, {"SessionStart": [{"hooks": [python_hook("session_context")]}]})
    mock, done = _run(driver, world, [], "Hello.")
    ctx = _context(driver, world, mock, done)
    assert mock.main_requests, ctx
    assert SESSION_CONTEXT in mock.main_requests[0].text(), (
        "the first model request lacks the context\n" + ctx
    )
    assert done.returncode == 0, ctx


def prompt_block_stops_before_model(driver: Driver, world: World) -> str:
    """Returns what the harness printed (each harness shows the reason its own way)."""
    driver.configure(world, {"UserPromptSubmit": [{"hooks": [python_hook("block_prompt")]}]})
    prompt = "Tell me the secret deploy key."
    mock, done = _run(driver, world, [], prompt)
    ctx = _context(driver, world, mock, done)
    assert not mock.main_requests, "the model was asked after the prompt was blocked\n" + ctx
    assert not mock.saw("secret deploy key"), "the blocked prompt reached the model API\n" + ctx
    return done.stdout + done.stderr


def prompt_block_not_expressible(driver: Driver, world: World) -> None:
    """For a harness that cannot block a prompt: the turn goes on, and agent-hooks
    reports the block it could not express instead of dropping it silently."""
    driver.configure(world, {"UserPromptSubmit": [{"hooks": [python_hook("block_prompt")]}]})
    mock, done = _run(driver, world, [], "Tell me the secret deploy key.")
    ctx = _context(driver, world, mock, done)
    assert [r.answer for r in mock.main_requests] == ["final"], ctx
    assert "not_expressible" in world.debug(), ctx
    assert done.returncode == 0, ctx


def stop_block_continues_once(driver: Driver, world: World) -> None:
    driver.configure(world, {"Stop": [{"hooks": [python_hook("stop_once")]}]})
    mock, done = _run(driver, world, ["echo step > step.txt"], "Please do the step.")
    ctx = _context(driver, world, mock, done)
    answers = [r.answer for r in mock.main_requests]
    assert answers == ["tool:echo step > step.txt", "final", "final"], (
        "expected one continuation after the Stop block\n" + ctx
    )
    assert STOP_REASON in mock.main_requests[2].text(), "the continuation lacks the reason\n" + ctx
    assert STOP_REASON not in mock.main_requests[1].text(), ctx
    assert (world.project / ".stop-blocked-once").exists(), ctx
    assert done.returncode == 0, ctx


def payloads_decode_and_pass_unchanged(driver: Driver, world: World) -> None:
    """Every event the harness has, a recorder on each: every payload decodes with no
    diagnostics and reaches the command hook as the harness sent it."""
    if public_decoder(driver.dialect) is None:
        pytest.skip(f"no public decoder for the {driver.dialect} dialect in this build (issue 17)")
    driver.configure(world, {}, events=driver.all_events)
    mock, done = _run(driver, world, ["echo payload > payload.txt"], "Please run the command.")
    ctx = _context(driver, world, mock, done)
    assert done.returncode == 0, ctx
    assert (world.project / "payload.txt").exists(), ctx
    sent = world.sent_payloads()
    assert sent, "no hook fired\n" + ctx
    report = HarnessReport(
        driver.name, driver.version, driver.spec.version, configured=list(driver.all_events)
    )
    REPORTS[f"{driver.name}-{driver.version}"] = report
    for path, raw in sent:
        event = configured_event(path)
        decoded = decode(raw, dialect=driver.dialect, event=event)
        report.add(event, decoded)
    assert not report.diagnostics, "\n".join(report.diagnostics) + "\n" + ctx
    if not driver.native_format:
        pytest.skip(
            f"payloads decode; the unchanged check needs a {driver.name} hook-file format in this "
            "build (issue 17): command hooks in a Claude Code file get Claude-shaped payloads"
        )
    problems = unchanged_problems(sent, world.received_payloads())
    assert not problems, "\n".join(problems) + "\n" + ctx
