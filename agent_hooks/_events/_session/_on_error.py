"""OnError: its input and output classes.

The runtime hit an error during a turn.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent
from . import NOTIFICATION_MESSAGE

__all__ = ["OnErrorInput", "OnErrorOutput"]


@attrs.frozen(kw_only=True)
class OnErrorOutput(HookOutput):
    """Answer to OnError: nothing beyond the universal fields (observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_ERROR


@attrs.frozen(kw_only=True)
class OnErrorInput(HookInput[OnErrorOutput]):
    """Docker Agent ``on_error``: the runtime hit an error during a turn (a failed model
    call, a degenerate tool-call loop); Notification fires too. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_ERROR
    output_type: ClassVar[type[HookOutput]] = OnErrorOutput

    notification_level: str | None = attrs.field(default=None, metadata=meta("Always ``error``."))
    notification_message: str | None = attrs.field(
        default=None, metadata=meta(NOTIFICATION_MESSAGE)
    )
