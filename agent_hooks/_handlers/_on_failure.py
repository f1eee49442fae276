"""Claude Code's ``onFailure: "block"`` (2.1.295 and later) as a handler sees it.

The loaders turn ``"onFailure": "block"`` into the failure policy ``on_error="block"``
(:mod:`._kinds`); what is left for the handler is the part of Claude Code's definition
of a failure that the library reads leniently otherwise: a hook that "printed JSON that
is invalid or fails validation". With ``block`` such an answer is a failure of the hook
(an ``invalid_output`` error, outcome ``error``), so the policy blocks; without it the
answer is read as before (malformed JSON as plain text, a field of the wrong type or
value ignored, each with its diagnostic).

For ``mcp_tool`` hooks Claude Code is stricter still: the tool must answer with hook
JSON, ``{}`` or nothing; plain text (except on PreCompact and WorktreeCreate, where it
is the answer), an image, or JSON holding none of a hook output's fields is a failure
too (:func:`mcp_answer_fails`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from .._base._diagnostics import DiagnosticCode
from .._events._names import HookEvent
from ._nodes import HandlerResult, Outcome

__all__ = ["INVALID_ANSWER_CODES", "invalid_answer_fails", "mcp_answer_fails"]

INVALID_ANSWER_CODES = frozenset(
    {
        DiagnosticCode.MALFORMED_JSON,
        DiagnosticCode.NOT_OBJECT,
        DiagnosticCode.WRONG_TYPE,
        DiagnosticCode.INVALID_VALUE,
        DiagnosticCode.MISMATCHED_OUTPUT,
    }
)
"""What "JSON that is invalid or fails validation" is: output that looked like JSON and
did not parse or is no object, a field of the wrong type or outside its allowed values,
a ``hookEventName`` of another event. Unknown and deprecated keys are not failures (Claude
Code's schema lets them through)."""

_PLAIN_TEXT_ANSWERS = frozenset({HookEvent.PRE_COMPACT, HookEvent.WORKTREE_CREATE})


def failed(result: HandlerResult, message: str) -> HandlerResult:
    """``result`` as a failure of the hook: outcome ``error``, no answer, an
    ``invalid_output`` error saying ``message``."""
    return HandlerResult.failure(
        DiagnosticCode.INVALID_OUTPUT,
        message,
        earlier=result.diagnostics,
        exit_code=result.exit_code,
    )


def invalid_answer_fails(result: HandlerResult) -> HandlerResult:
    """A result whose answer is invalid JSON or fails validation (a diagnostic of
    :data:`INVALID_ANSWER_CODES`) as a failure of the hook; any other result as it is
    (blocks and failures included)."""
    if result.outcome is not Outcome.OK:
        return result
    bad = next((d for d in result.diagnostics if d.code in INVALID_ANSWER_CODES), None)
    if bad is None:
        return result
    return failed(
        result,
        f"onFailure is block and the answer is invalid JSON or fails validation ({bad.message})",
    )


def mcp_answer_fails(
    event: object, answer: object, text: str, result: HandlerResult
) -> HandlerResult:
    """An MCP tool's answer under ``onFailure: "block"``: ``result`` (``text``, the text
    content of ``answer``, read like command stdout) as a failure of the hook when the
    tool answered other content than text (an image), plain text (but on PreCompact and
    WorktreeCreate), JSON holding none of a hook output's fields, or invalid JSON
    (:func:`invalid_answer_fails`); else ``result`` as it is."""
    if result.outcome is not Outcome.OK:
        return result
    content = answer.get("content") if isinstance(answer, Mapping) else None
    others = sorted(
        {
            str(item.get("type"))
            for item in (content if isinstance(content, list) else [])
            if isinstance(item, Mapping) and item.get("type") != "text"
        }
    )
    if others:
        return failed(
            result,
            f"onFailure is block and the MCP tool answered {', '.join(others)} content, "
            "not hook JSON",
        )
    stripped = text.strip()
    if not stripped:
        return result
    if not stripped.startswith("{"):
        if event in _PLAIN_TEXT_ANSWERS:
            return result
        return failed(
            result, "onFailure is block and the MCP tool answered plain text, not hook JSON"
        )
    checked = invalid_answer_fails(result)
    if checked is not result:
        return checked
    try:
        obj = json.loads(stripped)
    except ValueError:  # (said by invalid_answer_fails already)
        return result
    extra = getattr(result.output, "extra", None) or {}
    if isinstance(obj, dict) and obj and all(key in extra for key in obj):
        return failed(
            result,
            "onFailure is block and the MCP tool's JSON holds none of a hook output's fields",
        )
    return result
