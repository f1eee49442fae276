"""The hook graph as CrewAI execution hooks (``crewai.hooks``, CrewAI 1.15).

CrewAI's hooks are synchronous and process-wide. :meth:`CrewAIHooks.run` registers
this adapter's hooks when the block opens and unregisters them when it closes, so a
crew that runs outside the block is not hooked (one block at a time per process).
The block owns an anyio blocking portal, an event loop in a thread of its own that
the agent_hooks session lives in; the hooks call into it from whichever thread CrewAI
runs them in, and nothing of it outlives the block.

* ``PRE_TOOL_CALL`` / ``POST_TOOL_CALL``: one hooked tool call (the library's
  ``call_tool``) spans the two, as CrewAI runs the tool between them.
  ``PRE_TOOL_CALL`` starts it and waits until it reaches the tool (PreToolUse,
  PermissionRequest, the permission callback): an allowed call gets its
  ``updatedInput`` written into ``tool_input`` in place (the dict CrewAI runs the tool
  with); a refused one raises ``HookAborted``, so CrewAI does not run the tool.
  ``POST_TOOL_CALL`` (CrewAI dispatches it for blocked calls too) hands the tool's
  result to the call (PostToolUse; PostToolUseFailure for CrewAI's error text) and
  returns what the model reads: the refusal's reason instead of CrewAI's generic
  "blocked" text, a hook's replacement, then the hook context on a new line. The two
  halves of a call are paired through a context variable: CrewAI runs both in the
  tool call's own context (parallel calls each in a copied one).
* ``PRE_STEP`` of a task: UserPromptSubmit for the task's description; SessionStart's
  context (first task) and the prompt hooks' context are appended to the task's
  context, which CrewAI puts in the task prompt.
* :meth:`CrewAIHooks.guardrail`, a task guardrail: Stop on the task's answer; a block
  fails the guardrail with the feedback and CrewAI runs the task again with it.
* ``continue: false`` and a blocked prompt are raised as ``HookAborted`` (the one
  exception CrewAI lets out of a hook), out of ``kickoff``; the ``run()`` block turns
  it back into :class:`AgentStopped` / :class:`PromptBlocked`.
* CrewAI ignores any other exception of a hook (it fails open), so a failure of the
  hook graph before a tool refuses the call, and after it ends the run.
"""

# (no ``from __future__ import annotations``: CrewAI reads the guardrail's return
# annotation at runtime and accepts only a real ``tuple[bool, Any]``)
import concurrent.futures
import contextlib
import threading
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import Any

import anyio
import attrs
from anyio.from_thread import BlockingPortal, start_blocking_portal
from crewai.hooks import HookAborted, InterceptionPoint, register_hook, unregister_hook

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._outcomes import ToolCallOutcome
from ..._dispatch._registry import HookRegistry
from ._run import AgentStopped, HookedRun, ToolErrorResult, model_text, with_tool_aliases

__all__ = ["CrewAIHooks"]

_FAILED = ("Error executing tool: ", "Tool execution blocked by hook.")
"""How CrewAI's result text starts when the tool raised, or another hook blocked it
after this adapter allowed it: the call goes to PostToolUseFailure."""

_SOURCE = "agent_hooks"


class _Abort(HookAborted):
    """An :class:`AgentStopped` carried out of CrewAI as the ``HookAborted`` it lets
    propagate; ``run()`` raises ``stopped``."""

    def __init__(self, stopped: AgentStopped) -> None:
        super().__init__(stopped.reason, _SOURCE)
        self.stopped = stopped


@attrs.define(eq=False)
class _Call:
    """A hooked call between ``PRE_TOOL_CALL`` and ``POST_TOOL_CALL``. ``entered`` is
    the input the tool gets (set in the portal when ``call_tool`` reaches the tool);
    ``arrived`` wakes the portal side when the tool's result (or error) is in."""

    tool_name: str
    entered: concurrent.futures.Future[dict[str, Any]] = attrs.Factory(concurrent.futures.Future)
    done: concurrent.futures.Future[ToolCallOutcome] | None = None
    arrived: anyio.Event | None = None
    result: Any = None
    error: BaseException | None = None


