"""Testing hooks: realistic payloads for every event and dialect, and one call that
runs a hook (a Python callback, a command, a hook file) against a payload.

The public face is :mod:`agent_hooks.testing`; ``agent-hooks payload`` prints the
same payloads. Payloads are built as JSON, read back through the codec
(:func:`~agent_hooks._wire._codec.decode_input`, so a value of the wrong type is
refused here rather than by the hook under test) and written in the dialect asked
for by :func:`~agent_hooks._wire._codec.encode_input`: a dialect is a row of the
dialect table, and every row gets payloads without code of its own here.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode
from .._dispatch._decision import Decision
from .._dispatch._registry import HookMatcher, HookRegistry, Source
from .._events._capabilities import CAPABILITIES
from .._events._model import HookInput, HookOutput
from .._events._names import HookEvent
from .._events._untyped import AnyEvent, UntypedEvent, resolve_event
from .._handlers._command import CommandHook
from .._handlers._nodes import HandlerResult
from .._wire._codec import decode_input, encode_input
from .._wire._dialects import Dialect, get_dialect
from .._wire._fields import field_codecs

__all__ = [
    "CONFIG_SUFFIXES",
    "SESSION_ID",
    "HookRun",
    "arun_hook",
    "hook_input",
    "payload",
    "payload_fields",
    "run_hook",
    "set_path",
]

SESSION_ID = "7f3c2a9e-4b1d-4e8a-9c6f-2d5b8e1a0c47"
"""The ``session_id`` of every payload unless one is given."""

CONFIG_SUFFIXES = (".json", ".yaml", ".yml", ".toml")
"""A path to :func:`run_hook` ending with one of these is a hook file, else a command."""

_TOOL_USE_ID = "toolu_01HqZ8Y4m3Vb7nKc2Rw5tXjP"


def _tool_input(tool: str, cwd: str) -> dict[str, Any]:
    """A realistic ``tool_input`` for a tool of Claude Code (else an empty object)."""
    if tool in ("Bash", "shell", "apply_patch"):
        return {"command": "npm test"}
    if tool == "Edit":
        return {
            "file_path": f"{cwd}/src/config.py",
            "old_string": "DEBUG = True",
            "new_string": "DEBUG = False",
        }
    if tool == "Write":
        return {"file_path": f"{cwd}/NOTES.md", "content": "# Notes\n"}
    if tool == "Read":
        return {"file_path": f"{cwd}/README.md"}
    if tool in ("Glob", "Grep"):
        return {"pattern": "TODO", "path": cwd}
    if tool == "WebFetch":
        return {"url": "https://example.com/docs", "prompt": "Summarise the page"}
    return {}


def _tool_response(tool: str, tool_input: Mapping[str, Any]) -> Any:
    """A realistic ``tool_response`` of a successful call."""
    if tool in ("Bash", "shell"):
        return {"stdout": "12 passed in 0.84s\n", "stderr": "", "interrupted": False}
    if "file_path" in tool_input:
        return {"filePath": tool_input["file_path"], "success": True}
    return {"success": True}


def _event_defaults(event: HookEvent, cwd: str, tool: str) -> dict[str, Any]:
    """The fields of one event's payload beyond the envelope, as a harness sends them."""
    tool_input = _tool_input(tool, cwd)
    tool_call = {"tool_name": tool, "tool_input": tool_input, "tool_use_id": _TOOL_USE_ID}
    E = HookEvent
    table: dict[HookEvent, dict[str, Any]] = {
        E.PRE_TOOL_USE: tool_call,
        E.PERMISSION_REQUEST: tool_call,
        E.TOOL_GUARD: tool_call,
        E.TOOL_INPUT_TRANSFORM: tool_call,
        E.PERMISSION_DENIED: {**tool_call, "reason": "Auto mode denied this command"},
        E.POST_TOOL_USE: {
            **tool_call,
            "tool_response": _tool_response(tool, tool_input),
            "duration_ms": 842,
        },
        E.TOOL_RESPONSE_TRANSFORM: {
            **tool_call,
            "tool_response": _tool_response(tool, tool_input),
        },
        E.POST_TOOL_USE_FAILURE: {
            **tool_call,
            "error": "Command failed with exit code 1",
            "is_interrupt": False,
            "duration_ms": 1210,
        },
        E.POST_TOOL_BATCH: {
            "tool_calls": [
                {**tool_call, "tool_response": "12 passed in 0.84s"},
                {
                    "tool_name": "Read",
                    "tool_input": _tool_input("Read", cwd),
                    "tool_use_id": "toolu_01Nf4kQ2Lx9Wc3Hd7Bs6yTmR",
                    "tool_response": "# Project\n",
                },
            ]
        },
        E.PRE_SKILL_SHELL_COMMAND: {
            **tool_call,
            "command_name": "deploy",
            "command_source": "projectSettings",
            "invoked_by": "user",
        },
        E.ON_TOOL_APPROVAL_DECISION: {
            **tool_call,
            "approval_decision": "allow",
            "approval_source": "user",
        },
        E.USER_PROMPT_SUBMIT: {"prompt": "Fix the failing test in tests/test_config.py"},
        E.USER_FOLLOWUP_SUBMIT: {"prompt": "Now update the changelog"},
        E.USER_PROMPT_EXPANSION: {
            "expansion_type": "slash_command",
            "command_name": "review",
            "command_args": "src/config.py",
            "command_source": "projectSettings",
            "prompt": "/review src/config.py",
        },
        E.USER_STEERING_MESSAGES_SUBMIT: {"steering_messages": ["Use pytest, not unittest"]},
        E.MESSAGE_DISPLAY: {
            "turn_id": "turn-3",
            "message_id": "msg_01Tq7",
            "index": 0,
            "final": True,
            "delta": "All 12 tests pass.",
        },
        E.TURN_END: {"reason": "completed"},
        E.BEFORE_LLM_CALL: {
            "iteration": 1,
            "model_id": "claude-sonnet-4-5",
            "messages": [{"role": "user", "content": "Fix the failing test"}],
        },
        E.AFTER_LLM_CALL: {
            "model_id": "claude-sonnet-4-5",
            "usage": {"input_tokens": 5123, "output_tokens": 412},
            "cost": 0.0215,
        },
        E.PRE_MODEL_SWITCH: {
            "from_model": "claude-sonnet-4-5",
            "to_model": "claude-opus-4-1",
            "source": "user",
        },
        E.POST_MODEL_SWITCH: {
            "from_model": "claude-sonnet-4-5",
            "to_model": "claude-opus-4-1",
            "source": "user",
        },
        E.STOP: {"stop_hook_active": False, "last_assistant_message": "All 12 tests pass."},
        E.STOP_FAILURE: {
            "error": "rate_limit",
            "error_details": "429 Too Many Requests",
            "last_assistant_message": "Running the tests now.",
        },
        E.INTERRUPT: {"reason": "user"},
        E.SESSION_START: {"source": "startup", "model": "claude-sonnet-4-5"},
        E.SESSION_END: {"reason": "other"},
        E.SETUP: {"trigger": "init"},
        E.ON_SESSION_RESUME: {"previous_max_iterations": 50, "new_max_iterations": 100},
        E.ON_MAX_ITERATIONS: {
            "notification_level": "warning",
            "notification_message": "Reached the limit of 50 iterations",
        },
        E.ON_ERROR: {
            "notification_level": "error",
            "notification_message": "The model provider returned an error",
        },
        E.NOTIFICATION: {
            "message": "Claude needs your permission to use Bash",
            "title": "Claude Code",
            "notification_type": "permission_prompt",
        },
        E.CONFIG_CHANGE: {
            "source": "project_settings",
            "file_path": f"{cwd}/.claude/settings.json",
        },
        E.CWD_CHANGED: {"old_cwd": cwd, "new_cwd": f"{cwd}/src"},
        E.DIRECTORY_ADDED: {"directory": f"{cwd}/../shared", "source": "add_dir"},
        E.FILE_CHANGED: {"file_path": f"{cwd}/.env", "file_event": "change"},
        E.INSTRUCTIONS_LOADED: {
            "file_path": f"{cwd}/CLAUDE.md",
            "memory_type": "Project",
            "load_reason": "session_start",
        },
        E.PRE_COMPACT: {"trigger": "manual", "custom_instructions": ""},
        E.POST_COMPACT: {"trigger": "auto", "compact_summary": "Fixed the config test."},
        E.BEFORE_COMPACTION: {
            "input_tokens": 182_000,
            "output_tokens": 4_100,
            "context_limit": 200_000,
            "compaction_reason": "threshold",
        },
        E.AFTER_COMPACTION: {
            "input_tokens": 182_000,
            "output_tokens": 4_100,
            "context_limit": 200_000,
            "compaction_reason": "threshold",
            "summary": "Fixed the config test.",
        },
        E.SUBAGENT_START: {"agent_id": "agent-2", "agent_type": "Explore"},
        E.SUBAGENT_STOP: {
            "agent_id": "agent-2",
            "agent_type": "Explore",
            "stop_hook_active": False,
            "last_assistant_message": "Found 3 call sites.",
        },
        E.TEAMMATE_IDLE: {"teammate_name": "reviewer", "team_name": "core"},
        E.TASK_CREATED: {
            "task_id": "task-1",
            "task_subject": "Fix the config test",
            "task_description": "tests/test_config.py fails on DEBUG",
        },
        E.TASK_COMPLETED: {
            "task_id": "task-1",
            "task_subject": "Fix the config test",
            "task_description": "tests/test_config.py fails on DEBUG",
        },
        E.ON_AGENT_SWITCH: {
            "from_agent": "root",
            "to_agent": "reviewer",
            "agent_switch_kind": "transfer",
        },
        E.WORKTREE_CREATE: {"name": "feature-config"},
        E.WORKTREE_REMOVE: {"worktree_path": f"{cwd}/../project-feature-config"},
        E.ELICITATION: {
            "mcp_server_name": "github",
            "message": "Which repository?",
            "mode": "form",
            "elicitation_id": "elicit-1",
            "requested_schema": {
                "type": "object",
                "properties": {"repo": {"type": "string"}},
            },
        },
        E.ELICITATION_RESULT: {
            "mcp_server_name": "github",
            "action": "accept",
            "content": {"repo": "octo/project"},
            "elicitation_id": "elicit-1",
        },
    }
    return dict(table.get(event, {}))


