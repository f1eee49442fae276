"""Hook payloads (event inputs) on the wire: encode, decode, bad payloads, documented examples.

``sample_value`` and ``sample_input`` build values from the codec's own type
descriptors; ``test_schema.py`` (beside it) reuses them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from agent_hooks import (
    DiagnosticCode,
    HookEvent,
    HookInput,
    InvalidPayloadError,
    PostToolBatchInput,
    PreToolUseInput,
    UnknownEventError,
    UserPromptSubmitInput,
    decode_input,
    encode_input,
    payload_bytes,
)
from agent_hooks._events._catalog import INPUT_TYPES
from agent_hooks._wire._fields import TypeDesc, field_codecs, to_json

REFERENCE = Path("/work/shared/reference")
CLAUDE_DOC = REFERENCE / "docs" / "claude-code-hooks-reference.md"
DOCKER_SEED = REFERENCE / "seeds" / "002_140bb4d272b56d78.txt"

EVENTS = list(HookEvent)
WIRES = ["claude", "docker"]


# ------------------------------------------------------------------ samples


def sample_value(t: TypeDesc, name: str, *, output: bool) -> Any:
    """A non-None value of type ``t`` that survives a JSON round trip unchanged.

    Arrays are tuples (the decoder's form), strings carry non-ASCII text, and
    nested attrs objects have every field set.
    """
    kind = t.kind
    if kind == "str":
        return f"{name}: héllo ✓ 日本"
    if kind == "int":
        return 42
    if kind == "float":
        return 1.25
    if kind == "bool":
        return True
    if kind == "any":
        return {"name": name, "items": [1, "two", None, False, {"nested": 3.5}]}
    if kind == "literal":
        return t.values[0]
    if kind == "map":
        (value,) = t.values
        if value.kind == "any":
            return {"key": "value", "list": [1, 2], "obj": {"deep": None}}
        return {"key": sample_value(value, name, output=output)}
    if kind == "list":
        (item,) = t.values
        if item.kind == "any":
            return ("a", 1, {"b": [True]})
        return (sample_value(item, name, output=output),)
    if kind == "object":
        assert t.cls is not None
        return sample_object(t.cls, output=output)
    if kind == "union":
        return sample_value(t.values[0], name, output=output)
    raise AssertionError(f"unknown kind {kind!r}")


def sample_object(cls: type, *, output: bool, skip: frozenset[str] = frozenset()) -> Any:
    """An instance of an attrs class with every field (but ``skip``) set to a sample."""
    kwargs = {
        fc.name: sample_value(fc.type, fc.name, output=output)
        for fc in field_codecs(cls, output)
        if fc.name not in skip
    }
    return cls(**kwargs)


def sample_input(event: HookEvent) -> HookInput[Any]:
    """The event's input with every field set (``extra`` left empty)."""
    result: HookInput[Any] = sample_object(
        INPUT_TYPES[event], output=False, skip=frozenset({"extra"})
    )
    return result


def minimal_input(event: HookEvent) -> HookInput[Any]:
    """The event's input with only its required fields set."""
    cls = INPUT_TYPES[event]
    kwargs = {
        fc.name: sample_value(fc.type, fc.name, output=False)
        for fc in field_codecs(cls, False)
        if fc.required
    }
    return cls(**kwargs)


# --------------------------------------------------------------- round trip


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_round_trip_every_field(event: HookEvent, wire: str) -> None:
    original = sample_input(event)
    # every field really is set, so nothing is tested by omission
    for fc in field_codecs(type(original), False):
        if fc.name != "extra":
            assert getattr(original, fc.name) is not None, fc.name
    payload = encode_input(original, wire)
    assert None not in payload.values()
    for data in (json.dumps(payload), payload_bytes(original, wire), payload):
        decoded = decode_input(data)
        assert decoded.input == original
        assert type(decoded.input) is INPUT_TYPES[event]
        assert decoded.diagnostics == ()
        assert decoded.wire == wire
    # the decoded input encodes to the very same payload
    assert encode_input(decode_input(payload).input, wire) == payload


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_hook_event_name_spelling_per_wire(event: HookEvent) -> None:
    x = minimal_input(event)
    assert encode_input(x)["hook_event_name"] == event.value
    assert encode_input(x, "claude")["hook_event_name"] == event.value
    assert encode_input(x, "docker")["hook_event_name"] == event.snake
    # dialect names pick their wire format
    assert encode_input(x, "deepagents")["hook_event_name"] == event.value
    assert encode_input(x, "docker")["hook_event_name"] == event.snake


def test_snake_names_of_docker_events() -> None:
    x = PreToolUseInput(tool_name="shell")
    assert encode_input(x, "docker")["hook_event_name"] == "pre_tool_use"
    from agent_hooks import BeforeLLMCallInput, OnAgentSwitchInput

    assert encode_input(BeforeLLMCallInput(), "docker")["hook_event_name"] == "before_llm_call"
    assert encode_input(OnAgentSwitchInput(), "docker")["hook_event_name"] == "on_agent_switch"


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_none_fields_are_omitted(event: HookEvent, wire: str) -> None:
    x = minimal_input(event)
    payload = encode_input(x, wire)
    expected = {"hook_event_name"} | {
        fc.key(wire)
        for fc in field_codecs(type(x), False)
        if fc.name != "extra" and getattr(x, fc.name) is not None
    }
    assert set(payload) == expected
    assert None not in payload.values()
    assert decode_input(payload).input == x


def test_input_keys_are_snake_case_in_both_wires() -> None:
    x = PreToolUseInput(tool_name="Bash", tool_use_id="t1", permission_mode="default")
    for wire in WIRES:
        assert set(encode_input(x, wire)) == {
            "hook_event_name",
            "tool_name",
            "tool_input",
            "tool_use_id",
            "permission_mode",
        }


def test_file_changed_event_field_uses_its_wire_name() -> None:
    from agent_hooks import FileChangedInput

    x = FileChangedInput(file_path="/p/.envrc", file_event="change")
    payload = encode_input(x)
    assert payload["event"] == "change"
    assert "file_event" not in payload
    assert decode_input(payload).input == x


# -------------------------------------------------------------------- extra


def test_unknown_payload_fields_are_kept_in_extra_and_written_back() -> None:
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "future_field": {"a": [1, 2]},
        "another": "x",
    }
    decoded = decode_input(json.dumps(payload))
    assert decoded.diagnostics == ()
    assert dict(decoded.input.extra) == {"future_field": {"a": [1, 2]}, "another": "x"}
    again = encode_input(decoded.input)
    assert again["future_field"] == {"a": [1, 2]}
    assert again["another"] == "x"
    assert decode_input(again).input == decoded.input


