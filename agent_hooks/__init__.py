"""agent_hooks: an async SDK for agent lifecycle hooks.

Register Python callbacks and shell-command hooks side by side through
:class:`HookMatcher` objects (the Claude Agent SDK's field names), dispatch typed
event inputs through a session, and get one typed decision per event::

    from agent_hooks import HookMatcher, HookRegistry, PreToolUseInput, PreToolUseOutput

    async def no_env(input: PreToolUseInput) -> PreToolUseOutput | None:
        if str(input.tool_input.get("file_path", "")).endswith(".env"):
            return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no .env")
        return None

    registry = HookRegistry({"PreToolUse": [HookMatcher(matcher="Edit|Write", hooks=[no_env])]})
    async with registry.session(session_id="s1") as session:
        decision = await session.dispatch(PreToolUseInput(tool_name="Edit", tool_input={...}))
        if decision.blocked: ...

The public names are the imports in the ``TYPE_CHECKING`` block below: that block is
the one list of them. At run time each name is imported from its module on first
use (the lazy map is read off that block), so ``import agent_hooks`` stays light.

Names that left the public list still import, with a ``DeprecationWarning`` naming
what to use instead: ``_DEPRECATED`` is the one table of them. They are not in
``__all__`` or ``dir()``.
"""

from __future__ import annotations

from ._base._lazy import install_lazy_exports
from ._base._version import VERSION as __version__  # noqa: F401 (the package version)

TYPE_CHECKING = False  # (typing's constant without importing typing: see _base/_lazy.py)

_LOAD = "agent_hooks.load(path, harness=...)"
_NO_REPLACEMENT = "nothing: it is internal"
_DEPRECATED = {  # name: (module, attribute, what to use instead)
    **{
        n: ("_config._compat", n, _LOAD)
        for n in (
            "load_claude",
            "load_claude_plugin",
            "load_claude_settings",
            "load_codex",
            "load_codex_dir",
            "load_codex_toml",
            "load_copilot",
            "load_copilot_dir",
            "load_cursor",
            "load_cursor_dir",
            "load_deepagents",
            "load_deepagents_dir",
            "load_docker",
            "load_docker_agent",
            "load_docker_dropin",
            "load_docker_dropins",
            "load_docker_settings",
            "load_gemini",
            "load_gemini_dir",
            "load_hel",
        )
    },
    "docker_cli_hooks": (
        "_config._compat",
        "docker_cli_hooks",
        "agent_hooks.discover(docker_cli_hooks=...)",
    ),
    # raw tables
    "PRECEDENCE": ("_config._common", "PRECEDENCE", "agent_hooks.discover(), which orders files"),
    "ECOSYSTEMS": ("_config._discover", "ECOSYSTEMS", "agent_hooks.discover(ecosystems=...)"),
    "FORMATS": ("_config._load", "FORMATS", _LOAD),
    "CAPABILITIES": ("_events._capabilities", "CAPABILITIES", _NO_REPLACEMENT),
    "INPUT_TYPES": ("_events._catalog", "INPUT_TYPES", "the classes by name (PreToolUseInput)"),
    "OUTPUT_TYPES": ("_events._catalog", "OUTPUT_TYPES", "the classes by name (PreToolUseOutput)"),
    "BUILTINS": ("_handlers._builtins", "BUILTINS", "agent_hooks.builtin(name, ...)"),
    # the capability table's and the kind table's parts, the compiled graph
    **{
        n: ("_events._capabilities", n, _NO_REPLACEMENT)
        for n in ("ContextLifetime", "EventSpec", "Exit2", "Rewrite", "capability")
    },
    "build_handler": ("_handlers._kinds", "build_handler", _LOAD),
    "command_kind": ("_handlers._kinds", "command_kind", "agent_hooks.default_kinds()"),
    "disabled_node": ("_handlers._kinds", "disabled_node", _NO_REPLACEMENT),
    "CompiledRegistry": ("_dispatch._compiled", "CompiledRegistry", "agent_hooks.HookRegistry"),
    # helpers of the entry points
    "detect_format": ("_config._load", "detect_format", "agent_hooks.load(path)"),
    "project_hook_files": ("_config._discover", "project_hook_files", "agent_hooks.discover()"),
    "default_trust_path": ("_config._trust", "default_trust_path", "agent_hooks.TrustStore().path"),
    "detect_dialect": ("_wire._detect", "detect_dialect", "agent_hooks.decode_payload(data)"),
    **{
        n: ("_wire._dialects", n, f'agent_hooks.get_dialect("{n.lower()}")')
        for n in ("CLAUDE", "CODEX", "COPILOT", "CURSOR", "DEEPAGENTS", "DOCKER", "GEMINI", "HEL")
    },
}

