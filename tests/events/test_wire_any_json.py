"""The decoders take any JSON value (issue 15, item 11).

``decode_output`` never raises for an answer of any JSON type, at any depth, whatever
its keys hold: what is wrong is a diagnostic (before: ``decode_output(event, [])`` raised
``AttributeError``). ``decode_input`` raises only its documented errors. What the
decoders accept can always be encoded and written back as UTF-8 JSON.

Property-based, with a fixed example budget.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_hooks import (
    HookEvent,
    InvalidPayloadError,
    UnknownEventError,
    decode_input,
    decode_output,
    encode_input,
    encode_output,
)
from agent_hooks._bridges._payload import dumps
from agent_hooks._events._capabilities import CAPABILITIES, spec_for
from agent_hooks._wire._codec import foreign_keys
from agent_hooks._wire._fields import TypeDesc, field_codecs


def _answer_keys() -> list[str]:
    """Every key any answer knows, at any level (the decoder's paths are reached only
    through them)."""
    keys = {"hookSpecificOutput", "hook_specific_output", "hookEventName", "hook_event_name"}
    keys |= {"async", "async_", "asyncTimeout", "async_timeout"}
    seen: set[type] = set()
    todo: list[TypeDesc] = []
    for spec in CAPABILITIES.values():
        for fc in field_codecs(spec.output_type, True):
            keys.update(fc.spellings)
            todo.append(fc.type)
    while todo:
        t = todo.pop()
        if t.kind == "object" and t.cls is not None and t.cls not in seen:
            seen.add(t.cls)
            for fc in field_codecs(t.cls, True):
                keys.update(fc.spellings)
                todo.append(fc.type)
        todo.extend(v for v in t.values if isinstance(v, TypeDesc))
    return sorted(keys)


def _payload_keys() -> list[str]:
    keys: set[str] = {"hook_event_name"}
    for spec in CAPABILITIES.values():
        keys.update(fc.docker_key for fc in field_codecs(spec.input_type, False))
    return sorted(keys)


EVENTS = list(HookEvent)
WORDS = [
    *(e.value for e in EVENTS[:8]),
    "pre_tool_use",
    "allow",
    "deny",
    "ask",
    "defer",
    "block",
    "approve",
    "accept",
    "decline",
    "\ud800",
    "",
]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and the infinities too: json.loads reads them
    | st.text(max_size=10)
    | st.sampled_from(WORDS)
)


def json_values(keys: list[str]) -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.sampled_from(keys) | st.text(max_size=6), children, max_size=5)
        ),
        max_leaves=25,
    )


answers = json_values(_answer_keys())
payloads = json_values(_payload_keys())


def _deep(depth: int) -> Any:
    value: Any = {"permissionDecision": "deny"}
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "data",
    [[], [1, 2], 0, -1, 1.5, math.nan, True, False, "[]", "not json", b"\xff\xfe", "null", "7"],
)
@pytest.mark.parametrize("event", ["PreToolUse", "PermissionRequest", "Stop", "Elicitation"])
def test_an_answer_that_is_not_an_object_is_a_diagnostic(event: str, data: Any) -> None:
    decoded = decode_output(event, data)
    assert decoded.output is None
    assert [d.code.value for d in decoded.diagnostics] in (["not_object"], ["malformed_json"])


@pytest.mark.parametrize(
    "data",
    [
        {"hookSpecificOutput": []},
        {"hookSpecificOutput": {"hookEventName": ["PreToolUse"]}},
        {"hookSpecificOutput": {"hookEventName": {"x": 1}, "permissionDecision": "deny"}},
        {"hookSpecificOutput": {"permissionDecision": ["deny"]}},
        {"hookSpecificOutput": {"permissionDecision": {"deny": 1}}},
        {"hookSpecificOutput": {"decision": []}},
        {"hookSpecificOutput": {"decision": 7}},
        {"decision": ["approve"]},
        {"decision": "approve", "hookSpecificOutput": "x"},
        {"hookSpecificOutput": {"updatedInput": _deep(2_000)}},
        {"continue": _deep(2_000), "asyncTimeout": [1], "async": "yes"},
        {1: 2, None: 3},
    ],
)
@pytest.mark.parametrize("event", ["PreToolUse", "PermissionRequest"])
def test_nested_junk_is_a_diagnostic(event: str, data: Any) -> None:
    decoded = decode_output(event, data)
    assert decoded.diagnostics
    assert decoded.output is None or isinstance(
        decoded.output, CAPABILITIES[HookEvent(event)].output_type
    )


@settings(max_examples=300, deadline=None)
@given(
    event=st.sampled_from(EVENTS),
    value=answers,
    dialect=st.sampled_from(["claude", "docker"]),
    form=st.sampled_from(["value", "text", "bytes"]),
)
def test_decode_output_never_raises(event: HookEvent, value: Any, dialect: str, form: str) -> None:
    data: Any = value
    if form != "value":
        data = json.dumps(value)  # NaN as NaN, as a sloppy hook writes it
        if form == "bytes":
            data = data.encode("utf-8", errors="surrogatepass")  # not UTF-8: replaced
    decoded = decode_output(event, data, dialect=dialect)
    spec = CAPABILITIES[event]
    assert decoded.output is None or isinstance(decoded.output, spec.output_type)
    if form == "value" and not isinstance(value, (dict, str, type(None))):
        assert [d.code.value for d in decoded.diagnostics] == ["not_object"]
    # what was accepted can be written back as UTF-8 JSON, in either wire format
    if decoded.output is not None:
        dumps(encode_output(decoded.output, dialect)).encode("utf-8")
    foreign_keys(event, value, dialect)


@settings(max_examples=300, deadline=None)
@given(
    event=st.sampled_from(EVENTS),
    value=payloads,
    named=st.booleans(),
    form=st.sampled_from(["value", "text"]),
)
def test_decode_input_raises_only_its_documented_errors(
    event: HookEvent, value: Any, named: bool, form: str
) -> None:
    if named and isinstance(value, dict):
        value = {**value, "hook_event_name": event.value}
    data: Any = json.dumps(value) if form == "text" else value
    try:
        decoded = decode_input(data)
    except (InvalidPayloadError, UnknownEventError):
        return
    # (an event name this version does not type passes through as an untyped input)
    assert isinstance(decoded.input, spec_for(decoded.input.event).input_type)
    # what was accepted reaches a hook as UTF-8 JSON
    dumps(encode_input(decoded.input, decoded.wire)).encode("utf-8")
