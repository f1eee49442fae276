"""The wire codecs: hook payloads and handler answers to and from JSON.

This is the only module that reads or writes hook JSON. Inputs are encoded to
the exact payload a command hook of a wire format expects on stdin; answers are
decoded leniently (both key spellings, the Claude Agent SDK's ``continue_`` and
``async_``, deprecated forms) and never raise: whatever is wrong becomes a
:class:`~agent_hooks.Diagnostic` and the offending piece is ignored.

Wire formats: ``claude`` (PascalCase event names, camelCase answer keys,
``hookSpecificOutput``) and ``docker`` (snake_case everywhere,
``hook_specific_output``). Input payload keys are snake_case in both.

Whatever the JSON parser accepted can be written back (:mod:`._json`): a lone
surrogate travels as its ``\\uXXXX`` escape, nesting of any depth is handled without
recursion, and a payload's bytes are always valid UTF-8 JSON.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from typing import Any, Generic, Literal, TypeVar

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._base._errors import InvalidPayloadError
from .._events._capabilities import CAPABILITIES, EventSpec, spec_for
from .._events._model import HookInput, HookOutput, Merge, PayloadOrigin
from .._events._names import HookEvent
from .._events._untyped import UntypedEvent, UntypedInput, resolve_event
from ._dialects import Dialect, WireFormat, get_dialect
from ._fields import (
    FieldCodec,
    WireBadValue,
    convert,
    field_codecs,
    json_type_name,
    short_repr,
    to_json,
)
from ._json import dump_bytes
from ._native import NativeEvent
from ._translate import answer_from_native, to_native

__all__ = [
    "DecodedInput",
    "DecodedOutput",
    "decode_input",
    "decode_output",
    "encode_input",
    "encode_output",
    "foreign_keys",
    "payload_bytes",
    "wire_event_name",
]

_SPECIFIC_KEYS = ("hookSpecificOutput", "hook_specific_output")
_EVENT_NAME_KEYS = ("hookEventName", "hook_event_name")
_ASYNC_KEYS = ("async", "async_")
_ASYNC_TIMEOUT_KEYS = ("asyncTimeout", "async_timeout")
_MAX_ASYNC_TIMEOUT_MS = 1e300  # beyond the float range (a huge JSON integer) is not a timeout

O = TypeVar("O", bound=HookOutput)


def _wire_of(dialect: Dialect | WireFormat | str) -> WireFormat:
    if dialect in ("claude", "docker"):
        return dialect
    return get_dialect(dialect).wire


def wire_event_name(
    event: HookEvent | UntypedEvent, dialect: Dialect | WireFormat | str = "claude"
) -> str:
    """The event's name as a wire format spells it (``PreToolUse`` / ``pre_tool_use``)."""
    return event.value if _wire_of(dialect) == "claude" else event.snake


# ------------------------------------------------------------------ inputs


@attrs.frozen(kw_only=True)
class DecodedInput:
    """A decoded hook payload: the typed input, what was odd about it, and its wire format."""

    input: HookInput[Any]
    diagnostics: tuple[Diagnostic, ...] = ()
    wire: WireFormat = "claude"
    dialect: Dialect | None = None
    """The harness whose own wire format the payload came in (Gemini CLI, Cursor,
    Copilot's camelCase form), when it is not the canonical one: answers go back in it."""
    native_event: NativeEvent | None = None
    """The event as that harness named it (``beforeShellExecution``)."""


_SCALAR_KINDS = frozenset({"str", "int", "float", "bool", "literal"})
_JSON_SCALARS = frozenset({str, int, float, bool, type(None)})

_Converter = Callable[[Any], Any]


@attrs.frozen
class _PayloadFields:
    """How one input class is written in one wire format: its fields in payload order,
    each as (attribute name, wire key, converter or ``None`` for a JSON scalar kind),
    split where ``hook_event_name`` goes."""

    event_name: str
    head: tuple[tuple[str, str, _Converter | None], ...]
    """The fields up to ``permission_mode`` (all of them when the class has none)."""
    tail: tuple[tuple[str, str, _Converter | None], ...]
    convert: _Converter
    """What turns an ``extra`` value into fresh JSON data."""


def _fresh_json_converter(wire: WireFormat) -> _Converter:
    """:func:`to_json` for input values: fresh JSON data, so that a payload shares no
    dict or list with the input."""

    def convert(value: Any) -> Any:
        return to_json(value, wire=wire, output=False)

    return convert


_PAYLOAD_FIELDS: dict[tuple[type, WireFormat], _PayloadFields] = {}


