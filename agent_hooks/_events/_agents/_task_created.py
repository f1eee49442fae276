"""TaskCreated: its input and output classes.

A task is being created; a block rolls it back.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent
from . import TASK_DESCRIPTION, TASK_ID, TASK_SUBJECT, TEAM_NAME

__all__ = ["TaskCreatedInput", "TaskCreatedOutput"]


@attrs.frozen(kw_only=True)
class TaskCreatedOutput(HookOutput):
    """Answer to TaskCreated: ``decision: "block"`` deletes the task and returns ``reason`` to
    the model as the tool's error (``continue: false`` is ignored).
    """

    event: ClassVar[HookEvent | None] = HookEvent.TASK_CREATED


@attrs.frozen(kw_only=True)
class TaskCreatedInput(HookInput[TaskCreatedOutput]):
    """A task is being created with the ``TaskCreate`` tool. No matcher."""

    event: ClassVar[HookEvent] = HookEvent.TASK_CREATED
    output_type: ClassVar[type[HookOutput]] = TaskCreatedOutput

    task_id: str | None = attrs.field(default=None, metadata=meta(TASK_ID))
    task_subject: str | None = attrs.field(default=None, metadata=meta(TASK_SUBJECT))
    task_description: str | None = attrs.field(default=None, metadata=meta(TASK_DESCRIPTION))
    teammate_name: str | None = attrs.field(
        default=None, metadata=meta("Name of the teammate creating the task, when there is one.")
    )
    team_name: str | None = attrs.field(default=None, metadata=meta(TEAM_NAME))
