"""Mistral Vibe: the ``[[hooks]]`` array of tables in ``.vibe/hooks.toml`` (a project's,
loaded by Vibe only in a trusted folder) and ``~/.vibe/hooks.toml``
(``$VIBE_HOME/hooks.toml``)::

    [[hooks]]
    name = "deny-rm-rf"            # required, unique
    type = "pre_tool"              # required: pre_tool | post_tool | post_agent
    command = "uv run python /home/dev/hooks/guard-bash"
    match = "bash"                 # optional; default "*"
    timeout = 60.0                 # optional seconds, default 60
    strict = true                  # optional, tool hooks only: a failure denies
    description = "Block rm -rf"   # optional

``match`` is Vibe's tool pattern: a case-insensitive glob (``read_*``), or ``re:`` and a
regular expression that must match the whole name; ``*`` or none matches every tool.
On ``post_agent`` it selects the agent by the payload's ``agent_name``. ``strict = true``
is the failure policy ``block`` (a hook that fails, times out or answers text that is
not a JSON object denies); without it a failure lets the action go ahead, as in Vibe.
An entry Vibe would refuse (no ``name``, ``type`` or ``command``, another type, another
key, ``strict`` on ``post_agent``, a ``name`` already used in the file) is reported and
dropped alone. Plugin hooks are not read.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from typing import Any

import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from .._wire._dialects import VIBE
from ._common import BuildContext, Built, HookFile, describe, parse_group
from ._native_format import bind_native, decode_toml, native_event_key, toml_has_hooks

__all__ = ["FILE", "vibe_builder"]

_KEYS = frozenset({"name", "type", "command", "match", "timeout", "strict", "description"})


def _drop(ctx: BuildContext, where: str, why: str) -> None:
    ctx.report(DiagnosticCode.INVALID_CONFIG, f"{why}; hook dropped", location=where)


def _pattern(match: object, where: str, ctx: BuildContext) -> tuple[bool, str | None]:
    """(keep, the regular expression) of a ``match``: a glob or ``re:`` a regex, whole."""
    if match is None or match == "*":
        return True, None
    if not isinstance(match, str) or not match:
        _drop(ctx, where, f"'match' must be a pattern, got {describe(match)}")
        return False, None
    glob = not match.startswith("re:")
    # (anchored both ends: a matcher may be searched, and Vibe matches the whole name)
    regex = f"^(?i:{fnmatch.translate(match)})" if glob else rf"^(?:{match[3:]})\Z"
    try:
        re.compile(regex)
    except re.error as exc:
        ctx.report(
            DiagnosticCode.INVALID_MATCHER,
            f"match {match!r} is not a valid pattern ({exc}); hook dropped",
            location=where,
        )
        return False, None
    return True, regex


def _entry(entry: Mapping[str, Any], where: str, ctx: BuildContext, names: set[str]) -> Any:
    extra = sorted(str(k) for k in entry if k not in _KEYS)
    if extra:
        return _drop(ctx, where, f"unknown key(s) {', '.join(map(repr, extra))}")
    name, kind, command = entry.get("name"), entry.get("type"), entry.get("command")
    for key, value in (("name", name), ("type", kind), ("command", command)):
        if not isinstance(value, str) or not value.strip():
            return _drop(ctx, where, f"{key!r} must be a non-empty string, got {describe(value)}")
    assert isinstance(name, str) and isinstance(command, str)
    if name in names:
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"duplicate hook name {name!r}: the first one is used, as in Vibe; hook dropped",
            location=where,
            severity=Severity.WARNING,
        )
        return None
    found = native_event_key(kind, where, ctx)
    if found is None:
        return None
    event, native = found
    strict = entry.get("strict", False)
    if not isinstance(strict, bool):
        return _drop(ctx, where, f"'strict' must be true or false, got {describe(strict)}")
    if strict and native.name == "post_agent":
        return _drop(ctx, where, "'strict' is for tool hooks only (Vibe refuses it on post_agent)")
    keep, regex = _pattern(entry.get("match"), where, ctx)
    if not keep:
        return None
    names.add(name)
    handler: dict[str, Any] = {"type": "command", "command": command, "name": name}
    if "timeout" in entry:
        handler["timeout"] = entry["timeout"]
    if strict:
        handler["on_error"] = "block"
    tool_event = native.matcher_field is None
    group = parse_group(
        {"matcher": regex if tool_event else None, "hooks": [handler]}, event, where, ctx
    )
    if group is None:
        return None
    text = re.compile(f"^{regex}$") if regex is not None and not tool_event else None
    nodes = tuple(bind_native(n, VIBE, native, text=text) for n in group.nodes)
    return attrs.evolve(group, nodes=nodes)


def vibe_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Mistral Vibe ``hooks.toml``."""
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
    names: set[str] = set()
    for i, entry in enumerate(hooks):
        where = f"hooks[{i}]"
        if not isinstance(entry, Mapping):
            _drop(ctx, where, f"a hook must be a table, got {describe(entry)}")
            continue
        group = _entry(entry, where, ctx, names)
        if group is not None:
            built.groups.append(group)
    return built


FILE = HookFile(format="vibe", dialect=VIBE, builder=vibe_builder, probe=toml_has_hooks)
"""Mistral Vibe's ``hooks.toml`` (a project's needs its trust)."""
