"""Translation between a harness's own wire format and the canonical one.

The canonical form of a payload is the Claude-shaped JSON object every typed input
decodes from (snake_case keys, ``hook_event_name`` a canonical event, Claude Code's tool
names and tool-input keys); the canonical form of an answer is a typed output. A
:class:`~agent_hooks._wire._native.NativeWire` row says how a harness differs; the
functions here read it, both ways, and never test a harness's name:

* :func:`to_canonical`: a native payload -> the canonical payload (keys renamed, the
  event and tool names mapped, a JSON-string tool input parsed, fields a native event
  keeps at the top level moved into ``tool_input``, ``stop_hook_active`` from the
  harness's continuation count).
* :func:`to_native`: the canonical payload -> the payload a hook configured in that
  harness's format expects (the exact inverse where one exists).
* :func:`answer_to_native`: a reduced answer -> the harness's answer. What the harness
  cannot express is mapped to the nearest documented behaviour, or left out, with a
  ``not_expressible`` diagnostic: never dropped silently.
* :func:`answer_from_native`: an answer a hook of that harness printed -> the canonical
  (Claude-shaped) answer object the codec reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._base._errors import InvalidPayloadError
from .._events._capabilities import spec_for
from .._events._model import HookOutput, Merge
from ._fields import field_codecs, to_json
from ._native import AnswerKeys, NativeEvent, NativeWire
from ._outputs import rank_key

__all__ = [
    "Verdict",
    "answer_from_native",
    "answer_to_native",
    "canonical_tool",
    "native_event_of",
    "native_tool",
    "to_canonical",
    "to_native",
    "verdict_of",
]

_SPECIFIC = "hookSpecificOutput"

_SAID = frozenset(
    {
        "decision",
        "reason",
        "permission_decision",
        "permission_decision_reason",
        "updated_input",
        "additional_context",
        "updated_tool_output",
        "updated_mcp_tool_output",
        "continue_",
        "stop_reason",
        "system_message",
        "suppress_output",
        "extra",
        "extra_specific",
    }
)
"""Answer fields :func:`answer_to_native` writes or reports itself; any other field set
is reported as left out (``suppress_output`` is advisory everywhere)."""


def canonical_tool(wire: NativeWire, name: str, event: NativeEvent | None = None) -> str:
    """The canonical name of a tool the harness calls ``name`` (on ``event``: its own
    names first), unchanged when unmapped."""
    if event is not None and name in event.tool_names:
        return event.tool_names[name]
    return wire.tool_names.get(name, name)


def native_tool(wire: NativeWire, name: str, event: NativeEvent | None = None) -> str:
    """The harness's name of the canonical tool ``name``: the first native name mapped
    to it (on ``event``: of its own names first), else ``name``."""
    for table in (event.tool_names if event is not None else {}, wire.tool_names):
        for native, canonical in table.items():
            if canonical == name:
                return native
    return name


def _joined_input(wire: NativeWire, tool: str, value: Any) -> Any:
    """A tool input whose list of strings the canonical tool takes as one string
    (:attr:`NativeWire.list_inputs`), in the canonical form; anything else as it is. The
    joined string replaces any canonical key the input also holds: what runs is what a
    guard sees."""
    if tool not in wire.list_inputs:
        return value
    key, canonical = wire.list_inputs[tool]
    if isinstance(value, Mapping):
        listed, rest = value.get(key), {k: v for k, v in value.items() if k != key}
    else:
        listed, rest = value, {}
    if isinstance(listed, str):
        return {**rest, canonical: listed}
    if isinstance(listed, list) and listed and all(isinstance(v, str) for v in listed):
        return {**rest, canonical: "\n".join(listed)}
    return value


def _listed_input(wire: NativeWire, tool: str, value: Any) -> Any:
    """The inverse of :func:`_joined_input`: the canonical string as a one-item list."""
    if tool not in wire.list_inputs or not isinstance(value, Mapping):
        return value
    key, canonical = wire.list_inputs[tool]
    one = value.get(canonical)
    if not isinstance(one, str):
        return value
    return {**{k: v for k, v in value.items() if k != canonical}, key: [one]}


def native_event_of(
    wire: NativeWire, obj: Mapping[str, Any], event: str | None = None
) -> NativeEvent:
    """The native event of a payload: ``event`` when given (``--event``), else the key
    that names it.

    Raises:
        InvalidPayloadError: no event is named, or the name is not one of the harness's.
    """
    name = event
    if name is None:
        for key in (*((wire.event_key,) if wire.event_key else ()), *wire.alt_event_keys):
            value = obj.get(key)
            if isinstance(value, str):
                name = value
                break
    if name is None:
        raise InvalidPayloadError(
            "the payload does not name its event; pass --event NAME (the event the "
            "configuration entry is under)",
            path=f"$.{wire.event_key or next(iter(wire.alt_event_keys), '')}".rstrip("."),
        )
    found = wire.event_named(name)
    if found is None:
        known = ", ".join(e.name for e in wire.events)
        raise InvalidPayloadError(f"unknown event {name!r} for this harness; known: {known}")
    return found


def _rename_keys(keys: Mapping[str, str], value: Any) -> Any:
    if not isinstance(value, Mapping):
        return value
    return {keys.get(k, k): v for k, v in value.items()}


def to_canonical(obj: Mapping[str, Any], wire: NativeWire, native: NativeEvent) -> dict[str, Any]:
    """The canonical payload of a native one (see the module docstring). Keys the
    harness sends that have no canonical meaning are kept as they came."""
    nest = native.nested or wire.nested
    inner = obj.get(nest) if nest is not None else None
    if isinstance(inner, Mapping):  # (Windsurf's tool_info: the event's own fields)
        flat = {k: v for k, v in obj.items() if k != nest}
        obj = {**flat, **{k: v for k, v in inner.items() if k not in flat}}
    renames = {**wire.payload_keys, **native.renames}
    out: dict[str, Any] = {"hook_event_name": native.event}
    for key, value in obj.items():
        if key == wire.event_key:
            out.pop("hook_event_name")
            out["hook_event_name"] = native.event  # where the harness put its name
            continue
        if key in native.lift:
            continue
        new = renames.get(key, key)
        if new not in out:
            out[new] = value
    for canonical, source in wire.fallbacks.items():
        if out.get(canonical) is None and source in obj:
            value = obj[source]
            if isinstance(value, list):
                value = next((v for v in value if isinstance(v, str)), None)
            if isinstance(value, str):
                out[canonical] = value
    count = obj.get(wire.loop_count_key) if wire.loop_count_key else None
    if native.answer == "continue" and isinstance(count, int) and "stop_hook_active" not in out:
        # (Claude-style Stop hooks look here to avoid keeping the agent going forever)
        out["stop_hook_active"] = count > 0
    for key in wire.json_string_keys:
        value = out.get(key)
        if isinstance(value, str):
            try:
                parsed = json.loads(value)
            except ValueError:
                continue
            if isinstance(parsed, dict):
                out[key] = parsed
    if native.tool is not None and "tool_name" not in out:
        out["tool_name"] = native.tool
    if native.mcp_keys is not None and "tool_name" not in out:
        server, tool = (obj.get(k) for k in native.mcp_keys)
        if isinstance(server, str) and isinstance(tool, str):
            out["tool_name"] = f"mcp__{server}__{tool}"
    if native.lift:
        came = out.pop("tool_input", None)
        tool_input = dict(came) if isinstance(came, Mapping) else {}
        for key in native.lift:
            if key in obj:
                tool_input[key] = obj[key]
        out["tool_input"] = tool_input
    name = out.get("tool_name")
    if isinstance(name, str):
        keys = wire.tool_input_keys.get(name)
        if keys is not None:
            out["tool_input"] = _rename_keys(keys, out.get("tool_input"))
        if name in wire.list_inputs:
            out["tool_input"] = _joined_input(wire, name, out.get("tool_input"))
        out["tool_name"] = canonical_tool(wire, name, native)
    calls = out.get("tool_calls")
    if isinstance(calls, list):  # (PostToolBatch: each call named as the canonical tool)
        out["tool_calls"] = [_call(wire, native, c, canonical=True) for c in calls]
    return out


def _call(wire: NativeWire, native: NativeEvent, call: Any, *, canonical: bool) -> Any:
    """One entry of a batch's ``tool_calls`` with its tool name and input keys in the
    canonical form (``canonical``), or back in the harness's."""
    if not isinstance(call, Mapping) or not isinstance(call.get("tool_name"), str):
        return call
    name = call["tool_name"]
    entry = dict(call)
    if canonical:
        keys = wire.tool_input_keys.get(name)
        if keys is not None:
            entry["tool_input"] = _rename_keys(keys, entry.get("tool_input"))
        if name in wire.list_inputs:
            entry["tool_input"] = _joined_input(wire, name, entry.get("tool_input"))
        entry["tool_name"] = canonical_tool(wire, name, native)
        return entry
    own = native_tool(wire, name, native)
    keys = wire.tool_input_keys.get(own)
    if keys is not None:
        entry["tool_input"] = _rename_keys({v: k for k, v in keys.items()}, entry.get("tool_input"))
    entry["tool_input"] = _listed_input(wire, own, entry.get("tool_input"))
    entry["tool_name"] = own
    return entry


