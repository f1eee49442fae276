"""Lifecycle helpers: the right events, in the right order, around a tool call and a turn.

These are methods of :class:`~agent_hooks.Session` (mixed in from here); they only
use ``dispatch``. They return what the agent loop needs as data (what the tool
ran with, what the model should see, context to add, messages for the user)
and never touch the application's message list.

Tool call order: ToolInputTransform -> PreToolUse (rewrite; deny or
``continue: false`` skips the tool; ask/defer -> PermissionRequest hooks, then
the application's permission callback) -> the tool -> PostToolUse (or
PostToolUseFailure when the tool raised) -> ToolResponseTransform, which rewrites
what the model finally sees.

What the helpers return is defined in :mod:`agent_hooks._outcomes`, imported when a
helper runs (or the class is named): a session that only dispatches never creates
those classes.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import anyio
import attrs

import agent_hooks

from . import _events as ev
from ._diagnostics import Diagnostic, DiagnosticCode, Severity
from ._model import HookInput, HookOutput

if TYPE_CHECKING:
    from ._registry import Execution
    from ._session import Decision

__all__ = ["LifecycleMixin"]

O = TypeVar("O", bound=HookOutput)

# The helpers' result classes are named through the package (``agent_hooks.TurnOutcome``),
# which imports them on first use: annotations stay resolvable (``typing.get_type_hints``)
# without this module creating those classes.
PermissionCallback = Callable[
    ["agent_hooks.PermissionPrompt"],
    "Awaitable[agent_hooks.PermissionAnswer | bool] | agent_hooks.PermissionAnswer | bool",
]
Tool = Callable[[Mapping[str, Any]], Any]

_OUTCOMES = frozenset(
    {
        "PermissionAnswer",
        "PermissionPrompt",
        "PromptOutcome",
        "StopOutcome",
        "ToolCallOutcome",
        "TurnOutcome",
    }
)


def __getattr__(name: str) -> Any:
    """The result classes under their former home (they live in :mod:`._outcomes`)."""
    if name in _OUTCOMES:
        return getattr(agent_hooks, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
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


class LifecycleMixin:
    """Lifecycle helpers of :class:`~agent_hooks.Session`."""

    if TYPE_CHECKING:

        async def dispatch(
            self,
            input: HookInput[O],
            *,
            execution: Execution | None = None,
            stop_on_block: bool | None = None,
        ) -> Decision[O]: ...

    persistent_context: list[str]

    # ------------------------------------------------------------- tools

    async def call_tool(
        self,
        tool_name: str,
        tool_input: Mapping[str, Any],
        tool: Tool,
        *,
        tool_use_id: str | None = None,
        permission: PermissionCallback | None = None,
        raise_errors: bool = False,
    ) -> agent_hooks.ToolCallOutcome:
        """Run one tool call with its hooks, in the harnesses' order.

        ``tool`` is called with the input actually used (sync or async). A tool
        that raises is reported through PostToolUseFailure and in the outcome;
        it is re-raised only with ``raise_errors=True``. ``permission`` decides
        for ask/defer (after PermissionRequest hooks) and confirms hook allows;
        without it, ask/defer are refused unless a PermissionRequest hook
        allowed. A permission callback that raises counts as a refusal.
        """
        from ._outcomes import PermissionPrompt, ToolCallOutcome

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
        d_tr = await self.dispatch(
            ev.ToolInputTransformInput(
                tool_name=tool_name, tool_input=current, tool_use_id=tool_use_id
            )
        )
        note(d_tr)
        rewritten = d_tr.output.updated_input or getattr(d_tr.input, "tool_input", None)
        if rewritten is not None:
            current = rewritten
        pre = await self.dispatch(
            ev.PreToolUseInput(tool_name=tool_name, tool_input=current, tool_use_id=tool_use_id)
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
            req = await self.dispatch(
                ev.PermissionRequestInput(
                    tool_name=tool_name, tool_input=current, tool_use_id=tool_use_id
                )
            )
            note(req)
            pd = req.output.permission_decision
            if pd is not None and pd.behavior == "deny":
                reason = pd.message or "denied by a PermissionRequest hook"
                if pd.interrupt:
                    stop_reason.append(reason)
                return outcome(
                    ran=False, input=current, denied=True, reason=reason, model_view=reason
                )
            if pd is not None and pd.behavior == "allow":
                hook_decision = "allow"
                if pd.updated_input is not None:
                    current = pd.updated_input
        answer = await self._ask_permission(
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
            fail = await self.dispatch(
                ev.PostToolUseFailureInput(
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
            post = await self.dispatch(
                ev.PostToolUseInput(
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
        transform = await self.dispatch(
            ev.ToolResponseTransformInput(
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

    @staticmethod
    async def _ask_permission(
        callback: PermissionCallback | None,
        prompt: agent_hooks.PermissionPrompt,
        diags: list[Diagnostic],
    ) -> agent_hooks.PermissionAnswer:
        from ._outcomes import PermissionAnswer

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

    # ------------------------------------------------------------- turns

    async def submit_prompt(self, prompt: str) -> agent_hooks.PromptOutcome:
        """UserPromptSubmit: block the prompt, add context for this turn, suppress the original."""
        from ._outcomes import PromptOutcome

        d = await self.dispatch(ev.UserPromptSubmitInput(prompt=prompt))
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

    async def turn_start(self) -> agent_hooks.TurnOutcome:
        """TurnStart: context for this turn only."""
        return _turn(await self.dispatch(ev.TurnStartInput()))

    async def turn_end(self, reason: str | None = None) -> agent_hooks.TurnOutcome:
        """TurnEnd, whatever ended the turn."""
        return _turn(await self.dispatch(ev.TurnEndInput(reason=reason)))

    async def before_llm_call(
        self, messages: Sequence[Any] | None = None, **fields: Any
    ) -> agent_hooks.TurnOutcome:
        """BeforeLLMCall: a block stops the run; hooks may rewrite the messages."""
        d = await self.dispatch(ev.BeforeLLMCallInput(messages=messages, **fields))
        rewritten = d.output.messages
        if rewritten is None and getattr(d.input, "messages", messages) is not messages:
            rewritten = getattr(d.input, "messages", None)
        return attrs.evolve(_turn(d), rewritten=rewritten)

    async def after_llm_call(self, **fields: Any) -> agent_hooks.TurnOutcome:
        """AfterLLMCall (usage, cost, model_id, stop_response ...)."""
        return _turn(await self.dispatch(ev.AfterLLMCallInput(**fields)))

    async def check_stop(
        self, last_assistant_message: str | None = None
    ) -> agent_hooks.StopOutcome:
        """Stop: whether the agent may end its turn or must continue with feedback.

        The session sets ``stop_hook_active`` and enforces the continuation cap.
        """
        from ._outcomes import StopOutcome

        d = await self.dispatch(ev.StopInput(last_assistant_message=last_assistant_message))
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
        self, source: str = "startup", *, model: str | None = None
    ) -> agent_hooks.TurnOutcome:
        """SessionStart: context that persists for the session (kept in
        :attr:`persistent_context` too, plain-stdout context included)."""
        d = await self.dispatch(ev.SessionStartInput(source=source, model=model))
        if d.output.additional_context:
            self.persistent_context.append(d.output.additional_context)
        return _turn(d)

    async def end(self, reason: str = "other") -> agent_hooks.TurnOutcome:
        """SessionEnd: runs shielded within the registry's ``session_end_timeout``,
        even while the agent is being cancelled."""
        return _turn(await self.dispatch(ev.SessionEndInput(reason=reason)))


def _turn(d: Decision[Any]) -> agent_hooks.TurnOutcome:
    from ._outcomes import TurnOutcome

    return TurnOutcome(
        blocked=d.blocked,
        reason=d.reason if d.blocked else None,
        context=d.context,
        messages=d.system_messages,
        stop=not d.should_continue,
        stop_reason=d.stop_reason,
        decision=d,
    )
