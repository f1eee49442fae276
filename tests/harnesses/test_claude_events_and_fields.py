"""Claude Code 2.1.332: the event names its settings accept, its three new events
(PreSkillShellCommand, PreModelSwitch, PostModelSwitch) with the real payloads it sends,
and the answer fields its validator accepts.

The data below is copied from the reference ``claude-code-2.1.332-hooks.md`` (the npm
release ``@anthropic-ai/claude-code`` 2.1.332); when that file is present next to the
repository (``../shared/reference/docs``), a test checks the copy is still exact.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from agent_hooks import (
    HookEvent,
    HookMatcher,
    HookRegistry,
    MessageDisplayInput,
    MessageDisplayOutput,
    PostModelSwitchInput,
    PostModelSwitchOutput,
    PreModelSwitchInput,
    PreModelSwitchOutput,
    PreSkillShellCommandInput,
    PreSkillShellCommandOutput,
    UserPromptExpansionOutput,
    decode_input,
    decode_output,
    encode_input,
    encode_output,
    parse_event,
)
from agent_hooks._events._capabilities import CAPABILITIES
from agent_hooks._wire._fields import field_codecs
from tests.cli.test_cli_run import Workspace, answer, cmd
from tests.cli_inprocess import cli_in_process
from tests.dialect_helpers import InProcessWorkspace

REFERENCE = (
    Path(__file__).resolve().parents[3]
    / "shared"
    / "reference"
    / "docs"
    / "claude-code-2.1.332-hooks.md"
)

CLAUDE_CODE_VERSION = "2.1.332"

SETTINGS_EVENTS = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionRequest",
    "PermissionDenied",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
    "Setup",
    "PreSkillShellCommand",
]
"""Every hook event name Claude Code 2.1.332's settings accept, in its order."""

PAYLOADS: dict[str, dict[str, Any]] = {
    "PreSkillShellCommand": {
        "session_id": "23b0b288-f24a-4a93-9e3c-f08d08e4eeb9",
        "transcript_path": "/home/dev/cc/runs/capF_command/home/.claude/projects/"
        "-home-dev-cc-runs-capF-command-proj/23b0b288-f24a-4a93-9e3c-f08d08e4eeb9.jsonl",
        "cwd": "/home/dev/cc/runs/capF_command/proj",
        "prompt_id": "cd5a77fa-b95e-41a0-9dcf-1caecb365be8",
        "permission_mode": "default",
        "effort": {"level": "medium"},
        "hook_event_name": "PreSkillShellCommand",
        "tool_name": "Bash",
        "tool_input": {"command": "echo from-skill-shell"},
        "tool_use_id": "ed1ef481-ad9a-4ad6-8171-91a7adddf11d:inner:preamble-0",
        "command_name": "hello",
        "command_source": "projectSettings",
        "invoked_by": "user",
    },
    "PreModelSwitch": {
        "session_id": "57948015-9346-406e-8309-f5d89c1ddb92",
        "transcript_path": "/home/dev/cc/runs/capI_model/home/.claude/projects/"
        "-home-dev-cc-runs-capI-model-proj/57948015-9346-406e-8309-f5d89c1ddb92.jsonl",
        "cwd": "/home/dev/cc/runs/capI_model/proj",
        "prompt_id": "7631c0d4-7219-42e8-94d3-85cf53318494",
        "hook_event_name": "PreModelSwitch",
        "from_model": "claude-opus-5-5",
        "to_model": "claude-haiku-5-5",
        "requested_model": "haiku",
        "source": "command",
        "context_tokens": 0,
        "prompt_cache_warm": False,
        "cache_ttl": "5m",
        "estimated_cache_write_usd": 0,
        "pricing": "catalog",
    },
    "PostModelSwitch": {
        "session_id": "57948015-9346-406e-8309-f5d89c1ddb92",
        "transcript_path": "/home/dev/cc/runs/capI_model/home/.claude/projects/"
        "-home-dev-cc-runs-capI-model-proj/57948015-9346-406e-8309-f5d89c1ddb92.jsonl",
        "cwd": "/home/dev/cc/runs/capI_model/proj",
        "prompt_id": "7631c0d4-7219-42e8-94d3-85cf53318494",
        "hook_event_name": "PostModelSwitch",
        "from_model": "claude-opus-5-5",
        "to_model": "claude-haiku-5-5",
        "requested_model": "haiku",
        "source": "command",
        "context_tokens": 0,
        "prompt_cache_warm": False,
        "cache_ttl": "5m",
        "estimated_cache_write_usd": 0,
        "pricing": "catalog",
    },
}
"""The real payloads of the three events added since 2.1.240, as the CLI sent them."""

