"""Sessions: per-session state, dispatch, and the background work of fire-and-forget hooks.

A session owns a task group for fire-and-forget handlers and the state that
lives across dispatches: the Stop continuation count, background answers
waiting to be delivered, and the process limiter. Nothing it starts outlives
it: closing the session waits for background work up to a deadline, then
cancels it (process groups are killed) and reports what was cut short.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Generic, TypeVar, cast

import anyio
import anyio.abc
import attrs

from ._capabilities import CAPABILITIES, EventSpec
from ._diagnostics import Diagnostic, DiagnosticCode, Severity
from ._lifecycle import LifecycleMixin
from ._model import (
    HookInput,
    HookOutput,
    replace_trusted,
    trusted_builder,
    trusted_replacer,
)
from ._names import HookEvent
from ._nodes import HandlerResult, HookCall, Outcome
from ._observe import DispatchInfo, Observer, notify
from ._outputs import blocking_output, is_blocking, strip_decisions
from ._reduce import empty_output, reduce_results
from ._registry import CompiledNode, CompiledRegistry, Execution
from ._runner import TIMED_OUT, AnyioRunner, Job, Raised, Runner, runner_for_current_loop

__all__ = ["Decision", "Session"]

logger = logging.getLogger("agent_hooks")

O = TypeVar("O", bound=HookOutput)

# Enum members bound once for the hot path (class-attribute lookups are slow before 3.12).
_FAILED = frozenset({Outcome.ERROR, Outcome.TIMEOUT})
_OK = Outcome.OK
_SESSION_END = HookEvent.SESSION_END


class _CallTemplate:
    """A node's :class:`HookCall` minus the input, and the ``env`` it was made from."""

    __slots__ = ("call", "env_source", "node_env")

    def __init__(
        self, call: HookCall, env_source: Mapping[str, str], node_env: Mapping[str, str]
    ) -> None:
        self.call = call
        self.env_source = env_source
        self.node_env = node_env  # held, so that the id in the template's key stays its own


_CallKey = tuple[HookEvent, int, int, float] | int
"""A call template's key: event, node environment (id), dialect (id), timeout; or the
node (id) when it runs with its own timeout."""


@attrs.frozen(kw_only=True)
class Decision(Generic[O]):
    """The one typed decision of a dispatch.

    ``output`` is the reduced answer of the handlers that ran for this dispatch
    (an instance of the event's output class; ``None`` fields mean nobody had an
    opinion). ``background`` holds answers of fire-and-forget handlers that
    finished since the previous dispatch; their context and messages are folded
    into :attr:`context` and :attr:`system_messages`.
    """

    event: HookEvent
    input: HookInput[O]
    """The input as dispatched: envelope filled in, tool alias applied, and in
    chained execution the input as the last handler rewrote it."""
    output: O
    results: tuple[HandlerResult, ...] = ()
    """Per handler, in configuration order."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """Everything worth knowing: handler failures, ignored fields, overrides."""
    background: tuple[HandlerResult, ...] = ()
    rewake: tuple[str, ...] = ()
    """Reasons from background handlers with ``async_rewake`` that blocked (exit 2)."""

    @property
    def blocked(self) -> bool:
        """Whether the handlers blocked (deny, block) what the event is about."""
        return is_blocking(self.output)

    @property
    def should_continue(self) -> bool:
        """``False`` when a handler asked the agent to stop entirely (``continue: false``)."""
        return self.output.continue_ is not False

    @property
    def stop_reason(self) -> str | None:
        """The first ``stopReason`` in order, when a handler said ``continue: false``."""
        return self.output.stop_reason

    @property
    def reason(self) -> str | None:
        """The blocking message for the model (the deny reason or the joined block reasons)."""
        for name in ("permission_decision_reason", "reason"):
            value = getattr(self.output, name, None)
            if value:
                return cast(str, value)
        pd = getattr(self.output, "permission_decision", None)
        message = getattr(pd, "message", None)
        return message if isinstance(message, str) else None

    @property
    def context(self) -> str | None:
        """Context for the model: this dispatch's ``additional_context`` and the
        background handlers' delivered now, newline-joined in order."""
        parts = [getattr(self.output, "additional_context", None)]
        parts += [getattr(r.output, "additional_context", None) for r in self.background]
        texts = [p for p in parts if p]
        return "\n".join(texts) if texts else None

    @property
    def system_messages(self) -> tuple[str, ...]:
        """Messages for the user, this dispatch's first, then background ones."""
        msgs = [self.output.system_message]
        msgs += [r.output.system_message for r in self.background if r.output is not None]
        return tuple(m for m in msgs if m)


