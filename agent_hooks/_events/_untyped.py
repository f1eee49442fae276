"""Events this version does not type: their name, input, answer and capability row.

Harnesses add events every few weeks. An event name agent_hooks does not know, in a
payload or a configuration file, is carried as an :class:`UntypedEvent` instead of
being refused: its hooks run, get the payload as it came (:class:`UntypedInput`, every
event field in ``extra``), and their answers are reduced by the rules every event
shares (:class:`UntypedOutput`). A name that is a close misspelling of a known event
stays an error (:func:`resolve_event`), so typos are still caught.
"""

from __future__ import annotations

import difflib
import re
from typing import Any, ClassVar, Literal, TypeAlias

import attrs

from .._base._errors import UnknownEventError
from ._model import HookInput, HookOutput, Merge, meta
from ._names import HookEvent, event_named, parse_event, snake_name

__all__ = [
    "MISSPELLING_CUTOFF",
    "AnyEvent",
    "UntypedEvent",
    "UntypedInput",
    "UntypedOutput",
    "input_value",
    "misspelling_of",
    "resolve_event",
    "with_input_value",
]


class UntypedEvent(str):
    """The name of an event this version does not type (``PreFutureThing``).

    A string, like :class:`~agent_hooks.HookEvent`, with the same ``value`` and
    ``snake`` spellings, so code that reports events reads both alike. Two untyped
    events are the same event when their names are equal: the exact name, as the
    payload or the configuration spells it.
    """

    __slots__ = ()

    @property
    def value(self) -> str:
        """The name as given."""
        return str.__str__(self)

    @property
    def snake(self) -> str:
        """The snake_case spelling (for Docker-style answers)."""
        return snake_name(self.value)

    def __repr__(self) -> str:
        return f"UntypedEvent({self.value!r})"


AnyEvent: TypeAlias = HookEvent | UntypedEvent
"""An event agent_hooks types, or one it carries untyped."""

MISSPELLING_CUTOFF = 0.85
"""How close to a known event's name a name must be to count as a misspelling of it:
:func:`difflib.SequenceMatcher` ratio of the two names with case, ``_`` and ``-``
ignored (one or two letters off, for names of ordinary length). A name one edit away
(a letter added, dropped, changed, or two neighbours swapped) is one too, however short."""

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.]{0,127}")
"""What an untyped event's name may look like: a letter, then letters, digits, ``_`` and
``.`` (Deep Agents Code's legacy names have dots), at most 128 characters. (YAML anchor
holders such as ``x-common`` stay unknown keys.)"""


def _fold(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


_FOLDED: dict[str, HookEvent] = {_fold(e.value): e for e in HookEvent}


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one insertion, deletion, substitution or
    swap of neighbours."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) < len(b):  # one letter added
        return a[i:] == b[i + 1 :]
    if a[i + 1 :] == b[i + 1 :]:  # one letter changed
        return True
    return (  # two neighbours swapped
        i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2 :] == b[i + 2 :]
    )


def misspelling_of(name: str) -> tuple[str, ...]:
    """The known events ``name`` is a close misspelling of (best first), by the rule of
    :data:`MISSPELLING_CUTOFF`; empty when it is not one."""
    folded = _fold(name)
    close = difflib.get_close_matches(folded, list(_FOLDED), n=3, cutoff=MISSPELLING_CUTOFF)
    close += [k for k in _FOLDED if k not in close and _one_edit(folded, k)]
    return tuple(_FOLDED[c].value for c in close[:3])


def resolve_event(name: str | HookEvent | UntypedEvent) -> HookEvent | UntypedEvent:
    """The event a name stands for: a :class:`~agent_hooks.HookEvent` for any spelling
    of a known event (as :func:`~agent_hooks.parse_event`), else an
    :class:`UntypedEvent` carrying the exact name.

    Raises:
        UnknownEventError: the name is a close misspelling of a known event (the error
            suggests it), or it cannot be an event name (not a string, empty, not a
            letter followed by letters, digits, ``_`` or ``.``, over 128 characters).
    """
    if isinstance(name, (HookEvent, UntypedEvent)):
        return name
    found = event_named(name)
    if found is not None:
        return found
    if not isinstance(name, str) or _NAME.fullmatch(name) is None:
        return parse_event(name)  # (raises, with the closest known names)
    close = misspelling_of(name)
    if close:
        raise UnknownEventError(name, close)
    return UntypedEvent(name)


@attrs.frozen(kw_only=True)
class UntypedOutput(HookOutput):
    """The answer to an untyped event: the fields every event shares (``continue``,
    ``stopReason``, ``systemMessage``, ``decision``/``reason``, ...) and a
    PreToolUse-style permission decision; every other ``hookSpecificOutput`` key is kept
    in ``extra_specific`` and passed on to the harness."""

    event: ClassVar[HookEvent | None] = None

    permission_decision: Literal["allow", "deny", "ask", "defer"] | None = attrs.field(
        default=None,
        metadata=meta(
            "``hookSpecificOutput.permissionDecision``, as the harness reads it for its own "
            "event. Across handlers the most restrictive wins: deny > defer > ask > allow; "
            "an exit 2 is a ``deny``.",
            merge=Merge.RANK,
            rank=("deny", "defer", "ask", "allow"),
            companion="permission_decision_reason",
        ),
    )
    permission_decision_reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why; taken from the first handler at the winning rank.", merge=Merge.COMPANION
        ),
    )


def _check_name(instance: Any, attribute: Any, value: str) -> None:
    event = resolve_event(value)
    if isinstance(event, HookEvent):
        raise ValueError(
            f"{value!r} is the typed event {event.value}: dispatch a {event.value}Input"
        )


@attrs.frozen(kw_only=True)
class UntypedInput(HookInput[UntypedOutput]):
    """The payload of an event this version does not type.

    The envelope (``session_id``, ``cwd``, ...) is read as for every event; every other
    field is in ``extra``, as it came. Decoded from JSON, the input is written back to
    command hooks exactly as the harness sent it. From Python::

        UntypedInput(event_name="PreFutureThing", extra={"tool_name": "Bash"})

    Raises:
        UnknownEventError: ``event_name`` is a misspelling of a known event.
        ValueError: ``event_name`` is a known event (use its typed input).
    """

    output_type: ClassVar[type[HookOutput]] = UntypedOutput

    event_name: str = attrs.field(
        validator=_check_name,
        metadata=meta(
            "The event's name, exactly as the harness spells it (``hook_event_name``).",
            passthrough=True,
        ),
    )

    @property  # (per instance, where a typed input has a class constant)
    def event(self) -> UntypedEvent:  # type: ignore[override]
        """The event, by its exact name."""
        return UntypedEvent(self.event_name)


_MISSING: Any = object()


def input_value(input: HookInput[Any], field: str) -> Any:
    """A payload field of any input: the declared attribute, else the key in ``extra``
    (where an untyped event's fields are); ``None`` when it has neither."""
    value = getattr(input, field, _MISSING)
    if value is _MISSING:
        return input.extra.get(field)
    return value


def with_input_value(input: HookInput[Any], field: str, value: Any) -> dict[str, Any]:
    """The ``attrs.evolve`` changes that set a payload field of any input (the attribute,
    else the key in ``extra``, in its place)."""
    if hasattr(input, field):
        return {field: value}
    return {"extra": {**input.extra, field: value}}
