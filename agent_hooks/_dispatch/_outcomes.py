"""What the session's lifecycle helpers return (:mod:`agent_hooks._dispatch._lifecycle`): the
permission prompt and answer around a tool call, and the outcome of each helper.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs

from .._base._diagnostics import Diagnostic
from ._decision import Decision

__all__ = [
    "PermissionAnswer",
    "PermissionPrompt",
    "PromptOutcome",
    "StopOutcome",
    "ToolCallOutcome",
    "TurnOutcome",
]


@attrs.frozen(kw_only=True)
class PermissionPrompt:
    """What the application's permission callback is asked to decide.

    ``hook_decision`` is what the hooks said: ``allow`` (a PreToolUse or
    PermissionRequest hook approved: the application may still refuse under
    its own rules), ``ask`` or ``defer`` (a hook wants a person to decide), or
    ``None`` (no hook had an opinion: the application's normal permission flow).
    """

    tool_name: str
    tool_input: Mapping[str, Any]
    tool_use_id: str | None
    hook_decision: Literal["allow", "ask", "defer"] | None
    reason: str | None
    """The hook's reason for its decision, when it gave one."""


@attrs.frozen(kw_only=True)
class PermissionAnswer:
    """The application's answer: allow or not, with a message for the model when not,
    and optionally a rewritten input."""

    allow: bool
    message: str | None = None
    updated_input: Mapping[str, Any] | None = None


@attrs.frozen(kw_only=True)
class ToolCallOutcome:
    """Everything that happened around one tool call."""

    tool_name: str
    ran: bool
    """Whether the tool was executed."""
    input: Mapping[str, Any]
    """The input actually used (after transforms and hook rewrites)."""
    result: Any = None
    """The tool's raw return value (``None`` when it did not run or raised)."""
    error: BaseException | None = None
    """The exception the tool raised, if it did."""
    model_view: Any = None
    """What the model should see as the tool result: the result, a hook's
    replacement, the joined block feedback, or the denial reason."""
    denied: bool = False
    """The call was refused (by a hook or by the permission callback)."""
    reason: str | None = None
    """Why it was refused, for the model."""
    context: str | None = None
    """Context to add next to the result, newline-joined in order."""
    messages: tuple[str, ...] = ()
    """Messages for the user (system messages)."""
    stop: bool = False
    """A hook asked the agent to stop entirely: ``continue: false`` from any event of
    the call, or a PermissionRequest deny with ``interrupt``. End the agent loop."""
    stop_reason: str | None = None
    """Why it must stop (the first ``stopReason``), for the user rather than the model."""
    duration_ms: int | None = None
    """How long the tool ran (``None`` when it did not run)."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """Every decision's diagnostics, and the permission callback's failure, in order."""
    decisions: tuple[Decision[Any], ...] = ()
    """Every decision made along the way, in order."""


@attrs.frozen(kw_only=True)
class PromptOutcome:
    """What the hooks did with a submitted prompt."""

    blocked: bool
    reason: str | None = None
    context: str | None = None
    """Context for this turn only."""
    suppress_original: bool = False
    session_title: str | None = None
    messages: tuple[str, ...] = ()
    stop: bool = False
    stop_reason: str | None = None
    decision: Decision[Any] | None = None


@attrs.frozen(kw_only=True)
class TurnOutcome:
    """Result of a turn-level event (TurnStart, TurnEnd, BeforeLLMCall, AfterLLMCall, SessionStart)."""

    blocked: bool = False
    reason: str | None = None
    context: str | None = None
    messages: tuple[str, ...] = ()
    rewritten: Any = None
    """For BeforeLLMCall: the messages as rewritten by hooks (``None``: unchanged)."""
    stop: bool = False
    stop_reason: str | None = None
    decision: Decision[Any] | None = None


@attrs.frozen(kw_only=True)
class StopOutcome:
    """Whether the agent may stop, or must go on with the hooks' feedback.

    A block, or Stop ``additional_context``, keeps the agent going (``should_stop``
    false, ``feedback`` set) until the registry's ``stop_continuation_cap``; a hook's
    ``continue: false`` lets it stop whatever else was said."""

    should_stop: bool
    """The agent may end its turn."""
    feedback: str | None = None
    """When it must go on: the hooks' reasons, its next instruction."""
    capped: bool = False
    """The hooks kept blocking and the continuation cap was reached: the agent may stop."""
    context: str | None = None
    """The Stop decision's context: its ``additional_context`` and what background
    hooks delivered with it, newline-joined."""
    messages: tuple[str, ...] = ()
    """Messages for the user (system messages)."""
    decision: Decision[Any] | None = None
    """The Stop decision itself."""
