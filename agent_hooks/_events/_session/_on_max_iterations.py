"""OnMaxIterations: its input and output classes.

The run reached its max_iterations limit.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent
from . import NOTIFICATION_MESSAGE

__all__ = ["OnMaxIterationsInput", "OnMaxIterationsOutput"]


@attrs.frozen(kw_only=True)
class OnMaxIterationsOutput(HookOutput):
    """Answer to OnMaxIterations: nothing beyond the universal fields (observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_MAX_ITERATIONS


@attrs.frozen(kw_only=True)
class OnMaxIterationsInput(HookInput[OnMaxIterationsOutput]):
    """Docker Agent ``on_max_iterations``: the runtime reached its configured
    ``max_iterations`` (Notification fires too). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_MAX_ITERATIONS
    output_type: ClassVar[type[HookOutput]] = OnMaxIterationsOutput

    notification_level: str | None = attrs.field(default=None, metadata=meta("Always ``warning``."))
    notification_message: str | None = attrs.field(
        default=None, metadata=meta(NOTIFICATION_MESSAGE)
    )
