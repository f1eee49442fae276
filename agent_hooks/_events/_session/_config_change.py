"""ConfigChange: its input and output classes.

A configuration file changed; can block the change.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, meta
from .._names import HookEvent

__all__ = ["ConfigChangeInput", "ConfigChangeOutput"]


@attrs.frozen(kw_only=True)
class ConfigChangeOutput(HookOutput):
    """Answer to ConfigChange: ``decision: "block"`` keeps the new settings from applying
    (ignored for ``policy_settings``).
    """

    event: ClassVar[HookEvent | None] = HookEvent.CONFIG_CHANGE


@attrs.frozen(kw_only=True)
class ConfigChangeInput(HookInput[ConfigChangeOutput]):
    """A settings, managed-policy or skill file changed during the session.

    Matcher field: ``source``.
    """

    event: ClassVar[HookEvent] = HookEvent.CONFIG_CHANGE
    output_type: ClassVar[type[HookOutput]] = ConfigChangeOutput

    source: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Which configuration changed: ``user_settings``, ``project_settings``, "
            "``local_settings``, ``policy_settings`` or ``skills``."
        ),
    )
    file_path: str | None = attrs.field(
        default=None, metadata=meta("Path of the file that changed.")
    )
