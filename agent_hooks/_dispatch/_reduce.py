"""One reduction for every handler kind: ordered results -> one typed answer.

The fold walks the output class's fields and applies each field's merge rule
(:class:`~agent_hooks._events._model.Merge`, declared with the field). Results are
always taken in configuration order, never completion order. Nothing here
knows an event by name or a handler by kind.

Before the fold, each result is settled as it arrives (:func:`settle_result`), by
the rules of the capability table and of the handler's dialect: ``strict_output``,
values the harness refuses (a ``terminal_sequence`` outside the allowlist), blocks
the event ignores for this input (ConfigChange from ``policy_settings``), and
message strings longer than the dialect's cap, which are saved to a file of the
session (:class:`OutputFiles`) and replaced by a preview naming it.
"""

from __future__ import annotations

import operator
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._events._capabilities import EventSpec
from .._events._model import HookInput, HookOutput, Merge
from .._handlers._nodes import HandlerResult, Outcome, enforce_strict_output
from .._wire._dialects import Dialect
from .._wire._fields import SavedText, TypeDesc, field_codecs
from .._wire._outputs import MESSAGE_FIELDS, drop_refused_values, without_blocks

__all__ = ["OutputFiles", "empty_output", "reduce_results", "settle_result"]


@attrs.frozen
class _Step:
    """One field's merge rule, read once per output class from its field metadata."""

    name: str
    merge: Merge
    key: str
    """The claude wire key, for messages."""
    order: Mapping[Any, int]
    """RANK: value -> strength (0 is the strongest)."""
    rank_by: str | None
    companion: str | None
    join_companion: bool


@attrs.frozen
class _Plan:
    """How answers of one output class fold: its merge steps in field order, and one
    call that reads those fields of an answer, in the same order."""

    cls: type[HookOutput]
    steps: tuple[_Step, ...]
    read: Callable[[HookOutput], tuple[Any, ...]]

    def values(self, output: HookOutput) -> tuple[Any, ...]:
        """The steps' fields of an answer, in step order; ``None`` for a field an answer
        of another class (a bare :class:`HookOutput` from a typed callback) lacks."""
        if isinstance(output, self.cls):
            return self.read(output)
        return tuple(getattr(output, step.name, None) for step in self.steps)


_PLANS: dict[type[HookOutput], _Plan] = {}
"""Merge plans per output class (every untyped event shares one)."""


def _plan(spec: EventSpec) -> _Plan:
    """The event's merge plan, built on first use of its output class."""
    cls = spec.output_type
    found = _PLANS.get(cls)
    if found is None:
        steps = tuple(
            _Step(
                name=fc.name,
                merge=fc.info.merge,
                key=fc.key("claude"),
                order={v: i for i, v in enumerate(fc.info.rank)},
                rank_by=fc.info.rank_by,
                companion=fc.info.companion,
                join_companion=fc.info.join_companion,
            )
            for fc in field_codecs(cls, True)
            if fc.info.merge is not Merge.COMPANION
        )
        names = [step.name for step in steps]
        read: Callable[[HookOutput], tuple[Any, ...]] = (
            operator.attrgetter(*names)
            if len(names) > 1  # (attrgetter of one name gives the value, not a tuple)
            else lambda output: tuple(getattr(output, name) for name in names)
        )
        _PLANS[cls] = found = _Plan(cls=cls, steps=steps, read=read)
    return found


def empty_output(spec: EventSpec) -> HookOutput:
    """The event's answer when nobody had an opinion."""
    return spec.output_type()


def _who(result: HandlerResult) -> str:
    if result.handler is None:
        return "a handler"
    return f"{result.handler.name} ({result.handler.source})"


def reduce_results(
    spec: EventSpec, results: Sequence[HandlerResult], *, chained: bool = False
) -> tuple[HookOutput, tuple[Diagnostic, ...]]:
    """Fold handler results (in configuration order) into the event's answer.

    ``chained`` tells that rewrites were threaded from handler to handler, so a
    later rewrite building on an earlier one is not reported as an override.
    """
    plan = _plan(spec)
    answered = [r for r in results if r.output is not None]
    if not answered:
        return empty_output(spec), ()
    # field (by its step's place) -> (result, value) of every answer that set it, in order
    given: dict[int, list[tuple[HandlerResult, Any]]] = {}
    for r in answered:
        for i, v in enumerate(plan.values(r.output)):  # type: ignore[arg-type]  # (not None)
            if v is not None:
                pairs = given.get(i)
                if pairs is None:
                    given[i] = [(r, v)]
                else:
                    pairs.append((r, v))
    diags: list[Diagnostic] = []
    values: dict[str, Any] = {}
    steps = plan.steps
    for i in sorted(given):
        step = steps[i]
        _MERGES[step.merge](step, given[i], values, diags, chained)
    for name, where in _PASSTHROUGH:
        merged = _merge_unknown(answered, name, where, diags)
        if merged:
            values[name] = merged
    return plan.cls(**values), tuple(diags)