def to_native(payload: Mapping[str, Any], wire: NativeWire, native: NativeEvent) -> dict[str, Any]:
    """The payload a hook of the harness's format expects for the canonical ``payload``:
    event, keys and tool names written back as the harness spells them; the fields a
    native event keeps at the top level taken out of ``tool_input`` again."""
    back: dict[str, str] = {}
    for renames in (native.renames, wire.payload_keys):  # the event's own first
        for k, v in renames.items():
            back.setdefault(v, k)
    tool = payload.get("tool_name")
    native_name = native_tool(wire, tool, native) if isinstance(tool, str) else None
    out: dict[str, Any] = {}
    for key, value in payload.items():
        if key == "hook_event_name":
            if wire.event_key:
                out[wire.event_key] = native.name
            elif native.payload_name:
                out["hook_event_name"] = native.payload_name
            continue
        if key == "tool_name" and native_name is not None:
            if native.tool is not None or native.mcp_keys is not None:
                continue  # the event implies it
            value = native_name
        if key == "tool_input" and isinstance(value, Mapping):
            keys = wire.tool_input_keys.get(native_name or "")
            if keys is not None:
                value = _rename_keys({v: k for k, v in keys.items()}, value)
            value = _listed_input(wire, native_name or "", value)
            if native.lift:
                for lifted in native.lift:
                    if lifted in value:
                        out[lifted] = value[lifted]
                continue
        if key == "tool_calls" and isinstance(value, list):
            value = [_call(wire, native, c, canonical=False) for c in value]
        new = back.get(key, key)
        if new not in out:
            out[new] = value
    nest = native.nested or wire.nested
    if nest is not None and native.nested_keys:
        out[nest] = {k: out.pop(k) for k in native.nested_keys if k in out}
    return out


