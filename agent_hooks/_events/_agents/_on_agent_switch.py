"""OnAgentSwitch: its input and output classes.

The active agent changes (transfer, handoff, return).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["OnAgentSwitchInput", "OnAgentSwitchOutput"]


@attrs.frozen(kw_only=True)
class OnAgentSwitchOutput(HookOutput):
    """Answer to OnAgentSwitch: nothing beyond the universal fields (observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_AGENT_SWITCH


@attrs.frozen(kw_only=True)
class OnAgentSwitchInput(HookInput[OnAgentSwitchOutput]):
    """Docker Agent ``on_agent_switch``: the runtime moved the active agent (transfer, handoff
    or return). Cannot block. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_AGENT_SWITCH
    output_type: ClassVar[type[HookOutput]] = OnAgentSwitchOutput

    from_agent: str | None = attrs.field(
        default=None, metadata=meta("Name of the agent being left.")
    )
    to_agent: str | None = attrs.field(
        default=None, metadata=meta("Name of the agent taking over.")
    )
    agent_switch_kind: str | None = attrs.field(
        default=None,
        metadata=meta(
            "What caused the switch: ``transfer_task``, ``transfer_task_return``, "
            "``handoff`` or ``force_handoff``."
        ),
    )