_Pairs = list[tuple[HandlerResult, Any]]


def _first(step: _Step, pairs: _Pairs, values: dict[str, Any], *_rest: Any) -> None:
    values[step.name] = pairs[0][1]


def _last(
    step: _Step, pairs: _Pairs, values: dict[str, Any], diags: list[Diagnostic], chained: bool
) -> None:
    values[step.name] = pairs[-1][1]
    if len(pairs) > 1 and not chained:
        winner = pairs[-1][0]
        info = winner.handler
        diags.append(
            Diagnostic(
                code=DiagnosticCode.OVERRIDDEN,
                message=(
                    f"{step.key} from {', '.join(_who(r) for r, _ in pairs[:-1])} "
                    f"overridden by {_who(winner)} (last in configuration order wins)"
                ),
                severity=Severity.WARNING,
                source=info.source if info else None,
                location=info.location if info else None,
                handler=info.name if info else None,
            )
        )


def _joined(step: _Step, pairs: _Pairs, values: dict[str, Any], *_rest: Any) -> None:
    values[step.name] = _join([v for _, v in pairs])


def _concat(step: _Step, pairs: _Pairs, values: dict[str, Any], *_rest: Any) -> None:
    values[step.name] = "".join([v if type(v) is str else str(v) for _, v in pairs])


def _all(step: _Step, pairs: _Pairs, values: dict[str, Any], *_rest: Any) -> None:
    values[step.name] = all(bool(v) for _, v in pairs)


def _any(step: _Step, pairs: _Pairs, values: dict[str, Any], *_rest: Any) -> None:
    values[step.name] = any(bool(v) for _, v in pairs)


def _update(step: _Step, pairs: _Pairs, values: dict[str, Any], *_rest: Any) -> None:
    merged: dict[str, Any] = {}
    for _, v in pairs:
        merged.update(v)
    values[step.name] = merged


def _union(step: _Step, pairs: _Pairs, values: dict[str, Any], *_rest: Any) -> None:
    values[step.name] = _unite([v for _, v in pairs], step)


def _rank(step: _Step, pairs: _Pairs, values: dict[str, Any], *_rest: Any) -> None:
    """The strongest value (first in configuration order among equals); its companion
    field (a reason) from the answers that gave that value: joined or the first."""
    order, rank_by, weakest = step.order, step.rank_by, len(step.order)
    ranked = [(r, v, getattr(v, rank_by) if rank_by else v) for r, v in pairs]
    best = min(ranked, key=lambda p: order.get(p[2], weakest))
    values[step.name] = best[1]
    companion = step.companion
    if companion and not rank_by:
        texts = [
            text
            for r, _, k in ranked
            if k == best[2] and (text := getattr(r.output, companion, None)) is not None
        ]
        if texts:
            values[companion] = _join(texts) if step.join_companion else texts[0]


_MERGES: Mapping[Merge, Callable[[_Step, _Pairs, dict[str, Any], list[Diagnostic], bool], None]] = {
    Merge.FIRST: _first,
    Merge.LAST: _last,
    Merge.JOIN: _joined,
    Merge.CONCAT: _concat,
    Merge.ALL: _all,
    Merge.ANY: _any,
    Merge.UPDATE: _update,
    Merge.UNION: _union,
    Merge.RANK: _rank,
}
"""How each merge rule folds the values of one field (``values[name]``; a rule may also
set its companion field or report an override)."""


def _unite(objects: Sequence[Any], step: _Step) -> Any:
    """:attr:`Merge.UNION` of answer objects of one attrs class (configuration order)."""
    order, rank_by, weakest = step.order, step.rank_by, len(step.order)
    best = objects[0]
    if rank_by:
        best = min(objects, key=lambda v: order.get(getattr(v, rank_by, None), weakest))
    united: dict[str, Any] = {}
    for a in attrs.fields(type(best)):
        lists = [x for v in objects if isinstance(x := getattr(v, a.name, None), (list, tuple))]
        if lists:
            items: list[Any] = []
            for item in (item for x in lists for item in x):
                if item not in items:
                    items.append(item)
            united[a.name] = tuple(items)
    return attrs.evolve(best, **united) if united else best