ANSWER_FIELDS: dict[str, set[str]] = {
    "CwdChanged": {"watchPaths"},
    "Elicitation": {"action", "content"},
    "ElicitationResult": {"action", "content"},
    "FileChanged": {"watchPaths"},
    "MessageDisplay": {"displayContent"},
    "Notification": {"additionalContext"},
    "PermissionDenied": {"retry"},
    "PermissionRequest": {"decision"},
    "PostModelSwitch": {"additionalContext"},
    "PostToolBatch": {"additionalContext"},
    "PostToolUse": {
        "additionalContext",
        "classifierContext",
        "updatedToolOutput",
        "updatedMCPToolOutput",
    },
    "PostToolUseFailure": {"additionalContext"},
    "PreModelSwitch": {"permissionDecision", "permissionDecisionReason"},
    "PreSkillShellCommand": {"permissionDecision", "permissionDecisionReason", "updatedInput"},
    # permissionDisplay is "@internal Desktop host only": not typed
    "PreToolUse": {
        "permissionDecision",
        "permissionDecisionReason",
        "updatedInput",
        "additionalContext",
    },
    "SessionStart": {
        "additionalContext",
        "initialUserMessage",
        "sessionTitle",
        "watchPaths",
        "reloadSkills",
    },
    "Setup": {"additionalContext"},
    "Stop": {"additionalContext"},
    "SubagentStart": {"additionalContext"},
    "SubagentStop": {"additionalContext"},
    "UserPromptExpansion": {"additionalContext", "suppressOriginalPrompt"},
    "UserPromptSubmit": {"additionalContext", "sessionTitle", "suppressOriginalPrompt"},
    "WorktreeCreate": {"worktreePath"},
}
"""hookSpecificOutput keys (besides ``hookEventName``) of each event's 2.1.332 schema."""

NOT_TYPED: set[tuple[str, str]] = set()
"""Fields 2.1.332's schema accepts that this version does not type (none)."""

DOCKER_ONLY_ANSWER_FIELDS = {
    ("PreToolUse", "metadata"),
    ("PermissionRequest", "metadata"),
    ("WorktreeCreate", "additionalContext"),
    ("PreCompact", "additionalContext"),
}
"""Event-specific answer fields agent_hooks types for Docker Agent that 2.1.332's schema
for the event does not list."""


# ------------------------------------------------------------- the reference


def _reference() -> str:
    if not REFERENCE.is_file():
        pytest.skip("the Claude Code 2.1.332 reference is not next to the repository")
    return REFERENCE.read_text()


