"""Prompt, turn, model-call and stopping events.

User prompts (and Docker Agent's steering and follow-up queues), message display,
turn boundaries, the calls to the model, and the end of a response (Stop,
StopFailure, Codex's Interrupt).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = [
    "AfterLLMCallInput",
    "AfterLLMCallOutput",
    "BackgroundTask",
    "BeforeLLMCallInput",
    "BeforeLLMCallOutput",
    "InterruptInput",
    "InterruptOutput",
    "LLMUsage",
    "MessageDisplayInput",
    "MessageDisplayOutput",
    "OnUserInputInput",
    "OnUserInputOutput",
    "SessionCron",
    "StopFailureInput",
    "StopFailureOutput",
    "StopInput",
    "StopOutput",
    "TurnEndInput",
    "TurnEndOutput",
    "TurnStartInput",
    "TurnStartOutput",
    "UserFollowupSubmitInput",
    "UserFollowupSubmitOutput",
    "UserPromptExpansionInput",
    "UserPromptExpansionOutput",
    "UserPromptSubmitInput",
    "UserPromptSubmitOutput",
    "UserSteeringMessagesSubmitInput",
    "UserSteeringMessagesSubmitOutput",
]

_PROMPT_CONTEXT = (
    "Text added to the model's context alongside the submitted prompt (Docker Agent: a "
    "transient system message for that turn only). Collected from every handler in order, "
    "newline-joined."
)
_AGENT_NAME = "Docker Agent: name of the agent that was running."
_STOP_RESPONSE = (
    "Docker Agent: the model's final assistant text (Claude-style hosts send "
    "``last_assistant_message`` instead)."
)
_LAST_USER_MESSAGE = "Docker Agent: the most recent user message when the event was dispatched."
_MODEL_ID = (
    "Docker Agent: the model as ``<provider>/<model>`` (``anthropic/claude-sonnet-4-5``), or "
    "the harness label (``claude-code``) for harness agents."
)


# ------------------------------------------------------------ UserPromptSubmit


@attrs.frozen(kw_only=True)
class UserPromptSubmitOutput(HookOutput):
    """Answer to UserPromptSubmit: block the prompt, add context, name the session.

    ``decision: "block"`` refuses the prompt and erases it from context; ``reason`` is
    shown to the user, not the model.
    """

    event: ClassVar[HookEvent | None] = HookEvent.USER_PROMPT_SUBMIT

    additional_context: str | None = attrs.field(
        default=None, metadata=meta(_PROMPT_CONTEXT, merge=Merge.JOIN)
    )
    suppress_original_prompt: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "With a block: leave the original prompt text out of the block message shown "
            "to the user. Any handler may turn it on.",
            merge=Merge.ANY,
        ),
    )
    session_title: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Sets the session title (like ``/rename``). The first handler that sets it wins.",
            merge=Merge.FIRST,
        ),
    )


@attrs.frozen(kw_only=True)
class UserPromptSubmitInput(HookInput[UserPromptSubmitOutput]):
    """The user submitted a prompt, before the model processes it. No matcher.

    Docker Agent (``user_prompt_submit``) fires it once per user message, not for
    runtime-synthesised sub-session messages nor for queued follow-ups.
    """

    event: ClassVar[HookEvent] = HookEvent.USER_PROMPT_SUBMIT
    output_type: ClassVar[type[HookOutput]] = UserPromptSubmitOutput

    prompt: str | None = attrs.field(default=None, metadata=meta("The text the user submitted."))


# --------------------------------------------------------- UserPromptExpansion


@attrs.frozen(kw_only=True)
class UserPromptExpansionOutput(HookOutput):
    """Answer to UserPromptExpansion: block the command (``decision: "block"``) or add context."""

    event: ClassVar[HookEvent | None] = HookEvent.USER_PROMPT_EXPANSION

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added to the model's context alongside the expanded prompt. Collected "
            "from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class UserPromptExpansionInput(HookInput[UserPromptExpansionOutput]):
    """A user-typed command (``/skill``, custom command, MCP prompt) is expanding into a prompt.

    Fires on the direct path that PreToolUse on the ``Skill`` tool does not see.
    Matcher field: ``command_name``.
    """

    event: ClassVar[HookEvent] = HookEvent.USER_PROMPT_EXPANSION
    output_type: ClassVar[type[HookOutput]] = UserPromptExpansionOutput

    expansion_type: str | None = attrs.field(
        default=None,
        metadata=meta(
            "What expands: ``slash_command`` (skills and custom commands) or ``mcp_prompt`` "
            "(MCP server prompts)."
        ),
    )
    command_name: str | None = attrs.field(
        default=None, metadata=meta("Name of the command, without the slash (``deploy``).")
    )
    command_args: str | None = attrs.field(
        default=None, metadata=meta("Arguments typed after the command name, as one string.")
    )
    command_source: str | None = attrs.field(
        default=None,
        metadata=meta("Where the command comes from (``plugin``, ``project``, ``user``, ...)."),
    )
    prompt: str | None = attrs.field(
        default=None, metadata=meta("The original prompt as typed (``/deploy staging``).")
    )


# -------------------------------------------------- UserSteeringMessagesSubmit


@attrs.frozen(kw_only=True)
class UserSteeringMessagesSubmitOutput(HookOutput):
    """Answer to UserSteeringMessagesSubmit: block the run (``decision: "block"``) or add
    context.
    """

    event: ClassVar[HookEvent | None] = HookEvent.USER_STEERING_MESSAGES_SUBMIT

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text spliced into the steered turn as a transient system message (never "
            "persisted). Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class UserSteeringMessagesSubmitInput(HookInput[UserSteeringMessagesSubmitOutput]):
    """Docker Agent ``user_steering_messages_submit``: the runtime drained its steering queue.

    Steering messages are those the user sent while the agent was already working (mid-turn,
    after the model stopped, or idle before the first model call). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.USER_STEERING_MESSAGES_SUBMIT
    output_type: ClassVar[type[HookOutput]] = UserSteeringMessagesSubmitOutput

    steering_messages: Sequence[str] = attrs.field(
        factory=tuple,
        metadata=meta("The drained steering messages, in submission order."),
    )


