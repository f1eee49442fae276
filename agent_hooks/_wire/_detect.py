"""Which harness sent a payload, and its decoding into the typed input.

:func:`detect_dialect` reads the payload's marks, in this order (first match wins):

1. a key only one harness sends (Cursor: ``conversation_id``, ``cursor_version``,
   ``workspace_roots``, ``generation_id``; Copilot's camelCase form: ``sessionId``,
   ``toolName``, ``toolArgs``, ``hookName``, ``transcriptPath``; Windsurf:
   ``trajectory_id``, ``tool_info`` ...; Cline: ``clineVersion``, ``taskId`` ...): the
   harness with the most of them present, the first of
   :data:`~agent_hooks._wire._dialects.DIALECTS` on a tie;
2. an event name only one harness spells that way (Gemini CLI's ``BeforeTool``,
   ``AfterAgent`` ...; Cursor's ``beforeShellExecution``, ``stop`` ...);
3. otherwise the canonical formats: ``claude`` (PascalCase) or ``docker`` (snake_case),
   as :func:`~agent_hooks._wire._codec.decode_input` tells them apart.

Names several harnesses share (``SessionStart`` in Claude Code and Gemini CLI) read as
the canonical format, whose payload and answer they share; name the harness
(``--dialect``) to be exact.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode
from .._base._errors import InvalidPayloadError
from .._events._model import HookOutput
from .._events._names import HookEvent
from ._codec import DecodedInput, decode_input
from ._dialects import DIALECTS, Dialect, get_dialect
from ._translate import answer_to_native, native_event_of, to_canonical

__all__ = ["decode_payload", "detect_dialect", "failure_answer", "native_answer"]


_TYPED = frozenset(e.value for e in HookEvent)


def _canonical_names() -> frozenset[str]:
    return frozenset(e.value for e in HookEvent) | frozenset(e.snake for e in HookEvent)


def detect_dialect(obj: Mapping[str, Any]) -> Dialect | None:
    """The harness with its own wire format that sent ``obj``, or ``None`` for the
    canonical formats (Claude Code and the harnesses that speak it, Docker Agent)."""
    keys = set(obj)
    native = [d for d in DIALECTS.values() if d.native is not None]
    # the harness with the most of its own keys present (Cline's payloads carry
    # ``hookName`` as Copilot's do, and ``clineVersion``, ``taskId`` ... besides)
    best, most = None, 0
    for d in native:
        assert d.native is not None
        found = len(d.native.markers & keys)
        if found > most:
            best, most = d, found
    if best is not None:
        return best
    name = obj.get("hook_event_name")
    if isinstance(name, str) and name not in _canonical_names():
        for d in native:
            assert d.native is not None
            if d.native.event_key and d.native.by_name(name) is not None:
                return d
    return None


def _load(data: bytes | str) -> Any:
    if isinstance(data, bytes):
        data = data.decode("utf-8", errors="replace")
    try:
        return json.loads(data)
    except RecursionError:
        raise InvalidPayloadError(
            "payload is nested too deeply to read (deeper than Python's JSON parser goes)"
        ) from None
    except ValueError as exc:
        raise InvalidPayloadError(f"payload is not valid JSON ({exc})") from None


def decode_payload(
    data: bytes | str | Mapping[str, Any],
    *,
    dialect: Dialect | str | None = None,
    event: str | None = None,
) -> DecodedInput:
    """Decode a payload of any supported harness into its typed input.

    ``dialect`` names the harness (else :func:`detect_dialect` decides); ``event`` names
    the event where the payload does not (Copilot's camelCase form), in the harness's
    spelling (``preToolUse``). A payload of a harness with its own wire format is
    translated into the canonical payload first (:func:`~._translate.to_canonical`);
    the result remembers the harness and its event, so the answer goes back in its
    format. An event that harness documents but no typed event matches (the dialect row
    names the harness's own name as its event) is carried untyped, without an
    ``untyped_event`` warning.

    Raises:
        InvalidPayloadError: not a JSON object, no event, an event the harness does not
            have, or a required field missing or of the wrong type.
        UnknownEventError: a canonical event name that is a close misspelling.
        ValueError: an unknown ``dialect`` name.
    """
    obj = _load(data) if isinstance(data, (bytes, str)) else data
    if not isinstance(obj, Mapping):
        raise InvalidPayloadError(f"payload must be a JSON object, got {type(obj).__name__}")
    chosen = get_dialect(dialect) if dialect is not None else detect_dialect(obj)
    wire = chosen.native if chosen is not None else None
    if chosen is None or wire is None:
        decoded = decode_input(obj, event=event)
        return attrs.evolve(decoded, dialect=chosen) if chosen is not None else decoded
    name = event
    if name is not None and wire.by_name(name) is None and name in _canonical_names():
        # A canonical event name the harness also uses (Copilot's PascalCase entries):
        # the canonical payload, unless the payload is in the harness's own keys all the
        # same (Copilot's PermissionRequest), then read as the harness's event of it.
        own = wire.for_event(name) if wire.markers & set(obj) else None
        if own is None:
            return attrs.evolve(decode_input(obj, event=name), dialect=chosen)
        name = own.name
    named = obj.get(wire.event_key or "hook_event_name")
    if name is None and isinstance(named, str) and wire.by_name(named) is None:
        # A canonical event name the harness also sends (Copilot's PascalCase entries,
        # Gemini CLI's SessionStart): the canonical form, answered in it.
        if wire.event_key is None and any(k in obj for k in wire.alt_event_keys):
            pass  # (Copilot's permissionRequest: camelCase whatever the entry's case)
        else:
            return attrs.evolve(decode_input(obj), dialect=chosen)
    native = native_event_of(wire, obj, name)
    canonical = to_canonical(obj, wire, native)
    decoded = decode_input(canonical)
    diags = tuple(
        d
        for d in decoded.diagnostics
        if not (d.code is DiagnosticCode.UNTYPED_EVENT and native.event not in _TYPED)
    )
    return attrs.evolve(decoded, diagnostics=diags, dialect=chosen, native_event=native)


def native_answer(
    decoded: DecodedInput, output: HookOutput, canonical: dict[str, Any]
) -> tuple[dict[str, Any], tuple[Diagnostic, ...]]:
    """The answer to a payload in the wire format of the harness that sent it:
    ``canonical`` (the Claude-shaped answer) unchanged for the canonical formats, else
    translated (:func:`~._translate.answer_to_native`), with what could not be said. A
    continue-loop block past the harness's loop cap (the payload's own count, Cursor's
    ``loop_count``, against :attr:`Dialect.loop_cap`) is not written."""
    dialect, native = decoded.dialect, decoded.native_event
    if dialect is None or dialect.native is None or native is None:
        return canonical, ()
    wire = dialect.native
    count = None
    if wire.loop_count_key is not None:
        raw = decoded.input.extra.get(wire.loop_count_key)
        count = raw if isinstance(raw, int) and not isinstance(raw, bool) else None
    answer, diags = answer_to_native(
        output,
        wire,
        native,
        passthrough=canonical,
        loop_count=count,
        loop_cap=dialect.loop_cap,
        tool_name=tool
        if isinstance(tool := getattr(decoded.input, "tool_name", None), str)
        else None,
    )
    return answer, tuple(diags)


def failure_answer(
    data: bytes | str,
    reason: str,
    *,
    dialect: Dialect | str | None = None,
    event: str | None = None,
) -> dict[str, Any] | None:
    """What a guard that fails closed (it could not read the payload, load its hooks or
    run them as configured) prints for a harness that reads no exit status
    (:attr:`~._native.NativeWire.reads_exit_status`): the block answer of the payload's
    event (``{"cancel": true, "errorMessage": reason}``) when that event can block, or
    when which event it is cannot be told (read as the harness's PreToolUse). ``None``
    where the exit status is the answer (every other harness, or no harness known: no
    ``dialect`` and a payload that does not say), and for events that cannot block.

    ``data`` is the payload as it came (any bytes: what cannot be read is no event);
    ``dialect`` and ``event`` as ``run --dialect`` and ``--event`` name them.
    """
    try:
        obj: Any = _load(data)
    except InvalidPayloadError:
        obj = None  # (no event can be told)
    try:
        chosen = get_dialect(dialect) if dialect is not None else None
    except ValueError:
        return None
    if chosen is None and isinstance(obj, Mapping):
        chosen = detect_dialect(obj)
    wire = chosen.native if chosen is not None else None
    if wire is None or wire.reads_exit_status:
        return None
    name = event
    if name is None and isinstance(obj, Mapping):
        named = obj.get(wire.event_key) if wire.event_key else None
        name = named if isinstance(named, str) else None
    native = wire.by_name(name) if name is not None else None
    if native is None:
        native = wire.for_event("PreToolUse")
    keys = wire.answers.get(native.answer) if native is not None else None
    if keys is None or keys.block_flag is None:
        return None
    answer: dict[str, Any] = {keys.block_flag: True}
    for key in keys.reasons:
        answer[key] = reason
    return answer
