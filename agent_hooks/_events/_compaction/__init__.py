"""Compaction events: Claude-style PreCompact/PostCompact and Docker Agent's structured
BeforeCompaction/AfterCompaction.


One module per event, so that a process that handles one event creates only
that event's classes; this package holds the field descriptions they share.
"""

from __future__ import annotations

__all__: list[str] = []

TRIGGER = "How compaction was triggered: ``manual`` (``/compact``) or ``auto`` (context full)."
INPUT_TOKENS = "Input tokens of the session before compaction."
OUTPUT_TOKENS = "Output tokens of the session before compaction."
CONTEXT_LIMIT = "The model's context limit in tokens; 0 means unknown, not a real limit."
COMPACTION_REASON = (
    "Why compaction runs: ``threshold`` (proactive), ``overflow`` (recovering from a "
    "context-overflow error) or ``manual``."
)
