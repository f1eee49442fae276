"""The building blocks of every event class: field metadata and the two base classes.

Every input and output field is declared with :func:`meta`, which records its
documentation and how it travels on the wire and folds in a reduction. The
wire codecs, the JSON Schema generator and the reducer read this metadata; no
other module knows field names by heart.

Rules kept by every event class:

* classes are ``attrs.frozen(kw_only=True)`` (frozen, slotted, keyword-only);
* Python names are snake_case; the claude wire name is the camelCase of the
  Python name (``updated_input`` -> ``updatedInput``) unless ``wire`` says
  otherwise; the docker wire name is the Python name;
* output fields belong in ``hookSpecificOutput`` unless ``specific=False``;
* a field a harness may omit is ``Optional`` with default ``None``;
* fields marked ``passthrough`` (what a payload or an answer held that the class does
  not declare) are not wire fields: codecs, schemas and the reducer skip them, and
  the wire codec handles them itself.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, Literal, TypeVar

import attrs

from ._names import HookEvent

__all__ = [
    "FieldInfo",
    "PayloadOrigin",
    "HookInput",
    "HookOutput",
    "Merge",
    "field_info",
    "meta",
]

_META_KEY = "agent_hooks"


class Merge(enum.Enum):
    """How one output field folds across the handlers of one dispatch (configuration order)."""

    FIRST = "first"
    """The first handler that sets it wins; later values are noted in a diagnostic."""
    LAST = "last"
    """The last handler that sets it wins; earlier values are noted as overridden."""
    JOIN = "join"
    """Strings from every handler, joined with a newline."""
    CONCAT = "concat"
    """Strings from every handler, concatenated as they are."""
    ALL = "all"
    """Booleans: ``False`` from any handler wins (``continue``)."""
    ANY = "any"
    """Booleans: ``True`` from any handler wins."""
    RANK = "rank"
    """The most restrictive value by ``rank`` (first is strongest); its companion
    field comes from the first handler at the winning rank, or is joined from all
    of them when ``join_companion`` is set. For an object value, ``rank_by`` names
    the attribute that is ranked and ``companion`` an attribute of the object."""
    UPDATE = "update"
    """Mappings merged key by key; later handlers win per key."""
    UNION = "union"
    """Objects of one class folded attribute by attribute: the ``rank_by`` attribute is
    the most restrictive by ``rank`` (first is strongest), list attributes are united
    (configuration order, no repeats), and the other attributes come from the object
    whose ``rank_by`` value won (Gemini CLI's ``toolConfig``: ``NONE`` beats ``ANY``
    beats ``AUTO``, ``allowedFunctionNames`` united)."""
    COMPANION = "companion"
    """Reduced together with the RANK field that names it."""


@attrs.frozen(kw_only=True)
class FieldInfo:
    """What agent_hooks knows about one input or output field."""

    doc: str
    wire: str | None = None
    specific: bool = True
    merge: Merge = Merge.FIRST
    rank: tuple[str, ...] = ()
    companion: str | None = None
    join_companion: bool = False
    rank_by: str | None = None
    deprecated_aliases: tuple[str, ...] = ()
    passthrough: bool = False
    """Not a wire field: carries what the wire held that the class does not declare."""


def meta(
    doc: str,
    *,
    wire: str | None = None,
    specific: bool = True,
    merge: Merge = Merge.FIRST,
    rank: tuple[str, ...] = (),
    companion: str | None = None,
    join_companion: bool = False,
    rank_by: str | None = None,
    aliases: tuple[str, ...] = (),
    passthrough: bool = False,
) -> dict[str, FieldInfo]:
    """Metadata for ``attrs.field(metadata=...)``: documentation, wire name, merge rule."""
    return {
        _META_KEY: FieldInfo(
            doc=doc,
            wire=wire,
            specific=specific,
            merge=merge,
            rank=rank,
            companion=companion,
            join_companion=join_companion,
            rank_by=rank_by,
            deprecated_aliases=aliases,
            passthrough=passthrough,
        )
    }


def field_info(field: attrs.Attribute[Any]) -> FieldInfo:
    """Return the :class:`FieldInfo` of an attrs field (a bare one when it has none)."""
    info = field.metadata.get(_META_KEY)
    if isinstance(info, FieldInfo):
        return info
    return FieldInfo(doc="")


@attrs.frozen(kw_only=True)
class HookOutput:
    """What one handler answers, or the reduced answer of all of them.

    The universal fields below are accepted for every event; the capability
    table says which of them (and of the event's own fields) each event honours.
    ``None`` always means "no opinion".
    """

    event: ClassVar[HookEvent | None] = None

    continue_: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``False`` stops the agent entirely after this event, whatever else was decided. "
            "Wire name ``continue``; Claude Agent SDK callbacks may spell it ``continue_``.",
            wire="continue",
            specific=False,
            merge=Merge.ALL,
        ),
    )
    stop_reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Message for the user when ``continue`` is false (never shown to the model). "
            "The first one in configuration order wins.",
            specific=False,
            merge=Merge.FIRST,
        ),
    )
    suppress_output: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "Accepted and passed on, with no effect on delivery: a ``system_message`` is "
            "delivered whatever it says (Claude Code accepts the field and does not act on it).",
            specific=False,
            merge=Merge.ANY,
        ),
    )
    system_message: str | None = attrs.field(
        default=None,
        metadata=meta(
            "A warning shown to the user (not to the model). Collected from every "
            "handler in order, newline-joined.",
            specific=False,
            merge=Merge.JOIN,
        ),
    )
    terminal_sequence: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Terminal escape sequences for the host to emit on the handler's behalf (a desktop "
            "notification, a window title, the bell): only OSC 0, 1, 2, 9, 99 and 777 "
            "sequences (ended by BEL or ST) and bare BEL; a value holding anything else is "
            "ignored with a diagnostic.",
            specific=False,
            merge=Merge.CONCAT,
        ),
    )
    decision: Literal["block"] | None = attrs.field(
        default=None,
        metadata=meta(
            '``"block"`` blocks the event where the event can block (a prompt, a stop, '
            "compaction) or sends ``reason`` to the model (after a tool). For PreToolUse "
            "the deprecated ``approve``/``block`` are read as allow/deny.",
            specific=False,
            merge=Merge.RANK,
            rank=("block",),
            companion="reason",
            join_companion=True,
        ),
    )
    reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why ``decision`` was made; for a block it is the feedback the model reads. "
            "Reasons of all blocking handlers are newline-joined in order.",
            specific=False,
            merge=Merge.COMPANION,
        ),
    )
    extra: Mapping[str, Any] = attrs.field(
        factory=dict,
        metadata=meta(
            "Top-level answer keys this version does not know, kept as they came and passed "
            "on to the harness. Across handlers, key by key: the last in configuration order "
            "wins, and a value it replaces is reported (``overridden``).",
            specific=False,
            passthrough=True,
        ),
    )
    extra_specific: Mapping[str, Any] = attrs.field(
        factory=dict,
        metadata=meta(
            "Keys of ``hookSpecificOutput`` this version does not know for the event, kept "
            "as they came and passed on to the harness; merged as ``extra`` is.",
            passthrough=True,
        ),
    )


@attrs.frozen(eq=False)
class PayloadOrigin:
    """The payload an input was decoded from, so that encoding it again gives hooks
    what the harness sent: every key in its order, ``null`` values, keys no class
    declares, at any depth. ``values`` holds the typed value decoding made of each
    field; a field whose value is still that object is written as it came, one that
    was changed (a rewrite, the session's envelope) is written from its new value."""

    data: Mapping[str, Any]
    """The JSON object as it came (never changed)."""
    values: Mapping[str, Any]
    """Field name -> the value the decoded input holds (defaults included)."""


O = TypeVar("O", bound=HookOutput)
O_co = TypeVar("O_co", bound=HookOutput, covariant=True)


@attrs.frozen(kw_only=True)
class HookInput(Generic[O_co]):
    """The payload of one event firing: the common envelope plus the event's own fields.

    The type parameter is the event's output class, so that dispatching a
    ``PreToolUseInput`` is known to produce a ``PreToolUseOutput`` decision.
    Unknown fields a harness sends are kept in ``extra`` and written back on
    encoding; nothing is dropped.
    """

    event: ClassVar[HookEvent]
    output_type: ClassVar[type[HookOutput]]

    session_id: str | None = attrs.field(
        default=None,
        metadata=meta("Identifier of the session; filled in by the session when left unset."),
    )
    transcript_path: str | None = attrs.field(
        default=None,
        metadata=meta("Path of the conversation transcript (JSONL), when the host keeps one."),
    )
    cwd: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Working directory when the event fired; filled in by the session when unset."
        ),
    )
    permission_mode: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Current permission mode (``default``, ``plan``, ``acceptEdits``, ``auto``, "
            "``dontAsk``, ``bypassPermissions``), when the host has one."
        ),
    )
    prompt_id: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Identifier of the user prompt being processed; absent before the first prompt."
        ),
    )
    effort: Mapping[str, Any] | None = attrs.field(
        default=None,
        metadata=meta('Active effort level of the turn, as ``{"level": "high"}``.'),
    )
    agent_id: str | None = attrs.field(
        default=None,
        metadata=meta("Identifier of the subagent, only when the event fires inside one."),
    )
    agent_type: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Agent name (``Explore``, ``security-reviewer``) for subagents or ``--agent`` runs."
        ),
    )
    extra: Mapping[str, Any] = attrs.field(
        factory=dict,
        metadata=meta(
            "Payload fields this version does not know (every field of an untyped event), "
            "kept verbatim and written back on encoding."
        ),
    )
    origin: PayloadOrigin | None = attrs.field(
        default=None,
        eq=False,
        repr=False,
        metadata=meta(
            "The payload this input was decoded from (set by the wire codec): encoding "
            "writes it back as it came, with the fields changed since then updated.",
            passthrough=True,
        ),
    )

    @property
    def hook_event_name(self) -> str:
        """The canonical event name (``PreToolUse``)."""
        return self.event.value
