"""Wire rows of the Claude-compatible harnesses (Factory Droid, Qwen Code, Augment/Auggie,
Goose): Claude Code's events and answers, with their own tool names, payload keys and
environment variables.

Each harness is a :class:`~agent_hooks._wire._native.NativeWire` whose events keep
Claude Code's names and whose answers are, by default, Claude Code's own
(``answer="passthrough"``: the canonical answer is what the harness reads); only what
differs is written down: tool names (Factory ``Execute``, Qwen ``run_shell_command``,
Augment ``launch-process``, Goose ``developer__shell``), the payload keys of a harness
that renames them (Augment ``conversation_id``, Goose ``event`` and ``working_dir``),
answers in another shape (Goose's ``{"decision": "block"}``), and the project-directory
variables the harness sets (``FACTORY_PROJECT_DIR`` with its ``CLAUDE_PROJECT_DIR``
alias). OpenHands, Trae and Qoder send Claude Code's payloads unchanged and need no
wire row (their dialects are plain rows of :mod:`._dialects`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ._native import AnswerKeys, NativeEvent, NativeWire

__all__ = ["AUGMENT_WIRE", "FACTORY_WIRE", "GOOSE_WIRE", "QWEN_WIRE", "claude_family_wire"]

_NONE: Mapping[str, str] = MappingProxyType({})
_NO_KEYS: Mapping[str, Mapping[str, str]] = MappingProxyType({})
_NO_ANSWERS: Mapping[str, AnswerKeys] = MappingProxyType({})


def claude_family_wire(
    events: tuple[str, ...],
    *,
    tool_names: Mapping[str, str] = _NONE,
    tool_input_keys: Mapping[str, Mapping[str, str]] = _NO_KEYS,
    env: Mapping[str, str] = _NONE,
    event_key: str = "hook_event_name",
    payload_keys: Mapping[str, str] = _NONE,
    fallbacks: Mapping[str, str] = _NONE,
    answers: Mapping[str, AnswerKeys] = _NO_ANSWERS,
    answer_of: Mapping[str, str] = _NONE,
    specific_key: str | None = None,
) -> NativeWire:
    """A wire of a harness that speaks Claude Code's protocol: ``events`` (Claude Code's
    names; one no typed event matches is carried untyped, as itself), answered in Claude
    Code's shape unless ``answer_of`` names another kind of ``answers`` for an event."""
    return NativeWire(
        events=tuple(
            NativeEvent(
                name=name,
                event=name,
                answer=answer_of.get(name, "passthrough"),
            )
            for name in events
        ),
        event_key=event_key,
        tool_names=dict(tool_names),
        tool_input_keys=dict(tool_input_keys),
        env=dict(env),
        payload_keys=dict(payload_keys),
        fallbacks=dict(fallbacks),
        answers=dict(answers),
        specific_key=specific_key,
    )


FACTORY_EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "Notification",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
)
FACTORY_WIRE = claude_family_wire(
    FACTORY_EVENTS,
    tool_names={
        "Execute": "Bash",
        "Create": "Write",
        "FetchUrl": "WebFetch",
    },
    env={"FACTORY_PROJECT_DIR": "project_dir", "CLAUDE_PROJECT_DIR": "project_dir"},
)
"""Factory Droid: Claude Code's nine classic events, its own tool names."""

QWEN_EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "SessionDelete",
    "MessageDisplay",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "Notification",
    "PermissionRequest",
    "PermissionDenied",
    "TodoCreated",
    "TodoCompleted",
    "QueryEnd",
    "ConfigChange",
    "TeammateIdle",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "WorktreeCreate",
)
QWEN_WIRE = claude_family_wire(
    QWEN_EVENTS,
    tool_names={
        "run_shell_command": "Bash",
        "write_file": "Write",
        "replace": "Edit",
        "edit": "Edit",
        "read_file": "Read",
        "read_many_files": "Read",
        "glob": "Glob",
        "grep": "Grep",
        "search_file_content": "Grep",
        "ls": "LS",
        "list_directory": "LS",
        "web_fetch": "WebFetch",
        "web_search": "WebSearch",
        "todo_write": "TodoWrite",
    },
    tool_input_keys={"read_file": {"absolute_path": "file_path"}},
    env={
        "QWEN_PROJECT_DIR": "project_dir",
        "GEMINI_PROJECT_DIR": "project_dir",
        "CLAUDE_PROJECT_DIR": "project_dir",
    },
)
"""Qwen Code (and its forks): Claude Code's events and answers, Qwen's tool ids (0.24.4
adds PostToolBatch, once per batch of tool calls, and UserPromptExpansion, when a slash
command or skill expands into a prompt)."""