# -------------------------------------------------------- UserFollowupSubmit


@attrs.frozen(kw_only=True)
class UserFollowupSubmitOutput(HookOutput):
    """Answer to UserFollowupSubmit: block the follow-up (``decision: "block"``) or add context."""

    event: ClassVar[HookEvent | None] = HookEvent.USER_FOLLOWUP_SUBMIT

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text spliced into the follow-up turn as a transient system message (never "
            "persisted). Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class UserFollowupSubmitInput(HookInput[UserFollowupSubmitOutput]):
    """Docker Agent ``user_followup_submit``: a queued follow-up message starts a new turn.

    Follow-ups are user messages queued for end-of-turn processing (unlike mid-turn
    steering); each gets a whole turn. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.USER_FOLLOWUP_SUBMIT
    output_type: ClassVar[type[HookOutput]] = UserFollowupSubmitOutput

    prompt: str | None = attrs.field(
        default=None, metadata=meta("Text of the dequeued follow-up message.")
    )


# ---------------------------------------------------------------- OnUserInput


@attrs.frozen(kw_only=True)
class OnUserInputOutput(HookOutput):
    """Answer to OnUserInput: nothing beyond the universal fields (the event is observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_USER_INPUT


@attrs.frozen(kw_only=True)
class OnUserInputInput(HookInput[OnUserInputOutput]):
    """Docker Agent ``on_user_input``: the agent is waiting for the user's input.

    No fields of its own. Cannot block. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_USER_INPUT
    output_type: ClassVar[type[HookOutput]] = OnUserInputOutput


# ------------------------------------------------------------- MessageDisplay


@attrs.frozen(kw_only=True)
class MessageDisplayOutput(HookOutput):
    """Answer to MessageDisplay: what to show on screen instead of the batch.

    Display-only: the transcript and what the model sees keep the original text.
    """

    event: ClassVar[HookEvent | None] = HookEvent.MESSAGE_DISPLAY

    display_content: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text displayed in place of ``delta``; omit to display the original. The first "
            "handler that sets it wins.",
            merge=Merge.FIRST,
        ),
    )


@attrs.frozen(kw_only=True)
class MessageDisplayInput(HookInput[MessageDisplayOutput]):
    """A batch of an assistant message's text is about to be displayed.

    Interactive hosts fire it once per batch of completed lines; non-interactive runs
    once per message with the whole text (``index`` 0, ``final`` true). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.MESSAGE_DISPLAY
    output_type: ClassVar[type[HookOutput]] = MessageDisplayOutput

    turn_id: str | None = attrs.field(default=None, metadata=meta("UUID of the current turn."))
    message_id: str | None = attrs.field(
        default=None,
        metadata=meta(
            "UUID of the assistant message, stable across its batches (not the API ``msg_...`` id)."
        ),
    )
    index: int | None = attrs.field(
        default=None, metadata=meta("Zero-based index of this batch within the message.")
    )
    final: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``True`` on the message's last batch (exactly one per message); use it, not an "
            "empty ``delta``, as the end-of-message signal."
        ),
    )
    delta: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Lines completed since the previous batch, newlines included; the final batch "
            "may end mid-line or be empty."
        ),
    )


