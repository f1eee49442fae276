"""Deep Agents Code (``dcode``): ``~/.deepagents/hooks.json`` and
``{project}/.deepagents/hooks.json``.

Same shape as Claude Code's hooks (``command``, ``argv``, ``timeout``,
``statusMessage``); ``"async": true`` is a visible configuration error (the
entry is kept disabled). Project hooks (precedence 200) load only when the
workspace is trusted; user hooks follow (300).

The deprecated list-shaped file, ``{"hooks": [{"command": [...], "events": [...]}]}``
(also a bare top-level list), is migrated with a ``legacy_deprecated``
diagnostic. Legacy dotted event names map to events as follows; the others
have no safe equivalent and are skipped with a diagnostic:

======================  =======================
legacy event            event
======================  =======================
``session.start``       ``SessionStart``
``session.end``         ``SessionEnd``
``user.prompt``         ``UserPromptSubmit``
``permission.request``  ``PermissionRequest``
``tool.error``          ``PostToolUseFailure``
``task.complete``       ``Stop``
``context.compact``     ``PreCompact``
======================  =======================

A legacy entry without ``events`` subscribed to everything: it is migrated to
every event of the table. Current event names (``PreToolUse``) are accepted in
``events`` as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._base._diagnostics import DiagnosticCode, Severity
from .._base._errors import UnknownEventError
from .._dispatch._registry import MatcherGroup
from .._events._names import HookEvent, parse_event
from .._handlers._kinds import build_handler
from .._wire._dialects import DEEPAGENTS
from ._claude_format import build_hooks_document
from ._common import (
    BuildContext,
    Built,
    HookFile,
    ParseFailed,
    decode_json,
    describe,
    json_has_hooks,
)

__all__ = ["LEGACY_EVENTS", "deepagents_builder", "FILE"]


LEGACY_EVENTS: Mapping[str, HookEvent] = {
    "session.start": HookEvent.SESSION_START,
    "session.end": HookEvent.SESSION_END,
    "user.prompt": HookEvent.USER_PROMPT_SUBMIT,
    "permission.request": HookEvent.PERMISSION_REQUEST,
    "tool.error": HookEvent.POST_TOOL_USE_FAILURE,
    "task.complete": HookEvent.STOP,
    "context.compact": HookEvent.PRE_COMPACT,
}
"""Legacy (list-shaped ``hooks.json``) event names -> events."""

_LEGACY_KEYS = frozenset({"command", "events", "timeout", "name", "statusMessage"})


def deepagents_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of Deep Agents Code ``hooks.json`` (current or legacy shape)."""
    doc = decode_json(data, ctx)
    if doc is ParseFailed:
        return Built()
    if isinstance(doc, list):
        return _legacy(doc, "", ctx)
    if isinstance(doc, Mapping) and isinstance(doc.get("hooks"), list):
        return _legacy(doc["hooks"], "hooks", ctx)
    return build_hooks_document(doc, ctx, settings=False)


def _legacy(entries: list[Any], prefix: str, ctx: BuildContext) -> Built:
    built = Built(format="deepagents-legacy")
    migrated: list[str] = []
    for i, entry in enumerate(entries):
        where = f"{prefix}[{i}]"
        if not isinstance(entry, Mapping):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"a legacy hook must be an object with 'command' and 'events', got {describe(entry)}; dropped",
                location=where,
            )
            continue
        for key in entry:
            if key not in _LEGACY_KEYS:
                ctx.report(
                    DiagnosticCode.INVALID_CONFIG,
                    f"unknown field {key!r} in a legacy hook; ignored",
                    location=where,
                    severity=Severity.WARNING,
                )
        command = entry.get("command")
        handler: dict[str, Any] = {"type": "command"}
        if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
            handler["command"] = " ".join(command)
            handler["argv"] = list(command)
        elif isinstance(command, str):
            handler["command"] = command
        else:
            ctx.report(
                DiagnosticCode.INVALID_HANDLER,
                f"legacy 'command' must be a list of strings or a string, got {describe(command)}; dropped",
                location=where,
            )
            continue
        for key in ("timeout", "name", "statusMessage"):
            if key in entry:
                handler[key] = entry[key]
        events = _legacy_events(entry.get("events"), where, ctx)
        for event in events:
            node = build_handler(handler, ctx.kind_context(event, where), ctx.kinds)
            if node is None:
                break  # the same entry fails the same way for every event
            built.groups.append(
                MatcherGroup(event=event, nodes=(node,), location=where, node_locations=(where,))
            )
            migrated.append(event.value)
    if entries:
        ctx.report(
            DiagnosticCode.LEGACY_DEPRECATED,
            "the list-shaped hooks.json is deprecated; migrated to "
            + (", ".join(dict.fromkeys(migrated)) or "no events")
            + '. Rewrite it as {"hooks": {"SessionStart": [{"hooks": [{"type": "command", ...}]}]}}',
            location=prefix or None,
            severity=Severity.WARNING,
        )
    return built


def _legacy_events(value: object, where: str, ctx: BuildContext) -> list[HookEvent]:
    if value is None or value == []:
        return list(dict.fromkeys(LEGACY_EVENTS.values()))
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"legacy 'events' must be a list of event names, got {describe(value)}; entry dropped",
            location=f"{where}.events",
        )
        return []
    events: list[HookEvent] = []
    for j, name in enumerate(value):
        loc = f"{where}.events[{j}]"
        if isinstance(name, str) and name in LEGACY_EVENTS:
            events.append(LEGACY_EVENTS[name])
            continue
        try:
            if not isinstance(name, str) or "." in name:
                raise UnknownEventError(name)
            events.append(parse_event(name))
        except UnknownEventError:
            ctx.report(
                DiagnosticCode.LEGACY_DEPRECATED,
                f"legacy event {name!r} has no safe equivalent; skipped",
                location=loc,
                severity=Severity.WARNING,
            )
    return list(dict.fromkeys(events))


FILE = HookFile(
    format="deepagents",
    dialect=DEEPAGENTS,
    builder=deepagents_builder,
    probe=json_has_hooks,
    scope_given_keeps_project=True,
)
