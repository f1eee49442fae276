"""Notification: its input and output classes.

The agent sends a notification.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import NOTIFICATION_MESSAGE

__all__ = ["NotificationInput", "NotificationOutput"]


@attrs.frozen(kw_only=True)
class NotificationOutput(HookOutput):
    """Answer to Notification: context for the model, besides the universal fields.

    Notifications cannot be blocked or changed; ``terminal_sequence`` is still emitted.
    """

    event: ClassVar[HookEvent | None] = HookEvent.NOTIFICATION

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text for the model's next request (Claude Code 2.1.332 accepts it on "
            "Notification). Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class NotificationInput(HookInput[NotificationOutput]):
    """The host sends a notification (Docker Agent: an error or warning).

    Matcher field: ``notification_type``.
    """

    event: ClassVar[HookEvent] = HookEvent.NOTIFICATION
    output_type: ClassVar[type[HookOutput]] = NotificationOutput

    message: str | None = attrs.field(default=None, metadata=meta("The notification text."))
    title: str | None = attrs.field(default=None, metadata=meta("Notification title, if any."))
    notification_type: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Which notification fired: ``permission_prompt``, ``idle_prompt``, "
            "``auth_success``, ``elicitation_dialog``, ``elicitation_url_dialog``, "
            "``elicitation_complete``, ``elicitation_response``, ``agent_needs_input``, "
            "``agent_completed``; Deep Agents Code also ``cache_expiring``."
        ),
    )
    notification_level: str | None = attrs.field(
        default=None, metadata=meta("Docker Agent: ``error`` or ``warning``.")
    )
    notification_message: str | None = attrs.field(
        default=None, metadata=meta(NOTIFICATION_MESSAGE)
    )
