"""AfterCompaction: its input and output classes.

After a successful compaction.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent
from . import COMPACTION_REASON, CONTEXT_LIMIT, INPUT_TOKENS, OUTPUT_TOKENS

__all__ = ["AfterCompactionInput", "AfterCompactionOutput"]


@attrs.frozen(kw_only=True)
class AfterCompactionOutput(HookOutput):
    """Answer to AfterCompaction: nothing beyond the universal fields (the output is ignored)."""

    event: ClassVar[HookEvent | None] = HookEvent.AFTER_COMPACTION


@attrs.frozen(kw_only=True)
class AfterCompactionInput(HookInput[AfterCompactionOutput]):
    """Docker Agent ``after_compaction``: a compaction succeeded and its summary was applied.
    Observational. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.AFTER_COMPACTION
    output_type: ClassVar[type[HookOutput]] = AfterCompactionOutput

    input_tokens: int | None = attrs.field(default=None, metadata=meta(INPUT_TOKENS))
    output_tokens: int | None = attrs.field(default=None, metadata=meta(OUTPUT_TOKENS))
    context_limit: int | None = attrs.field(default=None, metadata=meta(CONTEXT_LIMIT))
    compaction_reason: str | None = attrs.field(default=None, metadata=meta(COMPACTION_REASON))
    summary: str | None = attrs.field(
        default=None, metadata=meta("The summary that was applied to the session.")
    )
