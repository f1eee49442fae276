"""What an answer decided and why, in words: one reading of a handler's result or of a
reduced answer, shared by ``run --report``, the decision log and ``explain``."""

from __future__ import annotations

from .._events._model import HookOutput, Merge
from .._handlers._nodes import HandlerResult
from .._wire._fields import field_codecs
from .._wire._outputs import rank_key

__all__ = ["handler_verdict", "output_verdict"]


def output_verdict(output: HookOutput | None) -> tuple[str | None, str | None]:
    """What an answer decided and why: ``(decision, reason)``.

    ``decision`` is the value of the strongest-ranked decision field the answer set
    (the event's own first: ``deny``/``allow``/``ask``/``defer``, then ``block``), or
    ``stop`` for ``continue: false``; ``None`` for no decision. ``reason`` is its
    companion (``permissionDecisionReason``, ``reason``, the decision's ``message``,
    ``stopReason``)."""
    decision: str | None = None
    reason: str | None = None
    if output is None:
        return None, None
    ranked = [fc for fc in field_codecs(type(output), True) if fc.info.merge is Merge.RANK]
    ranked.sort(key=lambda fc: fc.name == "decision")  # the event's own field first
    for fc in ranked:
        value = getattr(output, fc.name, None)
        if value is None:
            continue
        decision = str(rank_key(fc, value))
        companion = fc.info.companion
        if companion:
            holder = value if fc.info.rank_by else output
            text = getattr(holder, companion, None)
            reason = text if isinstance(text, str) and text else None
        break
    if decision is None and output.continue_ is False:
        decision, reason = "stop", output.stop_reason
    return decision, reason


def handler_verdict(result: HandlerResult) -> tuple[str | None, str | None]:
    """What one handler decided and why, whatever kind it is and however it answered
    (a typed output, a JSON answer, an exit status): ``(decision, reason)`` as
    :func:`output_verdict` reads its answer; the reason, when the answer gives none,
    is the handler's own message (stderr of an exit 2, an error)."""
    decision, reason = output_verdict(result.output)
    if reason is None and result.reason:
        reason = result.reason
    return decision, reason
