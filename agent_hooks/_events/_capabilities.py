"""The capability table: one row per event, the only place that says how an event behaves.

Dispatch, matching, the command runner, the reducer, config validation and the
generated docs all read this table; none of them keeps per-event if-chains.

Columns (see :class:`EventSpec`):

=====================  =====================================================================
matcher_field          input field a group's ``matcher`` filters (``None``: no matcher; a
                       matcher given anyway is ignored (Claude) or rejected (Deep Agents Code))
matcher_basename       match the basename of that field (FileChanged matches file names)
exit2                  what exit code 2 / a block means: :class:`Exit2`
plain_stdout           plain (non-JSON) stdout on exit 0 becomes this output field, in the
                       claude dialect (``additional_context`` for context events,
                       ``worktree_path`` for WorktreeCreate) or is ignored with a diagnostic
docker_plain_stdout    the same rule for Docker Agent handlers
default_timeout        seconds; Docker Agent's own default is 60 s for every event
top_level_decision     ``decision``/``reason`` are honoured (else ignored with a diagnostic)
context                lifetime of ``additional_context``: :class:`ContextLifetime`
fails_closed           Docker Agent rule: a failing handler blocks whatever ``on_error`` says
callback_timeout_blocks  Claude Agent SDK rule: a Python callback that times out blocks
rewrite                (output field, input field) an answer rewrites, and chained dispatch
                       threads through to the next handler
chained                handlers run one after another by default (Docker Agent's pipeline)
json_block             a block can be said in JSON (``decision: "block"``); when not
                       (TeammateIdle, TaskCompleted), bridges answer with exit 2
env_file               command hooks get ``CLAUDE_ENV_FILE`` (a file they may append
                       ``export`` lines to): SessionStart, Setup, CwdChanged, FileChanged
counts_continuations   consecutive blocks are counted per session (``stop_hook_active``) and
                       stop being honoured past the registry's cap (Stop, SubagentStop)
unblockable            (input field, values): an input whose field holds one of the values
                       cannot be blocked; a block (exit 2, ``decision: "block"``, a failure
                       under ``on_error="block"``) is ignored with a diagnostic (ConfigChange
                       from ``policy_settings``: managed settings always apply)
=====================  =====================================================================

Rules the table obeys: every :class:`~agent_hooks.HookEvent` has exactly one row
(a test checks it); an event that cannot block has ``exit2`` USER or IGNORED;
``rewrite`` names fields that exist on the event's classes.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from typing import Any, cast

import attrs

from ._catalog import input_class
from ._model import HookInput, HookOutput
from ._names import HookEvent
from ._untyped import UntypedEvent, UntypedInput, resolve_event

__all__ = [
    "CAPABILITIES",
    "UNTYPED_MATCHER_FIELDS",
    "DOCKER_DEFAULT_TIMEOUT",
    "UNIVERSAL_OUTPUT_FIELDS",
    "ContextLifetime",
    "EventSpec",
    "Exit2",
    "Rewrite",
    "capability",
    "spec_for",
    "untyped_spec",
]

DOCKER_DEFAULT_TIMEOUT = 60.0
"""Docker Agent's default handler timeout, in seconds, for every event."""

UNIVERSAL_OUTPUT_FIELDS = frozenset(
    {"continue_", "stop_reason", "suppress_output", "system_message", "terminal_sequence"}
)
"""Output fields every event honours."""

_DECISION_FIELDS = frozenset({"decision", "reason"})


class Exit2(str, enum.Enum):
    """What exit code 2 (or an equivalent block) means for an event."""

    DENY = "deny"
    """Deny the tool call or the permission; the reason goes to the model."""
    BLOCK = "block"
    """Block the action (the prompt is erased, compaction or a change is refused)."""
    CONTINUE = "continue"
    """Keep going: the agent does not stop; the reason is its next instruction."""
    FEEDBACK = "feedback"
    """The tool already ran; the reason replaces what the model sees of its result."""
    USER = "user"
    """Nothing is blocked; the reason is shown to the user only."""
    IGNORED = "ignored"
    """Exit code 2 means nothing for this event."""

    @property
    def blocks(self) -> bool:
        """Whether this meaning stops or redirects something."""
        return self in (Exit2.DENY, Exit2.BLOCK, Exit2.CONTINUE, Exit2.FEEDBACK)


