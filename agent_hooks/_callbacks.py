"""Python callbacks as handler nodes.

Two signatures are accepted, told apart once at registration:

* the Claude Agent SDK's ``(input_data: dict, tool_use_id: str | None, context) -> dict``:
  it gets the claude wire dict and answers with wire keys (``continue_`` and
  ``async_`` included), decoded by the same lenient decoder as command output;
* the typed ``(input: <Event>Input) -> <Event>Output | None``.

Async functions are awaited; plain functions are called inline (keep them quick)
or, with ``thread=True``, in a worker thread so that a timeout can abandon them.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal

import anyio.to_thread
import attrs

from ._diagnostics import Diagnostic, DiagnosticCode, Severity
from ._errors import RegistrationError
from ._model import HookInput, HookOutput, immutable
from ._nodes import HandlerNode, HandlerResult, HookCall, OnError, Outcome, PhasedCall
from ._outputs import check_output
from ._wire import decode_output

__all__ = ["CallbackHook", "callback_node", "callback_signature"]

Signature = Literal["sdk", "typed"]

HookCallback = Callable[..., Any]
"""A Python hook callback, either signature, async or plain."""


def _display_name(fn: Callable[..., Any]) -> str:
    target = fn.func if isinstance(fn, functools.partial) else fn
    module = getattr(target, "__module__", None)
    qual = getattr(target, "__qualname__", None) or type(target).__name__
    return f"{module}.{qual}" if module and module != "builtins" else str(qual)


def callback_signature(fn: Callable[..., Any]) -> Signature:
    """Tell which of the two accepted signatures ``fn`` has.

    Raises:
        RegistrationError: ``fn`` is not callable or has neither signature.
    """
    if not callable(fn):
        raise RegistrationError(f"hook {fn!r} is not callable")
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise RegistrationError(
            f"cannot read the signature of hook {_display_name(fn)}: {exc}"
        ) from None
    positional = [
        p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    required = [p for p in positional if p.default is p.empty]
    var_positional = any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values())
    required_kw = [
        p for p in sig.parameters.values() if p.kind is p.KEYWORD_ONLY and p.default is p.empty
    ]
    if required_kw:
        raise RegistrationError(
            f"hook {_display_name(fn)} has required keyword-only parameters "
            f"({', '.join(p.name for p in required_kw)}); hooks are called positionally"
        )
    r, n = len(required), len(positional)
    if r > 3:
        raise RegistrationError(
            f"hook {_display_name(fn)} takes {r} required arguments; expected "
            "(input) for a typed hook or (input_data, tool_use_id, context) for a Claude Agent SDK hook"
        )
    # (input_data, tool_use_id=None, context=None) is still an SDK callback: with three
    # positional slots, the SDK's parameter names or a dict annotation tell it from a typed
    # callback that only captures values in defaults (input, i=i, out=out).
    if r == 3:
        return "sdk"
    if n >= 3 and r < 3:
        if positional and _typed_annotation(positional[0].annotation):
            return "typed"
        if _sdk_shaped(positional):
            return "sdk"
    if r in (0, 2) and (n >= 3 or var_positional):
        return "sdk"
    if r <= 1 and (n >= 1 or var_positional):
        return "typed"
    raise RegistrationError(
        f"hook {_display_name(fn)} takes {len(required)} required arguments; expected "
        "(input) for a typed hook or (input_data, tool_use_id, context) for a Claude Agent SDK hook"
    )


def _sdk_shaped(params: list[inspect.Parameter]) -> bool:
    """The Claude Agent SDK's convention: (input_data: dict, tool_use_id, context)."""
    second = params[1].name.lower() if len(params) > 1 else ""
    first = params[0].annotation if params else inspect.Parameter.empty
    dict_like = first in (dict, Mapping) or (
        isinstance(first, str)
        and first.replace(" ", "").startswith(("dict", "Mapping", "HookInput"))
    )
    return "tool_use" in second or dict_like


def _typed_annotation(annotation: Any) -> bool:
    """Whether a parameter annotation names an event input class (also as a string)."""
    if isinstance(annotation, type):
        return issubclass(annotation, HookInput)
    if isinstance(annotation, str):
        text = annotation.replace(" ", "")
        return text.endswith("Input") or "Input[" in text or text.endswith("Input|None")
    return False


