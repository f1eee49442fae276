"""Tool events: before and after a tool call, permission prompts, Docker Agent's transforms."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = [
    "BatchToolCall",
    "PermissionDecision",
    "PermissionDeniedInput",
    "PermissionDeniedOutput",
    "PermissionRequestDecision",
    "PermissionRequestInput",
    "PermissionRequestOutput",
    "PostToolBatchInput",
    "PostToolBatchOutput",
    "PostToolUseFailureInput",
    "PostToolUseFailureOutput",
    "PostToolUseInput",
    "PostToolUseOutput",
    "PreToolUseInput",
    "PreToolUseOutput",
    "ToolGuardInput",
    "ToolGuardOutput",
    "ToolInputTransformInput",
    "ToolInputTransformOutput",
    "ToolResponseTransformInput",
    "ToolResponseTransformOutput",
]

PermissionDecision = Literal["allow", "deny", "ask", "defer"]

_TOOL_NAME = "Name of the tool being called (``Bash``, ``Edit``, ``mcp__server__tool``, ``shell``)."
_TOOL_INPUT = (
    "Arguments of the tool call, as the model produced them (or as earlier hooks rewrote them)."
)
_TOOL_USE_ID = "Identifier of this tool call, shared by its Pre/Post events."
_AGENT_NAME = (
    "Docker Agent: name of the agent that issued the tool call; in multi-agent setups this "
    "is the active sub-agent, not always the root agent."
)
_DURATION_MS = (
    "Tool execution time in milliseconds, excluding permission prompts and PreToolUse hooks, "
    "when the host measures it."
)
_ADDITIONAL_CONTEXT = (
    "Text added to the model's context next to the tool result. Collected from every "
    "handler in order, newline-joined."
)
_METADATA = (
    "Free-form annotations for the host (Docker Agent ``metadata``: string keys and values "
    "merged into the tool-call confirmation prompt, e.g. ``safety_label``, ``blast_radius``, "
    "``category``, ``reason``), merged key by key, later handlers winning."
)


# ---------------------------------------------------------------- PreToolUse


@attrs.frozen(kw_only=True)
class PreToolUseOutput(HookOutput):
    """Answer to PreToolUse: allow, deny, ask or defer the call, rewrite its input, add context."""

    event: ClassVar[HookEvent | None] = HookEvent.PRE_TOOL_USE

    permission_decision: PermissionDecision | None = attrs.field(
        default=None,
        metadata=meta(
            "``allow`` skips the permission prompt, ``deny`` prevents the call, ``ask`` asks "
            "the user, ``defer`` hands the call back to the host. Across handlers the most "
            "restrictive wins: deny > defer > ask > allow.",
            merge=Merge.RANK,
            rank=("deny", "defer", "ask", "allow"),
            companion="permission_decision_reason",
        ),
    )
    permission_decision_reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "For deny, the reason the model reads; for allow and ask, shown to the user. "
            "Taken from the first handler at the winning rank.",
            merge=Merge.COMPANION,
        ),
    )
    updated_input: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the whole tool input before the call runs. In parallel dispatch the "
            "last handler in configuration order wins (a diagnostic names the others); in "
            "chained dispatch each handler sees the previous rewrite.",
            merge=Merge.LAST,
        ),
    )
    additional_context: str | None = attrs.field(
        default=None, metadata=meta(_ADDITIONAL_CONTEXT, merge=Merge.JOIN)
    )
    metadata: Mapping[str, Any] | None = attrs.field(
        default=None, metadata=meta(_METADATA, merge=Merge.UPDATE)
    )


@attrs.frozen(kw_only=True)
class PreToolUseInput(HookInput[PreToolUseOutput]):
    """A tool call is about to run (Docker Agent ``pre_tool_use``). Matcher field: ``tool_name``."""

    event: ClassVar[HookEvent] = HookEvent.PRE_TOOL_USE
    output_type: ClassVar[type[HookOutput]] = PreToolUseOutput

    tool_name: str = attrs.field(metadata=meta(_TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(_TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(_TOOL_USE_ID))
    agent_name: str | None = attrs.field(default=None, metadata=meta(_AGENT_NAME))


# ---------------------------------------------------------- PermissionRequest


@attrs.frozen(kw_only=True)
class PermissionRequestDecision:
    """The ``decision`` object a PermissionRequest handler answers with."""

    behavior: Literal["allow", "deny"] = attrs.field(
        metadata=meta("``allow`` grants the permission, ``deny`` refuses it.")
    )
    updated_input: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta("For allow: replaces the whole tool input before the call runs."),
    )
    updated_permissions: Sequence[Mapping[str, Any]] | None = attrs.field(
        default=None,
        metadata=meta(
            "For allow: permission update entries to apply (``addRules``, ``setMode``, ...)."
        ),
    )
    message: str | None = attrs.field(
        default=None, metadata=meta("For deny: tells the model why the permission was denied.")
    )
    interrupt: bool | None = attrs.field(
        default=None, metadata=meta("For deny: ``True`` also stops the agent.")
    )


@attrs.frozen(kw_only=True)
class PermissionRequestOutput(HookOutput):
    """Answer to PermissionRequest: grant or refuse on the user's behalf, or say nothing."""

    event: ClassVar[HookEvent | None] = HookEvent.PERMISSION_REQUEST

    permission_decision: PermissionRequestDecision | None = attrs.field(
        default=None,
        metadata=meta(
            "The decision object (wire name ``decision`` inside ``hookSpecificOutput``). "
            "Ranked by its ``behavior``: any deny wins; else any allow; else the host asks "
            "the user. The first handler's object at the winning behaviour is kept; a block "
            "(exit code 2) becomes ``behavior: deny`` with the reason as ``message``.",
            wire="decision",
            merge=Merge.RANK,
            rank=("deny", "allow"),
            rank_by="behavior",
            companion="message",
        ),
    )
    metadata: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            _METADATA + " Docker Agent accepts it even when no decision is returned.",
            merge=Merge.UPDATE,
        ),
    )


