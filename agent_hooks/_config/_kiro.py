"""Kiro: the ``hooks`` of a Kiro CLI 2.x agent configuration (the Amazon Q Developer CLI
lineage), and a clear refusal of the formats whose contract is not documented.

Agent configurations (format A): ``{"hooks": {"preToolUse": [{"matcher": "execute_bash",
"command": "./guard.sh", "timeout_ms": 30000}]}}`` beside the agent's other settings.
Events ``agentSpawn`` (SessionStart), ``userPromptSubmit``, ``preToolUse``,
``postToolUse`` and ``stop``; ``timeout_ms`` in milliseconds (default 30 s); a matcher is
an exact tool name, a glob (``fs_*``), ``@server`` or ``@server/tool`` (MCP), ``@builtin``
or ``*``; ``cache_ttl_seconds`` is accepted (agent_hooks runs the hook every time, with
an info diagnostic). An entry with ``only_when_turn_complete: true`` is refused (its
batched ``hook_events`` payload is not documented), alone.

Its places (project agents 200, which need trust; the user's 300) are its row's in
:mod:`._harness`.

Kiro runs the hooks of the agent in use; agent_hooks cannot know which that is, so
``discover`` loads every agent's (name one with ``--config`` to load it alone).

Kiro v3 / IDE 1.0 hook files (``.kiro/hooks/*.json``, ``"version": "v1"``, named hooks
with ``trigger`` and ``action``) and the legacy ``*.kiro.hook`` files are refused with an
``invalid_config`` error: their payloads, exit-status meaning and answers are not
documented well enough to run them as Kiro would. Such a file loads nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._base._diagnostics import DiagnosticCode, Severity
from .._wire._dialects import KIRO
from ._common import BuildContext, Built, HookFile, decode_object, parse_group
from ._native_format import bind_group, flat_hook_entries, scaled_timeout

__all__ = ["kiro_builder", "kiro_matcher", "FILE"]


_ENTRY_KEYS = frozenset(
    {"command", "matcher", "timeout_ms", "cache_ttl_seconds", "only_when_turn_complete"}
)
_REFUSED = (
    "Kiro v3 / IDE hook files ({what}) are not supported: their payloads, exit statuses "
    "and answers are not documented well enough to run them as Kiro does; nothing in "
    "this file was loaded (Kiro CLI 2.x agent configurations are supported)"
)


def kiro_matcher(matcher: str) -> str | None:
    """A Kiro matcher as an anchored regular expression (``None``: every tool)."""
    if matcher in ("", "*"):
        return None
    if matcher == "@builtin":
        return "[^@].*"
    if matcher.startswith("@") and "/" not in matcher:
        return re.escape(matcher) + "/.*"
    return ".*".join(re.escape(part) for part in matcher.split("*"))


def _handler(entry: Mapping[str, Any], where: str, ctx: BuildContext) -> dict[str, Any] | None:
    for key in entry:
        if key not in _ENTRY_KEYS:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"unknown field {key!r} in a Kiro hook; ignored",
                location=where,
                severity=Severity.WARNING,
            )
    if entry.get("only_when_turn_complete") is True:
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            "'only_when_turn_complete' hooks get a batched payload that is not documented; "
            "this hook was not loaded",
            location=where,
        )
        return None
    if entry.get("cache_ttl_seconds") not in (None, 0):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            "'cache_ttl_seconds': agent_hooks does not cache hook results; it runs this hook "
            "every time",
            location=where,
            severity=Severity.INFO,
        )
    handler = scaled_timeout(
        {k: v for k, v in entry.items() if k in ("command", "timeout_ms")},
        "timeout_ms",
        KIRO.timeout_unit,
    )
    return {"type": "command", **handler}


def kiro_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Kiro agent configuration (refusing v3 hook files, see the module)."""
    built = Built()
    if ctx.label.endswith(".kiro.hook"):
        ctx.report(DiagnosticCode.INVALID_CONFIG, _REFUSED.format(what="*.kiro.hook"))
        return built
    doc = decode_object(data, ctx)
    if doc is None:
        return built
    hooks = doc.get("hooks")
    if isinstance(hooks, list) or "version" in doc:
        ctx.report(DiagnosticCode.INVALID_CONFIG, _REFUSED.format(what='"version": "v1"'))
        return built
    for event, native, at, entry in flat_hook_entries(hooks, ctx):
        handler = _handler(entry, at, ctx)
        if handler is None:
            continue
        matcher = entry.get("matcher")
        group: dict[str, Any] = {"hooks": [handler]}
        if isinstance(matcher, str):
            group["matcher"] = kiro_matcher(matcher)
        elif matcher is not None:
            group["matcher"] = matcher  # (reported by parse_group)
        parsed = parse_group(group, event, at, ctx)
        if parsed is None:
            continue
        built.groups.append(bind_group(parsed, KIRO, native))
    return built


FILE = HookFile(format="kiro", dialect=KIRO, builder=kiro_builder)
