"""WorktreeRemove: its input and output classes.

A worktree is removed.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["WorktreeRemoveInput", "WorktreeRemoveOutput"]


@attrs.frozen(kw_only=True)
class WorktreeRemoveOutput(HookOutput):
    """Answer to WorktreeRemove: nothing beyond the universal fields (they are discarded)."""

    event: ClassVar[HookEvent | None] = HookEvent.WORKTREE_REMOVE


@attrs.frozen(kw_only=True)
class WorktreeRemoveInput(HookInput[WorktreeRemoveOutput]):
    """A worktree is being removed (cleanup counterpart of WorktreeCreate). Cannot block.
    No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.WORKTREE_REMOVE
    output_type: ClassVar[type[HookOutput]] = WorktreeRemoveOutput

    worktree_path: str | None = attrs.field(
        default=None,
        metadata=meta("Absolute path of the worktree being removed (as WorktreeCreate returned)."),
    )