def _payload_fields(cls: type[HookInput[Any]], wire: WireFormat) -> _PayloadFields:
    """The :class:`_PayloadFields` of ``cls`` in ``wire``, worked out on first use."""
    found = _PAYLOAD_FIELDS.get((cls, wire))
    if found is None:
        found = _PAYLOAD_FIELDS[(cls, wire)] = _read_payload_fields(cls, wire)
    return found


def _read_payload_fields(cls: type[HookInput[Any]], wire: WireFormat) -> _PayloadFields:
    convert = _fresh_json_converter(wire)
    head: list[tuple[str, str, _Converter | None]] = []
    tail: list[tuple[str, str, _Converter | None]] = []
    target = head
    for fc in field_codecs(cls, False):
        if fc.name == "extra":
            continue
        target.append((fc.name, fc.key(wire), None if fc.type.kind in _SCALAR_KINDS else convert))
        if fc.name == "permission_mode":
            # harnesses write hook_event_name right after permission_mode
            target = tail
    return _PayloadFields(
        event_name="" if cls is UntypedInput else wire_event_name(cls.event, wire),
        head=tuple(head),
        tail=tuple(tail),
        convert=convert,
    )


def _put_fields(
    payload: dict[str, Any], input: Any, fields: tuple[tuple[str, str, _Converter | None], ...]
) -> None:
    for name, key, to_wire in fields:
        value = getattr(input, name)
        if value is not None:
            payload[key] = value if to_wire is None else to_wire(value)


def encode_input(
    input: HookInput[Any], dialect: Dialect | WireFormat | str = "claude"
) -> dict[str, Any]:
    """The JSON object a hook of this dialect receives for ``input``.

    An input decoded from JSON (``input.origin``) is written as it came: every key in
    its order, ``null`` values and keys no class declares included, at any depth; a
    field changed since (a rewrite, the envelope the session filled in) is written
    from its new value in its place, and fields and ``extra`` keys the payload did
    not have come after. ``hook_event_name`` is spelled as ``dialect`` spells it.

    Otherwise keys come in the class's field order, with ``hook_event_name`` right
    after ``permission_mode`` (last when the event has none). Fields left ``None``
    are omitted; ``extra`` fields are written back after them as they came, never
    overriding a known key. Every call returns a new structure that shares no
    dict or list, at any depth, with ``input`` or with any other call's result.
    """
    tool = getattr(input, "tool_name", None)
    native = _native_event(dialect, input.event, tool if isinstance(tool, str) else None)
    if native is not None:
        assert isinstance(dialect, Dialect) and dialect.native is not None
        return to_native(encode_input(input, "claude"), dialect.native, native)
    wire = _wire_of(dialect)
    fields = _payload_fields(type(input), wire)
    event_name = fields.event_name or wire_event_name(input.event, wire)
    if input.origin is not None:
        return _encode_from_origin(input, input.origin, fields, event_name)
    payload: dict[str, Any] = {}
    _put_fields(payload, input, fields.head)
    payload["hook_event_name"] = event_name
    _put_fields(payload, input, fields.tail)
    if input.extra:
        for key, value in input.extra.items():
            if key not in payload:
                payload[key] = fields.convert(value)
    return payload


def _native_event(
    dialect: Dialect | WireFormat | str,
    event: HookEvent | UntypedEvent | str,
    tool: str | None = None,
) -> NativeEvent | None:
    """The native event a payload or answer of ``event`` (about ``tool``, when known) is
    written as for a dialect with its own wire format (the handler's configured event,
    else the row's default); ``None`` for the canonical formats, or when the harness has
    no such event (then the canonical form is used)."""
    if not isinstance(dialect, Dialect) or dialect.native is None:
        return None
    name = str(getattr(event, "value", event))
    if dialect.native_event is not None:
        found = dialect.native.by_name(dialect.native_event)
        if found is not None and found.event == name:
            return found
    return dialect.native.for_event(name, tool)


_UNSET: Any = object()


def _encode_from_origin(
    input: HookInput[Any], origin: PayloadOrigin, fields: _PayloadFields, event_name: str
) -> dict[str, Any]:
    """:func:`encode_input` of a decoded input: its payload as it came, updated."""
    by_key = {key: (name, to_wire) for name, key, to_wire in (*fields.head, *fields.tail)}
    convert = fields.convert
    extra = input.extra
    payload: dict[str, Any] = {}
    for key, came in origin.data.items():
        if key == "hook_event_name":
            payload[key] = event_name
            continue
        typed = by_key.get(key)
        if typed is not None:
            name, to_wire = typed
            value = getattr(input, name)
            if value is origin.values.get(name, _UNSET):
                # as it came: nulls, undeclared nested keys, a value that did not fit
                payload[key] = convert(came)
            elif value is not None:
                payload[key] = value if to_wire is None else to_wire(value)
        elif key in extra:
            payload[key] = convert(extra[key])
    for name, key, to_wire in (*fields.head, *fields.tail):
        if key not in payload and key not in origin.data:
            value = getattr(input, name)
            if value is not None and value is not origin.values.get(name, _UNSET):
                payload[key] = value if to_wire is None else to_wire(value)
    payload.setdefault("hook_event_name", event_name)
    for key, value in extra.items():
        if key not in payload:
            payload[key] = convert(value)
    return payload