def _top_level_keys(body: str) -> set[str]:
    """The keys of a zod object body (``a:r(),b:U([...]).optional()``), outside any
    brackets or string."""
    keys: set[str] = set()
    depth, start, quote = 0, 0, ""
    for i, ch in enumerate(body + ","):
        if quote:
            quote = "" if ch == quote and body[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            keys.add(body[start:i].split(":", 1)[0])
            start = i + 1
    return keys


def test_event_list_is_the_reference_list() -> None:
    text = _reference()
    line = text.split("## Events accepted in settings (2.1.332)\n", 1)[1].split("\n", 1)[0]
    listed = line.split(" (new since", 1)[0]
    names = [n.strip().strip("*") for n in listed.split(",")]
    assert names == SETTINGS_EVENTS


def test_payloads_are_the_reference_payloads() -> None:
    text = _reference()
    block = text.split("## Real payloads of the new events\n```json\n", 1)[1].split("```", 1)[0]
    found = [json.loads(line) for line in block.splitlines() if line.strip()]
    assert found == list(PAYLOADS.values())


def test_answer_fields_are_the_reference_schemas() -> None:
    text = _reference()
    schemas = text.split("## Hook-output schemas", 1)[1]
    found: dict[str, set[str]] = {}
    for event, body in re.findall(r"^## (\w+)\n(.+)$", schemas, flags=re.M):
        found[event] = _top_level_keys(body) - {"hookEventName", "permissionDisplay"}
    assert found == ANSWER_FIELDS


# ------------------------------------------------------ every name it accepts


@pytest.mark.parametrize("name", SETTINGS_EVENTS)
def test_every_event_claude_code_accepts_is_typed(name: str) -> None:
    # Every name Claude Code 2.1.332's settings accept is a typed event of this version
    # (none needs the untyped pass-through), with classes and a capability row.
    event = parse_event(name)
    assert event.value == name
    spec = CAPABILITIES[event]
    assert spec.input_type.event is event
    assert spec.output_type.event is event


def test_the_list_has_no_duplicates_and_all_are_known() -> None:
    assert len(set(SETTINGS_EVENTS)) == len(SETTINGS_EVENTS) == 34
    assert set(SETTINGS_EVENTS) <= {e.value for e in HookEvent}


@pytest.mark.parametrize("event", sorted(ANSWER_FIELDS))
def test_answer_fields_match_the_2_1_332_schemas(event: str) -> None:
    cls = CAPABILITIES[HookEvent(event)].output_type
    specific = {fc.claude_key for fc in field_codecs(cls, True) if fc.info.specific}
    ours = {k for k in specific if (event, k) not in DOCKER_ONLY_ANSWER_FIELDS}
    assert ours == {k for k in ANSWER_FIELDS[event] if (event, k) not in NOT_TYPED}


def test_events_without_a_2_1_332_answer_schema_have_no_claude_specific_fields() -> None:
    for name in set(SETTINGS_EVENTS) - set(ANSWER_FIELDS):
        cls = CAPABILITIES[HookEvent(name)].output_type
        specific = {fc.claude_key for fc in field_codecs(cls, True) if fc.info.specific}
        assert {(name, k) for k in specific} <= DOCKER_ONLY_ANSWER_FIELDS, name


# ------------------------------------------------------------ decoding


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_real_payloads_decode_with_no_diagnostics(name: str) -> None:
    payload = PAYLOADS[name]
    decoded = decode_input(json.dumps(payload))
    assert decoded.diagnostics == ()
    assert decoded.input.event is HookEvent(name)
    assert decoded.input.extra == {}  # every field is typed
    assert encode_input(decoded.input) == payload


def test_decoded_fields() -> None:
    skill = decode_input(PAYLOADS["PreSkillShellCommand"]).input
    assert isinstance(skill, PreSkillShellCommandInput)
    assert skill.tool_name == "Bash"
    assert skill.tool_input == {"command": "echo from-skill-shell"}
    assert (skill.command_name, skill.command_source, skill.invoked_by) == (
        "hello",
        "projectSettings",
        "user",
    )
    assert skill.effort == {"level": "medium"}
    switch = decode_input(PAYLOADS["PreModelSwitch"]).input
    assert isinstance(switch, PreModelSwitchInput)
    assert (switch.from_model, switch.to_model, switch.requested_model) == (
        "claude-opus-5-5",
        "claude-haiku-5-5",
        "haiku",
    )
    assert switch.context_tokens == 0 and switch.prompt_cache_warm is False
    assert switch.estimated_cache_write_usd == 0
    after = decode_input(PAYLOADS["PostModelSwitch"]).input
    assert isinstance(after, PostModelSwitchInput)
    assert after.cache_ttl == "5m" and after.pricing == "catalog"


# ------------------------------------------------------------- answers


def test_answers_decode_and_encode_in_the_claude_shape() -> None:
    cases: list[tuple[Any, dict[str, Any]]] = [
        (
            PreSkillShellCommandOutput(permission_decision="deny", permission_decision_reason="no"),
            {"permissionDecision": "deny", "permissionDecisionReason": "no"},
        ),
        (
            PreSkillShellCommandOutput(updated_input={"command": "true"}),
            {"updatedInput": {"command": "true"}},
        ),
        (PreModelSwitchOutput(permission_decision="ask"), {"permissionDecision": "ask"}),
        (PostModelSwitchOutput(additional_context="ctx"), {"additionalContext": "ctx"}),
        (
            UserPromptExpansionOutput(decision="block", suppress_original_prompt=True),
            {"suppressOriginalPrompt": True},
        ),
    ]
    for output, specific in cases:
        event = type(output).event
        encoded = encode_output(output)
        assert encoded["hookSpecificOutput"] == {"hookEventName": event.value, **specific}
        decoded = decode_output(event, json.dumps(encoded))
        assert decoded.diagnostics == ()
        assert decoded.output == output


def test_pre_model_switch_refuses_defer() -> None:
    answer = {
        "hookSpecificOutput": {"hookEventName": "PreModelSwitch", "permissionDecision": "defer"}
    }
    decoded = decode_output(HookEvent.PRE_MODEL_SWITCH, json.dumps(answer))
    assert decoded.output is not None
    assert getattr(decoded.output, "permission_decision", None) is None
    assert decoded.diagnostics


@pytest.mark.parametrize(
    ("output", "refused"),
    [
        (PreSkillShellCommandOutput(), False),
        (PreSkillShellCommandOutput(permission_decision="allow"), False),
        (PreSkillShellCommandOutput(permission_decision="ask"), True),
        (PreSkillShellCommandOutput(permission_decision="defer"), True),
        (PreSkillShellCommandOutput(permission_decision="deny"), True),
        (PreSkillShellCommandOutput(updated_input={}), True),
        (PreSkillShellCommandOutput(permission_decision="allow", updated_input={"a": 1}), True),
    ],
)
def test_what_keeps_a_skill_command_from_running(
    output: PreSkillShellCommandOutput, refused: bool
) -> None:
    assert output.keeps_command_from_running is refused


# ------------------------------------------------------------ dispatch


@pytest.mark.anyio
async def test_pre_skill_shell_command_most_restrictive_wins() -> None:
    async def allow(input: PreSkillShellCommandInput) -> PreSkillShellCommandOutput:
        return PreSkillShellCommandOutput(permission_decision="allow")

    async def ask(input: PreSkillShellCommandInput) -> PreSkillShellCommandOutput:
        return PreSkillShellCommandOutput(
            permission_decision="ask", permission_decision_reason="check " + input.command_name
        )

    async def rewrite(input: PreSkillShellCommandInput) -> PreSkillShellCommandOutput:
        return PreSkillShellCommandOutput(updated_input={"command": "true"})

    registry = HookRegistry(
        {"PreSkillShellCommand": [HookMatcher(matcher="Bash", hooks=[allow, ask, rewrite])]}
    )
    payload = decode_input(PAYLOADS["PreSkillShellCommand"]).input
    async with registry.session() as session:
        decision = await session.dispatch(payload)
    assert decision.output.permission_decision == "ask"
    assert decision.output.permission_decision_reason == "check hello"
    assert decision.output.updated_input == {"command": "true"}  # passed on, never applied
    assert decision.output.keeps_command_from_running
    assert decision.input.tool_input == {"command": "echo from-skill-shell"}


@pytest.mark.anyio
async def test_message_display_handlers_chain_and_an_unchanged_answer_keeps_a_rewrite() -> None:
    async def redact(input: MessageDisplayInput) -> MessageDisplayOutput:
        return MessageDisplayOutput(display_content=(input.delta or "").replace("sk-123", "***"))

    async def unchanged(input: MessageDisplayInput) -> MessageDisplayOutput:
        return MessageDisplayOutput(display_content=input.delta)

    async def upper(input: MessageDisplayInput) -> MessageDisplayOutput:
        return MessageDisplayOutput(display_content=(input.delta or "").upper())

    registry = HookRegistry({"MessageDisplay": [HookMatcher(hooks=[redact, unchanged, upper])]})
    async with registry.session() as session:
        decision = await session.dispatch(MessageDisplayInput(delta="key sk-123\n", final=True))
    assert decision.output.display_content == "KEY ***\n"
    assert not [d for d in decision.diagnostics if d.code.value == "overridden"]

    registry = HookRegistry({"MessageDisplay": [HookMatcher(hooks=[unchanged, redact])]})
    async with registry.session() as session:
        decision = await session.dispatch(MessageDisplayInput(delta="key sk-123\n"))
    assert decision.output.display_content == "key ***\n"


# -------------------------------------------------- agent-hooks run, as Claude Code


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    """``run`` in this process: the payload a hook gets and the answer are the point
    (``run`` as a process is tests/cli/test_cli_run.py's)."""
    return InProcessWorkspace(tmp_path)


def _capture(ws: Workspace, name: str, then: str = "exit 0") -> tuple[str, Path]:
    """A command hook that saves its stdin to a file, then runs ``then``."""
    out = ws.tmp / f"{name}.received.json"
    return f"cat > '{out}'; {then}", out


def _real(ws: Workspace, name: str) -> dict[str, Any]:
    """The real payload, with its cwd pointed at the workspace's project (command hooks
    run in the payload's cwd)."""
    return {**PAYLOADS[name], "cwd": str(ws.project)}


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_run_passes_every_real_payload_to_its_hook_unchanged(ws: Workspace, name: str) -> None:
    command, received = _capture(ws, name)
    matcher = {"matcher": "Bash"} if name == "PreSkillShellCommand" else {}
    config = ws.config({name: [{**matcher, "hooks": [cmd(command)]}]})
    payload = _real(ws, name)
    proc = ws.run("--config", config, "--fail-closed", payload=payload)
    assert answer(proc) == {}
    assert proc.stderr == ""
    assert json.loads(received.read_text()) == payload


def test_run_pre_skill_shell_command_exit_2_is_a_deny(ws: Workspace) -> None:
    command, received = _capture(ws, "skill", "echo 'no inline shell' >&2; exit 2")
    config = ws.config({"PreSkillShellCommand": [{"matcher": "Bash", "hooks": [cmd(command)]}]})
    proc = ws.run("--config", config, payload=_real(ws, "PreSkillShellCommand"))
    assert answer(proc) == {
        "hookSpecificOutput": {
            "hookEventName": "PreSkillShellCommand",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no inline shell",
        }
    }
    assert received.is_file()


def test_run_pre_skill_shell_command_json_deny(ws: Workspace) -> None:
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreSkillShellCommand",
            "permissionDecision": "deny",
            "permissionDecisionReason": "echo is not allowed in skills",
        }
    }
    allow = {
        "hookSpecificOutput": {
            "hookEventName": "PreSkillShellCommand",
            "permissionDecision": "allow",
        }
    }
    config = ws.config(
        {
            "PreSkillShellCommand": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        cmd(f"cat >/dev/null; printf '%s' '{json.dumps(allow)}'"),
                        cmd(f"cat >/dev/null; printf '%s' '{json.dumps(deny)}'"),
                    ],
                }
            ]
        }
    )
    proc = ws.run("--config", config, payload=_real(ws, "PreSkillShellCommand"))
    assert answer(proc) == deny