@attrs.frozen(kw_only=True)
class PermissionRequestInput(HookInput[PermissionRequestOutput]):
    """The host is about to ask the user for permission. Matcher field: ``tool_name``.

    Docker Agent fires it (``permission_request``) only when neither the safety mode nor a
    permission rule decided the call.
    """

    event: ClassVar[HookEvent] = HookEvent.PERMISSION_REQUEST
    output_type: ClassVar[type[HookOutput]] = PermissionRequestOutput

    tool_name: str = attrs.field(metadata=meta(_TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(_TOOL_INPUT))
    tool_use_id: str | None = attrs.field(
        default=None,
        metadata=meta(_TOOL_USE_ID + " Claude Code omits it here; Docker Agent sends it."),
    )
    permission_suggestions: Sequence[Mapping[str, Any]] | None = attrs.field(
        default=None,
        metadata=meta(
            'The "always allow" options the user would see in the permission dialog '
            '(permission update entries such as ``{"type": "addRules", ...}``).'
        ),
    )
    agent_name: str | None = attrs.field(default=None, metadata=meta(_AGENT_NAME))


# ---------------------------------------------------------------- PostToolUse


@attrs.frozen(kw_only=True)
class PostToolUseOutput(HookOutput):
    """Answer to PostToolUse: add context, or replace the result the model sees.

    A top-level ``decision: "block"`` puts ``reason`` next to the tool result; the tool
    has already run either way.
    """

    event: ClassVar[HookEvent | None] = HookEvent.POST_TOOL_USE

    additional_context: str | None = attrs.field(
        default=None, metadata=meta(_ADDITIONAL_CONTEXT, merge=Merge.JOIN)
    )
    updated_tool_output: Any = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the tool's output before the model sees it; must match the tool's "
            "output shape (an object for built-in tools). Only what the model sees changes. "
            "The last handler in configuration order wins.",
            merge=Merge.LAST,
        ),
    )
    updated_mcp_tool_output: Any = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the output of an MCP tool only (wire name ``updatedMCPToolOutput``). "
            "Prefer ``updated_tool_output``, which works for every tool.",
            wire="updatedMCPToolOutput",
            merge=Merge.LAST,
        ),
    )
    classifier_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Short note about this call's result for the auto-mode classifier rather than the "
            "model. Notes from every handler are newline-joined (the host caps the total).",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class PostToolUseInput(HookInput[PostToolUseOutput]):
    """A tool call completed. Matcher field: ``tool_name``.

    Claude Code and Deep Agents Code fire it after a success only (failures fire
    PostToolUseFailure); Docker Agent's ``post_tool_use`` fires after both and sets
    ``tool_error`` on failure.
    """

    event: ClassVar[HookEvent] = HookEvent.POST_TOOL_USE
    output_type: ClassVar[type[HookOutput]] = PostToolUseOutput

    tool_name: str = attrs.field(metadata=meta(_TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(_TOOL_INPUT))
    tool_response: Any = attrs.field(
        default=None,
        metadata=meta(
            "What the tool returned, in the tool's own shape (Claude Code: a structured "
            'object such as ``{"filePath": ..., "success": true}``; Docker Agent: the '
            "result text, with failure details on error)."
        ),
    )
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(_TOOL_USE_ID))
    duration_ms: int | None = attrs.field(default=None, metadata=meta(_DURATION_MS))
    tool_error: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "Docker Agent: ``True`` when the tool failed (details in ``tool_response``)."
        ),
    )
    agent_name: str | None = attrs.field(default=None, metadata=meta(_AGENT_NAME))