def _error(message: str, code: DiagnosticCode = DiagnosticCode.INVALID_OUTPUT) -> HandlerResult:
    return HandlerResult(
        outcome=Outcome.ERROR,
        diagnostics=(Diagnostic(code=code, message=message, severity=Severity.ERROR),),
        reason=message,
    )


_INVALID_ANSWER = frozenset(
    {
        DiagnosticCode.WRONG_TYPE,
        DiagnosticCode.INVALID_VALUE,
        DiagnosticCode.UNKNOWN_FIELD,
        DiagnosticCode.NOT_OBJECT,
        DiagnosticCode.MISMATCHED_OUTPUT,
        DiagnosticCode.INVALID_OUTPUT,
    }
)
"""Diagnostics that make a callback's answer invalid: it then holds no decision at all
(command output stays lenient: its valid siblings are kept)."""


def _invalid(name: str, diags: tuple[Diagnostic, ...]) -> HandlerResult:
    message = f"{name} returned an invalid answer; it holds no decision"
    return HandlerResult(
        outcome=Outcome.ERROR,
        diagnostics=(
            *diags,
            Diagnostic(
                code=DiagnosticCode.INVALID_OUTPUT, message=message, severity=Severity.ERROR
            ),
        ),
        reason=message,
    )


def _interpret(call: HookCall, answer: Any, name: str) -> HandlerResult:
    spec = call.spec
    if answer is None:
        return HandlerResult()
    if isinstance(answer, HookOutput):
        if not (isinstance(answer, spec.output_type) or type(answer) is HookOutput):
            return _error(
                f"{name} returned {type(answer).__name__} for {spec.event.value}; "
                f"expected {spec.output_type.__name__} or None"
            )
        output, diags = check_output(spec, answer)
        if output is None:
            return _invalid(name, diags)
        return HandlerResult(output=output, diagnostics=diags)
    if isinstance(answer, dict):
        decoded = decode_output(spec.event, answer, dialect="claude")
        if decoded.is_async:
            return HandlerResult(
                is_async=True,
                diagnostics=(
                    *decoded.diagnostics,
                    Diagnostic(
                        code=DiagnosticCode.ASYNC_REPLY,
                        message=f"{name} answered async; it carries on by itself and holds no decision",
                        severity=Severity.INFO,
                    ),
                ),
            )
        if any(d.code in _INVALID_ANSWER for d in decoded.diagnostics):
            return _invalid(name, decoded.diagnostics)
        return HandlerResult(output=decoded.output, diagnostics=decoded.diagnostics)
    return _error(
        f"{name} returned {type(answer).__name__}; expected a dict, "
        f"{spec.output_type.__name__} or None"
    )


_MEMO_SIZE = 64
"""Distinct answers remembered per callback (the memo starts over when full)."""

_SCALAR_TYPES = frozenset({int, float, bool, type(None)})


class _Unkeyable(Exception):
    pass


def _json_key(value: Any) -> Any:
    """A hashable image of a JSON value that equal JSON values (and only they) share.

    Numbers carry their type, so that ``1``, ``1.0`` and ``true`` stay apart.

    Raises:
        _Unkeyable: the value holds something that is not plain JSON data.
    """
    t = type(value)
    if t is str:
        return value
    if t is dict:
        # (strings stand for themselves: the commonest values cost no call)
        return (
            dict,
            *[(k, v if type(v) is str else _json_key(v)) for k, v in value.items()],
        )
    if t in _SCALAR_TYPES:
        return (t, value)
    if t is list or t is tuple:
        return (list, *[_json_key(v) for v in value])
    raise _Unkeyable


def _answer_key(spec: Any, answer: dict[str, Any]) -> Any:
    """The memo key of a callback's dict answer, ``None`` when it cannot have one."""
    try:
        return (spec.event, _json_key(answer))
    except (_Unkeyable, RecursionError, TypeError):  # TypeError: an unhashable dict key
        return None


