"""The wire row of Cline's hooks (the VS Code extension's runtime): Claude Code's event
names as ``hookName``, camelCase keys, the event's own fields in an object named after
it (``preToolUse: {toolName, parameters}``), and the answer ``{"cancel": true,
"errorMessage": ..., "contextModification": ...}``; exit codes never block.

``taskId`` is the session, the first of ``workspaceRoots`` the directory. Cline's tool
names map onto Claude Code's (``execute_command`` is Bash, ``write_to_file`` Write,
``replace_in_file`` Edit, ``read_file`` Read ...; ``path`` is ``file_path``). Its task
events (``TaskStart``, ``TaskResume``, ``TaskCancel``, ``TaskComplete``) have no typed
counterpart of the same meaning and are carried untyped as ``cline.TaskStart`` ... (the
prefix keeps ``TaskComplete`` apart from Claude Code's ``TaskCompleted``).
"""

from __future__ import annotations

from ._native import AnswerKeys, NativeEvent, NativeWire

__all__ = ["CLINE_WIRE"]

_PATH = {"path": "file_path"}

CLINE_WIRE = NativeWire(
    events=(
        NativeEvent(
            name="PreToolUse",
            event="PreToolUse",
            nested="preToolUse",
            nested_keys=("toolName", "parameters"),
            answer="cancel",
        ),
        NativeEvent(
            name="PostToolUse",
            event="PostToolUse",
            nested="postToolUse",
            nested_keys=("toolName", "parameters", "result", "success", "executionTimeMs"),
            renames={"result": "tool_response"},
            answer="cancel",
        ),
        NativeEvent(
            name="UserPromptSubmit",
            event="UserPromptSubmit",
            nested="userPromptSubmit",
            nested_keys=("prompt", "attachments"),
            answer="cancel",
        ),
        NativeEvent(
            name="PreCompact",
            event="PreCompact",
            nested="preCompact",
            renames={"compactionStrategy": "trigger"},
            nested_keys=(  # (its taskId repeats the top-level one)
                "ulid",
                "contextSize",
                "compactionStrategy",
                "previousApiReqIndex",
                "tokensIn",
                "tokensOut",
                "tokensInCache",
                "tokensOutCache",
                "deletedRangeStart",
                "deletedRangeEnd",
                "contextJsonPath",
                "contextRawPath",
            ),
            answer="context",
        ),
        NativeEvent(
            name="Notification",
            event="Notification",
            nested="notification",
            nested_keys=("event", "source", "message", "waitingForUserInput", "severity"),
            answer="context",
        ),
        NativeEvent(
            name="TaskStart",
            event="cline.TaskStart",
            nested="taskStart",
            nested_keys=("taskMetadata",),
            answer="cancel",
        ),
        NativeEvent(
            name="TaskResume",
            event="cline.TaskResume",
            nested="taskResume",
            nested_keys=("taskMetadata", "previousState"),
            answer="cancel",
        ),
        NativeEvent(
            name="TaskCancel",
            event="cline.TaskCancel",
            nested="taskCancel",
            nested_keys=("taskMetadata",),
            answer="context",
        ),
        NativeEvent(
            name="TaskComplete",
            event="cline.TaskComplete",
            nested="taskComplete",
            nested_keys=("taskMetadata",),
            answer="context",
        ),
    ),
    event_key="hookName",
    markers=frozenset({"clineVersion", "taskId", "workspaceRoots", "userId"}),
    payload_keys={
        "taskId": "session_id",
        "toolName": "tool_name",
        "parameters": "tool_input",
    },
    fallbacks={"cwd": "workspaceRoots"},
    tool_names={
        "execute_command": "Bash",
        "read_file": "Read",
        "write_to_file": "Write",
        "replace_in_file": "Edit",
        "search_files": "Grep",
        "list_files": "LS",
        "web_fetch": "WebFetch",
    },
    tool_input_keys={
        "read_file": _PATH,
        "write_to_file": _PATH,
        "replace_in_file": _PATH,
        "search_files": _PATH,
        "list_files": _PATH,
    },
    answers={
        "cancel": AnswerKeys(
            block_flag="cancel",
            nearest={"ask": "block"},
            reasons=("errorMessage",),
            context="contextModification",
        ),
        "context": AnswerKeys(context="contextModification"),
    },
)
"""Cline (classic hooks, ``.clinerules/hooks/<Event>``)."""
