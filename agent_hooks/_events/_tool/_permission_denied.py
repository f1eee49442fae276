"""PermissionDenied: its input and output classes.

After auto mode denied a tool call; can let the model retry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import TOOL_INPUT, TOOL_NAME, TOOL_USE_ID

__all__ = ["PermissionDeniedInput", "PermissionDeniedOutput"]


@attrs.frozen(kw_only=True)
class PermissionDeniedOutput(HookOutput):
    """Answer to PermissionDenied: tell the model it may retry the call."""

    event: ClassVar[HookEvent | None] = HookEvent.PERMISSION_DENIED

    retry: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``True`` adds a message telling the model it may retry the denied call (the "
            "denial itself stands). Any handler may turn it on.",
            merge=Merge.ANY,
        ),
    )


@attrs.frozen(kw_only=True)
class PermissionDeniedInput(HookInput[PermissionDeniedOutput]):
    """Auto mode's classifier denied a tool call. Matcher field: ``tool_name``.

    Not fired for manual denials, PreToolUse blocks or deny rules.
    """

    event: ClassVar[HookEvent] = HookEvent.PERMISSION_DENIED
    output_type: ClassVar[type[HookOutput]] = PermissionDeniedOutput

    tool_name: str = attrs.field(metadata=meta(TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(TOOL_USE_ID))
    reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why the call was denied: usually ``Blocked by classifier`` or the classifier's "
            "explanation; ``Classifier unavailable``; or text starting with ``Auto mode could "
            "not evaluate this action`` when there was no verdict."
        ),
    )
