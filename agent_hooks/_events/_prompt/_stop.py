"""Stop: its input and output classes.

The model wants to stop; a block keeps the turn going.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import AGENT_NAME, LAST_USER_MESSAGE, STOP_RESPONSE
from ._background import BackgroundTask, SessionCron

__all__ = ["StopInput", "StopOutput"]


@attrs.frozen(kw_only=True)
class StopOutput(HookOutput):
    """Answer to Stop: let the agent stop, or keep it working.

    ``decision: "block"`` with a ``reason`` keeps it going, ``reason`` being its next
    instruction; ``additional_context`` continues too, as non-error feedback.
    """

    event: ClassVar[HookEvent | None] = HookEvent.STOP

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Non-error feedback for the model; the conversation continues so it can act on "
            "it (same loop protections as a block). Docker Agent adds it as context. "
            "Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class StopInput(HookInput[StopOutput]):
    """The main agent finished responding (not on a user interrupt; API errors fire
    StopFailure). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.STOP
    output_type: ClassVar[type[HookOutput]] = StopOutput

    stop_hook_active: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``True`` when the agent is already continuing because of a stop hook; check it "
            "to avoid blocking forever."
        ),
    )
    last_assistant_message: str | None = attrs.field(
        default=None,
        metadata=meta("Text of the final assistant response (Claude Code, Deep Agents Code)."),
    )
    background_tasks: Sequence[BackgroundTask] | None = attrs.field(
        default=None,
        metadata=meta(
            'Tasks still in flight; empty when none. Tells "done" from "paused waiting '
            'for background work".'
        ),
    )
    session_crons: Sequence[SessionCron] | None = attrs.field(
        default=None,
        metadata=meta("Session-scoped scheduled wake-ups; empty when none."),
    )
    agent_name: str | None = attrs.field(default=None, metadata=meta(AGENT_NAME))
    stop_response: str | None = attrs.field(default=None, metadata=meta(STOP_RESPONSE))
    last_user_message: str | None = attrs.field(default=None, metadata=meta(LAST_USER_MESSAGE))
