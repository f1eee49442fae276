"""Dialects: the harness flavour a handler or configuration was written for.

A dialect fixes the wire format (``claude``: PascalCase event names, camelCase
output keys; ``docker``: snake_case for both) and the handful of places where
the harnesses behave differently. Every such difference is a field here, so
code elsewhere asks the dialect instead of testing its name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

from .._events._names import HookEvent

__all__ = [
    "CLAUDE",
    "CODEX",
    "DEEPAGENTS",
    "DIALECTS",
    "DOCKER",
    "HEL",
    "TOOL_MATCHER_ALIASES",
    "Dialect",
    "WireFormat",
    "get_dialect",
]

WireFormat = Literal["claude", "docker"]


@attrs.frozen(kw_only=True)
class Dialect:
    """How one harness reads hooks. Compare dialects by identity or ``name``."""

    name: str
    """``claude``, ``deepagents``, ``codex``, ``docker`` or ``hel``."""
    wire: WireFormat
    """Wire format of payloads and answers."""
    anchored_matchers: bool = False
    """Regex matchers match the whole name (``^(?:m)$``, Docker Agent) instead of searching."""
    reject_matcher_without_field: bool = False
    """A matcher on an event that has no matcher field drops its group (Deep Agents Code)
    instead of being ignored (Claude Code)."""
    exit2_reads_stdout: bool = True
    """On exit 2, valid JSON on stdout still counts (current Claude Code); otherwise only
    stderr is read (Deep Agents Code, Docker Agent)."""
    nonzero_json_decides: bool = True
    """On an exit status other than 0 and 2, a valid JSON object on stdout decides alone
    (current Claude Code)."""
    default_timeout: float | None = None
    """The dialect's own default timeout in seconds; ``None`` uses the capability table."""
    min_timeout: float = 0.0
    """Smallest timeout a configuration may ask for (Codex: 1 s)."""
    exit2_ignored: frozenset[HookEvent] = frozenset()
    """Events on which exit code 2 is not honoured (Claude Code: PermissionRequest, where
    only the ``decision`` object grants or denies): the hook's JSON still counts, its stderr
    is discarded, and a diagnostic says so. Elsewhere exit 2 has the table's meaning."""
    failure_blocks: frozenset[HookEvent] = frozenset()
    """Events on which any handler failure blocks, whatever its JSON or failure policy says
    (Claude Code: a WorktreeCreate hook that exits non-zero, times out or cannot start
    fails the creation)."""
    output_cap: int | None = None
    """Longest message string (``additionalContext``, ``systemMessage``, reasons, plain
    stdout used as context) a handler's answer may carry, in characters; a longer one is
    saved to a file of the session and replaced by a preview and the file's path
    (Claude Code: 10,000). ``None``: no limit."""
    tool_matcher_aliases: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict, eq=False)
    """Tool names this harness sends that matchers may also select by other names; the
    payload keeps the real name (Codex: ``apply_patch`` is matched by ``Write`` and
    ``Edit`` matchers). Every source's matchers see the aliases of every dialect
    (:data:`TOOL_MATCHER_ALIASES`), so that one Claude-style file guards both harnesses."""


CLAUDE = Dialect(
    name="claude",
    wire="claude",
    exit2_ignored=frozenset({HookEvent.PERMISSION_REQUEST}),
    failure_blocks=frozenset({HookEvent.WORKTREE_CREATE}),
    output_cap=10_000,
)
"""Claude Code and the Claude Agent SDK (the default)."""
DEEPAGENTS = Dialect(
    name="deepagents",
    wire="claude",
    reject_matcher_without_field=True,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
)
"""Deep Agents Code (``dcode``)."""
CODEX = Dialect(
    name="codex",
    wire="claude",
    min_timeout=1.0,
    tool_matcher_aliases={"apply_patch": ("Write", "Edit")},
)
"""OpenAI Codex."""
DOCKER = Dialect(
    name="docker",
    wire="docker",
    anchored_matchers=True,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
    default_timeout=60.0,
)
"""Docker Agent (formerly cagent)."""
HEL = Dialect(name="hel", wire="claude", exit2_reads_stdout=False, nonzero_json_decides=False)
"""The small coding harness of seed 001 (``.hel/hooks.json``)."""

DIALECTS = {d.name: d for d in (CLAUDE, DEEPAGENTS, CODEX, DOCKER, HEL)}


def _matcher_aliases() -> Mapping[str, tuple[str, ...]]:
    merged: dict[str, dict[str, None]] = {}
    for d in DIALECTS.values():
        for tool, names in d.tool_matcher_aliases.items():
            merged.setdefault(tool, {}).update(dict.fromkeys(names))
    return {tool: tuple(names) for tool, names in merged.items()}


TOOL_MATCHER_ALIASES: Mapping[str, tuple[str, ...]] = _matcher_aliases()
"""Tool name -> the other names a matcher may select it by: every dialect's
``tool_matcher_aliases``, merged (a payload does not say which harness sent it)."""


def get_dialect(dialect: Dialect | str) -> Dialect:
    """Return a :class:`Dialect` by value or name (``"claude"``, ``"docker"``, ...).

    Raises:
        ValueError: the name is not a known dialect.
    """
    if isinstance(dialect, Dialect):
        return dialect
    try:
        return DIALECTS[dialect]
    except KeyError:
        known = ", ".join(sorted(DIALECTS))
        raise ValueError(f"unknown dialect {dialect!r}; known dialects: {known}") from None
