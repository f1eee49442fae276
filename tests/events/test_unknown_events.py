"""Events this version does not type pass through (issue 20, item 1).

A name agent_hooks does not know, in a payload, a configuration file or a Python
registration, is carried as an untyped event: its hooks run for that exact name, get
the payload as it came, and their answers are reduced by the rules every event shares.
A close misspelling of a known event stays an error with the suggestion, and
``parse_event`` stays strict.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
    UnknownEventError,
    UntypedEvent,
    UntypedInput,
    UntypedOutput,
    decode_input,
    load,
    parse_event,
    resolve_event,
)
from tests.cli_inprocess import cli_in_process
from tests.dialect_helpers import THROUGH_SERVER

NO_DAEMON = "AGENT_HOOKS_NO_DAEMON"  # (kept: tests/conftest.py keeps run in-process)

FUTURE = "PreFutureThing"


# ------------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("name", "suggested"),
    [
        ("PreToolUze", "PreToolUse"),  # a letter changed
        ("PreToolUs", "PreToolUse"),  # a letter dropped
        ("SessionStrat", "SessionStart"),  # neighbours swapped
        ("Stpo", "Stop"),  # neighbours swapped, in a short name
        ("UserPromptSubmitt", "UserPromptSubmit"),
        ("pre_tool_usee", "PreToolUse"),
    ],
)
def test_a_misspelling_of_a_known_event_stays_an_error(name: str, suggested: str) -> None:
    with pytest.raises(UnknownEventError) as info:
        resolve_event(name)
    assert suggested in info.value.suggestions
    assert "did you mean" in str(info.value)


@pytest.mark.parametrize("name", [FUTURE, "NoSuchEvent", "OnBudgetExceeded", "pre_future_thing"])
def test_a_name_far_from_every_known_event_is_untyped(name: str) -> None:
    event = resolve_event(name)
    assert isinstance(event, UntypedEvent)
    assert event == name and event.value == name
    with pytest.raises(UnknownEventError):  # the strict parser does not change
        parse_event(name)


def test_known_names_stay_typed_and_names_that_cannot_be_events_are_errors() -> None:
    assert resolve_event("pre_tool_use") is HookEvent.PRE_TOOL_USE
    assert resolve_event(HookEvent.STOP) is HookEvent.STOP
    for bad in ("", "has space", "1Event", "x" * 200, "a-b"):
        with pytest.raises(UnknownEventError):
            resolve_event(bad)


def test_untyped_event_spellings() -> None:
    event = resolve_event(FUTURE)
    assert isinstance(event, UntypedEvent)
    assert event.snake == "pre_future_thing"
    assert repr(event) == "UntypedEvent('PreFutureThing')"


# ------------------------------------------------------------- Python API


def test_untyped_input_refuses_known_and_misspelled_names() -> None:
    with pytest.raises(ValueError, match="PreToolUseInput"):
        UntypedInput(event_name="PreToolUse")
    with pytest.raises(UnknownEventError, match="did you mean PreToolUse"):
        UntypedInput(event_name="PreToolUze")
    assert UntypedInput(event_name=FUTURE).hook_event_name == FUTURE


def test_registering_an_untyped_event_warns_instead_of_raising() -> None:
    registry = HookRegistry({FUTURE: [HookMatcher(hooks=[lambda input: None])]})
    (diag,) = registry.diagnostics
    assert diag.code is DiagnosticCode.UNTYPED_EVENT
    assert diag.severity is Severity.WARNING
    assert FUTURE in diag.message and "not typed by this version" in diag.message
    with pytest.raises(UnknownEventError, match="did you mean PreToolUse"):
        HookRegistry({"PreToolUze": [HookMatcher(hooks=[lambda input: None])]})


@pytest.mark.anyio
async def test_dispatch_runs_the_hooks_of_that_exact_name_with_tool_name_matchers() -> None:
    seen: list[tuple[str, Any]] = []

    async def guard(input: UntypedInput) -> UntypedOutput:
        seen.append(("guard", input.extra.get("tool_input")))
        return UntypedOutput(permission_decision="deny", permission_decision_reason="no shell")

    async def anything(input: UntypedInput) -> None:
        seen.append(("anything", input.event))

    async def other(input: Any) -> None:
        seen.append(("other", None))

    registry = HookRegistry(
        {
            FUTURE: [
                HookMatcher(matcher="Bash", hooks=[guard]),
                HookMatcher(hooks=[anything]),
            ],
            "PreOtherFutureThing": [HookMatcher(hooks=[other])],
        }
    )
    async with registry.session(session_id="s") as session:
        bash = UntypedInput(
            event_name=FUTURE, extra={"tool_name": "Bash", "tool_input": {"command": "ls"}}
        )
        decision = await session.dispatch(bash)
        assert decision.event == FUTURE and isinstance(decision.event, UntypedEvent)
        assert decision.blocked and decision.reason == "no shell"
        assert sorted(seen) == [("anything", FUTURE), ("guard", {"command": "ls"})]

        seen.clear()
        edit = UntypedInput(event_name=FUTURE, extra={"tool_name": "Edit"})
        assert not (await session.dispatch(edit)).blocked
        assert seen == [("anything", FUTURE)]

        # no tool_name in the payload: the matcher cannot apply, every group runs
        seen.clear()
        assert (await session.dispatch(UntypedInput(event_name=FUTURE))).blocked
        assert sorted(who for who, _ in seen) == ["anything", "guard"]


@pytest.mark.anyio
async def test_answers_are_reduced_by_the_rules_every_event_shares() -> None:
    answers = [
        {
            "systemMessage": "first",
            "hookSpecificOutput": {"permissionDecision": "ask", "note": "a", "mine": 1},
        },
        {
            "continue": False,
            "stopReason": "stop now",
            "systemMessage": "second",
            "hookSpecificOutput": {
                "hookEventName": FUTURE,
                "permissionDecision": "deny",
                "permissionDecisionReason": "too risky",
                "note": "b",
            },
        },
        {"decision": "block", "reason": "blocked too"},
    ]
    hooks = [
        CommandHook(command=f"printf '%s' '{json.dumps(a)}'", name=f"h{i}")
        for i, a in enumerate(answers)
    ]
    registry = HookRegistry({FUTURE: [HookMatcher(hooks=hooks)]})
    async with registry.session(session_id="s") as session:
        decision = await session.dispatch(UntypedInput(event_name=FUTURE))
    out = decision.output
    assert isinstance(out, UntypedOutput)
    assert out.permission_decision == "deny"  # the most restrictive wins
    assert out.permission_decision_reason == "too risky"
    assert out.continue_ is False and out.stop_reason == "stop now"
    assert out.system_message == "first\nsecond"
    assert out.decision == "block" and out.reason == "blocked too"
    assert out.extra_specific == {"note": "b", "mine": 1}  # last writer, per key
    overridden = [d for d in decision.diagnostics if d.code is DiagnosticCode.OVERRIDDEN]
    assert len(overridden) == 1 and "hookSpecificOutput.note" in overridden[0].message


@pytest.mark.anyio
async def test_exit_2_blocks_with_stderr_as_the_reason() -> None:
    hook = CommandHook(command="echo 'not now' >&2; exit 2")
    registry = HookRegistry({FUTURE: [HookMatcher(hooks=[hook])]})
    async with registry.session(session_id="s") as session:
        decision = await session.dispatch(UntypedInput(event_name=FUTURE))
    assert decision.blocked
    assert decision.reason == "not now"
    assert decision.output.permission_decision == "deny"


def test_decode_input_carries_an_unknown_event_untyped() -> None:
    payload = {"session_id": "s", "hook_event_name": FUTURE, "tool_name": "Bash", "x": None}
    decoded = decode_input(json.dumps(payload))
    assert isinstance(decoded.input, UntypedInput)
    assert decoded.input.event == FUTURE and decoded.input.session_id == "s"
    assert decoded.input.extra == {"tool_name": "Bash", "x": None}
    assert [(d.code, d.severity) for d in decoded.diagnostics] == [
        (DiagnosticCode.UNTYPED_EVENT, Severity.WARNING)
    ]
    with pytest.raises(UnknownEventError, match="did you mean PreToolUse"):
        decode_input('{"hook_event_name": "PreToolUze"}')


# ------------------------------------------------------------ configuration

SETTINGS = {
    "hooks": {
        FUTURE: [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
        "PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}],
    }
}


def test_a_settings_file_naming_an_unknown_event_loads_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(SETTINGS))
    config = load(path)
    assert [f.status for f in config.files] == ["loaded"]
    assert not config.errors
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.UNTYPED_EVENT and diag.severity is Severity.WARNING
    assert diag.location == f"hooks.{FUTURE}[0]"
    assert {str(g.event) for sg in config.sources for g in sg.groups} == {FUTURE, "PreToolUse"}


def test_a_misspelled_event_in_a_file_is_still_a_configuration_error(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {"PreToolUze": [{"hooks": []}]}}))
    (error,) = load(path).errors
    assert "did you mean PreToolUse" in error.message
    assert error.location == "hooks.PreToolUze"


# ---------------------------------------------------------------- the CLI


def _env(tmp: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "AGENT_HOOKS_", "CODEX_", "DOCKER_")) or k == NO_DAEMON
    }
    env.update(HOME=str(tmp / "home"), XDG_STATE_HOME=str(tmp / "state"))
    return env


def _cli(tmp: Path, *args: str | Path, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    """``agent-hooks ARGS`` in this process (what it answers is the point; ``run`` as a
    process is tests/cli/test_cli_run.py's), in a subprocess under ``THROUGH_SERVER``."""
    if not THROUGH_SERVER:
        return cli_in_process(list(map(str, args)), env=_env(tmp), cwd=tmp, input=stdin)
    proc = subprocess.run(
        [sys.executable, "-m", "agent_hooks", *map(str, args)],
        input=stdin,
        capture_output=True,
        cwd=tmp,
        env=_env(tmp),
        timeout=60,
        check=False,
    )
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project").mkdir()
    return tmp_path / "project"


def _settings(tmp: Path, hooks: dict[str, Any]) -> Path:
    conf = tmp / "conf"  # outside the project: no trust needed
    conf.mkdir(exist_ok=True)
    path = conf / "settings.json"
    path.write_text(json.dumps({"hooks": hooks}))
    return path


def _future_payload(project: Path, **fields: Any) -> bytes:
    payload = {
        "session_id": "23b0b288",
        "transcript_path": str(project / "t.jsonl"),
        "cwd": str(project),
        "prompt_id": "cd5a77fa",
        "permission_mode": "default",
        "effort": {"level": "medium"},
        "hook_event_name": FUTURE,
        "tool_name": "Bash",
        "tool_input": {"command": "echo from-the-future"},
        "tool_use_id": "ed1ef481:inner:preamble-0",
        "origin": None,
        "future": {"nested": [1, None, {"k": None}]},
        **fields,
    }
    return json.dumps(payload, separators=(",", ":")).encode()


def test_run_gives_hooks_of_an_unknown_event_every_field_unchanged(
    tmp_path: Path, project: Path
) -> None:
    got = tmp_path / "got.json"
    config = _settings(
        tmp_path,
        {FUTURE: [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"cat > {got}"}]}]},
    )
    payload = _future_payload(project)
    proc = _cli(tmp_path, "run", "--config", config, stdin=payload)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {}
    assert got.read_bytes() == payload  # byte for byte: nulls, unknown keys, order
    assert "not typed by this version" in proc.stderr  # a warning, not a failure


