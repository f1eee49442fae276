"""Compaction events: Claude-style PreCompact/PostCompact and Docker Agent's structured
BeforeCompaction/AfterCompaction.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = [
    "AfterCompactionInput",
    "AfterCompactionOutput",
    "BeforeCompactionInput",
    "BeforeCompactionOutput",
    "PostCompactInput",
    "PostCompactOutput",
    "PreCompactInput",
    "PreCompactOutput",
]

_TRIGGER = "How compaction was triggered: ``manual`` (``/compact``) or ``auto`` (context full)."
_INPUT_TOKENS = "Input tokens of the session before compaction."
_OUTPUT_TOKENS = "Output tokens of the session before compaction."
_CONTEXT_LIMIT = "The model's context limit in tokens; 0 means unknown, not a real limit."
_COMPACTION_REASON = (
    "Why compaction runs: ``threshold`` (proactive), ``overflow`` (recovering from a "
    "context-overflow error) or ``manual``."
)


# ----------------------------------------------------------------- PreCompact


@attrs.frozen(kw_only=True)
class PreCompactOutput(HookOutput):
    """Answer to PreCompact: ``decision: "block"`` cancels compaction; Docker Agent also takes
    guidance for the summary.
    """

    event: ClassVar[HookEvent | None] = HookEvent.PRE_COMPACT

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Docker Agent: instructions appended to the compaction prompt to steer the "
            "summary. Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class PreCompactInput(HookInput[PreCompactOutput]):
    """Compaction is about to run. Matcher field: ``trigger``."""

    event: ClassVar[HookEvent] = HookEvent.PRE_COMPACT
    output_type: ClassVar[type[HookOutput]] = PreCompactOutput

    trigger: str | None = attrs.field(default=None, metadata=meta(_TRIGGER))
    custom_instructions: str | None = attrs.field(
        default=None,
        metadata=meta("For ``manual``: what the user passed to ``/compact``; empty for ``auto``."),
    )
    source: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Docker Agent's trigger field: ``manual``, ``auto`` (configured threshold), "
            "``overflow`` (after a context-overflow error) or ``tool_overflow`` (a tool result "
            "pushed the context over the threshold)."
        ),
    )


# ---------------------------------------------------------------- PostCompact


@attrs.frozen(kw_only=True)
class PostCompactOutput(HookOutput):
    """Answer to PostCompact: nothing beyond the universal fields (they are discarded)."""

    event: ClassVar[HookEvent | None] = HookEvent.POST_COMPACT


@attrs.frozen(kw_only=True)
class PostCompactInput(HookInput[PostCompactOutput]):
    """Compaction completed. Observational. Matcher field: ``trigger``."""

    event: ClassVar[HookEvent] = HookEvent.POST_COMPACT
    output_type: ClassVar[type[HookOutput]] = PostCompactOutput

    trigger: str | None = attrs.field(default=None, metadata=meta(_TRIGGER))
    compact_summary: str | None = attrs.field(
        default=None, metadata=meta("The conversation summary the compaction produced.")
    )


# ----------------------------------------------------------- BeforeCompaction


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

    input_tokens: int | None = attrs.field(default=None, metadata=meta(_INPUT_TOKENS))
    output_tokens: int | None = attrs.field(default=None, metadata=meta(_OUTPUT_TOKENS))
    context_limit: int | None = attrs.field(default=None, metadata=meta(_CONTEXT_LIMIT))
    compaction_reason: str | None = attrs.field(default=None, metadata=meta(_COMPACTION_REASON))


# ------------------------------------------------------------ AfterCompaction


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

    input_tokens: int | None = attrs.field(default=None, metadata=meta(_INPUT_TOKENS))
    output_tokens: int | None = attrs.field(default=None, metadata=meta(_OUTPUT_TOKENS))
    context_limit: int | None = attrs.field(default=None, metadata=meta(_CONTEXT_LIMIT))
    compaction_reason: str | None = attrs.field(default=None, metadata=meta(_COMPACTION_REASON))
    summary: str | None = attrs.field(
        default=None, metadata=meta("The summary that was applied to the session.")
    )
