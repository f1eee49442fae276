"""Model, prompt and agent hooks: an application-supplied model answers for the hook.

agent_hooks calls no model by itself. The application passes a
:class:`ModelClient` (prompt in, text or JSON out) or an :class:`AgentRunner`;
these handlers render the hook's prompt template with the event input (the payload a
command hook of the same entry gets: Claude's shape, or the harness's own for a file of
a harness with its own wire, such as Cursor), ask, and translate the answer:

* schema ``pre_tool_use_decision`` (Docker Agent's LLM judge): a strict
  ``{"decision": "allow"|"deny"|"ask", "reason": ...}`` object, also found
  inside surrounding text, becomes the event's permission decision;
* Claude Code's ``{"ok": bool, "reason": str}``: ``ok: false`` blocks with the
  reason (the event's exit-2 meaning), ``ok: true`` says nothing;
* anything else is free text, added as context where the event takes context.

A timeout or an unusable answer fails closed (deny) on events that fail closed
(PreToolUse, ToolGuard), as Docker Agent does; elsewhere it is a non-blocking
error with a diagnostic.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Mapping
from typing import Any, Literal, Protocol

import anyio
import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._base._errors import RegistrationError
from .._events._capabilities import EventSpec
from .._events._model import HookOutput
from .._wire._outputs import blocking_output, decision_field
from ._nodes import HandlerNode, HandlerResult, HookCall, OnError, Outcome
from ._templates import render_template

__all__ = ["AgentRunner", "ModelClient", "ModelHook", "interpret_model_answer"]

Schema = Literal["pre_tool_use_decision"]


class ModelClient(Protocol):
    """What the application supplies for model and prompt hooks."""

    def __call__(
        self, prompt: str, *, model: str | None, schema: str | None
    ) -> Awaitable[str | Mapping[str, Any]]: ...


class AgentRunner(Protocol):
    """What the application supplies for agent hooks: run an agent on the prompt,
    with the hook input at hand, and return its final answer."""

    def __call__(
        self, prompt: str, *, input: Mapping[str, Any], model: str | None
    ) -> Awaitable[str | Mapping[str, Any]]: ...


def _find_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` (strict first, then embedded in prose or fences)."""
    stripped = text.strip()
    try:
        obj = json.loads(stripped)
        return obj if isinstance(obj, dict) else None
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    for i, ch in enumerate(text):
        if ch == "{":
            try:
                obj, _ = decoder.raw_decode(text, i)
            except ValueError:
                continue
            if isinstance(obj, dict):
                return obj
    return None


def _decision_output(spec: EventSpec, decision: str, reason: str | None) -> HookOutput | None:
    """A verdict as the event's own decision field; ``deny`` as the event's block."""
    if decision == "deny":
        return blocking_output(spec, reason or "denied by the model judge")
    fc = decision_field(spec.output_type)
    if fc is None or decision not in fc.info.rank:
        return None
    kwargs: dict[str, Any]
    if fc.type.kind == "object" and fc.type.cls is not None and fc.info.rank_by:
        kwargs = {fc.name: fc.type.cls(**{fc.info.rank_by: decision})}
    else:
        kwargs = {fc.name: decision}
        if fc.info.companion and reason:
            kwargs[fc.info.companion] = reason
    return spec.output_type(**kwargs)


def _context_output(spec: EventSpec, text: str) -> HookOutput:
    if "additional_context" in spec.honoured_fields:
        kwargs: dict[str, Any] = {"additional_context": text}
        return spec.output_type(**kwargs)
    return spec.output_type(system_message=text)


def interpret_model_answer(
    spec: EventSpec, answer: str | Mapping[str, Any], schema: str | None
) -> HandlerResult:
    """Translate a model's answer for an event (see the module doc). Unusable answers
    come back as ERROR results with a diagnostic; the caller applies fail-closed rules."""
    obj: Mapping[str, Any] | None
    text = ""
    if isinstance(answer, Mapping):
        obj = answer
    elif isinstance(answer, str):
        text = answer
        obj = _find_json_object(answer)
    else:
        return _unusable(f"model answered {type(answer).__name__}, expected text or a JSON object")
    if schema == "pre_tool_use_decision":
        decision = obj.get("decision") if obj is not None else None
        reason = obj.get("reason") if obj is not None else None
        if decision not in ("allow", "deny", "ask") or not (
            reason is None or isinstance(reason, str)
        ):
            return _unusable(
                f"model answer is not a {{decision, reason}} verdict: {text[:200] or obj!r}"
            )
        output = _decision_output(spec, decision, reason)
        outcome = Outcome.BLOCKED if decision == "deny" else Outcome.OK
        return HandlerResult(outcome=outcome, output=output, reason=reason)
    if obj is not None and isinstance(obj.get("ok"), bool):
        reason = obj.get("reason")
        reason_text = reason if isinstance(reason, str) else None
        if obj["ok"]:
            return HandlerResult()
        return HandlerResult(
            outcome=Outcome.BLOCKED,
            output=blocking_output(spec, reason_text or "the model said no"),
            reason=reason_text,
        )
    if obj is not None and not text:
        return HandlerResult(
            output=_context_output(spec, json.dumps(dict(obj), ensure_ascii=False))
        )
    if not text.strip():
        return _unusable("model answered nothing")
    return HandlerResult(output=_context_output(spec, text.strip()))


