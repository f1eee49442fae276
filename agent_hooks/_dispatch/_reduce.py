"""One reduction for every handler kind: ordered results -> one typed answer.

The fold walks the output class's fields and applies each field's merge rule
(:class:`~agent_hooks._events._model.Merge`, declared with the field). Results are
always taken in configuration order, never completion order. Nothing here
knows an event by name or a handler by kind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._events._capabilities import EventSpec
from .._events._model import HookOutput, Merge
from .._events._names import HookEvent
from .._handlers._nodes import HandlerResult
from .._wire._fields import field_codecs

__all__ = ["empty_output", "reduce_results"]


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


_PLANS: dict[HookEvent, tuple[type[HookOutput], tuple[_Step, ...]]] = {}


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
            if fc.info.merge is not Merge.COMPANION
        )
        _PLANS[spec.event] = found = (cls, steps)
    return found


def empty_output(spec: EventSpec) -> HookOutput:
    """The event's answer when nobody had an opinion."""
    return spec.output_type()


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
    answered = [r for r in results if r.output is not None]
    if not answered:
        return empty_output(spec), ()
    diags: list[Diagnostic] = []
    values: dict[str, Any] = {}
    for step in plan:
        name = step.name
        pairs = [(r, v) for r in answered if (v := getattr(r.output, name, None)) is not None]
        if not pairs:
            continue
        merge = step.merge
        if name == "system_message":
            pairs = [(r, v) for r, v in pairs if not getattr(r.output, "suppress_output", False)]
            if not pairs:
                continue
        if merge is Merge.FIRST:
            values[name] = pairs[0][1]
        elif merge is Merge.LAST:
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
        elif merge is Merge.JOIN:
            values[name] = "\n".join([v if type(v) is str else str(v) for _, v in pairs])
        elif merge is Merge.CONCAT:
            values[name] = "".join([v if type(v) is str else str(v) for _, v in pairs])
        elif merge is Merge.ALL:
            values[name] = all(bool(v) for _, v in pairs)
        elif merge is Merge.ANY:
            values[name] = any(bool(v) for _, v in pairs)
        elif merge is Merge.UPDATE:
            merged: dict[str, Any] = {}
            for _, v in pairs:
                merged.update(v)
            values[name] = merged
        elif merge is Merge.RANK:
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
