"""PreCompact: its input and output classes.

Before compaction; can block it or steer the summary.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import TRIGGER

__all__ = ["PreCompactInput", "PreCompactOutput"]


@attrs.frozen(kw_only=True)
class PreCompactOutput(HookOutput):
    """Answer to PreCompact: ``decision: "block"`` cancels compaction; Docker Agent also takes
    guidance for the summary.
    """

    event: ClassVar[HookEvent | None] = HookEvent.PRE_COMPACT

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Docker Agent: instructions appended to the compaction prompt to steer the "
            "summary. Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class PreCompactInput(HookInput[PreCompactOutput]):
    """Compaction is about to run. Matcher field: ``trigger``."""

    event: ClassVar[HookEvent] = HookEvent.PRE_COMPACT
    output_type: ClassVar[type[HookOutput]] = PreCompactOutput

    trigger: str | None = attrs.field(default=None, metadata=meta(TRIGGER))
    custom_instructions: str | None = attrs.field(
        default=None,
        metadata=meta("For ``manual``: what the user passed to ``/compact``; empty for ``auto``."),
    )
    source: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Docker Agent's trigger field: ``manual``, ``auto`` (configured threshold), "
            "``overflow`` (after a context-overflow error) or ``tool_overflow`` (a tool result "
            "pushed the context over the threshold)."
        ),
    )