def payload_bytes(input: HookInput[Any], dialect: Dialect | WireFormat | str = "claude") -> bytes:
    """``encode_input`` as compact UTF-8 JSON, ready for a hook's stdin.

    Always valid UTF-8 JSON for a payload that came from JSON: a lone surrogate
    (``"\\ud800"`` in the harness's payload) is written as that same escape, nesting is
    handled at any depth, ``NaN`` and the infinities become ``null``.

    Raises:
        TypeError, ValueError: a value set from Python is not JSON data (an object of
            another type, a container holding itself).
    """
    return dump_bytes(encode_input(input, dialect))


def _load_json(data: bytes | str) -> Any:
    if isinstance(data, bytes):
        data = data.decode("utf-8", errors="replace")
    try:
        return json.loads(data)
    except RecursionError:
        raise _TooDeep() from None


class _TooDeep(ValueError):
    """JSON nested deeper than Python's parser goes (its recursion limit)."""

    def __init__(self) -> None:
        super().__init__("nested too deeply to read (deeper than Python's JSON parser goes)")


_PAYLOAD_KEYS: dict[type, tuple[tuple[FieldCodec, ...], frozenset[str]]] = {}


def _payload_keys(cls: type[HookInput[Any]]) -> tuple[tuple[FieldCodec, ...], frozenset[str]]:
    """The fields a payload of an input class is read into (all but ``extra``), and every
    key they and ``hook_event_name`` take (the rest goes into ``extra``); worked out once."""
    found = _PAYLOAD_KEYS.get(cls)
    if found is None:
        fields = tuple(fc for fc in field_codecs(cls, False) if fc.name != "extra")
        found = _PAYLOAD_KEYS[cls] = (
            fields,
            frozenset({"hook_event_name", *(fc.docker_key for fc in fields)}),
        )
    return found


def decode_input(
    data: bytes | str | Mapping[str, Any], *, event: HookEvent | str | None = None
) -> DecodedInput:
    """Decode a hook payload into the event's typed input.

    The event comes from ``hook_event_name`` (either spelling) unless ``event`` is
    given; its spelling also tells the wire format. Unknown keys are kept in
    ``extra``; an optional field of the wrong type is left unset with an
    ``invalid_field`` diagnostic. The payload itself is kept (``origin``), so that
    command hooks get it as it came, that value included.

    An event this version does not type (neither a known name nor a close misspelling
    of one: :func:`~agent_hooks._events._untyped.resolve_event`) decodes into an
    :class:`~agent_hooks.UntypedInput`, with an ``untyped_event`` warning.

    Raises:
        InvalidPayloadError: not a JSON object, no event name, or a required
            field missing or of the wrong type.
        UnknownEventError: the event name is a close misspelling of a known event,
            or cannot be an event name.
    """
    if isinstance(data, (bytes, str)):
        try:
            obj = _load_json(data)
        except _TooDeep as exc:
            raise InvalidPayloadError(f"payload is {exc}") from None
        except ValueError as exc:
            raise InvalidPayloadError(f"payload is not valid JSON ({exc})") from None
    else:
        obj = data
    if not isinstance(obj, Mapping):
        raise InvalidPayloadError(f"payload must be a JSON object, got {type(obj).__name__}")
    name = obj.get("hook_event_name")
    wire: WireFormat = "claude"
    if isinstance(name, str) and (name.islower() or "_" in name):
        wire = "docker"
    if event is None:
        if name is None:
            raise InvalidPayloadError("missing hook_event_name", path="$.hook_event_name")
        if not isinstance(name, str):
            raise InvalidPayloadError("hook_event_name must be a string", path="$.hook_event_name")
        ev = resolve_event(name)
    else:
        ev = resolve_event(event)
    kwargs: dict[str, Any] = {}
    diags: list[Diagnostic] = []
    if isinstance(ev, UntypedEvent):
        cls: type[HookInput[Any]] = UntypedInput
        diags.append(untyped_diagnostic(ev))
    else:
        cls = CAPABILITIES[ev].input_type
    fields, known = _payload_keys(cls)
    notes: list[str] = []
    for fc in fields:
        key = fc.docker_key
        if key not in obj:
            if fc.required:
                raise InvalidPayloadError(f"missing required field for {ev.value}", path=f"$.{key}")
            continue
        try:
            kwargs[fc.name] = convert(fc.type, obj[key], wire=wire, output=False, notes=notes)
        except WireBadValue as exc:
            if fc.required:
                raise InvalidPayloadError(str(exc), path=f"$.{key}") from None
            diags.append(
                Diagnostic(
                    code=DiagnosticCode.INVALID_FIELD,
                    message=f"payload field {key!r} ignored: {exc}",
                    location=f"$.{key}",
                )
            )
    for note in notes:
        diags.append(
            Diagnostic(
                code=DiagnosticCode.UNKNOWN_FIELD,
                message=f"payload key {note} is not known to this version; not typed, "
                "passed on to command hooks as it came",
                severity=Severity.INFO,
            )
        )
    extra = {k: v for k, v in obj.items() if k not in known}
    values: dict[str, Any] = {}
    origin = PayloadOrigin(data=obj if isinstance(data, (bytes, str)) else dict(obj), values=values)
    if isinstance(ev, UntypedEvent):
        kwargs["event_name"] = ev.value
    decoded = cls(extra=extra, origin=origin, **kwargs)
    for fc in fields:  # what decoding made of every field, defaults included
        values[fc.name] = getattr(decoded, fc.name)
    return DecodedInput(input=decoded, diagnostics=tuple(diags), wire=wire)


