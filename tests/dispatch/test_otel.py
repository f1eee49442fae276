"""The OpenTelemetry observer: spans asserted through the SDK's in-memory exporter on
asyncio and trio: one span per dispatch, a child per handler with its attributes,
failures and timeouts as span status, fire-and-forget handlers parented to their
dispatch, the caller's span as parent, nothing imported or done when not attached.

Concurrent orders are forced with anyio Events, never with sleeps.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from agent_hooks import (
    CallbackHook,
    CommandHook,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
)
from agent_hooks.otel import INSTRUMENTATION_NAME, OpenTelemetryObserver

pytestmark = pytest.mark.anyio

LIMIT = 5.0


@pytest.fixture
def traced() -> Iterator[tuple[TracerProvider, InMemorySpanExporter]]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield provider, exporter
    provider.shutdown()


def by_name(spans: Any, prefix: str) -> list[ReadableSpan]:
    return [s for s in spans if s.name.startswith(prefix)]


def short(span: ReadableSpan) -> str:
    """A handler span's handler name, without its module (``test_otel.deny_env``)."""
    return str(dict(span.attributes or {})["agent_hooks.handler.name"]).rsplit(".", 1)[-1]


async def deny_env(input: PreToolUseInput) -> PreToolUseOutput | None:
    if str(input.tool_input.get("file_path", "")).endswith(".env"):
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="secrets")
    return None


async def allow_all(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(permission_decision="allow")


async def test_a_dispatch_span_with_a_child_span_per_handler(traced: Any) -> None:
    provider, exporter = traced
    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(matcher="Edit", hooks=[deny_env, allow_all])]},
        observers=[OpenTelemetryObserver(provider)],
    )
    async with registry.session(session_id="s1") as session:
        decision = await session.dispatch(
            PreToolUseInput(tool_name="Edit", tool_input={"file_path": ".env"}, tool_use_id="t1")
        )
    assert decision.blocked
    spans = exporter.get_finished_spans()
    (dispatch,) = by_name(spans, "hooks ")
    handlers = by_name(spans, "hook ")
    assert dispatch.name == "hooks PreToolUse"
    assert dispatch.kind is SpanKind.INTERNAL
    assert dispatch.instrumentation_scope is not None
    assert dispatch.instrumentation_scope.name == INSTRUMENTATION_NAME
    attrs = dict(dispatch.attributes or {})
    assert attrs["agent_hooks.event"] == "PreToolUse"
    assert attrs["agent_hooks.handlers"] == 2
    assert attrs["agent_hooks.handlers.ran"] == 2
    assert attrs["agent_hooks.decision"] == "deny"
    assert attrs["agent_hooks.blocked"] is True
    assert attrs["gen_ai.tool.name"] == "Edit"
    assert attrs["gen_ai.tool.call.id"] == "t1"
    assert attrs["gen_ai.conversation.id"] == "s1"
    assert attrs["agent_hooks.diagnostics.count"] == 0
    assert dispatch.status.status_code is StatusCode.UNSET

    assert [h.name for h in handlers] == ["hook PreToolUse python"] * 2
    names = []
    for h in handlers:
        assert h.parent is not None and dispatch.context is not None
        assert h.parent.span_id == dispatch.context.span_id
        assert h.context is not None and h.context.trace_id == dispatch.context.trace_id
        a = dict(h.attributes or {})
        names.append(short(h))
        assert a["agent_hooks.handler.kind"] == "python"
        assert a["agent_hooks.handler.source"] == "python"
        assert a["agent_hooks.handler.matcher"] == "Edit"
        assert a["agent_hooks.handler.outcome"] == "ok"
        assert a["agent_hooks.handler.duration_ms"] >= 0
        assert a["gen_ai.tool.name"] == "Edit"
        assert a["agent_hooks.status_message"] == "Running PreToolUse hook"
        assert h.status.status_code is StatusCode.UNSET
    assert sorted(names) == ["allow_all", "deny_env"]
    decisions = {
        short(h): dict(h.attributes or {}).get("agent_hooks.handler.decision") for h in handlers
    }
    assert decisions == {"deny_env": "deny", "allow_all": "allow"}


