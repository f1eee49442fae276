"""The event classes and event names: one input and one output class per event, documented
fields, frozen/slotted/keyword-only classes, and every spelling of an event name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from agent_hooks import HookEvent, HookInput, HookOutput, UnknownEventError, parse_event
from agent_hooks._events._capabilities import CAPABILITIES, capability
from agent_hooks._events._catalog import INPUT_TYPES, OUTPUT_TYPES
from agent_hooks._events._model import field_info
from agent_hooks._wire._fields import field_codecs
from tests.events.test_wire_inputs import minimal_input, sample_object

EVENTS = list(HookEvent)


def _nested_classes(cls: type, output: bool, seen: set[type]) -> Iterator[type]:
    """``cls`` and every attrs class reachable through its fields' types."""
    if cls in seen:
        return
    seen.add(cls)
    yield cls
    for fc in field_codecs(cls, output):
        stack = [fc.type]
        while stack:
            t = stack.pop()
            if t.kind == "object" and t.cls is not None:
                yield from _nested_classes(t.cls, output, seen)
            elif t.kind in ("list", "map", "union"):
                stack.extend(t.values)


def _all_classes() -> list[tuple[type, bool]]:
    seen: set[type] = set()
    found: list[tuple[type, bool]] = []
    for ev in EVENTS:
        found += [(c, False) for c in _nested_classes(INPUT_TYPES[ev], False, seen)]
        found += [(c, True) for c in _nested_classes(OUTPUT_TYPES[ev], True, seen)]
    found += [(HookInput, False), (HookOutput, True)]
    return found


ALL_CLASSES = _all_classes()
IDS = [c.__name__ for c, _ in ALL_CLASSES]


# ------------------------------------------------------------ completeness


def test_every_event_has_classes_and_a_capability_row() -> None:
    assert set(INPUT_TYPES) == set(HookEvent)
    assert set(OUTPUT_TYPES) == set(HookEvent)
    assert set(CAPABILITIES) == set(HookEvent)


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_event_classes_belong_to_their_event(event: HookEvent) -> None:
    inp, out = INPUT_TYPES[event], OUTPUT_TYPES[event]
    assert issubclass(inp, HookInput)
    assert issubclass(out, HookOutput)
    assert inp.event is event
    assert out.event is event
    assert inp.output_type is out
    assert inp.__name__ == f"{event.value}Input"
    assert out.__name__ == f"{event.value}Output"
    spec = CAPABILITIES[event]
    assert spec.event is event
    assert spec.input_type is inp
    assert spec.output_type is out
    assert minimal_input(event).hook_event_name == event.value


def test_classes_are_distinct() -> None:
    assert len(set(INPUT_TYPES.values())) == len(HookEvent)
    assert len(set(OUTPUT_TYPES.values())) == len(HookEvent)


def test_nested_classes_are_found() -> None:
    names = set(IDS)
    assert {"PermissionRequestDecision", "BatchToolCall", "BackgroundTask", "LLMUsage"} <= names


# ------------------------------------------------------------ documentation


@pytest.mark.parametrize(("cls", "output"), ALL_CLASSES, ids=IDS)
def test_every_field_is_documented(cls: type, output: bool) -> None:
    undocumented = [a.name for a in attrs.fields(cls) if not field_info(a).doc.strip()]
    assert undocumented == []


@pytest.mark.parametrize(("cls", "output"), ALL_CLASSES, ids=IDS)
def test_every_class_is_documented(cls: type, output: bool) -> None:
    doc = cls.__dict__.get("__doc__")
    assert isinstance(doc, str) and doc.strip()


# ------------------------------------------------------ frozen, slots, kw_only


def _instance(cls: type, output: bool) -> Any:
    return sample_object(cls, output=output)


@pytest.mark.parametrize(("cls", "output"), ALL_CLASSES, ids=IDS)
def test_classes_are_frozen_slotted_kw_only(cls: type, output: bool) -> None:
    assert attrs.has(cls)
    assert "__slots__" in cls.__dict__
    fields = attrs.fields(cls)
    assert all(a.kw_only for a in fields)
    instance = _instance(cls, output)
    assert not hasattr(instance, "__dict__")
    for a in fields:
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(instance, a.name, getattr(instance, a.name))
    with pytest.raises((attrs.exceptions.FrozenInstanceError, AttributeError)):
        instance.not_a_field = 1
    # the same values, positionally, are refused
    positional = [getattr(instance, a.name) for a in fields]
    if positional:
        with pytest.raises(TypeError):
            cls(*positional)


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_event_classes_compare_and_hash_by_value(event: HookEvent) -> None:
    a = sample_object(INPUT_TYPES[event], output=False)
    b = sample_object(INPUT_TYPES[event], output=False)
    assert a == b
    assert attrs.evolve(a, session_id="other") != a
    out = OUTPUT_TYPES[event]
    assert out() == out()
    assert out(system_message="x") != out()


