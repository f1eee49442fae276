"""BeforeLLMCall: its input and output classes.

Just before a model call; can stop the run or rewrite the messages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import LLM_REQUEST, MODEL_ID

__all__ = ["BeforeLLMCallInput", "BeforeLLMCallOutput"]


@attrs.frozen(kw_only=True)
class BeforeLLMCallOutput(HookOutput):
    """Answer to BeforeLLMCall: stop the run (``decision: "block"``; Gemini CLI's
    ``decision: "deny"`` aborts the turn), rewrite the messages, change the request
    (``llm_request``) or answer in the model's place (``llm_response``).

    It cannot add context (use TurnStart for that).
    """

    event: ClassVar[HookEvent | None] = HookEvent.BEFORE_LLM_CALL

    messages: Sequence[Mapping[str, Any]] | None = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the outgoing chat messages (e.g. with secrets redacted). Handlers run "
            "chained, each seeing the previous rewrite; the last one wins.",
            merge=Merge.LAST,
        ),
    )
    llm_request: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "Gemini CLI: a partial request merged over the outgoing one "
            "(``hookSpecificOutput.llm_request``). Merged key by key across handlers, later "
            "ones winning per key.",
            wire="llm_request",
            merge=Merge.UPDATE,
        ),
    )
    llm_response: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "Gemini CLI: a synthetic model response; the model is not called "
            "(``hookSpecificOutput.llm_response``, the shape of AfterModelChunk's "
            "``llm_response``). The last handler that sets it wins.",
            wire="llm_response",
            merge=Merge.LAST,
        ),
    )


@attrs.frozen(kw_only=True)
class BeforeLLMCallInput(HookInput[BeforeLLMCallOutput]):
    """Docker Agent ``before_llm_call`` and Gemini CLI ``BeforeModel``: just before every
    model call (after ``turn_start``).

    Can block, which stops the run (the built-in ``max_iterations`` uses it). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.BEFORE_LLM_CALL
    output_type: ClassVar[type[HookOutput]] = BeforeLLMCallOutput

    iteration: int | None = attrs.field(
        default=None,
        metadata=meta("1-based run-loop iteration counter: which model call this gates."),
    )
    model_id: str | None = attrs.field(default=None, metadata=meta(MODEL_ID))
    messages: Sequence[Mapping[str, Any]] | None = attrs.field(
        default=None,
        metadata=meta("The outgoing chat messages, when the host sends them for rewriting."),
    )
    llm_request: Mapping[str, Any] | None = attrs.field(default=None, metadata=meta(LLM_REQUEST))
