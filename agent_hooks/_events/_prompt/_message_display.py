"""MessageDisplay: its input and output classes.

Assistant text is displayed; can replace what is shown.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = ["MessageDisplayInput", "MessageDisplayOutput"]


@attrs.frozen(kw_only=True)
class MessageDisplayOutput(HookOutput):
    """Answer to MessageDisplay: what to show on screen instead of the batch.

    Display-only: the transcript and what the model sees keep the original text.
    """

    event: ClassVar[HookEvent | None] = HookEvent.MESSAGE_DISPLAY

    display_content: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text displayed in place of ``delta``; omit it, or return ``delta`` unchanged, to "
            "display the original. Handlers run chained by default, each seeing the text "
            "the previous one left as its ``delta``, so an unchanged answer keeps an earlier "
            "handler's replacement; the last handler in configuration order that sets it wins.",
            merge=Merge.LAST,
        ),
    )


@attrs.frozen(kw_only=True)
class MessageDisplayInput(HookInput[MessageDisplayOutput]):
    """A batch of an assistant message's text is about to be displayed.

    Interactive hosts fire it once per batch of completed lines; non-interactive runs
    once per message with the whole text (``index`` 0, ``final`` true). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.MESSAGE_DISPLAY
    output_type: ClassVar[type[HookOutput]] = MessageDisplayOutput

    turn_id: str | None = attrs.field(default=None, metadata=meta("UUID of the current turn."))
    message_id: str | None = attrs.field(
        default=None,
        metadata=meta(
            "UUID of the assistant message, stable across its batches (not the API ``msg_...`` id)."
        ),
    )
    index: int | None = attrs.field(
        default=None, metadata=meta("Zero-based index of this batch within the message.")
    )
    final: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``True`` on the message's last batch (exactly one per message); use it, not an "
            "empty ``delta``, as the end-of-message signal."
        ),
    )
    delta: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Lines completed since the previous batch, newlines included; the final batch "
            "may end mid-line or be empty."
        ),
    )
