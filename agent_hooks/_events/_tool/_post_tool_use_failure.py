"""PostToolUseFailure: its input and output classes.

After a tool call failed; can add feedback for the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import DURATION_MS, TOOL_INPUT, TOOL_NAME, TOOL_USE_ID

__all__ = ["PostToolUseFailureInput", "PostToolUseFailureOutput"]


@attrs.frozen(kw_only=True)
class PostToolUseFailureOutput(HookOutput):
    """Answer to PostToolUseFailure: add context next to the error."""

    event: ClassVar[HookEvent | None] = HookEvent.POST_TOOL_USE_FAILURE

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added to the model's context next to the error. Collected from every "
            "handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class PostToolUseFailureInput(HookInput[PostToolUseFailureOutput]):
    """A tool that started executing failed (threw, or an MCP tool returned an error).

    Not fired for calls rejected before running (validation, permission denial).
    Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.POST_TOOL_USE_FAILURE
    output_type: ClassVar[type[HookOutput]] = PostToolUseFailureOutput

    tool_name: str = attrs.field(metadata=meta(TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(TOOL_USE_ID))
    error: str | None = attrs.field(
        default=None,
        metadata=meta(
            "What went wrong, usually the text the model receives as the tool result. For "
            "shell tools the first line is ``Exit code N``; treat the rest as display text."
        ),
    )
    is_interrupt: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``True`` when the failure reached the host as an abort rather than an error "
            "the tool reported."
        ),
    )
    duration_ms: int | None = attrs.field(default=None, metadata=meta(DURATION_MS))
