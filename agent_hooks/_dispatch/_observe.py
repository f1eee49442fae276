"""Observers: progress and tracing of hook activity.

Attach observers to a registry (``HookRegistry(observers=[...])``) or a session
(``registry.session(observers=[...])``). They are called, in order, when a
dispatch starts and ends and when each handler starts and finishes, fire-and-
forget handlers included (their ``handler_finished`` comes whenever they end).
Every method is optional (subclass :class:`Observer` and override what you
need). Observers are synchronous and should be quick; an observer that raises is
logged and ignored, never breaking a dispatch. With no observer attached the
dispatch path does no observer work at all.

OpenTelemetry tracing ships as such an observer: ``agent_hooks.otel.OpenTelemetryObserver``
(the ``otel`` extra). It starts a span in ``dispatch_started`` / ``handler_started``
and ends it in the matching ``*_finished`` call, keyed by the :class:`DispatchInfo`
object (identity-stable for the duration of the dispatch, and as long as any of its
fire-and-forget handlers runs).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import attrs

from .._events._model import HookInput
from .._events._untyped import AnyEvent
from .._handlers._nodes import HandlerInfo, HandlerResult
from ._decision import Decision

__all__ = ["DispatchInfo", "LoggingObserver", "Observer", "notify"]

logger = _LOGGER = logging.getLogger("agent_hooks")


@attrs.frozen(kw_only=True, eq=False)
class DispatchInfo:
    """One dispatch, as observers see it (compared by identity)."""

    event: AnyEvent
    input: HookInput[Any]
    session_id: str | None
    handlers: int
    """How many handlers were selected (foreground and background)."""


class Observer:
    """Base class of observers: every method does nothing."""

    def dispatch_started(self, dispatch: DispatchInfo) -> None:
        """A dispatch begins (handlers selected, none started yet)."""

    def dispatch_finished(self, dispatch: DispatchInfo, decision: Decision[Any]) -> None:
        """A dispatch produced its decision."""

    def handler_started(
        self, dispatch: DispatchInfo, handler: HandlerInfo, status_message: str
    ) -> None:
        """A handler starts; ``status_message`` is its own or ``Running <event> hook``."""

    def handler_finished(
        self, dispatch: DispatchInfo, handler: HandlerInfo, result: HandlerResult
    ) -> None:
        """A handler finished (outcome, duration, diagnostics in ``result``)."""


def notify(observers: Sequence[Observer], method: str, *args: Any) -> None:
    """Call ``method`` on every observer; failures are logged, never raised."""
    for obs in observers:
        try:
            getattr(obs, method)(*args)
        except Exception:
            logger.exception("agent_hooks observer %r failed in %s; ignored", obs, method)


class LoggingObserver(Observer):
    """Logs hook activity through :mod:`logging` (logger ``agent_hooks``, or your own)."""

    def __init__(self, logger: logging.Logger | None = None, level: int = logging.INFO) -> None:
        self.log: logging.Logger = logger or _LOGGER
        self.level = level

    def dispatch_started(self, dispatch: DispatchInfo) -> None:
        self.log.log(
            self.level, "%s: dispatch to %d handler(s)", dispatch.event.value, dispatch.handlers
        )

    def dispatch_finished(self, dispatch: DispatchInfo, decision: Decision[Any]) -> None:
        self.log.log(
            self.level,
            "%s: decided%s%s",
            dispatch.event.value,
            " (blocked)" if decision.blocked else "",
            f", {len(decision.diagnostics)} diagnostic(s)" if decision.diagnostics else "",
        )

    def handler_started(
        self, dispatch: DispatchInfo, handler: HandlerInfo, status_message: str
    ) -> None:
        self.log.log(
            self.level,
            "%s: %s [%s from %s]",
            dispatch.event.value,
            status_message,
            handler.name,
            handler.source,
        )

    def handler_finished(
        self, dispatch: DispatchInfo, handler: HandlerInfo, result: HandlerResult
    ) -> None:
        self.log.log(
            self.level,
            "%s: %s %s in %.1f ms",
            dispatch.event.value,
            handler.name,
            result.outcome.value,
            result.duration * 1000,
        )
        for d in result.diagnostics:
            self.log.log(logging.WARNING if d.severity.value != "info" else self.level, "%s", d)
