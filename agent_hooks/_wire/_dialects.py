"""Dialects: the harness flavour a handler or configuration was written for.

A dialect fixes the wire format (``claude``: PascalCase event names, camelCase
output keys; ``docker``: snake_case for both) and the handful of places where
the harnesses behave differently. Every such difference is a field here, so
code elsewhere asks the dialect instead of testing its name.
"""

from __future__ import annotations

from typing import Literal

import attrs

__all__ = [
    "CLAUDE",
    "CODEX",
    "DEEPAGENTS",
    "DIALECTS",
    "DOCKER",
    "HEL",
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


CLAUDE = Dialect(name="claude", wire="claude")
"""Claude Code and the Claude Agent SDK (the default)."""
DEEPAGENTS = Dialect(
    name="deepagents",
    wire="claude",
    reject_matcher_without_field=True,
    exit2_reads_stdout=False,
    nonzero_json_decides=False,
)
"""Deep Agents Code (``dcode``)."""
CODEX = Dialect(name="codex", wire="claude", min_timeout=1.0)
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