def untyped_diagnostic(event: UntypedEvent, location: str | None = None) -> Diagnostic:
    """The warning that ``event`` is carried untyped."""
    return Diagnostic(
        code=DiagnosticCode.UNTYPED_EVENT,
        message=(
            f"event {event.value!r} is not typed by this version of agent_hooks; its hooks "
            "run with the payload as it came and answers reduced by the rules every event shares"
        ),
        severity=Severity.WARNING,
        location=location,
    )


# ----------------------------------------------------------------- outputs


@attrs.frozen(kw_only=True)
class DecodedOutput(Generic[O]):
    """A decoded handler answer.

    ``output`` is ``None`` when the answer said nothing usable (empty, not an
    object, malformed). ``is_async`` is set when the answer was the Claude Agent
    SDK's ``{"async": true}``: the handler carries on by itself and this answer
    holds no decision.
    """

    output: O | None
    diagnostics: tuple[Diagnostic, ...] = ()
    is_async: bool = False
    async_timeout: float | None = None
    """Seconds (converted from ``asyncTimeout`` milliseconds)."""
    unreadable: str | None = None
    """Why the answer could not be read whole where a decision may have been (``None``:
    it could): text that does not parse, JSON that is not an object, a
    ``hookSpecificOutput`` that is not an object or names another event, a decision
    field (``permissionDecision``, ``decision``, ``continue``, ...) of the wrong type
    or value or in the wrong place. The lenient ``output`` ignores those pieces; a
    handler on an event that can block counts such an answer as its failure."""


@attrs.frozen
class _OutputIndex:
    """Every key an answer for one event may use -> its field, by where it goes."""

    top: Mapping[str, FieldCodec]
    """Keys of the universal fields, at the top level of the answer."""
    specific: Mapping[str, FieldCodec]
    """Keys of the event's own fields, inside ``hookSpecificOutput``."""


_INDEX: dict[type, _OutputIndex] = {}


def _index(cls: type[HookOutput]) -> _OutputIndex:
    """The keys of an answer class, worked out on first use."""
    found = _INDEX.get(cls)
    if found is None:
        found = _INDEX[cls] = _read_index(cls)
    return found


def _read_index(cls: type[HookOutput]) -> _OutputIndex:
    top: dict[str, FieldCodec] = {}
    specific: dict[str, FieldCodec] = {}
    for fc in field_codecs(cls, True):
        target = specific if fc.info.specific else top
        for key in fc.spellings:
            target[key] = fc
    return _OutputIndex(top=top, specific=specific)


@functools.cache
def _all_output_keys() -> Mapping[str, tuple[str, ...]]:
    """Every key any event's answer knows -> the events that know it."""
    found: dict[str, list[str]] = {}
    for spec in CAPABILITIES.values():
        for fc in field_codecs(spec.output_type, True):
            for key in fc.spellings:
                found.setdefault(key, []).append(spec.event.value)
    return {k: tuple(v) for k, v in found.items()}


