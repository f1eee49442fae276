"""ElicitationResult: its input and output classes.

The user answered an MCP elicitation; can override it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import ELICITATION_ID, MCP_SERVER_NAME, MODE, ElicitationAction

__all__ = ["ElicitationResultInput", "ElicitationResultOutput"]


@attrs.frozen(kw_only=True)
class ElicitationResultOutput(HookOutput):
    """Answer to ElicitationResult: override the user's response before it is sent back."""

    event: ClassVar[HookEvent | None] = HookEvent.ELICITATION_RESULT

    action: ElicitationAction | None = attrs.field(
        default=None,
        metadata=meta(
            "Overrides the user's action (``accept``, ``decline``, ``cancel``). Across "
            "handlers the most restrictive wins: decline > cancel > accept (an exit-2 "
            "block declines).",
            merge=Merge.RANK,
            rank=("decline", "cancel", "accept"),
        ),
    )
    content: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "Overrides the form field values; meaningful with ``accept``. The first handler "
            "that sets it wins.",
            merge=Merge.FIRST,
        ),
    )


@attrs.frozen(kw_only=True)
class ElicitationResultInput(HookInput[ElicitationResultOutput]):
    """The user answered an MCP elicitation; handlers may observe, change or block the
    answer before it goes back to the server. Matcher field: ``mcp_server_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.ELICITATION_RESULT
    output_type: ClassVar[type[HookOutput]] = ElicitationResultOutput

    mcp_server_name: str | None = attrs.field(default=None, metadata=meta(MCP_SERVER_NAME))
    action: str | None = attrs.field(
        default=None,
        metadata=meta("What the user did: ``accept``, ``decline`` or ``cancel``."),
    )
    content: Mapping[str, Any] | None = attrs.field(
        default=None, metadata=meta("The form field values the user submitted.")
    )
    mode: str | None = attrs.field(default=None, metadata=meta(MODE))
    elicitation_id: str | None = attrs.field(default=None, metadata=meta(ELICITATION_ID))
