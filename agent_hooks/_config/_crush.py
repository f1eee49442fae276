"""Crush: ``hooks`` in ``crush.json`` / ``.crush.json`` (the project's root) and
``~/.config/crush/crush.json`` (``$XDG_CONFIG_HOME/crush/crush.json``), JSON with comments.

Crush has one event, ``PreToolUse`` (its key may be spelled in any case, snake_cased
too: ``pre_tool_use``, ``PRE_TOOL_USE``), whose value is a flat list of hooks::

    {"hooks": {"PreToolUse": [
        {"name": "no-rm-rf", "matcher": "^bash$", "command": "./hooks/no-rm-rf.sh",
         "timeout": 10}
    ]}}

``matcher`` is a regular expression searched in Crush's tool name (``bash``, ``edit``,
``view``, ``mcp_<server>_<tool>``; omitted: every tool), ``timeout`` seconds (default
30), ``name`` how the TUI shows the hook. Crush's other settings in the file are not
read. A bad entry (no ``command``, a ``matcher`` that is no regular expression) is
dropped alone; another event is a warning and its hooks are
skipped. A project file needs the project's trust (Crush itself has no such gate).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._base._diagnostics import DiagnosticCode, Severity
from .._events._names import HookEvent
from .._wire._dialects import CRUSH
from ._common import (
    BuildContext,
    Built,
    HookFile,
    decode_object,
    describe,
    join,
    json_declares,
    parse_group,
)
from ._native_format import bind_group, text_matcher

__all__ = ["FILE", "crush_builder"]

_ENTRY_KEYS = frozenset({"name", "matcher", "command", "timeout"})


def _event_of(key: object) -> str | None:
    """Crush's event a key names, as Crush reads it (case and ``_`` do not count)."""
    if not isinstance(key, str):
        return None
    wanted = key.replace("_", "").lower()
    wire = CRUSH.native
    assert wire is not None
    return next((e.name for e in wire.events if e.name.lower() == wanted), None)


def _group(entry: object, where: str, ctx: BuildContext) -> Any:
    if not isinstance(entry, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"a hook must be an object with 'command', got {describe(entry)}; dropped",
            location=where,
        )
        return None
    for key in entry:
        if key not in _ENTRY_KEYS:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"unknown field {key!r} in a Crush hook; ignored",
                location=where,
                severity=Severity.WARNING,
            )
    handler: dict[str, Any] = {"type": "command", "command": entry.get("command")}
    if "timeout" in entry:
        handler["timeout"] = entry["timeout"]
    if isinstance(entry.get("name"), str):
        handler["name"] = entry["name"]
    matcher = entry.get("matcher")
    if matcher not in (None, "", "*") and text_matcher(matcher, where, ctx) is None:
        return None  # (Crush compiles it as a Go regular expression; reported)
    group = {"matcher": None if matcher in ("", "*") else matcher, "hooks": [handler]}
    return parse_group(group, HookEvent.PRE_TOOL_USE, where, ctx)


def crush_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Crush ``crush.json``: only its ``hooks`` object is read."""
    built = Built()
    doc = decode_object(data, ctx, "Crush's settings object", comments=True)
    hooks = doc.get("hooks") if doc is not None else None
    if hooks is None:
        return built
    if not isinstance(hooks, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'hooks' must be an object mapping events to lists, got {describe(hooks)}; ignored",
            location="hooks",
        )
        return built
    wire = CRUSH.native
    assert wire is not None
    for key, entries in hooks.items():
        where = join("hooks", key)
        name = _event_of(key)
        native = wire.by_name(name) if name is not None else None
        if native is None:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"unknown event {key!r} (Crush has only PreToolUse); its hooks were skipped",
                location=where,
                severity=Severity.WARNING,
            )
            continue
        if not isinstance(entries, list):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{key} must be a list of hooks, got {describe(entries)}; dropped",
                location=where,
            )
            continue
        for i, entry in enumerate(entries):
            group = _group(entry, f"{where}[{i}]", ctx)
            if group is not None:
                built.groups.append(bind_group(group, CRUSH, native))
    return built


FILE = HookFile(
    format="crush", dialect=CRUSH, builder=crush_builder, probe=json_declares("hooks")
)
"""Crush's ``crush.json`` (project, or the user's global one)."""
