"""Python callbacks as handler nodes.

Two signatures are accepted, told apart once at registration:

* the Claude Agent SDK's ``(input_data: dict, tool_use_id: str | None, context) -> dict``:
  it gets the claude wire dict and answers with wire keys (``continue_`` and
  ``async_`` included), decoded by the same lenient decoder as command output;
* the typed ``(input: <Event>Input) -> <Event>Output | None``.

Async functions are awaited; plain functions are called inline (keep them quick)
or, with ``thread=True``, in a worker thread so that a timeout can abandon them.

A callback that raises fails (the session contains the exception); one that calls
``sys.exit()`` fails the same way instead of ending the process that dispatches (in
``agent-hooks run`` that would be an exit status standing in for every hook's answer).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal, cast

import anyio.to_thread
import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._base._errors import RegistrationError
from .._events._model import HookInput, HookOutput
from .._wire._codec import decode_output
from .._wire._fields import short_repr
from .._wire._outputs import check_output
from ._nodes import HandlerNode, HandlerResult, HookCall, OnError

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
    return HandlerResult.failure(code, message)


_INVALID_ANSWER = frozenset(
    {
        DiagnosticCode.WRONG_TYPE,
        DiagnosticCode.INVALID_VALUE,
        DiagnosticCode.NOT_OBJECT,
        DiagnosticCode.MISMATCHED_OUTPUT,
        DiagnosticCode.INVALID_OUTPUT,
    }
)
"""Diagnostics that make a callback's answer invalid: it then holds no decision at all
and the callback failed, under its failure policy (command output stays lenient: its
valid siblings are kept). Unknown keys are not among them: they are left out with a
warning and the rest of the answer stands, as Claude Code strips them, so that an extra
or misspelt key never weakens a decision."""


def _invalid(name: str, diags: tuple[Diagnostic, ...], why: str | None = None) -> HandlerResult:
    """The failure of a callback whose answer is invalid; ``why`` (else the diagnostics
    that made it so) says what could not be read."""
    if why is None:
        why = "; ".join(d.message for d in diags if d.code in _INVALID_ANSWER) or None
    message = f"{name} returned an invalid answer" + (f" ({why})" if why else "")
    message += "; it holds no decision"
    return HandlerResult.failure(DiagnosticCode.INVALID_OUTPUT, message, earlier=diags)


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
        decoded = decode_output(spec.event, answer, dialect="claude", unknown_keys="drop")
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
        if decoded.unreadable is not None or any(
            d.code in _INVALID_ANSWER for d in decoded.diagnostics
        ):
            return _invalid(name, decoded.diagnostics, decoded.unreadable)
        return HandlerResult(output=decoded.output, diagnostics=decoded.diagnostics)
    return _error(
        f"{name} returned {type(answer).__name__}; expected a dict, "
        f"{spec.output_type.__name__} or None"
    )


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

    async def run_plain(*args: Any) -> Any:
        """A plain callable: in a worker thread when ``thread``; an awaitable it
        returns is awaited."""
        if thread:
            answer = await anyio.to_thread.run_sync(
                functools.partial(fn, *args), abandon_on_cancel=True
            )
        else:
            answer = fn(*args)
        if inspect.isawaitable(answer):
            answer = await answer
        return answer

    invoke = cast("Callable[..., Awaitable[Any]]", fn) if is_async else run_plain
    typed = kind == "typed"

    async def call(c: HookCall) -> HandlerResult:
        try:
            if typed:
                return _interpret(c, await invoke(c.input), display)
            # (context: the Claude Agent SDK's, whose "signal" is reserved there)
            tool_use_id = getattr(c.input, "tool_use_id", None)
            answer = await invoke(c.payload("claude"), tool_use_id, {"signal": None})
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
        except SystemExit as exc:  # a script's habit; it must not end the dispatching process
            return _error(
                f"{display} called sys.exit({short_repr(exc.code)}); a Python hook returns its answer "
                "(None for no opinion) instead",
                DiagnosticCode.HANDLER_ERROR,
            )

    closer = getattr(fn, "session_closed", None)
    return HandlerNode(
        name=display,
        kind="python",
        on_session_close=closer if callable(closer) else None,
        timeout_blocks=True,
        call=call,
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
    shadow: bool = attrs.field(default=False, kw_only=True)
    """Shadow mode: it runs and its would-be decision is recorded, never enforced."""

    def to_node(self) -> HandlerNode:
        """Build the handler node (checks the signature)."""
        node = callback_node(
            self.callback,
            name=self.name,
            timeout=self.timeout,
            on_error=self.on_error,
            background=self.background,
            if_rule=self.if_rule,
            thread=self.thread,
            status_message=self.status_message,
        )
        return attrs.evolve(node, shadow=True) if self.shadow else node