def _diag(
    code: DiagnosticCode, message: str, location: str, severity: Severity = Severity.WARNING
) -> Diagnostic:
    return Diagnostic(code=code, message=message, location=location, severity=severity)


_DECIDING = frozenset({Merge.RANK, Merge.ALL})
"""Merge rules of the fields that decide (a verdict, ``continue``): one of them that
cannot be read makes the whole answer unreadable (:attr:`DecodedOutput.unreadable`)."""


def _decides(fc: FieldCodec) -> bool:
    return fc.info.merge in _DECIDING


def _legacy_pre_tool_use(obj: dict[str, Any], diags: list[Diagnostic]) -> dict[str, Any]:
    """PreToolUse's deprecated top-level ``decision: approve|block`` -> permission decision."""
    decision = obj.get("decision")
    if decision not in ("approve", "block"):
        return obj
    specific = None
    for key in _SPECIFIC_KEYS:
        if isinstance(obj.get(key), dict):
            specific = key
    block = dict(obj[specific]) if specific else {}
    if any(k in block for k in ("permissionDecision", "permission_decision")):
        # An explicit permissionDecision is read as it is, and so is the top-level
        # decision next to it: a "block" still blocks (and keeps its reason); an
        # "approve" is an invalid value of the universal field, ignored with a diagnostic.
        return obj
    obj = dict(obj)
    del obj["decision"]
    block["permissionDecision"] = "allow" if decision == "approve" else "deny"
    if "reason" in obj and not any(
        k in block for k in ("permissionDecisionReason", "permission_decision_reason")
    ):
        block["permissionDecisionReason"] = obj.pop("reason")
    obj[specific or "hookSpecificOutput"] = block
    diags.append(
        _diag(
            DiagnosticCode.DEPRECATED_FIELD,
            f"deprecated PreToolUse decision {decision!r} read as permissionDecision "
            f"{'allow' if decision == 'approve' else 'deny'!r}",
            "$.decision",
            Severity.INFO,
        )
    )
    return obj


def _legacy_permission_request(obj: dict[str, Any], diags: list[Diagnostic]) -> dict[str, Any]:
    """A PermissionRequest decision written as a bare string (Docker Agent's
    ``permission_decision: allow|deny|ask``) -> the decision object."""
    for skey in _SPECIFIC_KEYS:
        block = obj.get(skey)
        if not isinstance(block, dict):
            continue
        for dkey in ("decision", "permission_decision", "permissionDecision"):
            value = block.get(dkey)
            if not isinstance(value, str):
                continue
            block = dict(block)
            del block[dkey]
            reason = None
            for rkey in ("permission_decision_reason", "permissionDecisionReason"):
                reason = block.pop(rkey, reason)
            if value in ("allow", "deny"):
                decision: dict[str, Any] = {"behavior": value}
                if value == "deny" and isinstance(reason, str):
                    decision["message"] = reason
                block["decision"] = decision
            elif value != "ask":
                diags.append(
                    _diag(
                        DiagnosticCode.INVALID_VALUE,
                        f"PermissionRequest decision {value!r} is not allow, deny or ask; ignored",
                        f"$.{skey}.{dkey}",
                    )
                )
            obj = {**obj, skey: block}
            break
    return obj


_ADAPTERS: Mapping[HookEvent, Callable[[dict[str, Any], list[Diagnostic]], dict[str, Any]]] = {
    HookEvent.PRE_TOOL_USE: _legacy_pre_tool_use,
    HookEvent.PERMISSION_REQUEST: _legacy_permission_request,
}


_NO_ANSWER: Any = object()
"""What ``_parse_answer`` returns for an empty or unparsable answer (JSON ``null`` is ``None``)."""


def _parse_answer(data: object, diags: list[Diagnostic]) -> Any:
    """The JSON value of an answer: ``data`` parsed when it is text or bytes, as it is
    when it is parsed already; :data:`_NO_ANSWER` for ``None``, blank text and text that
    does not parse (with a diagnostic)."""
    if data is None:
        return _NO_ANSWER
    if isinstance(data, (dict, Mapping)):  # (dict first: no ABC check for the usual case)
        return dict(data)
    if isinstance(data, (bytes, bytearray, memoryview)):
        text = bytes(data).decode("utf-8", errors="replace")
    elif isinstance(data, str):
        text = data
    else:
        return data  # parsed already: an array, a number, a boolean
    if not text.strip():
        return _NO_ANSWER
    try:
        return _load_json(text)
    except _TooDeep as exc:
        diags.append(_diag(DiagnosticCode.MALFORMED_JSON, f"output is {exc}", "$"))
    except ValueError as exc:
        diags.append(_diag(DiagnosticCode.MALFORMED_JSON, f"output is not valid JSON: {exc}", "$"))
    return _NO_ANSWER


