"""Python registration mistakes that make a hook fail open are logged at ERROR (logger
``agent_hooks.diagnostics``), not only said in a diagnostic nobody reads: a
``CommandHook`` whose program does not exist (found as the registry is built: a
``program_not_found`` error, the hook kept), and a typed callback whose answer is a
wrongly shaped dict (``invalid_output``, once per dispatch). A program that exists,
or that cannot be told before the hook runs, is not reported."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import (
    CommandHook,
    DiagnosticCode,
    HookEvent,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    Severity,
)

LOGGER = "agent_hooks.diagnostics"


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER and r.levelno >= logging.ERROR]


def registry_of(*hooks: Any) -> HookRegistry:
    return HookRegistry({"PreToolUse": [HookMatcher(matcher="Bash", hooks=list(hooks))]})


@pytest.mark.parametrize(
    ("hook", "problem"),
    [
        (CommandHook(command="/nonexistent/guard.sh --strict"), "'/nonexistent/guard.sh'"),
        (CommandHook(command="no-such-program-agent-hooks-27 x"), "is not on PATH"),
        (CommandHook(argv=["no-such-program-agent-hooks-27", "x"]), "is not on PATH"),
        (CommandHook(command="exit 0", shell="no-such-shell-agent-hooks-27"), "shell-agent"),
        (
            CommandHook(command="guard --strict", env={"PATH": "/nonexistent-dir"}),
            "'guard' is not on PATH",
        ),
    ],
)
def test_a_command_hook_whose_program_is_missing_is_logged_as_an_error(
    hook: CommandHook, problem: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="agent_hooks")
    registry = registry_of(hook)
    (diagnostic,) = registry.diagnostics
    assert diagnostic.code is DiagnosticCode.PROGRAM_NOT_FOUND
    assert diagnostic.severity is Severity.ERROR
    assert diagnostic.location == "PreToolUse[0].hooks[0]"
    assert problem in diagnostic.message and "fails on every call" in diagnostic.message
    (record,) = errors_logged(caplog)
    assert record.levelno == logging.ERROR
    assert record.diagnostic == diagnostic  # type: ignore[attr-defined]
    # the hook is kept: under fail_closed its failure still blocks
    assert len(registry.compile().nodes[HookEvent.PRE_TOOL_USE]) == 1


def test_a_program_that_is_there_or_cannot_be_told_is_not_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="agent_hooks")
    not_executable = tmp_path / "guard.sh"
    not_executable.write_text("#!/bin/sh\nexit 0\n")
    registry = registry_of(
        CommandHook(command="true"),
        CommandHook(command="sh -c 'exit 0'"),
        CommandHook(argv=["sh", "-c", "exit 0"]),
        CommandHook(command="./hooks/guard.sh"),  # relative: to the payload's cwd
        CommandHook(command='"$CLAUDE_PROJECT_DIR"/hooks/guard.sh'),
        CommandHook(command="if true; then exit 0; fi"),
        CommandHook(command="FOO=1 guard"),
    )
    assert registry.diagnostics == ()
    assert caplog.records == []
    # a file that is there but not executable fails as surely as a missing one
    (diagnostic,) = registry_of(CommandHook(command=str(not_executable))).diagnostics
    assert diagnostic.code is DiagnosticCode.PROGRAM_NOT_FOUND
    assert "is not executable" in diagnostic.message


def test_add_reports_a_missing_program_too(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="agent_hooks")
    hooks = [HookMatcher(hooks=[CommandHook(command="/nonexistent/audit")])]
    registry = HookRegistry().add({"Stop": hooks}, source="audit")
    (diagnostic,) = registry.diagnostics
    assert (diagnostic.code, diagnostic.source) == (DiagnosticCode.PROGRAM_NOT_FOUND, "audit")
    assert len(errors_logged(caplog)) == 1


@pytest.mark.anyio
@pytest.mark.parametrize(
    "answer",
    [
        {"decision": "nope"},
        {"continue": "no"},
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": 1}},
    ],
)
async def test_a_typed_callback_returning_a_wrongly_shaped_dict_is_logged_as_an_error(
    answer: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="agent_hooks")

    async def guard(input: PreToolUseInput) -> dict[str, Any]:
        return answer

    registry = registry_of(guard)
    assert registry.diagnostics == ()
    async with registry.session(session_id="s", cwd="/") as session:
        decision = await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"})
        )
    invalid = [d for d in decision.diagnostics if d.code is DiagnosticCode.INVALID_OUTPUT]
    assert invalid and all(d.severity is Severity.ERROR for d in invalid)
    records = errors_logged(caplog)
    assert records, "the invalid answer was not logged at ERROR"
    assert all(r.levelno == logging.ERROR for r in records)
    assert any("guard" in r.getMessage() and "invalid" in r.getMessage() for r in records)


@pytest.mark.anyio
async def test_only_those_mistakes_are_raised_to_error(caplog: pytest.LogCaptureFixture) -> None:
    """A hook that raises (a failure at run time, not a registration mistake) stays at
    WARNING, beside a missing program at ERROR."""
    caplog.set_level(logging.WARNING, logger="agent_hooks")

    async def broken(input: PreToolUseInput) -> None:
        raise RuntimeError("the policy service is down")

    registry = registry_of(broken, CommandHook(command="/nonexistent/guard.sh"))
    async with registry.session(session_id="s", cwd="/") as session:
        await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"}))
    levels = {
        code: r.levelno
        for r in caplog.records
        if r.name == LOGGER
        for code in ("handler_error", "program_not_found")
        if code in r.getMessage()
    }
    assert levels == {"handler_error": logging.WARNING, "program_not_found": logging.ERROR}
