"""JSON Schemas: generated from the codec's descriptors, valid draft 2020-12, checked in
up to date under ``typings/``, and accepting what the codec writes."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest

from agent_hooks import (
    HookEvent,
    PreToolUseInput,
    decode_input,
    decode_output,
    encode_input,
    encode_output,
)
from agent_hooks._events._capabilities import CAPABILITIES
from agent_hooks._events._catalog import INPUT_TYPES, OUTPUT_TYPES
from agent_hooks._wire._fields import field_codecs
from agent_hooks._wire._schema import DRAFT, all_schemas, input_schema, output_schema
from tests.events.test_wire_inputs import CLAUDE_EXAMPLES, minimal_input, sample_input
from tests.events.test_wire_outputs import CLAUDE_OUTPUT_EXAMPLES, sample_output

ROOT = Path(__file__).resolve().parents[2]
TYPINGS = ROOT / "typings"
EVENTS = list(HookEvent)
Validator = jsonschema.Draft202012Validator


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("typings_generate", TYPINGS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generate = _load_generator()
SCHEMAS = all_schemas()


def _validator(schema: dict[str, Any]) -> jsonschema.protocols.Validator:
    return Validator(schema)


def _errors(schema: dict[str, Any], instance: Any) -> list[str]:
    return [e.message for e in _validator(schema).iter_errors(instance)]


# ------------------------------------------------------------- checked in


def test_checked_in_typings_are_up_to_date() -> None:
    assert generate.check(TYPINGS) == [], "run: python typings/generate.py"


def test_checked_in_files_are_exactly_all_schemas() -> None:
    on_disk = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in TYPINGS.glob("*.json")}
    assert on_disk == SCHEMAS
    assert (TYPINGS / "README.md").is_file()


def test_generator_check_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert generate.main(["--check"]) == 0
    # an empty directory: everything is missing, nothing is written
    assert generate.main(["--check", "--dir", str(tmp_path)]) == 1
    assert "missing: PreToolUse.input.schema.json" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []
    # write, then check passes
    assert generate.main(["--dir", str(tmp_path)]) == 0
    assert generate.check(tmp_path) == []
    assert len(list(tmp_path.glob("*.json"))) == 2 * len(HookEvent)
    # a changed, a removed and an extra file are all reported
    (tmp_path / "Stop.output.schema.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "Stop.input.schema.json").unlink()
    (tmp_path / "Old.input.schema.json").write_text("{}\n", encoding="utf-8")
    capsys.readouterr()
    assert generate.main(["--check", "--dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "differs: Stop.output.schema.json" in out
    assert "missing: Stop.input.schema.json" in out
    assert "extra: Old.input.schema.json" in out
    assert not (tmp_path / "Stop.input.schema.json").exists()  # --check wrote nothing
    # regenerating repairs everything
    assert generate.main(["--dir", str(tmp_path)]) == 0
    assert generate.check(tmp_path) == []


def test_rendered_files_are_sorted_indented_with_trailing_newline() -> None:
    text = generate.render(SCHEMAS["Stop.input.schema.json"])
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# --------------------------------------------------------------- validity


def test_one_input_and_one_output_schema_per_event() -> None:
    expected = {f"{e.value}.{kind}.schema.json" for e in HookEvent for kind in ("input", "output")}
    assert set(SCHEMAS) == expected


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = SCHEMAS[name]
    Validator.check_schema(schema)
    assert schema["$schema"] == DRAFT == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://agent-hooks.dev/schemas/{name}"
    assert schema["title"] and schema["description"]
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is True
    assert "\n" not in schema["description"]


def _properties(schema: Any, path: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (path, property schema) of a schema, nested definitions included."""
    if isinstance(schema, dict):
        for key, prop in schema.get("properties", {}).items():
            yield f"{path}.{key}", prop
            yield from _properties(prop, f"{path}.{key}")
        for key, sub in schema.get("$defs", {}).items():
            yield from _properties(sub, f"{path}.$defs.{key}")


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_property_is_described(name: str) -> None:
    undescribed = [p for p, prop in _properties(SCHEMAS[name]) if not prop.get("description")]
    assert undescribed == []


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_refs_resolve_to_defs(name: str) -> None:
    schema = SCHEMAS[name]
    refs = {m for m in json.dumps(schema).split('"$ref": "')[1:]}
    targets = {r.split('"', 1)[0] for r in refs}
    for target in targets:
        assert target.startswith("#/$defs/")
        assert target.removeprefix("#/$defs/") in schema["$defs"]


# ------------------------------------------------------ agreement with codec


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_input_schema_matches_the_codec(event: HookEvent) -> None:
    schema = input_schema(event)
    codecs = [fc for fc in field_codecs(INPUT_TYPES[event], False) if fc.name != "extra"]
    assert set(schema["properties"]) == {"hook_event_name"} | {fc.docker_key for fc in codecs}
    assert schema["required"] == ["hook_event_name"] + [
        fc.docker_key for fc in codecs if fc.required
    ]
    assert set(schema["properties"]["hook_event_name"]["enum"]) == {event.value, event.snake}


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_output_schema_lists_honoured_fields_only(event: HookEvent) -> None:
    spec = CAPABILITIES[event]
    schema = output_schema(event)
    top = set(schema["properties"]) - {"hookSpecificOutput"}
    specific = schema["properties"].get("hookSpecificOutput")
    codecs = field_codecs(OUTPUT_TYPES[event], True)
    assert top == {
        fc.claude_key for fc in codecs if not fc.info.specific and fc.name in spec.honoured_fields
    }
    own = {fc.claude_key for fc in codecs if fc.info.specific}
    if own:
        assert specific is not None
        assert set(specific["properties"]) == own | {"hookEventName"}
        assert specific["properties"]["hookEventName"]["const"] == event.value
        assert specific["required"] == ["hookEventName"]
    else:
        assert specific is None
    assert ("decision" in top) is spec.top_level_decision


