"""TurnStart: its input and output classes.

A turn starts (every model call); context is for this turn only.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = ["TurnStartInput", "TurnStartOutput"]


@attrs.frozen(kw_only=True)
class TurnStartOutput(HookOutput):
    """Answer to TurnStart: transient context for this turn."""

    event: ClassVar[HookEvent | None] = HookEvent.TURN_START

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added for this turn only as a transient system message (recomputed every "
            "turn, never persisted). Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class TurnStartInput(HookInput[TurnStartOutput]):
    """Docker Agent ``turn_start``: an agent turn begins (once per model call).

    No fields of its own. Cannot block. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.TURN_START
    output_type: ClassVar[type[HookOutput]] = TurnStartOutput
