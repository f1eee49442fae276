"""The wire row of Cline's hooks (the VS Code extension's runtime): Claude Code's event
names as ``hookName``, camelCase keys, the event's own fields in an object named after
it (``preToolUse: {toolName, parameters}``), and the answer ``{"cancel": true,
"errorMessage": ..., "contextModification": ...}``; exit codes never block.

Cline 3.x (the CLI on its SDK runtime, ``@cline/core``) runs the same hook files but
sends its SDK payloads: ``hookName`` in snake_case (``tool_call`` to ``PreToolUse``
files, ``tool_result`` to ``PostToolUse``, ``prompt_submit``, ``agent_start``,
``agent_resume``, ``agent_abort``, ``agent_end``, ``agent_error`` to ``TaskError`` files,
``session_shutdown`` to ``SessionShutdown`` files), the call itself in ``tool_call:
{id, name, input}`` (read in preference to the classic ``preToolUse`` object it also
carries, whose parameters are strings) and its SDK tool names (``run_commands``, whose
``commands`` list a Bash guard reads as one ``command``, one per line; ``editor``). Its
answers add ``overrideInput`` (the rewritten tool input) on ``tool_call``.

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


_SDK_TOOLS = {"run_commands": "Bash", "editor": "Edit"}
"""Cline 3.x's SDK tool ids that are Claude Code's tools (``read_files``,
``search_codebase``, ``fetch_web_content`` take lists of requests, and keep their names)."""


def _sdk(
    name: str,
    file: str,
    event: str,
    answer: str,
    *,
    nested: str | None = None,
    keys: tuple[str, ...] = (),
    renames: Mapping[str, str] | None = None,
) -> NativeEvent:
    """Cline 3.x's ``name`` payload, sent to ``file`` hooks: the canonical ``event``,
    its own fields ``keys`` in the object ``nested`` (default: at the top level)."""
    return NativeEvent(
        name=name,
        event=event,
        form_of=file,
        nested=nested,
        nested_keys=keys if nested else (),
        renames=renames or {},
        answer=answer,
        tool_names=_SDK_TOOLS,
    )


_SDK_CALL = {"id": "tool_use_id", "name": "tool_name", "input": "tool_input"}


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
        _sdk(
            "tool_call",
            "PreToolUse",
            "PreToolUse",
            "sdk_call",
            nested="tool_call",
            keys=("id", "name", "input"),
            renames=_SDK_CALL,
        ),
        _sdk(
            "tool_result",
            "PostToolUse",
            "PostToolUse",
            "cancel",
            nested="tool_result",
            keys=("id", "name", "input", "output", "error", "durationMs", "startedAt", "endedAt"),
            renames={**_SDK_CALL, "output": "tool_response", "durationMs": "duration_ms"},
        ),
        _sdk(
            "prompt_submit",
            "UserPromptSubmit",
            "UserPromptSubmit",
            "cancel",
            nested="userPromptSubmit",
            keys=("prompt", "attachments"),
        ),
        _sdk("agent_start", "TaskStart", "cline.TaskStart", "cancel"),
        _sdk("agent_resume", "TaskResume", "cline.TaskResume", "cancel"),
        _sdk("agent_abort", "TaskCancel", "cline.TaskCancel", "context"),
        _sdk("agent_end", "TaskComplete", "cline.TaskComplete", "context"),
        _sdk("agent_error", "TaskError", "cline.TaskError", "context"),
        _sdk("session_shutdown", "SessionShutdown", "SessionEnd", "context"),
    ),
    event_key="hookName",
    markers=frozenset({"clineVersion", "taskId", "workspaceRoots", "userId"}),
    reads_exit_status=False,
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
        "editor": {"path": "file_path", "old_text": "old_string", "new_text": "new_string"},
    },
    list_inputs={"run_commands": ("commands", "command")},
    answers={
        "cancel": AnswerKeys(
            block_flag="cancel",
            nearest={"ask": "block"},
            reasons=("errorMessage",),
            context="contextModification",
        ),
        "sdk_call": AnswerKeys(
            block_flag="cancel",
            nearest={"ask": "block"},
            reasons=("errorMessage",),
            context="contextModification",
            updated_input="overrideInput",
        ),
        "context": AnswerKeys(context="contextModification"),
    },
)
"""Cline (classic hooks, ``.clinerules/hooks/<Event>``)."""
