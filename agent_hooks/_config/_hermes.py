"""Hermes Agent: the ``hooks:`` block of a profile's ``config.yaml`` (YAML; the ``yaml``
extra), ``{event: [{matcher, command, timeout, fail_closed}]}``: flat entries under
Hermes' snake_case plugin events (``pre_tool_call`` ...; see its dialect row).

Where the file lies is its row's (:data:`~._harness.HARNESSES`: ``~/.hermes/config.yaml``,
``$HERMES_HOME/config.yaml``; user scope only). Read as Hermes reads it:

* ``command`` is required (an entry without one is dropped with a warning); Hermes
  splits it with ``shlex`` and runs it without a shell, agent_hooks runs it in one (the
  same for a plain command line);
* ``matcher`` (a regular expression on the tool name) applies on ``pre_tool_call`` and
  ``post_tool_call`` only; elsewhere it is ignored with a warning;
* ``timeout`` in seconds, 60 when unset, at most 300 (a larger one is clamped, with a
  warning);
* ``fail_closed`` (or ``failClosed``) ``true`` on ``pre_tool_call``: a hook that cannot
  run, times out or crashes blocks (``on_error: block``); on another event it is
  ignored with a warning;
* an event name Hermes does not know is a warning and its entries are skipped; the
  ``outbound`` list (signed webhooks, not shell hooks) is not read; other entry keys
  are ignored with a warning; the rest of ``config.yaml`` is Hermes' settings.

Hermes asks the user to approve each new ``(event, command)`` pair on first use (its
allowlist, ``~/.hermes/shell-hooks-allowlist.json``); agent_hooks' own trust of user
files applies here (a user file needs none).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._base._diagnostics import DiagnosticCode, Severity
from .._wire._dialects import get_dialect
from ._common import BuildContext, Built, HookFile, ParseFailed, describe, join, parse_group
from ._docker import decode_yaml
from ._native_format import bind_group, native_event_key

__all__ = ["FILE", "hermes_builder"]

_TOOL_EVENTS = frozenset({"pre_tool_call", "post_tool_call"})
_GUARD_EVENT = "pre_tool_call"
_MAX_TIMEOUT = 300.0
_KNOWN = frozenset({"matcher", "command", "timeout", "fail_closed", "failClosed"})


def _warn(ctx: BuildContext, message: str, where: str) -> None:
    ctx.report(DiagnosticCode.INVALID_CONFIG, message, location=where, severity=Severity.WARNING)


def _group(event: str, entry: object, where: str, ctx: BuildContext) -> dict[str, Any] | None:
    """One Hermes entry as a matcher group of one command handler, or ``None``."""
    if not isinstance(entry, Mapping):
        _warn(
            ctx, f"an entry must be an object with 'command', got {describe(entry)}; dropped", where
        )
        return None
    if not isinstance(entry.get("command"), str) or not entry["command"].strip():
        _warn(ctx, "an entry needs a 'command' (a string); dropped", where)
        return None
    handler: dict[str, Any] = {"type": "command", "command": entry["command"]}
    for key in entry:
        if key not in _KNOWN:
            _warn(ctx, f"unknown field {key!r} in a Hermes hook; ignored", join(where, key))
    timeout = entry.get("timeout")
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool):
        if timeout > _MAX_TIMEOUT:
            _warn(
                ctx, f"'timeout' {timeout} is over Hermes' 300 s; clamped", join(where, "timeout")
            )
        handler["timeout"] = min(float(timeout), _MAX_TIMEOUT)
    elif timeout is not None:
        handler["timeout"] = timeout  # (refused, with its reason, by the handler's reader)
    closed = entry.get("fail_closed", entry.get("failClosed"))
    if closed is not None:
        if event != _GUARD_EVENT:
            _warn(ctx, f"'fail_closed' applies to {_GUARD_EVENT} only; ignored", where)
        elif closed is True:
            handler["on_error"] = "block"
        elif closed is not False:
            _warn(
                ctx, f"'fail_closed' must be true or false, got {describe(closed)}; ignored", where
            )
    matcher = entry.get("matcher")
    if matcher is not None and event not in _TOOL_EVENTS:
        _warn(
            ctx,
            f"'matcher' applies to tool events only; ignored on {event}",
            join(where, "matcher"),
        )
        matcher = None
    return {"matcher": matcher or None, "hooks": [handler]}


def hermes_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Hermes ``config.yaml`` (see the module docstring)."""
    built = Built()
    doc = decode_yaml(data, ctx)
    if doc is ParseFailed:
        return built
    if not isinstance(doc, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"config.yaml must be a mapping, got {describe(doc)}; file skipped",
        )
        return built
    hooks = doc.get("hooks")
    if hooks is None:
        return built
    if not isinstance(hooks, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'hooks' must be a mapping of events to lists, got {describe(hooks)}; ignored",
            location="hooks",
        )
        return built
    for key, value in hooks.items():
        if key == "outbound":
            continue  # (signed webhooks: not shell hooks)
        found = native_event_key(key, "hooks", ctx)
        if found is None:
            continue
        event, native = found
        where = join("hooks", key)
        if not isinstance(value, list):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{key} must be a list of hooks, got {describe(value)}; ignored",
                location=where,
            )
            continue
        for i, entry in enumerate(value):
            at = f"{where}[{i}]"
            group = _group(str(key), entry, at, ctx)
            parsed = parse_group(group, event, at, ctx) if group is not None else None
            if parsed is not None:
                built.groups.append(bind_group(parsed, ctx.dialect, native))
    return built


FILE = HookFile(format="hermes", dialect=get_dialect("hermes"), builder=hermes_builder)
