"""AfterModelChunk: its input and output classes.

A streamed chunk of the model's response arrived; can replace it, or discard it and
stop the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import LLM_REQUEST

__all__ = ["AfterModelChunkInput", "AfterModelChunkOutput"]


@attrs.frozen(kw_only=True)
class AfterModelChunkOutput(HookOutput):
    """Answer to AfterModelChunk: replace the chunk (``llm_response``), or discard it and
    stop the turn (``decision: "block"``, Gemini CLI's ``decision: "deny"``); ``continue:
    false`` ends the agent loop."""

    event: ClassVar[HookEvent | None] = HookEvent.AFTER_MODEL_CHUNK

    llm_response: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the chunk the harness goes on with (Gemini CLI: "
            "``hookSpecificOutput.llm_response``, the shape of the input's ``llm_response``). "
            "The last handler that sets it wins, as Gemini CLI's field replacement does.",
            wire="llm_response",
            merge=Merge.LAST,
        ),
    )


@attrs.frozen(kw_only=True)
class AfterModelChunkInput(HookInput[AfterModelChunkOutput]):
    """Gemini CLI ``AfterModel``: after every streamed chunk of a model response (a
    response that is not streamed is one chunk). Can block. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.AFTER_MODEL_CHUNK
    output_type: ClassVar[type[HookOutput]] = AfterModelChunkOutput

    llm_request: Mapping[str, Any] | None = attrs.field(default=None, metadata=meta(LLM_REQUEST))
    llm_response: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "The chunk: ``{text, candidates: [{content: {role, parts}, finishReason, "
            "index}], usageMetadata: {promptTokenCount, candidatesTokenCount, "
            "totalTokenCount}}`` (Gemini CLI 0.61.0 sends ``parts`` as plain strings and "
            "a function-call chunk as empty text)."
        ),
    )