@pytest.mark.parametrize("wire", WIRES)
def test_extra_never_overrides_a_known_field(wire: str) -> None:
    x = PreToolUseInput(
        tool_name="Bash",
        extra={"tool_name": "Evil", "hook_event_name": "Stop", "new": 1},
    )
    payload = encode_input(x, wire)
    assert payload["tool_name"] == "Bash"
    assert payload["hook_event_name"] == ("PreToolUse" if wire == "claude" else "pre_tool_use")
    assert payload["new"] == 1


def _containers(value: Any) -> Iterator[dict[str, Any] | list[Any]]:
    """Every dict and list of a JSON structure, at any depth."""
    if isinstance(value, (dict, list)):
        yield value
        for item in value.values() if isinstance(value, dict) else value:
            yield from _containers(item)


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_encodings_share_no_dict_or_list(event: HookEvent, wire: str) -> None:
    x = attrs.evolve(
        sample_input(event),
        extra={"flat": {"a": 1, "b": "two"}, "deep": {"list": [1, {"inner": [2, {"c": 3}]}]}},
    )
    if isinstance(x, PreToolUseInput):  # a flat tool input, copied without a walk
        x = attrs.evolve(x, tool_input={"command": "ls", "timeout": 5})
    before = json.dumps(encode_input(x, wire))
    first, second = encode_input(x, wire), encode_input(x, wire)
    assert json.dumps(first) == json.dumps(second) == before
    for container in _containers(first):
        if isinstance(container, dict):
            container["edited"] = True
        else:
            container.append("edited")
    # every dict and list of ``first`` was edited: neither the input nor ``second`` saw it
    assert json.dumps(second) == before
    assert json.dumps(encode_input(x, wire)) == before
    assert "edited" not in json.dumps(dict(x.extra))
    assert "edited" not in json.dumps(getattr(x, "tool_input", None))


