"""StopFailure: its input and output classes.

The turn ended on an API error; output is ignored.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["StopFailureInput", "StopFailureOutput"]


@attrs.frozen(kw_only=True)
class StopFailureOutput(HookOutput):
    """Answer to StopFailure: nothing beyond the universal fields (only ``terminal_sequence``
    is acted on).
    """

    event: ClassVar[HookEvent | None] = HookEvent.STOP_FAILURE


@attrs.frozen(kw_only=True)
class StopFailureInput(HookInput[StopFailureOutput]):
    """The turn ended on an API error instead of a normal stop. Matcher field: ``error``."""

    event: ClassVar[HookEvent] = HookEvent.STOP_FAILURE
    output_type: ClassVar[type[HookOutput]] = StopFailureOutput

    error: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Error type: ``rate_limit``, ``overloaded``, ``authentication_failed``, "
            "``oauth_org_not_allowed``, ``billing_error``, ``invalid_request``, "
            "``model_not_found``, ``server_error``, ``max_output_tokens`` or ``unknown``."
        ),
    )
    error_details: str | None = attrs.field(
        default=None, metadata=meta("More about the error (``429 Too Many Requests``).")
    )
    last_assistant_message: str | None = attrs.field(
        default=None,
        metadata=meta("The rendered error text shown in the conversation, not model output."),
    )