@attrs.frozen
class _Refused:
    """A call this adapter refused in ``PRE_TOOL_CALL``: ``POST_TOOL_CALL`` answers
    with ``reason``, or ends the run with ``stopped``."""

    tool_name: str
    reason: str
    stopped: AgentStopped | None = None


class _Run:
    """One open ``run()`` block: the session in the portal and the calls in flight."""

    def __init__(self, hooked: HookedRun, portal: BlockingPortal) -> None:
        self.hooked = hooked
        self.portal = portal
        self.waiting: list[_Call] = []
        """Calls that reached the tool and wait for its result (portal side only)."""
        self.pending: ContextVar[_Call | _Refused | None] = ContextVar(
            "agent_hooks_crewai_call", default=None
        )
        self.hooks = (
            (InterceptionPoint.PRE_STEP, self.pre_step),
            (InterceptionPoint.PRE_TOOL_CALL, self.pre_tool_call),
            (InterceptionPoint.POST_TOOL_CALL, self.post_tool_call),
        )

    # -- the portal side --

    async def _call_tool(self, call: _Call, tool_input: dict[str, Any]) -> ToolCallOutcome:
        async def tool(new_input: Mapping[str, Any]) -> Any:
            call.arrived = anyio.Event()
            self.waiting.append(call)
            call.entered.set_result(dict(new_input))
            await call.arrived.wait()
            if call.error is not None:
                raise call.error
            return call.result

        return await self.hooked.call_tool(call.tool_name, tool_input, tool)

    def _deliver(self, call: _Call, result: Any, error: BaseException | None) -> None:
        if call in self.waiting and call.arrived is not None:
            self.waiting.remove(call)
            call.result, call.error = result, error
            call.arrived.set()

    def abandon_all(self) -> list[_Call]:
        calls = list(self.waiting)
        for call in calls:
            self._deliver(call, None, ToolErrorResult(_ABANDONED, None))
        return calls

    # -- the CrewAI side (any thread) --

    def _finish(self, call: _Call, result: Any, error: BaseException | None) -> ToolCallOutcome:
        self.portal.call(self._deliver, call, result, error)
        assert call.done is not None
        return call.done.result()

    def _drop_pending(self) -> None:
        """Finishes a call whose ``POST_TOOL_CALL`` never came (PostToolUseFailure)."""
        pending = self.pending.get()
        self.pending.set(None)
        if isinstance(pending, _Call):
            with contextlib.suppress(Exception):
                self._finish(pending, None, ToolErrorResult(_ABANDONED, None))

    def _start(self, name: str, tool_input: dict[str, Any]) -> _Call | _Refused:
        """Runs the hooked call in the portal up to the tool: the call in flight, or
        the refusal (a failure of the hook graph refuses too)."""
        call = _Call(name)
        try:
            done = self.portal.start_task_soon(self._call_tool, call, tool_input)
            concurrent.futures.wait(
                [done, call.entered], return_when=concurrent.futures.FIRST_COMPLETED
            )
            if call.entered.done():
                call.done = done
                return call
            outcome = done.result()
        except AgentStopped as exc:
            return _Refused(name, exc.reason, stopped=exc)
        except Exception as exc:  # CrewAI would ignore it and run the tool: refuse
            return _Refused(name, f"agent_hooks: the hooks failed ({exc}); the tool was not run")
        return _Refused(name, outcome.reason or "denied by a hook")

    def _refuse(self, call: _Call, reason: str) -> _Refused:
        """Ends ``call``, which reached the tool, without running it (the hooks see
        a failed call): the refusal ``POST_TOOL_CALL`` answers with."""
        try:
            self._finish(call, None, ToolErrorResult(reason, None))
        except AgentStopped as exc:
            return _Refused(call.tool_name, reason, stopped=exc)
        except Exception:  # (already refused)
            pass
        return _Refused(call.tool_name, reason)

    def _begin(self, ctx: Any) -> _Call | _Refused:
        name = str(ctx.tool_name)
        if not isinstance(ctx.tool_input, dict):
            return _Refused(name, "agent_hooks: the tool input is not an object; not run")
        original = dict(ctx.tool_input)
        started = self._start(name, original)
        if isinstance(started, _Refused):
            return started
        tool_input = started.entered.result()
        if tool_input == original:
            return started
        if not original:  # CrewAI's text-based tool loop runs an empty call with a fresh dict
            return self._refuse(
                started,
                f"agent_hooks: CrewAI cannot give {name!r} a rewritten input (the call had "
                "no arguments); the tool was not run",
            )
        ctx.tool_input.clear()  # the dict CrewAI runs the tool with
        ctx.tool_input.update(tool_input)
        return started

    def pre_tool_call(self, ctx: Any) -> None:
        """``PRE_TOOL_CALL``: the hooked call up to the tool; ``HookAborted`` refuses
        it (CrewAI ignores any other exception of a hook and would run the tool)."""
        self._drop_pending()
        try:
            started = self._begin(ctx)
        except Exception as exc:
            started = _Refused(
                str(getattr(ctx, "tool_name", "")),
                f"agent_hooks: the hooks failed ({exc}); the tool was not run",
            )
        self.pending.set(started)
        if isinstance(started, _Refused):
            raise HookAborted(started.reason, _SOURCE)

    def post_tool_call(self, ctx: Any) -> str | None:
        """``POST_TOOL_CALL``: the rest of the hooked call; the text the model reads."""
        if getattr(self.pending.get(), "tool_name", None) != ctx.tool_name:
            self._drop_pending()  # not a call this run started (or a stale one)
            return None
        pending = self.pending.get()
        self.pending.set(None)
        if isinstance(pending, _Refused):
            if pending.stopped is not None:
                raise _Abort(pending.stopped)
            return pending.reason
        assert pending is not None
        own = str(ctx.tool_result)
        failed = own.startswith(_FAILED)
        result = None if failed else ctx.raw_tool_result
        error = ToolErrorResult(own, own) if failed else None
        try:
            outcome = self._finish(pending, result, error)
        except AgentStopped as exc:
            raise _Abort(exc) from exc
        except Exception as exc:  # the tool ran; its result is not shown unchecked
            raise _Abort(
                AgentStopped(
                    f"agent_hooks: the hooks failed after the tool ran ({exc})",
                    event="PostToolUse",
                )
            ) from exc
        return _model_text(outcome, own)

    def pre_step(self, ctx: Any) -> str | None:
        """``PRE_STEP`` of a task: UserPromptSubmit; context appended to the task's."""
        if ctx.kind != "task":
            return None
        prompt = getattr(ctx.task, "description", None)
        try:
            extra = self.portal.call(
                self.hooked.submit, prompt if isinstance(prompt, str) else None
            )
        except AgentStopped as exc:
            raise _Abort(exc) from exc
        except Exception as exc:  # CrewAI would ignore it: the task must not run unchecked
            raise _Abort(
                AgentStopped(f"agent_hooks: the hooks failed ({exc})", event="UserPromptSubmit")
            ) from exc
        if not extra:
            return None
        return f"{ctx.payload}\n\n{extra}" if ctx.payload else extra

    def guardrail(self, output: Any) -> tuple[bool, Any]:
        """The task guardrail: Stop on the task's answer."""
        try:
            feedback = self.portal.call(self.hooked.check_stop, model_text(output.raw))
        except AgentStopped as exc:
            raise _Abort(exc) from exc
        return (True, output) if feedback is None else (False, feedback)