def test_hook_event_name_follows_permission_mode() -> None:
    x = PreToolUseInput(
        session_id="s", cwd="/w", permission_mode="plan", tool_name="Bash", extra={"z": 1}
    )
    assert list(encode_input(x)) == [
        "session_id",
        "cwd",
        "permission_mode",
        "hook_event_name",
        "tool_name",
        "tool_input",
        "z",
    ]
    # in place even when permission_mode is unset
    assert list(encode_input(PreToolUseInput(tool_name="Bash"), "docker"))[:2] == [
        "hook_event_name",
        "tool_name",
    ]


def test_nested_payload_objects_tolerate_new_keys() -> None:
    payload = {
        "hook_event_name": "PostToolBatch",
        "tool_calls": [{"tool_name": "Read", "tool_input": {}, "brand_new": 1}],
    }
    decoded = decode_input(payload)
    # tolerated, and said: an info diagnostic names the key that could not be kept
    assert [d.code for d in decoded.diagnostics] == [DiagnosticCode.UNKNOWN_FIELD]
    assert "brand_new" in decoded.diagnostics[0].message
    assert isinstance(decoded.input, PostToolBatchInput)
    assert decoded.input.tool_calls[0].tool_name == "Read"


# ------------------------------------------------------------ payload bytes


def test_payload_bytes_is_compact_utf8_with_non_ascii_preserved() -> None:
    x = UserPromptSubmitInput(session_id="s1", prompt="héllo — 日本語 ✓")
    data = payload_bytes(x)
    assert isinstance(data, bytes)
    assert data == json.dumps(encode_input(x), separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )
    assert "日本語".encode() in data
    assert b"\\u" not in data
    assert b": " not in data and b", " not in data
    assert data.decode("utf-8").startswith("{")
    assert decode_input(data).input == x


def test_payload_bytes_docker() -> None:
    x = UserPromptSubmitInput(prompt="ünïcode")
    data = payload_bytes(x, "docker")
    assert json.loads(data)["hook_event_name"] == "user_prompt_submit"
    assert "ünïcode".encode() in data


# ------------------------------------------------------------- bad payloads


@pytest.mark.parametrize(
    "data",
    [b"", b"   ", b"{nope", b"{}{}", b'{"hook_event_name": "Stop"} trailing', b"\xff\xfe\x00"],
    ids=["empty", "blank", "truncated", "two-objects", "trailing-garbage", "binary"],
)
def test_not_json_raises_invalid_payload(data: bytes) -> None:
    with pytest.raises(InvalidPayloadError) as info:
        decode_input(data)
    assert info.value.path == "$"


@pytest.mark.parametrize("data", ["[]", "[1, 2]", '"PreToolUse"', "3", "null", "true"])
def test_non_object_json_raises_invalid_payload(data: str) -> None:
    with pytest.raises(InvalidPayloadError) as info:
        decode_input(data)
    assert info.value.path == "$"