@pytest.mark.parametrize(
    "command",
    [
        "echo 'no shell from skills' >&2; exit 2",
        "printf '%s' '"
        + json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": FUTURE,
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "no shell from skills",
                }
            }
        )
        + "'",
    ],
    ids=["exit-2", "json-deny"],
)
def test_exit_2_and_json_deny_come_back_as_a_deny(
    tmp_path: Path, project: Path, command: str
) -> None:
    config = _settings(tmp_path, {FUTURE: [{"hooks": [{"type": "command", "command": command}]}]})
    proc = _cli(tmp_path, "run", "--config", config, stdin=_future_payload(project))
    # a block of an event agent_hooks does not type: exit 2 with the reason on stderr
    # (every harness reads it as a block), and the JSON deny on stdout
    assert proc.returncode == 2
    assert proc.stderr.strip() == "no shell from skills"
    assert json.loads(proc.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": FUTURE,
            "permissionDecision": "deny",
            "permissionDecisionReason": "no shell from skills",
        }
    }


def test_the_answer_is_written_in_the_callers_dialect(tmp_path: Path, project: Path) -> None:
    config = _settings(
        tmp_path,
        {"pre_future_thing": [{"hooks": [{"type": "command", "command": "echo no >&2; exit 2"}]}]},
    )
    payload = json.dumps(
        {"session_id": "s", "cwd": str(project), "hook_event_name": "pre_future_thing"}
    )
    proc = _cli(tmp_path, "run", "--config", config, stdin=payload.encode())
    assert proc.returncode == 2
    assert json.loads(proc.stdout) == {
        "hook_specific_output": {
            "hook_event_name": "pre_future_thing",
            "permission_decision": "deny",
            "permission_decision_reason": "no",
        }
    }


