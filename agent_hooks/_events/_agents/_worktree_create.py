"""WorktreeCreate: its input and output classes.

A worktree is created; the hook may supply its path.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = ["WorktreeCreateInput", "WorktreeCreateOutput"]


@attrs.frozen(kw_only=True)
class WorktreeCreateOutput(HookOutput):
    """Answer to WorktreeCreate: the path of the worktree the handler created.

    A command handler in the Claude dialect prints the path as its last stdout line; HTTP
    and Python handlers return ``worktree_path``. In the Claude dialect any failure of a
    handler (a non-zero exit whatever its JSON says, a timeout, a raise) blocks: the
    creation fails. Docker Agent has already created the worktree and takes
    ``decision: "block"`` / ``continue: false`` to abort the run.
    """

    event: ClassVar[HookEvent | None] = HookEvent.WORKTREE_CREATE

    worktree_path: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Path of the created worktree directory (Claude Code: replaces ``git worktree``; "
            "no path fails the creation). The first handler that sets it wins.",
            merge=Merge.FIRST,
        ),
    )
    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Docker Agent: text (plain stdout too) surfaced to the CLI user, not to a "
            "conversation, since the session does not exist yet. Collected from every "
            "handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class WorktreeCreateInput(HookInput[WorktreeCreateOutput]):
    """A worktree is being created (Claude Code: the hook creates it; Docker Agent
    ``worktree_create``: ``--worktree`` has just created it, before the session starts).
    No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.WORKTREE_CREATE
    output_type: ClassVar[type[HookOutput]] = WorktreeCreateOutput

    name: str | None = attrs.field(
        default=None,
        metadata=meta("Claude Code: slug for the new worktree (``bold-oak-a3f2``)."),
    )
    worktree_path: str | None = attrs.field(
        default=None,
        metadata=meta("Docker Agent: path of the new worktree (also the handler's ``cwd``)."),
    )
    worktree_branch: str | None = attrs.field(
        default=None, metadata=meta("Docker Agent: branch checked out in the new worktree.")
    )
    worktree_source_dir: str | None = attrs.field(
        default=None,
        metadata=meta("Docker Agent: root of the repository the worktree was made from."),
    )
