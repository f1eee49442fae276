"""UserPromptTransformed: its input and output classes.

The runtime built the model-facing content of a prompt; can rewrite it.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = ["UserPromptTransformedInput", "UserPromptTransformedOutput"]


@attrs.frozen(kw_only=True)
class UserPromptTransformedOutput(HookOutput):
    """Answer to UserPromptTransformed: a rewrite of the model-facing prompt. It cannot
    block (GitHub Copilot: "rewrite only")."""

    event: ClassVar[HookEvent | None] = HookEvent.USER_PROMPT_TRANSFORMED

    modified_transformed_prompt: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the model-facing prompt (Copilot ``modifiedTransformedPrompt``). "
            "Handlers run chained, each seeing the previous rewrite as "
            "``transformed_prompt``; the last one wins.",
            specific=False,
            merge=Merge.LAST,
        ),
    )


@attrs.frozen(kw_only=True)
class UserPromptTransformedInput(HookInput[UserPromptTransformedOutput]):
    """GitHub Copilot ``userPromptTransformed``: after the runtime turned a submitted
    prompt into the content the model reads (after UserPromptSubmit). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.USER_PROMPT_TRANSFORMED
    output_type: ClassVar[type[HookOutput]] = UserPromptTransformedOutput

    prompt: str | None = attrs.field(
        default=None, metadata=meta("The prompt as the user submitted it.")
    )
    transformed_prompt: str | None = attrs.field(
        default=None,
        metadata=meta(
            "The model-facing content built from it (Copilot CLI 1.0.102: the prompt "
            "prefixed with ``<current_datetime>...</current_datetime>``)."
        ),
    )