class ContextLifetime(str, enum.Enum):
    """How long ``additional_context`` from an event stays with the model."""

    SESSION = "session"
    """Persists for the whole session (SessionStart)."""
    TURN = "turn"
    """For the current turn only (UserPromptSubmit, TurnStart)."""
    TOOL = "tool"
    """Attached to one tool result."""
    NONE = "none"
    """The event carries no context for the model."""


@attrs.frozen(kw_only=True)
class Rewrite:
    """An answer field that rewrites an input field (``updated_input`` -> ``tool_input``)."""

    output_field: str
    input_field: str


@attrs.frozen(kw_only=True)
class EventSpec:
    """One row of the capability table. Read the module docstring for the columns."""

    event: HookEvent | UntypedEvent
    summary: str
    matcher_field: str | None = None
    matcher_basename: bool = False
    exit2: Exit2 = Exit2.USER
    plain_stdout: str | None = None
    docker_plain_stdout: str | None = None
    default_timeout: float = 600.0
    top_level_decision: bool = False
    context: ContextLifetime = ContextLifetime.NONE
    fails_closed: bool = False
    callback_timeout_blocks: bool = False
    rewrite: Rewrite | None = None
    chained: bool = False
    counts_continuations: bool = False
    env_file: bool = False
    json_block: bool = True
    unblockable: tuple[str, frozenset[str]] | None = None

    @property
    def can_block(self) -> bool:
        """Whether a handler can stop or redirect what the event is about."""
        return self.exit2.blocks

    def blocks_ignored(self, input: HookInput[Any]) -> bool:
        """Whether a block of this input is ignored (the ``unblockable`` column)."""
        if self.unblockable is None:
            return False
        field, values = self.unblockable
        return getattr(input, field, None) in values

    @property
    def typed(self) -> bool:
        """Whether this version types the event (``False``: :func:`untyped_spec`)."""
        return isinstance(self.event, HookEvent)

    @functools.cached_property
    def input_type(self) -> type[HookInput[Any]]:
        """The event's input class (its module is imported on first use)."""
        if isinstance(self.event, UntypedEvent):
            return UntypedInput
        return input_class(self.event)

    @functools.cached_property
    def output_type(self) -> type[HookOutput]:
        """The event's output class."""
        return self.input_type.output_type

    @functools.cached_property
    def honoured_fields(self) -> frozenset[str]:
        """Output fields (Python names) this event acts on; others are ignored with a diagnostic."""
        cls = self.output_type
        key = (cls, self.top_level_decision)
        found = _HONOURED_CACHE.get(key)
        if found is None:
            own = {a.name for a in attrs.fields(cls)} - {a.name for a in attrs.fields(HookOutput)}
            extra = _DECISION_FIELDS if self.top_level_decision else frozenset()
            found = _HONOURED_CACHE[key] = frozenset(own) | UNIVERSAL_OUTPUT_FIELDS | extra
        return found


# Derived data, computed once per output class (not per event: every untyped event
# shares one class, so a stream of new event names cannot grow it).
_HONOURED_CACHE: dict[tuple[type[HookOutput], bool], frozenset[str]] = {}

_T = ContextLifetime
_TOOL = "tool_name"
_CTX = "additional_context"