def _unusable(message: str) -> HandlerResult:
    return HandlerResult.failure(DiagnosticCode.INVALID_OUTPUT, message)


def _fail_closed(spec: EventSpec, result: HandlerResult) -> HandlerResult:
    if not spec.fails_closed:
        return result
    output = blocking_output(spec, f"model hook failed: {result.reason}")
    note = Diagnostic(
        code=DiagnosticCode.FAILED_CLOSED,
        message=f"{spec.event.value} fails closed for model hooks: denied",
        severity=Severity.WARNING,
    )
    return attrs.evolve(result, output=output, diagnostics=(*result.diagnostics, note))


@attrs.frozen(kw_only=True)
class ModelHook:
    """A hook answered by a model (Docker Agent ``type: model``, Claude Code
    ``type: prompt``) or an agent (Claude Code ``type: agent``).

    Give ``client`` (a :class:`ModelClient`) or ``agent`` (an :class:`AgentRunner`).

    Raises:
        RegistrationError: no prompt, or neither/both of client and agent.
    """

    prompt: str
    client: ModelClient | None = None
    agent: AgentRunner | None = None
    model: str | None = None
    schema: str | None = None
    timeout: float | None = None
    name: str | None = None
    kind: str = "model"
    on_error: OnError | None = None
    if_rule: str | None = None
    status_message: str | None = None

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.prompt, str) or not self.prompt.strip():
            raise RegistrationError(f"{self.kind} hook needs a non-empty 'prompt'")
        if (self.client is None) == (self.agent is None):
            raise RegistrationError(
                f"{self.kind} hook needs exactly one of a model client or an agent runner"
            )
        if self.schema not in (None, "pre_tool_use_decision"):
            raise RegistrationError(
                f"unknown model hook schema {self.schema!r}; known: pre_tool_use_decision"
            )

    def to_node(self) -> HandlerNode:
        """Build the handler node."""
        hook = self

        async def call(c: HookCall) -> HandlerResult:
            # the payload a command hook of the same entry would get: the harness's own
            # shape where it has one (a Cursor prompt hook sees Cursor's payload)
            payload = (
                c.payload("claude")
                if c.dialect.native is None
                else json.loads(c.payload_bytes(c.dialect))
            )
            try:
                # Claude Code prompt hooks: without $ARGUMENTS the input JSON is appended
                prompt = render_template(
                    hook.prompt, payload, append_arguments=hook.kind == "prompt"
                )
            except ValueError as exc:
                return _fail_closed(c.spec, _unusable(f"prompt template error: {exc}"))
            answer: str | Mapping[str, Any] | None = None
            with anyio.move_on_after(c.timeout):
                try:
                    if hook.client is not None:
                        answer = await hook.client(prompt, model=hook.model, schema=hook.schema)
                    else:
                        assert hook.agent is not None
                        answer = await hook.agent(prompt, input=payload, model=hook.model)
                except Exception as exc:
                    return _fail_closed(
                        c.spec, _unusable(f"model client raised {type(exc).__name__}: {exc}")
                    )
            if answer is None:
                timed_out = HandlerResult.failure(
                    DiagnosticCode.TIMEOUT,
                    f"model did not answer within {c.timeout:g}s",
                    outcome=Outcome.TIMEOUT,
                )
                return _fail_closed(c.spec, timed_out)
            result = interpret_model_answer(c.spec, answer, hook.schema)
            if result.outcome is Outcome.ERROR:
                return _fail_closed(c.spec, result)
            return result

        return HandlerNode(
            name=self.name or f"{self.kind}: {self.prompt.strip().splitlines()[0][:60]}",
            kind=self.kind,
            call=call,
            timeout=self.timeout,
            on_error=self.on_error,
            if_rule=self.if_rule,
            status_message=self.status_message,
            timeout_slack=0.5,
        )
