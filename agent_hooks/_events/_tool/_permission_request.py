"""PermissionRequest: its input and output classes.

Before the user is asked for permission; can grant or refuse.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import AGENT_NAME, METADATA, TOOL_INPUT, TOOL_NAME, TOOL_USE_ID

__all__ = ["PermissionRequestDecision", "PermissionRequestInput", "PermissionRequestOutput"]


@attrs.frozen(kw_only=True)
class PermissionRequestDecision:
    """The ``decision`` object a PermissionRequest handler answers with."""

    behavior: Literal["allow", "deny"] = attrs.field(
        metadata=meta("``allow`` grants the permission, ``deny`` refuses it.")
    )
    updated_input: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta("For allow: replaces the whole tool input before the call runs."),
    )
    updated_permissions: Sequence[Mapping[str, Any]] | None = attrs.field(
        default=None,
        metadata=meta(
            "For allow: permission update entries to apply (``addRules``, ``setMode``, ...)."
        ),
    )
    message: str | None = attrs.field(
        default=None, metadata=meta("For deny: tells the model why the permission was denied.")
    )
    interrupt: bool | None = attrs.field(
        default=None, metadata=meta("For deny: ``True`` also stops the agent.")
    )


@attrs.frozen(kw_only=True)
class PermissionRequestOutput(HookOutput):
    """Answer to PermissionRequest: grant or refuse on the user's behalf, or say nothing."""

    event: ClassVar[HookEvent | None] = HookEvent.PERMISSION_REQUEST

    permission_decision: PermissionRequestDecision | None = attrs.field(
        default=None,
        metadata=meta(
            "The decision object (wire name ``decision`` inside ``hookSpecificOutput``). "
            "Ranked by its ``behavior``: any deny wins; else any allow; else the host asks "
            "the user. The first handler's object at the winning behaviour is kept. Exit code "
            "2 is not honoured in the claude dialect (the JSON alone decides); in the others "
            "it becomes ``behavior: deny`` with stderr as ``message``.",
            wire="decision",
            merge=Merge.RANK,
            rank=("deny", "allow"),
            rank_by="behavior",
            companion="message",
        ),
    )
    metadata: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            METADATA + " Docker Agent accepts it even when no decision is returned.",
            merge=Merge.UPDATE,
        ),
    )


@attrs.frozen(kw_only=True)
class PermissionRequestInput(HookInput[PermissionRequestOutput]):
    """The host is about to ask the user for permission. Matcher field: ``tool_name``.

    Docker Agent fires it (``permission_request``) only when neither the safety mode nor a
    permission rule decided the call.
    """

    event: ClassVar[HookEvent] = HookEvent.PERMISSION_REQUEST
    output_type: ClassVar[type[HookOutput]] = PermissionRequestOutput

    tool_name: str = attrs.field(metadata=meta(TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(TOOL_INPUT))
    tool_use_id: str | None = attrs.field(
        default=None,
        metadata=meta(TOOL_USE_ID + " Claude Code omits it here; Docker Agent sends it."),
    )
    permission_suggestions: Sequence[Mapping[str, Any]] | None = attrs.field(
        default=None,
        metadata=meta(
            'The "always allow" options the user would see in the permission dialog '
            '(permission update entries such as ``{"type": "addRules", ...}``).'
        ),
    )
    agent_name: str | None = attrs.field(default=None, metadata=meta(AGENT_NAME))