# --------------------------------------------------------- PostToolUseFailure


@attrs.frozen(kw_only=True)
class PostToolUseFailureOutput(HookOutput):
    """Answer to PostToolUseFailure: add context next to the error."""

    event: ClassVar[HookEvent | None] = HookEvent.POST_TOOL_USE_FAILURE

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added to the model's context next to the error. Collected from every "
            "handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class PostToolUseFailureInput(HookInput[PostToolUseFailureOutput]):
    """A tool that started executing failed (threw, or an MCP tool returned an error).

    Not fired for calls rejected before running (validation, permission denial).
    Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.POST_TOOL_USE_FAILURE
    output_type: ClassVar[type[HookOutput]] = PostToolUseFailureOutput

    tool_name: str = attrs.field(metadata=meta(_TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(_TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(_TOOL_USE_ID))
    error: str | None = attrs.field(
        default=None,
        metadata=meta(
            "What went wrong, usually the text the model receives as the tool result. For "
            "shell tools the first line is ``Exit code N``; treat the rest as display text."
        ),
    )
    is_interrupt: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``True`` when the failure reached the host as an abort rather than an error "
            "the tool reported."
        ),
    )
    duration_ms: int | None = attrs.field(default=None, metadata=meta(_DURATION_MS))


# -------------------------------------------------------------- PostToolBatch


@attrs.frozen(kw_only=True)
class BatchToolCall:
    """One resolved tool call in a PostToolBatch ``tool_calls`` list."""

    tool_name: str = attrs.field(metadata=meta(_TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(_TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(_TOOL_USE_ID))
    tool_response: Any = attrs.field(
        default=None,
        metadata=meta(
            "The serialized ``tool_result`` content the model receives (a string or a "
            "content-block array), not PostToolUse's structured object."
        ),
    )


@attrs.frozen(kw_only=True)
class PostToolBatchOutput(HookOutput):
    """Answer to PostToolBatch: context injected once before the next model call.

    ``decision: "block"`` or ``continue: false`` stops the loop before that call.
    """

    event: ClassVar[HookEvent | None] = HookEvent.POST_TOOL_BATCH

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text injected once before the next model call, about the batch as a whole. "
            "Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class PostToolBatchInput(HookInput[PostToolBatchOutput]):
    """Every tool call of a batch has resolved; fires once before the next model request.

    No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.POST_TOOL_BATCH
    output_type: ClassVar[type[HookOutput]] = PostToolBatchOutput

    tool_calls: Sequence[BatchToolCall] = attrs.field(
        factory=tuple,
        metadata=meta("Every tool call in the batch, in the order the model issued them."),
    )


# ------------------------------------------------------------ PermissionDenied


@attrs.frozen(kw_only=True)
class PermissionDeniedOutput(HookOutput):
    """Answer to PermissionDenied: tell the model it may retry the call."""

    event: ClassVar[HookEvent | None] = HookEvent.PERMISSION_DENIED

    retry: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``True`` adds a message telling the model it may retry the denied call (the "
            "denial itself stands). Any handler may turn it on.",
            merge=Merge.ANY,
        ),
    )


