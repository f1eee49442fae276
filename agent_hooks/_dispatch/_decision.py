"""The one typed decision of a dispatch: a value shared by the session, observers,
lifecycle helpers and bridges (so it lives below them all)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar, cast

import attrs

from .._base._diagnostics import Diagnostic
from .._events._model import HookInput, HookOutput, Merge
from .._events._untyped import AnyEvent
from .._handlers._nodes import HandlerResult
from .._wire._fields import field_codecs
from .._wire._outputs import is_blocking, rank_key

__all__ = ["Decision"]

if TYPE_CHECKING:  # (typing_extensions' TypeVar takes a default; not imported to run)
    from typing_extensions import TypeVar as TypeVarWithDefault

    O_co = TypeVarWithDefault("O_co", bound=HookOutput, covariant=True, default=HookOutput)
else:
    O_co = TypeVar("O_co", bound=HookOutput, covariant=True)
"""The event's output class. A decision is a read-only value, so a
``Decision[PreToolUseOutput]`` is a ``Decision[HookOutput]``, which is what a bare
``Decision`` annotation means."""


@attrs.frozen(kw_only=True, repr=False)
class Decision(Generic[O_co]):
    """The one typed decision of a dispatch.

    ``output`` is the reduced answer of the handlers that ran for this dispatch
    (an instance of the event's output class; ``None`` fields mean nobody had an
    opinion). ``background`` holds answers of fire-and-forget handlers that
    finished since the previous dispatch; their context and messages are folded
    into :attr:`context` and :attr:`system_messages`.
    """

    event: AnyEvent
    input: HookInput[O_co]
    """The input as dispatched: envelope filled in, tool alias applied, and in
    chained execution the input as the last handler rewrote it."""
    output: O_co
    results: tuple[HandlerResult, ...] = ()
    """Per handler, in configuration order."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """Everything worth knowing: handler failures, ignored fields, overrides."""
    background: tuple[HandlerResult, ...] = ()
    rewake: tuple[str, ...] = ()
    """Reasons from background handlers with ``async_rewake`` that blocked (exit 2)."""
    shadow: tuple[HandlerResult, ...] = ()
    """Results of the handlers that ran in shadow mode, in configuration order: they
    count in :attr:`would_be`, never in :attr:`output` (nor in :attr:`results`)."""
    would_be: O_co | None = None
    """With shadow handlers: the answer had every handler been enforcing (the fold of
    :attr:`results` and :attr:`shadow` together); ``None`` when no shadow handler ran."""

    @property
    def would_block(self) -> bool:
        """Whether the decision would have blocked with the shadow handlers enforcing
        (:attr:`blocked` when no shadow handler ran)."""
        return is_blocking(self.would_be) if self.would_be is not None else self.blocked

    @property
    def blocked(self) -> bool:
        """Whether the handlers blocked (deny, block) what the event is about."""
        return is_blocking(self.output)

    @property
    def should_continue(self) -> bool:
        """``False`` when a handler asked the agent to stop entirely (``continue: false``)."""
        return self.output.continue_ is not False

    @property
    def stop_reason(self) -> str | None:
        """The first ``stopReason`` in order, when a handler said ``continue: false``."""
        return self.output.stop_reason

    @property
    def reason(self) -> str | None:
        """The blocking message for the model (the deny reason or the joined block reasons)."""
        for name in ("permission_decision_reason", "reason"):
            value = getattr(self.output, name, None)
            if value:
                return cast(str, value)
        pd = getattr(self.output, "permission_decision", None)
        message = getattr(pd, "message", None)
        return message if isinstance(message, str) else None

    @property
    def context(self) -> str | None:
        """Context for the model: this dispatch's ``additional_context`` and the
        background handlers' delivered now, newline-joined in order."""
        parts = [getattr(self.output, "additional_context", None)]
        parts += [getattr(r.output, "additional_context", None) for r in self.background]
        texts = [p for p in parts if p]
        return "\n".join(texts) if texts else None

    @property
    def system_messages(self) -> tuple[str, ...]:
        """Messages for the user, this dispatch's first, then background ones."""
        msgs = [self.output.system_message]
        msgs += [r.output.system_message for r in self.background if r.output is not None]
        return tuple(m for m in msgs if m)

    def __repr__(self) -> str:
        """One line: the event, the verdict (the strongest decision the output holds:
        ``deny``, ``allow``, ``ask``, ``defer``, ``block``, ``stop``, or ``None``), the
        reason cut short, and how many handler results and diagnostics it carries (the
        values themselves are in :attr:`results` and :attr:`diagnostics`)."""
        event = getattr(self.event, "value", self.event)
        reason = self.reason
        if reason is not None and len(reason) > _REASON_SHOWN:
            reason = reason[: _REASON_SHOWN - 3] + "..."
        return (
            f"Decision(event={event!r}, verdict={_verdict(self.output)!r}, "
            f"reason={reason!r}, handlers={len(self.results)}, "
            f"diagnostics={len(self.diagnostics)})"
        )


_REASON_SHOWN = 60
"""How much of the reason the repr shows."""


def _verdict(output: HookOutput) -> str | None:
    """The strongest-ranked decision field the output sets (the event's own before the
    universal ``decision``), else ``stop`` for ``continue: false``, else ``None``."""
    ranked = [fc for fc in field_codecs(type(output), True) if fc.info.merge is Merge.RANK]
    ranked.sort(key=lambda fc: fc.name == "decision")
    for fc in ranked:
        value = getattr(output, fc.name, None)
        if value is not None:
            return str(rank_key(fc, value))
    return "stop" if output.continue_ is False else None
