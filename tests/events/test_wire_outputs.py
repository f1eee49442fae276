"""Handler answers (event outputs) on the wire: lenient decoding, diagnostics, encoding.

``sample_output`` builds an answer with every honoured field set, from the codec's
own type descriptors; ``test_schema.py`` (beside it) reuses it.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from agent_hooks import (
    BeforeCompactionOutput,
    DecodedOutput,
    Diagnostic,
    DiagnosticCode,
    ElicitationOutput,
    ElicitationResultOutput,
    HookEvent,
    HookOutput,
    PermissionDeniedOutput,
    PermissionRequestDecision,
    PermissionRequestOutput,
    PostToolUseOutput,
    PreToolUseOutput,
    SessionStartOutput,
    Severity,
    StopOutput,
    UserPromptSubmitOutput,
    decode_output,
    encode_output,
    parse_event,
)
from agent_hooks._events._capabilities import CAPABILITIES
from agent_hooks._events._catalog import OUTPUT_TYPES
from agent_hooks._wire._fields import field_codecs
from tests.events.test_wire_inputs import sample_value

# Keep Hypothesis's cache out of the checkout: pytest's ``norecursedirs`` replaces the
# default ignores, so a ``.hypothesis`` directory at the root makes collection warn.
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "agent-hooks-hypothesis")

REFERENCE = Path("/work/shared/reference")
CLAUDE_DOC = REFERENCE / "docs" / "claude-code-hooks-reference.md"
DOCKER_SEED = REFERENCE / "seeds" / "002_140bb4d272b56d78.txt"

EVENTS = list(HookEvent)
WIRES = ["claude", "docker"]


def sample_output(event: HookEvent) -> HookOutput:
    """The event's answer with every field it honours set to a sample value."""
    spec = CAPABILITIES[event]
    cls = OUTPUT_TYPES[event]
    kwargs = {
        fc.name: sample_value(fc.type, fc.name, output=True)
        for fc in field_codecs(cls, True)
        if fc.name in spec.honoured_fields
    }
    return cls(**kwargs)


def codes(decoded: DecodedOutput[Any]) -> list[DiagnosticCode]:
    return [d.code for d in decoded.diagnostics]


def decode(event: str, data: Any, dialect: str = "claude") -> DecodedOutput[Any]:
    result = decode_output(event, data, dialect=dialect)
    assert isinstance(result, DecodedOutput)
    return result


# ------------------------------------------------------------ key spellings


def test_camel_and_snake_spellings_decode_alike() -> None:
    camel = {
        "continue": False,
        "stopReason": "halt",
        "suppressOutput": True,
        "systemMessage": "careful",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no",
            "updatedInput": {"command": "ls"},
            "additionalContext": "ctx",
        },
    }
    snake = {
        "continue": False,
        "stop_reason": "halt",
        "suppress_output": True,
        "system_message": "careful",
        "hook_specific_output": {
            "hook_event_name": "pre_tool_use",
            "permission_decision": "deny",
            "permission_decision_reason": "no",
            "updated_input": {"command": "ls"},
            "additional_context": "ctx",
        },
    }
    expected = PreToolUseOutput(
        continue_=False,
        stop_reason="halt",
        suppress_output=True,
        system_message="careful",
        permission_decision="deny",
        permission_decision_reason="no",
        updated_input={"command": "ls"},
        additional_context="ctx",
    )
    for data in (camel, snake):
        for dialect in ("claude", "docker", "codex"):
            decoded = decode("PreToolUse", json.dumps(data), dialect)
            assert decoded.output == expected
            assert decoded.diagnostics == ()


def test_python_names_and_sdk_spellings() -> None:
    decoded = decode("PreToolUse", {"continue_": False, "async_": True, "asyncTimeout": 30000})
    assert decoded.output == PreToolUseOutput(continue_=False)
    assert decoded.is_async is True
    assert decoded.async_timeout == 30.0
    assert decoded.diagnostics == ()


@pytest.mark.parametrize(
    ("data", "timeout"),
    [
        ({"async": True, "asyncTimeout": 1500}, 1.5),
        ({"async": True, "async_timeout": 250}, 0.25),
        ({"async": True}, None),
        ({"async": False}, None),
    ],
)
def test_async_timeout_milliseconds_to_seconds(data: dict[str, Any], timeout: float | None) -> None:
    decoded = decode("Stop", data)
    assert decoded.is_async is data["async"]
    assert decoded.async_timeout == timeout
    assert decoded.diagnostics == ()


