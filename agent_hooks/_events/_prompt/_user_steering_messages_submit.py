"""UserSteeringMessagesSubmit: its input and output classes.

Queued steering messages are drained mid-turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = ["UserSteeringMessagesSubmitInput", "UserSteeringMessagesSubmitOutput"]


@attrs.frozen(kw_only=True)
class UserSteeringMessagesSubmitOutput(HookOutput):
    """Answer to UserSteeringMessagesSubmit: block the run (``decision: "block"``) or add
    context.
    """

    event: ClassVar[HookEvent | None] = HookEvent.USER_STEERING_MESSAGES_SUBMIT

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text spliced into the steered turn as a transient system message (never "
            "persisted). Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class UserSteeringMessagesSubmitInput(HookInput[UserSteeringMessagesSubmitOutput]):
    """Docker Agent ``user_steering_messages_submit``: the runtime drained its steering queue.

    Steering messages are those the user sent while the agent was already working (mid-turn,
    after the model stopped, or idle before the first model call). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.USER_STEERING_MESSAGES_SUBMIT
    output_type: ClassVar[type[HookOutput]] = UserSteeringMessagesSubmitOutput

    steering_messages: Sequence[str] = attrs.field(
        factory=tuple,
        metadata=meta("The drained steering messages, in submission order."),
    )
