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

from collections.abc import Mapping

from ._native import AnswerKeys, NativeEvent, NativeWire

__all__ = ["CLINE_WIRE"]

_PATH = {"path": "file_path"}


def _hook(
    name: str,
    answer: str,
    keys: tuple[str, ...],
    *,
    event: str | None = None,
    renames: Mapping[str, str] | None = None,
) -> NativeEvent:
    """Cline's ``name`` hook: the canonical ``event`` (default: the same name), its own
    fields ``keys`` in the object named after it (``PreToolUse``: ``preToolUse``)."""
    return NativeEvent(
        name=name,
        event=event or name,
        nested=name[0].lower() + name[1:],
        nested_keys=keys,
        renames=renames or {},
        answer=answer,
    )


def _task(name: str, answer: str, keys: tuple[str, ...]) -> NativeEvent:
    """A task event, carried untyped as ``cline.<name>``."""
    return _hook(name, answer, keys, event=f"cline.{name}")


CLINE_WIRE = NativeWire(
    events=(
        _hook("PreToolUse", "cancel", ("toolName", "parameters")),
        _hook(
            "PostToolUse",
            "cancel",
            ("toolName", "parameters", "result", "success", "executionTimeMs"),
            renames={"result": "tool_response"},
        ),
        _hook("UserPromptSubmit", "cancel", ("prompt", "attachments")),
        _hook(
            "PreCompact",
            "context",
            (  # (its taskId repeats the top-level one)
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
            renames={"compactionStrategy": "trigger"},
        ),
        _hook(
            "Notification",
            "context",
            ("event", "source", "message", "waitingForUserInput", "severity"),
        ),
        _task("TaskStart", "cancel", ("taskMetadata",)),
        _task("TaskResume", "cancel", ("taskMetadata", "previousState")),
        _task("TaskCancel", "context", ("taskMetadata",)),
        _task("TaskComplete", "context", ("taskMetadata",)),
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
