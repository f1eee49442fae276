"""SubagentStop: its input and output classes.

A subagent wants to stop; a block keeps it going.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from .._prompt._background import BackgroundTask, SessionCron

__all__ = ["SubagentStopInput", "SubagentStopOutput"]


@attrs.frozen(kw_only=True)
class SubagentStopOutput(HookOutput):
    """Answer to SubagentStop: like Stop, ``decision: "block"`` with a ``reason`` keeps the
    subagent working (Deep Agents Code: context only).
    """

    event: ClassVar[HookEvent | None] = HookEvent.SUBAGENT_STOP

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Non-error feedback that keeps the subagent running so it can act on it. "
            "Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class SubagentStopInput(HookInput[SubagentStopOutput]):
    """A subagent finished responding (Docker Agent: a transferred task returned, a
    background agent or skill sub-session ended). Matcher field: ``agent_type``.

    The envelope's ``agent_id`` and ``agent_type`` identify the subagent.
    """

    event: ClassVar[HookEvent] = HookEvent.SUBAGENT_STOP
    output_type: ClassVar[type[HookOutput]] = SubagentStopOutput

    stop_hook_active: bool | None = attrs.field(
        default=None,
        metadata=meta("``True`` when the subagent is already continuing because of a stop hook."),
    )
    agent_transcript_path: str | None = attrs.field(
        default=None,
        metadata=meta("The subagent's own transcript (``transcript_path`` is the main session's)."),
    )
    last_assistant_message: str | None = attrs.field(
        default=None, metadata=meta("Text of the subagent's final response.")
    )
    background_tasks: Sequence[BackgroundTask] | None = attrs.field(
        default=None,
        metadata=meta("Tasks in flight in the parent session (see Stop); empty when none."),
    )
    session_crons: Sequence[SessionCron] | None = attrs.field(
        default=None,
        metadata=meta("Scheduled wake-ups of the parent session (see Stop); empty when none."),
    )
    agent_name: str | None = attrs.field(
        default=None, metadata=meta("Docker Agent: name of the sub-agent that finished.")
    )
    parent_session_id: str | None = attrs.field(
        default=None, metadata=meta("Docker Agent: identifier of the parent session.")
    )
    stop_response: str | None = attrs.field(
        default=None,
        metadata=meta("Docker Agent: the sub-agent's final assistant message."),
    )