# ------------------------------------------------------------------- names


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_parse_event_canonical_and_snake(event: HookEvent) -> None:
    assert parse_event(event.value) is event
    assert parse_event(event.snake) is event
    assert parse_event(event) is event
    assert parse_event(event.value.upper()) is event
    assert parse_event(event.value.lower()) is event
    assert parse_event(event.snake.upper()) is event
    assert parse_event(event.snake.replace("_", "-")) is event
    assert capability(event.snake) is CAPABILITIES[event]


@pytest.mark.parametrize(
    ("name", "event"),
    [
        ("PreToolUse", HookEvent.PRE_TOOL_USE),
        ("pre_tool_use", HookEvent.PRE_TOOL_USE),
        ("PRE_TOOL_USE", HookEvent.PRE_TOOL_USE),
        ("preToolUse", HookEvent.PRE_TOOL_USE),
        ("before_llm_call", HookEvent.BEFORE_LLM_CALL),
        ("BeforeLLMCall", HookEvent.BEFORE_LLM_CALL),
        ("after_llm_call", HookEvent.AFTER_LLM_CALL),
        ("tool_response_transform", HookEvent.TOOL_RESPONSE_TRANSFORM),
        ("tool_input_transform", HookEvent.TOOL_INPUT_TRANSFORM),
        ("user_steering_messages_submit", HookEvent.USER_STEERING_MESSAGES_SUBMIT),
        ("user_followup_submit", HookEvent.USER_FOLLOWUP_SUBMIT),
        ("on_agent_switch", HookEvent.ON_AGENT_SWITCH),
        ("on_tool_approval_decision", HookEvent.ON_TOOL_APPROVAL_DECISION),
        ("worktree_create", HookEvent.WORKTREE_CREATE),
        ("session_start", HookEvent.SESSION_START),
        ("stop", HookEvent.STOP),
        ("STOP", HookEvent.STOP),
        ("Interrupt", HookEvent.INTERRUPT),
    ],
)
def test_parse_event_spellings(name: str, event: HookEvent) -> None:
    assert parse_event(name) is event


@pytest.mark.parametrize(
    ("event", "snake"),
    [
        (HookEvent.PRE_TOOL_USE, "pre_tool_use"),
        (HookEvent.BEFORE_LLM_CALL, "before_llm_call"),
        (HookEvent.AFTER_LLM_CALL, "after_llm_call"),
        (HookEvent.USER_STEERING_MESSAGES_SUBMIT, "user_steering_messages_submit"),
        (HookEvent.ON_AGENT_SWITCH, "on_agent_switch"),
        (HookEvent.ON_TOOL_APPROVAL_DECISION, "on_tool_approval_decision"),
        (HookEvent.WORKTREE_CREATE, "worktree_create"),
        (HookEvent.CWD_CHANGED, "cwd_changed"),
        (HookEvent.STOP, "stop"),
        (HookEvent.MESSAGE_DISPLAY, "message_display"),
    ],
)
def test_snake_spelling(event: HookEvent, snake: str) -> None:
    assert event.snake == snake


def test_snake_spellings_are_unique_snake_case() -> None:
    snakes = [e.snake for e in HookEvent]
    assert len(set(snakes)) == len(snakes)
    assert all(s == s.lower() and " " not in s for s in snakes)
    assert str(HookEvent.PRE_TOOL_USE) == "PreToolUse"


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("PreToolUsed", "PreToolUse"),
        ("pre_tool_used", "pre_tool_use"),
        ("PostToolUsee", "PostToolUse"),
        ("SesionStart", "SessionStart"),
        ("before_llm_cal", "before_llm_call"),
    ],
)
def test_unknown_event_names_close_matches(name: str, suggestion: str) -> None:
    with pytest.raises(UnknownEventError) as info:
        parse_event(name)
    assert suggestion in info.value.suggestions
    assert suggestion in str(info.value)
    assert info.value.name == name
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("name", ["", "xyzzy", "Tool", 5, None])
def test_unknown_event_names(name: Any) -> None:
    with pytest.raises(UnknownEventError):
        parse_event(name)
    with pytest.raises(UnknownEventError):
        capability(name)
