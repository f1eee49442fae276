"""Lifecycle helpers: the right events, in the right order, around a tool call and a turn.

Each helper takes the session to dispatch through as its first argument; the
:class:`~agent_hooks.Session` methods of the same names are these functions (so
``session.call_tool(...)`` and ``call_tool(session, ...)`` are one code path). They
only use ``dispatch`` and return what the agent loop needs as data (what the tool
ran with, what the model should see, context to add, messages for the user); they
never touch the application's message list.

Tool call order: ToolInputTransform -> PreToolUse (rewrite; deny or
``continue: false`` skips the tool; ask/defer -> PermissionRequest hooks, then
the application's permission callback) -> the tool -> PostToolUse (or
PostToolUseFailure when the tool raised) -> ToolResponseTransform, which rewrites
what the model finally sees.

Each helper imports the event classes it dispatches when it runs: the session binds
these helpers as its methods, so a module-level import would make every run (every
``agent-hooks run`` of one event) import fourteen event modules it never uses.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeVar

import anyio
import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._events._model import HookInput, HookOutput
from .._wire._json import dumps
from ._compiled import CompiledRegistry, Execution
from ._decision import Decision
from ._outcomes import (
    PermissionAnswer,
    PermissionPrompt,
    PromptOutcome,
    StopOutcome,
    ToolCallOutcome,
    TurnOutcome,
)

__all__ = [
    "HookDispatcher",
    "PermissionCallback",
    "Tool",
    "after_llm_call",
    "before_llm_call",
    "call_tool",
    "check_stop",
    "directory_diagnostics",
    "end",
    "start",
    "submit_prompt",
    "turn_end",
    "turn_start",
]

O = TypeVar("O", bound=HookOutput)

PermissionCallback = Callable[
    [PermissionPrompt], Awaitable[PermissionAnswer | bool] | PermissionAnswer | bool
]
"""The application's permission check, ``permission=`` of :func:`call_tool`.

Called once per tool call that no hook refused or stopped, with a
:class:`~agent_hooks.PermissionPrompt` whose ``hook_decision`` is ``"allow"`` (a hook
approved: the application may still refuse), ``"ask"`` / ``"defer"`` (a hook wants a
person to decide) or ``None`` (no hook had an opinion). Returns (or returns an
awaitable of) ``True`` / ``False`` or a :class:`~agent_hooks.PermissionAnswer`
(``allow``, the refusal ``message`` for the model, an ``updated_input`` for the
tool). Raising counts as a refusal, with a diagnostic."""

Tool = Callable[[Mapping[str, Any]], Any]
"""The tool itself, ``tool`` of :func:`call_tool`.