def test_run_pre_skill_shell_command_matcher_and_if_rule(ws: Workspace) -> None:
    command, received = _capture(ws, "skill", "exit 2")
    config = ws.config(
        {
            "PreSkillShellCommand": [
                {"matcher": "Edit", "hooks": [cmd("exit 2")]},
                {"matcher": "Bash", "hooks": [cmd(command, **{"if": "Bash(rm *)"})]},
            ]
        }
    )
    proc = ws.run("--config", config, payload=_real(ws, "PreSkillShellCommand"))
    assert answer(proc) == {}
    assert not received.exists()
    payload = {**_real(ws, "PreSkillShellCommand"), "tool_input": {"command": "rm -rf x"}}
    proc = ws.run("--config", config, payload=payload)
    assert answer(proc)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_run_pre_model_switch_deny_and_exit_2(ws: Workspace) -> None:
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreModelSwitch",
            "permissionDecision": "deny",
            "permissionDecisionReason": "stay on opus",
        }
    }
    config = ws.config(
        {"PreModelSwitch": [{"hooks": [cmd(f"cat >/dev/null; printf '%s' '{json.dumps(deny)}'")]}]}
    )
    assert answer(ws.run("--config", config, payload=_real(ws, "PreModelSwitch"))) == deny
    config = ws.config(
        {"PreModelSwitch": [{"hooks": [cmd("cat >/dev/null; echo 'stay on opus' >&2; exit 2")]}]}
    )
    assert answer(ws.run("--config", config, payload=_real(ws, "PreModelSwitch"))) == deny