# ------------------------------------------------------------------ TurnStart


@attrs.frozen(kw_only=True)
class TurnStartOutput(HookOutput):
    """Answer to TurnStart: transient context for this turn."""

    event: ClassVar[HookEvent | None] = HookEvent.TURN_START

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added for this turn only as a transient system message (recomputed every "
            "turn, never persisted). Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class TurnStartInput(HookInput[TurnStartOutput]):
    """Docker Agent ``turn_start``: an agent turn begins (once per model call).

    No fields of its own. Cannot block. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.TURN_START
    output_type: ClassVar[type[HookOutput]] = TurnStartOutput


# -------------------------------------------------------------------- TurnEnd


@attrs.frozen(kw_only=True)
class TurnEndOutput(HookOutput):
    """Answer to TurnEnd: nothing beyond the universal fields (the result is ignored)."""

    event: ClassVar[HookEvent | None] = HookEvent.TURN_END


@attrs.frozen(kw_only=True)
class TurnEndInput(HookInput[TurnEndOutput]):
    """Docker Agent ``turn_end``: an agent turn ended, whatever the reason.

    Dispatched on every exit path, cancellation included. Observational. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.TURN_END
    output_type: ClassVar[type[HookOutput]] = TurnEndOutput

    agent_name: str | None = attrs.field(default=None, metadata=meta(_AGENT_NAME))
    reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why the turn ended: ``normal`` (model finished), ``continue`` (more iterations "
            "follow), ``steered`` (drained steering re-entered the loop), ``error`` (model "
            "call failed), ``canceled``, ``hook_blocked`` (before_llm_call or post_tool_use "
            "refused), ``loop_detected``."
        ),
    )


# -------------------------------------------------------------- BeforeLLMCall


@attrs.frozen(kw_only=True)
class BeforeLLMCallOutput(HookOutput):
    """Answer to BeforeLLMCall: stop the run (``decision: "block"``) or rewrite the messages.

    It cannot add context (use TurnStart for that).
    """

    event: ClassVar[HookEvent | None] = HookEvent.BEFORE_LLM_CALL

    messages: Sequence[Mapping[str, Any]] | None = attrs.field(
        default=None,
        metadata=meta(
            "Replaces the outgoing chat messages (e.g. with secrets redacted). Handlers run "
            "chained, each seeing the previous rewrite; the last one wins.",
            merge=Merge.LAST,
        ),
    )