Called once with the input the hooks left (never when the call was refused); may
return an awaitable, which is awaited. Its return value is the outcome's ``result``
and PostToolUse's ``tool_response``; an ``Exception`` it raises goes to
PostToolUseFailure and the outcome's ``error`` (re-raised only with
``raise_errors=True``)."""


class HookDispatcher(Protocol):
    """What the helpers need of a session."""

    persistent_context: list[str]

    async def dispatch(
        self,
        input: HookInput[O],
        *,
        execution: Execution | None = None,
        stop_on_block: bool | None = None,
    ) -> Decision[O]: ...


def _jsonable(value: Any) -> Any:
    """``value`` when it is JSON data (at any depth), else its text."""
    try:
        dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value


async def _maybe_await(value: Any) -> Any:
    if inspect.isawaitable(value):
        return await value
    return value


def _join(*parts: str | None) -> str | None:
    texts = [p for p in parts if p]
    return "\n".join(texts) if texts else None


# ----------------------------------------------------------------- tools


async def call_tool(
    session: HookDispatcher,
    tool_name: str,
    tool_input: Mapping[str, Any],
    tool: Tool,
    *,
    tool_use_id: str | None = None,
    permission: PermissionCallback | None = None,
    raise_errors: bool = False,
) -> ToolCallOutcome:
    """Run one tool call with its hooks, in the harnesses' order.

    ``tool`` is called with the input actually used (sync or async). A tool
    that raises is reported through PostToolUseFailure and in the outcome;
    it is re-raised only with ``raise_errors=True``. ``permission`` decides
    for ask/defer (after PermissionRequest hooks) and confirms hook allows;
    without it, ask/defer are refused unless a PermissionRequest hook
    allowed. A permission callback that raises counts as a refusal.
    """
    from .._events._tool._permission_request import PermissionRequestInput
    from .._events._tool._post_tool_use import PostToolUseInput
    from .._events._tool._post_tool_use_failure import PostToolUseFailureInput
    from .._events._tool._pre_tool_use import PreToolUseInput
    from .._events._tool._tool_input_transform import ToolInputTransformInput
    from .._events._tool._tool_response_transform import ToolResponseTransformInput

    decisions: list[Decision[Any]] = []
    diags: list[Diagnostic] = []
    contexts: list[str | None] = []
    messages: list[str] = []
    stop_reason: list[str] = []

    def note(d: Decision[Any]) -> None:
        decisions.append(d)
        diags.extend(d.diagnostics)
        # every dispatch may deliver context from background hooks that finished
        contexts.append(d.context)
        messages.extend(d.system_messages)
        if not d.should_continue:
            stop_reason.append(d.stop_reason or "")

    def outcome(**kw: Any) -> ToolCallOutcome:
        return ToolCallOutcome(
            tool_name=tool_name,
            context=_join(*contexts),
            messages=tuple(messages),
            stop=bool(stop_reason),
            stop_reason=stop_reason[0] if stop_reason else None,
            diagnostics=tuple(diags),
            decisions=tuple(decisions),
            **kw,
        )

    current: Mapping[str, Any] = dict(tool_input)
    d_tr = await session.dispatch(
        ToolInputTransformInput(tool_name=tool_name, tool_input=current, tool_use_id=tool_use_id)
    )
    note(d_tr)
    rewritten = d_tr.output.updated_input or getattr(d_tr.input, "tool_input", None)
    if rewritten is not None:
        current = rewritten
    pre = await session.dispatch(
        PreToolUseInput(tool_name=tool_name, tool_input=current, tool_use_id=tool_use_id)
    )
    note(pre)
    if pre.output.updated_input is not None:
        current = pre.output.updated_input
    else:
        current = getattr(pre.input, "tool_input", current)
    if not pre.should_continue:  # continue: false takes precedence over any decision
        reason = pre.stop_reason or pre.reason or "a PreToolUse hook stopped the agent"
        return outcome(ran=False, input=current, denied=True, reason=reason, model_view=reason)
    verdict = pre.output.permission_decision
    if verdict == "deny" or pre.blocked:  # also the deprecated decision: "block"
        reason = pre.reason or "denied by a PreToolUse hook"
        return outcome(ran=False, input=current, denied=True, reason=reason, model_view=reason)
    hook_decision: Literal["allow", "ask", "defer"] | None = verdict
    hook_reason = pre.output.permission_decision_reason
    if verdict in ("ask", "defer"):
        req = await session.dispatch(
            PermissionRequestInput(tool_name=tool_name, tool_input=current, tool_use_id=tool_use_id)
        )
        note(req)
        pd = req.output.permission_decision
        if pd is not None and pd.behavior == "deny":
            reason = pd.message or "denied by a PermissionRequest hook"
            if pd.interrupt:
                stop_reason.append(reason)
            return outcome(ran=False, input=current, denied=True, reason=reason, model_view=reason)
        if pd is not None and pd.behavior == "allow":
            hook_decision = "allow"
            if pd.updated_input is not None:
                current = pd.updated_input
    answer = await _ask_permission(
        permission,
        PermissionPrompt(
            tool_name=tool_name,
            tool_input=current,
            tool_use_id=tool_use_id,
            hook_decision=hook_decision,
            reason=hook_reason,
        ),
        diags,
    )
    if not answer.allow:
        reason = answer.message or "permission denied"
        return outcome(ran=False, input=current, denied=True, reason=reason, model_view=reason)
    if answer.updated_input is not None:
        current = answer.updated_input

    start = anyio.current_time()
    error: Exception | None = None
    result: Any = None
    try:
        result = await _maybe_await(tool(current))
    except Exception as exc:
        error = exc
    duration_ms = int((anyio.current_time() - start) * 1000)
    view: Any
    if error is not None:
        fail = await session.dispatch(
            PostToolUseFailureInput(
                tool_name=tool_name,
                tool_input=current,
                tool_use_id=tool_use_id,
                error=f"{type(error).__name__}: {error}",
                is_interrupt=False,
                duration_ms=duration_ms,
            )
        )
        note(fail)
        view = f"Error: {type(error).__name__}: {error}"
        if fail.blocked and fail.reason:
            view = fail.reason
    else:
        post = await session.dispatch(
            PostToolUseInput(
                tool_name=tool_name,
                tool_input=current,
                tool_use_id=tool_use_id,
                tool_response=_jsonable(result),
                duration_ms=duration_ms,
            )
        )
        note(post)
        view = result
        if post.output.updated_tool_output is not None:
            view = post.output.updated_tool_output
        if post.blocked and post.reason:
            view = post.reason  # block feedback replaces what the model sees
    # Last: Docker Agent's response transform (redaction, truncation) on what the
    # model is about to see, after the Post hooks had their say.
    transform = await session.dispatch(
        ToolResponseTransformInput(
            tool_name=tool_name,
            tool_input=current,
            tool_use_id=tool_use_id,
            tool_response=_jsonable(view),
        )
    )
    note(transform)
    if transform.output.updated_tool_response is not None:
        view = transform.output.updated_tool_response
    if error is not None and raise_errors:
        raise error
    return outcome(
        ran=True,
        input=current,
        result=result,
        error=error,
        model_view=view,
        duration_ms=duration_ms,
    )


async def _ask_permission(
    callback: PermissionCallback | None,
    prompt: PermissionPrompt,
    diags: list[Diagnostic],
) -> PermissionAnswer:

    if callback is None:
        if prompt.hook_decision in ("ask", "defer"):
            return PermissionAnswer(
                allow=False,
                message=prompt.reason
                or f"{prompt.tool_name} needs approval and no one can approve it",
            )
        return PermissionAnswer(allow=True)
    try:
        answer = await _maybe_await(callback(prompt))
    except Exception as exc:
        diags.append(
            Diagnostic(
                code=DiagnosticCode.HANDLER_ERROR,
                message=f"permission callback raised {type(exc).__name__}: {exc}; counted as a refusal",
                severity=Severity.ERROR,
            )
        )
        return PermissionAnswer(allow=False, message="permission check failed")
    if isinstance(answer, PermissionAnswer):
        return answer
    return PermissionAnswer(allow=bool(answer))


# ------------------------------------------------- the session's directories


def directory_diagnostics(
    compiled: CompiledRegistry, cwd: str, project_dir: str
) -> tuple[Diagnostic, ...]:
    """A diagnostic (severity error, code ``invalid_cwd``) for a session ``cwd`` or
    ``project_dir`` that is not an existing directory while the registry has command
    hooks (which would run somewhere else), saying where they run instead.

    The session still opens and dispatches: the path is only the payload's ``cwd``
    (and ``CLAUDE_PROJECT_DIR``), which may name a directory of a sandbox the agent's
    tools run in; in-process handlers need no directory, so without command hooks
    nothing falls back and nothing is said."""
    if not any(cn.node.kind == "command" for ns in compiled.nodes.values() for cn in ns):
        return ()
    found: list[Diagnostic] = []
    if not os.path.isdir(cwd):
        if os.path.isdir(project_dir):
            instead = f"the project_dir {project_dir!r}"
        else:
            try:
                instead = f"this process's working directory {os.getcwd()!r}"
            except OSError:
                instead = "this process's working directory"
        found.append(
            Diagnostic(
                code=DiagnosticCode.INVALID_CWD,
                message=(
                    f"the session's cwd {cwd!r} is not an existing directory: hooks receive "
                    f"it as the payload's cwd, but command hooks run in {instead}"
                ),
                severity=Severity.ERROR,
            )
        )
    if project_dir != cwd and not os.path.isdir(project_dir):
        found.append(
            Diagnostic(
                code=DiagnosticCode.INVALID_CWD,
                message=(
                    f"the session's project_dir {project_dir!r} is not an existing directory: "
                    "command hooks get it as CLAUDE_PROJECT_DIR all the same"
                ),
                severity=Severity.ERROR,
            )
        )
    return tuple(found)


# ------------------------------------------------------------- turns


async def submit_prompt(session: HookDispatcher, prompt: str) -> PromptOutcome:
    """UserPromptSubmit: block the prompt, add context for this turn, suppress the original."""
    from .._events._prompt._user_prompt_submit import UserPromptSubmitInput

    d = await session.dispatch(UserPromptSubmitInput(prompt=prompt))
    return PromptOutcome(
        blocked=d.blocked,
        reason=d.reason,
        context=d.context,
        suppress_original=bool(d.output.suppress_original_prompt),
        session_title=d.output.session_title,
        messages=d.system_messages,
        stop=not d.should_continue,
        stop_reason=d.stop_reason,
        decision=d,
    )


async def turn_start(session: HookDispatcher) -> TurnOutcome:
    """TurnStart: context for this turn only."""
    from .._events._prompt._turn_start import TurnStartInput

    return _turn(await session.dispatch(TurnStartInput()))


async def turn_end(session: HookDispatcher, reason: str | None = None) -> TurnOutcome:
    """TurnEnd, whatever ended the turn."""
    from .._events._prompt._turn_end import TurnEndInput

    return _turn(await session.dispatch(TurnEndInput(reason=reason)))


async def before_llm_call(
    session: HookDispatcher, messages: Sequence[Any] | None = None, **fields: Any
) -> TurnOutcome:
    """BeforeLLMCall: a block stops the run; hooks may rewrite the messages."""
    from .._events._prompt._before_llm_call import BeforeLLMCallInput

    d = await session.dispatch(BeforeLLMCallInput(messages=messages, **fields))
    rewritten = d.output.messages
    if rewritten is None and getattr(d.input, "messages", messages) is not messages:
        rewritten = getattr(d.input, "messages", None)
    return attrs.evolve(_turn(d), rewritten=rewritten)


async def after_llm_call(session: HookDispatcher, **fields: Any) -> TurnOutcome:
    """AfterLLMCall (usage, cost, model_id, stop_response ...)."""
    from .._events._prompt._after_llm_call import AfterLLMCallInput

    return _turn(await session.dispatch(AfterLLMCallInput(**fields)))


async def check_stop(
    session: HookDispatcher, last_assistant_message: str | None = None
) -> StopOutcome:
    """Stop: whether the agent may end its turn or must continue with feedback.

    The session sets ``stop_hook_active`` and enforces the continuation cap.
    """
    from .._events._prompt._stop import StopInput

    d = await session.dispatch(StopInput(last_assistant_message=last_assistant_message))
    capped = any(x.code is DiagnosticCode.CONTINUATION_CAP for x in d.diagnostics)
    # A block, or additionalContext (Claude Code's non-error feedback), keeps the turn going.
    own_context = d.output.additional_context
    must_go_on = (d.blocked or bool(own_context)) and d.should_continue and not capped
    return StopOutcome(
        should_stop=not must_go_on,
        feedback=_join(d.reason if d.blocked else None, own_context) if must_go_on else None,
        capped=capped,
        context=d.context,
        messages=d.system_messages,
        decision=d,
    )


# ----------------------------------------------------------- session


async def start(
    session: HookDispatcher, source: str = "startup", *, model: str | None = None
) -> TurnOutcome:
    """SessionStart: context that persists for the session (kept in
    :attr:`persistent_context` too, plain-stdout context included)."""
    from .._events._session._session_start import SessionStartInput

    d = await session.dispatch(SessionStartInput(source=source, model=model))
    if d.output.additional_context:
        session.persistent_context.append(d.output.additional_context)
    return _turn(d)


async def end(session: HookDispatcher, reason: str = "other") -> TurnOutcome:
    """SessionEnd: runs shielded within the registry's ``session_end_timeout``,
    even while the agent is being cancelled."""
    from .._events._session._session_end import SessionEndInput

    return _turn(await session.dispatch(SessionEndInput(reason=reason)))


def _turn(d: Decision[Any]) -> TurnOutcome:

    return TurnOutcome(
        blocked=d.blocked,
        reason=d.reason if d.blocked else None,
        context=d.context,
        messages=d.system_messages,
        stop=not d.should_continue,
        stop_reason=d.stop_reason,
        decision=d,
    )
