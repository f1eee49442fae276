"""The one typed decision of a dispatch: a value shared by the session, observers,
lifecycle helpers and bridges (so it lives below them all)."""

from __future__ import annotations

from typing import Generic, TypeVar, cast

import attrs

from .._base._diagnostics import Diagnostic
from .._events._model import HookInput, HookOutput
from .._events._untyped import AnyEvent
from .._handlers._nodes import HandlerResult
from .._wire._outputs import is_blocking

__all__ = ["Decision"]

O = TypeVar("O", bound=HookOutput)


@attrs.frozen(kw_only=True)
class Decision(Generic[O]):
    """The one typed decision of a dispatch.

    ``output`` is the reduced answer of the handlers that ran for this dispatch
    (an instance of the event's output class; ``None`` fields mean nobody had an
    opinion). ``background`` holds answers of fire-and-forget handlers that
    finished since the previous dispatch; their context and messages are folded
    into :attr:`context` and :attr:`system_messages`.
    """

    event: AnyEvent
    input: HookInput[O]
    """The input as dispatched: envelope filled in, tool alias applied, and in
    chained execution the input as the last handler rewrote it."""
    output: O
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
    would_be: O | None = None
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