if TYPE_CHECKING or not install_lazy_exports(__name__, _DEPRECATED):
    from ._base._diagnostics import Diagnostic as Diagnostic
    from ._base._diagnostics import DiagnosticCode as DiagnosticCode
    from ._base._diagnostics import Severity as Severity
    from ._base._errors import AgentHooksError as AgentHooksError
    from ._base._errors import InvalidPayloadError as InvalidPayloadError
    from ._base._errors import RegistrationError as RegistrationError
    from ._base._errors import UnknownEventError as UnknownEventError
    from ._bridges._payload import BridgeResult as BridgeResult
    from ._bridges._payload import dispatch_payload as dispatch_payload
    from ._bridges._server import HookServer as HookServer
    from ._config._discover import discover as discover
    from ._config._load import load as load
    from ._config._plugin import Plugin as Plugin
    from ._config._snapshot import ConfigChanges as ConfigChanges
    from ._config._snapshot import FileChange as FileChange
    from ._config._snapshot import HandlerRef as HandlerRef
    from ._config._snapshot import LoadedConfig as LoadedConfig
    from ._config._snapshot import LoadedFile as LoadedFile
    from ._config._snapshot import diff as diff
    from ._config._snapshot import reload as reload
    from ._config._trust import TrustPolicy as TrustPolicy
    from ._config._trust import TrustStore as TrustStore
    from ._config._trust import TrustStoreError as TrustStoreError
    from ._dispatch._audit import DecisionLog as DecisionLog
    from ._dispatch._audit import DecisionLogObserver as DecisionLogObserver
    from ._dispatch._audit import DecisionSink as DecisionSink
    from ._dispatch._compiled import Execution as Execution
    from ._dispatch._decision import Decision as Decision
    from ._dispatch._lifecycle import PermissionCallback as PermissionCallback
    from ._dispatch._lifecycle import Tool as Tool
    from ._dispatch._observe import DispatchInfo as DispatchInfo
    from ._dispatch._observe import LoggingObserver as LoggingObserver
    from ._dispatch._observe import Observer as Observer
    from ._dispatch._outcomes import PermissionAnswer as PermissionAnswer
    from ._dispatch._outcomes import PermissionPrompt as PermissionPrompt
    from ._dispatch._outcomes import PromptOutcome as PromptOutcome
    from ._dispatch._outcomes import StopOutcome as StopOutcome
    from ._dispatch._outcomes import ToolCallOutcome as ToolCallOutcome
    from ._dispatch._outcomes import TurnOutcome as TurnOutcome
    from ._dispatch._registry import HookMatcher as HookMatcher
    from ._dispatch._registry import HookRegistry as HookRegistry
    from ._dispatch._registry import MatcherGroup as MatcherGroup
    from ._dispatch._registry import Source as Source
    from ._dispatch._registry import SourcedGroups as SourcedGroups
    from ._dispatch._session import Session as Session
    from ._events._agents import ElicitationAction as ElicitationAction
    from ._events._agents._elicitation import ElicitationInput as ElicitationInput
    from ._events._agents._elicitation import ElicitationOutput as ElicitationOutput
    from ._events._agents._elicitation_result import (
        ElicitationResultInput as ElicitationResultInput,
    )
    from ._events._agents._elicitation_result import (
        ElicitationResultOutput as ElicitationResultOutput,
    )
    from ._events._agents._on_agent_switch import OnAgentSwitchInput as OnAgentSwitchInput
    from ._events._agents._on_agent_switch import OnAgentSwitchOutput as OnAgentSwitchOutput
    from ._events._agents._on_tool_approval_decision import (
        OnToolApprovalDecisionInput as OnToolApprovalDecisionInput,
    )
    from ._events._agents._on_tool_approval_decision import (
        OnToolApprovalDecisionOutput as OnToolApprovalDecisionOutput,
    )
    from ._events._agents._subagent_start import SubagentStartInput as SubagentStartInput
    from ._events._agents._subagent_start import SubagentStartOutput as SubagentStartOutput
    from ._events._agents._subagent_stop import SubagentStopInput as SubagentStopInput
    from ._events._agents._subagent_stop import SubagentStopOutput as SubagentStopOutput
    from ._events._agents._task_completed import TaskCompletedInput as TaskCompletedInput
    from ._events._agents._task_completed import TaskCompletedOutput as TaskCompletedOutput
    from ._events._agents._task_created import TaskCreatedInput as TaskCreatedInput
    from ._events._agents._task_created import TaskCreatedOutput as TaskCreatedOutput
    from ._events._agents._teammate_idle import TeammateIdleInput as TeammateIdleInput
    from ._events._agents._teammate_idle import TeammateIdleOutput as TeammateIdleOutput
    from ._events._agents._worktree_create import WorktreeCreateInput as WorktreeCreateInput
    from ._events._agents._worktree_create import WorktreeCreateOutput as WorktreeCreateOutput
    from ._events._agents._worktree_remove import WorktreeRemoveInput as WorktreeRemoveInput
    from ._events._agents._worktree_remove import WorktreeRemoveOutput as WorktreeRemoveOutput
    from ._events._compaction._after_compaction import AfterCompactionInput as AfterCompactionInput
    from ._events._compaction._after_compaction import (
        AfterCompactionOutput as AfterCompactionOutput,
    )
    from ._events._compaction._before_compaction import (
        BeforeCompactionInput as BeforeCompactionInput,
    )
    from ._events._compaction._before_compaction import (
        BeforeCompactionOutput as BeforeCompactionOutput,
    )
    from ._events._compaction._post_compact import PostCompactInput as PostCompactInput
    from ._events._compaction._post_compact import PostCompactOutput as PostCompactOutput
    from ._events._compaction._pre_compact import PreCompactInput as PreCompactInput
    from ._events._compaction._pre_compact import PreCompactOutput as PreCompactOutput
    from ._events._model import HookInput as HookInput
    from ._events._model import HookOutput as HookOutput
    from ._events._names import HookEvent as HookEvent
    from ._events._names import parse_event as parse_event
    from ._events._prompt._after_agent_thought import (
        AfterAgentThoughtInput as AfterAgentThoughtInput,
    )
    from ._events._prompt._after_agent_thought import (
        AfterAgentThoughtOutput as AfterAgentThoughtOutput,
    )
    from ._events._prompt._after_llm_call import AfterLLMCallInput as AfterLLMCallInput
    from ._events._prompt._after_llm_call import AfterLLMCallOutput as AfterLLMCallOutput
    from ._events._prompt._after_llm_call import LLMUsage as LLMUsage
    from ._events._prompt._after_model_chunk import AfterModelChunkInput as AfterModelChunkInput
    from ._events._prompt._after_model_chunk import (
        AfterModelChunkOutput as AfterModelChunkOutput,
    )
    from ._events._prompt._background import BackgroundTask as BackgroundTask
    from ._events._prompt._background import SessionCron as SessionCron
    from ._events._prompt._before_llm_call import BeforeLLMCallInput as BeforeLLMCallInput
    from ._events._prompt._before_llm_call import BeforeLLMCallOutput as BeforeLLMCallOutput
    from ._events._prompt._before_tool_selection import (
        BeforeToolSelectionInput as BeforeToolSelectionInput,
    )
    from ._events._prompt._before_tool_selection import (
        BeforeToolSelectionOutput as BeforeToolSelectionOutput,
    )
    from ._events._prompt._before_tool_selection import ToolConfig as ToolConfig
    from ._events._prompt._interrupt import InterruptInput as InterruptInput
    from ._events._prompt._interrupt import InterruptOutput as InterruptOutput
    from ._events._prompt._message_display import MessageDisplayInput as MessageDisplayInput
    from ._events._prompt._message_display import MessageDisplayOutput as MessageDisplayOutput
    from ._events._prompt._on_user_input import OnUserInputInput as OnUserInputInput
    from ._events._prompt._on_user_input import OnUserInputOutput as OnUserInputOutput
    from ._events._prompt._post_model_switch import PostModelSwitchInput as PostModelSwitchInput
    from ._events._prompt._post_model_switch import PostModelSwitchOutput as PostModelSwitchOutput
    from ._events._prompt._pre_model_switch import PreModelSwitchInput as PreModelSwitchInput
    from ._events._prompt._pre_model_switch import PreModelSwitchOutput as PreModelSwitchOutput
    from ._events._prompt._stop import StopInput as StopInput
    from ._events._prompt._stop import StopOutput as StopOutput
    from ._events._prompt._stop_failure import StopFailureInput as StopFailureInput
    from ._events._prompt._stop_failure import StopFailureOutput as StopFailureOutput
    from ._events._prompt._turn_end import TurnEndInput as TurnEndInput
    from ._events._prompt._turn_end import TurnEndOutput as TurnEndOutput
    from ._events._prompt._turn_start import TurnStartInput as TurnStartInput
    from ._events._prompt._turn_start import TurnStartOutput as TurnStartOutput
    from ._events._prompt._user_followup_submit import (
        UserFollowupSubmitInput as UserFollowupSubmitInput,
    )
    from ._events._prompt._user_followup_submit import (
        UserFollowupSubmitOutput as UserFollowupSubmitOutput,
    )
    from ._events._prompt._user_prompt_expansion import (
        UserPromptExpansionInput as UserPromptExpansionInput,
    )
    from ._events._prompt._user_prompt_expansion import (
        UserPromptExpansionOutput as UserPromptExpansionOutput,
    )
    from ._events._prompt._user_prompt_submit import UserPromptSubmitInput as UserPromptSubmitInput
    from ._events._prompt._user_prompt_submit import (
        UserPromptSubmitOutput as UserPromptSubmitOutput,
    )
    from ._events._prompt._user_prompt_transformed import (
        UserPromptTransformedInput as UserPromptTransformedInput,
    )
    from ._events._prompt._user_prompt_transformed import (
        UserPromptTransformedOutput as UserPromptTransformedOutput,
    )
    from ._events._prompt._user_steering_messages_submit import (
        UserSteeringMessagesSubmitInput as UserSteeringMessagesSubmitInput,
    )
    from ._events._prompt._user_steering_messages_submit import (
        UserSteeringMessagesSubmitOutput as UserSteeringMessagesSubmitOutput,
    )
    from ._events._session._config_change import ConfigChangeInput as ConfigChangeInput
    from ._events._session._config_change import ConfigChangeOutput as ConfigChangeOutput
    from ._events._session._cwd_changed import CwdChangedInput as CwdChangedInput
    from ._events._session._cwd_changed import CwdChangedOutput as CwdChangedOutput
    from ._events._session._directory_added import DirectoryAddedInput as DirectoryAddedInput
    from ._events._session._directory_added import DirectoryAddedOutput as DirectoryAddedOutput
    from ._events._session._file_changed import FileChangedInput as FileChangedInput
    from ._events._session._file_changed import FileChangedOutput as FileChangedOutput
    from ._events._session._instructions_loaded import (
        InstructionsLoadedInput as InstructionsLoadedInput,
    )
    from ._events._session._instructions_loaded import (
        InstructionsLoadedOutput as InstructionsLoadedOutput,
    )
    from ._events._session._notification import NotificationInput as NotificationInput
    from ._events._session._notification import NotificationOutput as NotificationOutput
    from ._events._session._on_error import OnErrorInput as OnErrorInput
    from ._events._session._on_error import OnErrorOutput as OnErrorOutput
    from ._events._session._on_max_iterations import OnMaxIterationsInput as OnMaxIterationsInput
    from ._events._session._on_max_iterations import OnMaxIterationsOutput as OnMaxIterationsOutput
    from ._events._session._on_session_resume import OnSessionResumeInput as OnSessionResumeInput
    from ._events._session._on_session_resume import OnSessionResumeOutput as OnSessionResumeOutput
    from ._events._session._session_end import SessionEndInput as SessionEndInput
    from ._events._session._session_end import SessionEndOutput as SessionEndOutput
    from ._events._session._session_start import SessionStartInput as SessionStartInput
    from ._events._session._session_start import SessionStartOutput as SessionStartOutput
    from ._events._session._setup import SetupInput as SetupInput
    from ._events._session._setup import SetupOutput as SetupOutput
    from ._events._session._workspace_open import WorkspaceOpenInput as WorkspaceOpenInput
    from ._events._session._workspace_open import WorkspaceOpenOutput as WorkspaceOpenOutput
    from ._events._tool import PermissionDecision as PermissionDecision
    from ._events._tool._permission_denied import PermissionDeniedInput as PermissionDeniedInput
    from ._events._tool._permission_denied import PermissionDeniedOutput as PermissionDeniedOutput
    from ._events._tool._permission_request import (
        PermissionRequestDecision as PermissionRequestDecision,
    )
    from ._events._tool._permission_request import PermissionRequestInput as PermissionRequestInput
    from ._events._tool._permission_request import (
        PermissionRequestOutput as PermissionRequestOutput,
    )
    from ._events._tool._post_tool_batch import BatchToolCall as BatchToolCall
    from ._events._tool._post_tool_batch import PostToolBatchInput as PostToolBatchInput
    from ._events._tool._post_tool_batch import PostToolBatchOutput as PostToolBatchOutput
    from ._events._tool._post_tool_use import PostToolUseInput as PostToolUseInput
    from ._events._tool._post_tool_use import PostToolUseOutput as PostToolUseOutput
    from ._events._tool._post_tool_use_failure import (
        PostToolUseFailureInput as PostToolUseFailureInput,
    )
    from ._events._tool._post_tool_use_failure import (
        PostToolUseFailureOutput as PostToolUseFailureOutput,
    )
    from ._events._tool._pre_skill_shell_command import (
        PreSkillShellCommandInput as PreSkillShellCommandInput,
    )
    from ._events._tool._pre_skill_shell_command import (
        PreSkillShellCommandOutput as PreSkillShellCommandOutput,
    )
    from ._events._tool._pre_tool_use import PreToolUseInput as PreToolUseInput
    from ._events._tool._pre_tool_use import PreToolUseOutput as PreToolUseOutput
    from ._events._tool._tool_guard import ToolGuardInput as ToolGuardInput
    from ._events._tool._tool_guard import ToolGuardOutput as ToolGuardOutput
    from ._events._tool._tool_input_transform import (
        ToolInputTransformInput as ToolInputTransformInput,
    )
    from ._events._tool._tool_input_transform import (
        ToolInputTransformOutput as ToolInputTransformOutput,
    )
    from ._events._tool._tool_response_transform import (
        ToolResponseTransformInput as ToolResponseTransformInput,
    )
    from ._events._tool._tool_response_transform import (
        ToolResponseTransformOutput as ToolResponseTransformOutput,
    )
    from ._events._untyped import UntypedEvent as UntypedEvent
    from ._events._untyped import UntypedInput as UntypedInput
    from ._events._untyped import UntypedOutput as UntypedOutput
    from ._events._untyped import resolve_event as resolve_event
    from ._handlers._builtins import BuiltinArgumentError as BuiltinArgumentError
    from ._handlers._builtins import BuiltinHook as BuiltinHook
    from ._handlers._builtins import LargeResultLimiter as LargeResultLimiter
    from ._handlers._builtins import add_date as add_date
    from ._handlers._builtins import add_directory_listing as add_directory_listing
    from ._handlers._builtins import add_environment_info as add_environment_info
    from ._handlers._builtins import add_git_diff as add_git_diff
    from ._handlers._builtins import add_git_status as add_git_status
    from ._handlers._builtins import add_prompt_files as add_prompt_files
    from ._handlers._builtins import add_recent_commits as add_recent_commits
    from ._handlers._builtins import add_user_info as add_user_info
    from ._handlers._builtins import builtin as builtin
    from ._handlers._builtins import limit_large_tool_results as limit_large_tool_results
    from ._handlers._builtins import max_iterations as max_iterations
    from ._handlers._builtins import redact_secrets as redact_secrets
    from ._handlers._builtins import redact_text as redact_text
    from ._handlers._callbacks import CallbackHook as CallbackHook
    from ._handlers._command import CommandHook as CommandHook
    from ._handlers._http import HttpHook as HttpHook
    from ._handlers._kinds import HandlerKinds as HandlerKinds
    from ._handlers._kinds import KindContext as KindContext
    from ._handlers._kinds import KindFactory as KindFactory
    from ._handlers._kinds import default_kinds as default_kinds
    from ._handlers._kinds import model_kinds as model_kinds
    from ._handlers._llm import AgentRunner as AgentRunner
    from ._handlers._llm import ModelClient as ModelClient
    from ._handlers._llm import ModelHook as ModelHook
    from ._handlers._mcp import McpCaller as McpCaller
    from ._handlers._mcp import McpToolHook as McpToolHook
    from ._handlers._nodes import Handler as Handler
    from ._handlers._nodes import HandlerInfo as HandlerInfo
    from ._handlers._nodes import HandlerNode as HandlerNode
    from ._handlers._nodes import HandlerResult as HandlerResult
    from ._handlers._nodes import HookCall as HookCall
    from ._handlers._nodes import OnError as OnError
    from ._handlers._nodes import Outcome as Outcome
    from ._handlers._pyref import PythonRefHook as PythonRefHook
    from ._wire._codec import DecodedInput as DecodedInput
    from ._wire._codec import DecodedOutput as DecodedOutput
    from ._wire._codec import decode_input as decode_input
    from ._wire._codec import decode_output as decode_output
    from ._wire._codec import encode_input as encode_input
    from ._wire._codec import encode_output as encode_output
    from ._wire._codec import payload_bytes as payload_bytes
    from ._wire._detect import decode_payload as decode_payload
    from ._wire._dialects import Dialect as Dialect
    from ._wire._dialects import get_dialect as get_dialect