def test_fail_closed_runs_of_other_events_are_unaffected(tmp_path: Path, project: Path) -> None:
    ran = tmp_path / "ran"
    config = _settings(
        tmp_path,
        {
            FUTURE: [{"hooks": [{"type": "command", "command": "exit 2"}]}],
            "PreToolUse": [{"hooks": [{"type": "command", "command": f"touch {ran}"}]}],
        },
    )
    payload = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    }
    proc = _cli(
        tmp_path, "run", "--fail-closed", "--config", config, stdin=json.dumps(payload).encode()
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {}
    assert ran.exists()


def test_fail_closed_blocks_an_unknown_event_whose_hook_fails(
    tmp_path: Path, project: Path
) -> None:
    config = _settings(tmp_path, {FUTURE: [{"hooks": [{"type": "command", "command": "exit 1"}]}]})
    proc = _cli(tmp_path, "run", "--config", config, stdin=_future_payload(project))
    assert proc.returncode == 0  # fails open by default, as any hook
    proc = _cli(
        tmp_path, "run", "--fail-closed", "--config", config, stdin=_future_payload(project)
    )
    assert proc.returncode == 2  # a guard told to fail closed does


def test_check_lists_hooks_of_an_unknown_event_with_the_warning(
    tmp_path: Path, project: Path
) -> None:
    config = _settings(tmp_path, SETTINGS["hooks"])
    proc = _cli(tmp_path, "check", "--config", config, "--project-dir", project)
    assert proc.returncode == 0, proc.stdout
    assert f"{FUTURE} (1, not typed by this version" in proc.stdout
    assert "warning untyped_event" in proc.stdout
    proc = _cli(tmp_path, "check", "--json", "--config", config, "--project-dir", project)
    report = json.loads(proc.stdout)
    assert [e["typed"] for e in report["events"][FUTURE]] == [False]
    assert [e["typed"] for e in report["events"]["PreToolUse"]] == [True]
    assert report["summary"]["errors"] == 0


def test_typed_events_are_unchanged(tmp_path: Path) -> None:
    decoded = decode_input({"hook_event_name": "PreToolUse", "tool_name": "Bash"})
    assert isinstance(decoded.input, PreToolUseInput)
    assert decoded.diagnostics == ()


@pytest.mark.anyio
async def test_serve_answers_a_block_of_an_unknown_event_with_its_json_deny() -> None:
    pytest.importorskip("h11")
    from tests.cli.test_cli_serve import post_once, serving

    async def guard(input: UntypedInput) -> UntypedOutput:
        return UntypedOutput(permission_decision="deny", permission_decision_reason="no")

    registry = HookRegistry({FUTURE: [HookMatcher(hooks=[guard])]})
    async with serving(registry) as server:
        response = await post_once(server.port, {"session_id": "s", "hook_event_name": FUTURE})
    assert response.status == 200  # a 4xx would be a non-blocking error: the deny lost
    assert json.loads(response.body) == {
        "hookSpecificOutput": {
            "hookEventName": FUTURE,
            "permissionDecision": "deny",
            "permissionDecisionReason": "no",
        }
    }


@pytest.mark.anyio
async def test_tool_aliases_and_if_rules_read_the_untyped_payload(tmp_path: Path) -> None:
    got = tmp_path / "got.json"
    hook = CommandHook(command=f"cat > {got}", if_rule="Bash(rm *)")
    registry = HookRegistry(
        {FUTURE: [HookMatcher(matcher="Bash", hooks=[hook])]}, tool_aliases={"shell": "Bash"}
    )
    async with registry.session(session_id="s", cwd=str(tmp_path)) as session:
        ls = {"tool_name": "shell", "tool_input": {"command": "ls"}}
        await session.dispatch(UntypedInput(event_name=FUTURE, extra=ls))
        assert not got.exists()  # the if rule did not match
        rm = {"tool_name": "shell", "tool_input": {"command": "rm -rf build"}}
        await session.dispatch(UntypedInput(event_name=FUTURE, extra=rm))
    sent = json.loads(got.read_text())
    assert sent["tool_name"] == "Bash" and sent["hook_event_name"] == FUTURE
    assert sent["tool_input"] == {"command": "rm -rf build"}


@pytest.mark.anyio
async def test_a_stream_of_new_event_names_does_not_grow_memory() -> None:
    """A long-running process (the resident server, ``serve``) meets whatever names its
    clients send: what it keeps per event must not grow with the names it has seen."""
    import gc
    import tracemalloc

    registry = HookRegistry({FUTURE: [HookMatcher(hooks=[lambda input: None])]})

    async def dispatch_names(start: int, count: int) -> None:
        for i in range(start, start + count):
            decision = await session.dispatch(UntypedInput(event_name=f"PreFuture{i}Event"))
            assert decision.results == ()

    async with registry.session(session_id="s") as session:
        await dispatch_names(0, 100)  # warm: every lazily built table exists now
        tracemalloc.start()
        try:
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            await dispatch_names(100, 500)
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
    assert grown < 128 * 1024, f"{grown} bytes kept after 500 new event names"
