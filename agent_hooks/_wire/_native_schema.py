"""JSON Schemas of the payloads and answers of the harnesses with their own wire format
(Gemini CLI, Cursor, Copilot's camelCase form), one pair per native event.

They are derived from the canonical schemas (:mod:`._schema`) and the dialect rows
(:mod:`._dialects`) that the translation reads, so a schema and the translation cannot
disagree: payload keys renamed as the harness spells them, fields a native event keeps
at the top level taken out of ``tool_input``, the event's own name; answers with the
harness's own keys and verdict values, and the event's own answer fields as the
canonical schema describes them. An event the harness documents without a typed
counterpart (Gemini's ``BeforeToolSelection``) gets an open schema with its name.
``typings/generate.py`` writes them to ``typings/dialects/``.
"""

from __future__ import annotations

from typing import Any

from .._events._names import HookEvent
from ._dialects import DIALECTS, Dialect
from ._fields import snake_to_camel
from ._native import AnswerKeys, NativeEvent, NativeWire
from ._schema import DRAFT, SCHEMA_BASE_URL, input_schema, output_schema

__all__ = ["native_schemas"]

_DIR = "dialects/"


def _typed(event: str) -> HookEvent | None:
    try:
        return HookEvent(event)
    except ValueError:
        return None


def _input(dialect: Dialect, wire: NativeWire, native: NativeEvent) -> dict[str, Any]:
    ev = _typed(native.event)
    back: dict[str, str] = {}
    for renames in (native.renames, wire.payload_keys):
        for k, v in renames.items():
            back.setdefault(v, k)
    props: dict[str, Any] = {}
    required: list[str] = []
    defs: dict[str, Any] = {}
    if ev is not None:
        canonical = input_schema(ev)
        defs = canonical.get("$defs", {})
        for key, schema in canonical["properties"].items():
            if key == "hook_event_name":
                continue
            if native.lift and key == "tool_input":
                for lifted in native.lift:
                    props[lifted] = {"description": f"The tool's `{lifted}`."}
                continue
            if (native.tool is not None or native.mcp_keys is not None) and key == "tool_name":
                continue
            if key == "tool_name" and (native.tool_names or wire.tool_names):
                names = ", ".join(f"`{n}`" for n in native.tool_names or wire.tool_names)
                schema = {
                    **schema,
                    "description": f"{schema.get('description', '')} This harness's "
                    f"names map onto the canonical ones: {names}.",
                }
            if key in wire.json_string_keys:
                schema = {
                    "description": schema.get("description", ""),
                    "anyOf": [
                        {k: v for k, v in schema.items() if k != "description"},
                        {"type": "string", "description": "The same object as a JSON string."},
                    ],
                }
            new = back.get(key, key)
            props[new] = schema
            if key in canonical["required"] and key not in wire.fallbacks:
                required.append(new)
    nest = native.nested or wire.nested
    if nest is not None and native.nested_keys:  # (Windsurf's tool_info, Cline's preToolUse)
        own = set(native.nested_keys)
        props[nest] = {
            "description": "The event's own fields.",
            "type": "object",
            "properties": {
                k: props.pop(k, {"description": f"The event's `{k}`."}) for k in native.nested_keys
            },
            "required": [k for k in required if k in own],
            "additionalProperties": True,
        }
        required = [k for k in required if k not in own] + [nest]
    if wire.event_key:
        props = {
            wire.event_key: {
                "description": "The event, as the harness names it.",
                "const": native.name,
            },
            **props,
        }
        required.insert(0, wire.event_key)
    elif native.payload_name:
        props = {"hook_event_name": {"const": native.payload_name}, **props}
    doc: dict[str, Any] = {
        "$schema": DRAFT,
        "$id": f"{SCHEMA_BASE_URL}{_DIR}{dialect.name}.{native.name}.input.schema.json",
        "title": f"{dialect.name} {native.name} input",
        "description": (
            f"The payload {dialect.name} sends for `{native.name}`"
            + (f", read as the typed `{native.event}`" if ev is not None else ", carried untyped")
            + "."
        ),
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": True,
    }
    if defs:
        doc["$defs"] = defs
    return doc