_ABANDONED = "agent_hooks: the run ended before the tool's result arrived"


def _model_text(outcome: ToolCallOutcome, own: str) -> str | None:
    """What the model reads instead of CrewAI's text ``own``, or ``None`` for ``own``."""
    view = outcome.model_view
    if outcome.error is not None:
        default = f"Error: {type(outcome.error).__name__}: {outcome.error}"
        base = None if view == default else model_text(view)
    else:
        base = None if view is outcome.result else model_text(view)
    if not outcome.context:
        return base
    return f"{base if base is not None else own}\n{outcome.context}"


_OPEN_LOCK = threading.Lock()
_OPEN: list[_Run] = []
"""The open run (CrewAI's hooks are process-wide: one at a time)."""


class CrewAIHooks:
    """An agent_hooks registry as CrewAI execution hooks.

    ``CrewAIHooks(registry, tool_aliases=..., permission=..., **session_options)``;
    give each task ``guardrail=hooks.guardrail`` (or add it to its ``guardrails``) for
    Stop, and run the crew inside ``with hooks.run(): crew.kickoff()``: one
    agent_hooks session per ``run()`` block, the hooks registered only while it is
    open (any crew that runs meanwhile is hooked; one block at a time per process).

    Failure: :class:`AgentStopped` (``continue: false``) and :class:`PromptBlocked`
    come out of the ``run()`` block; :meth:`guardrail` raises ``RuntimeError``
    outside it; a second ``run()`` while one is open raises ``RuntimeError``; ask and
    defer go to the ``permission`` callback (refused without one).
    """

    def __init__(
        self,
        registry: HookRegistry,
        *,
        tool_aliases: Mapping[str, str] | None = None,
        permission: PermissionCallback | None = None,
        **session_options: Any,
    ) -> None:
        self._registry = with_tool_aliases(registry, tool_aliases)  # compiled once
        self._aliases = tool_aliases
        self._permission = permission
        self._session_options = session_options
        self._current: _Run | None = None

    @contextlib.contextmanager
    def run(self, **session_options: Any) -> Iterator[HookedRun]:
        """One framework run: the hooks registered, the session open, for every crew
        that runs inside the block (``session_options`` over the constructor's)."""
        hooked = HookedRun(
            self._registry,
            tool_aliases=self._aliases,
            permission=self._permission,
            **{**self._session_options, **session_options},
        )
        with start_blocking_portal() as portal, portal.wrap_async_context_manager(hooked):
            run = _Run(hooked, portal)
            self._open(run)
            try:
                yield hooked
            except _Abort as exc:
                raise exc.stopped from None
            finally:
                self._close(run)

    def _open(self, run: _Run) -> None:
        with _OPEN_LOCK:
            if _OPEN:
                raise RuntimeError(
                    "CrewAIHooks: a run() block is already open in this process "
                    "(CrewAI's hooks are process-wide: one run at a time)"
                )
            _OPEN.append(run)
            for point, hook in run.hooks:
                register_hook(point, hook)
        self._current = run

    def _close(self, run: _Run) -> None:
        with _OPEN_LOCK:
            for point, hook in run.hooks:
                unregister_hook(point, hook)
            _OPEN.remove(run)
        self._current = None
        for call in run.portal.call(run.abandon_all):  # a crew that ended mid-call
            if call.done is not None:
                with contextlib.suppress(Exception):
                    call.done.result()

    def guardrail(self, output: Any) -> tuple[bool, Any]:
        """A CrewAI task guardrail (``Task(guardrail=hooks.guardrail)``): Stop on the
        task's answer. ``(True, output)`` when the agent may stop, else ``(False,
        feedback)``: CrewAI runs the task again with the feedback (within the task's
        ``guardrail_max_retries``).

        Raises:
            RuntimeError: outside ``run()``.
        """
        run = self._current
        if run is None:
            raise RuntimeError("CrewAIHooks: run the crew inside `with hooks.run():`")
        return run.guardrail(output)
