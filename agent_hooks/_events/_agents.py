"""Agent events: subagents, agent teams and tasks, agent switches, worktrees, MCP
elicitation, and the tool-approval audit record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from ._prompt import BackgroundTask, SessionCron

__all__ = [
    "ElicitationAction",
    "ElicitationInput",
    "ElicitationOutput",
    "ElicitationResultInput",
    "ElicitationResultOutput",
    "OnAgentSwitchInput",
    "OnAgentSwitchOutput",
    "OnToolApprovalDecisionInput",
    "OnToolApprovalDecisionOutput",
    "SubagentStartInput",
    "SubagentStartOutput",
    "SubagentStopInput",
    "SubagentStopOutput",
    "TaskCompletedInput",
    "TaskCompletedOutput",
    "TaskCreatedInput",
    "TaskCreatedOutput",
    "TeammateIdleInput",
    "TeammateIdleOutput",
    "WorktreeCreateInput",
    "WorktreeCreateOutput",
    "WorktreeRemoveInput",
    "WorktreeRemoveOutput",
]

ElicitationAction = Literal["accept", "decline", "cancel"]

_TEAM_NAME = "Deprecated session-derived team name; hosts will stop sending it."
_TASK_ID = "Identifier of the task."
_TASK_SUBJECT = "Title of the task."
_TASK_DESCRIPTION = "Detailed description of the task, when there is one."
_MCP_SERVER_NAME = "Name of the MCP server that asked for input."
_MODE = "Elicitation mode: ``form`` (fill in fields) or ``url`` (open a browser URL)."
_ELICITATION_ID = "Identifier of the elicitation, shared by Elicitation and ElicitationResult."


# -------------------------------------------------------------- SubagentStart


@attrs.frozen(kw_only=True)
class SubagentStartOutput(HookOutput):
    """Answer to SubagentStart: context for the subagent. It cannot block its creation."""

    event: ClassVar[HookEvent | None] = HookEvent.SUBAGENT_START

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added to the subagent's context at the start of its conversation. "
            "Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class SubagentStartInput(HookInput[SubagentStartOutput]):
    """A subagent is spawned (Claude Code's Agent tool). Matcher field: ``agent_type``.

    No fields of its own: the envelope's ``agent_id`` identifies the new subagent and
    ``agent_type`` names it (``Explore``, ``my-plugin:reviewer``).
    """

    event: ClassVar[HookEvent] = HookEvent.SUBAGENT_START
    output_type: ClassVar[type[HookOutput]] = SubagentStartOutput


# --------------------------------------------------------------- SubagentStop


@attrs.frozen(kw_only=True)
class SubagentStopOutput(HookOutput):
    """Answer to SubagentStop: like Stop, ``decision: "block"`` with a ``reason`` keeps the
    subagent working (Deep Agents Code: context only).
    """

    event: ClassVar[HookEvent | None] = HookEvent.SUBAGENT_STOP

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Non-error feedback that keeps the subagent running so it can act on it. "
            "Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class SubagentStopInput(HookInput[SubagentStopOutput]):
    """A subagent finished responding (Docker Agent: a transferred task returned, a
    background agent or skill sub-session ended). Matcher field: ``agent_type``.

    The envelope's ``agent_id`` and ``agent_type`` identify the subagent.
    """

    event: ClassVar[HookEvent] = HookEvent.SUBAGENT_STOP
    output_type: ClassVar[type[HookOutput]] = SubagentStopOutput

    stop_hook_active: bool | None = attrs.field(
        default=None,
        metadata=meta("``True`` when the subagent is already continuing because of a stop hook."),
    )
    agent_transcript_path: str | None = attrs.field(
        default=None,
        metadata=meta("The subagent's own transcript (``transcript_path`` is the main session's)."),
    )
    last_assistant_message: str | None = attrs.field(
        default=None, metadata=meta("Text of the subagent's final response.")
    )
    background_tasks: Sequence[BackgroundTask] | None = attrs.field(
        default=None,
        metadata=meta("Tasks in flight in the parent session (see Stop); empty when none."),
    )
    session_crons: Sequence[SessionCron] | None = attrs.field(
        default=None,
        metadata=meta("Scheduled wake-ups of the parent session (see Stop); empty when none."),
    )
    agent_name: str | None = attrs.field(
        default=None, metadata=meta("Docker Agent: name of the sub-agent that finished.")
    )
    parent_session_id: str | None = attrs.field(
        default=None, metadata=meta("Docker Agent: identifier of the parent session.")
    )
    stop_response: str | None = attrs.field(
        default=None,
        metadata=meta("Docker Agent: the sub-agent's final assistant message."),
    )


# --------------------------------------------------------------- TeammateIdle


@attrs.frozen(kw_only=True)
class TeammateIdleOutput(HookOutput):
    """Answer to TeammateIdle: ``continue: false`` stops the teammate; exit code 2 keeps it
    working with stderr as feedback.
    """

    event: ClassVar[HookEvent | None] = HookEvent.TEAMMATE_IDLE


@attrs.frozen(kw_only=True)
class TeammateIdleInput(HookInput[TeammateIdleOutput]):
    """An agent-team teammate is about to go idle after its turn. No matcher."""

    event: ClassVar[HookEvent] = HookEvent.TEAMMATE_IDLE
    output_type: ClassVar[type[HookOutput]] = TeammateIdleOutput

    teammate_name: str | None = attrs.field(
        default=None, metadata=meta("Name of the teammate about to go idle.")
    )
    team_name: str | None = attrs.field(default=None, metadata=meta(_TEAM_NAME))


# ---------------------------------------------------------------- TaskCreated


@attrs.frozen(kw_only=True)
class TaskCreatedOutput(HookOutput):
    """Answer to TaskCreated: ``decision: "block"`` deletes the task and returns ``reason`` to
    the model as the tool's error (``continue: false`` is ignored).
    """

    event: ClassVar[HookEvent | None] = HookEvent.TASK_CREATED


@attrs.frozen(kw_only=True)
class TaskCreatedInput(HookInput[TaskCreatedOutput]):
    """A task is being created with the ``TaskCreate`` tool. No matcher."""

    event: ClassVar[HookEvent] = HookEvent.TASK_CREATED
    output_type: ClassVar[type[HookOutput]] = TaskCreatedOutput

    task_id: str | None = attrs.field(default=None, metadata=meta(_TASK_ID))
    task_subject: str | None = attrs.field(default=None, metadata=meta(_TASK_SUBJECT))
    task_description: str | None = attrs.field(default=None, metadata=meta(_TASK_DESCRIPTION))
    teammate_name: str | None = attrs.field(
        default=None, metadata=meta("Name of the teammate creating the task, when there is one.")
    )
    team_name: str | None = attrs.field(default=None, metadata=meta(_TEAM_NAME))


# -------------------------------------------------------------- TaskCompleted


@attrs.frozen(kw_only=True)
class TaskCompletedOutput(HookOutput):
    """Answer to TaskCompleted: exit code 2 keeps the task open with stderr as feedback;
    ``continue: false`` stops the teammate.
    """

    event: ClassVar[HookEvent | None] = HookEvent.TASK_COMPLETED


@attrs.frozen(kw_only=True)
class TaskCompletedInput(HookInput[TaskCompletedOutput]):
    """A task is being marked completed (TaskUpdate, or a teammate ending its turn with
    tasks in progress). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.TASK_COMPLETED
    output_type: ClassVar[type[HookOutput]] = TaskCompletedOutput

    task_id: str | None = attrs.field(default=None, metadata=meta(_TASK_ID))
    task_subject: str | None = attrs.field(default=None, metadata=meta(_TASK_SUBJECT))
    task_description: str | None = attrs.field(default=None, metadata=meta(_TASK_DESCRIPTION))
    teammate_name: str | None = attrs.field(
        default=None,
        metadata=meta("Name of the teammate completing the task, when there is one."),
    )
    team_name: str | None = attrs.field(default=None, metadata=meta(_TEAM_NAME))


# -------------------------------------------------------------- OnAgentSwitch


@attrs.frozen(kw_only=True)
class OnAgentSwitchOutput(HookOutput):
    """Answer to OnAgentSwitch: nothing beyond the universal fields (observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_AGENT_SWITCH


@attrs.frozen(kw_only=True)
class OnAgentSwitchInput(HookInput[OnAgentSwitchOutput]):
    """Docker Agent ``on_agent_switch``: the runtime moved the active agent (transfer, handoff
    or return). Cannot block. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_AGENT_SWITCH
    output_type: ClassVar[type[HookOutput]] = OnAgentSwitchOutput

    from_agent: str | None = attrs.field(
        default=None, metadata=meta("Name of the agent being left.")
    )
    to_agent: str | None = attrs.field(
        default=None, metadata=meta("Name of the agent taking over.")
    )
    agent_switch_kind: str | None = attrs.field(
        default=None,
        metadata=meta(
            "What caused the switch: ``transfer_task``, ``transfer_task_return``, "
            "``handoff`` or ``force_handoff``."
        ),
    )


# ------------------------------------------------------------- WorktreeCreate


@attrs.frozen(kw_only=True)
class WorktreeCreateOutput(HookOutput):
    """Answer to WorktreeCreate: the path of the worktree the handler created.

    A command handler in the Claude dialect prints the path as its last stdout line; HTTP
    and Python handlers return ``worktree_path``. Docker Agent has already created the
    worktree and takes ``decision: "block"`` / ``continue: false`` to abort the run.
    """

    event: ClassVar[HookEvent | None] = HookEvent.WORKTREE_CREATE

    worktree_path: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Path of the created worktree directory (Claude Code: replaces ``git worktree``; "
            "no path fails the creation). The first handler that sets it wins.",
            merge=Merge.FIRST,
        ),
    )
    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Docker Agent: text (plain stdout too) surfaced to the CLI user, not to a "
            "conversation, since the session does not exist yet. Collected from every "
            "handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class WorktreeCreateInput(HookInput[WorktreeCreateOutput]):
    """A worktree is being created (Claude Code: the hook creates it; Docker Agent
    ``worktree_create``: ``--worktree`` has just created it, before the session starts).
    No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.WORKTREE_CREATE
    output_type: ClassVar[type[HookOutput]] = WorktreeCreateOutput

    name: str | None = attrs.field(
        default=None,
        metadata=meta("Claude Code: slug for the new worktree (``bold-oak-a3f2``)."),
    )
    worktree_path: str | None = attrs.field(
        default=None,
        metadata=meta("Docker Agent: path of the new worktree (also the handler's ``cwd``)."),
    )
    worktree_branch: str | None = attrs.field(
        default=None, metadata=meta("Docker Agent: branch checked out in the new worktree.")
    )
    worktree_source_dir: str | None = attrs.field(
        default=None,
        metadata=meta("Docker Agent: root of the repository the worktree was made from."),
    )


# ------------------------------------------------------------- WorktreeRemove


@attrs.frozen(kw_only=True)
class WorktreeRemoveOutput(HookOutput):
    """Answer to WorktreeRemove: nothing beyond the universal fields (they are discarded)."""

    event: ClassVar[HookEvent | None] = HookEvent.WORKTREE_REMOVE


@attrs.frozen(kw_only=True)
class WorktreeRemoveInput(HookInput[WorktreeRemoveOutput]):
    """A worktree is being removed (cleanup counterpart of WorktreeCreate). Cannot block.
    No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.WORKTREE_REMOVE
    output_type: ClassVar[type[HookOutput]] = WorktreeRemoveOutput

    worktree_path: str | None = attrs.field(
        default=None,
        metadata=meta("Absolute path of the worktree being removed (as WorktreeCreate returned)."),
    )


