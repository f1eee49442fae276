"""Kimi Code: the ``[[hooks]]`` array of tables in ``~/.kimi-code/config.toml``
(``$KIMI_CODE_HOME/config.toml`` when set).

Each table is one hook, with exactly these keys (Kimi Code's schema is strict: any other
key makes it refuse the whole ``config.toml``)::

    [[hooks]]
    event = "PreToolUse"     # required: one of Kimi's 20 events
    matcher = "Bash"         # optional regular expression, unanchored
    command = "node ~/.kimi-code/hooks/guard.mjs"   # required, run in a shell
    timeout = 5              # optional whole seconds, 1-600, default 30

The ``matcher`` is tested, as Kimi tests it (``new RegExp(matcher).test(value)``),
against the value of the event's own field (the tool name on tool events, the prompt's
text on UserPromptSubmit, the source on SessionStart...; the empty string on ``Stop``,
``Interrupt`` and ``SessionHeartbeat``). An entry that breaks the schema (another key,
no ``event`` or ``command``, an event Kimi does not know, a timeout out of range) is
reported as an error and dropped alone; a matcher that is not a valid regular
expression, or can never match, drops its entry with a warning (Kimi skips it
silently). There is no project file, so no trust gate; plugin manifests
(``kimi.plugin.json``) are not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from .._wire._dialects import KIMI
from .._wire._native import NativeEvent
from ._common import BuildContext, Built, HookFile, describe, parse_group
from ._native_format import (
    bind_native,
    decode_toml,
    native_event_key,
    text_matcher,
    toml_has_hooks,
)

__all__ = ["FILE", "kimi_builder"]

_KEYS = frozenset({"event", "matcher", "command", "timeout"})


def _refuse(ctx: BuildContext, where: str, why: str) -> None:
    ctx.report(
        DiagnosticCode.INVALID_CONFIG,
        f"{why} (Kimi Code refuses a config.toml with it); hook dropped",
        location=where,
    )


def _matcher(
    native: NativeEvent, pattern: object, where: str, ctx: BuildContext
) -> tuple[bool, re.Pattern[str] | None]:
    """(keep the entry, the text its matcher is tested against at call time)."""
    if pattern is None or pattern == "":
        return True, None
    compiled = text_matcher(pattern, where, ctx)
    if compiled is None:
        return False, None
    if native.matcher_value is not None and compiled.search(native.matcher_value) is None:
        ctx.report(
            DiagnosticCode.UNSUPPORTED_MATCHER,
            f"matcher {pattern!r} never matches {native.matcher_value!r}, what Kimi Code "
            f"tests it against on {native.name}; the hook never runs and was dropped",
            location=where,
            severity=Severity.WARNING,
        )
        return False, None
    return True, compiled if native.matcher_field is not None else None


def _entry(entry: Mapping[str, Any], where: str, ctx: BuildContext) -> Any:
    extra = sorted(str(k) for k in entry if k not in _KEYS)
    if extra:
        return _refuse(ctx, where, f"unknown key(s) {', '.join(map(repr, extra))}")
    event = entry.get("event")
    if event is None:
        return _refuse(ctx, where, "no 'event'")
    found = native_event_key(event, where, ctx)
    if found is None:
        return None
    canonical, native = found
    command = entry.get("command")
    if not isinstance(command, str) or not command.strip():
        return _refuse(ctx, where, f"'command' must be a non-empty string, got {describe(command)}")
    timeout = entry.get("timeout")
    if timeout is not None and (
        not isinstance(timeout, int) or isinstance(timeout, bool) or not 1 <= timeout <= 600
    ):
        return _refuse(ctx, where, f"'timeout' must be whole seconds 1-600, got {describe(timeout)}")
    keep, text = _matcher(native, entry.get("matcher"), where, ctx)
    if not keep:
        return None
    handler: dict[str, Any] = {"type": "command", "command": command}
    if timeout is not None:
        handler["timeout"] = timeout
    group = parse_group({"hooks": [handler]}, canonical, where, ctx)
    if group is None:
        return None
    nodes = tuple(bind_native(n, KIMI, native, text=text) for n in group.nodes)
    return attrs.evolve(group, nodes=nodes)


def kimi_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Kimi Code ``config.toml``: only its ``hooks`` array is read."""
    built = Built()
    doc = decode_toml(data, ctx)
    hooks = doc.get("hooks") if doc is not None else None
    if hooks is None:
        return built
    if not isinstance(hooks, list):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'hooks' must be an array of tables ([[hooks]]), got {describe(hooks)}; ignored",
            location="hooks",
        )
        return built
    for i, entry in enumerate(hooks):
        where = f"hooks[{i}]"
        if not isinstance(entry, Mapping):
            _refuse(ctx, where, f"a hook must be a table, got {describe(entry)}")
            continue
        group = _entry(entry, where, ctx)
        if group is not None:
            built.groups.append(group)
    return built


FILE = HookFile(format="kimi-toml", dialect=KIMI, builder=kimi_builder, probe=toml_has_hooks)
"""Kimi Code's ``config.toml`` (a user file: it has no project file)."""
