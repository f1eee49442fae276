"""CwdChanged: its input and output classes.

The working directory changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import WATCH_PATHS

__all__ = ["CwdChangedInput", "CwdChangedOutput"]


@attrs.frozen(kw_only=True)
class CwdChangedOutput(HookOutput):
    """Answer to CwdChanged: set which files FileChanged watches. Cannot block."""

    event: ClassVar[HookEvent | None] = HookEvent.CWD_CHANGED

    watch_paths: Sequence[str] | None = attrs.field(
        default=None, metadata=meta(WATCH_PATHS, merge=Merge.LAST)
    )


@attrs.frozen(kw_only=True)
class CwdChangedInput(HookInput[CwdChangedOutput]):
    """The working directory changed during the session (e.g. a ``cd``). No matcher."""

    event: ClassVar[HookEvent] = HookEvent.CWD_CHANGED
    output_type: ClassVar[type[HookOutput]] = CwdChangedOutput

    old_cwd: str | None = attrs.field(default=None, metadata=meta("The previous directory."))
    new_cwd: str | None = attrs.field(default=None, metadata=meta("The new directory."))
