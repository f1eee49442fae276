"""Interrupt: its input and output classes.

The user interrupted the turn (Codex).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["InterruptInput", "InterruptOutput"]


@attrs.frozen(kw_only=True)
class InterruptOutput(HookOutput):
    """Answer to Interrupt: nothing beyond the universal fields."""

    event: ClassVar[HookEvent | None] = HookEvent.INTERRUPT


@attrs.frozen(kw_only=True)
class InterruptInput(HookInput[InterruptOutput]):
    """Codex ``Interrupt``: the current turn was interrupted (e.g. by the user). No matcher."""

    event: ClassVar[HookEvent] = HookEvent.INTERRUPT
    output_type: ClassVar[type[HookOutput]] = InterruptOutput

    reason: str | None = attrs.field(
        default=None, metadata=meta("Why the turn was interrupted, when the host says.")
    )