def _rows() -> tuple[EventSpec, ...]:
    E = HookEvent
    return (
        # ------------------------------------------------------------- tools
        EventSpec(
            event=E.PRE_TOOL_USE,
            summary="Before a tool call runs; can allow, deny, ask, defer or rewrite it.",
            matcher_field=_TOOL,
            exit2=Exit2.DENY,
            top_level_decision=True,
            context=_T.TOOL,
            fails_closed=True,
            callback_timeout_blocks=True,
            rewrite=Rewrite(output_field="updated_input", input_field="tool_input"),
        ),
        EventSpec(
            event=E.PERMISSION_REQUEST,
            summary="Before the user is asked for permission; can grant or refuse.",
            matcher_field=_TOOL,
            exit2=Exit2.DENY,
        ),
        EventSpec(
            event=E.PERMISSION_DENIED,
            summary="After auto mode denied a tool call; can let the model retry.",
            matcher_field=_TOOL,
            exit2=Exit2.IGNORED,
        ),
        EventSpec(
            event=E.POST_TOOL_USE,
            summary="After a tool call succeeded; can replace what the model sees.",
            matcher_field=_TOOL,
            exit2=Exit2.FEEDBACK,
            docker_plain_stdout=_CTX,
            top_level_decision=True,
            context=_T.TOOL,
            rewrite=Rewrite(output_field="updated_tool_output", input_field="tool_response"),
        ),
        EventSpec(
            event=E.POST_TOOL_USE_FAILURE,
            summary="After a tool call failed; can add feedback for the model.",
            matcher_field=_TOOL,
            exit2=Exit2.FEEDBACK,
            top_level_decision=True,
            context=_T.TOOL,
        ),
        EventSpec(
            event=E.POST_TOOL_BATCH,
            summary="After a batch of parallel tool calls resolved, before the next model call.",
            exit2=Exit2.BLOCK,
            top_level_decision=True,
            context=_T.TOOL,
        ),
        EventSpec(
            event=E.PRE_SKILL_SHELL_COMMAND,
            summary=(
                "Before a skill's or command's inline shell command runs as it loads; deny, "
                "ask, defer or any updatedInput keeps it from running."
            ),
            matcher_field=_TOOL,
            exit2=Exit2.DENY,
        ),
        EventSpec(
            event=E.TOOL_GUARD,
            summary="Docker Agent guard before a tool call; fails closed.",
            matcher_field=_TOOL,
            exit2=Exit2.DENY,
            default_timeout=60.0,
            fails_closed=True,
        ),
        EventSpec(
            event=E.TOOL_INPUT_TRANSFORM,
            summary="Rewrites a tool's input before it runs; handlers chain.",
            matcher_field=_TOOL,
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
            rewrite=Rewrite(output_field="updated_input", input_field="tool_input"),
            chained=True,
        ),
        EventSpec(
            event=E.TOOL_RESPONSE_TRANSFORM,
            summary="Rewrites a tool's response before it is recorded; handlers chain.",
            matcher_field=_TOOL,
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
            rewrite=Rewrite(output_field="updated_tool_response", input_field="tool_response"),
            chained=True,
        ),
        # ---------------------------------------------------- prompts, turns
        EventSpec(
            event=E.USER_PROMPT_SUBMIT,
            summary="A prompt was submitted; can block it or add context for the turn.",
            exit2=Exit2.BLOCK,
            plain_stdout=_CTX,
            docker_plain_stdout=_CTX,
            default_timeout=30.0,
            top_level_decision=True,
            context=_T.TURN,
            callback_timeout_blocks=True,
        ),
        EventSpec(
            event=E.USER_PROMPT_EXPANSION,
            summary="A typed command expands into a prompt; can block the expansion.",
            matcher_field="command_name",
            exit2=Exit2.BLOCK,
            plain_stdout=_CTX,
            top_level_decision=True,
            context=_T.TURN,
        ),
        EventSpec(
            event=E.USER_STEERING_MESSAGES_SUBMIT,
            summary="Queued steering messages are drained mid-turn.",
            exit2=Exit2.BLOCK,
            docker_plain_stdout=_CTX,
            default_timeout=60.0,
            top_level_decision=True,
            context=_T.TURN,
        ),
        EventSpec(
            event=E.USER_FOLLOWUP_SUBMIT,
            summary="A queued follow-up message starts a new turn.",
            exit2=Exit2.BLOCK,
            docker_plain_stdout=_CTX,
            default_timeout=60.0,
            top_level_decision=True,
            context=_T.TURN,
        ),
        EventSpec(
            event=E.ON_USER_INPUT,
            summary="The agent waits for user input.",
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
        ),
        EventSpec(
            event=E.MESSAGE_DISPLAY,
            summary="Assistant text is displayed; can replace what is shown.",
            exit2=Exit2.IGNORED,
            default_timeout=10.0,
            rewrite=Rewrite(output_field="display_content", input_field="delta"),
            chained=True,
        ),
        EventSpec(
            event=E.TURN_START,
            summary="A turn starts (every model call); context is for this turn only.",
            exit2=Exit2.IGNORED,
            docker_plain_stdout=_CTX,
            default_timeout=60.0,
            context=_T.TURN,
        ),
        EventSpec(
            event=E.TURN_END,
            summary="A turn ended, whatever the reason.",
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
        ),
        EventSpec(
            event=E.BEFORE_LLM_CALL,
            summary="Just before a model call; can stop the run or rewrite the messages.",
            exit2=Exit2.BLOCK,
            default_timeout=60.0,
            top_level_decision=True,
            rewrite=Rewrite(output_field="messages", input_field="messages"),
            chained=True,
        ),
        EventSpec(
            event=E.AFTER_LLM_CALL,
            summary="After a successful model call, with usage and cost.",
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
        ),
        EventSpec(
            event=E.AFTER_MODEL_CHUNK,
            summary=(
                "A streamed chunk of the model's response arrived; can replace it, or "
                "discard it and stop the turn."
            ),
            exit2=Exit2.BLOCK,
            default_timeout=30.0,
            top_level_decision=True,
            rewrite=Rewrite(output_field="llm_response", input_field="llm_response"),
        ),
        EventSpec(
            event=E.BEFORE_TOOL_SELECTION,
            summary="Before the model chooses among its tools; can restrict which it may call.",
            exit2=Exit2.IGNORED,
            default_timeout=30.0,
        ),
        EventSpec(
            event=E.AFTER_AGENT_THOUGHT,
            summary="The model finished a thinking block; observational.",
            exit2=Exit2.IGNORED,
            default_timeout=30.0,
        ),
        EventSpec(
            event=E.USER_PROMPT_TRANSFORMED,
            summary="The model-facing content of a prompt was built; can rewrite it.",
            exit2=Exit2.IGNORED,
            default_timeout=30.0,
            rewrite=Rewrite(
                output_field="modified_transformed_prompt", input_field="transformed_prompt"
            ),
            chained=True,
        ),
        EventSpec(
            event=E.PRE_MODEL_SWITCH,
            summary="Before the session's model is switched; can allow, cancel or ask.",
            exit2=Exit2.DENY,
        ),
        EventSpec(
            event=E.POST_MODEL_SWITCH,
            summary="After the session's model was switched; can add context for the new model.",
            exit2=Exit2.USER,
            context=_T.TURN,
        ),
        EventSpec(
            event=E.STOP,
            summary="The model wants to stop; a block keeps the turn going.",
            exit2=Exit2.CONTINUE,
            docker_plain_stdout=_CTX,
            top_level_decision=True,
            context=_T.TURN,
            counts_continuations=True,
        ),
        EventSpec(
            event=E.STOP_FAILURE,
            summary="The turn ended on an API error; output is ignored.",
            matcher_field="error",
            exit2=Exit2.IGNORED,
        ),
        EventSpec(
            event=E.INTERRUPT, summary="The user interrupted the turn (Codex).", exit2=Exit2.IGNORED
        ),
        # ----------------------------------------------------------- session
        EventSpec(
            event=E.SESSION_START,
            summary="A session starts or resumes; context persists for the session.",
            matcher_field="source",
            exit2=Exit2.USER,
            plain_stdout=_CTX,
            docker_plain_stdout=_CTX,
            context=_T.SESSION,
            env_file=True,
        ),
        EventSpec(
            event=E.SESSION_END,
            summary="A session ends; runs even while the agent is torn down.",
            matcher_field="reason",
            exit2=Exit2.USER,
        ),
        EventSpec(
            event=E.SETUP,
            summary="One-time preparation (--init, --maintenance).",
            matcher_field="trigger",
            exit2=Exit2.USER,
            context=_T.SESSION,
            env_file=True,
        ),
        EventSpec(
            event=E.ON_SESSION_RESUME,
            summary="The user approved going on past max_iterations.",
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
        ),
        EventSpec(
            event=E.ON_MAX_ITERATIONS,
            summary="The run reached its max_iterations limit.",
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
        ),
        EventSpec(
            event=E.ON_ERROR,
            summary="The runtime hit an error during a turn.",
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
        ),
        EventSpec(
            event=E.WORKSPACE_OPEN,
            summary="A workspace was opened; can name plugin directories to load.",
            exit2=Exit2.IGNORED,
            default_timeout=30.0,
        ),
        EventSpec(
            event=E.NOTIFICATION,
            summary="The agent sends a notification; can add context for the model.",
            matcher_field="notification_type",
            exit2=Exit2.IGNORED,
            context=_T.TURN,
        ),
        EventSpec(
            event=E.CONFIG_CHANGE,
            summary="A configuration file changed; can block the change.",
            matcher_field="source",
            exit2=Exit2.BLOCK,
            top_level_decision=True,
            unblockable=("source", frozenset({"policy_settings"})),
        ),
        EventSpec(
            event=E.CWD_CHANGED,
            summary="The working directory changed.",
            exit2=Exit2.USER,
            env_file=True,
        ),
        EventSpec(
            event=E.DIRECTORY_ADDED,
            summary="A working directory was added.",
            matcher_field="source",
            exit2=Exit2.IGNORED,
        ),
        EventSpec(
            event=E.FILE_CHANGED,
            summary="A watched file changed on disk (matcher: file basename).",
            matcher_field="file_path",
            matcher_basename=True,
            exit2=Exit2.USER,
            env_file=True,
        ),
        EventSpec(
            event=E.INSTRUCTIONS_LOADED,
            summary="An instructions file was loaded into context.",
            matcher_field="load_reason",
            exit2=Exit2.IGNORED,
        ),
        # -------------------------------------------------------- compaction
        EventSpec(
            event=E.PRE_COMPACT,
            summary="Before compaction; can block it or steer the summary.",
            matcher_field="trigger",
            exit2=Exit2.BLOCK,
            docker_plain_stdout=_CTX,
            top_level_decision=True,
        ),
        EventSpec(
            event=E.POST_COMPACT,
            summary="After compaction completed.",
            matcher_field="trigger",
            exit2=Exit2.USER,
        ),
        EventSpec(
            event=E.BEFORE_COMPACTION,
            summary="Before compaction, with token counts; can veto or supply the summary.",
            exit2=Exit2.BLOCK,
            default_timeout=60.0,
            top_level_decision=True,
        ),
        EventSpec(
            event=E.AFTER_COMPACTION,
            summary="After a successful compaction.",
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
        ),
        # ------------------------------------------- agents, tasks, worktrees
        EventSpec(
            event=E.SUBAGENT_START,
            summary="A subagent is spawned; can add context for it.",
            matcher_field="agent_type",
            exit2=Exit2.USER,
            context=_T.SESSION,
        ),
        EventSpec(
            event=E.SUBAGENT_STOP,
            summary="A subagent wants to stop; a block keeps it going.",
            matcher_field="agent_type",
            exit2=Exit2.CONTINUE,
            top_level_decision=True,
            context=_T.TURN,
            counts_continuations=True,
        ),
        EventSpec(
            event=E.TEAMMATE_IDLE,
            summary="A teammate is about to go idle; a block keeps it working.",
            exit2=Exit2.CONTINUE,
            top_level_decision=True,
            json_block=False,
        ),
        EventSpec(
            event=E.TASK_CREATED,
            summary="A task is being created; a block rolls it back.",
            exit2=Exit2.BLOCK,
            top_level_decision=True,
        ),
        EventSpec(
            event=E.TASK_COMPLETED,
            summary="A task is being completed; a block keeps it open.",
            exit2=Exit2.CONTINUE,
            top_level_decision=True,
            json_block=False,
        ),
        EventSpec(
            event=E.ON_AGENT_SWITCH,
            summary="The active agent changes (transfer, handoff, return).",
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
        ),
        EventSpec(
            event=E.ON_TOOL_APPROVAL_DECISION,
            summary="The approval chain resolved a tool call.",
            matcher_field=_TOOL,
            exit2=Exit2.IGNORED,
            default_timeout=60.0,
        ),
        EventSpec(
            event=E.WORKTREE_CREATE,
            summary="A worktree is created; the hook may supply its path.",
            exit2=Exit2.BLOCK,
            plain_stdout="worktree_path",
            docker_plain_stdout=_CTX,
            top_level_decision=True,
        ),
        EventSpec(event=E.WORKTREE_REMOVE, summary="A worktree is removed.", exit2=Exit2.IGNORED),
        EventSpec(
            event=E.ELICITATION,
            summary="An MCP server asks the user for input; can answer or decline.",
            matcher_field="mcp_server_name",
            exit2=Exit2.DENY,
        ),
        EventSpec(
            event=E.ELICITATION_RESULT,
            summary="The user answered an MCP elicitation; can override it.",
            matcher_field="mcp_server_name",
            exit2=Exit2.DENY,
        ),
    )


