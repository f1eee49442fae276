"""SessionEnd: its input and output classes.

A session ends; runs even while the agent is torn down.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["SessionEndInput", "SessionEndOutput"]


@attrs.frozen(kw_only=True)
class SessionEndOutput(HookOutput):
    """Answer to SessionEnd: nothing beyond the universal fields (they are discarded)."""

    event: ClassVar[HookEvent | None] = HookEvent.SESSION_END


@attrs.frozen(kw_only=True)
class SessionEndInput(HookInput[SessionEndOutput]):
    """A session ends (also on interruption such as Ctrl+C). Cannot block; runs under a
    short time budget. Matcher field: ``reason``.
    """

    event: ClassVar[HookEvent] = HookEvent.SESSION_END
    output_type: ClassVar[type[HookOutput]] = SessionEndOutput

    reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why the session ended: ``clear`` (``/clear``), ``resume`` (switched via "
            "``/resume``), ``logout``, ``prompt_input_exit`` (exit while the prompt was "
            "visible), ``other``; older hosts also sent ``bypass_permissions_disabled``."
        ),
    )
