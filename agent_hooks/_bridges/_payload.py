"""The whole hook graph as one hook: one payload in, one reduced answer out.

Used by ``agent-hooks run`` (one process per event, for harnesses that call a
command hook), by ``agent-hooks serve`` (Claude Code's ``type: "http"`` hooks)
and by the Claude Agent SDK adapter. The answer is the reduced decision in the
wire form of the payload's dialect (PascalCase event name: claude; snake_case:
docker), carrying only fields that say something; ``{}`` when nobody had an
opinion. :func:`dumps` writes it as JSON text that always encodes as UTF-8,
whatever a hook put in its answer (lone surrogates, deep nesting).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity, one_line
from .._base._errors import InvalidPayloadError, UnknownEventError
from .._dispatch._audit import audit_context
from .._dispatch._compiled import CompiledRegistry
from .._dispatch._decision import Decision
from .._dispatch._registry import HookRegistry
from .._dispatch._session import Session
from .._dispatch._verdict import handler_verdict, output_verdict
from .._events._capabilities import EventSpec, spec_for
from .._events._model import HookOutput
from .._events._untyped import AnyEvent
from .._handlers._nodes import HandlerResult
from .._wire._codec import DecodedInput, encode_output
from .._wire._detect import decode_payload, native_answer
from .._wire._dialects import WireFormat
from .._wire._json import dumps as _json_dumps

__all__ = [
    "BridgeResult",
    "answer_json",
    "diagnostic_lines",
    "dispatch_payload",
    "dumps",
    "handler_verdict",
    "one_line",
    "report_json",
]


@attrs.frozen(kw_only=True)
class BridgeResult:
    """What a bridge prints and how it exits.

    ``answer`` is the JSON object for stdout; ``diagnostics`` go to stderr, one
    line each; ``exit_code`` is 0 (answered), 1 (bad payload or internal error:
    non-blocking for every harness) or 2 (``fail_closed`` and an internal error:
    the harness blocks with ``error`` as the reason).
    """

    answer: dict[str, Any]
    exit_code: int = 0
    error: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    decision: Decision[Any] | None = None
    wire: WireFormat = "claude"
    plain: str | None = None
    """Plain text to print instead of ``answer`` (WorktreeCreate's path), when set."""


def answer_json(
    output: HookOutput, wire: WireFormat, event: AnyEvent | None = None
) -> dict[str, Any]:
    """The reduced answer as wire JSON, without fields that say nothing
    (``continue: true``, ``suppressOutput: false``); ``event`` names the event in
    ``hookSpecificOutput`` (needed for an untyped event's answer)."""
    if output.continue_ is True or output.suppress_output is False:
        output = attrs.evolve(
            output,
            continue_=None if output.continue_ is True else output.continue_,
            suppress_output=None if output.suppress_output is False else output.suppress_output,
        )
    return encode_output(output, wire, event=event)


async def dispatch_payload(
    data: bytes | str | Mapping[str, Any] | DecodedInput,
    registry: HookRegistry | None,
    *,
    project_dir: str | None = None,
    fail_closed: bool = False,
    session: Session | None = None,
    on_answer: Callable[[BridgeResult], None] | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: str | None = None,
) -> BridgeResult:
    """Decode one payload, dispatch it through ``registry`` (in ``session`` when
    given, else in a one-off session) and return the reduced answer. Never raises
    for bad payloads or failing hooks. ``registry`` may be ``None`` when ``session``
    is given (the session's snapshot is used). ``data`` may be a payload its caller
    decoded already (:func:`~agent_hooks._wire._codec.decode_input`).

    ``on_answer`` is called with the result as soon as it is decided, before a
    one-off session closes (closing waits for fire-and-forget handlers, up to the
    registry's ``background_drain_timeout``): the answer never waits for them.

    Output of fire-and-forget handlers is delivered as Claude Code delivers async hook
    output: a later answer of the same ``session`` carries it (their
    ``additionalContext``, and the reasons of ``asyncRewake`` hooks that blocked, as the
    answer's ``additionalContext`` where the event takes it, else in its
    ``systemMessage``; their ``systemMessage`` in the answer's). A one-off session has
    no later answer: what its fire-and-forget handlers had to say is reported in an
    ``undelivered`` diagnostic instead of being dropped silently.

    ``environ`` and ``cwd`` stand for the caller's process when it is not this one (the
    resident server of ``agent-hooks run``): the environment command hooks start from
    (default ``os.environ``; ``CLAUDE_PROJECT_DIR`` is read from it) and the working
    directory when the payload names none (default ``os.getcwd()``)."""
    if isinstance(data, DecodedInput):
        decoded = data
    else:
        try:
            # any harness's payload (Gemini CLI, Cursor, Copilot detected by their marks)
            decoded = decode_payload(data)
        except (InvalidPayloadError, UnknownEventError) as exc:
            return _failure(str(exc), fail_closed)
    hook_input = decoded.input
    env = os.environ if environ is None else environ
    project = project_dir or env.get("CLAUDE_PROJECT_DIR") or hook_input.cwd

    if session is not None:
        compiled = session.compiled
    elif registry is not None:
        compiled = registry.compile()
    else:
        raise TypeError("dispatch_payload needs a registry or a session")

    def decided(decision: Decision[Any]) -> BridgeResult:
        done = _result(decoded, compiled, decision)
        if on_answer is not None:
            on_answer(done)
        return done

    audit = audit_context(
        harness=decoded.dialect.name if decoded.dialect is not None else decoded.wire,
        dialect=decoded.wire,
        native_event=decoded.native_event.name if decoded.native_event is not None else None,
    )
    with audit:  # (what the decision log's records say of the caller)
        return await _dispatch_decoded(
            decoded, registry, session, decided, environ, cwd, project, fail_closed
        )


async def _dispatch_decoded(
    decoded: DecodedInput,
    registry: HookRegistry | None,
    session: Session | None,
    decided: Callable[[Decision[Any]], BridgeResult],
    environ: Mapping[str, str] | None,
    cwd: str | None,
    project: str | None,
    fail_closed: bool,
) -> BridgeResult:
    """:func:`dispatch_payload` once the payload is decoded."""
    hook_input = decoded.input
    result: BridgeResult | None = None
    try:
        if session is not None:
            result = decided(await session.dispatch(hook_input, environ=environ))
        else:
            assert registry is not None
            async with registry.session(
                session_id=hook_input.session_id,
                cwd=hook_input.cwd or cwd,
                project_dir=project or cwd,
            ) as one_off:
                result = decided(await one_off.dispatch(hook_input, environ=environ))
            lost = _undelivered(one_off.undelivered)
            if lost is not None:
                result = attrs.evolve(result, diagnostics=(*result.diagnostics, lost))
    except Exception as exc:  # an internal error, never a hook's: hooks are contained
        if result is not None:  # answered already; the failure came while closing
            return result
        return _failure(f"agent_hooks internal error: {type(exc).__name__}: {exc}", fail_closed)
    return result


def _result(
    decoded: DecodedInput, compiled: CompiledRegistry, decision: Decision[Any]
) -> BridgeResult:
    """The answer of a decision, in the payload's wire format.

    Some events have no JSON form for some decisions, and the bridge answers as their
    harness expects instead: a block on an event whose block is exit-code-only
    (TeammateIdle, TaskCompleted) exits 2 with the reason on stderr; an event whose
    command hooks answer with plain stdout (WorktreeCreate: the path) prints that text.
    A block of an event this version does not type exits 2 with the reason on stderr
    (what every harness reads as a block) and keeps its JSON answer (a
    ``permissionDecision: "deny"`` with its reason) on stdout.
    """
    spec = spec_for(decision.event)
    output = _with_background(spec, decision)
    answer = answer_json(output, decoded.wire, decision.event)
    # the calling harness's own answer shape (Gemini CLI, Cursor, Copilot), when it has one
    answer, untranslatable = native_answer(decoded, output, answer)
    plain: str | None = None
    if decision.blocked and spec.typed and not spec.json_block:
        answer = {k: v for k, v in answer.items() if k not in ("decision", "reason")}
    elif (spec.typed or not decision.blocked) and _plain_field(spec, decoded):
        value = getattr(decision.output, spec.plain_stdout or "", None)
        plain = value if isinstance(value, str) else ""
    exits = decision.blocked and (not spec.typed or not spec.json_block or plain is not None)
    reason = decision.reason or f"blocked by a {spec.event.value} hook"
    wire = decoded.dialect.native if decoded.dialect is not None else None
    if wire is not None and wire.exit_status_only and decoded.native_event is not None:
        # No JSON answer (Windsurf, Kiro): a block is exit 2 with the reason on stderr;
        # stdout carries only plain context text, where the harness reads it (Kiro).
        verdict, why, text = answer.get("decision"), answer.get("reason"), answer.get("context")
        answer, plain = {}, text if isinstance(text, str) else ""
        if verdict == "block":
            default = f"blocked by a {decoded.native_event.name} hook"
            exits, reason = True, why if isinstance(why, str) and why else default
    exit_code, error = (2, reason) if exits else (0, None)
    return BridgeResult(
        answer=answer,
        exit_code=exit_code,
        error=error,
        plain=plain,
        diagnostics=(
            *decoded.diagnostics,
            *compiled.diagnostics,
            *decision.diagnostics,
            *untranslatable,
        ),
        decision=decision,
        wire=decoded.wire,
    )


def _plain_field(spec: EventSpec, decoded: DecodedInput) -> bool:
    """Whether the event answers a Claude Code command hook in plain stdout (WorktreeCreate:
    the path), not in JSON."""
    field = spec.plain_stdout
    return bool(field) and not (field or "").startswith("additional") and decoded.wire == "claude"


def _with_background(spec: EventSpec, decision: Decision[Any]) -> HookOutput:
    """The decision's output with what fire-and-forget handlers had to say since the
    session's last answer: their context (and the reasons of ``asyncRewake`` hooks that
    blocked) as ``additional_context`` where the event takes it, else as a system
    message; their system messages after the decision's own."""
    output: HookOutput = decision.output
    done = [r.output for r in decision.background if r.output is not None]
    contexts = [c for o in done if (c := getattr(o, "additional_context", None))]
    contexts += [f"A background hook reported: {reason}" for reason in decision.rewake if reason]
    messages = [o.system_message for o in done if o.system_message]
    changes: dict[str, Any] = {}
    if contexts and "additional_context" in spec.honoured_fields:
        own = getattr(output, "additional_context", None)
        changes["additional_context"] = "\n".join([own, *contexts] if own else contexts)
    else:
        messages += contexts
    if messages:
        own_message = output.system_message
        changes["system_message"] = "\n".join([own_message, *messages] if own_message else messages)
    return attrs.evolve(output, **changes) if changes else output


def _undelivered(results: tuple[HandlerResult, ...]) -> Diagnostic | None:
    """A diagnostic for what fire-and-forget handlers of a one-off session said and no
    later answer can carry; ``None`` when they said nothing."""
    said = [
        text
        for r in results
        if r.output is not None
        for text in (getattr(r.output, "additional_context", None), r.output.system_message)
        if text
    ]
    if not said:
        return None
    return Diagnostic(
        code=DiagnosticCode.UNDELIVERED,
        message=(
            f"{len(said)} message(s) from fire-and-forget hooks cannot be delivered: this "
            "one-shot session has no later answer to carry them (the resident server of "
            "'agent-hooks run', 'serve' and SDK sessions deliver them on the next answer): "
            + one_line(" | ".join(said))[:2000]
        ),
        severity=Severity.WARNING,
    )


def _failure(message: str, fail_closed: bool) -> BridgeResult:
    return BridgeResult(answer={}, exit_code=2 if fail_closed else 1, error=message)


def report_json(result: BridgeResult) -> dict[str, Any]:
    """``--report``: the decision plus, per handler in order, who it is, how it ran, what
    it decided and why (``decision``, ``reason``: :func:`handler_verdict`) and its own
    answer in the payload's wire form (``output``). ``decided_by`` lists the positions
    (in ``handlers``) of the handlers whose decision is the reduced one. Handlers in
    shadow mode come after the enforcing ones (with ``"shadow": true``), never in
    ``decided_by``; with any, ``would_be`` is the decision had they enforced it
    (``decision``, ``reason``)."""
    decision = result.decision
    handlers = []
    if decision is not None:
        for r in (*decision.results, *decision.shadow):
            info = r.handler
            verdict, reason = handler_verdict(r)
            handlers.append(
                {
                    "name": info.name if info else None,
                    "source": info.source if info else None,
                    "location": info.location if info else None,
                    "matcher": info.matcher if info else None,
                    "kind": info.kind if info else None,
                    "outcome": r.outcome.value,
                    "exit_code": r.exit_code,
                    "decision": verdict,
                    "reason": reason,
                    "output": (
                        answer_json(r.output, result.wire, decision.event)
                        if r.output is not None
                        else None
                    ),
                    "duration_ms": round(r.duration * 1000, 3),
                    "diagnostics": [_diag_json(d) for d in r.diagnostics],
                    **({"shadow": True} if info is not None and info.shadow else {}),
                }
            )
    final = output_verdict(decision.output)[0] if decision else None
    report: dict[str, Any] = {
        "event": decision.event.value if decision else None,
        "decision": result.answer,
        "decided_by": [
            i
            for i, h in enumerate(handlers)
            if final and h["decision"] == final and not h.get("shadow")
        ],
        "handlers": handlers,
        "diagnostics": [_diag_json(d) for d in result.diagnostics],
        "error": result.error,
    }
    if decision is not None and decision.would_be is not None:
        verdict, reason = output_verdict(decision.would_be)
        report["would_be"] = {"decision": verdict, "reason": reason}
    return report


def _diag_json(d: Diagnostic) -> dict[str, Any]:
    return {
        "code": d.code.value,
        "severity": d.severity.value,
        "message": d.message,
        "source": d.source,
        "location": d.location,
        "handler": d.handler,
    }


def diagnostic_lines(result: BridgeResult) -> list[str]:
    """Lines for stderr, one per message: the error first, then every diagnostic worth
    a line (not the ``info`` ones)."""
    lines = [f"agent-hooks: {one_line(result.error)}"] if result.error else []
    lines += [
        f"agent-hooks: {one_line(str(d))}"
        for d in result.diagnostics
        if d.severity is not Severity.INFO
    ]
    return lines


def dumps(obj: Any) -> str:
    """Compact JSON for stdout or a response body, which always encodes as UTF-8: a lone
    surrogate in a hook's answer is written as its ``\\uXXXX`` escape, nesting of any
    depth is written, ``NaN`` and the infinities are ``null``
    (:func:`agent_hooks._wire._json.dumps`)."""
    return _json_dumps(obj)