@pytest.mark.parametrize(
    "data",
    [
        {"async": "yes"},
        {"async_": 1},
        {"asyncTimeout": "10"},
        {"asyncTimeout": -5},
        {"asyncTimeout": 0},
        {"asyncTimeout": True},
        '{"asyncTimeout": 1' + "0" * 400 + "}",
    ],
    ids=str,
)
def test_bad_async_fields(data: Any) -> None:
    decoded = decode("Stop", data if isinstance(data, str) else json.dumps(data))
    assert codes(decoded) == [DiagnosticCode.WRONG_TYPE]
    assert decoded.output == StopOutput()
    assert decoded.is_async is False
    assert decoded.async_timeout is None


# -------------------------------------------------------- deprecated forms


@pytest.mark.parametrize(("legacy", "meaning"), [("approve", "allow"), ("block", "deny")])
def test_deprecated_pre_tool_use_decision(legacy: str, meaning: str) -> None:
    decoded = decode("PreToolUse", {"decision": legacy, "reason": "why"})
    assert decoded.output == PreToolUseOutput(
        permission_decision=meaning, permission_decision_reason="why"
    )
    assert codes(decoded) == [DiagnosticCode.DEPRECATED_FIELD]
    assert decoded.diagnostics[0].location == "$.decision"


def test_deprecated_decision_inside_docker_answer() -> None:
    decoded = decode(
        "pre_tool_use",
        {"decision": "block", "reason": "no", "hook_specific_output": {"additional_context": "c"}},
        "docker",
    )
    assert decoded.output == PreToolUseOutput(
        permission_decision="deny", permission_decision_reason="no", additional_context="c"
    )
    assert codes(decoded) == [DiagnosticCode.DEPRECATED_FIELD]


def test_deprecated_block_next_to_an_explicit_permission_decision_still_blocks() -> None:
    # Docker Agent's documented all-fields example: the top-level block and its reason
    # are kept (nothing is dropped), the explicit permission decision too.
    decoded = decode(
        "PreToolUse",
        {
            "decision": "block",
            "reason": "blocked",
            "hookSpecificOutput": {"permissionDecision": "allow"},
        },
    )
    assert decoded.output == PreToolUseOutput(
        decision="block", reason="blocked", permission_decision="allow"
    )
    assert decoded.diagnostics == ()


def test_deprecated_approve_next_to_an_explicit_permission_decision_is_reported() -> None:
    decoded = decode(
        "PreToolUse",
        {"decision": "approve", "hookSpecificOutput": {"permissionDecision": "ask"}},
    )
    assert decoded.output == PreToolUseOutput(permission_decision="ask")
    assert codes(decoded) == [DiagnosticCode.INVALID_VALUE]


@pytest.mark.parametrize("value", ["deny", "allow", 5])
def test_pre_tool_use_decision_values_seen_in_the_wild_are_reported(value: Any) -> None:
    decoded = decode("PreToolUse", {"decision": value})
    assert decoded.output == PreToolUseOutput()
    assert codes(decoded) in (
        [DiagnosticCode.INVALID_VALUE],
        [DiagnosticCode.WRONG_TYPE],
    )


# -------------------------------------------------------- PermissionRequest


def test_permission_request_decision_object() -> None:
    decoded = decode(
        "PermissionRequest",
        {
            "hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {
                    "behavior": "deny",
                    "message": "not now",
                    "interrupt": True,
                },
            }
        },
    )
    assert decoded.output == PermissionRequestOutput(
        permission_decision=PermissionRequestDecision(
            behavior="deny", message="not now", interrupt=True
        )
    )
    assert decoded.diagnostics == ()