def test_deeply_nested_json_raises_invalid_payload() -> None:
    with pytest.raises(InvalidPayloadError):
        decode_input("[" * 100_000)
    with pytest.raises(InvalidPayloadError):
        decode_input('{"hook_event_name": "Stop", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_missing_hook_event_name() -> None:
    with pytest.raises(InvalidPayloadError) as info:
        decode_input('{"tool_name": "Bash"}')
    assert info.value.path == "$.hook_event_name"


@pytest.mark.parametrize("name", [5, None, ["PreToolUse"], {"a": 1}])
def test_hook_event_name_not_a_string(name: Any) -> None:
    payload: dict[str, Any] = {"hook_event_name": name, "tool_name": "Bash"}
    with pytest.raises(InvalidPayloadError) as info:
        decode_input(json.dumps(payload))
    assert info.value.path == "$.hook_event_name"


def test_unknown_event_raises_with_close_matches() -> None:
    with pytest.raises(UnknownEventError) as info:
        decode_input('{"hook_event_name": "PreToolUsed", "tool_name": "Bash"}')
    assert "PreToolUse" in info.value.suggestions
    assert "PreToolUse" in str(info.value)
    # a name that is no misspelling is carried untyped (tests/events/test_unknown_events.py)
    decoded = decode_input('{"hook_event_name": "NoSuchThingAtAll"}')
    assert [d.code for d in decoded.diagnostics] == [DiagnosticCode.UNTYPED_EVENT]


def test_event_argument_overrides_missing_name() -> None:
    decoded = decode_input({"tool_name": "Bash"}, event="pre_tool_use")
    assert isinstance(decoded.input, PreToolUseInput)
    assert decoded.input.tool_name == "Bash"


@pytest.mark.parametrize(
    "event",
    [e for e in EVENTS if any(fc.required for fc in field_codecs(INPUT_TYPES[e], False))],
    ids=str,
)
def test_required_field_missing(event: HookEvent) -> None:
    full = encode_input(minimal_input(event))
    for fc in field_codecs(INPUT_TYPES[event], False):
        if not fc.required:
            continue
        payload = {k: v for k, v in full.items() if k != fc.docker_key}
        with pytest.raises(InvalidPayloadError) as info:
            decode_input(payload)
        assert info.value.path == f"$.{fc.docker_key}"


@pytest.mark.parametrize("bad", [5, None, ["Bash"], {"n": "Bash"}, True])
def test_required_field_of_wrong_type(bad: Any) -> None:
    with pytest.raises(InvalidPayloadError) as info:
        decode_input({"hook_event_name": "PreToolUse", "tool_name": bad})
    assert info.value.path == "$.tool_name"


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("tool_use_id", 5),
        ("tool_use_id", ["x"]),
        ("session_id", {"id": 1}),
        ("tool_input", "rm -rf /"),
        ("tool_input", ["a"]),
        ("duration_ms", "12"),
        ("duration_ms", True),
        ("duration_ms", 1.5),
        ("tool_error", "yes"),
        ("effort", "high"),
    ],
)
def test_optional_field_of_wrong_type_is_kept_out(field: str, bad: Any) -> None:
    payload = {"hook_event_name": "PostToolUse", "tool_name": "Bash", field: bad}
    decoded = decode_input(json.dumps(payload))
    assert [d.code for d in decoded.diagnostics] == [DiagnosticCode.INVALID_FIELD]
    assert decoded.diagnostics[0].location == f"$.{field}"
    without = {k: v for k, v in payload.items() if k != field}
    assert decoded.input == decode_input(without).input  # as if the field had not been sent
    assert field not in decoded.input.extra
    assert decoded.input.tool_name == "Bash"


def test_nested_object_of_wrong_shape_is_kept_out() -> None:
    payload = {
        "hook_event_name": "PostToolBatch",
        "tool_calls": [{"tool_input": {}}],  # tool_name is required in a batch call
    }
    decoded = decode_input(payload)
    assert [d.code for d in decoded.diagnostics] == [DiagnosticCode.INVALID_FIELD]
    assert decoded.diagnostics[0].location == "$.tool_calls"
    assert isinstance(decoded.input, PostToolBatchInput)
    assert decoded.input.tool_calls == ()


def test_number_too_large_for_a_float_field_is_kept_out() -> None:
    payload = '{"hook_event_name": "after_llm_call", "cost": 1' + "0" * 400 + "}"
    decoded = decode_input(payload)
    assert [d.code for d in decoded.diagnostics] == [DiagnosticCode.INVALID_FIELD]
    assert decoded.input.cost is None


def test_int_is_accepted_for_a_float_field() -> None:
    decoded = decode_input({"hook_event_name": "after_llm_call", "cost": 2})
    assert decoded.diagnostics == ()
    assert decoded.input.cost == 2.0


# ------------------------------------------------------ documented examples


def _claude_doc_input_examples() -> list[tuple[str, int, str]]:
    """(heading event, line, block) of every ```json block under a "#### X input"
    heading of the Claude Code reference that mentions ``hook_event_name``."""
    lines = CLAUDE_DOC.read_text(encoding="utf-8").splitlines()
    found = []
    heading = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            heading = line.strip()
        elif line.strip().startswith("```json"):
            j = i + 1
            while not lines[j].strip().startswith("```"):
                j += 1
            block = "\n".join(lines[i + 1 : j])
            m = re.fullmatch(r"#### (\w+) input", heading)
            if m and "hook_event_name" in block:
                found.append((m.group(1), i + 1, block))
            i = j
        i += 1
    return found


