"""PostToolUse: its input and output classes.

After a tool call succeeded; can replace what the model sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import ADDITIONAL_CONTEXT, AGENT_NAME, DURATION_MS, TOOL_INPUT, TOOL_NAME, TOOL_USE_ID

__all__ = ["PostToolUseInput", "PostToolUseOutput"]


@attrs.frozen(kw_only=True)
class PostToolUseOutput(HookOutput):
    """Answer to PostToolUse: add context, or replace the result the model sees.

    A top-level ``decision: "block"`` puts ``reason`` next to the tool result; the tool
    has already run either way.
    """

    event: ClassVar[HookEvent | None] = HookEvent.POST_TOOL_USE

    additional_context: str | None = attrs.field(
        default=None, metadata=meta(ADDITIONAL_CONTEXT, merge=Merge.JOIN)
    )
    updated_tool_output: Any = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the tool's output before the model sees it; must match the tool's "
            "output shape (an object for built-in tools). Only what the model sees changes. "
            "The last handler in configuration order wins.",
            merge=Merge.LAST,
        ),
    )
    updated_mcp_tool_output: Any = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the output of an MCP tool only (wire name ``updatedMCPToolOutput``). "
            "Prefer ``updated_tool_output``, which works for every tool.",
            wire="updatedMCPToolOutput",
            merge=Merge.LAST,
        ),
    )
    classifier_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Short note about this call's result for the auto-mode classifier rather than the "
            "model; relay only genuine user statements in it, never tool output or model "
            "text. Notes from every handler are newline-joined; Claude Code caps the total at "
            "2,000 UTF-16 code units per call and ignores it in a fire-and-forget answer "
            "(agent_hooks drops it from those too).",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class PostToolUseInput(HookInput[PostToolUseOutput]):
    """A tool call completed. Matcher field: ``tool_name``.

    Claude Code and Deep Agents Code fire it after a success only (failures fire
    PostToolUseFailure); Docker Agent's ``post_tool_use`` fires after both and sets
    ``tool_error`` on failure.
    """

    event: ClassVar[HookEvent] = HookEvent.POST_TOOL_USE
    output_type: ClassVar[type[HookOutput]] = PostToolUseOutput

    tool_name: str = attrs.field(metadata=meta(TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(TOOL_INPUT))
    tool_response: Any = attrs.field(
        default=None,
        metadata=meta(
            "What the tool returned, in the tool's own shape (Claude Code: a structured "
            'object such as ``{"filePath": ..., "success": true}``; Docker Agent: the '
            "result text, with failure details on error)."
        ),
    )
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(TOOL_USE_ID))
    duration_ms: int | None = attrs.field(default=None, metadata=meta(DURATION_MS))
    tool_error: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "Docker Agent: ``True`` when the tool failed (details in ``tool_response``)."
        ),
    )
    agent_name: str | None = attrs.field(default=None, metadata=meta(AGENT_NAME))