def decode_output(
    event: HookEvent | UntypedEvent | str,
    data: bytes | str | Mapping[str, Any] | object,
    *,
    dialect: Dialect | WireFormat | str = "claude",
    unknown_keys: Literal["pass", "drop"] = "pass",
) -> DecodedOutput[HookOutput]:
    """Decode a handler's answer for ``event``. Never raises on bad answers.

    Accepts bytes, text, an already-parsed mapping or any other parsed JSON value
    (which, not being an object, is a ``not_object`` diagnostic); both key spellings;
    the SDK's ``continue_``/``async_``; ``asyncTimeout`` in milliseconds;
    PreToolUse's deprecated ``decision: approve|block``. Empty input (``None``, blank
    text) means no opinion (``output`` None, no diagnostic). Text that does not parse,
    nested deeper than the JSON parser goes included, is a ``malformed_json``
    diagnostic. Wrong types, invalid values, fields the event does not honour and a
    ``hookEventName`` of another event each produce a diagnostic and are ignored;
    valid siblings stay. Keys no event knows are kept (``extra``, ``extra_specific``)
    and passed on to the harness, with an ``unknown_field`` note, unless they are keys
    of the event's payload (a hook that echoed its input); with ``unknown_keys="drop"``
    (Python callbacks) they are left out with an ``unknown_field`` warning, as Claude
    Code strips them. An unknown key never weakens a decision: the rest of the answer
    is read as if it were not there. An event this version does not type is read with
    :class:`~agent_hooks.UntypedOutput`.

    What could not be read where a decision may have been is summed up in
    :attr:`DecodedOutput.unreadable`.
    """
    ev = resolve_event(event)
    spec = spec_for(ev)
    wire = _wire_of(dialect)
    diags: list[Diagnostic] = []
    lost: list[Diagnostic] = []  # the diagnostics of pieces that may have held a decision
    obj = _parse_answer(data, diags)
    if obj is _NO_ANSWER:
        return DecodedOutput(
            output=None, diagnostics=tuple(diags), unreadable=_summary(diags) if diags else None
        )
    if not isinstance(obj, dict):
        diags.append(
            _diag(
                DiagnosticCode.NOT_OBJECT,
                f"output must be a JSON object, got {json_type_name(obj)}",
                "$",
            )
        )
        return DecodedOutput(output=None, diagnostics=tuple(diags), unreadable=_summary(diags))
    native = _native_event(dialect, ev)
    if native is not None:
        assert isinstance(dialect, Dialect) and dialect.native is not None
        obj = answer_from_native(obj, dialect.native, native)
    adapter = _ADAPTERS.get(ev) if isinstance(ev, HookEvent) else None
    if adapter is not None:
        before = len(diags)
        obj = adapter(obj, diags)
        # (an adapter's invalid value is a decision written in a legacy form)
        lost.extend(d for d in diags[before:] if d.code is DiagnosticCode.INVALID_VALUE)
    read = _Reading(spec=spec, honoured=spec.honoured_fields, wire=wire, diags=diags, lost=lost)
    drop_unknown = unknown_keys == "drop"
    cls = spec.output_type
    index = _index(cls)
    values: dict[str, Any] = {}
    kept: dict[str, Any] = {}
    is_async = False
    async_timeout: float | None = None
    for key, value in obj.items():
        if key in index.top:
            _set(read, index.top[key], value, values, "$", key)
        elif key in _SPECIFIC_KEYS:
            _decode_specific(read, value, index, values, f"$.{key}", drop_unknown)
        elif key in _ASYNC_KEYS:
            if isinstance(value, bool):
                is_async = value
            else:
                diags.append(
                    _diag(DiagnosticCode.WRONG_TYPE, f"{key!r} must be a boolean", f"$.{key}")
                )
        elif key in _ASYNC_TIMEOUT_KEYS:
            if (
                isinstance(value, (int, float))
                and not isinstance(value, bool)
                and 0 < value <= _MAX_ASYNC_TIMEOUT_MS
            ):
                async_timeout = float(value) / 1000.0
            else:
                diags.append(
                    _diag(
                        DiagnosticCode.WRONG_TYPE,
                        f"{key!r} must be a positive number of milliseconds",
                        f"$.{key}",
                    )
                )
        elif _unknown(read, key, f"$.{key}", top_level=True, index=index, drop=drop_unknown):
            kept[key] = value
    if kept:
        values["extra"] = kept
    try:
        output = cls(**values)
    except (TypeError, ValueError) as exc:  # a class-level invariant; keep the answer out
        diags.append(_diag(DiagnosticCode.INVALID_OUTPUT, f"output rejected: {exc}", "$"))
        return DecodedOutput(output=None, diagnostics=tuple(diags), unreadable=_summary(diags[-1:]))
    return DecodedOutput(
        output=output,
        diagnostics=tuple(diags),
        is_async=is_async,
        async_timeout=async_timeout,
        unreadable=_summary(lost) if lost else None,
    )