_GENERIC: Mapping[str, Any] = {"str": "example", "int": 1, "float": 1.0, "bool": False}


def _required_fallbacks(cls: type[HookInput[Any]], data: dict[str, Any]) -> None:
    """Fill required fields of an event the table does not know (a newer event) with
    values of their type, so that every event gets a valid payload."""
    for fc in field_codecs(cls, False):
        if fc.required and fc.docker_key not in data:
            kind = fc.type.kind
            if kind == "literal":
                data[fc.docker_key] = fc.type.values[0]
            elif kind in ("map", "object"):
                data[fc.docker_key] = {}
            elif kind == "list":
                data[fc.docker_key] = []
            else:
                data[fc.docker_key] = _GENERIC.get(kind, "example")


def payload_fields(event: AnyEvent | str) -> tuple[str, ...]:
    """The payload keys ``event`` declares (envelope included), in payload order;
    empty for an event this version does not type.

    Raises:
        UnknownEventError: ``event`` is a close misspelling of a known event.
    """
    ev = resolve_event(event)
    if isinstance(ev, UntypedEvent):
        return ()
    cls = CAPABILITIES[ev].input_type
    return tuple(fc.docker_key for fc in field_codecs(cls, False) if fc.name != "extra")


def _build(
    event: AnyEvent | str,
    cwd: str | None,
    extra: Mapping[str, Any] | None,
    fields: Mapping[str, Any],
) -> dict[str, Any]:
    """The payload as JSON data in the claude spelling, overrides applied."""
    ev = resolve_event(event)
    cwd = os.getcwd() if cwd is None else os.fspath(cwd)
    data: dict[str, Any] = {
        "session_id": SESSION_ID,
        "transcript_path": str(
            Path.home() / ".claude" / "projects" / cwd.replace("/", "-") / f"{SESSION_ID}.jsonl"
        ),
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": ev.value,
    }
    if isinstance(ev, UntypedEvent):
        for key, value in fields.items():
            if value is None:
                data.pop(key, None)
            else:
                data[key] = value
    else:
        known = payload_fields(ev)
        tool = fields.get("tool_name")
        defaults = _event_defaults(ev, cwd, tool if isinstance(tool, str) else "Bash")
        data.update(defaults)
        tool_keys: dict[str, Any] = {}
        for key, value in fields.items():
            if key in known or key == "hook_event_name":
                if value is None:
                    data.pop(key, None)
                else:
                    data[key] = value
            elif "tool_input" in known:
                tool_keys[key] = value
            else:
                raise ValueError(
                    f"{ev.value} payloads have no field {key!r}; fields: {', '.join(known)} "
                    "(pass keys of your own as extra={...})"
                )
        if tool_keys:
            if "tool_input" in fields and not isinstance(fields["tool_input"], Mapping):
                raise ValueError("tool_input must be an object to set its keys")
            merged = dict(data.get("tool_input") or {})
            for key, value in tool_keys.items():
                if value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
            data["tool_input"] = merged
        if ev in (HookEvent.POST_TOOL_USE, HookEvent.TOOL_RESPONSE_TRANSFORM) and (
            "tool_response" not in fields and ("tool_name" in fields or tool_keys)
        ):
            data["tool_response"] = _tool_response(
                str(data.get("tool_name")), data.get("tool_input") or {}
            )
        _required_fallbacks(CAPABILITIES[ev].input_type, data)
    for key, value in (extra or {}).items():
        data[key] = value
    return data


