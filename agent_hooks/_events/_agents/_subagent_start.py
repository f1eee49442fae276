"""SubagentStart: its input and output classes.

A subagent is spawned; can add context for it.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = ["SubagentStartInput", "SubagentStartOutput"]


@attrs.frozen(kw_only=True)
class SubagentStartOutput(HookOutput):
    """Answer to SubagentStart: context for the subagent. It cannot block its creation."""

    event: ClassVar[HookEvent | None] = HookEvent.SUBAGENT_START

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added to the subagent's context at the start of its conversation. "
            "Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class SubagentStartInput(HookInput[SubagentStartOutput]):
    """A subagent is spawned (Claude Code's Agent tool). Matcher field: ``agent_type``.

    No fields of its own: the envelope's ``agent_id`` identifies the new subagent and
    ``agent_type`` names it (``Explore``, ``my-plugin:reviewer``).
    """

    event: ClassVar[HookEvent] = HookEvent.SUBAGENT_START
    output_type: ClassVar[type[HookOutput]] = SubagentStartOutput