def test_run_post_model_switch_context(ws: Workspace) -> None:
    reply = {"hookSpecificOutput": {"hookEventName": "PostModelSwitch", "additionalContext": "x"}}
    config = ws.config(
        {
            "PostModelSwitch": [
                {"hooks": [cmd(f"cat >/dev/null; printf '%s' '{json.dumps(reply)}'")]},
                {"hooks": [cmd("cat >/dev/null; echo 'shown to the user' >&2; exit 2")]},
            ]
        }
    )
    got = answer(ws.run("--config", config, payload=_real(ws, "PostModelSwitch")))
    assert got["hookSpecificOutput"] == reply["hookSpecificOutput"]
    assert "decision" not in got and "hookSpecificOutput" in got


def test_check_accepts_a_settings_file_naming_the_new_events(ws: Workspace) -> None:
    config = ws.config(
        {name: [{"hooks": [cmd("true")]}] for name in PAYLOADS},
        name="settings.json",
    )
    proc = cli_in_process(
        ["check", "--config", str(config)],
        env=dict(os.environ),
        cwd=ws.project,  # the file is outside the project: no trust needed
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "3 handlers active, 0 disabled; configuration OK." in out, out
    for name in PAYLOADS:
        assert name in out


def test_input_classes_are_frozen_values() -> None:
    skill = decode_input(PAYLOADS["PreSkillShellCommand"]).input
    assert attrs.evolve(skill, tool_name="Bash") == skill