def test_permission_request_decision_object_snake_keys() -> None:
    decoded = decode(
        "permission_request",
        {
            "hook_specific_output": {
                "decision": {
                    "behavior": "allow",
                    "updated_input": {"command": "ls"},
                    "updated_permissions": [{"type": "setMode", "mode": "acceptEdits"}],
                }
            }
        },
        "docker",
    )
    assert decoded.output == PermissionRequestOutput(
        permission_decision=PermissionRequestDecision(
            behavior="allow",
            updated_input={"command": "ls"},
            updated_permissions=({"type": "setMode", "mode": "acceptEdits"},),
        )
    )
    assert decoded.diagnostics == ()


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"permission_decision": "allow"}, PermissionRequestDecision(behavior="allow")),
        (
            {"permission_decision": "deny", "permission_decision_reason": "risky"},
            PermissionRequestDecision(behavior="deny", message="risky"),
        ),
        ({"permission_decision": "ask"}, None),
        ({"decision": "allow"}, PermissionRequestDecision(behavior="allow")),
    ],
)
def test_permission_request_docker_string_decision(
    answer: dict[str, Any], expected: PermissionRequestDecision | None
) -> None:
    decoded = decode("permission_request", {"hook_specific_output": answer}, "docker")
    assert decoded.output == PermissionRequestOutput(permission_decision=expected)
    assert decoded.diagnostics == ()


def test_permission_request_invalid_string_decision() -> None:
    decoded = decode(
        "permission_request", {"hook_specific_output": {"permission_decision": "maybe"}}, "docker"
    )
    assert decoded.output == PermissionRequestOutput()
    assert codes(decoded) == [DiagnosticCode.INVALID_VALUE]


@pytest.mark.parametrize(
    ("decision", "code"),
    [
        ({"behavior": "maybe"}, DiagnosticCode.INVALID_VALUE),
        ({"message": "no behavior"}, DiagnosticCode.WRONG_TYPE),
        ({"behavior": "allow", "bogus": 1}, DiagnosticCode.WRONG_TYPE),
        ({"behavior": "deny", "interrupt": "yes"}, DiagnosticCode.WRONG_TYPE),
        ([], DiagnosticCode.WRONG_TYPE),
    ],
    ids=str,
)
def test_permission_request_bad_decision_object(decision: Any, code: DiagnosticCode) -> None:
    decoded = decode("PermissionRequest", {"hookSpecificOutput": {"decision": decision}})
    assert decoded.output == PermissionRequestOutput()
    assert codes(decoded) == [code]


# ------------------------------------------------------------- no opinion


@pytest.mark.parametrize(
    "data",
    [None, b"", "", "   \n\t ", b"\n", "{}", b"{}", {}, '{"continue": true}', {"continue": True}],
    ids=repr,
)
@pytest.mark.parametrize("event", ["PreToolUse", "Stop", "SessionStart", "pre_tool_use"])
def test_empty_answers_mean_no_opinion(event: str, data: Any) -> None:
    decoded = decode(event, data)
    cls = OUTPUT_TYPES[parse_event(event)]
    assert decoded.diagnostics == ()
    assert decoded.output in (None, cls(), cls(continue_=True))
    assert decoded.is_async is False
    if decoded.output is not None:
        assert encode_output(decoded.output) in ({}, {"continue": True})


def test_pretty_printed_json_with_whitespace() -> None:
    text = (
        '\n\n  {\n    "hookSpecificOutput" : {\n      "hookEventName": "PreToolUse",\n'
        '      "permissionDecision":   "deny"\n    } ,\n'
        '\t"systemMessage" : "x"\n  }\n\n'
    )
    for data in (text, text.encode(), text.replace("\n", "\r\n")):
        decoded = decode("PreToolUse", data)
        assert decoded.output == PreToolUseOutput(permission_decision="deny", system_message="x")
        assert decoded.diagnostics == ()


# -------------------------------------------------- hookSpecificOutput shape


def test_specific_output_without_event_name_is_accepted() -> None:
    decoded = decode("SessionStart", {"hookSpecificOutput": {"additionalContext": "ctx"}})
    assert decoded.output == SessionStartOutput(additional_context="ctx")
    assert decoded.diagnostics == ()


@pytest.mark.parametrize("name", ["SessionStart", "session_start", "SESSION_START"])
def test_specific_output_event_name_in_any_spelling(name: str) -> None:
    decoded = decode(
        "SessionStart", {"hookSpecificOutput": {"hookEventName": name, "sessionTitle": "t"}}
    )
    assert decoded.output == SessionStartOutput(session_title="t")
    assert decoded.diagnostics == ()


@pytest.mark.parametrize("name", ["UserPromptSubmit", "NotAnEvent", 5, None])
def test_mismatched_event_name_ignores_specific_fields(name: Any) -> None:
    decoded = decode(
        "SessionStart",
        {
            "systemMessage": "kept",
            "hookSpecificOutput": {"hookEventName": name, "additionalContext": "dropped"},
        },
    )
    assert decoded.output == SessionStartOutput(system_message="kept")
    assert codes(decoded) == [DiagnosticCode.MISMATCHED_OUTPUT]
    assert decoded.diagnostics[0].location == "$.hookSpecificOutput.hookEventName"


