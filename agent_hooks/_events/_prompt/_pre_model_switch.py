"""PreModelSwitch: its input and output classes.

Before the session's model is switched; can allow, cancel or ask.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import (
    CACHE_TTL,
    CONTEXT_TOKENS,
    ESTIMATED_CACHE_WRITE_USD,
    FROM_MODEL,
    PRICING,
    PROMPT_CACHE_WARM,
    REQUESTED_MODEL,
    SWITCH_SOURCE,
    TO_MODEL,
)

__all__ = ["PreModelSwitchInput", "PreModelSwitchOutput"]


@attrs.frozen(kw_only=True)
class PreModelSwitchOutput(HookOutput):
    """Answer to PreModelSwitch: allow the switch, cancel it, or ask the user."""

    event: ClassVar[HookEvent | None] = HookEvent.PRE_MODEL_SWITCH

    permission_decision: Literal["allow", "deny", "ask"] | None = attrs.field(
        default=None,
        metadata=meta(
            "``allow`` proceeds (skipping the interactive cache-miss confirmation), ``deny`` "
            "cancels the switch, ``ask`` asks the user to confirm (a headless session refuses "
            "instead). Across handlers the most restrictive wins: deny > ask > allow.",
            merge=Merge.RANK,
            rank=("deny", "ask", "allow"),
            companion="permission_decision_reason",
        ),
    )
    permission_decision_reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why the switch was refused, allowed or put to the user. Taken from the first "
            "handler at the winning rank.",
            merge=Merge.COMPANION,
        ),
    )


@attrs.frozen(kw_only=True)
class PreModelSwitchInput(HookInput[PreModelSwitchOutput]):
    """The session's model is about to change (``/model``, a fallback); Claude Code 2.1.332
    and later. It may fire more than once for one request (the requested model, then a
    fallback). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.PRE_MODEL_SWITCH
    output_type: ClassVar[type[HookOutput]] = PreModelSwitchOutput

    from_model: str | None = attrs.field(default=None, metadata=meta(FROM_MODEL))
    to_model: str | None = attrs.field(default=None, metadata=meta(TO_MODEL))
    requested_model: str | None = attrs.field(default=None, metadata=meta(REQUESTED_MODEL))
    source: str | None = attrs.field(default=None, metadata=meta(SWITCH_SOURCE))
    context_tokens: int | None = attrs.field(default=None, metadata=meta(CONTEXT_TOKENS))
    prompt_cache_warm: bool | None = attrs.field(default=None, metadata=meta(PROMPT_CACHE_WARM))
    cache_ttl: str | None = attrs.field(default=None, metadata=meta(CACHE_TTL))
    estimated_cache_write_usd: float | None = attrs.field(
        default=None, metadata=meta(ESTIMATED_CACHE_WRITE_USD)
    )
    pricing: str | None = attrs.field(default=None, metadata=meta(PRICING))
