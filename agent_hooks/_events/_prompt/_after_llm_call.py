"""AfterLLMCall: its input and output classes.

After a successful model call, with usage and cost.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent
from . import AGENT_NAME, LAST_USER_MESSAGE, MODEL_ID

__all__ = ["AfterLLMCallInput", "AfterLLMCallOutput", "LLMUsage"]


@attrs.frozen(kw_only=True)
class LLMUsage:
    """Token usage of one model call (Docker Agent ``usage``)."""

    input_tokens: int | None = attrs.field(default=None, metadata=meta("Input tokens."))
    output_tokens: int | None = attrs.field(default=None, metadata=meta("Output tokens."))
    cached_input_tokens: int | None = attrs.field(
        default=None, metadata=meta("Input tokens read from the prompt cache.")
    )
    cached_write_tokens: int | None = attrs.field(
        default=None, metadata=meta("Input tokens written to the prompt cache.")
    )
    reasoning_tokens: int | None = attrs.field(
        default=None, metadata=meta("Reasoning tokens; absent for non-reasoning models.")
    )


@attrs.frozen(kw_only=True)
class AfterLLMCallOutput(HookOutput):
    """Answer to AfterLLMCall: nothing beyond the universal fields (the event cannot block)."""

    event: ClassVar[HookEvent | None] = HookEvent.AFTER_LLM_CALL


@attrs.frozen(kw_only=True)
class AfterLLMCallInput(HookInput[AfterLLMCallOutput]):
    """Docker Agent ``after_llm_call``: a model call succeeded, before its response is recorded
    and its tool calls dispatched. Fires inside sub-sessions too (``session_id`` is then the
    sub-session's). Failed calls fire OnError instead. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.AFTER_LLM_CALL
    output_type: ClassVar[type[HookOutput]] = AfterLLMCallOutput

    agent_name: str | None = attrs.field(default=None, metadata=meta(AGENT_NAME))
    stop_response: str | None = attrs.field(
        default=None, metadata=meta("The assistant text of this response.")
    )
    last_user_message: str | None = attrs.field(default=None, metadata=meta(LAST_USER_MESSAGE))
    model_id: str | None = attrs.field(default=None, metadata=meta(MODEL_ID))
    usage: LLMUsage | None = attrs.field(
        default=None,
        metadata=meta("Token usage of this call; absent when the provider reports none."),
    )
    cost: float | None = attrs.field(
        default=None,
        metadata=meta(
            "Price of this one response in USD. Absent means unpriced; an explicit 0 means "
            "priced and free. For harness agents, the total the harness reported."
        ),
    )
