"""Where each event's typed classes live, and the event -> class mappings.

Events come in families (tool calls, prompts and turns, the session, compaction,
agents and tasks), each a package with one module per event named after the event
(``_tool._pre_tool_use``). :data:`FAMILIES` is the one table of which family each
event belongs to; a class is imported on first use, so a process that handles one
event creates that event's classes only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .._base._lazy import submodule
from ._model import HookInput, HookOutput
from ._names import HookEvent

__all__ = ["FAMILIES", "INPUT_TYPES", "OUTPUT_TYPES", "input_class"]

FAMILIES: Mapping[str, tuple[str, ...]] = {
    "_tool": (
        "PermissionDenied",
        "PermissionRequest",
        "PostToolBatch",
        "PostToolUse",
        "PostToolUseFailure",
        "PreSkillShellCommand",
        "PreToolUse",
        "ToolGuard",
        "ToolInputTransform",
        "ToolResponseTransform",
    ),
    "_prompt": (
        "AfterAgentThought",
        "AfterLLMCall",
        "AfterModelChunk",
        "BeforeLLMCall",
        "BeforeToolSelection",
        "Interrupt",
        "MessageDisplay",
        "OnUserInput",
        "PostModelSwitch",
        "PreModelSwitch",
        "Stop",
        "StopFailure",
        "TurnEnd",
        "TurnStart",
        "UserFollowupSubmit",
        "UserPromptExpansion",
        "UserPromptSubmit",
        "UserPromptTransformed",
        "UserSteeringMessagesSubmit",
    ),
    "_session": (
        "ConfigChange",
        "CwdChanged",
        "DirectoryAdded",
        "FileChanged",
        "InstructionsLoaded",
        "Notification",
        "OnError",
        "OnMaxIterations",
        "OnSessionResume",
        "SessionEnd",
        "SessionStart",
        "Setup",
        "WorkspaceOpen",
    ),
    "_compaction": (
        "AfterCompaction",
        "BeforeCompaction",
        "PostCompact",
        "PreCompact",
    ),
    "_agents": (
        "Elicitation",
        "ElicitationResult",
        "OnAgentSwitch",
        "OnToolApprovalDecision",
        "SubagentStart",
        "SubagentStop",
        "TaskCompleted",
        "TaskCreated",
        "TeammateIdle",
        "WorktreeCreate",
        "WorktreeRemove",
    ),
}
"""Family package -> the events whose classes it holds."""

_FAMILY_OF: dict[str, str] = {
    event: family for family, events in FAMILIES.items() for event in events
}


def input_class(event: HookEvent | str) -> type[HookInput[Any]]:
    """The input class of ``event`` (its ``output_type`` is the output class).

    Raises:
        ValueError: ``event`` is not a :class:`HookEvent` value.
    """
    found = _INPUT_CLASSES.get(event)  # (a HookEvent is its own str value)
    if found is None:
        member = HookEvent(event)
        name = member.value
        package = __package__ or "agent_hooks._events"
        module = submodule(package, f"{_FAMILY_OF[name]}._{member.snake}")
        found = _INPUT_CLASSES[member] = getattr(module, f"{name}Input")
    return found


_INPUT_CLASSES: dict[str, type[HookInput[Any]]] = {}
"""Event -> its input class, filled as each event's module is first imported."""


class _EventTypes(Mapping[HookEvent, Any]):
    """A read-only mapping from every event to its input (or output) class."""

    def __init__(self, output: bool) -> None:
        self._output = output

    def __getitem__(self, event: HookEvent) -> Any:
        cls = input_class(event)
        return cls.output_type if self._output else cls

    def __iter__(self) -> Iterator[HookEvent]:
        return iter(HookEvent)

    def __len__(self) -> int:
        return len(HookEvent)


INPUT_TYPES: Mapping[HookEvent, type[HookInput[Any]]] = _EventTypes(output=False)
"""The input class of every event."""

OUTPUT_TYPES: Mapping[HookEvent, type[HookOutput]] = _EventTypes(output=True)
"""The output class of every event (each input class's ``output_type``)."""