@pytest.mark.parametrize("block", [[], "text", 5, True])
def test_specific_output_not_an_object(block: Any) -> None:
    decoded = decode("PreToolUse", {"hookSpecificOutput": block, "systemMessage": "kept"})
    assert decoded.output == PreToolUseOutput(system_message="kept")
    assert codes(decoded) == [DiagnosticCode.WRONG_TYPE]


# ----------------------------------------------------------- diagnostics


def test_unknown_keys() -> None:
    decoded = decode(
        "PreToolUse",
        {
            "result": "block",
            "hookSpecificOutput": {"permissionDecision": "allow", "whatever": 1},
        },
    )
    # kept, and passed on to the harness (tests/events/test_payload_passthrough.py)
    assert decoded.output == PreToolUseOutput(
        permission_decision="allow", extra={"result": "block"}, extra_specific={"whatever": 1}
    )
    assert codes(decoded) == [DiagnosticCode.UNKNOWN_FIELD, DiagnosticCode.UNKNOWN_FIELD]
    assert {d.location for d in decoded.diagnostics} == {
        "$.result",
        "$.hookSpecificOutput.whatever",
    }
    assert all(d.severity is Severity.INFO for d in decoded.diagnostics)


def test_echoed_input_payload_is_not_output() -> None:
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}
    decoded = decode("PreToolUse", payload)
    assert decoded.output == PreToolUseOutput()
    assert set(codes(decoded)) <= {DiagnosticCode.UNKNOWN_FIELD, DiagnosticCode.UNSUPPORTED_FIELD}
    assert len(decoded.diagnostics) == 3


@pytest.mark.parametrize(
    ("event", "answer", "location"),
    [
        (
            "Stop",
            {"hookSpecificOutput": {"permissionDecision": "deny"}},
            "$.hookSpecificOutput.permissionDecision",
        ),
        ("PreToolUse", {"hookSpecificOutput": {"updatedToolOutput": {}}}, None),
        ("SessionStart", {"hookSpecificOutput": {"retry": True}}, None),
        ("SessionEnd", {"hookSpecificOutput": {"additionalContext": "x"}}, None),
        ("PreToolUse", {"permissionDecision": "deny"}, "$.permissionDecision"),
        ("PreToolUse", {"hookSpecificOutput": {"systemMessage": "x"}}, None),
    ],
)
def test_fields_of_another_event_or_place_are_unsupported(
    event: str, answer: dict[str, Any], location: str | None
) -> None:
    decoded = decode(event, answer)
    assert decoded.output == OUTPUT_TYPES[HookEvent(event)]()
    assert codes(decoded) == [DiagnosticCode.UNSUPPORTED_FIELD]
    if location:
        assert decoded.diagnostics[0].location == location


@pytest.mark.parametrize(
    "event",
    [e for e in EVENTS if not CAPABILITIES[e].top_level_decision],
    ids=str,
)
def test_decision_block_where_not_honoured_is_unsupported(event: HookEvent) -> None:
    decoded = decode(event.value, {"decision": "block", "reason": "r"})
    assert decoded.output == OUTPUT_TYPES[event]()
    assert codes(decoded) == [DiagnosticCode.UNSUPPORTED_FIELD] * 2


def test_decision_block_on_session_start() -> None:
    decoded = decode("SessionStart", '{"decision": "block"}')
    assert decoded.output == SessionStartOutput()
    assert codes(decoded) == [DiagnosticCode.UNSUPPORTED_FIELD]
    assert decoded.diagnostics[0].location == "$.decision"


