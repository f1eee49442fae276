"""One reduction for every handler kind: ordered results -> one typed answer.

The fold walks the output class's fields and applies each field's merge rule
(:class:`~agent_hooks._model.Merge`, declared with the field). Results are
always taken in configuration order, never completion order. Nothing here
knows an event by name or a handler by kind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ._capabilities import EventSpec
from ._diagnostics import Diagnostic, DiagnosticCode, Severity
from ._model import HookOutput, Merge
from ._names import HookEvent
from ._nodes import HandlerResult
from ._types import field_codecs

__all__ = ["reduce_results"]


@attrs.frozen
class _Step:
    """One field's merge rule, read once per output class from its field metadata."""

    name: str
    merge: Merge
    key: str
    """The claude wire key, for messages."""
    order: Mapping[Any, int]
    """RANK: value -> strength (0 is the strongest)."""
    rank_by: str | None
    companion: str | None
    join_companion: bool


# Enum members bound once: ``Merge.X`` is a slow class-attribute lookup on Python < 3.12.
_FIRST, _LAST, _JOIN, _CONCAT = Merge.FIRST, Merge.LAST, Merge.JOIN, Merge.CONCAT
_ALL, _ANY, _UPDATE, _RANK, _COMPANION = (
    Merge.ALL,
    Merge.ANY,
    Merge.UPDATE,
    Merge.RANK,
    Merge.COMPANION,
)

_PLANS: dict[HookEvent, tuple[type[HookOutput], tuple[_Step, ...]]] = {}


_LONE: dict[HookEvent, tuple[tuple[str, str], ...]] = {}


def _lone_reasons(spec: EventSpec) -> tuple[tuple[str, str], ...]:
    """(decision, reason) field pairs where a reason without its decision says nothing."""
    found = _LONE.get(spec.event)
    if found is None:
        _, plan = _plan(spec)
        found = _LONE[spec.event] = tuple(
            (step.name, step.companion)
            for step in plan
            if step.merge is _RANK and step.companion and not step.rank_by
        )
    return found


def _plan(spec: EventSpec) -> tuple[type[HookOutput], tuple[_Step, ...]]:
    """The event's output class and its merge steps, built on first use."""
    found = _PLANS.get(spec.event)
    if found is None:
        cls = spec.output_type
        steps = tuple(
            _Step(
                name=fc.name,
                merge=fc.info.merge,
                key=fc.key("claude"),
                order={v: i for i, v in enumerate(fc.info.rank)},
                rank_by=fc.info.rank_by,
                companion=fc.info.companion,
                join_companion=fc.info.join_companion,
            )
            for fc in field_codecs(cls, True)
            if fc.info.merge is not _COMPANION
        )
        _PLANS[spec.event] = found = (cls, steps)
    return found


def _who(result: HandlerResult) -> str:
    if result.handler is None:
        return "a handler"
    return f"{result.handler.name} ({result.handler.source})"


def reduce_results(
    spec: EventSpec, results: Sequence[HandlerResult], *, chained: bool = False
) -> tuple[HookOutput, tuple[Diagnostic, ...]]:
    """Fold handler results (in configuration order) into the event's answer.

    ``chained`` tells that rewrites were threaded from handler to handler, so a
    later rewrite building on an earlier one is not reported as an override.
    """
    cls, plan = _plan(spec)
    answered = [(r, r.output) for r in results if r.output is not None]
    if not answered:
        return cls(), ()
    if len(answered) == 1 and type(answered[0][1]) is cls:
        # One answer of the event's own class folds to itself (every merge rule is the
        # identity on one value); only a suppressed system message is dropped.
        single = answered[0][1]
        drop = {
            companion: None
            for name, companion in _lone_reasons(spec)
            if getattr(single, name) is None and getattr(single, companion) is not None
        }  # a reason without its decision says nothing
        if single.suppress_output and single.system_message is not None:
            drop["system_message"] = None
        return (attrs.evolve(single, **drop) if drop else single), ()
    diags: list[Diagnostic] = []
    values: dict[str, Any] = {}
    only = answered[0] if len(answered) == 1 else None
    for step in plan:
        name = step.name
        if only is not None:  # one answer (the common case): no list to build per field
            value = getattr(only[1], name, None)
            if value is None:
                continue
            pairs = [(only[0], value)]
        else:
            pairs = [(r, v) for r, o in answered if (v := getattr(o, name, None)) is not None]
            if not pairs:
                continue
        merge = step.merge
        if name == "system_message":
            pairs = [(r, v) for r, v in pairs if not getattr(r.output, "suppress_output", False)]
            if not pairs:
                continue
        if merge is _FIRST:
            values[name] = pairs[0][1]
        elif merge is _LAST:
            values[name] = pairs[-1][1]
            if len(pairs) > 1 and not chained:
                winner = pairs[-1][0]
                info = winner.handler
                diags.append(
                    Diagnostic(
                        code=DiagnosticCode.OVERRIDDEN,
                        message=(
                            f"{step.key} from {', '.join(_who(r) for r, _ in pairs[:-1])} "
                            f"overridden by {_who(winner)} (last in configuration order wins)"
                        ),
                        severity=Severity.WARNING,
                        source=info.source if info else None,
                        location=info.location if info else None,
                        handler=info.name if info else None,
                    )
                )
        elif merge is _JOIN:
            values[name] = "\n".join(str(v) for _, v in pairs)
        elif merge is _CONCAT:
            values[name] = "".join(str(v) for _, v in pairs)
        elif merge is _ALL:
            values[name] = all(bool(v) for _, v in pairs)
        elif merge is _ANY:
            values[name] = any(bool(v) for _, v in pairs)
        elif merge is _UPDATE:
            merged: dict[str, Any] = {}
            for _, v in pairs:
                merged.update(v)
            values[name] = merged
        elif merge is _RANK:
            order, rank_by, weakest = step.order, step.rank_by, len(step.order)
            ranked = [(r, v, getattr(v, rank_by) if rank_by else v) for r, v in pairs]
            best = min(ranked, key=lambda p: order.get(p[2], weakest))
            values[name] = best[1]
            companion = step.companion
            if companion and not rank_by:
                texts = [
                    text
                    for r, _, k in ranked
                    if k == best[2] and (text := getattr(r.output, companion, None)) is not None
                ]
                if texts:
                    values[companion] = "\n".join(texts) if step.join_companion else texts[0]
    return cls(**values), tuple(diags)