# ------------------------------------------------------------------ answers


@attrs.frozen(kw_only=True)
class Verdict:
    """What a canonical answer says, whatever event it is for."""

    decision: str | None = None
    """``allow``, ``deny``, ``ask``, ``defer`` or ``block``; ``None``: no verdict."""
    reason: str | None = None
    updated_input: Mapping[str, Any] | None = None
    context: str | None = None
    interrupt: bool | None = None


def verdict_of(output: HookOutput) -> Verdict:
    """The verdict of a typed answer, read off its ranked decision fields (the event's
    own first, then ``decision: block``), with their companions."""
    ranked = [fc for fc in field_codecs(type(output), True) if fc.info.merge is Merge.RANK]
    ranked.sort(key=lambda fc: fc.name == "decision")
    decision: str | None = None
    reason: str | None = None
    updated: Mapping[str, Any] | None = getattr(output, "updated_input", None)
    interrupt: bool | None = None
    for fc in ranked:
        value = getattr(output, fc.name, None)
        if value is None:
            continue
        decision = str(rank_key(fc, value))
        companion = fc.info.companion
        holder = value if fc.info.rank_by else output
        if companion:
            text = getattr(holder, companion, None)
            reason = text if isinstance(text, str) and text else None
        if fc.info.rank_by:
            updated = getattr(value, "updated_input", None) or updated
            interrupt = getattr(value, "interrupt", None)
        break
    if reason is None and isinstance(getattr(output, "reason", None), str):
        reason = getattr(output, "reason", None)
    context = getattr(output, "additional_context", None)
    return Verdict(
        decision=decision,
        reason=reason,
        updated_input=updated,
        context=context if isinstance(context, str) else None,
        interrupt=interrupt,
    )


