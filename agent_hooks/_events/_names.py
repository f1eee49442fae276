"""Event names: the canonical :class:`HookEvent` enum and every spelling of it.

Canonical names are PascalCase (``PreToolUse``). Docker Agent spells events in
snake_case (``pre_tool_use``, ``before_llm_call``); :func:`parse_event` accepts
either, and also ignores case and underscores, so ``PRE_TOOL_USE`` works too.
"""

from __future__ import annotations

import enum
import re

from .._base._errors import UnknownEventError

__all__ = ["HookEvent", "parse_event", "snake_name"]


class HookEvent(str, enum.Enum):
    """Every hook event agent_hooks knows, by canonical (PascalCase) name."""

    # Claude Code
    PRE_TOOL_USE = "PreToolUse"
    POST_TOOL_USE = "PostToolUse"
    POST_TOOL_USE_FAILURE = "PostToolUseFailure"
    POST_TOOL_BATCH = "PostToolBatch"
    PERMISSION_REQUEST = "PermissionRequest"
    PERMISSION_DENIED = "PermissionDenied"
    USER_PROMPT_SUBMIT = "UserPromptSubmit"
    USER_PROMPT_EXPANSION = "UserPromptExpansion"
    STOP = "Stop"
    STOP_FAILURE = "StopFailure"
    SUBAGENT_START = "SubagentStart"
    SUBAGENT_STOP = "SubagentStop"
    SESSION_START = "SessionStart"
    SESSION_END = "SessionEnd"
    SETUP = "Setup"
    NOTIFICATION = "Notification"
    PRE_COMPACT = "PreCompact"
    POST_COMPACT = "PostCompact"
    CONFIG_CHANGE = "ConfigChange"
    DIRECTORY_ADDED = "DirectoryAdded"
    FILE_CHANGED = "FileChanged"
    CWD_CHANGED = "CwdChanged"
    INSTRUCTIONS_LOADED = "InstructionsLoaded"
    ELICITATION = "Elicitation"
    ELICITATION_RESULT = "ElicitationResult"
    TEAMMATE_IDLE = "TeammateIdle"
    TASK_CREATED = "TaskCreated"
    TASK_COMPLETED = "TaskCompleted"
    WORKTREE_CREATE = "WorktreeCreate"
    WORKTREE_REMOVE = "WorktreeRemove"
    MESSAGE_DISPLAY = "MessageDisplay"
    PRE_MODEL_SWITCH = "PreModelSwitch"
    POST_MODEL_SWITCH = "PostModelSwitch"
    PRE_SKILL_SHELL_COMMAND = "PreSkillShellCommand"
    # Docker Agent
    TOOL_RESPONSE_TRANSFORM = "ToolResponseTransform"
    TOOL_INPUT_TRANSFORM = "ToolInputTransform"
    TOOL_GUARD = "ToolGuard"
    USER_STEERING_MESSAGES_SUBMIT = "UserSteeringMessagesSubmit"
    USER_FOLLOWUP_SUBMIT = "UserFollowupSubmit"
    TURN_START = "TurnStart"
    TURN_END = "TurnEnd"
    BEFORE_LLM_CALL = "BeforeLLMCall"
    AFTER_LLM_CALL = "AfterLLMCall"
    BEFORE_COMPACTION = "BeforeCompaction"
    AFTER_COMPACTION = "AfterCompaction"
    ON_USER_INPUT = "OnUserInput"
    ON_ERROR = "OnError"
    ON_MAX_ITERATIONS = "OnMaxIterations"
    ON_AGENT_SWITCH = "OnAgentSwitch"
    ON_SESSION_RESUME = "OnSessionResume"
    ON_TOOL_APPROVAL_DECISION = "OnToolApprovalDecision"
    # Codex
    INTERRUPT = "Interrupt"
    # Gemini CLI, Cursor, GitHub Copilot (their moments no other harness names)
    BEFORE_TOOL_SELECTION = "BeforeToolSelection"
    AFTER_MODEL_CHUNK = "AfterModelChunk"
    AFTER_AGENT_THOUGHT = "AfterAgentThought"
    USER_PROMPT_TRANSFORMED = "UserPromptTransformed"
    WORKSPACE_OPEN = "WorkspaceOpen"

    def __str__(self) -> str:
        return self.value

    @property
    def snake(self) -> str:
        """The Docker Agent (snake_case) spelling: ``pre_tool_use``, ``before_llm_call``."""
        return _SNAKE[self]


def snake_name(name: str) -> str:
    """Turn a PascalCase name into snake_case, keeping acronyms whole (``BeforeLLMCall`` -> ``before_llm_call``)."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    return s.lower()


_SNAKE: dict[HookEvent, str] = {e: snake_name(e.value) for e in HookEvent}
"""Every event's Docker Agent (snake_case) spelling."""


def _fold(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


_BY_FOLDED: dict[str, HookEvent] = {_fold(e.value): e for e in HookEvent}


def event_named(name: object) -> HookEvent | None:
    """The :class:`HookEvent` any spelling of ``name`` stands for (as :func:`parse_event`
    reads it), else ``None``, with no suggestions worked out."""
    if isinstance(name, HookEvent):
        return name
    return _BY_FOLDED.get(_fold(name)) if isinstance(name, str) else None


def parse_event(name: str | HookEvent) -> HookEvent:
    """Return the :class:`HookEvent` for any spelling of an event name.

    Accepts the canonical name (``PreToolUse``), Docker Agent's snake_case
    (``pre_tool_use``), and any variant differing only in case, ``_`` or ``-``.

    Raises:
        UnknownEventError: the name matches no event; the message lists the
            closest known names.
    """
    found = event_named(name)
    if found is not None:
        return found
    if not isinstance(name, str):
        raise UnknownEventError(name)
    import difflib  # only for the error message

    candidates = [e.value for e in HookEvent] + list(_SNAKE.values())
    close = difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)
    if not close:
        folded = difflib.get_close_matches(_fold(name), list(_BY_FOLDED), n=3, cutoff=0.6)
        close = [_BY_FOLDED[f].value for f in folded]
    raise UnknownEventError(name, close)
