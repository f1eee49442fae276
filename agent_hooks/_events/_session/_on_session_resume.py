"""OnSessionResume: its input and output classes.

The user approved going on past max_iterations.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["OnSessionResumeInput", "OnSessionResumeOutput"]


@attrs.frozen(kw_only=True)
class OnSessionResumeOutput(HookOutput):
    """Answer to OnSessionResume: nothing beyond the universal fields (observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_SESSION_RESUME


@attrs.frozen(kw_only=True)
class OnSessionResumeInput(HookInput[OnSessionResumeOutput]):
    """Docker Agent ``on_session_resume``: the user approved going on past the
    ``max_iterations`` limit. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_SESSION_RESUME
    output_type: ClassVar[type[HookOutput]] = OnSessionResumeOutput

    previous_max_iterations: int | None = attrs.field(
        default=None, metadata=meta("The iteration limit that was reached.")
    )
    new_max_iterations: int | None = attrs.field(
        default=None, metadata=meta("The new limit after the approval.")
    )