_make_decision = trusted_builder(Decision)
"""``Decision(event, input, output, results, diagnostics, background, rewake)``, for the
values a dispatch made (no ``__init__``: the dispatch path builds one per event)."""

_make_result = trusted_builder(HandlerResult)
"""``HandlerResult`` from every field in order, for a result the session completes."""

_with_input = trusted_replacer(HookCall, "input")
"""``_with_input(call, input)``: a call template with this dispatch's input."""

_alone_with = trusted_replacer(HookCall, "input", "exclusive")
"""``_alone_with(call, input, True)``: the same, for one handler alone."""


_ENVELOPE = ("session_id", "cwd", "transcript_path", "permission_mode")
_ENVELOPE_FILLERS: dict[type, Callable[..., Any]] = {}
"""Per input class: ``fill(input, session_id, cwd, transcript_path, permission_mode)``."""


_ParallelStep = tuple[CompiledNode, float, float, bool]
"""A node of a parallel run: the node, its timeout, its deadline (the timeout and the
node's clean-up slack), and whether it can share the call of the node before it."""


class _Parallel:
    """The steps of a parallel run, whether every node can share the first's call, and
    whether they all have one deadline."""

    __slots__ = ("alike", "one_call", "steps")

    def __init__(self, nodes: Sequence[CompiledNode], budget: float | None) -> None:
        self.steps: list[_ParallelStep] = []
        last: _ParallelStep | None = None
        for cn in nodes:
            timeout = cn.timeout if budget is None else min(cn.timeout, budget)
            alike = (  # (the commonest case: a group's handlers one after another)
                last is not None
                and cn.env is last[0].env
                and cn.dialect is last[0].dialect
                and timeout == last[1]
            )
            last = (cn, timeout, timeout + cn.node.timeout_slack, alike)
            self.steps.append(last)
        self.one_call = all(step[3] for step in self.steps[1:])
        self.alike = len({step[2] for step in self.steps}) == 1  # one deadline for all


class _Plan:
    """What a selection of nodes runs, worked out once. Unless an ``if`` rule decides
    per input (``static`` is false), that is: the nodes that hold up the decision, the
    fire-and-forget ones, and the steps of a parallel run without a budget."""

    __slots__ = ("background", "foreground", "nodes", "parallel", "static")
    parallel: _Parallel | None

    def __init__(self, nodes: tuple[CompiledNode, ...]) -> None:
        self.nodes = nodes  # (held: the plan is found by the selection's id)
        self.static = all(cn.if_rule is None for cn in nodes)
        self.foreground = tuple(cn for cn in nodes if not cn.node.background)
        self.background = tuple(cn for cn in nodes if cn.node.background)
        self.parallel = _Parallel(self.foreground, None) if self.static else None


_PLANS_SIZE = 256
"""Selections whose plans a session keeps (it starts over when full)."""


def _as_handler_result(value: object) -> HandlerResult:
    """What a node's run gave, when it is not a plain :class:`HandlerResult`.

    Raises:
        TypeError: it is not a result at all (the handler kind is broken; the caller
            turns this into an ERROR result like any exception of a handler).
    """
    if isinstance(value, HandlerResult):
        return value
    raise TypeError(f"the handler's node returned {type(value).__name__}, not a HandlerResult")


def _raised(exc: Exception) -> HandlerResult:
    """The result of a handler that raised ``exc`` (whose ``str()`` may fail too)."""
    try:
        text = str(exc)
    except Exception:
        text = object.__repr__(exc)
    message = f"{type(exc).__name__}: {text}"
    return HandlerResult(
        outcome=Outcome.ERROR,
        reason=message,
        diagnostics=(
            Diagnostic(
                code=DiagnosticCode.HANDLER_ERROR,
                message=f"hook raised {message}",
                severity=Severity.ERROR,
            ),
        ),
    )