_AUGMENT_FILE = {"path": "file_path", "file_content": "content"}
AUGMENT_WIRE = claude_family_wire(
    ("PreToolUse", "PostToolUse", "Stop", "SessionStart", "SessionEnd"),
    tool_names={
        "launch-process": "Bash",
        "view": "Read",
        "save-file": "Write",
        "str-replace-editor": "Edit",
        "web-fetch": "WebFetch",
        "web-search": "WebSearch",
    },
    tool_input_keys={
        "view": _AUGMENT_FILE,
        "save-file": _AUGMENT_FILE,
        "str-replace-editor": _AUGMENT_FILE,
    },
    payload_keys={"tool_output": "tool_response"},
    fallbacks={"session_id": "conversation_id", "cwd": "workspace_roots"},
    env={
        "AUGMENT_PROJECT_DIR": "project_dir",
        "AUGMENT_CONVERSATION_ID": "session_id",
    },
    answers={
        "permission": AnswerKeys(
            decision="hookSpecificOutput.permissionDecision",
            decision_values={"deny": "deny", "block": "deny", "allow": "allow"},
            nearest={"ask": "deny"},
            reasons=("hookSpecificOutput.permissionDecisionReason",),
            updated_input="hookSpecificOutput.updatedInput",
            context="hookSpecificOutput.additionalContext",
            continue_key="continue",
            stop_reason="stopReason",
            system_message="systemMessage",
        ),
        "stop": AnswerKeys(
            decision="hookSpecificOutput.decision",
            decision_values={"block": "block", "deny": "block"},
            reasons=("hookSpecificOutput.reason",),
            context_keeps_going=True,
            continue_key="continue",
            stop_reason="stopReason",
            system_message="systemMessage",
        ),
    },
    answer_of={"PreToolUse": "permission", "Stop": "stop"},
    specific_key="hookSpecificOutput",
)
"""Augment / Auggie: five events, ``conversation_id`` and ``workspace_roots`` for the
session and the directory, kebab-case tool names; a PreToolUse ``ask`` is answered
``deny`` (its docs implement only ``deny``), and a Stop block is written inside
``hookSpecificOutput``, where Augment reads it."""

GOOSE_EVENTS = (
    "SessionStart",
    "SessionEnd",
    "Stop",
    "UserPromptSubmit",
    "PreToolUse",
    "PreToolUseResult",
    "PostToolUse",
    "PostToolUseFailure",
    "BeforeReadFile",
    "AfterFileEdit",
    "BeforeShellExecution",
    "AfterShellExecution",
)
GOOSE_WIRE = claude_family_wire(
    GOOSE_EVENTS,
    event_key="event",
    payload_keys={"working_dir": "cwd"},
    tool_names={
        "developer__shell": "Bash",
        "developer__write": "Write",
        "developer__edit": "Edit",
    },
    answers={
        "permission": AnswerKeys(
            decision="decision",
            decision_values={"allow": "allow", "deny": "block", "block": "block"},
            nearest={"ask": "block"},
            reasons=("reason",),
        ),
        "continue": AnswerKeys(
            decision="decision",
            decision_values={"block": "block"},
            reasons=("reason",),
            context_keeps_going=True,
        ),
    },
    answer_of={"PreToolUse": "permission", "Stop": "continue"},
)
"""Goose (Open Plugins hooks): ``event`` instead of ``hook_event_name``, blocks written
``{"decision": "block", "reason": ...}`` on PreToolUse and Stop, the only events that
block; its ``Before*``/``After*`` file and shell events are carried untyped."""