@pytest.mark.parametrize(
    ("event", "answer"),
    [
        ("Stop", {"continue": "no"}),
        ("Stop", {"continue": 0}),
        ("Stop", {"systemMessage": 5}),
        ("Stop", {"suppressOutput": "true"}),
        ("Stop", {"stopReason": ["a"]}),
        ("Stop", {"hookSpecificOutput": {"additionalContext": ["a", "b"]}}),
        ("PreToolUse", {"hookSpecificOutput": {"updatedInput": "rm -rf /"}}),
        ("PreToolUse", {"hookSpecificOutput": {"metadata": [1]}}),
        ("SessionStart", {"hookSpecificOutput": {"watchPaths": "/a"}}),
        ("SessionStart", {"hookSpecificOutput": {"watchPaths": ["/a", 5]}}),
        ("PermissionDenied", {"hookSpecificOutput": {"retry": "true"}}),
        ("BeforeLLMCall", {"hookSpecificOutput": {"messages": [1, 2]}}),
    ],
    ids=str,
)
def test_wrong_types(event: str, answer: dict[str, Any]) -> None:
    decoded = decode(event, answer)
    assert decoded.output == OUTPUT_TYPES[HookEvent(event)]()
    assert codes(decoded) == [DiagnosticCode.WRONG_TYPE]


def test_wrong_type_keeps_valid_siblings() -> None:
    decoded = decode(
        "PreToolUse",
        {
            "systemMessage": 5,
            "stopReason": "ok",
            "hookSpecificOutput": {"permissionDecision": "deny", "updatedInput": "bad"},
        },
    )
    assert decoded.output == PreToolUseOutput(stop_reason="ok", permission_decision="deny")
    assert codes(decoded) == [DiagnosticCode.WRONG_TYPE, DiagnosticCode.WRONG_TYPE]


@pytest.mark.parametrize(
    ("event", "answer"),
    [
        ("PreToolUse", {"hookSpecificOutput": {"permissionDecision": "maybe"}}),
        ("PreToolUse", {"hookSpecificOutput": {"permissionDecision": "Allow"}}),
        ("Stop", {"decision": "allow"}),
        ("Elicitation", {"hookSpecificOutput": {"action": "maybe"}}),
        ("ElicitationResult", {"hookSpecificOutput": {"action": "ACCEPT"}}),
    ],
    ids=str,
)
def test_invalid_enum_values(event: str, answer: dict[str, Any]) -> None:
    decoded = decode(event, answer)
    assert decoded.output == OUTPUT_TYPES[HookEvent(event)]()
    assert codes(decoded) == [DiagnosticCode.INVALID_VALUE]


# ------------------------------------------------------- unusable answers


@pytest.mark.parametrize(
    "data",
    ["[]", '[{"continue": false}]', "null", '"deny"', "42", "3.5", "true", "NaN"],
)
def test_valid_json_that_is_not_an_object(data: str) -> None:
    for raw in (data, data.encode()):
        decoded = decode("PreToolUse", raw)
        assert decoded.output is None
        assert codes(decoded) == [DiagnosticCode.NOT_OBJECT]


@pytest.mark.parametrize(
    "data",
    [
        '{"continue": false',
        '{"continue": false}}',
        '{"continue": false} garbage',
        '{"continue": false}{"continue": true}',
        '{"continue": false}\n{"continue": true}\n',
        "Blocked: dangerous command",
        "{'continue': False}",
        '{"a": 1,}',
        "[" * 100_000,
        '{"x": ' * 50_000 + "1" + "}" * 50_000,
    ],
    ids=lambda d: d[:30],
)
def test_malformed_json(data: str) -> None:
    for raw in (data, data.encode()):
        decoded = decode("PreToolUse", raw)
        assert decoded.output is None
        assert codes(decoded) == [DiagnosticCode.MALFORMED_JSON]
        assert decoded.diagnostics[0].location == "$"


def test_invalid_utf8_bytes() -> None:
    for raw in (b"\xff\xfe\xfd", b"\x80{}", b"{\xc3}"):
        decoded = decode("PreToolUse", raw)
        assert decoded.output is None
        assert codes(decoded) == [DiagnosticCode.MALFORMED_JSON]
    # inside a string the bad bytes become U+FFFD, the answer still counts
    decoded = decode("PreToolUse", b'{"systemMessage": "caf\xe9 \xff"}')
    assert decoded.output == PreToolUseOutput(system_message="caf\ufffd \ufffd")
    assert decoded.diagnostics == ()


# ---------------------------------------------------- property: never raise