_PASSTHROUGH = (("extra", ""), ("extra_specific", "hookSpecificOutput."))
"""The answer fields holding keys this version does not know, and where the keys are."""


def _merge_unknown(
    answered: Sequence[HandlerResult], name: str, where: str, diags: list[Diagnostic]
) -> dict[str, Any]:
    """Keys no class declares, from every answer: one handler's pass as they are; across
    handlers, key by key, the last in configuration order wins and a different value it
    replaces is reported (``overridden``)."""
    merged: dict[str, Any] = {}
    owner: dict[str, HandlerResult] = {}
    for r in answered:
        for key, value in getattr(r.output, name).items():
            if key in merged and merged[key] != value:
                info = r.handler
                diags.append(
                    Diagnostic(
                        code=DiagnosticCode.OVERRIDDEN,
                        message=(
                            f"{where}{key} from {_who(owner[key])} overridden by {_who(r)} "
                            "(a key this version does not know: last in configuration order wins)"
                        ),
                        severity=Severity.WARNING,
                        source=info.source if info else None,
                        location=info.location if info else None,
                        handler=info.name if info else None,
                    )
                )
            merged[key] = value
            owner[key] = r
    return merged


def _join(texts: Sequence[Any]) -> str:
    """Strings newline-joined; when some were saved to files (:class:`SavedText`), the
    join shows their previews and keeps the whole texts joined the same way."""
    shown = "\n".join([t if type(t) is str else str(t) for t in texts])
    if not any(type(t) is SavedText for t in texts):
        return shown
    full = "\n".join([t.full if type(t) is SavedText else str(t) for t in texts])
    return SavedText(shown, full=full, path=None)


# ------------------------------------------------------------ settling one result


def settle_result(
    spec: EventSpec,
    dialect: Dialect,
    input: HookInput[Any],
    result: HandlerResult,
    *,
    strict: bool = False,
    files: OutputFiles | None = None,
) -> HandlerResult:
    """A handler's result as the event and the handler's dialect let it count, before
    its failure policy and the fold: ``strict`` output enforced, refused values
    dropped, blocks of an input that cannot be blocked dropped, long message strings
    saved to ``files`` (none saved without ``files``). Each change has a diagnostic."""
    if strict:
        result = enforce_strict_output(spec, result)
    output = result.output
    if output is None:
        return result
    outcome = result.outcome
    output, notes = drop_refused_values(output)
    unblocked = without_blocks(output) if spec.blocks_ignored(input) else None
    if unblocked is not None:
        field = spec.unblockable[0] if spec.unblockable else ""
        note = Diagnostic(
            code=DiagnosticCode.UNSUPPORTED_FIELD,
            message=(
                f"{spec.event.value} with {field} {getattr(input, field, None)!r} cannot be "
                "blocked; the block was ignored"
            ),
            severity=Severity.WARNING,
        )
        output, notes = unblocked, (*notes, note)
        if outcome is Outcome.BLOCKED:
            outcome = Outcome.OK
    if dialect.output_cap is not None and files is not None:
        output, saved = files.cap(spec, output, dialect.output_cap)
        notes = (*notes, *saved)
    if output is result.output:
        return result
    return attrs.evolve(
        result, outcome=outcome, output=output, diagnostics=(*result.diagnostics, *notes)
    )


