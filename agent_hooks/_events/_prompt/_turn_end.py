"""TurnEnd: its input and output classes.

A turn ended, whatever the reason.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent
from . import AGENT_NAME

__all__ = ["TurnEndInput", "TurnEndOutput"]


@attrs.frozen(kw_only=True)
class TurnEndOutput(HookOutput):
    """Answer to TurnEnd: nothing beyond the universal fields (the result is ignored)."""

    event: ClassVar[HookEvent | None] = HookEvent.TURN_END


@attrs.frozen(kw_only=True)
class TurnEndInput(HookInput[TurnEndOutput]):
    """Docker Agent ``turn_end``: an agent turn ended, whatever the reason.

    Dispatched on every exit path, cancellation included. Observational. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.TURN_END
    output_type: ClassVar[type[HookOutput]] = TurnEndOutput

    agent_name: str | None = attrs.field(default=None, metadata=meta(AGENT_NAME))
    reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why the turn ended: ``normal`` (model finished), ``continue`` (more iterations "
            "follow), ``steered`` (drained steering re-entered the loop), ``error`` (model "
            "call failed), ``canceled``, ``hook_blocked`` (before_llm_call or post_tool_use "
            "refused), ``loop_detected``."
        ),
    )