_RECENT = 4
"""Answers compared by value before the memo key is computed."""


class _Answers:
    """A callback's decoded answers: by memo key (:func:`_json_key`), and the few most
    recent by value, which a dict comparison finds without computing the key.

    ``==`` is looser than the key on numbers (``1 == 1.0 == True``), so a recent
    answer also records the type at every number's path, and a match must have them.
    Entries hold snapshots (deep copies): a callback that edits the dict it returned
    cannot change what was remembered.
    """

    __slots__ = ("by_key", "recent")

    def __init__(self) -> None:
        self.by_key: dict[Any, HandlerResult] = {}
        self.recent: list[tuple[Any, dict[str, Any], tuple[Any, ...], HandlerResult]] = []

    def recall(self, spec: Any, answer: dict[str, Any]) -> HandlerResult | None:
        """The result of an answer equal to a recent one for this event, else ``None``."""
        try:
            for seen_for, snapshot, numbers, result in self.recent:
                if (
                    seen_for is spec
                    and answer == snapshot
                    and (not numbers or _typed_alike(answer, numbers))
                ):
                    return result
        except Exception:  # (a value whose comparison fails is no plain JSON)
            return None
        return None

    def remember(self, key: Any, result: HandlerResult) -> None:
        if len(self.by_key) >= _MEMO_SIZE:
            self.by_key.clear()
        self.by_key[key] = result

    def keep_recent(self, spec: Any, answer: dict[str, Any], result: HandlerResult) -> None:
        """Put ``answer`` (known to be plain JSON data) first among the recent ones,
        if its decoding cannot depend on key order, which ``==`` does not see: it
        decoded without a diagnostic (whose order and paths follow the keys) and
        spells no key two ways (``async`` and ``async_``, where the last one wins)."""
        if result.diagnostics or not _spelled_once(answer):
            return
        snapshot = _copy_json(answer)
        numbers = tuple(_number_paths(snapshot, ()))
        self.recent.insert(0, (spec, snapshot, numbers, result))
        del self.recent[_RECENT:]


def _spelled_once(value: Any) -> bool:
    """Whether no object inside ``value`` has two keys that differ only in case and
    underscores (two spellings of one field)."""
    t = type(value)
    if t is dict:
        names = {k.replace("_", "").lower() if type(k) is str else k for k in value}
        return len(names) == len(value) and all(_spelled_once(v) for v in value.values())
    if t is list or t is tuple:
        return all(_spelled_once(v) for v in value)
    return True


def _copy_json(value: Any) -> Any:
    t = type(value)
    if t is dict:
        return {k: _copy_json(v) for k, v in value.items()}
    if t is list or t is tuple:
        return t(_copy_json(v) for v in value)
    return value


def _number_paths(value: Any, path: tuple[Any, ...]) -> Any:
    """``(path, type)`` of every number and boolean inside ``value``."""
    t = type(value)
    if t is dict:
        for k, v in value.items():
            yield from _number_paths(v, (*path, k))
    elif t is list or t is tuple:
        for i, v in enumerate(value):
            yield from _number_paths(v, (*path, i))
    elif t is int or t is float or t is bool:
        yield (path, t)


def _typed_alike(answer: Any, numbers: tuple[Any, ...]) -> bool:
    for path, t in numbers:
        v = answer
        for k in path:
            v = v[k]
        if type(v) is not t:
            return False
    return True


