"""PostToolBatch: its input and output classes.

After a batch of parallel tool calls resolved, before the next model call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import TOOL_INPUT, TOOL_NAME, TOOL_USE_ID

__all__ = ["BatchToolCall", "PostToolBatchInput", "PostToolBatchOutput"]


@attrs.frozen(kw_only=True)
class BatchToolCall:
    """One resolved tool call in a PostToolBatch ``tool_calls`` list."""

    tool_name: str = attrs.field(metadata=meta(TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(TOOL_USE_ID))
    tool_response: Any = attrs.field(
        default=None,
        metadata=meta(
            "The serialized ``tool_result`` content the model receives (a string or a "
            "content-block array), not PostToolUse's structured object."
        ),
    )


@attrs.frozen(kw_only=True)
class PostToolBatchOutput(HookOutput):
    """Answer to PostToolBatch: context injected once before the next model call.

    ``decision: "block"`` or ``continue: false`` stops the loop before that call.
    """

    event: ClassVar[HookEvent | None] = HookEvent.POST_TOOL_BATCH

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text injected once before the next model call, about the batch as a whole. "
            "Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class PostToolBatchInput(HookInput[PostToolBatchOutput]):
    """Every tool call of a batch has resolved; fires once before the next model request.

    No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.POST_TOOL_BATCH
    output_type: ClassVar[type[HookOutput]] = PostToolBatchOutput

    tool_calls: Sequence[BatchToolCall] = attrs.field(
        factory=tuple,
        metadata=meta("Every tool call in the batch, in the order the model issued them."),
    )