_KNOWN_KEYS = sorted(
    {
        key
        for cls in set(OUTPUT_TYPES.values())
        for fc in field_codecs(cls, True)
        for key in fc.spellings
    }
    | {
        "hookSpecificOutput",
        "hook_specific_output",
        "hookEventName",
        "hook_event_name",
        "async",
        "async_",
        "asyncTimeout",
        "async_timeout",
        "behavior",
        "message",
        "interrupt",
        "updatedPermissions",
    }
)
_KNOWN_STRINGS = sorted(
    {e.value for e in HookEvent}
    | {e.snake for e in HookEvent}
    | {"allow", "deny", "ask", "defer", "approve", "block", "accept", "decline", "cancel"}
)
_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(_KNOWN_STRINGS)
)
_keys = st.sampled_from(_KNOWN_KEYS) | st.text(max_size=12)
json_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_keys, children, max_size=6),
    max_leaves=40,
)
json_objects = st.dictionaries(_keys, json_values, max_size=8)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    event=st.sampled_from(EVENTS),
    value=json_values | json_objects,
    dialect=st.sampled_from(WIRES),
    as_bytes=st.booleans(),
)
def test_decode_output_never_raises_on_json(
    event: HookEvent, value: Any, dialect: str, as_bytes: bool
) -> None:
    text = json.dumps(value)
    for data in (text.encode() if as_bytes else text, value if isinstance(value, dict) else text):
        decoded = decode_output(event, data, dialect=dialect)
        assert isinstance(decoded, DecodedOutput)
        assert all(isinstance(d, Diagnostic) for d in decoded.diagnostics)
        if decoded.output is None:
            continue
        assert type(decoded.output) is OUTPUT_TYPES[event]
        # what was understood encodes and decodes back to itself, without complaint
        for wire in WIRES:
            again = decode_output(event, encode_output(decoded.output, wire), dialect=wire)
            assert again.output == decoded.output
            # (keys no event knows are passed on, each with an info note)
            assert all(
                d.code is DiagnosticCode.UNKNOWN_FIELD and d.severity is Severity.INFO
                for d in again.diagnostics
            )


@settings(max_examples=300, deadline=None)
@given(event=st.sampled_from(EVENTS), data=st.binary(max_size=200))
def test_decode_output_never_raises_on_bytes(event: HookEvent, data: bytes) -> None:
    decoded = decode_output(event, data)
    assert isinstance(decoded, DecodedOutput)
    assert decoded.output is None or type(decoded.output) is OUTPUT_TYPES[event]


# --------------------------------------------------------- encode round trip


@pytest.mark.parametrize("wire", WIRES)
@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_encode_round_trip_every_honoured_field(event: HookEvent, wire: str) -> None:
    original = sample_output(event)
    encoded = encode_output(original, wire)
    specific_key = "hookSpecificOutput" if wire == "claude" else "hook_specific_output"
    own = [fc for fc in field_codecs(type(original), True) if fc.info.specific]
    if own:
        name_key = "hookEventName" if wire == "claude" else "hook_event_name"
        assert encoded[specific_key][name_key] == (event.value if wire == "claude" else event.snake)
    else:
        assert specific_key not in encoded
    for data in (encoded, json.dumps(encoded), json.dumps(encoded, indent=2).encode()):
        decoded = decode_output(event, data, dialect=wire)
        assert decoded.output == original
        assert decoded.diagnostics == ()


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_encoded_keys_per_wire(event: HookEvent) -> None:
    original = sample_output(event)
    claude = encode_output(original, "claude")
    docker = encode_output(original, "docker")
    for fc in field_codecs(type(original), True):
        if getattr(original, fc.name) is None:
            continue
        if fc.info.specific:
            assert fc.claude_key in claude["hookSpecificOutput"]
            assert fc.docker_key in docker["hook_specific_output"]
        else:
            assert fc.claude_key in claude
            assert fc.docker_key in docker
    assert "continue" in claude and "continue_" not in claude


def test_empty_output_encodes_as_empty_object() -> None:
    for event in EVENTS:
        assert encode_output(OUTPUT_TYPES[event]()) == {}
        assert encode_output(OUTPUT_TYPES[event](), "docker") == {}


# ---------------------------------------------------- documented examples

# "#### Decision control" shows the generic top-level form; the table above it lists
# the events that take it.
_TOP_LEVEL_DECISION_EVENTS = [
    "UserPromptSubmit",
    "UserPromptExpansion",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Stop",
    "SubagentStop",
    "ConfigChange",
    "PreCompact",
]


