"""AfterAgentThought: its input and output classes.

The model finished a thinking (reasoning) block; observational.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["AfterAgentThoughtInput", "AfterAgentThoughtOutput"]


@attrs.frozen(kw_only=True)
class AfterAgentThoughtOutput(HookOutput):
    """Answer to AfterAgentThought: nothing beyond the universal fields (the event is
    observational; Cursor reads no answer)."""

    event: ClassVar[HookEvent | None] = HookEvent.AFTER_AGENT_THOUGHT


@attrs.frozen(kw_only=True)
class AfterAgentThoughtInput(HookInput[AfterAgentThoughtOutput]):
    """Cursor ``afterAgentThought``: after the agent completed a thinking block. Cannot
    block. No matcher (Cursor compares a configured ``matcher`` with ``AgentThought``).
    """

    event: ClassVar[HookEvent] = HookEvent.AFTER_AGENT_THOUGHT
    output_type: ClassVar[type[HookOutput]] = AfterAgentThoughtOutput

    text: str | None = attrs.field(
        default=None, metadata=meta("The thinking block's text, as the model wrote it.")
    )
    duration_ms: int | None = attrs.field(
        default=None, metadata=meta("How long the model thought, in milliseconds, when known.")
    )