async def test_the_caller_s_current_span_is_the_parent(traced: Any) -> None:
    provider, exporter = traced
    tracer = provider.get_tracer("agent")
    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[allow_all])]},
        observers=[OpenTelemetryObserver(provider)],
    )
    async with registry.session() as session:
        with tracer.start_as_current_span("agent turn") as turn:
            await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={}))
    (dispatch,) = by_name(exporter.get_finished_spans(), "hooks ")
    assert dispatch.parent is not None
    assert dispatch.parent.span_id == turn.get_span_context().span_id


async def test_errors_and_timeouts_are_span_status(traced: Any) -> None:
    provider, exporter = traced

    async def broken(input: UserPromptSubmitInput) -> None:
        raise RuntimeError("boom")

    async def slow(input: UserPromptSubmitInput) -> None:
        await anyio.Event().wait()  # until its timeout cancels it

    registry = HookRegistry(
        {
            "UserPromptSubmit": [
                HookMatcher(hooks=[broken]),
                HookMatcher(hooks=[CallbackHook(slow, timeout=0.01, on_error="ignore")]),
            ]
        },
        observers=[OpenTelemetryObserver(provider)],
    )
    async with registry.session() as session:
        with anyio.fail_after(LIMIT):
            await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    spans = exporter.get_finished_spans()
    handlers = {short(s): s for s in by_name(spans, "hook ")}
    failed = handlers["broken"]
    assert failed.status.status_code is StatusCode.ERROR
    assert "boom" in (failed.status.description or "")
    assert dict(failed.attributes or {})["error.type"] == "error"
    assert dict(failed.attributes or {})["agent_hooks.handler.outcome"] == "error"
    assert dict(failed.attributes or {})["agent_hooks.diagnostics.count"] >= 1
    assert [e.name for e in failed.events] == ["agent_hooks.diagnostic"] * len(failed.events)
    assert failed.events and failed.events[0].attributes is not None
    assert failed.events[0].attributes["code"] == "handler_error"
    timed_out = handlers["slow"]
    assert timed_out.status.status_code is StatusCode.ERROR
    assert dict(timed_out.attributes or {})["error.type"] == "timeout"
    (dispatch,) = by_name(spans, "hooks ")
    assert dispatch.status.status_code is StatusCode.ERROR
    assert dispatch.status.description == "2 handler(s) failed"


async def test_a_block_is_not_an_error(traced: Any, tmp_path: Any) -> None:
    provider, exporter = traced
    script = tmp_path / "guard.sh"
    script.write_text("#!/bin/sh\necho 'not here' >&2\nexit 2\n")
    script.chmod(0o755)
    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(matcher="Bash", hooks=[CommandHook(command=str(script))])]},
        observers=[OpenTelemetryObserver(provider)],
    )
    async with registry.session(cwd=str(tmp_path)) as session:
        with anyio.fail_after(LIMIT):
            decision = await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={}))
    assert decision.blocked
    (handler,) = by_name(exporter.get_finished_spans(), "hook ")
    a = dict(handler.attributes or {})
    assert handler.name == "hook PreToolUse command"
    assert a["agent_hooks.handler.outcome"] == "blocked"
    assert a["agent_hooks.handler.decision"] == "deny"
    assert a["agent_hooks.handler.exit_code"] == 2
    assert handler.status.status_code is StatusCode.UNSET


