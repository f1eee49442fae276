"""PostModelSwitch: its input and output classes.

After the session's model was switched; can add context for the new model.
"""

from __future__ import annotations

from typing import ClassVar

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

__all__ = ["PostModelSwitchInput", "PostModelSwitchOutput"]


@attrs.frozen(kw_only=True)
class PostModelSwitchOutput(HookOutput):
    """Answer to PostModelSwitch: context for the new model's next request."""

    event: ClassVar[HookEvent | None] = HookEvent.POST_MODEL_SWITCH

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text that reaches the model with the next request the new model serves. "
            "Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class PostModelSwitchInput(HookInput[PostModelSwitchOutput]):
    """The session's model changed (Claude Code 2.1.332 and later); fires once per switch.
    No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.POST_MODEL_SWITCH
    output_type: ClassVar[type[HookOutput]] = PostModelSwitchOutput

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
