"""PreToolUse: its input and output classes.

Before a tool call runs; can allow, deny, ask, defer or rewrite it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import (
    ADDITIONAL_CONTEXT,
    AGENT_NAME,
    METADATA,
    TOOL_INPUT,
    TOOL_NAME,
    TOOL_USE_ID,
    PermissionDecision,
)

__all__ = ["PreToolUseInput", "PreToolUseOutput"]


@attrs.frozen(kw_only=True)
class PreToolUseOutput(HookOutput):
    """Answer to PreToolUse: allow, deny, ask or defer the call, rewrite its input, add context."""

    event: ClassVar[HookEvent | None] = HookEvent.PRE_TOOL_USE

    permission_decision: PermissionDecision | None = attrs.field(
        default=None,
        metadata=meta(
            "``allow`` skips the permission prompt, ``deny`` prevents the call, ``ask`` asks "
            "the user, ``defer`` hands the call back to the host. Across handlers the most "
            "restrictive wins: deny > defer > ask > allow.",
            merge=Merge.RANK,
            rank=("deny", "defer", "ask", "allow"),
            companion="permission_decision_reason",
        ),
    )
    permission_decision_reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "For deny, the reason the model reads; for allow and ask, shown to the user. "
            "Taken from the first handler at the winning rank.",
            merge=Merge.COMPANION,
        ),
    )
    updated_input: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the whole tool input before the call runs. In parallel dispatch the "
            "last handler in configuration order wins (a diagnostic names the others); in "
            "chained dispatch each handler sees the previous rewrite.",
            merge=Merge.LAST,
        ),
    )
    additional_context: str | None = attrs.field(
        default=None, metadata=meta(ADDITIONAL_CONTEXT, merge=Merge.JOIN)
    )
    metadata: Mapping[str, Any] | None = attrs.field(
        default=None, metadata=meta(METADATA, merge=Merge.UPDATE)
    )


@attrs.frozen(kw_only=True)
class PreToolUseInput(HookInput[PreToolUseOutput]):
    """A tool call is about to run (Docker Agent ``pre_tool_use``). Matcher field: ``tool_name``."""

    event: ClassVar[HookEvent] = HookEvent.PRE_TOOL_USE
    output_type: ClassVar[type[HookOutput]] = PreToolUseOutput

    tool_name: str = attrs.field(metadata=meta(TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(TOOL_USE_ID))
    agent_name: str | None = attrs.field(default=None, metadata=meta(AGENT_NAME))
