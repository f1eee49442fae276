"""Antigravity CLI (``agy``): ``hooks.json`` files keyed by hook name, ``{name: {"enabled":
bool, Event: [...]}}``. The tool events (``PreToolUse``, ``PostToolUse``) hold Claude
Code's ``{matcher, hooks: [...]}`` groups; the others (``PreInvocation``,
``PostInvocation``, ``Stop``) hold a flat list of handlers. A handler is ``{type:
"command", command, timeout}`` (seconds; 30 when unset, the dialect's default), run by
``sh -c`` from the directory holding the file.

Where its files lie is its row's (:data:`~._harness.HARNESSES`). Reading choices (the
digest is of low confidence; docs/harnesses.md lists them): a hook whose ``enabled`` is
``false`` is skipped, with a note; the older wrapped shape ``{"hooks": {Event: [...]}}``
reads as one hook named ``hooks``, so both shapes load; a grouped entry under a flat
event (which Antigravity refuses: "command hook must specify 'command'") and a flat one
under a tool event are reported and dropped alone; an unknown event is a warning and its
hooks are skipped; a ``matcher`` on a flat event is ignored with a warning, as
Antigravity ignores it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from .._wire._dialects import get_dialect
from ._common import BuildContext, Built, HookFile, decode_object, describe, join, parse_group
from ._native_format import bind_group, native_event_key

__all__ = ["FILE", "hooks_builder"]

_GROUPED = frozenset({"PreToolUse", "PostToolUse"})
"""The events whose lists hold matcher groups (the rest hold handlers)."""


def _handler(entry: object, ctx: BuildContext) -> object:
    """A handler as agent_hooks reads one: run from the file's directory."""
    if not isinstance(entry, Mapping):
        return entry
    return {"type": "command", **entry, "working_dir": ctx.config_dir}


def _groups(name: str, event: str, value: list[Any], where: str, ctx: BuildContext) -> list[Any]:
    """The matcher groups of one event of a named hook, each shape checked."""
    grouped = event in _GROUPED
    out = []
    for i, item in enumerate(value):
        at = f"{where}[{i}]"
        has_hooks = isinstance(item, Mapping) and "hooks" in item
        if grouped != has_hooks:
            want = "{matcher, hooks: [...]} groups" if grouped else "handlers ({command})"
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{event} takes {want} in Antigravity's hooks.json, got {describe(item)}; dropped",
                location=at,
            )
            continue
        if grouped:
            hooks = item["hooks"]
            if isinstance(hooks, list):
                item = {**item, "hooks": [_handler(h, ctx) for h in hooks]}
            out.append((at, item))
            continue
        if isinstance(item, Mapping) and "matcher" in item:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"'matcher' on {event} is ignored (Antigravity matches only tool events)",
                location=at,
                severity=Severity.WARNING,
            )
            item = {k: v for k, v in item.items() if k != "matcher"}
        out.append((at, {"hooks": [_handler(item, ctx)]}))
    return out


def hooks_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of an Antigravity ``hooks.json`` (see the module docstring)."""
    built = Built()
    doc = decode_object(data, ctx, "an object of named hooks")
    if doc is None:
        return built
    for name, hook in doc.items():
        where = str(name)
        if not isinstance(hook, Mapping):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"hook {name!r} must be an object of events, got {describe(hook)}; ignored",
                location=where,
            )
            continue
        enabled = hook.get("enabled", True)
        if enabled is False:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"hook {name!r} is disabled (enabled: false); its hooks are not run",
                location=join(where, "enabled"),
                severity=Severity.INFO,
            )
            continue
        if not isinstance(enabled, bool):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"'enabled' must be true or false, got {describe(enabled)}; read as true",
                location=join(where, "enabled"),
                severity=Severity.WARNING,
            )
        for key, value in hook.items():
            if key == "enabled":
                continue
            found = native_event_key(key, where, ctx)
            if found is None:
                continue
            event, native = found
            at = join(where, key)
            if not isinstance(value, list):
                ctx.report(
                    DiagnosticCode.INVALID_CONFIG,
                    f"{key} must be a list, got {describe(value)}; ignored",
                    location=at,
                )
                continue
            for gwhere, group in _groups(str(name), str(key), value, at, ctx):
                parsed = parse_group(group, event, gwhere, ctx)
                if parsed is None:
                    continue
                if parsed.matcher in ("", "*"):
                    parsed = attrs.evolve(parsed, matcher=None)
                built.groups.append(bind_group(parsed, ctx.dialect, native))
    return built


FILE = HookFile(format="antigravity", dialect=get_dialect("antigravity"), builder=hooks_builder)
