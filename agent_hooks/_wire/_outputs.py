"""Answer shapes shared by every handler kind: what a block looks like for an event,
and whether an answer blocks.

Both read the capability table and the field metadata, so a new event needs no
code here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._events._capabilities import EventSpec, Exit2
from .._events._model import HookOutput, Merge
from ._fields import FieldCodec, TypeDesc, field_codecs, short_repr

__all__ = [
    "MESSAGE_FIELDS",
    "VALUE_RULES",
    "blocking_output",
    "check_output",
    "decision_field",
    "drop_refused_values",
    "is_blocking",
    "rank_key",
    "strip_decisions",
    "terminal_sequence_problem",
    "without_blocks",
]

MESSAGE_FIELDS = frozenset(
    {
        "additional_context",
        "system_message",
        "reason",
        "stop_reason",
        "permission_decision_reason",
        "message",
    }
)
"""Answer fields (and fields of answer objects: a PermissionRequest decision's
``message``) that carry a message for the model or the user: a dialect's
``output_cap`` applies to them. Plain stdout used as context arrives as
``additional_context``; a stderr reason as ``reason`` or the event's decision reason."""


def decision_field(cls: type[HookOutput]) -> FieldCodec | None:
    """The event's own decision field (a RANK field other than the universal ``decision``)."""
    for fc in field_codecs(cls, True):
        if fc.info.merge is Merge.RANK and fc.name != "decision":
            return fc
    return None


def rank_key(fc: FieldCodec, value: Any) -> Any:
    """The ranked value of a RANK field (the attribute ``rank_by`` names for objects)."""
    return getattr(value, fc.info.rank_by) if fc.info.rank_by else value


def blocking_output(spec: EventSpec, reason: str) -> HookOutput | None:
    """The answer that means "block" for this event, with ``reason`` as its message.

    Follows the table's exit-2 meaning: DENY sets the event's permission decision
    to its strongest value (``deny``) with the reason; BLOCK, CONTINUE and FEEDBACK
    set ``decision: "block"`` and ``reason``; USER shows the reason to the user as
    a system message; IGNORED yields ``None``.
    """
    cls = spec.output_type
    if spec.exit2 is Exit2.IGNORED:
        return None
    if spec.exit2 is Exit2.USER:
        return cls(system_message=reason) if reason else None
    if spec.exit2 is Exit2.DENY:
        fc = decision_field(cls)
        if fc is not None:
            strongest = fc.info.rank[0]
            if fc.type.kind == "object" and fc.type.cls is not None and fc.info.rank_by:
                inner: dict[str, Any] = {fc.info.rank_by: strongest}
                if fc.info.companion and reason:
                    inner[fc.info.companion] = reason
                return cls(**{fc.name: fc.type.cls(**inner)})
            kwargs: dict[str, Any] = {fc.name: strongest}
            if fc.info.companion and reason:
                kwargs[fc.info.companion] = reason
            return cls(**kwargs)
    return cls(decision="block", reason=reason or None)


def without_blocks(output: HookOutput) -> HookOutput | None:
    """A copy of a blocking answer without its blocking decision (and the decision's
    message); ``None`` when the answer does not block."""
    changes: dict[str, Any] = {}
    for fc in field_codecs(type(output), True):
        if fc.info.merge is not Merge.RANK:
            continue
        value = getattr(output, fc.name)
        if value is None or rank_key(fc, value) != fc.info.rank[0]:
            continue
        changes[fc.name] = None
        if fc.info.companion and not fc.info.rank_by:
            changes[fc.info.companion] = None
    return attrs.evolve(output, **changes) if changes else None


_OSC_SEQUENCE = re.compile(r"\x1b\](?:0|1|2|9|99|777);[^\x00-\x1f\x7f-\x9f]*(?:\x07|\x1b\\)|\x07")


def terminal_sequence_problem(value: Any) -> str | None:
    """Why a ``terminal_sequence`` is refused, or ``None`` when it is one or more allowed
    sequences: OSC 0, 1, 2 (titles), 9 (iTerm2, ConEmu, Windows Terminal, WezTerm; also
    ``9;4`` progress), 99 (Kitty) or 777 (urxvt, Ghostty, Warp), each ``ESC ] n ; text``
    ended by BEL or ST (``ESC \\``) with no control character in its text, and bare BEL
    (Claude Code's allowlist). CSI sequences, OSC 8 hyperlinks, OSC 52 clipboard writes,
    OSC 1337 and plain text are refused."""
    if not isinstance(value, str):
        return None
    pos = 0
    while pos < len(value):
        m = _OSC_SEQUENCE.match(value, pos)
        if m is None:
            return (
                f"{value[pos : pos + 16]!r} at offset {pos} is not an allowed sequence "
                "(OSC 0, 1, 2, 9, 99, 777 ended by BEL or ST, or BEL)"
            )
        pos = m.end()
    return None


VALUE_RULES: Mapping[str, Callable[[Any], str | None]] = {
    "terminal_sequence": terminal_sequence_problem,
}
"""Answer fields whose value must pass a rule beyond its type: field name -> a function
saying why a value is refused (``None``: accepted). A refused value is ignored with a
diagnostic; the rest of the answer stands."""