def test_schema_examples_of_types() -> None:
    pre = output_schema("PreToolUse")["properties"]
    spec = pre["hookSpecificOutput"]["properties"]
    assert spec["permissionDecision"]["enum"] == ["allow", "deny", "ask", "defer"]
    assert spec["updatedInput"]["type"] == "object"
    assert pre["continue"]["type"] == "boolean"
    assert pre["decision"]["enum"] == ["block"]
    perm = output_schema("PermissionRequest")
    ref = perm["properties"]["hookSpecificOutput"]["properties"]["decision"]["$ref"]
    assert ref == "#/$defs/PermissionRequestDecision"
    decision = perm["$defs"]["PermissionRequestDecision"]
    assert decision["required"] == ["behavior"]
    assert decision["additionalProperties"] is False  # nested answers decode strictly
    assert set(decision["properties"]) == {
        "behavior",
        "updatedInput",
        "updatedPermissions",
        "message",
        "interrupt",
    }
    stop = input_schema("Stop")
    assert stop["properties"]["background_tasks"]["items"] == {"$ref": "#/$defs/BackgroundTask"}
    assert stop["$defs"]["BackgroundTask"]["additionalProperties"] is True
    llm = input_schema("AfterLLMCall")["properties"]
    assert llm["cost"]["type"] == "number"
    assert llm["usage"]["$ref"] == "#/$defs/LLMUsage"
    assert input_schema("PostToolUse")["properties"]["duration_ms"]["type"] == "integer"
    assert "type" not in input_schema("PostToolUse")["properties"]["tool_response"]
    assert input_schema("FileChanged")["properties"]["event"]["type"] == "string"


# ------------------------------------------- what the codec writes validates


@pytest.mark.parametrize("wire", ["claude", "docker"])
@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_round_trip_payloads_validate(event: HookEvent, wire: str) -> None:
    schema = input_schema(event)
    for x in (sample_input(event), minimal_input(event)):
        payload = json.loads(json.dumps(encode_input(x, wire)))
        assert _errors(schema, payload) == []
        assert decode_input(payload).input == x


@pytest.mark.parametrize("event", EVENTS, ids=str)
def test_round_trip_answers_validate(event: HookEvent) -> None:
    schema = output_schema(event)
    answer = sample_output(event)
    encoded = json.loads(json.dumps(encode_output(answer, "claude")))
    assert _errors(schema, encoded) == []
    assert _errors(schema, {}) == []
    assert decode_output(event, encoded).output == answer


@pytest.mark.parametrize(
    ("event", "block"),
    [(name, block) for name, _, block in CLAUDE_EXAMPLES],
    ids=[f"{name}-line{line}" for name, line, _ in CLAUDE_EXAMPLES],
)
def test_documented_payloads_validate(event: str, block: str) -> None:
    try:
        payload = json.loads(block)
    except ValueError:
        pytest.skip("example with placeholders, not valid JSON")
    assert _errors(input_schema(event), payload) == []


@pytest.mark.parametrize(
    ("event", "answer"),
    [(e, a) for e, _, a in CLAUDE_OUTPUT_EXAMPLES],
    ids=[f"{e}-line{line}" for e, line, _ in CLAUDE_OUTPUT_EXAMPLES],
)
def test_documented_answers_validate(event: str, answer: dict[str, Any]) -> None:
    assert _errors(output_schema(event), answer) == []


# ----------------------------------------- what the codec rejects, the schema too


def test_schema_rejects_what_the_codec_rejects() -> None:
    pre_in = input_schema("PreToolUse")
    assert _errors(pre_in, {"hook_event_name": "PreToolUse"})  # tool_name required
    assert _errors(pre_in, {"hook_event_name": "Stop", "tool_name": "Bash"})
    assert _errors(pre_in, {"hook_event_name": "PreToolUse", "tool_name": 5})
    assert _errors(pre_in, {"hook_event_name": "PreToolUse", "tool_name": "x", "tool_input": []})
    ok = encode_input(PreToolUseInput(tool_name="Bash", extra={"new_field": 1}))
    assert _errors(pre_in, ok) == []

    pre_out = output_schema("PreToolUse")
    assert _errors(pre_out, {"hookSpecificOutput": {"hookEventName": "PreToolUse"}}) == []
    assert _errors(pre_out, {"hookSpecificOutput": {"permissionDecision": "allow"}})
    bad_values = [
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}},
        {"hookSpecificOutput": {"hookEventName": "Stop"}},
        {"continue": "no"},
        {"decision": "approve"},
        {"systemMessage": 5},
    ]
    for answer in bad_values:
        assert _errors(pre_out, answer), answer
        assert decode_output("PreToolUse", answer).diagnostics, answer

    perm = output_schema("PermissionRequest")
    strict = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow", "bogus": 1},
        }
    }
    assert _errors(perm, strict)
    assert decode_output("PermissionRequest", strict).output is not None
    assert decode_output("PermissionRequest", strict).diagnostics
