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
"""

from __future__ import annotations

from . import _events
from ._builtins import (
    BUILTINS,
    BuiltinArgumentError,
    BuiltinHook,
    LargeResultLimiter,
    add_date,
    add_directory_listing,
    add_environment_info,
    add_git_diff,
    add_git_status,
    add_prompt_files,
    add_recent_commits,
    add_user_info,
    builtin,
    limit_large_tool_results,
    max_iterations,
    redact_secrets,
    redact_text,
)
from ._callbacks import CallbackHook
from ._capabilities import (
    CAPABILITIES,
    ContextLifetime,
    EventSpec,
    Exit2,
    Rewrite,
    capability,
)
from ._command import CommandHook
from ._diagnostics import Diagnostic, DiagnosticCode, Severity
from ._dialects import CLAUDE, CODEX, DEEPAGENTS, DOCKER, HEL, Dialect, get_dialect
from ._errors import AgentHooksError, InvalidPayloadError, RegistrationError, UnknownEventError
from ._events import *  # noqa: F403 - every event's input and output class
from ._lifecycle import (
    PermissionAnswer,
    PermissionPrompt,
    PromptOutcome,
    StopOutcome,
    ToolCallOutcome,
    TurnOutcome,
)
from ._model import HookInput, HookOutput
from ._names import HookEvent, parse_event
from ._nodes import Handler, HandlerInfo, HandlerNode, HandlerResult, HookCall, OnError, Outcome
from ._registry import (
    CompiledRegistry,
    Execution,
    HookMatcher,
    HookRegistry,
    MatcherGroup,
    Source,
    SourcedGroups,
)
from ._session import Decision, Session
from ._wire import (
    DecodedInput,
    DecodedOutput,
    decode_input,
    decode_output,
    encode_input,
    encode_output,
    payload_bytes,
)

__version__ = "0.1.0"

__all__ = [
    "BUILTINS",
    "BuiltinArgumentError",
    "BuiltinHook",
    "LargeResultLimiter",
    "add_date",
    "add_directory_listing",
    "add_environment_info",
    "add_git_diff",
    "add_git_status",
    "add_prompt_files",
    "add_recent_commits",
    "add_user_info",
    "builtin",
    "limit_large_tool_results",
    "max_iterations",
    "redact_secrets",
    "redact_text",
    "CAPABILITIES",
    "CLAUDE",
    "CODEX",
    "DEEPAGENTS",
    "DOCKER",
    "HEL",
    "AgentHooksError",
    "CallbackHook",
    "CommandHook",
    "CompiledRegistry",
    "ContextLifetime",
    "Decision",
    "DecodedInput",
    "DecodedOutput",
    "Diagnostic",
    "DiagnosticCode",
    "Dialect",
    "EventSpec",
    "Execution",
    "Exit2",
    "Handler",
    "HandlerInfo",
    "HandlerNode",
    "HandlerResult",
    "HookCall",
    "HookEvent",
    "HookInput",
    "HookMatcher",
    "HookOutput",
    "HookRegistry",
    "InvalidPayloadError",
    "MatcherGroup",
    "OnError",
    "Outcome",
    "PermissionAnswer",
    "PermissionPrompt",
    "PromptOutcome",
    "RegistrationError",
    "Rewrite",
    "Session",
    "Severity",
    "Source",
    "StopOutcome",
    "ToolCallOutcome",
    "TurnOutcome",
    "SourcedGroups",
    "UnknownEventError",
    "capability",
    "decode_input",
    "decode_output",
    "encode_input",
    "encode_output",
    "get_dialect",
    "parse_event",
    "payload_bytes",
]
__all__ += _events.__all__