# ---------------------------------------------------------------- Elicitation


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

    mcp_server_name: str | None = attrs.field(default=None, metadata=meta(_MCP_SERVER_NAME))
    message: str | None = attrs.field(default=None, metadata=meta("What the server asks the user."))
    mode: str | None = attrs.field(default=None, metadata=meta(_MODE))
    url: str | None = attrs.field(
        default=None, metadata=meta("For ``url`` mode: the URL the user should open.")
    )
    elicitation_id: str | None = attrs.field(default=None, metadata=meta(_ELICITATION_ID))
    requested_schema: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta("For ``form`` mode: JSON Schema of the fields the server wants."),
    )


# ---------------------------------------------------------- ElicitationResult


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

    mcp_server_name: str | None = attrs.field(default=None, metadata=meta(_MCP_SERVER_NAME))
    action: str | None = attrs.field(
        default=None,
        metadata=meta("What the user did: ``accept``, ``decline`` or ``cancel``."),
    )
    content: Mapping[str, Any] | None = attrs.field(
        default=None, metadata=meta("The form field values the user submitted.")
    )
    mode: str | None = attrs.field(default=None, metadata=meta(_MODE))
    elicitation_id: str | None = attrs.field(default=None, metadata=meta(_ELICITATION_ID))


# ------------------------------------------------------ OnToolApprovalDecision


