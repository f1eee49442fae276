"""One reduction for every handler kind: ordered results -> one typed answer.

The fold walks the output class's fields and applies each field's merge rule
(:class:`~agent_hooks._model.Merge`, declared with the field). Results are
always taken in configuration order, never completion order. Nothing here
knows an event by name or a handler by kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._capabilities import EventSpec
from ._diagnostics import Diagnostic, DiagnosticCode, Severity
from ._model import HookOutput, Merge
from ._nodes import HandlerResult
from ._outputs import rank_key
from ._types import field_codecs

__all__ = ["reduce_results"]


def _who(result: HandlerResult) -> str:
    return result.handler.name if result.handler else "a handler"


def reduce_results(
    spec: EventSpec, results: Sequence[HandlerResult], *, chained: bool = False
) -> tuple[HookOutput, tuple[Diagnostic, ...]]:
    """Fold handler results (in configuration order) into the event's answer.

    ``chained`` tells that rewrites were threaded from handler to handler, so a
    later rewrite building on an earlier one is not reported as an override.
    """
    cls = spec.output_type
    answered = [r for r in results if r.output is not None]
    if not answered:
        return cls(), ()
    diags: list[Diagnostic] = []
    values: dict[str, Any] = {}
    for fc in field_codecs(cls, True):
        merge = fc.info.merge
        if merge is Merge.COMPANION:
            continue
        name = fc.name
        pairs = [
            (r, getattr(r.output, name))
            for r in answered
            if getattr(r.output, name, None) is not None
        ]
        if name == "system_message":
            pairs = [(r, v) for r, v in pairs if not getattr(r.output, "suppress_output", False)]
        if not pairs:
            continue
        if merge is Merge.FIRST:
            values[name] = pairs[0][1]
        elif merge is Merge.LAST:
            values[name] = pairs[-1][1]
            if len(pairs) > 1 and not chained:
                diags.append(
                    Diagnostic(
                        code=DiagnosticCode.OVERRIDDEN,
                        message=(
                            f"{fc.key('claude')} from {', '.join(_who(r) for r, _ in pairs[:-1])} "
                            f"overridden by {_who(pairs[-1][0])} (last in configuration order wins)"
                        ),
                        severity=Severity.WARNING,
                    )
                )
        elif merge is Merge.JOIN:
            values[name] = "\n".join(str(v) for _, v in pairs)
        elif merge is Merge.CONCAT:
            values[name] = "".join(str(v) for _, v in pairs)
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
            order = {v: i for i, v in enumerate(fc.info.rank)}
            best = min(pairs, key=lambda p: order.get(rank_key(fc, p[1]), len(order)))
            winning = rank_key(fc, best[1])
            values[name] = best[1]
            companion = fc.info.companion
            if companion and not fc.info.rank_by:
                at_rank = [r for r, v in pairs if rank_key(fc, v) == winning]
                texts = [
                    getattr(r.output, companion)
                    for r in at_rank
                    if getattr(r.output, companion, None) is not None
                ]
                if texts:
                    values[companion] = "\n".join(texts) if fc.info.join_companion else texts[0]
    return cls(**values), tuple(diags)