@attrs.frozen
class _Reading:
    """What reading one answer needs throughout: its event, what the event honours, the
    wire format, and where problems go (``lost``: those that may have hidden a decision)."""

    spec: EventSpec
    honoured: frozenset[str]
    wire: WireFormat
    diags: list[Diagnostic]
    lost: list[Diagnostic]

    def problem(self, diag: Diagnostic, *, decisive: bool) -> None:
        self.diags.append(diag)
        if decisive:
            self.lost.append(diag)


def _summary(diags: list[Diagnostic]) -> str:
    """The messages of ``diags``, with where each was, for a failure's reason."""
    return "; ".join(f"{d.location}: {d.message}" if d.location else d.message for d in diags)


def foreign_keys(
    event: HookEvent | UntypedEvent | str,
    obj: Mapping[str, Any],
    dialect: Dialect | WireFormat | str,
) -> list[str]:
    """Keys of an answer that are known but not spelled as its wire format spells them
    (``hookSpecificOutput`` or ``systemMessage`` in a docker answer, the SDK's
    ``continue_``): :func:`decode_output` accepts them, Docker Agent's ``strict_output``
    does not. Unknown keys are :func:`decode_output`'s to report, and so is an answer
    that is not an object (none here)."""
    if not isinstance(obj, Mapping):
        return []
    wire = _wire_of(dialect)
    index = _index(spec_for(event).output_type)
    specific_key = _SPECIFIC_KEYS[0 if wire == "claude" else 1]
    name_key = _EVENT_NAME_KEYS[0 if wire == "claude" else 1]
    found: list[str] = []
    for key, value in obj.items():
        if key in _SPECIFIC_KEYS:
            if key != specific_key:
                found.append(key)
            if isinstance(value, Mapping):
                for inner in value:
                    if inner in _EVENT_NAME_KEYS and inner != name_key:
                        found.append(f"{key}.{inner}")
                    fc = index.specific.get(inner)
                    if fc is not None and inner != fc.key(wire):
                        found.append(f"{key}.{inner}")
        else:
            fc = index.top.get(key)
            if fc is not None and key != fc.key(wire):
                found.append(key)
    return found


def _decode_specific(
    read: _Reading,
    block: Any,
    index: _OutputIndex,
    values: dict[str, Any],
    path: str,
    drop_unknown: bool,
) -> None:
    spec = read.spec
    if block is None:
        return
    if not isinstance(block, dict):
        read.problem(
            _diag(
                DiagnosticCode.WRONG_TYPE,
                f"hookSpecificOutput must be an object, got {json_type_name(block)}",
                path,
            ),
            decisive=True,
        )
        return
    for key in _EVENT_NAME_KEYS:
        if key in block:
            named = block[key]
            if not _same_event(named, spec.event):
                read.problem(
                    _diag(
                        DiagnosticCode.MISMATCHED_OUTPUT,
                        f"hookSpecificOutput is for {short_repr(named)}, not {spec.event.value}; "
                        "its fields were ignored",
                        f"{path}.{key}",
                    ),
                    decisive=True,
                )
                return
    kept: dict[str, Any] = {}
    for key, value in block.items():
        if key in index.specific:
            _set(read, index.specific[key], value, values, path, key)
        elif key in _EVENT_NAME_KEYS:
            continue
        elif _unknown(read, key, f"{path}.{key}", top_level=False, index=index, drop=drop_unknown):
            kept[key] = value
    if kept:
        values["extra_specific"] = {**values.get("extra_specific", {}), **kept}


def _same_event(named: object, event: HookEvent | UntypedEvent) -> bool:
    """Whether a ``hookEventName`` names ``event`` (an untyped event: its exact name)."""
    if not isinstance(named, str):
        return False
    if named == event:  # (either kind of event is the string of its exact name)
        return True
    if isinstance(event, UntypedEvent):
        return named in (event.value, event.snake)
    try:
        return resolve_event(named) is event
    except ValueError:
        return False