def _note(message: str, where: str) -> Diagnostic:
    return Diagnostic(
        code=DiagnosticCode.NOT_EXPRESSIBLE,
        message=message,
        severity=Severity.WARNING,
        location=where,
    )


def _put(answer: dict[str, Any], key: str, value: Any) -> None:
    """Set ``key`` (dotted: inside that object) in ``answer``."""
    head, _, tail = key.partition(".")
    if tail:
        inner = answer.setdefault(head, {})
        inner[tail] = value
    else:
        answer[head] = value


def answer_to_native(
    output: HookOutput,
    wire: NativeWire,
    native: NativeEvent,
    *,
    passthrough: dict[str, Any] | None = None,
    loop_count: int | None = None,
    loop_cap: int | None = None,
    tool_name: str | None = None,
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The harness's answer for a reduced canonical answer, and what could not be said.

    ``passthrough`` is the canonical (Claude-shaped) answer, used as it is for events
    whose answers the harness takes in that shape (``answer="passthrough"``). The
    event's own answer fields the row lists (:attr:`AnswerKeys.fields`) are written
    as they are, under the harness's keys. A block of a continue-loop event when
    ``loop_count`` has reached ``loop_cap`` is not written (the harness would refuse
    it), with a ``continuation_cap`` diagnostic. A rewritten tool input is written with
    the harness's own input keys for ``tool_name`` (the canonical name of the tool
    called).
    """
    where = native.name
    diags: list[Diagnostic] = []
    if native.answer == "passthrough":
        return dict(passthrough or {}), diags
    keys: AnswerKeys = wire.answers.get(native.answer) or AnswerKeys()
    v = verdict_of(output)
    answer: dict[str, Any] = {}
    if keys.context_keeps_going and v.context and v.decision not in ("block", "deny"):
        v = attrs.evolve(v, decision="block", reason=v.context, context=None)
    decision = v.decision
    if decision in ("block", "deny") and keys.followup is not None:
        if loop_cap is not None and loop_count is not None and loop_count >= loop_cap:
            diags.append(
                Diagnostic(
                    code=DiagnosticCode.CONTINUATION_CAP,
                    message=f"{native.name} kept the agent going {loop_count} times "
                    f"(the harness's limit is {loop_cap}); this block is not written",
                    severity=Severity.WARNING,
                    location=where,
                )
            )
        else:
            answer[keys.followup] = v.reason or v.context or "Continue."
        decision = None
    elif keys.block_flag is not None and (
        decision in ("block", "deny") or keys.nearest.get(decision or "") == "block"
    ):
        if decision not in ("block", "deny"):
            diags.append(
                _note(f"{native.name} has no {decision!r}; answered as a block, the nearest", where)
            )
        answer[keys.block_flag] = True
        for rkey in keys.reasons:
            answer[rkey] = v.reason or f"blocked by a {native.name} hook"
        decision = None
    elif decision in ("block", "deny") and keys.block_as_continue_false:
        answer[keys.continue_key or "continue"] = False
        for rkey in keys.reasons:
            answer[rkey] = v.reason or f"blocked by a {native.name} hook"
        decision = None
    elif decision in ("block", "deny") and keys.block_as_context and keys.context:
        text = "\n".join(t for t in (v.reason, v.context) if t)
        _put(answer, keys.context, text or f"blocked by a {native.name} hook")
        diags.append(
            _note(
                f"{native.name} cannot block; the block's reason is sent as added context",
                where,
            )
        )
        decision = None
        v = attrs.evolve(v, context=None)
    if decision is not None:
        value = keys.decision_values.get(decision) if keys.decision else None
        if value is None and keys.decision and decision in keys.nearest:
            value = keys.nearest[decision]
            diags.append(
                _note(
                    f"{native.name} has no {decision!r}; answered {value!r}, the nearest "
                    "it documents",
                    where,
                )
            )
        if value is None:
            diags.append(_note(f"{native.name} cannot express {decision!r}; left out", where))
        else:
            assert keys.decision is not None
            _put(answer, keys.decision, value)  # (dotted: Augment's hookSpecificOutput)
            reason = v.reason
            if not reason and keys.reason_required and decision in ("deny", "block"):
                reason = f"denied by a {native.name} hook"
            if reason:
                for rkey in keys.reasons:
                    _put(answer, rkey, reason)
            if keys.interrupt and v.interrupt:
                answer[keys.interrupt] = True
    if v.updated_input is not None:
        if keys.updated_input:
            args = dict(v.updated_input)
            called = native_tool(wire, tool_name or "", native)
            native_keys = wire.tool_input_keys.get(called)
            if native_keys is not None:
                args = _rename_keys({c: n for n, c in native_keys.items()}, args)
            _put(answer, keys.updated_input, _listed_input(wire, called, args))
        else:
            diags.append(_note(f"{native.name} cannot rewrite the tool input; left out", where))
    replaced = getattr(output, "updated_tool_output", None)
    if replaced is None:
        replaced = getattr(output, "updated_mcp_tool_output", None)
    if replaced is not None:
        if keys.updated_output:
            for key, value in keys.updated_output_with.items():
                _put(answer, key, value)
            _put(answer, keys.updated_output, replaced)
        else:
            diags.append(_note(f"{native.name} cannot replace the tool's result; left out", where))
    if v.context:
        if keys.context:
            _put(answer, keys.context, v.context)
        else:
            diags.append(_note(f"{native.name} takes no added context; left out", where))
    if output.continue_ is False and not (decision is None and keys.block_as_continue_false):
        if keys.halt_flag:
            answer[keys.halt_flag] = True
            for rkey in keys.reasons:
                answer.setdefault(rkey, output.stop_reason or f"ended by a {native.name} hook")
        elif keys.continue_key:
            answer[keys.continue_key] = False
            if output.stop_reason and keys.stop_reason:
                answer[keys.stop_reason] = output.stop_reason
        else:
            diags.append(_note(f"{native.name} cannot stop the agent (continue: false)", where))
    if output.system_message:
        if keys.system_message:
            answer[keys.system_message] = output.system_message
        else:
            diags.append(_note(f"{native.name} shows no systemMessage; left out", where))
    if keys.default_decision is not None and keys.decision and keys.decision not in answer:
        answer[keys.decision] = keys.default_decision
    for name, key in keys.fields.items():
        value = getattr(output, name, None)
        if value is not None:
            _put(answer, key, to_json(value, wire="claude", output=True))
    left = sorted(
        a.name
        for a in attrs.fields(type(output))
        if a.name not in _SAID
        and a.name not in keys.fields
        and getattr(output, a.name) not in (None, {}, False)
    )
    if left:
        diags.append(_note(f"{native.name} has no place for {', '.join(left)}; left out", where))
    # keys the hooks printed that no event knows: passed on, as for the canonical formats
    for key, value in output.extra.items():
        answer.setdefault(key, value)
    for key, value in output.extra_specific.items():
        if wire.specific_key:
            answer.setdefault(wire.specific_key, {}).setdefault(key, value)
        else:
            answer.setdefault(key, value)
    specific = answer.get(wire.specific_key) if wire.specific_key else None
    if isinstance(specific, dict):  # by convention, it names its event first
        answer[wire.specific_key or ""] = {"hookEventName": native.name, **specific}
    return answer, diags


_VERDICTS = frozenset({"allow", "deny", "ask", "defer", "block"})
"""The canonical verdicts a native decision value maps to (anything else is not one)."""


def answer_from_native(
    obj: Mapping[str, Any], wire: NativeWire, native: NativeEvent
) -> dict[str, Any]:
    """The canonical (Claude-shaped) answer object of an answer a hook written for the
    harness printed: its verdict, reason, rewritten input and context moved to where
    the codec reads them. Keys it does not map are passed on as they came."""
    if native.answer == "passthrough":
        return dict(obj)
    keys: AnswerKeys = wire.answers.get(native.answer) or AnswerKeys()
    rest = dict(obj)
    specific: dict[str, Any] = {}
    out: dict[str, Any] = {}

    def take(key: str | None) -> Any:
        if not key:
            return None
        head, _, tail = key.partition(".")
        if tail:
            inner = rest.get(head)
            if isinstance(inner, Mapping) and tail in inner:
                value = inner[tail]
                remaining = {k: x for k, x in inner.items() if k != tail}
                if remaining:
                    rest[head] = remaining
                else:
                    rest.pop(head)
                return value
            return None
        return rest.pop(key, None)

    reason = None
    for rkey in keys.reasons:
        value = take(rkey)
        if isinstance(value, str) and reason is None:
            reason = value
    verdict = None
    unreadable: Any = None
    if keys.decision:
        raw = take(keys.decision)
        if isinstance(raw, str):
            inverse = {n: c for c, n in keys.decision_values.items() if c != "block"}
            verdict = inverse.get(raw, {"block": "deny", "approve": "allow"}.get(raw, raw))
        if raw is not None and verdict not in _VERDICTS:
            # ("Deny", 1): handed on where the codec reads a decision, which refuses it and
            # says so, rather than dropped here as if the hook had not decided
            unreadable, verdict = raw, None
    if keys.followup:
        follow = take(keys.followup)
        if isinstance(follow, str) and follow:
            out["decision"], out["reason"] = "block", follow
    flag = rest.pop(keys.block_flag, None) if keys.block_flag is not None else None
    if flag is True:
        verdict = "deny"
    elif flag is not None and flag is not False and unreadable is None:
        unreadable = flag
    if keys.block_as_continue_false and rest.get(keys.continue_key or "continue") is False:
        rest.pop(keys.continue_key or "continue")
        out["decision"] = "block"
        if reason:
            out["reason"] = reason
    if keys.halt_flag is not None and rest.get(keys.halt_flag) is True:
        rest.pop(keys.halt_flag)
        out["continue"] = False
        out["stopReason"] = reason or "ended by a hook"
    updated = take(keys.updated_input)
    context = take(keys.context)
    interrupt = take(keys.interrupt)
    if keys.fields:
        codecs = {fc.name: fc for fc in field_codecs(spec_for(native.event).output_type, True)}
        for name, native_key in keys.fields.items():
            value = take(native_key)
            fc = codecs.get(name)
            if value is not None and fc is not None:
                (specific if fc.info.specific else out)[fc.claude_key] = value
    if verdict is not None:
        if native.event == "PermissionRequest":
            block: dict[str, Any] = {"behavior": verdict}
            if reason and verdict == "deny":
                block["message"] = reason
            if interrupt is True:
                block["interrupt"] = True
            specific["decision"] = block
        elif native.event == "PreToolUse":
            specific["permissionDecision"] = verdict
            if reason:
                specific["permissionDecisionReason"] = reason
        elif verdict in ("deny", "block"):
            out["decision"] = "block"
            if reason:
                out["reason"] = reason
    if unreadable is not None and verdict is None:
        if native.event == "PermissionRequest":
            specific["decision"] = {"behavior": unreadable}
        elif native.event == "PreToolUse":
            specific["permissionDecision"] = unreadable
        else:
            out.setdefault("decision", unreadable)
    if updated is not None:
        specific["updatedInput"] = updated
    if context is not None:
        specific["additionalContext"] = context
    for key in (keys.continue_key, keys.stop_reason, keys.system_message):
        if key and key in rest:
            canonical = {"continue": "continue", "stopReason": "stopReason"}.get(key, key)
            out[canonical] = rest.pop(key)
    inner = rest.pop(_SPECIFIC, None) if wire.specific_key else None
    if isinstance(inner, Mapping):
        specific = {**inner, **specific}
        if specific.get("hookEventName") == native.name:  # the harness's name of it
            specific["hookEventName"] = native.event
    if specific:
        specific.setdefault("hookEventName", native.event)
        out[_SPECIFIC] = specific
    for key, value in rest.items():
        out.setdefault(key, value)
    return out