def _nest(props: dict[str, Any], key: str, schema: dict[str, Any]) -> None:
    head, _, tail = key.partition(".")
    if not tail:
        props[head] = schema
        return
    inner = props.setdefault(
        head, {"type": "object", "properties": {}, "additionalProperties": True}
    )
    inner["properties"][tail] = schema


def _field_schema(canonical: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The schema of output field ``name`` (Python name) in an event's canonical answer
    schema, at the top level or in ``hookSpecificOutput``."""
    key = snake_to_camel(name)
    for props in (
        canonical.get("properties", {}),
        canonical.get("properties", {}).get("hookSpecificOutput", {}).get("properties", {}),
    ):
        for k in (name, key):
            if k in props:
                return dict(props[k])
    return None


def _output(dialect: Dialect, wire: NativeWire, native: NativeEvent) -> dict[str, Any]:
    keys: AnswerKeys = wire.answers.get(native.answer) or AnswerKeys()
    props: dict[str, Any] = {}
    if keys.decision:
        values = sorted({*(v for v in keys.decision_values.values() if v), *keys.nearest.values()})
        props[keys.decision] = {"description": "The verdict.", "enum": values}
    for rkey in keys.reasons:
        props[rkey] = {"description": "Why (shown to the user or the model).", "type": "string"}
    if keys.updated_input:
        _nest(
            props,
            keys.updated_input,
            {"description": "The tool's input, rewritten.", "type": "object"},
        )
    if keys.context:
        _nest(
            props, keys.context, {"description": "Context added for the model.", "type": "string"}
        )
    if keys.updated_output:
        for key, value in keys.updated_output_with.items():
            _nest(props, key, {"const": value})
        _nest(props, keys.updated_output, {"description": "The tool's result, replaced."})
    ev = _typed(native.event)
    defs: dict[str, Any] = {}
    if keys.fields and ev is not None:
        canonical = output_schema(ev)
        defs = canonical.get("$defs", {})
        for name, key in keys.fields.items():
            found = _field_schema(canonical, name)
            if found is not None:
                _nest(props, key, found)
    if keys.followup:
        props[keys.followup] = {
            "description": "Keeps the agent going with this message.",
            "type": "string",
        }
    if keys.interrupt:
        props[keys.interrupt] = {"description": "With a deny: stop the agent.", "type": "boolean"}
    if keys.continue_key:
        said = (
            "false, with the reason, is a block."
            if keys.block_as_continue_false
            else "false stops the agent."
        )
        props[keys.continue_key] = {"description": said, "type": "boolean"}
    if keys.stop_reason:
        props[keys.stop_reason] = {"description": "Why the agent stopped.", "type": "string"}
    if keys.system_message:
        props[keys.system_message] = {"description": "A message for the user.", "type": "string"}
    doc: dict[str, Any] = {
        "$schema": DRAFT,
        "$id": f"{SCHEMA_BASE_URL}{_DIR}{dialect.name}.{native.name}.output.schema.json",
        "title": f"{dialect.name} {native.name} output",
        "description": (
            f"An answer to `{native.name}` in {dialect.name}'s own shape"
            + (
                " (Claude Code's shape, passed on as it is)."
                if native.answer == "passthrough"
                else "."
            )
        ),
        "type": "object",
        "properties": props,
        "additionalProperties": True,
    }
    if defs:
        doc["$defs"] = defs
    return doc


def native_schemas() -> dict[str, dict[str, Any]]:
    """Every native event's input and output schema, by file name under ``typings/``
    (``dialects/gemini.BeforeTool.input.schema.json``), sorted by name."""
    found: dict[str, dict[str, Any]] = {}
    for dialect in DIALECTS.values():
        wire = dialect.native
        if wire is None:
            continue
        for native in wire.events:
            stem = f"{_DIR}{dialect.name}.{native.name}"
            found[f"{stem}.input.schema.json"] = _input(dialect, wire, native)
            found[f"{stem}.output.schema.json"] = _output(dialect, wire, native)
    return dict(sorted(found.items()))