CAPABILITIES: Mapping[HookEvent, EventSpec] = {cast(HookEvent, row.event): row for row in _rows()}
"""The table, keyed by event."""


def capability(event: HookEvent | str) -> EventSpec:
    """Return the capability row of an event (any spelling).

    Raises:
        UnknownEventError: the name is not an event.
    """
    from ._names import parse_event

    return CAPABILITIES[parse_event(event)]


UNTYPED_MATCHER_FIELDS: tuple[str, ...] = ("tool_name",)
"""The payload field a matcher of an untyped event filters, by the harnesses' convention
(Claude Code matches tool-like events on ``tool_name``). When the payload has none of
them, the matcher is not applied and the group runs on every firing, as Claude Code does
with a matcher on an event that has no matcher field."""


def untyped_spec(event: UntypedEvent) -> EventSpec:
    """The row of an event this version does not type: the rules every event shares.

    Matchers filter ``tool_name`` (:data:`UNTYPED_MATCHER_FIELDS`); a block (exit 2,
    ``decision: "block"``, ``permissionDecision: "deny"``) blocks, with the reason for
    the model; ``decision``/``reason`` are honoured; a failing handler fails open unless
    its policy says ``block`` (``--fail-closed``). Bridges answer a block with exit 2 and
    the reason on stderr as well as in JSON, the one block every harness reads for
    every event it lets block.
    """
    return EventSpec(
        event=event,
        summary="An event this version of agent_hooks does not type; hooks get its payload as it came",
        matcher_field=UNTYPED_MATCHER_FIELDS[0],
        exit2=Exit2.DENY,
        top_level_decision=True,
    )


def spec_for(event: HookEvent | UntypedEvent | str) -> EventSpec:
    """The capability row of any event: the table's row of a typed event (any
    spelling), :func:`untyped_spec` for a name this version does not type.

    Raises:
        UnknownEventError: the name is a close misspelling of a known event, or not an
            event name at all (:func:`~agent_hooks._events._untyped.resolve_event`).
    """
    ev = resolve_event(event)
    if isinstance(ev, UntypedEvent):
        return untyped_spec(ev)
    return CAPABILITIES[ev]