@attrs.frozen(kw_only=True)
class OnToolApprovalDecisionOutput(HookOutput):
    """Answer to OnToolApprovalDecision: nothing beyond the universal fields (observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_TOOL_APPROVAL_DECISION


@attrs.frozen(kw_only=True)
class OnToolApprovalDecisionInput(HookInput[OnToolApprovalDecisionOutput]):
    """Docker Agent ``on_tool_approval_decision``: the approval chain (permissions, yolo,
    read-only, pre_tool_use hooks, the interactive prompt) settled a tool call. An audit
    record of who approved what. Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_TOOL_APPROVAL_DECISION
    output_type: ClassVar[type[HookOutput]] = OnToolApprovalDecisionOutput

    tool_name: str = attrs.field(metadata=meta("Name of the tool the decision is about."))
    tool_input: Mapping[str, Any] = attrs.field(
        factory=dict, metadata=meta("Arguments of the tool call.")
    )
    tool_use_id: str | None = attrs.field(
        default=None, metadata=meta("Identifier of the tool call.")
    )
    approval_decision: str | None = attrs.field(
        default=None, metadata=meta("The verdict: ``allow``, ``deny`` or ``canceled``.")
    )
    approval_source: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Which stage decided, a stable classifier such as ``yolo``, "
            "``session_permissions_allow``, ``session_permissions_deny``, "
            "``team_permissions_allow``, ``team_permissions_deny``, "
            "``pre_tool_use_hook_allow``, ``pre_tool_use_hook_deny``, ``readonly_hint``, "
            "``user_approved``, ``user_approved_session``, ``user_approved_safe``, "
            "``user_approved_tool``, ``user_rejected``, ``context_canceled``."
        ),
    )
