"""BeforeCompaction: its input and output classes.

Before compaction, with token counts; can veto or supply the summary.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import COMPACTION_REASON, CONTEXT_LIMIT, INPUT_TOKENS, OUTPUT_TOKENS

__all__ = ["BeforeCompactionInput", "BeforeCompactionOutput"]


@attrs.frozen(kw_only=True)
class BeforeCompactionOutput(HookOutput):
    """Answer to BeforeCompaction: ``decision: "block"`` vetoes compaction (careful when the
    reason is ``overflow``); ``summary`` replaces the model-written summary.
    """

    event: ClassVar[HookEvent | None] = HookEvent.BEFORE_COMPACTION

    summary: str | None = attrs.field(
        default=None,
        metadata=meta(
            "When non-empty, applied verbatim as the compaction summary and the model call is "
            "skipped. The first handler with a non-empty summary wins.",
            merge=Merge.FIRST,
        ),
    )


@attrs.frozen(kw_only=True)
class BeforeCompactionInput(HookInput[BeforeCompactionOutput]):
    """Docker Agent ``before_compaction``: compaction is about to run, with the token
    pressure that caused it. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.BEFORE_COMPACTION
    output_type: ClassVar[type[HookOutput]] = BeforeCompactionOutput

    input_tokens: int | None = attrs.field(default=None, metadata=meta(INPUT_TOKENS))
    output_tokens: int | None = attrs.field(default=None, metadata=meta(OUTPUT_TOKENS))
    context_limit: int | None = attrs.field(default=None, metadata=meta(CONTEXT_LIMIT))
    compaction_reason: str | None = attrs.field(default=None, metadata=meta(COMPACTION_REASON))
