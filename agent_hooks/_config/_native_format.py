"""What the loaders of harnesses with their own wire format share (Gemini CLI, Cursor,
GitHub Copilot): the event of a configuration key, a handler bound to the native event
it is configured under, timeouts in the harness's unit.

A handler from such a file is an ordinary node of the canonical event (Cursor's
``beforeShellExecution`` is a PreToolUse node), whose calls carry the harness's dialect
narrowed to that native event (:attr:`~agent_hooks._wire._dialects.Dialect.native_event`):
its command gets the payload the harness would send for that event, and its answer is
read in the harness's shape, whoever dispatched.
"""

from __future__ import annotations

import importlib
import math
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from .._dispatch._registry import MatcherGroup
from .._events._names import HookEvent
from .._events._untyped import AnyEvent, UntypedEvent, input_value
from .._handlers._nodes import HandlerNode, HandlerResult, HookCall, Outcome
from .._wire._dialects import Dialect
from .._wire._native import NativeEvent
from ._common import MAX_CONFIG_DEPTH, BuildContext, ConfigTooLarge, check_document, describe, join

__all__ = [
    "bind_group",
    "bind_native",
    "decode_toml",
    "flat_hook_entries",
    "native_event_key",
    "scaled_timeout",
    "text_matcher",
    "toml_has_hooks",
]


def native_event_key(
    key: object, prefix: str, ctx: BuildContext
) -> tuple[AnyEvent, NativeEvent] | None:
    """The canonical event and the native event of a configuration key, or ``None``
    (reported as a warning, the harness's own rule: an unknown event is skipped) when the
    harness has no such event. A wire with ``open_events`` (Cursor) has every camelCase
    name: one it does not list is carried untyped."""
    wire = ctx.dialect.native
    assert wire is not None
    found = wire.event_named(key) if isinstance(key, str) else None
    if found is None:
        known = ", ".join(e.name for e in wire.events)
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"unknown event {key!r} (this format knows {known}); its hooks were skipped",
            location=join(prefix, key),
            severity=Severity.WARNING,
        )
        return None
    event: AnyEvent
    try:
        event = HookEvent(found.event)
    except ValueError:
        event = UntypedEvent(found.event)
    return event, found


EventOf = Callable[[object, str, BuildContext], "tuple[AnyEvent, NativeEvent | None] | None"]
"""How a configuration key names an event: ``(event, native event or None)``, or
``None`` when it names none (reported by the function)."""


def event_lists(
    hooks: object,
    ctx: BuildContext,
    *,
    mapping: str,
    items: str,
    otherwise: str = "ignored",
    event_of: EventOf = native_event_key,
) -> Iterator[tuple[AnyEvent, NativeEvent | None, str, list[Any]]]:
    """The per-event lists of a ``hooks`` object: ``(event, native event, location,
    list)`` for each key that names an event (``event_of``: the harness's own event
    names by default) and holds a list. A ``hooks`` that is not an object ("must be an
    object mapping ``mapping``", then ``otherwise``), a key that names no event (a
    warning) and a value that is not a list ("must be a list of ``items``") are
    reported and skipped alone; ``None`` holds nothing."""
    if hooks is None:
        return
    if not isinstance(hooks, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'hooks' must be an object mapping {mapping}, got {describe(hooks)}; {otherwise}",
            location="hooks",
        )
        return
    for key, value in hooks.items():
        found = event_of(key, "hooks", ctx)
        if found is None:
            continue
        event, native = found
        where = join("hooks", key)
        if not isinstance(value, list):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{key} must be a list of {items}, got {describe(value)}; dropped",
                location=where,
            )
            continue
        yield event, native, where, value


def flat_hook_entries(
    hooks: object, ctx: BuildContext
) -> Iterator[tuple[AnyEvent, NativeEvent, str, Mapping[str, Any]]]:
    """The entries of a ``hooks`` object of flat per-event lists (Windsurf, Kiro):
    ``(event, native event, location, entry)`` for each entry that is an object. What is
    not (the ``hooks`` value, an event's list, an entry) is reported and skipped alone;
    an unknown event name is a warning (:func:`native_event_key`)."""
    lists = event_lists(hooks, ctx, mapping="event names to lists of hooks", items="hooks")
    for event, native, where, value in lists:
        assert native is not None  # (native_event_key names one)
        for i, entry in enumerate(value):
            at = f"{where}[{i}]"
            if not isinstance(entry, Mapping):
                ctx.report(
                    DiagnosticCode.INVALID_CONFIG,
                    f"a hook must be an object with 'command', got {describe(entry)}; dropped",
                    location=at,
                )
                continue
            yield event, native, at, entry


def scaled_timeout(entry: Mapping[str, Any], key: str, unit: float) -> dict[str, Any]:
    """``entry`` with ``key`` (a timeout in the harness's unit) as ``timeout`` in seconds;
    a value that is not a positive finite number is passed on for the command kind to
    report."""
    out = {k: v for k, v in entry.items() if k != key}
    value = entry.get(key)
    if key in entry:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            good = math.isfinite(value) and value > 0
            out["timeout"] = value * unit if good else value
        else:
            out["timeout"] = value
    return out


