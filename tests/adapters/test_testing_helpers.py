"""agent_hooks.testing: payload factories for every event and every dialect of the
dialect table (valid against the JSON Schemas of ``typings/``), overrides and their
errors, run_hook / arun_hook on every kind of hook, the pytest plugin's fixtures, and
the example test file in ``examples/testing``."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agent_hooks import (
    CommandHook,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
    StopInput,
    UnknownEventError,
    UntypedInput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
    load,
    parse_event,
)
from agent_hooks._events._capabilities import CAPABILITIES
from agent_hooks._wire._dialects import DIALECTS
from agent_hooks.testing import (
    SESSION_ID,
    HookRun,
    arun_hook,
    hook_input,
    payload,
    payload_fields,
    run_hook,
)

ROOT = Path(__file__).resolve().parents[2]
TYPINGS = ROOT / "typings"
GUARD = ROOT / "examples" / "hooks" / "block_rm_rf.sh"


@functools.cache
def _validator(path: Path) -> Any:
    """The validator of the schema file at ``path``, the schema itself checked once
    (``jsonschema.validate`` checks it again on every call)."""
    schema = json.loads(path.read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _schema(event: str) -> Path:
    return TYPINGS / f"{event}.input.schema.json"


# ------------------------------------------------------------------ payloads


def canonical(data: dict[str, Any], dialect: str, event: str) -> dict[str, Any]:
    """The payload as the canonical (Claude-shaped) JSON the schemas describe: as it is
    in a canonical wire format, else read back from the harness's own format by its
    row of the dialect table (the event it was written as, as the translator says)."""
    wire = DIALECTS[dialect].native
    named = data.get(wire.event_key) if wire is not None and wire.event_key else None
    own = wire.by_name(named) if wire is not None and isinstance(named, str) else None
    # (a harness that keeps Claude Code's event names, Factory's, still has its own tools)
    if own is None and data.get("hook_event_name") in (
        event,
        CAPABILITIES[parse_event(event)].event.snake,
    ):
        return data
    from agent_hooks._wire._translate import to_canonical

    assert wire is not None, f"{dialect}: a payload in no known wire format: {data}"
    native = own or wire.for_event(event)  # (Windsurf names one event per kind of tool)
    assert native is not None
    return to_canonical(data, wire, native)


def native_schema(dialect: str, event: str) -> Path | None:
    """The JSON Schema file of the payload in the harness's own format
    (``typings/dialects/<dialect>.<native event>.input.schema.json``), when it has one."""
    wire = DIALECTS[dialect].native
    native = wire.for_event(event) if wire is not None else None
    if native is None:
        return None
    path = TYPINGS / "dialects" / f"{dialect}.{native.name}.input.schema.json"
    return path if path.is_file() else None


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_every_event_s_payload_in_each_dialect_is_valid_against_its_schema(dialect: str) -> None:
    """New rows of the dialect table and new events are covered without a change here.
    A harness with a wire format of its own is checked against its own schema where
    ``typings/dialects/`` has one, and on what its payload says, read back into the
    canonical form, against the canonical schema."""
    for event in CAPABILITIES:
        data = payload(event, dialect=dialect)
        own = native_schema(dialect, event.value)
        if own is not None:
            _validator(own).validate(data)
        _validator(_schema(event.value)).validate(canonical(data, dialect, event.value))
        assert SESSION_ID in data.values()


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_tool_events_carry_a_realistic_tool_call(dialect: str) -> None:
    data = canonical(payload("PreToolUse", dialect=dialect), dialect, "PreToolUse")
    assert data["tool_name"] == "Bash" and data["tool_input"] == {"command": "npm test"}
    assert str(data["tool_use_id"]).startswith("toolu_")
    post = canonical(
        payload("PostToolUse", dialect=dialect, tool_name="Read"), dialect, "PostToolUse"
    )
    assert post["tool_input"]["file_path"].endswith("/README.md")
    assert post["tool_response"]["success"] is True


def test_the_dialect_spells_the_event_name() -> None:
    assert payload("PreToolUse")["hook_event_name"] == "PreToolUse"
    assert payload("pre_tool_use", dialect="docker")["hook_event_name"] == "pre_tool_use"


def test_overrides_fields_tool_input_keys_and_removals(tmp_path: Path) -> None:
    data = payload("PreToolUse", tool_name="Bash", command="rm -rf /", cwd=tmp_path)
    assert data["tool_input"] == {"command": "rm -rf /"}
    assert data["cwd"] == str(tmp_path)
    edit = payload("PreToolUse", tool_name="Edit", file_path=".env")
    assert edit["tool_input"]["file_path"] == ".env" and "old_string" in edit["tool_input"]
    own = payload("PreToolUse", tool_name="mcp__db__query", sql="select 1")
    assert own["tool_input"] == {"sql": "select 1"}
    assert "transcript_path" not in payload("Stop", transcript_path=None)
    assert payload("UserPromptSubmit", prompt="hi", extra={"x_trace": 7})["x_trace"] == 7


def test_bad_overrides_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="Stop payloads have no field 'command'"):
        payload("Stop", command="ls")
    with pytest.raises(ValueError, match="stop_hook_active"):
        payload("Stop", stop_hook_active="yes")
    with pytest.raises(UnknownEventError, match="did you mean PreToolUse"):
        payload("PreToolUze")
    with pytest.raises(ValueError, match="unknown dialect"):
        payload("Stop", dialect="nope")


def test_an_event_this_version_does_not_type_gets_an_untyped_payload() -> None:
    data = payload("PreFutureThing", tool_name="Bash")
    assert data["hook_event_name"] == "PreFutureThing" and data["tool_name"] == "Bash"
    assert payload_fields("PreFutureThing") == ()
    assert isinstance(hook_input("PreFutureThing"), UntypedInput)


def test_hook_input_is_the_typed_input() -> None:
    typed = hook_input("PreToolUse", command="ls")
    assert isinstance(typed, PreToolUseInput) and typed.tool_input == {"command": "ls"}
    assert isinstance(hook_input("Stop"), StopInput)
    assert "tool_input" in payload_fields("PreToolUse")


# ------------------------------------------------------------------ running


def test_run_hook_runs_a_script_by_its_path_a_command_and_a_handler() -> None:
    blocked = payload("PreToolUse", command="rm -rf /")
    for hook in (GUARD, str(GUARD), CommandHook(command=str(GUARD))):
        run = run_hook(hook, blocked)
        assert isinstance(run, HookRun) and run.blocked
        assert run.reason is not None and "rm -rf" in run.reason
        assert run.verdicts == ("deny",)
        assert run.results[0].handler is not None
        assert run.results[0].handler.kind == "command"
    assert not run_hook(GUARD, payload("PreToolUse", command="ls")).blocked
    assert run_hook("exit 2", blocked).blocked  # a command line


def test_run_hook_runs_a_callback_and_reports_each_handler() -> None:
    async def context(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        return UserPromptSubmitOutput(additional_context=f"you said {input.prompt}")

    run = run_hook(context, payload("UserPromptSubmit", prompt="hi"))
    assert not run.blocked and run.context == "you said hi"
    assert isinstance(run.output, UserPromptSubmitOutput)
    assert run.answer["hookSpecificOutput"]["additionalContext"] == "you said hi"
    assert run.verdicts == (None,) and run.exit_code == 0


def test_run_hook_takes_a_typed_input_a_matcher_and_registry_options() -> None:
    async def deny(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")

    typed = hook_input("PreToolUse", tool_name="Read")
    assert run_hook(deny, typed).blocked
    assert not run_hook(deny, typed, matcher="Bash").blocked
    assert run_hook(deny, json.dumps(payload("PreToolUse")), backend="trio").blocked

    async def broken(input: PreToolUseInput) -> None:
        raise RuntimeError("boom")

    assert not run_hook(broken, typed).blocked
    assert run_hook(broken, typed, on_error="block").blocked


def test_run_hook_runs_a_hook_file_a_registry_and_a_loaded_config(tmp_path: Path) -> None:
    config = tmp_path / "hooks.json"
    config.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": str(GUARD)}]}
                    ]
                }
            }
        )
    )
    data = payload("PreToolUse", command="rm -rf /", cwd=tmp_path)
    run = run_hook(config, data)
    assert run.blocked and run.results[0].handler is not None
    assert run.results[0].handler.source == str(config)
    assert run_hook(load(config, trust=True), data).blocked
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[CommandHook(command=str(GUARD))])]})
    assert run_hook(registry, data).blocked
    with pytest.raises(FileNotFoundError, match=r"missing\.json"):
        run_hook(tmp_path / "missing.json", data)


def test_the_answer_is_in_the_payload_s_wire_format() -> None:
    run = run_hook(GUARD, payload("PreToolUse", command="rm -rf /", dialect="docker"))
    assert run.answer["hook_specific_output"]["permission_decision"] == "deny"


@pytest.mark.anyio
async def test_arun_hook_on_both_backends() -> None:
    run = await arun_hook(GUARD, payload("PreToolUse", command="rm -rf /"))
    assert run.blocked


def test_the_plugin_s_fixtures(hook_payload: Any, run_hook: Any) -> None:
    assert hook_payload is payload
    assert run_hook(GUARD, hook_payload("PreToolUse", command="rm -rf /")).blocked


def test_the_example_test_file_passes() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "examples/testing"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " passed" in proc.stdout and "failed" not in proc.stdout
