"""MCP tool hooks (Claude Code's ``type: "mcp_tool"``): an MCP tool answers for the hook.

agent_hooks speaks no MCP itself: the application passes an :class:`McpCaller`
(server, tool, arguments -> result). String values of ``input`` support
``${path}`` substitution from the hook input (``${tool_input.file_path}``). The
tool's text content is read like command stdout on exit 0 (a JSON object is the
answer; other text is context where the event takes plain stdout). ``isError``,
a missing server (the caller raises ``LookupError``) or any other failure is a
non-blocking error with a diagnostic. Under Claude Code's ``"onFailure": "block"``
(``answer_must_be_valid``) the tool must answer hook JSON, ``{}`` or nothing
(:func:`~agent_hooks._handlers._on_failure.mcp_answer_fails`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Mapping
from typing import Any, Protocol

import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from .._base._errors import RegistrationError
from ._command import interpret_process
from ._nodes import HandlerNode, HandlerResult, HookCall, OnError
from ._on_failure import mcp_answer_fails
from ._process import ProcessResult

__all__ = ["McpCaller", "McpToolHook", "substitute_paths"]

_PATH = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}")


class McpCaller(Protocol):
    """Calls a tool on a connected MCP server. Returns the MCP ``CallToolResult`` as a
    mapping (``content`` list of ``{"type": "text", "text": ...}``, ``isError``), or
    plain text. Raises ``LookupError`` when the server is not connected."""

    def __call__(self, server: str, tool: str, arguments: Mapping[str, Any]) -> Awaitable[Any]: ...


def _resolve(payload: Mapping[str, Any], path: str) -> Any:
    value: Any = payload
    for part in path.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def substitute_paths(value: Any, payload: Mapping[str, Any]) -> Any:
    """Replace ``${a.b}`` in string values (recursively). A string that is exactly one
    reference takes the referenced value as is; inside text it is formatted; missing
    paths become empty strings."""
    if isinstance(value, str):
        whole = _PATH.fullmatch(value)
        if whole:
            found = _resolve(payload, whole.group(1))
            return "" if found is None else found
        return _PATH.sub(lambda m: _as_text(_resolve(payload, m.group(1))), value)
    if isinstance(value, Mapping):
        return {k: substitute_paths(v, payload) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute_paths(v, payload) for v in value]
    return value


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _error(message: str) -> HandlerResult:
    return HandlerResult.failure(DiagnosticCode.NONZERO_EXIT, message, severity=Severity.WARNING)


@attrs.frozen(kw_only=True)
class McpToolHook:
    """A hook answered by an MCP tool.

    Raises:
        RegistrationError: no server or tool.
    """

    server: str
    tool: str
    caller: McpCaller
    input: Mapping[str, Any] = attrs.field(factory=dict)
    timeout: float | None = None
    name: str | None = None
    on_error: OnError | None = None
    if_rule: str | None = None
    status_message: str | None = None
    answer_must_be_valid: bool = False
    """Claude Code's ``onFailure: "block"``: the tool must answer hook JSON, ``{}`` or
    nothing; anything else is a failure, under ``on_error``
    (:func:`~agent_hooks._handlers._on_failure.mcp_answer_fails`)."""

    def __attrs_post_init__(self) -> None:
        if not self.server or not self.tool:
            raise RegistrationError("mcp_tool hook needs 'server' and 'tool'")

    def to_node(self) -> HandlerNode:
        """Build the handler node."""
        hook = self

        async def call(c: HookCall) -> HandlerResult:
            payload = c.payload("claude")
            arguments = substitute_paths(dict(hook.input), payload)
            try:
                result = await hook.caller(hook.server, hook.tool, arguments)
            except LookupError as exc:
                return _error(f"MCP server {hook.server!r} is not connected: {exc}")
            except Exception as exc:
                return _error(
                    f"MCP tool {hook.server}/{hook.tool} failed: {type(exc).__name__}: {exc}"
                )
            if isinstance(result, Mapping):
                if result.get("isError"):
                    return _error(
                        f"MCP tool {hook.server}/{hook.tool} returned an error: {_content_text(result)[:300]}"
                    )
                text = _content_text(result)
            else:
                text = _as_text(result)
            as_stdout = ProcessResult(
                returncode=0,
                signal=None,
                stdout=text.encode("utf-8"),
                stderr=b"",
                stdout_truncated=False,
                stderr_truncated=False,
                timed_out=False,
                launch_error=None,
                duration=0.0,
            )
            read = interpret_process(c.spec, c.dialect, as_stdout, name=hook.name or hook.tool)
            if hook.answer_must_be_valid:
                return mcp_answer_fails(c.spec.event, result, text, read)
            return read

        return HandlerNode(
            name=self.name or f"mcp {self.server}/{self.tool}",
            kind="mcp_tool",
            call=call,
            timeout=self.timeout,
            on_error=self.on_error,
            if_rule=self.if_rule,
            status_message=self.status_message,
        )


def _content_text(result: Mapping[str, Any]) -> str:
    content = result.get("content")
    if isinstance(content, list):
        return "\n".join(
            str(item.get("text", ""))
            for item in content
            if isinstance(item, Mapping) and item.get("type") == "text"
        )
    if isinstance(content, str):
        return content
    return ""
