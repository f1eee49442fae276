"""JSON Schema (draft 2020-12) of every event's payload and answer.

The schemas are generated from the event classes through the same
:func:`~agent_hooks._wire._fields.field_codecs` and :class:`~agent_hooks._wire._fields.TypeDesc`
the wire codec uses, so a schema and the codec cannot disagree about a key, a
type or an allowed value. ``typings/generate.py`` writes them to ``typings/``.

* Input schemas describe the payload a hook reads on stdin. Keys are snake_case
  in both wire formats; ``hook_event_name`` is the event's claude spelling
  (``PreToolUse``) or its docker spelling (``pre_tool_use``). Harnesses add
  fields over time, so unknown keys are allowed (``additionalProperties: true``).
* Output schemas describe an answer in the claude wire format: camelCase keys,
  the universal fields at the top level, the event's own fields inside
  ``hookSpecificOutput`` next to ``hookEventName``. Only fields the event honours
  (:attr:`~agent_hooks._events._capabilities.EventSpec.honoured_fields`) are listed. Unknown keys are
  allowed too: real hooks add keys of their own, and the decoder ignores them
  with an ``unknown_field`` diagnostic instead of rejecting the answer.
* ``None`` is never written on the wire (an unset field is omitted), so fields
  are described by their type alone, without ``null``.
* Nested attrs classes become ``$defs`` entries referenced with ``$ref``.
"""

from __future__ import annotations

import inspect
from typing import Any

from .._events._capabilities import CAPABILITIES
from .._events._model import HookOutput
from .._events._names import HookEvent, parse_event
from ._fields import FieldCodec, TypeDesc, field_codecs

__all__ = ["DRAFT", "SCHEMA_BASE_URL", "all_schemas", "input_schema", "output_schema"]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
"""The ``$schema`` of every generated schema."""

SCHEMA_BASE_URL = "https://agent-hooks.dev/schemas/"
"""Prefix of every generated schema's ``$id``."""

_OUTPUT_COMMENT = (
    "additionalProperties is true on purpose: real hooks print keys of their own, and "
    "agent_hooks ignores unknown keys with an unknown_field diagnostic instead of "
    "rejecting the whole answer. Fields of other events are ignored the same way "
    "(unsupported_field)."
)
_INPUT_COMMENT = (
    "additionalProperties is true on purpose: harnesses add payload fields over time; "
    "agent_hooks keeps unknown fields in HookInput.extra and writes them back."
)


def _text(doc: str) -> str:
    """A docstring or field doc as one line of Markdown (``x`` -> `x`)."""
    return " ".join(doc.split()).replace("``", "`")


def _summary(cls: type) -> str:
    """The first paragraph of a class docstring, on one line."""
    doc = inspect.getdoc(cls) or ""
    return _text(doc.split("\n\n", 1)[0])


def _file_name(event: HookEvent, kind: str) -> str:
    return f"{event.value}.{kind}.schema.json"


class _Builder:
    """Turns type descriptors into schema fragments, collecting ``$defs`` as it goes."""

    def __init__(self, *, output: bool) -> None:
        self.output = output
        self.defs: dict[str, dict[str, Any]] = {}

    def type_schema(self, t: TypeDesc) -> dict[str, Any]:
        kind = t.kind
        if kind == "str":
            return {"type": "string"}
        if kind == "int":
            return {"type": "integer"}
        if kind == "float":
            return {"type": "number"}
        if kind == "bool":
            return {"type": "boolean"}
        if kind == "any":
            return {}
        if kind == "literal":
            return {"enum": list(t.values)}
        if kind == "map":
            (value,) = t.values
            schema: dict[str, Any] = {"type": "object"}
            if value.kind != "any":
                schema["additionalProperties"] = self.type_schema(value)
            return schema
        if kind == "list":
            (item,) = t.values
            schema = {"type": "array"}
            if item.kind != "any":
                schema["items"] = self.type_schema(item)
            return schema
        if kind == "object":
            assert t.cls is not None
            return {"$ref": f"#/$defs/{self.define(t.cls)}"}
        if kind == "union":
            return {"anyOf": [self.type_schema(m) for m in t.values]}
        raise TypeError(f"no JSON Schema for type kind {kind!r}")

    def field_schema(self, fc: FieldCodec) -> dict[str, Any]:
        schema = self.type_schema(fc.type)
        doc = _text(fc.info.doc)
        if "$ref" in schema:
            # 2020-12 allows siblings of $ref; keep the field's own description next to it.
            return {"description": doc, **schema} if doc else schema
        if doc:
            schema["description"] = doc
        return schema

    def define(self, cls: type) -> str:
        """Add a nested attrs class to ``$defs`` (once) and return its name."""
        name = cls.__name__
        if name in self.defs:
            return name
        self.defs[name] = {}  # reserve the name first: a class may refer to itself
        properties: dict[str, Any] = {}
        required: list[str] = []
        for fc in field_codecs(cls, self.output):
            key = fc.key("claude")
            properties[key] = self.field_schema(fc)
            if fc.required:
                required.append(key)
        schema: dict[str, Any] = {
            "type": "object",
            "description": _summary(cls),
            "properties": properties,
            # Nested answer objects are decoded strictly (unknown keys make the whole
            # value wrong); nested payload objects tolerate keys a newer harness added.
            "additionalProperties": not self.output,
        }
        if required:
            schema["required"] = required
        self.defs[name] = schema
        return name


