"""Setup: its input and output classes.

One-time preparation (--init, --maintenance).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = ["SetupInput", "SetupOutput"]


@attrs.frozen(kw_only=True)
class SetupOutput(HookOutput):
    """Answer to Setup: context for the session. Setup cannot block."""

    event: ClassVar[HookEvent | None] = HookEvent.SETUP

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added to the model's context (plain stdout is not). Collected from every "
            "handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class SetupInput(HookInput[SetupOutput]):
    """One-time initialisation or maintenance run (``--init-only``, ``-p --init``,
    ``-p --maintenance``), not on normal startup. Matcher field: ``trigger``.
    """

    event: ClassVar[HookEvent] = HookEvent.SETUP
    output_type: ClassVar[type[HookOutput]] = SetupOutput

    trigger: str | None = attrs.field(
        default=None,
        metadata=meta("Which flag triggered it: ``init`` or ``maintenance``."),
    )