def _set(
    read: _Reading,
    fc: FieldCodec,
    value: Any,
    values: dict[str, Any],
    parent: str,
    key: str,
) -> None:
    """Convert one known field's value into ``values`` (at ``parent.key`` of the answer),
    or say with a diagnostic why it is left out."""
    spec, diags = read.spec, read.diags
    name = fc.name
    if name not in read.honoured:
        diags.append(
            _diag(
                DiagnosticCode.UNSUPPORTED_FIELD,
                f"{spec.event.value} does not honour {fc.key('claude')!r}; ignored",
                f"{parent}.{key}",
            )
        )
        return
    if name in values:
        diags.append(
            _diag(
                DiagnosticCode.INVALID_VALUE,
                f"{fc.key('claude')!r} given twice (in two spellings); the first one is kept",
                f"{parent}.{key}",
            )
        )
        return
    try:
        values[name] = convert(fc.type, value, wire=read.wire, output=True)
    except WireBadValue as exc:
        code = DiagnosticCode.INVALID_VALUE if exc.invalid_value else DiagnosticCode.WRONG_TYPE
        read.problem(
            _diag(code, f"{fc.key('claude')!r} ignored: {exc}", f"{parent}.{key}"),
            decisive=_decides(fc),
        )


def _unknown(
    read: _Reading,
    key: str,
    path: str,
    *,
    top_level: bool,
    index: _OutputIndex,
    drop: bool = False,
) -> bool:
    """Report a key the answer class does not read; ``True`` when it is kept and passed
    on (a key no event knows, that is not a key of the event's payload, unless ``drop``).
    A decision field of the event in the wrong place is a piece that may have held a
    decision."""
    spec = read.spec
    keep = False
    misplaced: FieldCodec | None = None
    if top_level and key in index.specific:
        message = f"{key!r} belongs inside hookSpecificOutput; ignored"
        code = DiagnosticCode.UNSUPPORTED_FIELD
        misplaced = index.specific[key]
    elif not top_level and key in index.top:
        message = f"{key!r} belongs at the top level, not inside hookSpecificOutput; ignored"
        code = DiagnosticCode.UNSUPPORTED_FIELD
        misplaced = index.top[key]
    elif key in _all_output_keys():
        owners = ", ".join(_all_output_keys()[key][:4])
        message = f"{key!r} is not a {spec.event.value} field (it belongs to {owners}); ignored"
        code = DiagnosticCode.UNSUPPORTED_FIELD
    elif key in _payload_keys(spec.input_type)[1]:
        message = f"{key!r} is a key of the {spec.event.value} payload, not of an answer; ignored"
        code = DiagnosticCode.UNKNOWN_FIELD
    elif drop:
        message = f"unknown output key {key!r}; ignored (the rest of the answer stands)"
        code = DiagnosticCode.UNKNOWN_FIELD
    else:
        message = f"unknown output key {key!r}; passed on to the harness as it came"
        code = DiagnosticCode.UNKNOWN_FIELD
        keep = True
    decisive = misplaced is not None and _decides(misplaced) and misplaced.name in read.honoured
    read.problem(
        _diag(code, message, path, Severity.INFO if keep else Severity.WARNING), decisive=decisive
    )
    return keep


def encode_output(
    output: HookOutput,
    dialect: Dialect | WireFormat | str = "claude",
    *,
    event: HookEvent | UntypedEvent | None = None,
) -> dict[str, Any]:
    """The JSON object of an answer in a wire format, carrying only fields that are set.

    Event-specific fields go into ``hookSpecificOutput`` (``hook_specific_output``)
    with ``hookEventName`` (of ``event``, else of the answer's class: an
    :class:`~agent_hooks.UntypedOutput` needs ``event``); keys kept from a hook's
    answer that this version does not know (``extra``, ``extra_specific``) are
    written back after the known ones, never replacing one. An answer that sets
    nothing encodes as ``{}``.
    """
    wire = _wire_of(dialect)
    top: dict[str, Any] = {}
    specific: dict[str, Any] = {}
    for fc in field_codecs(type(output), True):
        value = getattr(output, fc.name)
        if value is None:
            continue
        target = specific if fc.info.specific else top
        target[fc.key(wire)] = to_json(value, wire=wire, output=True)
    for key, value in output.extra_specific.items():
        if key not in specific and key not in _EVENT_NAME_KEYS:
            specific[key] = to_json(value, wire=wire, output=True)
    named = event if event is not None else output.event
    if specific and named is not None:
        name_key = "hookEventName" if wire == "claude" else "hook_event_name"
        top["hookSpecificOutput" if wire == "claude" else "hook_specific_output"] = {
            name_key: wire_event_name(named, wire),
            **specific,
        }
    for key, value in output.extra.items():
        if key not in top and key not in _SPECIFIC_KEYS:
            top[key] = to_json(value, wire=wire, output=True)
    return top