CLAUDE_EXAMPLES = _claude_doc_input_examples()


def _valid_json(block: str) -> bool:
    try:
        json.loads(block)
    except ValueError:
        return False
    return True


def _assert_fields_equal(decoded: HookInput[Any], payload: dict[str, Any], wire: str) -> None:
    by_key = {fc.docker_key: fc for fc in field_codecs(type(decoded), False)}
    for key, value in payload.items():
        if key == "hook_event_name":
            assert decoded.hook_event_name == decoded.event.value
            continue
        assert key in by_key, f"{key!r} is not a field of {type(decoded).__name__}"
        assert to_json(getattr(decoded, by_key[key].name), wire=wire, output=False) == value, key
    assert dict(decoded.extra) == {}
    assert encode_input(decoded, wire) == payload


def test_enough_claude_doc_examples_decode() -> None:
    assert len(CLAUDE_EXAMPLES) >= 25
    valid = [e for e in CLAUDE_EXAMPLES if _valid_json(e[2])]
    assert len(valid) >= 25


@pytest.mark.parametrize(
    ("event_name", "block"),
    [(name, block) for name, _, block in CLAUDE_EXAMPLES],
    ids=[f"{name}-line{line}" for name, line, _ in CLAUDE_EXAMPLES],
)
def test_claude_doc_input_example_decodes(event_name: str, block: str) -> None:
    if not _valid_json(block):
        pytest.skip("example with placeholders, not valid JSON")
    payload = json.loads(block)
    decoded = decode_input(block)
    assert type(decoded.input) is INPUT_TYPES[HookEvent(event_name)]
    assert decoded.diagnostics == ()
    assert decoded.wire == "claude"
    _assert_fields_equal(decoded.input, payload, "claude")


def _docker_seed_payload_examples() -> list[dict[str, Any]]:
    """Top-level JSON objects of the Docker Agent seed (an unfenced ``{`` ... ``}`` at the
    start of a line) that are hook payloads: they carry a top-level ``hook_event_name``."""
    lines = DOCKER_SEED.read_text(encoding="utf-8").splitlines()
    found = []
    for i, line in enumerate(lines):
        if line != "{":
            continue
        j = lines.index("}", i)
        obj = json.loads("\n".join(lines[i : j + 1]))
        if "hook_event_name" in obj:
            found.append(obj)
    return found


def test_docker_seed_payload_examples_decode() -> None:
    examples = _docker_seed_payload_examples()
    assert examples, "the Docker Agent seed has a payload example"
    for payload in examples:
        decoded = decode_input(json.dumps(payload, ensure_ascii=False).encode("utf-8"))
        assert payload["hook_event_name"] == decoded.input.event.snake
        assert decoded.wire == "docker"
        assert decoded.diagnostics == ()
        _assert_fields_equal(decoded.input, payload, "docker")


def test_docker_seed_pre_tool_use_example() -> None:
    (payload,) = [
        p for p in _docker_seed_payload_examples() if p["hook_event_name"] == "pre_tool_use"
    ]
    decoded = decode_input(payload)
    x = decoded.input
    assert isinstance(x, PreToolUseInput)
    assert x.tool_name == "shell"
    assert x.tool_use_id == "call_xyz"
    assert x.tool_input == {"cmd": "rm -rf /tmp/cache", "cwd": "."}
    assert x.session_id == "abc123"
    assert x.cwd == "/path/to/project"


def test_unknown_keys_inside_nested_payload_objects_are_reported() -> None:
    payload = {
        "hook_event_name": "after_llm_call",
        "usage": {"input_tokens": 10, "output_tokens": 3, "thinking_budget": 7},
    }
    decoded = decode_input(payload)
    assert decoded.input.usage is not None  # type: ignore[attr-defined]
    notes = [d for d in decoded.diagnostics if d.code is DiagnosticCode.UNKNOWN_FIELD]
    assert len(notes) == 1 and "thinking_budget" in notes[0].message
