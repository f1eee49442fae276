"""OpenTelemetry tracing of hook activity (``pip install 'py-agent-hooks[otel]'``).

:class:`OpenTelemetryObserver` is an :class:`~agent_hooks.Observer`: one span per
dispatch, a child span per handler run, with the event, the handler's name, kind,
source and matcher, its outcome, decision, duration and diagnostics counts as
attributes, OpenTelemetry's GenAI attributes (``gen_ai.tool.name``,
``gen_ai.tool.call.id``, ``gen_ai.conversation.id``) where they apply, and failures
and timeouts as span status::

    from agent_hooks import HookRegistry
    from agent_hooks.otel import OpenTelemetryObserver

    registry = HookRegistry(hooks, observers=[OpenTelemetryObserver()])

Only ``opentelemetry-api`` is needed at run time; configure an SDK and an exporter
in the application. Importing this module without it raises :class:`ImportError`
naming the extra.
"""

from __future__ import annotations

from ._bridges._otel import INSTRUMENTATION_NAME, OpenTelemetryObserver

__all__ = ["INSTRUMENTATION_NAME", "OpenTelemetryObserver"]
