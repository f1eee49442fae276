"""OnToolApprovalDecision: its input and output classes.

The approval chain resolved a tool call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["OnToolApprovalDecisionInput", "OnToolApprovalDecisionOutput"]


@attrs.frozen(kw_only=True)
class OnToolApprovalDecisionOutput(HookOutput):
    """Answer to OnToolApprovalDecision: nothing beyond the universal fields (observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_TOOL_APPROVAL_DECISION


@attrs.frozen(kw_only=True)
class OnToolApprovalDecisionInput(HookInput[OnToolApprovalDecisionOutput]):
    """Docker Agent ``on_tool_approval_decision``: the approval chain (permissions, yolo,
    read-only, pre_tool_use hooks, the interactive prompt) settled a tool call. An audit
    record of who approved what. Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_TOOL_APPROVAL_DECISION
    output_type: ClassVar[type[HookOutput]] = OnToolApprovalDecisionOutput

    tool_name: str = attrs.field(metadata=meta("Name of the tool the decision is about."))
    tool_input: Mapping[str, Any] = attrs.field(
        factory=dict, metadata=meta("Arguments of the tool call.")
    )
    tool_use_id: str | None = attrs.field(
        default=None, metadata=meta("Identifier of the tool call.")
    )
    approval_decision: str | None = attrs.field(
        default=None, metadata=meta("The verdict: ``allow``, ``deny`` or ``canceled``.")
    )
    approval_source: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Which stage decided, a stable classifier such as ``yolo``, "
            "``session_permissions_allow``, ``session_permissions_deny``, "
            "``team_permissions_allow``, ``team_permissions_deny``, "
            "``pre_tool_use_hook_allow``, ``pre_tool_use_hook_deny``, ``readonly_hint``, "
            "``user_approved``, ``user_approved_session``, ``user_approved_safe``, "
            "``user_approved_tool``, ``user_rejected``, ``context_canceled``."
        ),
    )
