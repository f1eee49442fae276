"""OnUserInput: its input and output classes.

The agent waits for user input.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput
from .._names import HookEvent

__all__ = ["OnUserInputInput", "OnUserInputOutput"]


@attrs.frozen(kw_only=True)
class OnUserInputOutput(HookOutput):
    """Answer to OnUserInput: nothing beyond the universal fields (the event is observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_USER_INPUT


@attrs.frozen(kw_only=True)
class OnUserInputInput(HookInput[OnUserInputOutput]):
    """Docker Agent ``on_user_input``: the agent is waiting for the user's input.

    No fields of its own. Cannot block. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_USER_INPUT
    output_type: ClassVar[type[HookOutput]] = OnUserInputOutput