@attrs.frozen(kw_only=True)
class PermissionDeniedInput(HookInput[PermissionDeniedOutput]):
    """Auto mode's classifier denied a tool call. Matcher field: ``tool_name``.

    Not fired for manual denials, PreToolUse blocks or deny rules.
    """

    event: ClassVar[HookEvent] = HookEvent.PERMISSION_DENIED
    output_type: ClassVar[type[HookOutput]] = PermissionDeniedOutput

    tool_name: str = attrs.field(metadata=meta(_TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(_TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(_TOOL_USE_ID))
    reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why the call was denied: usually ``Blocked by classifier`` or the classifier's "
            "explanation; ``Classifier unavailable``; or text starting with ``Auto mode could "
            "not evaluate this action`` when there was no verdict."
        ),
    )


# ------------------------------------------------------------------ ToolGuard


@attrs.frozen(kw_only=True)
class ToolGuardOutput(HookOutput):
    """Answer to ToolGuard: block the call with ``decision: "block"`` and ``reason``.

    The event has no fields of its own; the universal fields (and exit code 2) carry
    the verdict.
    """

    event: ClassVar[HookEvent | None] = HookEvent.TOOL_GUARD


@attrs.frozen(kw_only=True)
class ToolGuardInput(HookInput[ToolGuardOutput]):
    """Docker Agent ``tool_guard``: a guard check on a tool call before it runs.

    It can block and fails closed (a failing guard blocks the call whatever ``on_error``
    says). Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.TOOL_GUARD
    output_type: ClassVar[type[HookOutput]] = ToolGuardOutput

    tool_name: str = attrs.field(metadata=meta(_TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(_TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(_TOOL_USE_ID))
    agent_name: str | None = attrs.field(default=None, metadata=meta(_AGENT_NAME))


# --------------------------------------------------------- ToolInputTransform


@attrs.frozen(kw_only=True)
class ToolInputTransformOutput(HookOutput):
    """Answer to ToolInputTransform: the rewritten tool input."""

    event: ClassVar[HookEvent | None] = HookEvent.TOOL_INPUT_TRANSFORM

    updated_input: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the tool input before the call runs. Handlers run chained in "
            "configuration order, each seeing the previous rewrite; the last one wins.",
            merge=Merge.LAST,
        ),
    )


@attrs.frozen(kw_only=True)
class ToolInputTransformInput(HookInput[ToolInputTransformOutput]):
    """Docker Agent ``tool_input_transform``: rewrite a tool call's arguments before it runs.

    Cannot block. Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.TOOL_INPUT_TRANSFORM
    output_type: ClassVar[type[HookOutput]] = ToolInputTransformOutput

    tool_name: str = attrs.field(metadata=meta(_TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(_TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(_TOOL_USE_ID))
    agent_name: str | None = attrs.field(default=None, metadata=meta(_AGENT_NAME))


# ------------------------------------------------------ ToolResponseTransform


@attrs.frozen(kw_only=True)
class ToolResponseTransformOutput(HookOutput):
    """Answer to ToolResponseTransform: the rewritten tool result."""

    event: ClassVar[HookEvent | None] = HookEvent.TOOL_RESPONSE_TRANSFORM

    updated_tool_response: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the tool output for every downstream consumer (event subscribers, the "
            "session file, post_tool_use input, the next model call). Handlers run chained "
            "in configuration order, each seeing the previous rewrite; the last one wins.",
            merge=Merge.LAST,
        ),
    )


@attrs.frozen(kw_only=True)
class ToolResponseTransformInput(HookInput[ToolResponseTransformOutput]):
    """Docker Agent ``tool_response_transform``: between a tool's execution and the runtime
    emitting and recording its response. Used to truncate, redact or normalise results.

    Cannot block. Matcher field: ``tool_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.TOOL_RESPONSE_TRANSFORM
    output_type: ClassVar[type[HookOutput]] = ToolResponseTransformOutput

    tool_name: str = attrs.field(metadata=meta(_TOOL_NAME))
    tool_input: Mapping[str, Any] = attrs.field(factory=dict, metadata=meta(_TOOL_INPUT))
    tool_use_id: str | None = attrs.field(default=None, metadata=meta(_TOOL_USE_ID))
    tool_response: Any = attrs.field(
        default=None,
        metadata=meta(
            "The tool output as produced (or as earlier transforms rewrote it), usually text."
        ),
    )
