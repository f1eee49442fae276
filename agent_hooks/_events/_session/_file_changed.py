"""FileChanged: its input and output classes.

A watched file changed on disk (matcher: file basename).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import WATCH_PATHS

__all__ = ["FileChangedInput", "FileChangedOutput"]


@attrs.frozen(kw_only=True)
class FileChangedOutput(HookOutput):
    """Answer to FileChanged: update which files are watched. Cannot block."""

    event: ClassVar[HookEvent | None] = HookEvent.FILE_CHANGED

    watch_paths: Sequence[str] | None = attrs.field(
        default=None, metadata=meta(WATCH_PATHS, merge=Merge.LAST)
    )


@attrs.frozen(kw_only=True)
class FileChangedInput(HookInput[FileChangedOutput]):
    """A watched file changed on disk, whatever changed it.

    Matcher field: the basename of ``file_path`` (the matcher also names the files to watch).
    """

    event: ClassVar[HookEvent] = HookEvent.FILE_CHANGED
    output_type: ClassVar[type[HookOutput]] = FileChangedOutput

    file_path: str | None = attrs.field(
        default=None, metadata=meta("Absolute path of the file that changed.")
    )
    file_event: str | None = attrs.field(
        default=None,
        metadata=meta(
            "What happened: ``change`` (modified), ``add`` (created) or ``unlink`` (deleted). "
            "Wire name ``event`` (renamed here because ``event`` is the class's event).",
            wire="event",
        ),
    )
