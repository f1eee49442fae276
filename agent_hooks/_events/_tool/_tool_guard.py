"""ToolGuard: its input and output classes.

Docker Agent guard before a tool call; fails closed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent
from . import AGENT_NAME, TOOL_INPUT, TOOL_NAME, TOOL_USE_ID

__all__ = ["ToolGuardInput", "ToolGuardOutput"]


@attrs.frozen(kw_only=True)
class ToolGuardOutput(HookOutput):
    """Answer to ToolGuard: block the call with ``decision: "block"`` and ``reason``.

    The event has no fields of its own; the universal fields (and exit code 2) carry
    the verdict.
    """

    event: ClassVar[HookEvent | None] = HookEvent.TOOL_GUARD


@attrs.frozen(kw_only=True)
class ToolGuardInput(HookInput[ToolGuardOutput]):
    """Docker Agent ``tool_guard``: a guard check on a tool call before it runs.

    It can block and fails closed (a failing guard blocks the call whatever ``on_error``
    says). Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.TOOL_GUARD
    output_type: ClassVar[type[HookOutput]] = ToolGuardOutput

    tool_name: str = attrs.field(metadata=meta(TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(TOOL_USE_ID))
    agent_name: str | None = attrs.field(default=None, metadata=meta(AGENT_NAME))