class Session(LifecycleMixin):
    """One agent session: ``async with registry.session(...) as session``.

    Args:
        session_id, cwd, transcript_path, permission_mode: the envelope filled
            into every input that leaves them unset (``cwd`` defaults to the
            process's working directory).
        project_dir: the project root for ``CLAUDE_PROJECT_DIR`` (default: ``cwd``).
        env: extra variables for every command hook of this session.
        on_rewake: called (sync or async) with the reason when a background
            handler with ``async_rewake`` blocks.
        on_background_result: called (sync or async) with each background result
            as it finishes, in addition to its delivery with the next dispatch.
        observers: :class:`~agent_hooks.Observer` objects for this session, after the
            registry's own.
    """

    def __init__(
        self,
        compiled: CompiledRegistry,
        *,
        session_id: str | None = None,
        cwd: str | None = None,
        transcript_path: str | None = None,
        permission_mode: str | None = None,
        project_dir: str | None = None,
        env: Mapping[str, str] | None = None,
        on_rewake: Callable[[str], Awaitable[None] | None] | None = None,
        on_background_result: Callable[[HandlerResult], Awaitable[None] | None] | None = None,
        observers: Sequence[Observer] = (),
    ) -> None:
        self._compiled = compiled
        self._registry = compiled.registry
        self.session_id = session_id
        self.cwd = cwd if cwd is not None else os.getcwd()
        self.transcript_path = transcript_path
        self.permission_mode = permission_mode
        self.project_dir = project_dir or self.cwd
        self.env: Mapping[str, str] = dict(env or {})
        self._on_rewake = on_rewake
        self._on_background_result = on_background_result
        self._observers: tuple[Observer, ...] = (*self._registry.observers, *observers)
        self._tg: anyio.abc.TaskGroup | None = None
        self._runner: Runner = AnyioRunner()
        self._limiter: anyio.CapacityLimiter | None = None
        self._memo: dict[Any, Any] = {}
        self._calls: dict[_CallKey, _CallTemplate] = {}
        self._plans: dict[int, _Plan] = {}
        self._calls_limit = 4 * sum(len(nodes) for nodes in compiled.nodes.values()) + 64
        self._pending: list[HandlerResult] = []
        self._rewake: list[str] = []
        self._running = 0
        self._idle: anyio.Event | None = None
        self._continuations: dict[tuple[HookEvent, str | None], int] = {}
        self.env_file: str | None = None
        """The session's ``CLAUDE_ENV_FILE`` (created when the session opens, removed when
        it closes, unless ``env`` named one); read it with :meth:`exported_env`."""
        self._owned_env_file: str | None = None
        self.persistent_context: list[str] = []
        """Context from SessionStart (via :meth:`start`) that stays for the whole session."""
        self.undelivered: tuple[HandlerResult, ...] = ()
        """After the session closed: background results that no dispatch delivered."""

    @property
    def compiled(self) -> CompiledRegistry:
        """The registry snapshot this session dispatches through."""
        return self._compiled

    async def __aenter__(self) -> Session:
        self._limiter = self._compiled.process_limiter()
        self._calls.clear()  # calls hold the limiter of the loop they were made in
        if "CLAUDE_ENV_FILE" not in self.env:
            fd, path = tempfile.mkstemp(prefix="agent_hooks-env-", suffix=".sh")
            os.close(fd)
            self.env_file = path
            self._owned_env_file = path
            self.env = {**self.env, "CLAUDE_ENV_FILE": path}
        else:
            self.env_file = self.env["CLAUDE_ENV_FILE"]
        self._runner = runner_for_current_loop()
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        return self

    async def _tell_handlers_closed(self) -> None:
        """Let handlers that keep per-session state release it (shielded, bounded)."""
        closers = {
            id(cn.node.on_session_close): cn.node.on_session_close
            for nodes in self._compiled.nodes.values()
            for cn in nodes
            if cn.node.on_session_close is not None
        }
        if not closers:
            return
        with anyio.CancelScope(shield=True), anyio.move_on_after(5.0):
            for close in closers.values():
                assert close is not None
                try:
                    maybe = close(self.session_id)
                    if maybe is not None:
                        await maybe
                except Exception:
                    logger.exception("agent_hooks: a handler's session clean-up failed; ignored")

    def exported_env(self) -> dict[str, str]:
        """The variables hooks exported through ``CLAUDE_ENV_FILE`` (SessionStart, Setup,
        CwdChanged and FileChanged hooks may append ``export NAME=value`` lines to it),
        for the environment of the agent's own shell tool. Lines that are not simple
        assignments are skipped; later assignments win."""
        if self.env_file is None:
            return {}
        import shlex  # (only here: not on the start-up path of `agent-hooks run`)

        try:
            with open(self.env_file, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            return {}
        found: dict[str, str] = {}
        for line in text.splitlines():
            try:
                words = shlex.split(line, comments=True)
            except ValueError:
                continue
            if words and words[0] == "export":
                words = words[1:]
            for word in words:
                name, eq, value = word.partition("=")
                if eq and name.isidentifier():
                    found[name] = value
        return found

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._tg is not None
        tg = self._tg
        if self._running:
            with anyio.CancelScope(shield=True):
                with anyio.move_on_after(self._registry.background_drain_timeout):
                    while self._running:
                        self._idle = anyio.Event()
                        await self._idle.wait()
        # Background work is the session's, not the body's: cancel what is left and close
        # the group as if the body ended cleanly, so that an exception from the body
        # propagates as it is instead of inside an exception group.
        tg.cancel_scope.cancel()
        try:
            await tg.__aexit__(None, None, None)
            return None
        finally:
            self._tg = None
            self._runner.close()
            await self._tell_handlers_closed()
            if self._owned_env_file is not None:
                with contextlib.suppress(OSError):
                    os.unlink(self._owned_env_file)
                self._owned_env_file = None
            self.undelivered = tuple(self._pending)
            self._pending.clear()
            for r in self.undelivered:
                if r.outcome is not Outcome.OK or r.output is not None:
                    logger.warning(
                        "agent_hooks: background hook %s result not delivered before session end: %s",
                        r.handler.name if r.handler else "?",
                        r.outcome.value,
                    )

    # ----------------------------------------------------------- dispatch

    async def dispatch(
        self,
        input: HookInput[O],
        *,
        execution: Execution | None = None,
        stop_on_block: bool | None = None,
    ) -> Decision[O]:
        """Run every handler that matches ``input`` and reduce their answers.

        Never raises because a handler failed: failures, timeouts and bad
        answers are contained in the results and diagnostics. Cancelling the
        dispatch cancels every running handler (their processes are killed) and
        propagates, except for SessionEnd, which runs shielded within the
        registry's ``session_end_timeout``.
        """
        spec = CAPABILITIES[input.event]
        input = self._prepare(spec, input)
        nodes = self._compiled.select(spec.event, input)
        seen: DispatchInfo | None = None
        observers = self._observers
        if observers:
            seen = DispatchInfo(
                event=spec.event, input=input, session_id=input.session_id, handlers=len(nodes)
            )
            notify(observers, "dispatch_started", seen)
        results: list[HandlerResult] = []
        if nodes:
            plan = self._plans.get(id(nodes))
            if plan is None or plan.nodes is not nodes:
                plan = self._plan_for(nodes)
            parallel: _Parallel | None = None
            if not plan.static:  # (an ``if`` rule decides per input)
                foreground: Sequence[CompiledNode] = self._foreground(spec, input, nodes, seen)
            else:
                for cn in plan.background:
                    self._start_background(cn, spec, input, seen)
                foreground, parallel = plan.foreground, plan.parallel
            mode = execution or self._compiled.execution[spec.event]
            if spec.event is _SESSION_END:
                with anyio.CancelScope(shield=True):
                    input, results = await self._execute(
                        spec,
                        input,
                        foreground,
                        mode,
                        stop_on_block,
                        self._registry.session_end_timeout,
                        seen,
                    )
            elif len(foreground) == 1 and mode != "chained":
                # One handler (the commonest case), run here: _run, without its frame.
                cn = foreground[0]
                timeout = cn.timeout
                call = self._call(cn, spec, input, timeout)
                if seen is not None:
                    self._started(cn, spec, seen)
                start = time.perf_counter()
                deadline = self._runner.deadline(timeout + cn.node.timeout_slack)
                result: HandlerResult | None = None
                with deadline:
                    try:
                        result = cn.end(call, await cn.begin(call))
                        if type(result) is not HandlerResult:
                            result = _as_handler_result(result)
                    except Exception as exc:
                        result = _raised(exc)
                if deadline.cancelled_caught:  # timed out
                    await self._runner.settle(deadline)
                    result = None
                results = [self._finish(cn, spec, result, start, timeout, seen)]
            elif mode != "chained" and foreground:
                results = await self._run_parallel(spec, input, foreground, None, seen, parallel)
            elif foreground:
                input, results = await self._execute(
                    spec, input, foreground, mode, stop_on_block, None, seen
                )
            output, diags = reduce_results(spec, results, chained=mode == "chained")
        else:
            output, diags = empty_output(spec), ()
        all_diags = (
            list(results[0].diagnostics)
            if len(results) == 1
            else [d for r in results if r.diagnostics for d in r.diagnostics]
        )
        if diags:
            all_diags.extend(diags)
        if spec.counts_continuations:
            output = self._count_continuation(spec, input, output, results, all_diags)
        background: tuple[HandlerResult, ...] = ()
        if self._pending:
            background = tuple(self._pending)
            self._pending.clear()
            for r in background:
                all_diags.extend(r.diagnostics)
        rewake: tuple[str, ...] = ()
        if self._rewake:
            rewake = tuple(self._rewake)
            self._rewake.clear()
        decision: Decision[O] = _make_decision(
            spec.event,
            input,
            output,
            (results[0],) if len(results) == 1 else tuple(results),
            tuple(all_diags) if all_diags else (),
            background,
            rewake,
        )
        if seen is not None:
            notify(observers, "dispatch_finished", seen, decision)
        return decision

    def _prepare(self, spec: EventSpec, input: HookInput[O]) -> HookInput[O]:
        """The input with the session's envelope filled into what it left unset, the
        tool alias applied, and ``stop_hook_active`` set on events that count."""
        sid, cwd, tp, pm = input.session_id, input.cwd, input.transcript_path, input.permission_mode
        if (
            cwd is None
            or (sid is None and self.session_id is not None)
            or (tp is None and self.transcript_path is not None)
            or (pm is None and self.permission_mode is not None)
        ):
            fill = _ENVELOPE_FILLERS.get(type(input))
            if fill is None:
                fill = _ENVELOPE_FILLERS[type(input)] = trusted_replacer(type(input), *_ENVELOPE)
            input = fill(
                input,
                self.session_id if sid is None else sid,
                self.cwd if cwd is None else cwd,
                self.transcript_path if tp is None else tp,
                self.permission_mode if pm is None else pm,
            )
        aliases = self._compiled.tool_aliases
        if not aliases and not spec.counts_continuations:
            return input
        more: dict[str, Any] = {}
        if aliases:
            tool = getattr(input, "tool_name", None)
            if isinstance(tool, str) and tool in aliases:
                more["tool_name"] = aliases[tool]
        if spec.counts_continuations and getattr(input, "stop_hook_active", True) is None:
            key = (spec.event, input.agent_id)
            more["stop_hook_active"] = self._continuations.get(key, 0) > 0
        return replace_trusted(input, more) if more else input

    def _plan_for(self, nodes: tuple[CompiledNode, ...]) -> _Plan:
        """The selection's plan, made once and kept."""
        if len(self._plans) >= _PLANS_SIZE:
            self._plans.clear()
        plan = self._plans[id(nodes)] = _Plan(nodes)
        return plan

    def _foreground(
        self,
        spec: EventSpec,
        input: HookInput[Any],
        nodes: Sequence[CompiledNode],
        seen: DispatchInfo | None,
    ) -> list[CompiledNode]:
        """The nodes that hold up the decision; fire-and-forget ones are started here.
        Nodes whose ``if`` rule does not match the tool call are left out."""
        foreground: list[CompiledNode] = []
        for cn in nodes:
            rule = cn.if_rule
            if rule is not None and not rule.matches(
                getattr(input, "tool_name", None),
                getattr(input, "tool_input", {}) or {},
                input.cwd,
            ):
                continue
            if cn.node.background:
                self._start_background(cn, spec, input, seen)
            else:
                foreground.append(cn)
        return foreground

    async def _execute(
        self,
        spec: EventSpec,
        input: HookInput[O],
        foreground: Sequence[CompiledNode],
        mode: Execution,
        stop_on_block: bool | None,
        budget: float | None,
        seen: DispatchInfo | None,
    ) -> tuple[HookInput[O], list[HandlerResult]]:
        """Run the foreground nodes as ``mode`` says; the input as the last one left it."""
        if mode == "chained":
            chain_stop = self._registry.stop_on_block if stop_on_block is None else stop_on_block
            return await self._run_chained(spec, input, foreground, chain_stop, budget, seen)
        if len(foreground) == 1:
            return input, [await self._run(foreground[0], spec, input, budget, seen)]
        if foreground:
            return input, await self._run_parallel(spec, input, foreground, budget, seen)
        return input, []

    def _count_continuation(
        self,
        spec: EventSpec,
        input: HookInput[Any],
        output: HookOutput,
        results: Sequence[HandlerResult],
        diags: list[Diagnostic],
    ) -> HookOutput:
        key = (spec.event, input.agent_id)
        # A block keeps the agent going; so does additionalContext on Stop/SubagentStop
        # (Claude Code's non-error feedback), under the same cap.
        if not is_blocking(output) and not getattr(output, "additional_context", None):
            self._continuations.pop(key, None)
            return output
        count = self._continuations.get(key, 0) + 1
        cap = self._registry.stop_continuation_cap
        if count > cap:
            self._continuations.pop(key, None)
            blockers = [r.handler for r in results if r.handler and is_blocking(r.output)]
            first = blockers[0] if blockers else None
            diags.append(
                Diagnostic(
                    code=DiagnosticCode.CONTINUATION_CAP,
                    message=(
                        f"{spec.event.value} blocked {cap} times in a row; this block "
                        f"(from {', '.join(h.name for h in blockers) or 'the handlers'}) is not "
                        "honoured and the agent may stop"
                    ),
                    severity=Severity.WARNING,
                    source=first.source if first else None,
                    location=first.location if first else None,
                    handler=first.name if first else None,
                )
            )
            return attrs.evolve(output, decision=None, reason=None)
        self._continuations[key] = count
        return output

    async def _run_parallel(
        self,
        spec: EventSpec,
        input: HookInput[Any],
        nodes: Sequence[CompiledNode],
        budget: float | None,
        seen: DispatchInfo | None,
        parallel: _Parallel | None = None,
    ) -> list[HandlerResult]:
        if parallel is None:
            parallel = _Parallel(nodes, budget)
        steps = parallel.steps
        calls: dict[_CallKey, HookCall] = {}  # handlers alike share their call
        call = self._call(steps[0][0], spec, input, steps[0][1], calls)
        if parallel.one_call:
            jobs: list[Job] = [(cn.begin, call, limit) for cn, _, limit, _ in steps]
        else:
            jobs = []
            for cn, timeout, limit, alike in steps:
                if not alike and jobs:
                    call = self._call(cn, spec, input, timeout, calls)
                jobs.append((cn.begin, call, limit))
        if seen is not None:
            for cn, *_ in steps:
                self._started(cn, spec, seen)
        start = time.perf_counter()  # (they start together)

        def finish(i: int, value: Any) -> HandlerResult:
            cn = steps[i][0]
            if value is TIMED_OUT:
                result = None
            elif type(value) is Raised:
                result = _raised(value.exc)
            else:
                try:
                    result = cn.end(jobs[i][1], value)
                    if type(result) is not HandlerResult:
                        result = _as_handler_result(result)
                except Exception as exc:
                    result = _raised(exc)
                if result.outcome is _OK and not result.diagnostics and seen is None:
                    # (what _finish does with a clean answer, without its frame: per handler)
                    return _make_result(
                        _OK,
                        result.output,
                        (),
                        time.perf_counter() - start,
                        result.exit_code,
                        result.reason,
                        result.is_async,
                        cn.info,
                    )
            return self._finish(cn, spec, result, start, steps[i][1], seen)

        results: list[HandlerResult] = await self._runner.many(jobs, finish, alike=parallel.alike)
        return results

    async def _run_chained(
        self,
        spec: EventSpec,
        input: HookInput[O],
        nodes: Sequence[CompiledNode],
        stop_on_block: bool,
        budget: float | None,
        seen: DispatchInfo | None,
    ) -> tuple[HookInput[O], list[HandlerResult]]:
        results: list[HandlerResult] = []
        rewrite = spec.rewrite
        for cn in nodes:
            r = await self._run(cn, spec, input, budget, seen)
            results.append(r)
            if rewrite is not None and r.output is not None:
                value = getattr(r.output, rewrite.output_field, None)
                if value is not None:
                    input = attrs.evolve(input, **{rewrite.input_field: value})
            if stop_on_block and is_blocking(r.output):
                break
        return input, results

    async def _run(
        self,
        cn: CompiledNode,
        spec: EventSpec,
        input: HookInput[Any],
        budget: float | None,
        seen: DispatchInfo | None = None,
    ) -> HandlerResult:
        """Run one node with its timeout, contain its failure, apply its failure policy."""
        timeout = cn.timeout if budget is None else min(cn.timeout, budget)
        call = self._call(cn, spec, input, timeout)
        if seen is not None:
            self._started(cn, spec, seen)
        start = time.perf_counter()
        deadline = self._runner.deadline(timeout + cn.node.timeout_slack)
        result: HandlerResult | None = None
        with deadline:
            try:
                result = cn.end(call, await cn.begin(call))
                if type(result) is not HandlerResult:
                    result = _as_handler_result(result)
            except Exception as exc:
                result = _raised(exc)
        if deadline.cancelled_caught:  # timed out
            await self._runner.settle(deadline)
            result = None
        return self._finish(cn, spec, result, start, timeout, seen)

    def _call(
        self,
        cn: CompiledNode,
        spec: EventSpec,
        input: HookInput[Any],
        timeout: float,
        calls: dict[_CallKey, HookCall] | None = None,
    ) -> HookCall:
        """The :class:`HookCall` of one node for ``input``.

        ``calls`` collects the calls made for one dispatch, so that handlers alike (same
        timeout, dialect and environment) share one :class:`HookCall`.
        """
        if calls is None and timeout == cn.timeout:
            key: _CallKey = id(cn)  # (its own timeout: the node says all the rest)
        else:
            key = (spec.event, id(cn.env), id(cn.dialect), timeout)
        template = self._calls.get(key)
        if (
            template is None
            or template.env_source is not self.env
            or template.call.project_dir is not self.project_dir
        ):
            template = self._call_template(cn, spec, input, timeout, key)
        if calls is None:
            return _alone_with(template.call, input, True)
        made = calls.get(key)
        if made is None:
            made = calls[key] = _with_input(template.call, input)
        return made

    def _started(self, cn: CompiledNode, spec: EventSpec, seen: DispatchInfo) -> None:
        status = cn.node.status_message or f"Running {spec.event.value} hook"
        notify(self._observers, "handler_started", seen, cn.info, status)

    def _call_template(
        self,
        cn: CompiledNode,
        spec: EventSpec,
        input: HookInput[Any],
        timeout: float,
        key: _CallKey,
    ) -> _CallTemplate:
        """The part of a node's :class:`HookCall` that is the same at every dispatch.

        Templates are made again when the session's ``env`` or ``project_dir`` is
        replaced, and forgotten when the session opens (a new loop, a new limiter).
        """
        if len(self._calls) > self._calls_limit:
            self._calls.clear()  # budgets other than the handlers' own timeouts vary
        call = HookCall(
            input=input,
            spec=spec,
            timeout=timeout,
            dialect=cn.dialect,
            project_dir=self.project_dir,
            env={**self.env, **cn.env} if cn.env else self.env,
            process_limiter=self._limiter,
            secret_env_patterns=self._registry.secret_env_patterns,
            memo=self._memo,
        )
        template = self._calls[key] = _CallTemplate(call, self.env, cn.env)
        return template

    def _finish(
        self,
        cn: CompiledNode,
        spec: EventSpec,
        result: HandlerResult | None,
        start: float,
        timeout: float,
        seen: DispatchInfo | None,
    ) -> HandlerResult:
        """Complete a result: a missing one timed out; failure policy; who and how long."""
        if result is None:
            result = HandlerResult(
                outcome=Outcome.TIMEOUT,
                reason=f"timed out after {timeout:g}s",
                diagnostics=(
                    Diagnostic(
                        code=DiagnosticCode.TIMEOUT,
                        message=f"hook timed out after {timeout:g}s and was stopped",
                        severity=Severity.ERROR,
                    ),
                ),
            )
        outcome = result.outcome
        if outcome is not _OK and outcome in _FAILED:
            result = self._apply_policy(cn, spec, result)
            outcome = result.outcome
        info = cn.info
        diags = result.diagnostics
        if diags:
            diags = tuple(
                d.at(source=info.source, location=info.location, handler=info.name) for d in diags
            )
        result = _make_result(
            outcome,
            result.output,
            diags,
            time.perf_counter() - start,
            result.exit_code,
            result.reason,
            result.is_async,
            info,
        )
        if seen is not None:
            notify(self._observers, "handler_finished", seen, info, result)
        return result

    @staticmethod
    def _apply_policy(cn: CompiledNode, spec: EventSpec, result: HandlerResult) -> HandlerResult:
        policy = cn.on_error
        if policy == "block" or (result.outcome is Outcome.TIMEOUT and cn.timeout_blocks):
            reason = f"hook {cn.info.name} failed: {result.reason or result.outcome.value}"
            blocked = blocking_output(spec, reason)
            note = Diagnostic(
                code=DiagnosticCode.FAILED_CLOSED,
                message=f"the failure blocks ({spec.event.value} fails closed for this handler)",
                severity=Severity.WARNING,
            )
            return attrs.evolve(result, output=blocked, diagnostics=(*result.diagnostics, note))
        if policy == "ignore":
            quiet = tuple(attrs.evolve(d, severity=Severity.INFO) for d in result.diagnostics)
            return attrs.evolve(result, diagnostics=quiet)
        return result

    # --------------------------------------------------------- background

    def _start_background(
        self, cn: CompiledNode, spec: EventSpec, input: HookInput[Any], seen: DispatchInfo | None
    ) -> None:
        if self._tg is None:
            raise RuntimeError("the session is not open; use 'async with registry.session() as s'")
        self._running += 1
        self._tg.start_soon(self._background, cn, spec, input, seen)

    async def _background(
        self, cn: CompiledNode, spec: EventSpec, input: HookInput[Any], seen: DispatchInfo | None
    ) -> None:
        # The work counts as pending until the session's callbacks have seen its result,
        # so that a closing session waits for them too instead of cutting them short.
        try:
            try:
                result = await self._run(cn, spec, input, None, seen)
            except anyio.get_cancelled_exc_class():
                cancelled = self._deliver(
                    cn,
                    HandlerResult(
                        outcome=Outcome.CANCELLED,
                        handler=cn.info,
                        reason="cancelled when the session closed",
                        diagnostics=(
                            Diagnostic(
                                code=DiagnosticCode.BACKGROUND_CANCELLED,
                                message="background hook still running when the session closed; cancelled",
                                severity=Severity.WARNING,
                                source=cn.info.source,
                                location=cn.info.location,
                                handler=cn.info.name,
                            ),
                        ),
                    ),
                )
                if seen is not None:
                    notify(self._observers, "handler_finished", seen, cn.info, cancelled)
                raise
            delivered = self._deliver(cn, result)
            if self._on_background_result is not None:
                await _call_app(self._on_background_result, delivered)
            if (
                result.outcome is Outcome.BLOCKED
                and cn.node.async_rewake
                and self._on_rewake is not None
            ):
                await _call_app(self._on_rewake, result.reason or "")
        finally:
            self._running -= 1
            if self._running == 0 and self._idle is not None:
                self._idle.set()

    def _deliver(self, cn: CompiledNode, result: HandlerResult) -> HandlerResult:
        diags = list(result.diagnostics)
        if result.outcome in (Outcome.ERROR, Outcome.TIMEOUT):
            diags.append(
                Diagnostic(
                    code=DiagnosticCode.BACKGROUND_FAILED,
                    message=f"background hook ended with {result.outcome.value}: {result.reason or ''}".rstrip(
                        ": "
                    ),
                    severity=Severity.WARNING,
                    source=cn.info.source,
                    location=cn.info.location,
                    handler=cn.info.name,
                )
            )
        if result.outcome is Outcome.BLOCKED and cn.node.async_rewake:
            self._rewake.append(result.reason or "")
        output = strip_decisions(result.output) if result.output is not None else None
        delivered = attrs.evolve(result, output=output, diagnostics=tuple(diags))
        self._pending.append(delivered)
        return delivered


async def _call_app(callback: Callable[[Any], Awaitable[None] | None], arg: Any) -> None:
    """Call an application callback (sync or async) from background work; a failure is
    logged, never allowed to tear down the session's task group."""
    try:
        maybe = callback(arg)
        if maybe is not None:
            await maybe
    except Exception:
        logger.exception("agent_hooks: session callback %r failed; ignored", callback)