@attrs.frozen(kw_only=True)
class BeforeLLMCallInput(HookInput[BeforeLLMCallOutput]):
    """Docker Agent ``before_llm_call``: just before every model call (after ``turn_start``).

    Can block, which stops the run (the built-in ``max_iterations`` uses it). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.BEFORE_LLM_CALL
    output_type: ClassVar[type[HookOutput]] = BeforeLLMCallOutput

    iteration: int | None = attrs.field(
        default=None,
        metadata=meta("1-based run-loop iteration counter: which model call this gates."),
    )
    model_id: str | None = attrs.field(default=None, metadata=meta(_MODEL_ID))
    messages: Sequence[Mapping[str, Any]] | None = attrs.field(
        default=None,
        metadata=meta("The outgoing chat messages, when the host sends them for rewriting."),
    )


# --------------------------------------------------------------- AfterLLMCall


@attrs.frozen(kw_only=True)
class LLMUsage:
    """Token usage of one model call (Docker Agent ``usage``)."""

    input_tokens: int | None = attrs.field(default=None, metadata=meta("Input tokens."))
    output_tokens: int | None = attrs.field(default=None, metadata=meta("Output tokens."))
    cached_input_tokens: int | None = attrs.field(
        default=None, metadata=meta("Input tokens read from the prompt cache.")
    )
    cached_write_tokens: int | None = attrs.field(
        default=None, metadata=meta("Input tokens written to the prompt cache.")
    )
    reasoning_tokens: int | None = attrs.field(
        default=None, metadata=meta("Reasoning tokens; absent for non-reasoning models.")
    )


@attrs.frozen(kw_only=True)
class AfterLLMCallOutput(HookOutput):
    """Answer to AfterLLMCall: nothing beyond the universal fields (the event cannot block)."""

    event: ClassVar[HookEvent | None] = HookEvent.AFTER_LLM_CALL


@attrs.frozen(kw_only=True)
class AfterLLMCallInput(HookInput[AfterLLMCallOutput]):
    """Docker Agent ``after_llm_call``: a model call succeeded, before its response is recorded
    and its tool calls dispatched. Fires inside sub-sessions too (``session_id`` is then the
    sub-session's). Failed calls fire OnError instead. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.AFTER_LLM_CALL
    output_type: ClassVar[type[HookOutput]] = AfterLLMCallOutput

    agent_name: str | None = attrs.field(default=None, metadata=meta(_AGENT_NAME))
    stop_response: str | None = attrs.field(
        default=None, metadata=meta("The assistant text of this response.")
    )
    last_user_message: str | None = attrs.field(default=None, metadata=meta(_LAST_USER_MESSAGE))
    model_id: str | None = attrs.field(default=None, metadata=meta(_MODEL_ID))
    usage: LLMUsage | None = attrs.field(
        default=None,
        metadata=meta("Token usage of this call; absent when the provider reports none."),
    )
    cost: float | None = attrs.field(
        default=None,
        metadata=meta(
            "Price of this one response in USD. Absent means unpriced; an explicit 0 means "
            "priced and free. For harness agents, the total the harness reported."
        ),
    )


# ----------------------------------------------------------------------- Stop


@attrs.frozen(kw_only=True)
class BackgroundTask:
    """One in-flight background task in a Stop/SubagentStop ``background_tasks`` list."""

    id: str | None = attrs.field(default=None, metadata=meta("Task identifier."))
    type: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Which feature created the task: ``shell``, ``subagent``, ``monitor``, "
            "``workflow``, ``teammate``, ``cloud session``, ``MCP task``, or a raw type."
        ),
    )
    status: str | None = attrs.field(default=None, metadata=meta("Current task status."))
    description: str | None = attrs.field(
        default=None, metadata=meta("Free-text description, capped at 1000 characters.")
    )
    command: str | None = attrs.field(
        default=None, metadata=meta("Shell command line; ``shell`` tasks only.")
    )
    agent_type: str | None = attrs.field(
        default=None, metadata=meta("Subagent type name; ``subagent`` tasks only.")
    )
    server: str | None = attrs.field(
        default=None, metadata=meta("MCP server name; ``monitor`` and ``MCP task`` tasks only.")
    )
    tool: str | None = attrs.field(
        default=None, metadata=meta("MCP tool name; ``monitor`` and ``MCP task`` tasks only.")
    )
    name: str | None = attrs.field(
        default=None, metadata=meta("Workflow name; ``workflow`` tasks only.")
    )