def _claude_doc_output_examples() -> list[tuple[str, int, dict[str, Any]]]:
    """(event, line, answer) of every ```json block of the Claude Code reference that
    mentions ``hookSpecificOutput`` or ``"decision"`` and is valid JSON."""
    lines = CLAUDE_DOC.read_text(encoding="utf-8").splitlines()
    found: list[tuple[str, int, dict[str, Any]]] = []
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
            i = j
            if "hookSpecificOutput" not in block and '"decision"' not in block:
                i += 1
                continue
            try:
                answer = json.loads(block)
            except ValueError:
                i += 1
                continue
            named = answer.get("hookSpecificOutput", {}).get("hookEventName")
            m = re.fullmatch(r"#### (\w+) decision control", heading)
            if named:
                found.append((named, i, answer))
            elif m:
                found.append((m.group(1), i, answer))
            elif heading == "#### Decision control":
                found.extend((e, i, answer) for e in _TOP_LEVEL_DECISION_EVENTS)
            else:
                raise AssertionError(f"no event for the example at line {i}: {heading}")
        i += 1
    return found


CLAUDE_OUTPUT_EXAMPLES = _claude_doc_output_examples()


def test_enough_claude_doc_output_examples() -> None:
    assert len({line for _, line, _ in CLAUDE_OUTPUT_EXAMPLES}) >= 20


@pytest.mark.parametrize(
    ("event", "answer"),
    [(e, a) for e, _, a in CLAUDE_OUTPUT_EXAMPLES],
    ids=[f"{e}-line{line}" for e, line, _ in CLAUDE_OUTPUT_EXAMPLES],
)
def test_claude_doc_output_example_decodes(event: str, answer: dict[str, Any]) -> None:
    decoded = decode(event, json.dumps(answer, indent=2))
    assert decoded.diagnostics == ()
    assert decoded.output is not None
    # every key was understood: the answer encodes back to the documented JSON
    assert encode_output(decoded.output) == answer


def _doc_answer(event: str, **contains: Any) -> dict[str, Any]:
    """The documented answer for ``event`` with these values (top level or inside
    ``hookSpecificOutput``)."""
    for e, _, answer in CLAUDE_OUTPUT_EXAMPLES:
        keys = {**answer, **answer.get("hookSpecificOutput", {})}
        if e == event and all(keys.get(k) == v for k, v in contains.items()):
            return answer
    raise AssertionError(f"no documented {event} answer with {contains}")


def test_claude_doc_examples_mean_what_the_doc_says() -> None:
    deny = decode("PreToolUse", _doc_answer("PreToolUse", permissionDecision="deny")).output
    assert isinstance(deny, PreToolUseOutput)
    assert deny.permission_decision == "deny"
    assert deny.permission_decision_reason in (
        "Destructive command blocked by hook",
        "Database writes are not allowed",
    )

    allow = decode("PreToolUse", _doc_answer("PreToolUse", permissionDecision="allow")).output
    assert allow == PreToolUseOutput(
        permission_decision="allow",
        permission_decision_reason="My reason here",
        updated_input={"field_to_modify": "new value"},
        additional_context="Current environment: production. Proceed with caution.",
    )

    grant = decode("PermissionRequest", _doc_answer("PermissionRequest")).output
    assert grant == PermissionRequestOutput(
        permission_decision=PermissionRequestDecision(
            behavior="allow", updated_input={"command": "npm run lint"}
        )
    )

    why = "Must be provided when Claude is blocked from stopping"
    stop = decode("Stop", _doc_answer("Stop", reason=why)).output
    assert isinstance(stop, StopOutput)
    assert stop.decision == "block"
    assert stop.reason == why
    go_on = decode("Stop", _doc_answer("Stop", hookEventName="Stop")).output
    assert go_on == StopOutput(additional_context="Please run the test suite before finishing")

    why = "Configuration changes to project settings require admin approval"
    config = decode("ConfigChange", _doc_answer("ConfigChange", reason=why)).output
    assert config == OUTPUT_TYPES[HookEvent.CONFIG_CHANGE](decision="block", reason=why)

    prompt = decode(
        "UserPromptSubmit", _doc_answer("UserPromptSubmit", hookEventName="UserPromptSubmit")
    ).output
    assert prompt == UserPromptSubmitOutput(
        decision="block",
        reason="Explanation for decision",
        additional_context="My additional context here",
        session_title="My session title",
    )

    start = decode("SessionStart", _doc_answer("SessionStart")).output
    assert isinstance(start, SessionStartOutput)
    assert start.session_title == "auth-refactor"
    assert start.additional_context is not None
    assert start.additional_context.startswith("Current branch: feat/auth-refactor\n")

    note = "This query ran against the staging database, not production."
    post = decode("PostToolUse", _doc_answer("PostToolUse", classifierContext=note)).output
    assert post == PostToolUseOutput(classifier_context=note)

    retry = decode("PermissionDenied", _doc_answer("PermissionDenied")).output
    assert retry == PermissionDeniedOutput(retry=True)

    elicit = decode("Elicitation", _doc_answer("Elicitation")).output
    assert elicit == ElicitationOutput(action="accept", content={"username": "alice"})

    result = decode("ElicitationResult", _doc_answer("ElicitationResult")).output
    assert result == ElicitationResultOutput(action="decline", content={})