def callback_node(
    fn: HookCallback,
    *,
    name: str | None = None,
    timeout: float | None = None,
    on_error: OnError | None = None,
    background: bool = False,
    if_rule: str | None = None,
    thread: bool = False,
    status_message: str | None = None,
) -> HandlerNode:
    """Turn a Python callback into a :class:`HandlerNode` (signature read once, here).

    Raises:
        RegistrationError: the callback has neither accepted signature.
    """
    kind = callback_signature(fn)
    display = name or _display_name(fn)
    is_async = inspect.iscoroutinefunction(fn) or inspect.iscoroutinefunction(
        getattr(fn, "__call__", None)  # noqa: B004 - async callable objects
    )

    async def invoke_plain(*args: Any) -> Any:
        if thread:
            result = await anyio.to_thread.run_sync(
                functools.partial(fn, *args), abandon_on_cancel=True
            )
        else:
            result = fn(*args)
        if inspect.isawaitable(result):
            result = await result
        return result

    # an async callback is awaited directly (no wrapper coroutine on the hot path)
    invoke: Callable[..., Awaitable[Any]] = fn if is_async else invoke_plain

    begin: Callable[[HookCall], Awaitable[Any]]
    end: Callable[[HookCall, Any], HandlerResult]
    if kind == "sdk":
        memo = _Answers()

        def begin(c: HookCall) -> Awaitable[Any]:
            try:
                tool_use_id = c.input.tool_use_id  # type: ignore[attr-defined]
            except AttributeError:  # (an event about no tool call)
                tool_use_id = None
            # (context: the Claude Agent SDK's, whose "signal" is reserved there)
            return invoke(c.payload("claude"), tool_use_id, {"signal": None})

        def end(c: HookCall, answer: Any) -> HandlerResult:
            if type(answer) is dict:
                # Hooks tend to give the same few answers: decode each of them once.
                recent = memo.recent
                try:  # (the latest answer first, without a call: the commonest case)
                    seen_for, snapshot, numbers, latest = recent[0]
                    if seen_for is c.spec and not numbers and answer == snapshot:
                        return latest
                except Exception:  # none yet (IndexError), or no plain JSON
                    pass
                recalled = memo.recall(c.spec, answer)
                if recalled is not None:
                    return recalled
                key = _answer_key(c.spec, answer)
                if key is not None:
                    known = memo.by_key.get(key)
                    if known is None:
                        known = _interpret(c, answer, display)
                        if not immutable(known.output):
                            return known
                        memo.remember(key, known)
                    memo.keep_recent(c.spec, answer, known)
                    return known
            if answer is None:
                return HandlerResult(
                    diagnostics=(
                        Diagnostic(
                            code=DiagnosticCode.INVALID_OUTPUT,
                            message=f"{display} returned None; return {{}} for no opinion",
                            severity=Severity.INFO,
                        ),
                    )
                )
            return _interpret(c, answer, display)
    else:

        def begin(c: HookCall) -> Awaitable[Any]:
            return invoke(c.input)

        def end(c: HookCall, answer: Any) -> HandlerResult:
            return _interpret(c, answer, display)

    closer = getattr(fn, "session_closed", None)
    return HandlerNode(
        name=display,
        kind="python",
        on_session_close=closer if callable(closer) else None,
        timeout_blocks=True,
        call=PhasedCall(begin, end),
        timeout=timeout,
        on_error=on_error,
        background=background,
        if_rule=if_rule,
        status_message=status_message,
    )


@attrs.frozen
class CallbackHook:
    """A Python callback with per-handler options, for ``HookMatcher.hooks``.

    A bare callable in ``hooks`` is the same as ``CallbackHook(callback=fn)``.
    ``background=True`` makes it fire-and-forget: it never holds up a decision;
    its ``additional_context`` and ``system_message`` arrive with the session's
    next dispatch. ``if_rule`` is a Claude Code permission rule (``Bash(git *)``)
    checked before the callback runs, on tool events only.
    """

    callback: HookCallback
    name: str | None = attrs.field(default=None, kw_only=True)
    timeout: float | None = attrs.field(default=None, kw_only=True)
    on_error: OnError | None = attrs.field(default=None, kw_only=True)
    background: bool = attrs.field(default=False, kw_only=True)
    if_rule: str | None = attrs.field(default=None, kw_only=True)
    thread: bool = attrs.field(default=False, kw_only=True)
    """Run a plain (non-async) callback in a worker thread, so a timeout can abandon it."""
    status_message: str | None = attrs.field(default=None, kw_only=True)

    def to_node(self) -> HandlerNode:
        """Build the handler node (checks the signature)."""
        return callback_node(
            self.callback,
            name=self.name,
            timeout=self.timeout,
            on_error=self.on_error,
            background=self.background,
            if_rule=self.if_rule,
            thread=self.thread,
            status_message=self.status_message,
        )