def drop_refused_values(output: HookOutput) -> tuple[HookOutput, tuple[Diagnostic, ...]]:
    """``output`` without the values :data:`VALUE_RULES` refuse, and a diagnostic for each."""
    refused: dict[str, Any] = {}
    diags: list[Diagnostic] = []
    for name, rule in VALUE_RULES.items():
        value = getattr(output, name, None)
        problem = rule(value) if value is not None else None
        if problem is not None:
            refused[name] = None
            diags.append(
                Diagnostic(
                    code=DiagnosticCode.INVALID_VALUE,
                    message=f"{name} ignored: {problem}",
                    severity=Severity.WARNING,
                )
            )
    if not refused:
        return output, ()
    return attrs.evolve(output, **refused), tuple(diags)


_PASSTHROUGH = ("extra", "extra_specific")
"""The answer fields holding keys this version does not know (passed on as they came)."""


def is_blocking(output: HookOutput | None) -> bool:
    """Whether an answer blocks: a decision field at its strongest rank (deny, block)."""
    if output is None:
        return False
    for fc in field_codecs(type(output), True):
        if fc.info.merge is Merge.RANK:
            value = getattr(output, fc.name)
            if value is not None and rank_key(fc, value) == fc.info.rank[0]:
                return True
    return False


def strip_decisions(output: HookOutput) -> HookOutput:
    """A copy of an answer without anything that decides or rewrites (for fire-and-forget
    handlers, whose answers may only add context and messages)."""
    keep = {"additional_context", "system_message", "suppress_output", "terminal_sequence"}
    cleared: dict[str, Any] = {
        a.name: None
        for a in attrs.fields(type(output))
        if a.name not in keep and a.name not in _PASSTHROUGH and getattr(output, a.name) is not None
    }
    for name in _PASSTHROUGH:  # unknown keys may decide: a background answer has none
        if getattr(output, name):
            cleared[name] = {}
    return attrs.evolve(output, **cleared) if cleared else output


def _fits(t: TypeDesc, value: Any) -> bool:
    """Whether a Python value fits a field type (the typed twin of the wire codec's check)."""
    if value is None:
        return t.nullable or t.kind == "any"
    kind = t.kind
    if kind == "any":
        return True
    if kind == "str":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "literal":
        return any(value == v and type(value) is type(v) for v in t.values)
    if kind == "map":
        (vt,) = t.values
        return isinstance(value, Mapping) and (
            vt.kind == "any" or all(_fits(vt, v) for v in value.values())
        )
    if kind == "list":
        (it,) = t.values
        return isinstance(value, (list, tuple)) and all(_fits(it, v) for v in value)
    if kind == "object":
        return t.cls is not None and isinstance(value, t.cls) and not _misfits(value)
    if kind == "union":
        return any(_fits(m, value) for m in t.values)
    return False


def _misfits(value: Any) -> list[FieldCodec]:
    return [
        fc for fc in field_codecs(type(value), True) if not _fits(fc.type, getattr(value, fc.name))
    ]


_CHECKS: dict[tuple[type, bool, type], tuple[tuple[FieldCodec, bool], ...]] = {}
"""Keyed by the event's answer class and ``top_level_decision`` (what decides the fields
it honours), not by the event: every untyped event shares one."""


def _checks(spec: EventSpec, cls: type) -> tuple[tuple[FieldCodec, bool], ...]:
    """Each field of ``cls`` with whether ``spec``'s event honours it (built once)."""
    key = (spec.output_type, spec.top_level_decision, cls)
    found = _CHECKS.get(key)
    if found is None:
        honoured = spec.honoured_fields
        found = _CHECKS[key] = tuple((fc, fc.name in honoured) for fc in field_codecs(cls, True))
    return found


def check_output(
    spec: EventSpec, output: HookOutput
) -> tuple[HookOutput | None, tuple[Diagnostic, ...]]:
    """Check a typed answer: values of the wrong type or outside their allowed set make
    the whole answer invalid (``None`` with an ``invalid_value`` diagnostic); fields the
    event does not honour are dropped, saying so."""
    bad: list[FieldCodec] = []
    dropped: list[str] = []
    for fc, honoured in _checks(spec, type(output)):
        value = getattr(output, fc.name)
        if value is None:
            continue
        if not _fits(fc.type, value):
            bad.append(fc)
        elif not honoured:
            dropped.append(fc.name)
    if bad:
        diags = tuple(
            Diagnostic(
                code=DiagnosticCode.INVALID_VALUE,
                message=(
                    f"{fc.name} = {short_repr(getattr(output, fc.name))} is not {fc.type.describe()}"
                    + (" or None" if fc.type.nullable else "")
                ),
                severity=Severity.ERROR,
            )
            for fc in bad
        )
        return None, diags
    if not dropped:
        return output, ()
    diag = Diagnostic(
        code=DiagnosticCode.UNSUPPORTED_FIELD,
        message=f"{spec.event.value} does not honour {', '.join(dropped)}; ignored",
    )
    cleared: dict[str, Any] = dict.fromkeys(dropped)
    return attrs.evolve(output, **cleared), (diag,)
