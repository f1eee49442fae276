"""DirectoryAdded: its input and output classes.

A working directory was added.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["DirectoryAddedInput", "DirectoryAddedOutput"]


@attrs.frozen(kw_only=True)
class DirectoryAddedOutput(HookOutput):
    """Answer to DirectoryAdded: nothing beyond the universal fields (the add is done)."""

    event: ClassVar[HookEvent | None] = HookEvent.DIRECTORY_ADDED


@attrs.frozen(kw_only=True)
class DirectoryAddedInput(HookInput[DirectoryAddedOutput]):
    """A working directory was added mid-session (``/add-dir`` or an SDK
    ``register_repo_root`` request). Runs in the background. Matcher field: ``source``.
    """

    event: ClassVar[HookEvent] = HookEvent.DIRECTORY_ADDED
    output_type: ClassVar[type[HookOutput]] = DirectoryAddedOutput

    directory: str | None = attrs.field(
        default=None, metadata=meta("Absolute path of the added directory.")
    )
    source: str | None = attrs.field(
        default=None,
        metadata=meta("How it was added: ``slash_command`` or ``register_repo_root``."),
    )
