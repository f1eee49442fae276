"""One reduction for every handler kind: ordered results -> one typed answer.

The fold walks the output class's fields and applies each field's merge rule
(:class:`~agent_hooks._model.Merge`, declared with the field). Results are
always taken in configuration order, never completion order. Nothing here
knows an event by name or a handler by kind.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ._capabilities import EventSpec
from ._diagnostics import Diagnostic, DiagnosticCode, Severity
from ._model import HookOutput, Merge, immutable, replace_trusted
from ._names import HookEvent
from ._nodes import HandlerResult
from ._types import field_codecs

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


_EMPTY: dict[HookEvent, HookOutput] = {}


def empty_output(spec: EventSpec) -> HookOutput:
    """The event's answer when nobody had an opinion (one shared, frozen instance)."""
    found = _EMPTY.get(spec.event)
    if found is None:
        found = _EMPTY[spec.event] = spec.output_type()
    return found


class _LiveCache:
    """A bounded cache whose entries live no longer than the answers they are about.

    An entry holds weak references to its answers and leaves when any of them dies;
    so a key made of their ids (two live objects never share one) can only find an
    entry about those very answers, and the cache keeps no answer alive. When full,
    it starts over.
    """

    __slots__ = ("entries", "size")

    def __init__(self, size: int) -> None:
        self.entries: dict[Any, list[Any]] = {}  # key -> [value, weak references]
        self.size = size

    def get(self, key: Any) -> Any:
        entry = self.entries.get(key)
        return None if entry is None else entry[0]

    def put(self, key: Any, value: Any, about: Sequence[Any]) -> None:
        """Keep ``value`` under ``key`` while every object of ``about`` (``None``s
        aside) lives; objects that cannot be weakly referred to are not cached."""
        entries = self.entries
        entry: list[Any] = [value, None]

        def gone(_: Any) -> None:
            if entries.get(key) is entry:
                del entries[key]

        try:
            entry[1] = [weakref.ref(o, gone) for o in about if o is not None]
        except TypeError:
            return
        if len(entries) >= self.size:
            entries.clear()
        entries[key] = entry


_PRESENT = _LiveCache(256)
"""Per answer (by id): its set fields, and whether it is immutable (callback answers
recur: see the callback memo)."""

_FOLDS = _LiveCache(256)
"""Folds of immutable answers, by the answers' identities in order: the same hooks
giving the same answers fold the same way."""

_ALONE = _LiveCache(256)
"""Single answers (by id) that fold to themselves (a function of the frozen answer)."""

_SCANNERS: dict[type, Any] = {}


def _present(output: HookOutput, plan: tuple[_Step, ...]) -> list[tuple[int, Any]]:
    """``(step index, value)`` of the fields ``output`` sets, in plan order (remembered
    in :data:`_PRESENT`, which the caller reads first, with whether it is immutable)."""
    cls = type(output)
    scan = _SCANNERS.get(cls)
    if scan is None:
        # Written out once per class: a field read and a test each, no getattr by name.
        lines = ["def scan(o):", "    p = []"]
        for i, step in enumerate(plan):
            lines += [f"    v = o.{step.name}", f"    if v is not None: p.append(({i}, v))"]
        lines.append("    return p")
        scope: dict[str, Any] = {}
        exec(compile("\n".join(lines), f"<agent_hooks scan {cls.__name__}>", "exec"), scope)
        scan = _SCANNERS[cls] = scope["scan"]
    present: list[tuple[int, Any]] = scan(output)
    _PRESENT.put(id(output), (present, immutable(output)), (output,))
    return present


def _alone(spec: EventSpec, single: HookOutput) -> HookOutput:
    """One answer of the event's own class folds to itself (every merge rule is the
    identity on one value); only a reason without its decision and a suppressed
    system message are dropped."""
    folded = _fold_alone(spec, single)
    if folded is single:
        _ALONE.put(id(single), True, (single,))
    return folded


def _fold_alone(spec: EventSpec, single: HookOutput) -> HookOutput:
    drop: dict[str, None] | None = None
    for name, companion in _lone_reasons(spec):
        if getattr(single, companion) is not None and getattr(single, name) is None:
            drop = drop or {}
            drop[companion] = None  # a reason without its decision says nothing
    if single.suppress_output and single.system_message is not None:
        drop = drop or {}
        drop["system_message"] = None
    return attrs.evolve(single, **drop) if drop else single


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
    if len(results) == 1:  # (the commonest case, without the lists below)
        single = results[0].output
        if single is None:
            return empty_output(spec), ()
        if _ALONE.get(id(single)):
            return single, ()
        if type(single) is spec.output_type:
            return _alone(spec, single), ()
    # (every answer, None for no answer, is part of a fold's key: a fold seen before is
    # found before the answers are sorted out)
    outputs: list[HookOutput | None] = [r.output for r in results]
    fold_key = (spec.event, chained, *map(id, outputs))
    folded = _FOLDS.entries.get(fold_key)
    if folded is not None:
        return folded[0], ()
    cls, plan = _plan(spec)
    answered = [r for r in results if r.output is not None]
    if not answered:
        return empty_output(spec), ()
    if len(answered) == 1 and type(answered[0].output) is cls:
        return _alone(spec, answered[0].output), ()
    # Each answer's set fields, gathered per merge step (in configuration order).
    gathered: list[list[tuple[HandlerResult, Any]] | None] = [None] * len(plan)
    stable = True  # every answer immutable: the fold can be remembered
    for r in answered:
        output = r.output
        assert output is not None
        if type(output) is cls:
            found = _PRESENT.get(id(output))
            if found is None:
                present, stable = _present(output, plan), False
            else:
                present, stable = found[0], stable and found[1]
        else:  # (a plain HookOutput: only the fields its class has)
            present = [
                (i, v)
                for i, step in enumerate(plan)
                if (v := getattr(output, step.name, None)) is not None
            ]
            stable = False
        for i, v in present:
            bucket = gathered[i]
            if bucket is None:
                gathered[i] = [(r, v)]
            else:
                bucket.append((r, v))
    diags: list[Diagnostic] = []
    values: dict[str, Any] = {}
    for step, pairs in zip(plan, gathered, strict=True):
        if pairs is None:
            continue
        name = step.name
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
            values[name] = "\n".join([v if type(v) is str else str(v) for _, v in pairs])
        elif merge is _CONCAT:
            values[name] = "".join([v if type(v) is str else str(v) for _, v in pairs])
        elif merge is _ALL:
            values[name] = all(bool(v) for _, v in pairs)
        elif merge is _ANY:
            values[name] = any(bool(v) for _, v in pairs)
        elif merge is _UPDATE:
            merged: dict[str, Any] = {}
            for _, v in pairs:
                merged.update(v)
            values[name] = merged
        elif merge is _RANK and len(pairs) == 1:
            r, v = pairs[0]
            values[name] = v
            companion = step.companion
            if companion and not step.rank_by:
                text = getattr(r.output, companion, None)
                if text is not None:
                    values[companion] = text
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
    # (the values come from valid answers: filled into the empty answer, no __init__)
    result = replace_trusted(empty_output(spec), values)
    if stable and not diags:
        _FOLDS.put(fold_key, result, outputs)
    return result, tuple(diags)