def hook_input(
    event: AnyEvent | str,
    *,
    cwd: str | os.PathLike[str] | None = None,
    extra: Mapping[str, Any] | None = None,
    **fields: Any,
) -> HookInput[Any]:
    """The typed input of a realistic ``event`` payload (see :func:`payload`), for
    dispatching to a session or calling a Python callback directly.

    Raises:
        ValueError: a field the event does not have (and it is no tool event, whose
            unknown keywords are keys of ``tool_input``), or a value of the wrong type.
        UnknownEventError: ``event`` is a close misspelling of a known event.
    """
    data = _build(event, None if cwd is None else os.fspath(cwd), extra, fields)
    decoded = decode_input(data)
    bad = [d for d in decoded.diagnostics if d.code is DiagnosticCode.INVALID_FIELD]
    if bad:
        raise ValueError("; ".join(d.message for d in bad))
    return decoded.input


def payload(
    event: AnyEvent | str,
    *,
    dialect: Dialect | str = "claude",
    cwd: str | os.PathLike[str] | None = None,
    extra: Mapping[str, Any] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A realistic hook payload of ``event`` as a harness of ``dialect`` sends it.

    Defaults are what a harness sends on a typical call (a ``Bash`` tool call
    running ``npm test`` for tool events; a fixed ``session_id``; ``cwd`` the current
    directory). Keywords override payload fields by their snake_case names
    (``tool_name="Edit"``, ``prompt="hi"``); ``None`` removes a field. On events with a
    ``tool_input``, any other keyword is a key of it (``command="rm -rf /"``,
    ``file_path=".env"``); naming another ``tool_name`` without a ``tool_input``
    starts from that tool's usual input. ``extra`` adds keys of your own, as they are.
    The payload is valid against the event's JSON Schema (``typings/``) unless an
    override makes it otherwise.

    Raises:
        ValueError: an unknown dialect, a field the event does not have, or a
            value of the wrong type for its field.
        UnknownEventError: ``event`` is a close misspelling of a known event (an
            unknown name that is no misspelling gives an untyped event's payload).
    """
    row = get_dialect(dialect)
    return encode_input(hook_input(event, cwd=cwd, extra=extra, **fields), row)


def set_path(data: dict[str, Any], dotted: str, value: Any) -> None:
    """Set ``a.b.c`` in nested JSON objects, making the objects on the way.

    Raises:
        ValueError: a key on the way holds something other than an object.
    """
    *parents, last = dotted.split(".")
    node = data
    for key in parents:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise ValueError(f"{dotted}: {key!r} is not an object")
        node = child
    node[last] = value


# ------------------------------------------------------------------ running


@attrs.frozen(kw_only=True)
class HookRun:
    """What running a hook against a payload gave: the typed decision, each handler's
    result, and the answer a harness would read (what ``agent-hooks run`` prints)."""

    decision: Decision
    """The reduced, typed decision (``decision.output`` is an instance of the event's
    output class; ``isinstance`` narrows it to read the event's own fields)."""
    answer: dict[str, Any]
    """The reduced answer as JSON in the payload's wire format (``{}``: no opinion)."""
    exit_code: int = 0
    """What ``agent-hooks run`` would exit with (2: a block this event can only say by
    exit status)."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """The payload's, the configuration's and the dispatch's diagnostics."""

    @property
    def results(self) -> tuple[HandlerResult, ...]:
        """Each handler's result, in configuration order (``outcome``, ``output``,
        ``exit_code``, ``reason``, ``duration``, ``diagnostics``, ``handler``)."""
        return self.decision.results

    @property
    def output(self) -> HookOutput:
        """The reduced typed output."""
        output: HookOutput = self.decision.output
        return output

    @property
    def blocked(self) -> bool:
        """The hooks blocked or denied what the event is about."""
        return self.decision.blocked

    @property
    def reason(self) -> str | None:
        """The blocking reason for the model."""
        return self.decision.reason

    @property
    def context(self) -> str | None:
        """``additional_context`` of the hooks, newline-joined."""
        return self.decision.context

    @property
    def verdicts(self) -> tuple[str | None, ...]:
        """Per handler, what it decided (``deny``, ``allow``, ``ask``, ``defer``,
        ``block``, ``stop`` or ``None``), as ``agent-hooks run --report`` says."""
        from ._payload import handler_verdict

        return tuple(handler_verdict(r)[0] for r in self.results)


HookLike = Any
"""What :func:`run_hook` runs: a callable, a handler, a command line, a hook file's
path, a :class:`~agent_hooks.HookRegistry` or a :class:`~agent_hooks.LoadedConfig`."""


def _registry(
    hook: HookLike, event: AnyEvent, dialect: Dialect, matcher: str | None, project: str | None
) -> HookRegistry:
    from .._config._snapshot import LoadedConfig

    if isinstance(hook, HookRegistry):
        return hook
    if isinstance(hook, LoadedConfig):
        return hook.registry()
    source = Source(label="run_hook" if isinstance(hook, str) else "python", dialect=dialect)
    if isinstance(hook, (str, os.PathLike)):
        text = os.fspath(hook)
        path = Path(text)
        if path.suffix in CONFIG_SUFFIXES:
            from .._config._load import load

            if not path.is_file():
                raise FileNotFoundError(f"hook file not found: {text}")
            return load(path, project_dir=project, trust=True).registry()
        if path.is_file():  # a script: run it by its path, wherever the test runs
            text = shlex.quote(str(path.resolve()))
        hook = CommandHook(command=text)
    return HookRegistry({event.value: [HookMatcher(matcher=matcher, hooks=[hook])]}, source=source)


async def arun_hook(
    hook: HookLike,
    data: Mapping[str, Any] | HookInput[Any] | str | bytes,
    *,
    dialect: Dialect | str | None = None,
    matcher: str | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    **options: Any,
) -> HookRun:
    """Run ``hook`` against one payload, as ``agent-hooks run`` would; the async form
    of :func:`run_hook` (for tests that run on an event loop already)."""
    from .._base._errors import InvalidPayloadError
    from ._payload import dispatch_payload

    if isinstance(data, HookInput):
        row = get_dialect(dialect or "claude")
        data = encode_input(data, row)
    decoded = decode_input(data)
    if dialect is None:
        dialect = "docker" if decoded.wire == "docker" else "claude"
    row = get_dialect(dialect)
    project = None if project_dir is None else os.fspath(project_dir)
    registry = _registry(hook, decoded.input.event, row, matcher, project)
    if options:
        registry = registry.evolve(**options)
    result = await dispatch_payload(decoded, registry, project_dir=project)
    if result.decision is None:  # (dispatch_payload never fails on a decoded payload)
        raise InvalidPayloadError(result.error or "the payload could not be dispatched")
    return HookRun(
        decision=result.decision,
        answer=result.answer,
        exit_code=result.exit_code,
        diagnostics=result.diagnostics,
    )


def run_hook(
    hook: HookLike,
    data: Mapping[str, Any] | HookInput[Any] | str | bytes,
    *,
    dialect: Dialect | str | None = None,
    matcher: str | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    backend: str = "asyncio",
    **options: Any,
) -> HookRun:
    """Run ``hook`` against one payload and return the typed decision and each
    handler's result: ``assert run_hook("guard.sh", payload("PreToolUse", command="rm -rf /")).blocked``.

    ``hook`` is a Python callback (either signature ``HookMatcher`` accepts), a handler
    (``CommandHook(...)``, ``CallbackHook(...)``, ...), a command line or a script's
    path (run by its absolute path; the payload on stdin, as the harness runs it), a
    hook file (a path ending ``.json``, ``.yaml``, ``.yml`` or ``.toml``, loaded in its
    format and trusted for this run: you asked for it), a ``HookRegistry`` or a
    ``LoadedConfig``. A callback, handler or command is registered for the payload's
    event with ``matcher`` (default: every call) in ``dialect`` (default: the payload's
    wire format, ``claude`` or ``docker``). ``data`` is a payload (a JSON object,
    its text, or a typed input). ``options`` are :class:`~agent_hooks.HookRegistry`
    options (``on_error=``, ``fail_closed=``, ``observers=``...).

    The hook runs in a session of its own, closed before this returns (so background
    handlers have ended), on ``backend`` (``asyncio`` or ``trio``): call it from
    synchronous code; in an async test, ``await arun_hook(...)``.

    Raises:
        InvalidPayloadError, UnknownEventError: ``data`` is no valid payload.
        FileNotFoundError: a hook file's path does not exist.
        RegistrationError: ``hook`` is none of the above.
        ValueError: an unknown dialect.
    """

    async def main() -> HookRun:
        return await arun_hook(
            hook, data, dialect=dialect, matcher=matcher, project_dir=project_dir, **options
        )

    return anyio.run(main, backend=backend)