def _document(
    event: HookEvent, kind: str, cls: type, builder: _Builder, body: dict[str, Any]
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "$schema": DRAFT,
        "$id": SCHEMA_BASE_URL + _file_name(event, kind),
        "title": f"{event.value} {kind}",
        "description": _summary(cls),
        **body,
    }
    if builder.defs:
        doc["$defs"] = dict(sorted(builder.defs.items()))
    return doc


def input_schema(event: HookEvent | str) -> dict[str, Any]:
    """The JSON Schema of ``event``'s hook payload (what a hook reads on stdin).

    Keys are the payload's snake_case keys; ``hook_event_name`` must name the event
    (claude or docker spelling); fields a harness may omit are not required.
    """
    ev = parse_event(event)
    cls = CAPABILITIES[ev].input_type
    builder = _Builder(output=False)
    names = [ev.value] if ev.snake == ev.value else [ev.value, ev.snake]
    properties: dict[str, Any] = {
        "hook_event_name": {
            "description": (
                f"The event's name: `{ev.value}` (claude wire format) or `{ev.snake}` "
                "(docker wire format)."
            ),
            "enum": names,
        }
    }
    required = ["hook_event_name"]
    for fc in field_codecs(cls, False):
        if fc.name == "extra":
            continue
        key = fc.key("claude")
        properties[key] = builder.field_schema(fc)
        if fc.required:
            required.append(key)
    body: dict[str, Any] = {
        "$comment": _INPUT_COMMENT,
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": True,
    }
    return _document(ev, "input", cls, builder, body)


def output_schema(event: HookEvent | str) -> dict[str, Any]:
    """The JSON Schema of an answer to ``event`` in the claude wire format.

    Universal fields sit at the top level; the event's own fields sit inside
    ``hookSpecificOutput`` with a ``hookEventName`` naming the event. Only the
    fields the event honours are listed; every field is optional.
    """
    ev = parse_event(event)
    spec = CAPABILITIES[ev]
    cls: type[HookOutput] = spec.output_type
    honoured = spec.honoured_fields
    builder = _Builder(output=True)
    top: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    for fc in field_codecs(cls, True):
        if fc.name not in honoured:
            continue
        target = specific if fc.info.specific else top
        target[fc.key("claude")] = builder.field_schema(fc)
    if specific:
        top["hookSpecificOutput"] = {
            "description": f"The fields of {ev.value} itself.",
            "type": "object",
            "properties": {
                "hookEventName": {
                    "description": (
                        "Names the event these fields are for. Claude Code requires it; "
                        "agent_hooks accepts it missing, and ignores the fields next to it "
                        "when it names another event."
                    ),
                    "const": ev.value,
                },
                **specific,
            },
            "required": ["hookEventName"],
            "additionalProperties": True,
        }
    body: dict[str, Any] = {
        "$comment": _OUTPUT_COMMENT,
        "type": "object",
        "properties": top,
        "additionalProperties": True,
    }
    return _document(ev, "output", cls, builder, body)


def all_schemas() -> dict[str, dict[str, Any]]:
    """Every schema by file name (``PreToolUse.input.schema.json``, ...), sorted by name."""
    found: dict[str, dict[str, Any]] = {}
    for ev in HookEvent:
        found[_file_name(ev, "input")] = input_schema(ev)
        found[_file_name(ev, "output")] = output_schema(ev)
    return dict(sorted(found.items()))
