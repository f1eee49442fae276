"""UserPromptSubmit: its input and output classes.

A prompt was submitted; can block it or add context for the turn.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import PROMPT_CONTEXT

__all__ = ["UserPromptSubmitInput", "UserPromptSubmitOutput"]


@attrs.frozen(kw_only=True)
class UserPromptSubmitOutput(HookOutput):
    """Answer to UserPromptSubmit: block the prompt, add context, name the session.

    ``decision: "block"`` refuses the prompt and erases it from context; ``reason`` is
    shown to the user, not the model.
    """

    event: ClassVar[HookEvent | None] = HookEvent.USER_PROMPT_SUBMIT

    additional_context: str | None = attrs.field(
        default=None, metadata=meta(PROMPT_CONTEXT, merge=Merge.JOIN)
    )
    suppress_original_prompt: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "With a block: leave the original prompt text out of the block message shown "
            "to the user. Any handler may turn it on.",
            merge=Merge.ANY,
        ),
    )
    session_title: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Sets the session title (like ``/rename``). The first handler that sets it wins.",
            merge=Merge.FIRST,
        ),
    )


@attrs.frozen(kw_only=True)
class UserPromptSubmitInput(HookInput[UserPromptSubmitOutput]):
    """The user submitted a prompt, before the model processes it. No matcher.

    Docker Agent (``user_prompt_submit``) fires it once per user message, not for
    runtime-synthesised sub-session messages nor for queued follow-ups.
    """

    event: ClassVar[HookEvent] = HookEvent.USER_PROMPT_SUBMIT
    output_type: ClassVar[type[HookOutput]] = UserPromptSubmitOutput

    prompt: str | None = attrs.field(default=None, metadata=meta("The text the user submitted."))
