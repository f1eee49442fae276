"""The typed input and output class of every hook event, by family and event.

* ``_tool``: tool calls, permission prompts, Docker Agent's tool transforms and guard;
* ``_prompt``: prompts, display, turns, model calls, stopping;
* ``_session``: session lifecycle, notifications, errors, environment changes;
* ``_compaction``: compaction before and after;
* ``_agents``: subagents, teams and tasks, agent switches, worktrees, MCP elicitation,
  tool-approval audit.

Each family is a package with one module per event (``_tool._pre_tool_use``): creating
attrs classes is a large part of a short-lived process's start-up, so a process that
handles one event (``agent-hooks run``) creates that event's classes and no others.
Names are imported on first access.

:data:`INPUT_TYPES` and :data:`OUTPUT_TYPES` map every :class:`HookEvent` to its classes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .._lazy import lazy_module
from .._model import HookInput, HookOutput
from .._names import HookEvent

if TYPE_CHECKING:
    from ._agents import (
        ElicitationAction,
    )
    from ._agents._elicitation import (
        ElicitationInput,
        ElicitationOutput,
    )
    from ._agents._elicitation_result import (
        ElicitationResultInput,
        ElicitationResultOutput,
    )
    from ._agents._on_agent_switch import (
        OnAgentSwitchInput,
        OnAgentSwitchOutput,
    )
    from ._agents._on_tool_approval_decision import (
        OnToolApprovalDecisionInput,
        OnToolApprovalDecisionOutput,
    )
    from ._agents._subagent_start import (
        SubagentStartInput,
        SubagentStartOutput,
    )
    from ._agents._subagent_stop import (
        SubagentStopInput,
        SubagentStopOutput,
    )
    from ._agents._task_completed import (
        TaskCompletedInput,
        TaskCompletedOutput,
    )
    from ._agents._task_created import (
        TaskCreatedInput,
        TaskCreatedOutput,
    )
    from ._agents._teammate_idle import (
        TeammateIdleInput,
        TeammateIdleOutput,
    )
    from ._agents._worktree_create import (
        WorktreeCreateInput,
        WorktreeCreateOutput,
    )
    from ._agents._worktree_remove import (
        WorktreeRemoveInput,
        WorktreeRemoveOutput,
    )
    from ._compaction._after_compaction import (
        AfterCompactionInput,
        AfterCompactionOutput,
    )
    from ._compaction._before_compaction import (
        BeforeCompactionInput,
        BeforeCompactionOutput,
    )
    from ._compaction._post_compact import (
        PostCompactInput,
        PostCompactOutput,
    )
    from ._compaction._pre_compact import (
        PreCompactInput,
        PreCompactOutput,
    )
    from ._prompt._after_llm_call import (
        AfterLLMCallInput,
        AfterLLMCallOutput,
        LLMUsage,
    )
    from ._prompt._background import (
        BackgroundTask,
        SessionCron,
    )
    from ._prompt._before_llm_call import (
        BeforeLLMCallInput,
        BeforeLLMCallOutput,
    )
    from ._prompt._interrupt import (
        InterruptInput,
        InterruptOutput,
    )
    from ._prompt._message_display import (
        MessageDisplayInput,
        MessageDisplayOutput,
    )
    from ._prompt._on_user_input import (
        OnUserInputInput,
        OnUserInputOutput,
    )
    from ._prompt._stop import (
        StopInput,
        StopOutput,
    )
    from ._prompt._stop_failure import (
        StopFailureInput,
        StopFailureOutput,
    )
    from ._prompt._turn_end import (
        TurnEndInput,
        TurnEndOutput,
    )
    from ._prompt._turn_start import (
        TurnStartInput,
        TurnStartOutput,
    )
    from ._prompt._user_followup_submit import (
        UserFollowupSubmitInput,
        UserFollowupSubmitOutput,
    )
    from ._prompt._user_prompt_expansion import (
        UserPromptExpansionInput,
        UserPromptExpansionOutput,
    )
    from ._prompt._user_prompt_submit import (
        UserPromptSubmitInput,
        UserPromptSubmitOutput,
    )
    from ._prompt._user_steering_messages_submit import (
        UserSteeringMessagesSubmitInput,
        UserSteeringMessagesSubmitOutput,
    )
    from ._session._config_change import (
        ConfigChangeInput,
        ConfigChangeOutput,
    )
    from ._session._cwd_changed import (
        CwdChangedInput,
        CwdChangedOutput,
    )
    from ._session._directory_added import (
        DirectoryAddedInput,
        DirectoryAddedOutput,
    )
    from ._session._file_changed import (
        FileChangedInput,
        FileChangedOutput,
    )
    from ._session._instructions_loaded import (
        InstructionsLoadedInput,
        InstructionsLoadedOutput,
    )
    from ._session._notification import (
        NotificationInput,
        NotificationOutput,
    )
    from ._session._on_error import (
        OnErrorInput,
        OnErrorOutput,
    )
    from ._session._on_max_iterations import (
        OnMaxIterationsInput,
        OnMaxIterationsOutput,
    )
    from ._session._on_session_resume import (
        OnSessionResumeInput,
        OnSessionResumeOutput,
    )
    from ._session._session_end import (
        SessionEndInput,
        SessionEndOutput,
    )
    from ._session._session_start import (
        SessionStartInput,
        SessionStartOutput,
    )
    from ._session._setup import (
        SetupInput,
        SetupOutput,
    )
    from ._tool import (
        PermissionDecision,
    )
    from ._tool._permission_denied import (
        PermissionDeniedInput,
        PermissionDeniedOutput,
    )
    from ._tool._permission_request import (
        PermissionRequestDecision,
        PermissionRequestInput,
        PermissionRequestOutput,
    )
    from ._tool._post_tool_batch import (
        BatchToolCall,
        PostToolBatchInput,
        PostToolBatchOutput,
    )
    from ._tool._post_tool_use import (
        PostToolUseInput,
        PostToolUseOutput,
    )
    from ._tool._post_tool_use_failure import (
        PostToolUseFailureInput,
        PostToolUseFailureOutput,
    )
    from ._tool._pre_tool_use import (
        PreToolUseInput,
        PreToolUseOutput,
    )
    from ._tool._tool_guard import (
        ToolGuardInput,
        ToolGuardOutput,
    )
    from ._tool._tool_input_transform import (
        ToolInputTransformInput,
        ToolInputTransformOutput,
    )
    from ._tool._tool_response_transform import (
        ToolResponseTransformInput,
        ToolResponseTransformOutput,
    )

__all__ = [
    "INPUT_TYPES",
    "OUTPUT_TYPES",
    "BatchToolCall",
    "PermissionDecision",
    "PermissionDeniedInput",
    "PermissionDeniedOutput",
    "PermissionRequestDecision",
    "PermissionRequestInput",
    "PermissionRequestOutput",
    "PostToolBatchInput",
    "PostToolBatchOutput",
    "PostToolUseFailureInput",
    "PostToolUseFailureOutput",
    "PostToolUseInput",
    "PostToolUseOutput",
    "PreToolUseInput",
    "PreToolUseOutput",
    "ToolGuardInput",
    "ToolGuardOutput",
    "ToolInputTransformInput",
    "ToolInputTransformOutput",
    "ToolResponseTransformInput",
    "ToolResponseTransformOutput",
    "AfterLLMCallInput",
    "AfterLLMCallOutput",
    "BackgroundTask",
    "BeforeLLMCallInput",
    "BeforeLLMCallOutput",
    "InterruptInput",
    "InterruptOutput",
    "LLMUsage",
    "MessageDisplayInput",
    "MessageDisplayOutput",
    "OnUserInputInput",
    "OnUserInputOutput",
    "SessionCron",
    "StopFailureInput",
    "StopFailureOutput",
    "StopInput",
    "StopOutput",
    "TurnEndInput",
    "TurnEndOutput",
    "TurnStartInput",
    "TurnStartOutput",
    "UserFollowupSubmitInput",
    "UserFollowupSubmitOutput",
    "UserPromptExpansionInput",
    "UserPromptExpansionOutput",
    "UserPromptSubmitInput",
    "UserPromptSubmitOutput",
    "UserSteeringMessagesSubmitInput",
    "UserSteeringMessagesSubmitOutput",
    "ConfigChangeInput",
    "ConfigChangeOutput",
    "CwdChangedInput",
    "CwdChangedOutput",
    "DirectoryAddedInput",
    "DirectoryAddedOutput",
    "FileChangedInput",
    "FileChangedOutput",
    "InstructionsLoadedInput",
    "InstructionsLoadedOutput",
    "NotificationInput",
    "NotificationOutput",
    "OnErrorInput",
    "OnErrorOutput",
    "OnMaxIterationsInput",
    "OnMaxIterationsOutput",
    "OnSessionResumeInput",
    "OnSessionResumeOutput",
    "SessionEndInput",
    "SessionEndOutput",
    "SessionStartInput",
    "SessionStartOutput",
    "SetupInput",
    "SetupOutput",
    "AfterCompactionInput",
    "AfterCompactionOutput",
    "BeforeCompactionInput",
    "BeforeCompactionOutput",
    "PostCompactInput",
    "PostCompactOutput",
    "PreCompactInput",
    "PreCompactOutput",
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

_MODULE_OF: dict[str, str] = {
    "BatchToolCall": "_tool._post_tool_batch",
    "PermissionDecision": "_tool",
    "PermissionDeniedInput": "_tool._permission_denied",
    "PermissionDeniedOutput": "_tool._permission_denied",
    "PermissionRequestDecision": "_tool._permission_request",
    "PermissionRequestInput": "_tool._permission_request",
    "PermissionRequestOutput": "_tool._permission_request",
    "PostToolBatchInput": "_tool._post_tool_batch",
    "PostToolBatchOutput": "_tool._post_tool_batch",
    "PostToolUseFailureInput": "_tool._post_tool_use_failure",
    "PostToolUseFailureOutput": "_tool._post_tool_use_failure",
    "PostToolUseInput": "_tool._post_tool_use",
    "PostToolUseOutput": "_tool._post_tool_use",
    "PreToolUseInput": "_tool._pre_tool_use",
    "PreToolUseOutput": "_tool._pre_tool_use",
    "ToolGuardInput": "_tool._tool_guard",
    "ToolGuardOutput": "_tool._tool_guard",
    "ToolInputTransformInput": "_tool._tool_input_transform",
    "ToolInputTransformOutput": "_tool._tool_input_transform",
    "ToolResponseTransformInput": "_tool._tool_response_transform",
    "ToolResponseTransformOutput": "_tool._tool_response_transform",
    "AfterLLMCallInput": "_prompt._after_llm_call",
    "AfterLLMCallOutput": "_prompt._after_llm_call",
    "BackgroundTask": "_prompt._background",
    "BeforeLLMCallInput": "_prompt._before_llm_call",
    "BeforeLLMCallOutput": "_prompt._before_llm_call",
    "InterruptInput": "_prompt._interrupt",
    "InterruptOutput": "_prompt._interrupt",
    "LLMUsage": "_prompt._after_llm_call",
    "MessageDisplayInput": "_prompt._message_display",
    "MessageDisplayOutput": "_prompt._message_display",
    "OnUserInputInput": "_prompt._on_user_input",
    "OnUserInputOutput": "_prompt._on_user_input",
    "SessionCron": "_prompt._background",
    "StopFailureInput": "_prompt._stop_failure",
    "StopFailureOutput": "_prompt._stop_failure",
    "StopInput": "_prompt._stop",
    "StopOutput": "_prompt._stop",
    "TurnEndInput": "_prompt._turn_end",
    "TurnEndOutput": "_prompt._turn_end",
    "TurnStartInput": "_prompt._turn_start",
    "TurnStartOutput": "_prompt._turn_start",
    "UserFollowupSubmitInput": "_prompt._user_followup_submit",
    "UserFollowupSubmitOutput": "_prompt._user_followup_submit",
    "UserPromptExpansionInput": "_prompt._user_prompt_expansion",
    "UserPromptExpansionOutput": "_prompt._user_prompt_expansion",
    "UserPromptSubmitInput": "_prompt._user_prompt_submit",
    "UserPromptSubmitOutput": "_prompt._user_prompt_submit",
    "UserSteeringMessagesSubmitInput": "_prompt._user_steering_messages_submit",
    "UserSteeringMessagesSubmitOutput": "_prompt._user_steering_messages_submit",
    "ConfigChangeInput": "_session._config_change",
    "ConfigChangeOutput": "_session._config_change",
    "CwdChangedInput": "_session._cwd_changed",
    "CwdChangedOutput": "_session._cwd_changed",
    "DirectoryAddedInput": "_session._directory_added",
    "DirectoryAddedOutput": "_session._directory_added",
    "FileChangedInput": "_session._file_changed",
    "FileChangedOutput": "_session._file_changed",
    "InstructionsLoadedInput": "_session._instructions_loaded",
    "InstructionsLoadedOutput": "_session._instructions_loaded",
    "NotificationInput": "_session._notification",
    "NotificationOutput": "_session._notification",
    "OnErrorInput": "_session._on_error",
    "OnErrorOutput": "_session._on_error",
    "OnMaxIterationsInput": "_session._on_max_iterations",
    "OnMaxIterationsOutput": "_session._on_max_iterations",
    "OnSessionResumeInput": "_session._on_session_resume",
    "OnSessionResumeOutput": "_session._on_session_resume",
    "SessionEndInput": "_session._session_end",
    "SessionEndOutput": "_session._session_end",
    "SessionStartInput": "_session._session_start",
    "SessionStartOutput": "_session._session_start",
    "SetupInput": "_session._setup",
    "SetupOutput": "_session._setup",
    "AfterCompactionInput": "_compaction._after_compaction",
    "AfterCompactionOutput": "_compaction._after_compaction",
    "BeforeCompactionInput": "_compaction._before_compaction",
    "BeforeCompactionOutput": "_compaction._before_compaction",
    "PostCompactInput": "_compaction._post_compact",
    "PostCompactOutput": "_compaction._post_compact",
    "PreCompactInput": "_compaction._pre_compact",
    "PreCompactOutput": "_compaction._pre_compact",
    "ElicitationAction": "_agents",
    "ElicitationInput": "_agents._elicitation",
    "ElicitationOutput": "_agents._elicitation",
    "ElicitationResultInput": "_agents._elicitation_result",
    "ElicitationResultOutput": "_agents._elicitation_result",
    "OnAgentSwitchInput": "_agents._on_agent_switch",
    "OnAgentSwitchOutput": "_agents._on_agent_switch",
    "OnToolApprovalDecisionInput": "_agents._on_tool_approval_decision",
    "OnToolApprovalDecisionOutput": "_agents._on_tool_approval_decision",
    "SubagentStartInput": "_agents._subagent_start",
    "SubagentStartOutput": "_agents._subagent_start",
    "SubagentStopInput": "_agents._subagent_stop",
    "SubagentStopOutput": "_agents._subagent_stop",
    "TaskCompletedInput": "_agents._task_completed",
    "TaskCompletedOutput": "_agents._task_completed",
    "TaskCreatedInput": "_agents._task_created",
    "TaskCreatedOutput": "_agents._task_created",
    "TeammateIdleInput": "_agents._teammate_idle",
    "TeammateIdleOutput": "_agents._teammate_idle",
    "WorktreeCreateInput": "_agents._worktree_create",
    "WorktreeCreateOutput": "_agents._worktree_create",
    "WorktreeRemoveInput": "_agents._worktree_remove",
    "WorktreeRemoveOutput": "_agents._worktree_remove",
}
"""Which family module defines each public name."""


__getattr__, __dir__ = lazy_module(__name__, globals(), _MODULE_OF, __all__)


class _EventTypes(Mapping[HookEvent, Any]):
    """A read-only mapping from every event to its input (or output) class,
    importing each family module on first use."""

    def __init__(self, output: bool) -> None:
        self._output = output

    def __getitem__(self, event: HookEvent) -> Any:
        cls = __getattr__(f"{HookEvent(event).value}Input")
        return cls.output_type if self._output else cls

    def __iter__(self) -> Iterator[HookEvent]:
        return iter(HookEvent)

    def __len__(self) -> int:
        return len(HookEvent)


INPUT_TYPES: Mapping[HookEvent, type[HookInput[Any]]] = _EventTypes(output=False)
"""The input class of every event."""

OUTPUT_TYPES: Mapping[HookEvent, type[HookOutput]] = _EventTypes(output=True)
"""The output class of every event (each input class's ``output_type``)."""
