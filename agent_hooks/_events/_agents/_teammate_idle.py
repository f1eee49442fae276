"""TeammateIdle: its input and output classes.

A teammate is about to go idle; a block keeps it working.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent
from . import TEAM_NAME

__all__ = ["TeammateIdleInput", "TeammateIdleOutput"]


@attrs.frozen(kw_only=True)
class TeammateIdleOutput(HookOutput):
    """Answer to TeammateIdle: ``continue: false`` stops the teammate; exit code 2 keeps it
    working with stderr as feedback.
    """

    event: ClassVar[HookEvent | None] = HookEvent.TEAMMATE_IDLE


@attrs.frozen(kw_only=True)
class TeammateIdleInput(HookInput[TeammateIdleOutput]):
    """An agent-team teammate is about to go idle after its turn. No matcher."""

    event: ClassVar[HookEvent] = HookEvent.TEAMMATE_IDLE
    output_type: ClassVar[type[HookOutput]] = TeammateIdleOutput

    teammate_name: str | None = attrs.field(
        default=None, metadata=meta("Name of the teammate about to go idle.")
    )
    team_name: str | None = attrs.field(default=None, metadata=meta(TEAM_NAME))
