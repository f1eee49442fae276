"""PreSkillShellCommand: its input and output classes.

Before a skill's or command's inline shell command runs as it loads; can refuse it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import TOOL_NAME, PermissionDecision

__all__ = ["PreSkillShellCommandInput", "PreSkillShellCommandOutput"]


@attrs.frozen(kw_only=True)
class PreSkillShellCommandOutput(HookOutput):
    """Answer to PreSkillShellCommand: let a skill's inline shell command run, or refuse it.

    Unlike PreToolUse, ``allow`` grants nothing (the command runs unless a hook refuses
    it), and ``deny``, ``ask`` and ``defer`` all keep the command from running, as does
    any ``updated_input``: :attr:`keeps_command_from_running` says whether the answer
    does (:attr:`Decision.blocked <agent_hooks.Decision.blocked>` is true for ``deny``
    only).
    """

    event: ClassVar[HookEvent | None] = HookEvent.PRE_SKILL_SHELL_COMMAND

    permission_decision: PermissionDecision | None = attrs.field(
        default=None,
        metadata=meta(
            "``allow`` adds nothing: the command runs unless a hook refuses it. ``deny``, "
            "``ask`` and ``defer`` all keep it from running (Claude Code 2.1.332). Across "
            "handlers the most restrictive wins: deny > defer > ask > allow.",
            merge=Merge.RANK,
            rank=("deny", "defer", "ask", "allow"),
            companion="permission_decision_reason",
        ),
    )
    permission_decision_reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why the command was refused (or allowed). Taken from the first handler at the "
            "winning rank.",
            merge=Merge.COMPANION,
        ),
    )
    updated_input: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "Never applied: Claude Code does not rewrite a skill's inline command, and any "
            "value keeps the command from running. Passed on as it is (the last handler in "
            "configuration order that sets it wins), so a hook that answers with it refuses "
            "the command through agent_hooks as it would directly.",
            merge=Merge.LAST,
        ),
    )

    @property
    def keeps_command_from_running(self) -> bool:
        """Whether Claude Code would refuse the command on this answer: a ``deny``, ``ask``
        or ``defer`` decision, or any ``updated_input``."""
        return self.permission_decision in ("deny", "ask", "defer") or (
            self.updated_input is not None
        )


@attrs.frozen(kw_only=True)
class PreSkillShellCommandInput(HookInput[PreSkillShellCommandOutput]):
    """A skill's or command's inline shell command (``!`cmd``` in its body) is about to run
    while the skill loads (Claude Code 2.1.332 and later). Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.PRE_SKILL_SHELL_COMMAND
    output_type: ClassVar[type[HookOutput]] = PreSkillShellCommandOutput

    tool_name: str = attrs.field(
        metadata=meta(TOOL_NAME + " Claude Code sends ``Bash`` for inline shell commands.")
    )
    tool_input: Mapping[str, Any] = attrs.field(
        factory=dict,
        metadata=meta('The command, as a tool input (``{"command": "echo hi"}``).'),
    )
    tool_use_id: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Identifier of this command run (``<id>:inner:preamble-0``); no tool call of the "
            "model shares it."
        ),
    )
    command_name: str | None = attrs.field(
        default=None,
        metadata=meta("Name of the skill or command whose body holds the shell command."),
    )
    command_source: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Where that skill or command comes from (``projectSettings``, ``userSettings``, "
            "``plugin``, ...)."
        ),
    )
    invoked_by: str | None = attrs.field(
        default=None,
        metadata=meta("Who invoked the skill or command (``user`` when the user typed it)."),
    )