@attrs.frozen(kw_only=True)
class SessionCron:
    """One session-scoped scheduled wake-up in a Stop/SubagentStop ``session_crons`` list."""

    id: str | None = attrs.field(default=None, metadata=meta("Cron task identifier."))
    schedule: str | None = attrs.field(
        default=None, metadata=meta("Cron expression (``0 9 * * 1-5``).")
    )
    recurring: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``False`` for a one-shot wake-up, ``True`` when it re-fires on every match."
        ),
    )
    prompt: str | None = attrs.field(
        default=None,
        metadata=meta("Prompt submitted when the cron fires, capped at 1000 characters."),
    )


@attrs.frozen(kw_only=True)
class StopOutput(HookOutput):
    """Answer to Stop: let the agent stop, or keep it working.

    ``decision: "block"`` with a ``reason`` keeps it going, ``reason`` being its next
    instruction; ``additional_context`` continues too, as non-error feedback.
    """

    event: ClassVar[HookEvent | None] = HookEvent.STOP

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Non-error feedback for the model; the conversation continues so it can act on "
            "it (same loop protections as a block). Docker Agent adds it as context. "
            "Collected from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class StopInput(HookInput[StopOutput]):
    """The main agent finished responding (not on a user interrupt; API errors fire
    StopFailure). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.STOP
    output_type: ClassVar[type[HookOutput]] = StopOutput

    stop_hook_active: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``True`` when the agent is already continuing because of a stop hook; check it "
            "to avoid blocking forever."
        ),
    )
    last_assistant_message: str | None = attrs.field(
        default=None,
        metadata=meta("Text of the final assistant response (Claude Code, Deep Agents Code)."),
    )
    background_tasks: Sequence[BackgroundTask] | None = attrs.field(
        default=None,
        metadata=meta(
            'Tasks still in flight; empty when none. Tells "done" from "paused waiting '
            'for background work".'
        ),
    )
    session_crons: Sequence[SessionCron] | None = attrs.field(
        default=None,
        metadata=meta("Session-scoped scheduled wake-ups; empty when none."),
    )
    agent_name: str | None = attrs.field(default=None, metadata=meta(_AGENT_NAME))
    stop_response: str | None = attrs.field(default=None, metadata=meta(_STOP_RESPONSE))
    last_user_message: str | None = attrs.field(default=None, metadata=meta(_LAST_USER_MESSAGE))


# ---------------------------------------------------------------- StopFailure


@attrs.frozen(kw_only=True)
class StopFailureOutput(HookOutput):
    """Answer to StopFailure: nothing beyond the universal fields (only ``terminal_sequence``
    is acted on).
    """

    event: ClassVar[HookEvent | None] = HookEvent.STOP_FAILURE


@attrs.frozen(kw_only=True)
class StopFailureInput(HookInput[StopFailureOutput]):
    """The turn ended on an API error instead of a normal stop. Matcher field: ``error``."""

    event: ClassVar[HookEvent] = HookEvent.STOP_FAILURE
    output_type: ClassVar[type[HookOutput]] = StopFailureOutput

    error: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Error type: ``rate_limit``, ``overloaded``, ``authentication_failed``, "
            "``oauth_org_not_allowed``, ``billing_error``, ``invalid_request``, "
            "``model_not_found``, ``server_error``, ``max_output_tokens`` or ``unknown``."
        ),
    )
    error_details: str | None = attrs.field(
        default=None, metadata=meta("More about the error (``429 Too Many Requests``).")
    )
    last_assistant_message: str | None = attrs.field(
        default=None,
        metadata=meta("The rendered error text shown in the conversation, not model output."),
    )


# ------------------------------------------------------------------ Interrupt


@attrs.frozen(kw_only=True)
class InterruptOutput(HookOutput):
    """Answer to Interrupt: nothing beyond the universal fields."""

    event: ClassVar[HookEvent | None] = HookEvent.INTERRUPT


@attrs.frozen(kw_only=True)
class InterruptInput(HookInput[InterruptOutput]):
    """Codex ``Interrupt``: the current turn was interrupted (e.g. by the user). No matcher."""

    event: ClassVar[HookEvent] = HookEvent.INTERRUPT
    output_type: ClassVar[type[HookOutput]] = InterruptOutput

    reason: str | None = attrs.field(
        default=None, metadata=meta("Why the turn was interrupted, when the host says.")
    )
