"""Cursor: ``hooks.json`` files (``{"version": 1, "hooks": {event: [entry, ...]}}``).

Flat lists per camelCase event; each entry is one handler with its own ``matcher``:
``{command, type, matcher, timeout, failClosed, loop_limit}``. Timeouts are in seconds
(the default, not documented by Cursor, is taken as 30 s); ``failClosed: true`` makes a
crash, a timeout, an answer that cannot be read or an empty answer block (the failure
policy ``block``); ``loop_limit`` caps the automatic follow-ups of ``stop`` and
``subagentStop`` (default 5, ``null`` for none). A ``matcher`` is compared with what
Cursor compares it with: the tool (``Shell``, ``Read``, ``MCP:...``, an alias of the
canonical name) on tool events, the command text on the shell events, the subagent
type on subagent events, a fixed name elsewhere (``Stop``, ``UserPromptSubmit``).
Relative commands run from the project root (project file) or the file's directory.

Its places are its row's (:data:`~._harness.HARNESSES`): enterprise
(``/etc/cursor/hooks.json``; macOS ``/Library/Application Support/Cursor/hooks.json``,
100), project ``.cursor/hooks.json`` (200, needs trust), user ``~/.cursor/hooks.json``
(300); a plugin's ``hooks/hooks.json`` with ``load(path, harness="cursor")``.

``type: "prompt"`` entries (``{type, prompt, timeout}``: the model judges instead of a
process) are the ``prompt`` handler kind: they run with a model client from
``model_kinds(client)``, see the payload Cursor sends a command hook of the event and
are answered like Claude Code's prompt hooks (``{"ok": false, "reason": ...}`` blocks;
Cursor's answer schema is unconfirmed). Without a model client such an entry is listed
as disabled, unless it is ``failClosed``: then it blocks what it matches, as a hook that
cannot run does under ``failClosed``. Cursor has more events than its rows list ("over
twenty"): another camelCase event key loads, carried untyped.

A bad entry is dropped alone; a ``version`` other than 1 or ``hooks`` that is not an
object refuses the file. A plugin's ``hooks/hooks.json`` may omit ``version`` (Cursor
requires it in project and user files only: there a missing one is a warning). Claude Code settings that Cursor can read too are loaded by
the Claude ecosystem (``discover``), not twice here.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from .._dispatch._registry import MatcherGroup
from .._events._capabilities import spec_for
from .._handlers._kinds import build_handler
from .._handlers._nodes import HandlerNode, HandlerResult, HookCall
from .._wire._dialects import CURSOR
from .._wire._native import NativeEvent
from ._common import (
    BuildContext,
    Built,
    HookFile,
    decode_object,
    describe,
    json_has_hooks,
)
from ._native_format import bind_native, event_lists, scaled_timeout, text_matcher

__all__ = ["cursor_builder", "FILE"]


_ENTRY_KEYS = frozenset(
    {"command", "type", "matcher", "timeout", "failClosed", "loop_limit", "prompt"}
)
_CURSOR_ONLY = frozenset({"matcher", "failClosed", "loop_limit"})
"""Entry keys the loader reads itself; the rest is the handler, read by the kind table
(``command``, ``prompt``, and agent_hooks' own kinds such as ``python``)."""


def _group_matcher(
    native: NativeEvent, matcher: object, where: str, ctx: BuildContext
) -> tuple[bool, str | None, Any]:
    """(keep, the group's matcher, a text matcher) for an entry's ``matcher``."""
    if matcher is None or matcher in ("", "*"):
        return True, native.tool, None
    if native.matcher_field is not None:
        compiled = text_matcher(matcher, where, ctx)
        return compiled is not None, native.tool, compiled
    if native.matcher_value is not None:
        compiled = text_matcher(matcher, where, ctx)
        if compiled is None:
            return False, None, None
        if compiled.search(native.matcher_value) is None:
            ctx.report(
                DiagnosticCode.UNSUPPORTED_MATCHER,
                f"matcher {matcher!r} never matches {native.matcher_value!r}, what Cursor compares "
                f"it with on {native.name}; the entry never runs and was dropped",
                location=where,
                severity=Severity.WARNING,
            )
            return False, None, None
        return True, native.tool, None
    field = spec_for(native.event).matcher_field if native.event[:1].isupper() else None
    if field is None or not isinstance(matcher, str):
        ctx.report(
            DiagnosticCode.UNSUPPORTED_MATCHER,
            f"Cursor compares no matcher on {native.name}; matcher {matcher!r} ignored",
            location=where,
            severity=Severity.WARNING,
        )
        return True, None, None
    return True, matcher, None


def cursor_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Cursor ``hooks.json`` (see the module docstring)."""
    built = Built()
    doc = decode_object(data, ctx, "an object with 'version' and 'hooks'")
    if doc is None:
        return built
    version = doc.get("version")
    if "version" in doc and (version != 1 or isinstance(version, bool)):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'version' must be 1, got {describe(version)}; file skipped",
            location="version",
        )
        return built
    if "version" not in doc and Path(ctx.label).parent.name != "hooks":
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            "no 'version' (Cursor's hooks files say \"version\": 1); read as version 1",
            severity=Severity.WARNING,
        )
    working_dir = ctx.project_dir if ctx.project_dir else ctx.config_dir
    lists = event_lists(
        doc.get("hooks"), ctx, mapping="events to lists", items="hooks", otherwise="file skipped"
    )
    for event, native, where, entries in lists:
        assert native is not None  # (native_event_key names one)
        for i, entry in enumerate(entries):
            at = f"{where}[{i}]"
            ctx.count_group()
            group = _entry_group(entry, event, native, at, ctx, working_dir)
            if group is not None:
                built.groups.append(group)
    return built


def _entry_group(
    entry: object,
    event: Any,
    native: NativeEvent,
    at: str,
    ctx: BuildContext,
    working_dir: str | None,
) -> MatcherGroup | None:
    if not isinstance(entry, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            f"a hook must be an object with 'command', got {describe(entry)}; dropped",
            location=at,
        )
        return None
    for key in entry:
        if key not in _ENTRY_KEYS and entry.get("type", "command") in ("command", "prompt"):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"unknown field {key!r} in a Cursor hook; ignored",
                location=at,
                severity=Severity.WARNING,
            )
    keep, matcher, text = _group_matcher(native, entry.get("matcher"), at, ctx)
    if not keep:
        return None
    fail_closed = entry.get("failClosed", False)
    if not isinstance(fail_closed, bool):
        # a safety option that cannot be read is never taken as "off"
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'failClosed' must be true or false, got {describe(fail_closed)}; read as true",
            location=at,
        )
        fail_closed = True
    limit: int | None = CURSOR.loop_cap
    if "loop_limit" in entry:
        raw = entry["loop_limit"]
        if raw is None:
            limit = None
        elif isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
            limit = raw
        else:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"'loop_limit' must be a whole number or null, got {describe(raw)}; the default "
                f"{CURSOR.loop_cap} is used",
                location=at,
                severity=Severity.WARNING,
            )
    scaled = scaled_timeout(entry, "timeout", CURSOR.timeout_unit)
    own = entry.get("type", "command") in ("command", "prompt")
    handler: dict[str, Any] = {
        k: v for k, v in scaled.items() if k not in _CURSOR_ONLY and (k in _ENTRY_KEYS or not own)
    }
    handler.setdefault("type", "command")
    if fail_closed:
        handler["on_error"] = "block"
    if handler["type"] == "command" and working_dir:
        handler["working_dir"] = working_dir
    node = build_handler(handler, ctx.kind_context(event, f"{at}"), ctx.kinds)
    if node is None:
        return None
    if fail_closed and node.disabled is not None:
        node = _blocks_instead(node, at, ctx)
    bound = bind_native(
        node,
        CURSOR,
        native,
        text=text,
        loop_limit=limit if native.answer == "continue" else None,
        empty_blocks=fail_closed,
    )
    return MatcherGroup(
        event=event, matcher=matcher, nodes=(bound,), location=at, node_locations=(at,)
    )


def _blocks_instead(node: HandlerNode, at: str, ctx: BuildContext) -> HandlerNode:
    """A ``failClosed`` entry that cannot run here (a ``prompt`` hook without a model
    client): a node that fails every call, which ``failClosed`` turns into a block."""
    why = node.disabled or "it cannot run here"

    async def cannot_run(call: HookCall) -> HandlerResult:
        return HandlerResult.failure(
            DiagnosticCode.HANDLER_DISABLED, f"{node.name} cannot run ({why}); failClosed"
        )

    ctx.report(
        DiagnosticCode.HANDLER_DISABLED,
        "failClosed: this entry cannot run here, so it blocks every call it matches",
        location=at,
        severity=Severity.WARNING,
    )
    return attrs.evolve(node, call=cannot_run, disabled=None, on_error="block")


FILE = HookFile(
    format="cursor",
    dialect=CURSOR,
    builder=cursor_builder,
    probe=json_has_hooks,
    own_project_only=True,
)
