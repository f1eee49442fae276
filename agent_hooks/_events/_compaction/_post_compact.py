"""PostCompact: its input and output classes.

After compaction completed.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent
from . import TRIGGER

__all__ = ["PostCompactInput", "PostCompactOutput"]


@attrs.frozen(kw_only=True)
class PostCompactOutput(HookOutput):
    """Answer to PostCompact: nothing beyond the universal fields (they are discarded)."""

    event: ClassVar[HookEvent | None] = HookEvent.POST_COMPACT


@attrs.frozen(kw_only=True)
class PostCompactInput(HookInput[PostCompactOutput]):
    """Compaction completed. Observational. Matcher field: ``trigger``."""

    event: ClassVar[HookEvent] = HookEvent.POST_COMPACT
    output_type: ClassVar[type[HookOutput]] = PostCompactOutput

    trigger: str | None = attrs.field(default=None, metadata=meta(TRIGGER))
    compact_summary: str | None = attrs.field(
        default=None, metadata=meta("The conversation summary the compaction produced.")
    )
