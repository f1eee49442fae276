"""Elicitation: its input and output classes.

An MCP server asks the user for input; can answer or decline.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import ELICITATION_ID, MCP_SERVER_NAME, MODE, ElicitationAction

__all__ = ["ElicitationInput", "ElicitationOutput"]


@attrs.frozen(kw_only=True)
class ElicitationOutput(HookOutput):
    """Answer to Elicitation: respond for the user and skip the dialog, or say nothing."""

    event: ClassVar[HookEvent | None] = HookEvent.ELICITATION

    action: ElicitationAction | None = attrs.field(
        default=None,
        metadata=meta(
            "``accept``, ``decline`` or ``cancel`` the request. Across handlers the most "
            "restrictive wins: decline > cancel > accept (an exit-2 block declines).",
            merge=Merge.RANK,
            rank=("decline", "cancel", "accept"),
        ),
    )
    content: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "Form field values to submit; only used with ``accept``. The first handler that "
            "sets it wins.",
            merge=Merge.FIRST,
        ),
    )


@attrs.frozen(kw_only=True)
class ElicitationInput(HookInput[ElicitationOutput]):
    """An MCP server asks for user input mid-task. Matcher field: ``mcp_server_name``."""

    event: ClassVar[HookEvent] = HookEvent.ELICITATION
    output_type: ClassVar[type[HookOutput]] = ElicitationOutput

    mcp_server_name: str | None = attrs.field(default=None, metadata=meta(MCP_SERVER_NAME))
    message: str | None = attrs.field(default=None, metadata=meta("What the server asks the user."))
    mode: str | None = attrs.field(default=None, metadata=meta(MODE))
    url: str | None = attrs.field(
        default=None, metadata=meta("For ``url`` mode: the URL the user should open.")
    )
    elicitation_id: str | None = attrs.field(default=None, metadata=meta(ELICITATION_ID))
    requested_schema: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta("For ``form`` mode: JSON Schema of the fields the server wants."),
    )
