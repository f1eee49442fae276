"""TaskCompleted: its input and output classes.

A task is being completed; a block keeps it open.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent
from . import TASK_DESCRIPTION, TASK_ID, TASK_SUBJECT, TEAM_NAME

__all__ = ["TaskCompletedInput", "TaskCompletedOutput"]


@attrs.frozen(kw_only=True)
class TaskCompletedOutput(HookOutput):
    """Answer to TaskCompleted: exit code 2 keeps the task open with stderr as feedback;
    ``continue: false`` stops the teammate.
    """

    event: ClassVar[HookEvent | None] = HookEvent.TASK_COMPLETED


@attrs.frozen(kw_only=True)
class TaskCompletedInput(HookInput[TaskCompletedOutput]):
    """A task is being marked completed (TaskUpdate, or a teammate ending its turn with
    tasks in progress). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.TASK_COMPLETED
    output_type: ClassVar[type[HookOutput]] = TaskCompletedOutput

    task_id: str | None = attrs.field(default=None, metadata=meta(TASK_ID))
    task_subject: str | None = attrs.field(default=None, metadata=meta(TASK_SUBJECT))
    task_description: str | None = attrs.field(default=None, metadata=meta(TASK_DESCRIPTION))
    teammate_name: str | None = attrs.field(
        default=None,
        metadata=meta("Name of the teammate completing the task, when there is one."),
    )
    team_name: str | None = attrs.field(default=None, metadata=meta(TEAM_NAME))
