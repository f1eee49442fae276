"""WorkspaceOpen: its input and output classes.

A workspace was opened; can name plugin directories to load.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = ["WorkspaceOpenInput", "WorkspaceOpenOutput"]


@attrs.frozen(kw_only=True)
class WorkspaceOpenOutput(HookOutput):
    """Answer to WorkspaceOpen: plugin directories for the workspace. It cannot block."""

    event: ClassVar[HookEvent | None] = HookEvent.WORKSPACE_OPEN

    plugin_paths: Sequence[str] | None = attrs.field(
        default=None,
        metadata=meta(
            "Directories of plugins to load for this workspace (Cursor ``pluginPaths``, "
            "third-party observed). The last handler that sets it wins.",
            specific=False,
            merge=Merge.LAST,
        ),
    )


@attrs.frozen(kw_only=True)
class WorkspaceOpenInput(HookInput[WorkspaceOpenOutput]):
    """Cursor ``workspaceOpen``: the application opened a workspace (third-party observed;
    the payload holds the common fields only: ``workspace_roots``, ``cursor_version`` ...,
    kept in ``extra``). Cannot block. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.WORKSPACE_OPEN
    output_type: ClassVar[type[HookOutput]] = WorkspaceOpenOutput
