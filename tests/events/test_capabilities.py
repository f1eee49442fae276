"""The capability table: one consistent row per event, matching the reference documents."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from agent_hooks import HookEvent, HookOutput, UnknownEventError
from agent_hooks._events._capabilities import (
    CAPABILITIES,
    DOCKER_DEFAULT_TIMEOUT,
    UNIVERSAL_OUTPUT_FIELDS,
    ContextLifetime,
    EventSpec,
    Exit2,
    capability,
)

E = HookEvent
EVENTS = list(HookEvent)
CTX = "additional_context"


def _fields(cls: type) -> set[str]:
    return {a.name for a in attrs.fields(cls)}


def _events_where(predicate: Callable[[EventSpec], bool]) -> set[HookEvent]:
    return {e for e, spec in CAPABILITIES.items() if predicate(spec)}


# --------------------------------------------------------------- structure


def test_one_row_per_event() -> None:
    assert set(CAPABILITIES) == set(HookEvent)
    assert len(CAPABILITIES) == len(HookEvent)
    for event, spec in CAPABILITIES.items():
        assert isinstance(spec, EventSpec)
        assert spec.event is event
        assert spec.summary.strip()


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_capability_accepts_any_spelling(event: HookEvent) -> None:
    assert capability(event) is CAPABILITIES[event]
    assert capability(event.value) is CAPABILITIES[event]
    assert capability(event.snake) is CAPABILITIES[event]


def test_capability_of_unknown_event() -> None:
    with pytest.raises(UnknownEventError):
        capability("PreToolUsed")


# -------------------------------------------------------------- invariants


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_rewrite_fields_exist(event: HookEvent) -> None:
    spec = CAPABILITIES[event]
    if spec.rewrite is None:
        return
    assert spec.rewrite.output_field in _fields(spec.output_type)
    assert spec.rewrite.input_field in _fields(spec.input_type)
    assert spec.rewrite.output_field in spec.honoured_fields


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_matcher_field_exists_on_the_input(event: HookEvent) -> None:
    spec = CAPABILITIES[event]
    if spec.matcher_field is not None:
        assert spec.matcher_field in _fields(spec.input_type)
    if spec.matcher_basename:
        assert spec.matcher_field is not None


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_events_that_cannot_block(event: HookEvent) -> None:
    spec = CAPABILITIES[event]
    if not spec.can_block:
        assert spec.exit2 in (Exit2.USER, Exit2.IGNORED)
        assert not spec.top_level_decision
        assert not spec.fails_closed
        assert not spec.callback_timeout_blocks
        assert not spec.counts_continuations
    else:
        assert spec.exit2 not in (Exit2.USER, Exit2.IGNORED)


def test_observational_events_cannot_block() -> None:
    observational = {
        # Claude Code: "no decision control" and "context only"
        E.WORKTREE_REMOVE,
        E.NOTIFICATION,
        E.SESSION_END,
        E.POST_COMPACT,
        E.INSTRUCTIONS_LOADED,
        E.STOP_FAILURE,
        E.CWD_CHANGED,
        E.DIRECTORY_ADDED,
        E.FILE_CHANGED,
        E.SESSION_START,
        E.SETUP,
        E.SUBAGENT_START,
        E.MESSAGE_DISPLAY,
        E.PERMISSION_DENIED,
        # Docker Agent: observational or transform-only events
        E.TURN_START,
        E.TURN_END,
        E.AFTER_LLM_CALL,
        E.ON_USER_INPUT,
        E.ON_ERROR,
        E.ON_MAX_ITERATIONS,
        E.ON_AGENT_SWITCH,
        E.ON_SESSION_RESUME,
        E.ON_TOOL_APPROVAL_DECISION,
        E.AFTER_COMPACTION,
        E.TOOL_INPUT_TRANSFORM,
        E.TOOL_RESPONSE_TRANSFORM,
    }
    assert {e for e in observational if CAPABILITIES[e].can_block} == set()


def test_blocking_events() -> None:
    assert CAPABILITIES[E.PRE_TOOL_USE].exit2 is Exit2.DENY
    assert CAPABILITIES[E.PERMISSION_REQUEST].exit2 is Exit2.DENY
    assert CAPABILITIES[E.TOOL_GUARD].exit2 is Exit2.DENY
    assert CAPABILITIES[E.USER_PROMPT_SUBMIT].exit2 is Exit2.BLOCK
    assert CAPABILITIES[E.STOP].exit2 is Exit2.CONTINUE
    assert CAPABILITIES[E.SUBAGENT_STOP].exit2 is Exit2.CONTINUE
    assert CAPABILITIES[E.POST_TOOL_USE].exit2 is Exit2.FEEDBACK
    assert CAPABILITIES[E.PRE_COMPACT].exit2 is Exit2.BLOCK
    assert CAPABILITIES[E.PRE_SKILL_SHELL_COMMAND].exit2 is Exit2.DENY
    assert CAPABILITIES[E.PRE_MODEL_SWITCH].exit2 is Exit2.DENY


def test_claude_code_2_1_332_events() -> None:
    skill = CAPABILITIES[E.PRE_SKILL_SHELL_COMMAND]
    assert skill.matcher_field == "tool_name"
    assert skill.rewrite is None  # updatedInput is never applied
    assert {"permission_decision", "updated_input"} <= skill.honoured_fields
    assert "additional_context" not in skill.honoured_fields
    switch = CAPABILITIES[E.PRE_MODEL_SWITCH]
    assert switch.matcher_field is None and switch.context is ContextLifetime.NONE
    assert "permission_decision" in switch.honoured_fields
    after = CAPABILITIES[E.POST_MODEL_SWITCH]
    assert not after.can_block and after.exit2 is Exit2.USER
    assert after.context is ContextLifetime.TURN
    for spec in (skill, switch, after):
        assert spec.default_timeout == 600.0
        assert not spec.top_level_decision and not spec.fails_closed


def test_message_display_chains_its_rewrite() -> None:
    spec = CAPABILITIES[E.MESSAGE_DISPLAY]
    assert spec.chained and not spec.can_block
    assert spec.rewrite is not None
    assert (spec.rewrite.output_field, spec.rewrite.input_field) == ("display_content", "delta")


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_honoured_fields(event: HookEvent) -> None:
    spec = CAPABILITIES[event]
    honoured = spec.honoured_fields
    assert honoured >= UNIVERSAL_OUTPUT_FIELDS
    assert honoured <= _fields(spec.output_type)
    own = _fields(spec.output_type) - _fields(HookOutput)
    assert honoured >= own
    decision = {"decision", "reason"}
    if spec.top_level_decision:
        assert honoured >= decision
    else:
        assert honoured.isdisjoint(decision)


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_plain_stdout_and_context_fields_exist(event: HookEvent) -> None:
    spec = CAPABILITIES[event]
    for field in (spec.plain_stdout, spec.docker_plain_stdout):
        if field is not None:
            assert field in spec.honoured_fields
    if spec.context is not ContextLifetime.NONE:
        assert CTX in spec.honoured_fields


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_chained_events_rewrite(event: HookEvent) -> None:
    spec = CAPABILITIES[event]
    if spec.chained:
        assert spec.rewrite is not None


def test_continuations_are_counted_for_stop_events() -> None:
    assert _events_where(lambda s: s.counts_continuations) == {E.STOP, E.SUBAGENT_STOP}


# ---------------------------------------------------------------- timeouts


def test_timeouts() -> None:
    assert CAPABILITIES[E.USER_PROMPT_SUBMIT].default_timeout == 30.0
    assert CAPABILITIES[E.MESSAGE_DISPLAY].default_timeout == 10.0
    for event in (E.PRE_TOOL_USE, E.POST_TOOL_USE, E.STOP, E.SESSION_START, E.NOTIFICATION):
        assert CAPABILITIES[event].default_timeout == 600.0
    assert EventSpec(event=E.STOP, summary="x").default_timeout == 600.0
    assert DOCKER_DEFAULT_TIMEOUT == 60.0


def test_docker_only_events_default_to_docker_timeout() -> None:
    docker_only = {
        E.TOOL_GUARD,
        E.TOOL_INPUT_TRANSFORM,
        E.TOOL_RESPONSE_TRANSFORM,
        E.USER_STEERING_MESSAGES_SUBMIT,
        E.USER_FOLLOWUP_SUBMIT,
        E.TURN_START,
        E.TURN_END,
        E.BEFORE_LLM_CALL,
        E.AFTER_LLM_CALL,
        E.BEFORE_COMPACTION,
        E.AFTER_COMPACTION,
        E.ON_USER_INPUT,
        E.ON_ERROR,
        E.ON_MAX_ITERATIONS,
        E.ON_AGENT_SWITCH,
        E.ON_SESSION_RESUME,
        E.ON_TOOL_APPROVAL_DECISION,
    }
    for event in docker_only:
        assert CAPABILITIES[event].default_timeout == DOCKER_DEFAULT_TIMEOUT, event
    for event in set(HookEvent) - docker_only:
        assert CAPABILITIES[event].default_timeout in (600.0, 30.0, 10.0), event


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_timeouts_are_positive(event: HookEvent) -> None:
    assert CAPABILITIES[event].default_timeout > 0


# ------------------------------------------------------------- plain stdout


def test_plain_stdout_context_in_claude() -> None:
    assert _events_where(lambda s: s.plain_stdout == CTX) == {
        E.SESSION_START,
        E.USER_PROMPT_SUBMIT,
        E.USER_PROMPT_EXPANSION,
    }
    assert CAPABILITIES[E.WORKTREE_CREATE].plain_stdout == "worktree_path"
    assert _events_where(lambda s: s.plain_stdout is not None) == {
        E.SESSION_START,
        E.USER_PROMPT_SUBMIT,
        E.USER_PROMPT_EXPANSION,
        E.WORKTREE_CREATE,
    }


def test_plain_stdout_context_in_docker() -> None:
    named = {E.TURN_START, E.POST_TOOL_USE, E.PRE_COMPACT, E.STOP, E.SESSION_START}
    named.add(E.USER_PROMPT_SUBMIT)
    docker = _events_where(lambda s: s.docker_plain_stdout == CTX)
    assert named <= docker
    # the Docker Agent reference lists these, and worktree_create's stdout goes to the CLI user
    assert docker == named | {
        E.USER_STEERING_MESSAGES_SUBMIT,
        E.USER_FOLLOWUP_SUBMIT,
        E.WORKTREE_CREATE,
    }


# ------------------------------------------------------------ failure policy


def test_fails_closed() -> None:
    assert _events_where(lambda s: s.fails_closed) == {E.PRE_TOOL_USE, E.TOOL_GUARD}


def test_callback_timeout_blocks() -> None:
    assert CAPABILITIES[E.PRE_TOOL_USE].callback_timeout_blocks
    for event in _events_where(lambda s: s.callback_timeout_blocks):
        assert CAPABILITIES[event].can_block


# ------------------------------------------------------------------ context


def test_context_lifetimes() -> None:
    assert CAPABILITIES[E.SESSION_START].context is ContextLifetime.SESSION
    assert CAPABILITIES[E.USER_PROMPT_SUBMIT].context is ContextLifetime.TURN
    assert CAPABILITIES[E.TURN_START].context is ContextLifetime.TURN
    assert CAPABILITIES[E.PRE_TOOL_USE].context is ContextLifetime.TOOL
    assert CAPABILITIES[E.POST_TOOL_USE].context is ContextLifetime.TOOL
    assert CAPABILITIES[E.NOTIFICATION].context is ContextLifetime.TURN  # (2.1.332)
    assert CAPABILITIES[E.SESSION_END].context is ContextLifetime.NONE


def test_matchers() -> None:
    tool_events = {
        E.PRE_TOOL_USE,
        E.POST_TOOL_USE,
        E.POST_TOOL_USE_FAILURE,
        E.PERMISSION_REQUEST,
        E.PERMISSION_DENIED,
        E.PRE_SKILL_SHELL_COMMAND,
        E.TOOL_GUARD,
        E.TOOL_INPUT_TRANSFORM,
        E.TOOL_RESPONSE_TRANSFORM,
        E.ON_TOOL_APPROVAL_DECISION,
    }
    assert _events_where(lambda s: s.matcher_field == "tool_name") == tool_events
    assert CAPABILITIES[E.SESSION_START].matcher_field == "source"
    assert CAPABILITIES[E.NOTIFICATION].matcher_field == "notification_type"
    assert CAPABILITIES[E.FILE_CHANGED].matcher_basename
    for event in (E.STOP, E.USER_PROMPT_SUBMIT, E.POST_TOOL_BATCH, E.TEAMMATE_IDLE):
        assert CAPABILITIES[event].matcher_field is None
