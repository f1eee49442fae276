"""ToolResponseTransform: its input and output classes.

Rewrites a tool's response before it is recorded; handlers chain.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import TOOL_INPUT, TOOL_NAME, TOOL_USE_ID

__all__ = ["ToolResponseTransformInput", "ToolResponseTransformOutput"]


@attrs.frozen(kw_only=True)
class ToolResponseTransformOutput(HookOutput):
    """Answer to ToolResponseTransform: the rewritten tool result."""

    event: ClassVar[HookEvent | None] = HookEvent.TOOL_RESPONSE_TRANSFORM

    updated_tool_response: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the tool output for every downstream consumer (event subscribers, the "
            "session file, post_tool_use input, the next model call). Handlers run chained "
            "in configuration order, each seeing the previous rewrite; the last one wins.",
            merge=Merge.LAST,
        ),
    )


@attrs.frozen(kw_only=True)
class ToolResponseTransformInput(HookInput[ToolResponseTransformOutput]):
    """Docker Agent ``tool_response_transform``: between a tool's execution and the runtime
    emitting and recording its response. Used to truncate, redact or normalise results.

    Cannot block. Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.TOOL_RESPONSE_TRANSFORM
    output_type: ClassVar[type[HookOutput]] = ToolResponseTransformOutput

    tool_name: str = attrs.field(metadata=meta(TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(TOOL_USE_ID))
    tool_response: Any = attrs.field(
        default=None,
        metadata=meta(
            "The tool output as produced (or as earlier transforms rewrote it), usually text."
        ),
    )
