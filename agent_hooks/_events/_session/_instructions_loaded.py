"""InstructionsLoaded: its input and output classes.

An instructions file was loaded into context.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["InstructionsLoadedInput", "InstructionsLoadedOutput"]


@attrs.frozen(kw_only=True)
class InstructionsLoadedOutput(HookOutput):
    """Answer to InstructionsLoaded: nothing beyond the universal fields (they are discarded)."""

    event: ClassVar[HookEvent | None] = HookEvent.INSTRUCTIONS_LOADED


@attrs.frozen(kw_only=True)
class InstructionsLoadedInput(HookInput[InstructionsLoadedOutput]):
    """An instruction file (``CLAUDE.md``, ``.claude/rules/*.md``) was loaded into context,
    eagerly at session start or lazily later. Observational. Matcher field: ``load_reason``.
    """

    event: ClassVar[HookEvent] = HookEvent.INSTRUCTIONS_LOADED
    output_type: ClassVar[type[HookOutput]] = InstructionsLoadedOutput

    file_path: str | None = attrs.field(
        default=None, metadata=meta("Absolute path of the instruction file.")
    )
    memory_type: str | None = attrs.field(
        default=None,
        metadata=meta("Scope of the file: ``User``, ``Project``, ``Local`` or ``Managed``."),
    )
    load_reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why it was loaded: ``session_start``, ``nested_traversal``, ``path_glob_match``, "
            "``include`` or ``compact`` (re-loaded after compaction)."
        ),
    )
    globs: Sequence[str] | None = attrs.field(
        default=None,
        metadata=meta("Globs from the file's ``paths:`` frontmatter; ``path_glob_match`` only."),
    )
    trigger_file_path: str | None = attrs.field(
        default=None, metadata=meta("For lazy loads: the file whose access triggered the load.")
    )
    parent_file_path: str | None = attrs.field(
        default=None, metadata=meta("For ``include`` loads: the file that included this one.")
    )
