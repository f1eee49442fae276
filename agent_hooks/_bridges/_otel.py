"""OpenTelemetry tracing of hook activity: an :class:`~agent_hooks.Observer` that
turns every dispatch into a span and every handler run into a child span.

It is built on the public observer interface only (``dispatch_started`` /
``handler_started`` open a span, the matching ``*_finished`` call closes it), so it
costs nothing until it is attached, and ``import agent_hooks`` never imports
OpenTelemetry. It lives in the bridges layer because it reports each handler's
verdict the way ``agent-hooks run --report`` does (:func:`handler_verdict`).

Needs ``opentelemetry-api`` (the ``otel`` extra); an SDK and an exporter are the
application's choice, as OpenTelemetry intends for libraries.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any

try:
    from opentelemetry import context as otel_context
    from opentelemetry import trace
    from opentelemetry.trace import Span, SpanKind, Status, StatusCode, Tracer, TracerProvider
except ImportError as exc:  # pragma: no cover (the dev extra installs it)
    raise ImportError(
        "agent_hooks.otel needs OpenTelemetry's API: pip install 'py-agent-hooks[otel]'"
    ) from exc

from .._base._diagnostics import Diagnostic, Severity
from .._base._version import VERSION
from .._dispatch._decision import Decision
from .._dispatch._observe import DispatchInfo, Observer
from .._dispatch._verdict import output_verdict
from .._events._model import HookInput
from .._events._untyped import input_value
from .._handlers._nodes import HandlerInfo, HandlerResult, Outcome
from ._payload import handler_verdict

__all__ = ["INSTRUMENTATION_NAME", "OpenTelemetryObserver"]

INSTRUMENTATION_NAME = "agent_hooks"
"""The instrumentation scope name of every span (its version is the package's)."""

_FAILED = {
    Outcome.ERROR: "error",
    Outcome.TIMEOUT: "timeout",
    Outcome.CANCELLED: "cancelled",
}
"""Outcomes recorded as an ``ERROR`` span status, with their ``error.type``."""


class _DispatchSpans:
    """The spans of one dispatch: its own and those of its handlers still running.

    Kept (weakly, by the :class:`DispatchInfo`) after the dispatch span ends, so that
    fire-and-forget handlers that start or finish later are still parented to it.
    When a dispatch is abandoned (its caller was cancelled, so no ``*_finished`` call
    comes), :meth:`abandon` ends what is still open once the ``DispatchInfo`` is gone.
    """

    __slots__ = ("__weakref__", "context", "ended", "handlers", "span")

    def __init__(self, span: Span) -> None:
        self.span = span
        self.context = trace.set_span_in_context(span)
        self.ended = False
        self.handlers: dict[HandlerInfo, list[Span]] = {}

    def abandon(self) -> None:
        spans = [s for stack in self.handlers.values() for s in stack]
        self.handlers.clear()
        if not self.ended:
            spans.append(self.span)
            self.ended = True
        for span in spans:
            span.set_status(Status(StatusCode.ERROR, "cancelled before it finished"))
            span.set_attribute("error.type", "cancelled")
            span.end()


class OpenTelemetryObserver(Observer):
    """Traces hook activity with OpenTelemetry: one span per dispatch, one child span
    per handler run.

    Attach it like any observer: ``HookRegistry(hooks, observers=[OpenTelemetryObserver()])``
    for every session, or ``registry.session(observers=[...])`` for one.

    **Dispatch span** ``hooks <Event>`` (kind ``INTERNAL``), a child of the span that is
    current where :meth:`Session.dispatch <agent_hooks.Session.dispatch>` is called:

    * at the start: ``agent_hooks.event``, ``agent_hooks.handlers`` (how many were
      selected), ``gen_ai.conversation.id`` (the session id), and for tool events
      ``gen_ai.tool.name`` and ``gen_ai.tool.call.id`` (OpenTelemetry's GenAI
      semantic conventions);
    * at the end: ``agent_hooks.decision`` (``deny``, ``allow``, ``ask``, ``defer``,
      ``block``, ``stop``; absent when nobody had an opinion), ``agent_hooks.blocked``,
      ``agent_hooks.handlers.ran``, ``agent_hooks.diagnostics.count`` /
      ``.errors`` / ``.warnings``; status ``ERROR`` when a handler that held up the
      decision failed or timed out (description: how many), else unset; with handlers
      in shadow mode, ``agent_hooks.shadow.handlers`` (how many ran) and
      ``agent_hooks.would_be.decision`` / ``agent_hooks.would_be.blocked`` (the decision
      had they enforced theirs).

    **Handler span** ``hook <Event> <kind>`` (kind ``INTERNAL``), a child of its
    dispatch's span, fire-and-forget handlers included (also when they start or end
    after the dispatch span ended):

    * at the start: ``agent_hooks.event``, ``agent_hooks.handler.name``, ``.kind``,
      ``.source``, ``.matcher`` and ``.location`` (when known), ``agent_hooks.handler.shadow``
      (``true`` for a handler in shadow mode: its decision is not enforced),
      ``agent_hooks.status_message``,
      the GenAI tool attributes as above;
    * at the end: ``agent_hooks.handler.outcome`` (``ok``, ``blocked``, ``error``,
      ``timeout``, ``cancelled``, ``skipped``), ``agent_hooks.handler.decision``,
      ``agent_hooks.handler.duration_ms``, ``agent_hooks.handler.exit_code`` (kinds with
      one), the diagnostics counts, and one span event ``agent_hooks.diagnostic`` per
      diagnostic (``code``, ``severity``, ``message``);
    * status ``ERROR`` with ``error.type`` (``error``, ``timeout``, ``cancelled``) and
      the handler's reason as description when it failed, timed out or was cancelled
      when its session closed. A block is a decision, not an error: status unset.

    A dispatch whose caller was cancelled gets no ``*_finished`` call: its spans still
    open end, with status ``ERROR`` and ``error.type`` ``cancelled``, when the
    dispatch is garbage-collected. The spans are not made current while handlers run
    (observers are called around the handlers, not in their context): spans a Python
    callback starts are children of the caller's current span.

    Args:
        tracer_provider: where spans go; default the global provider
            (``opentelemetry.trace.set_tracer_provider``), looked up when the first
            span starts, so the observer may be built before tracing is configured.
        tracer: a tracer to use instead (``tracer_provider`` is then ignored).
    """

    def __init__(
        self, tracer_provider: TracerProvider | None = None, *, tracer: Tracer | None = None
    ) -> None:
        self.tracer: Tracer = tracer or trace.get_tracer(
            INSTRUMENTATION_NAME, VERSION, tracer_provider=tracer_provider
        )
        self._dispatches: weakref.WeakKeyDictionary[DispatchInfo, _DispatchSpans] = (
            weakref.WeakKeyDictionary()
        )

    # ------------------------------------------------------------ dispatches

    def dispatch_started(self, dispatch: DispatchInfo) -> None:
        event = dispatch.event.value
        attributes: dict[str, Any] = {
            "agent_hooks.event": event,
            "agent_hooks.handlers": dispatch.handlers,
        }
        if dispatch.session_id is not None:
            attributes["gen_ai.conversation.id"] = dispatch.session_id
        attributes.update(_tool_attributes(dispatch.input))
        span = self.tracer.start_span(
            f"hooks {event}",
            context=otel_context.get_current(),
            kind=SpanKind.INTERNAL,
            attributes=attributes,
        )
        record = _DispatchSpans(span)
        self._dispatches[dispatch] = record
        finalizer = weakref.finalize(dispatch, record.abandon)
        finalizer.atexit = False

    def dispatch_finished(self, dispatch: DispatchInfo, decision: Decision[Any]) -> None:
        record = self._dispatches.get(dispatch)
        if record is None or record.ended:
            return
        span = record.span
        verdict = handler_verdict(HandlerResult(output=decision.output))[0]
        if verdict is not None:
            span.set_attribute("agent_hooks.decision", verdict)
        span.set_attribute("agent_hooks.blocked", decision.blocked)
        span.set_attribute("agent_hooks.handlers.ran", len(decision.results))
        _set_counts(span, decision.diagnostics)
        if decision.would_be is not None:
            would_be = output_verdict(decision.would_be)[0]
            span.set_attribute("agent_hooks.shadow.handlers", len(decision.shadow))
            if would_be is not None:
                span.set_attribute("agent_hooks.would_be.decision", would_be)
            span.set_attribute("agent_hooks.would_be.blocked", decision.would_block)
        failed = [r for r in decision.results if r.outcome in _FAILED]
        if failed:
            span.set_status(Status(StatusCode.ERROR, f"{len(failed)} handler(s) failed"))
        record.ended = True
        span.end()

    # -------------------------------------------------------------- handlers

    def handler_started(
        self, dispatch: DispatchInfo, handler: HandlerInfo, status_message: str
    ) -> None:
        record = self._dispatches.get(dispatch)
        event = dispatch.event.value
        attributes: dict[str, Any] = {
            "agent_hooks.event": event,
            "agent_hooks.handler.name": handler.name,
            "agent_hooks.handler.kind": handler.kind,
            "agent_hooks.handler.source": handler.source,
            "agent_hooks.status_message": status_message,
        }
        if handler.matcher is not None:
            attributes["agent_hooks.handler.matcher"] = handler.matcher
        if handler.location is not None:
            attributes["agent_hooks.handler.location"] = handler.location
        if handler.shadow:
            attributes["agent_hooks.handler.shadow"] = True
        if dispatch.session_id is not None:
            attributes["gen_ai.conversation.id"] = dispatch.session_id
        attributes.update(_tool_attributes(dispatch.input))
        span = self.tracer.start_span(
            f"hook {event} {handler.kind}",
            context=record.context if record is not None else otel_context.get_current(),
            kind=SpanKind.INTERNAL,
            attributes=attributes,
        )
        if record is None:  # (attached mid-dispatch: a handler span of its own)
            record = _DispatchSpans(span)
            record.ended = True
            self._dispatches[dispatch] = record
        record.handlers.setdefault(handler, []).append(span)

    def handler_finished(
        self, dispatch: DispatchInfo, handler: HandlerInfo, result: HandlerResult
    ) -> None:
        record = self._dispatches.get(dispatch)
        stack = record.handlers.get(handler) if record is not None else None
        if record is None or not stack:
            return
        span = stack.pop(0)
        if not stack:
            del record.handlers[handler]
        span.set_attribute("agent_hooks.handler.outcome", result.outcome.value)
        verdict = handler_verdict(result)[0]
        if verdict is not None:
            span.set_attribute("agent_hooks.handler.decision", verdict)
        span.set_attribute("agent_hooks.handler.duration_ms", round(result.duration * 1000, 3))
        if result.exit_code is not None:
            span.set_attribute("agent_hooks.handler.exit_code", result.exit_code)
        _set_counts(span, result.diagnostics)
        for d in result.diagnostics:
            span.add_event(
                "agent_hooks.diagnostic",
                {"code": d.code.value, "severity": d.severity.value, "message": d.message},
            )
        error_type = _FAILED.get(result.outcome)
        if error_type is not None:
            span.set_attribute("error.type", error_type)
            span.set_status(Status(StatusCode.ERROR, result.reason or error_type))
        span.end()


def _tool_attributes(input: HookInput[Any]) -> dict[str, str]:
    """GenAI semantic-convention attributes of a tool event's input."""
    found: dict[str, str] = {}
    name = input_value(input, "tool_name")
    if isinstance(name, str):
        found["gen_ai.tool.name"] = name
    call_id = input_value(input, "tool_use_id")
    if isinstance(call_id, str):
        found["gen_ai.tool.call.id"] = call_id
    return found


def _set_counts(span: Span, diagnostics: Iterable[Diagnostic]) -> None:
    diags = list(diagnostics)
    span.set_attribute("agent_hooks.diagnostics.count", len(diags))
    span.set_attribute(
        "agent_hooks.diagnostics.errors", sum(d.severity is Severity.ERROR for d in diags)
    )
    span.set_attribute(
        "agent_hooks.diagnostics.warnings", sum(d.severity is Severity.WARNING for d in diags)
    )