async def test_background_handlers_are_children_of_their_dispatch(traced: Any) -> None:
    provider, exporter = traced
    release = anyio.Event()

    async def later(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        await release.wait()
        return UserPromptSubmitOutput(additional_context="late")

    registry = HookRegistry(
        {"UserPromptSubmit": [HookMatcher(hooks=[CallbackHook(later, background=True)])]},
        observers=[OpenTelemetryObserver(provider)],
    )
    async with registry.session() as session:
        await session.dispatch(UserPromptSubmitInput(prompt="one"))
        # the dispatch span has ended; the background handler is still running
        (dispatch,) = by_name(exporter.get_finished_spans(), "hooks ")
        assert by_name(exporter.get_finished_spans(), "hook ") == []
        release.set()
    (handler,) = by_name(exporter.get_finished_spans(), "hook ")
    assert handler.parent is not None and dispatch.context is not None
    assert handler.parent.span_id == dispatch.context.span_id
    assert dict(handler.attributes or {})["agent_hooks.handler.outcome"] == "ok"


async def test_a_background_handler_cancelled_at_close_is_an_error(traced: Any) -> None:
    provider, exporter = traced

    async def forever(input: UserPromptSubmitInput) -> None:
        await anyio.Event().wait()

    registry = HookRegistry(
        {"UserPromptSubmit": [HookMatcher(hooks=[CallbackHook(forever, background=True)])]},
        observers=[OpenTelemetryObserver(provider)],
        background_drain_timeout=0,
    )
    async with registry.session() as session:
        await session.dispatch(UserPromptSubmitInput(prompt="one"))
    (handler,) = by_name(exporter.get_finished_spans(), "hook ")
    assert handler.status.status_code is StatusCode.ERROR
    assert dict(handler.attributes or {})["error.type"] == "cancelled"


async def test_a_cancelled_dispatch_still_ends_its_spans(traced: Any) -> None:
    provider, exporter = traced
    started = anyio.Event()

    async def stuck(input: UserPromptSubmitInput) -> None:
        started.set()
        await anyio.Event().wait()

    registry = HookRegistry(
        {"UserPromptSubmit": [HookMatcher(hooks=[stuck])]},
        observers=[OpenTelemetryObserver(provider)],
    )
    async with registry.session() as session, anyio.create_task_group() as tg:

        async def caller() -> None:
            await session.dispatch(UserPromptSubmitInput(prompt="one"))

        tg.start_soon(caller)
        with anyio.fail_after(LIMIT):
            await started.wait()
        tg.cancel_scope.cancel()
    import gc

    gc.collect()
    spans = exporter.get_finished_spans()
    assert {s.name for s in spans} == {"hooks UserPromptSubmit", "hook UserPromptSubmit python"}
    for s in spans:
        assert s.status.status_code is StatusCode.ERROR
        assert dict(s.attributes or {})["error.type"] == "cancelled"


def test_no_opentelemetry_work_or_import_when_not_attached() -> None:
    script = (
        "import sys, anyio\n"
        "from agent_hooks import HookMatcher, HookRegistry, PreToolUseInput\n"
        "async def cb(input): return None\n"
        "async def main():\n"
        "    reg = HookRegistry({'PreToolUse': [HookMatcher(hooks=[cb])]})\n"
        "    async with reg.session() as s:\n"
        "        await s.dispatch(PreToolUseInput(tool_name='Bash', tool_input={}))\n"
        "anyio.run(main)\n"
        "assert not [m for m in sys.modules if m.startswith('opentelemetry')], 'imported'\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@pytest.mark.anyio
async def test_shadow_handlers_and_the_would_be_decision_are_on_the_spans(
    traced: tuple[TracerProvider, InMemorySpanExporter],
) -> None:
    from agent_hooks import CallbackHook

    provider, exporter = traced

    def deny(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CallbackHook(deny, shadow=True)])]},
        observers=[OpenTelemetryObserver(provider)],
    )
    async with registry.session(session_id="s") as session:
        decision = await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={}))
    assert not decision.blocked
    (dispatch,) = by_name(exporter.get_finished_spans(), "hooks ")
    attributes = dict(dispatch.attributes or {})
    assert attributes["agent_hooks.blocked"] is False
    assert "agent_hooks.decision" not in attributes
    assert attributes["agent_hooks.would_be.decision"] == "deny"
    assert attributes["agent_hooks.would_be.blocked"] is True
    assert attributes["agent_hooks.shadow.handlers"] == 1
    (handler,) = by_name(exporter.get_finished_spans(), "hook ")
    assert dict(handler.attributes or {})["agent_hooks.handler.shadow"] is True
    assert dict(handler.attributes or {})["agent_hooks.handler.decision"] == "deny"
