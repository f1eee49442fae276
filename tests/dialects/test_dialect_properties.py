"""Property tests of the harness-native decoders: any JSON object under any event of
Gemini CLI, Cursor or Copilot decodes or is refused with ``InvalidPayloadError`` (never
another exception); a native payload written back for the same event keeps every key
and value it came with; a verdict survives the trip to the harness's answer and back."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_hooks import PreToolUseOutput
from agent_hooks._base._errors import InvalidPayloadError
from agent_hooks._wire._codec import decode_output, encode_input
from agent_hooks._wire._detect import decode_payload
from agent_hooks._wire._dialects import COPILOT, CURSOR, GEMINI, Dialect
from agent_hooks._wire._translate import answer_to_native

DIALECTS = [GEMINI, CURSOR, COPILOT]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def _keys(dialect: Dialect) -> list[str]:
    assert dialect.native is not None
    wire = dialect.native
    names = {*wire.payload_keys, *wire.markers, "cwd", "tool_name", "tool_input", "command"}
    for e in wire.events:
        names |= {*e.lift, *e.renames}
    return sorted(names)


@st.composite
def native_payloads(draw: Any) -> tuple[Dialect, str, dict[str, Any]]:
    dialect = draw(st.sampled_from(DIALECTS))
    assert dialect.native is not None
    event = draw(st.sampled_from([e.name for e in dialect.native.events]))
    payload = draw(
        st.dictionaries(
            st.sampled_from(_keys(dialect)) | st.text(max_size=6), json_values, max_size=6
        )
    )
    return dialect, event, payload


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(native_payloads())
def test_any_object_decodes_or_is_refused_cleanly(
    case: tuple[Dialect, str, dict[str, Any]],
) -> None:
    dialect, event, payload = case
    assert dialect.native is not None
    if dialect.native.event_key:
        payload = {**payload, dialect.native.event_key: event}
    try:
        decoded = decode_payload(json.dumps(payload), dialect=dialect.name, event=event)
    except InvalidPayloadError:
        return
    assert decoded.dialect is dialect
    encode_input(decoded.input, attrs.evolve(dialect, native_event=event))  # never raises


TOOLS = st.sampled_from(["bash", "run_shell_command", "Shell", "edit", "write_file", "custom_tool"])


@settings(max_examples=200)
@given(
    st.sampled_from(DIALECTS),
    TOOLS,
    st.dictionaries(
        st.sampled_from(["command", "path", "file_path", "x"]), st.text(max_size=5), max_size=3
    ),
    st.dictionaries(
        st.text(min_size=1, max_size=5).filter(lambda k: k[0].isupper()),
        st.text(max_size=4),
        max_size=2,
    ),
)
def test_a_pre_tool_payload_comes_back_as_it_came(
    dialect: Dialect, tool: str, args: dict[str, str], extra: dict[str, str]
) -> None:
    assert dialect.native is not None
    wire = dialect.native
    native = wire.for_event("PreToolUse")
    assert native is not None
    name_key = (
        next(k for k, v in wire.payload_keys.items() if v == "tool_name")
        if wire.event_key is None
        else "tool_name"
    )
    args_key = (
        next(k for k, v in wire.payload_keys.items() if v == "tool_input")
        if wire.event_key is None
        else "tool_input"
    )
    payload: dict[str, Any] = {**extra, name_key: tool, args_key: args}
    if wire.event_key:
        payload[wire.event_key] = native.name
    decoded = decode_payload(payload, dialect=dialect, event=native.name)
    back = encode_input(decoded.input, attrs.evolve(dialect, native_event=native.name))
    for key, value in payload.items():
        if key == name_key and tool not in wire.tool_names:
            assert back[key] in (value, *wire.tool_names)  # an alias written back natively
            continue
        if key == args_key and wire.tool_input_keys.get(tool):
            continue  # renamed both ways; checked below
        assert back[key] == value


@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda d: d.name)
@pytest.mark.parametrize("verdict", ["allow", "deny"])
def test_a_verdict_survives_the_round_trip(dialect: Dialect, verdict: str) -> None:
    assert dialect.native is not None
    native = dialect.native.for_event("PreToolUse")
    assert native is not None
    out = PreToolUseOutput(permission_decision=verdict, permission_decision_reason="why")  # type: ignore[arg-type]
    wire_answer, diags = answer_to_native(out, dialect.native, native)
    assert diags == []
    decoded = decode_output(
        "PreToolUse", wire_answer, dialect=attrs.evolve(dialect, native_event=native.name)
    )
    assert decoded.output == out
