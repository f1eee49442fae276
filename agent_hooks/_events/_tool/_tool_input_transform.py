"""ToolInputTransform: its input and output classes.

Rewrites a tool's input before it runs; handlers chain.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import AGENT_NAME, TOOL_INPUT, TOOL_NAME, TOOL_USE_ID

__all__ = ["ToolInputTransformInput", "ToolInputTransformOutput"]


@attrs.frozen(kw_only=True)
class ToolInputTransformOutput(HookOutput):
    """Answer to ToolInputTransform: the rewritten tool input."""

    event: ClassVar[HookEvent | None] = HookEvent.TOOL_INPUT_TRANSFORM

    updated_input: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the tool input before the call runs. Handlers run chained in "
            "configuration order, each seeing the previous rewrite; the last one wins.",
            merge=Merge.LAST,
        ),
    )


@attrs.frozen(kw_only=True)
class ToolInputTransformInput(HookInput[ToolInputTransformOutput]):
    """Docker Agent ``tool_input_transform``: rewrite a tool call's arguments before it runs.

    Cannot block. Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.TOOL_INPUT_TRANSFORM
    output_type: ClassVar[type[HookOutput]] = ToolInputTransformOutput

    tool_name: str = attrs.field(metadata=meta(TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(TOOL_USE_ID))
    agent_name: str | None = attrs.field(default=None, metadata=meta(AGENT_NAME))
