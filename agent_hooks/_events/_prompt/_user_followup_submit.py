"""UserFollowupSubmit: its input and output classes.

A queued follow-up message starts a new turn.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = ["UserFollowupSubmitInput", "UserFollowupSubmitOutput"]


@attrs.frozen(kw_only=True)
class UserFollowupSubmitOutput(HookOutput):
    """Answer to UserFollowupSubmit: block the follow-up (``decision: "block"``) or add context."""

    event: ClassVar[HookEvent | None] = HookEvent.USER_FOLLOWUP_SUBMIT

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text spliced into the follow-up turn as a transient system message (never "
            "persisted). Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class UserFollowupSubmitInput(HookInput[UserFollowupSubmitOutput]):
    """Docker Agent ``user_followup_submit``: a queued follow-up message starts a new turn.

    Follow-ups are user messages queued for end-of-turn processing (unlike mid-turn
    steering); each gets a whole turn. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.USER_FOLLOWUP_SUBMIT
    output_type: ClassVar[type[HookOutput]] = UserFollowupSubmitOutput

    prompt: str | None = attrs.field(
        default=None, metadata=meta("Text of the dequeued follow-up message.")
    )
