"""UserPromptExpansion: its input and output classes.

A typed command expands into a prompt; can block the expansion.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = ["UserPromptExpansionInput", "UserPromptExpansionOutput"]


@attrs.frozen(kw_only=True)
class UserPromptExpansionOutput(HookOutput):
    """Answer to UserPromptExpansion: block the command (``decision: "block"``), optionally
    without echoing the prompt, or add context."""

    event: ClassVar[HookEvent | None] = HookEvent.USER_PROMPT_EXPANSION

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added to the model's context alongside the expanded prompt. Collected "
            "from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )
    suppress_original_prompt: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "With a block: leave the original prompt text out of the block message shown "
            "to the user. Any handler may turn it on.",
            merge=Merge.ANY,
        ),
    )


@attrs.frozen(kw_only=True)
class UserPromptExpansionInput(HookInput[UserPromptExpansionOutput]):
    """A user-typed command (``/skill``, custom command, MCP prompt) is expanding into a prompt.

    Fires on the direct path that PreToolUse on the ``Skill`` tool does not see.
    Matcher field: ``command_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.USER_PROMPT_EXPANSION
    output_type: ClassVar[type[HookOutput]] = UserPromptExpansionOutput

    expansion_type: str | None = attrs.field(
        default=None,
        metadata=meta(
            "What expands: ``slash_command`` (skills and custom commands) or ``mcp_prompt`` "
            "(MCP server prompts)."
        ),
    )
    command_name: str | None = attrs.field(
        default=None, metadata=meta("Name of the command, without the slash (``deploy``).")
    )
    command_args: str | None = attrs.field(
        default=None, metadata=meta("Arguments typed after the command name, as one string.")
    )
    command_source: str | None = attrs.field(
        default=None,
        metadata=meta("Where the command comes from (``plugin``, ``project``, ``user``, ...)."),
    )
    prompt: str | None = attrs.field(
        default=None, metadata=meta("The original prompt as typed (``/deploy staging``).")
    )