_CAPPED_FIELDS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _capped_fields(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An answer class's message fields (:data:`MESSAGE_FIELDS`), and the fields whose
    type may hold an answer object (which may have message fields of its own); worked
    out once per class from its field types."""
    found = _CAPPED_FIELDS.get(cls)
    if found is None:
        codecs = field_codecs(cls, True)
        found = _CAPPED_FIELDS[cls] = (
            tuple(fc.name for fc in codecs if fc.name in MESSAGE_FIELDS),
            tuple(
                fc.name
                for fc in codecs
                if fc.name not in MESSAGE_FIELDS and _may_hold_object(fc.type)
            ),
        )
    return found


def _may_hold_object(desc: TypeDesc) -> bool:
    """Whether a field of this type may hold an attrs object (directly or as a union
    member); lists and maps of objects are not answer fields any event has."""
    if desc.kind == "object":
        return True
    return desc.kind == "union" and any(_may_hold_object(m) for m in desc.values)


PREVIEW_CHARS = 2_000
"""Characters of a saved message shown in its preview (Claude Code's 2,000)."""


def _size(n: int) -> str:
    """A size as Claude Code writes it: ``512 bytes``, ``24.4KB``, ``1.2MB``."""
    if n < 1024:
        return f"{n} bytes"
    value = n / 1024
    for unit in ("KB", "MB"):
        if value < 1024:
            return f"{value:.1f}".removesuffix(".0") + unit
        value /= 1024
    return f"{value:.1f}".removesuffix(".0") + "GB"


def _preview(text: str) -> tuple[str, bool]:
    """The first ``PREVIEW_CHARS`` characters, cut at the last line break when it is in
    the second half of them; and whether the text goes on."""
    if len(text) <= PREVIEW_CHARS:
        return text, False
    head = text[:PREVIEW_CHARS]
    cut = head.rfind("\n")
    return (head[:cut] if cut > PREVIEW_CHARS // 2 else head), True


def saved_message(text: str, path: str | None, size: int) -> str:
    """The preview that replaces a long message, in Claude Code's form for output saved
    to a file: a ``<persisted-output>`` block naming the file (``path``; ``None``: it
    could not be saved), then the first 2 KB."""
    preview, more = _preview(text)
    where = f"Full output saved to: {path}" if path else "It could not be saved to a file."
    ending = "\n...\n" if more else "\n"
    return (
        f"<persisted-output>\nOutput too large ({_size(size)}). {where}\n\n"
        f"Preview (first {_size(PREVIEW_CHARS)}):\n{preview}{ending}</persisted-output>"
    )


class OutputFiles:
    """Where a session saves message strings longer than a dialect's cap: a private
    directory (mode 0700) made on first use and removed, with every file in it, by
    :meth:`close` when the session closes. A session that saves nothing makes no
    directory."""

    def __init__(self) -> None:
        self.directory: str | None = None
        self._count = 0

    def save(self, text: str, label: str) -> tuple[str, int]:
        """Write ``text`` to a new file (mode 0600); its path and size in bytes.

        Raises:
            OSError: the directory or the file could not be made.
        """
        if self.directory is None:
            self.directory = tempfile.mkdtemp(prefix="agent_hooks-output-")
        self._count += 1
        path = os.path.join(self.directory, f"{self._count:04d}-{label}.txt")
        data = text.encode("utf-8", errors="backslashreplace")  # (valid UTF-8, always)
        fd = os.open(
            path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600
        )
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return path, len(data)

    def close(self) -> None:
        """Remove the directory and everything in it (nothing to do when none was made)."""
        directory, self.directory = self.directory, None
        if directory is not None:
            shutil.rmtree(directory, ignore_errors=True)

    def cap(
        self, spec: EventSpec, output: HookOutput, limit: int
    ) -> tuple[HookOutput, tuple[Diagnostic, ...]]:
        """``output`` with each message string (:data:`MESSAGE_FIELDS`, also inside an
        answer object such as a PermissionRequest decision) longer than ``limit``
        characters saved to a file and replaced by :func:`saved_message`."""
        notes: list[Diagnostic] = []

        def capped(obj: Any, trail: tuple[str, ...]) -> Any:
            messages, others = _capped_fields(type(obj))
            changes: dict[str, Any] = {}
            for name in messages:
                value = getattr(obj, name)
                if isinstance(value, str) and len(value) > limit:
                    label = f"{spec.event.value}-{''.join(f'{t}.' for t in trail)}{name}"
                    changes[name] = self._saved(value, label, notes)
            for name in others:
                value = getattr(obj, name)
                if value is not None and attrs.has(type(value)):
                    inner = capped(value, (*trail, name))
                    if inner is not value:
                        changes[name] = inner
            return attrs.evolve(obj, **changes) if changes else obj

        return capped(output, ()), tuple(notes)

    def _saved(self, text: str, label: str, notes: list[Diagnostic]) -> SavedText:
        full = text.full if type(text) is SavedText else text
        try:
            path, size = self.save(full, label.replace(".", "-"))
        except OSError as exc:
            size = len(full.encode("utf-8", errors="backslashreplace"))
            notes.append(
                Diagnostic(
                    code=DiagnosticCode.IO_FAILED,
                    message=(
                        f"{label.split('-', 1)[-1]} ({_size(size)}) could not be saved to a "
                        f"file ({exc.strerror or exc}); only its preview is kept"
                    ),
                    severity=Severity.WARNING,
                )
            )
            return SavedText(saved_message(full, None, size), full=full, path=None)
        return SavedText(saved_message(full, path, size), full=full, path=path)