def text_matcher(pattern: object, where: str, ctx: BuildContext) -> re.Pattern[str] | None:
    """A matcher compared with text (a shell command) instead of the tool name, compiled;
    ``None`` (reported) when it is not a valid regular expression."""
    if not isinstance(pattern, str):
        ctx.report(
            DiagnosticCode.INVALID_MATCHER,
            f"'matcher' must be a string, got {describe(pattern)}; entry dropped",
            location=where,
        )
        return None
    try:
        return re.compile(pattern)
    except re.error as exc:
        ctx.report(
            DiagnosticCode.INVALID_MATCHER,
            f"matcher {pattern!r} is not a valid regular expression ({exc}); entry dropped",
            location=where,
        )
        return None


def bind_native(
    node: HandlerNode,
    dialect: Dialect,
    native: NativeEvent,
    *,
    text: re.Pattern[str] | None = None,
    loop_limit: int | None = None,
    empty_blocks: bool = False,
) -> HandlerNode:
    """``node`` bound to the native event it is configured under.

    Each call carries ``dialect`` narrowed to ``native`` (the payload and the answer in
    the harness's shape for that event). ``text``: the call only runs when the matcher
    finds a match in the field the harness compares it with (Cursor's shell events: the
    command), else it is skipped. ``loop_limit``: on a continue-loop event whose payload
    counts its automatic continuations (Cursor's ``loop_count``), the call is skipped once
    that many were made. ``empty_blocks`` (Cursor's ``failClosed``): an answer that says
    nothing, on an event that can block, blocks. Identical commands bound to different
    native events stay separate (their payloads differ).
    """
    variant = attrs.evolve(dialect, native_event=native.name)
    inner = node.call
    field = native.matcher_field
    loop_key = dialect.native.loop_count_key if dialect.native is not None else None

    async def call(c: HookCall) -> HandlerResult:
        if text is not None and field is not None:
            value = _field_text(c, field)
            if value is None or text.search(value) is None:
                return HandlerResult(outcome=Outcome.SKIPPED)
        if loop_limit is not None and loop_key is not None:
            count = c.input.extra.get(loop_key)
            if isinstance(count, int) and not isinstance(count, bool) and count >= loop_limit:
                return HandlerResult(outcome=Outcome.SKIPPED)
        result = await inner(attrs.evolve(c, dialect=variant, env=_harness_env(c, variant)))
        if (
            empty_blocks
            and c.spec.can_block
            and result.outcome is Outcome.OK
            and result.output is None
            and not result.is_async
        ):
            reason = f"{node.name} gave no answer (failClosed)"
            from .._wire._outputs import blocking_output

            return attrs.evolve(
                result,
                outcome=Outcome.BLOCKED,
                output=blocking_output(c.spec, reason),
                reason=reason,
            )
        return result

    key = (node.dedupe_key, native.name) if node.dedupe_key is not None else None
    return attrs.evolve(node, call=call, dedupe_key=key)


def bind_group(group: MatcherGroup, dialect: Dialect, native: NativeEvent) -> MatcherGroup:
    """``group`` with every node bound to ``native`` (:func:`bind_native`)."""
    return attrs.evolve(group, nodes=tuple(bind_native(n, dialect, native) for n in group.nodes))


def _harness_env(c: HookCall, dialect: Dialect) -> Mapping[str, str]:
    """The call's environment plus the variables the harness sets for its hooks (those
    already set, by the harness that called, are left alone)."""
    wanted = dialect.native.env if dialect.native is not None else {}
    if not wanted:
        return c.env
    values = {
        "project_dir": c.project_dir or c.input.cwd,
        "cwd": c.input.cwd,
        "session_id": c.input.session_id,
    }
    env = dict(c.env)
    base = os.environ if c.base_env is None else c.base_env
    for var, what in wanted.items():
        value = values.get(what)
        if value and var not in env and var not in base:
            env[var] = value
    return env


def _field_text(c: HookCall, field: str) -> str | None:
    """The text a native matcher is compared with: a payload field, or the same key of
    the tool's input (Cursor's shell ``command``)."""
    value = input_value(c.input, field)
    if not isinstance(value, str):
        tool_input = input_value(c.input, "tool_input")
        value = tool_input.get(field) if isinstance(tool_input, Mapping) else None
    return value if isinstance(value, str) else None


def decode_toml(data: bytes, ctx: BuildContext) -> Mapping[str, Any] | None:
    """A TOML document (a harness's ``[[hooks]]`` file), or ``None`` when it cannot be
    read (reported: not UTF-8, invalid TOML).

    Raises:
        ConfigTooLarge: the document nests too deeply.
    """
    try:
        toml: Any = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
    except ImportError:  # pragma: no cover - tomli is a dependency below 3.11
        ctx.report(
            DiagnosticCode.CONFIG_READ_FAILED,
            "reading TOML needs the 'tomli' package on Python < 3.11 (pip install tomli)",
        )
        return None
    try:
        doc: Mapping[str, Any] = toml.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        ctx.report(
            DiagnosticCode.CONFIG_READ_FAILED,
            f"not UTF-8 text ({exc.reason} at byte {exc.start}); file skipped",
        )
        return None
    except toml.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        ctx.report(
            DiagnosticCode.CONFIG_READ_FAILED,
            f"invalid TOML: {exc}; file skipped",
            location=f"line {line}" if line else None,
        )
        return None
    except RecursionError:
        raise ConfigTooLarge(
            f"the document nests more than {MAX_CONFIG_DEPTH} levels deep"
        ) from None
    check_document(doc)
    return doc


def toml_has_hooks(data: bytes) -> bool:
    """Whether a TOML document has a ``hooks`` key (or cannot be parsed: the loader says)."""
    try:
        module = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
        return "hooks" in module.loads(data.decode("utf-8-sig"))
    except Exception:
        return True