def test_claude_doc_post_tool_use_replacement() -> None:
    answer = _doc_answer("PostToolUse", additionalContext="Additional information for Claude")
    post = decode("PostToolUse", answer).output
    assert post == PostToolUseOutput(
        additional_context="Additional information for Claude",
        updated_tool_output={
            "stdout": "[redacted]",
            "stderr": "",
            "interrupted": False,
            "isImage": False,
        },
    )


def _docker_seed_answers() -> list[dict[str, Any]]:
    """Unfenced top-level JSON objects of the Docker Agent seed that are answers."""
    lines = DOCKER_SEED.read_text(encoding="utf-8").splitlines()
    found = []
    for i, line in enumerate(lines):
        if line == "{":
            obj = json.loads("\n".join(lines[i : lines.index("}", i) + 1]))
            if "hook_specific_output" in obj or "decision" in obj:
                found.append(obj)
    return found


def test_docker_seed_answer_examples() -> None:
    answers = _docker_seed_answers()
    assert len(answers) == 2
    full, summary = answers
    decoded = decode("pre_tool_use", full, "docker")
    assert decoded.diagnostics == ()
    assert decoded.output == PreToolUseOutput(
        continue_=True,
        stop_reason="Optional message when continue=false",
        suppress_output=False,
        system_message="Warning message to show user",
        decision="block",
        reason="Explanation for the decision",
        permission_decision="allow",
        permission_decision_reason="Command is safe",
        updated_input={"cmd": "modified command"},
    )
    assert encode_output(decoded.output, "docker") == full

    decoded = decode("before_compaction", summary, "docker")
    assert decoded.diagnostics == ()
    assert decoded.output == BeforeCompactionOutput(
        summary="User asked to refactor pkg/foo. Done in commit abc123."
    )


def test_docker_seed_echoed_answers() -> None:
    """The one-line answers the seed's example scripts echo."""
    text = DOCKER_SEED.read_text(encoding="utf-8")
    echoed = re.findall(r"echo '(\{.*\})'", text)
    assert len(echoed) >= 6
    for answer in echoed:
        assert isinstance(json.loads(answer), dict)
    cases: list[tuple[str, str, HookOutput, list[DiagnosticCode]]] = [
        (
            "pre_tool_use",
            '{"decision": "block", "reason": "Dangerous command blocked by policy"}',
            PreToolUseOutput(
                permission_decision="deny",
                permission_decision_reason="Dangerous command blocked by policy",
            ),
            [DiagnosticCode.DEPRECATED_FIELD],
        ),
        ("post_tool_use", '{"continue": true}', PostToolUseOutput(continue_=True), []),
        (
            "session_start",
            '{"hook_specific_output":{"additional_context":"Session initialized."}}',
            SessionStartOutput(additional_context="Session initialized."),
            [],
        ),
        (
            "permission_request",
            '{"hook_specific_output":{"permission_decision":"allow",'
            '"permission_decision_reason":"safe read-only command"}}',
            PermissionRequestOutput(
                permission_decision=PermissionRequestDecision(behavior="allow")
            ),
            [],
        ),
        (
            "permission_request",
            '{"hook_specific_output":{"metadata":{"risk":"high","note":"deletes files"}}}',
            PermissionRequestOutput(metadata={"risk": "high", "note": "deletes files"}),
            [],
        ),
        (
            "worktree_create",
            '{"continue": false, "system_message": "npm install failed"}',
            OUTPUT_TYPES[HookEvent.WORKTREE_CREATE](
                continue_=False, system_message="npm install failed"
            ),
            [],
        ),
    ]
    for event, answer, expected, expected_codes in cases:
        assert answer in echoed
        decoded = decode(event, answer + "\n", "docker")
        assert decoded.output == expected
        assert codes(decoded) == expected_codes
