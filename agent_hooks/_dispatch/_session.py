"""Sessions: per-session state, dispatch, and the background work of fire-and-forget hooks.

A session owns a task group for fire-and-forget handlers and the state that
lives across dispatches: the Stop continuation count, background answers
waiting to be delivered, and the process limiter. Nothing it starts outlives
it: closing the session waits for background work up to a deadline, then
cancels it (process groups are killed) and reports what was cut short.

Every handler runs under its own anyio cancel scope (its timeout plus the node's
clean-up slack); a parallel batch runs in one task group, a lone handler in the
dispatching task. That is all the concurrency machinery there is: the same code on
asyncio and trio.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Final, TypeVar

import anyio
import anyio.abc
import anyio.lowlevel
import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._events._capabilities import EventSpec, spec_for
from .._events._model import HookInput, HookOutput
from .._events._names import HookEvent
from .._events._untyped import AnyEvent, input_value, with_input_value
from .._handlers._nodes import HandlerResult, HookCall, Outcome
from .._wire._dialects import TOOL_MATCHER_ALIASES
from .._wire._outputs import blocking_output, is_blocking, strip_decisions
from . import _lifecycle
from ._compiled import CompiledNode, CompiledRegistry, Execution
from ._decision import Decision
from ._matching import IfRule
from ._observe import DispatchInfo, Observer, notify
from ._reduce import OutputFiles, reduce_results, settle_result

__all__ = ["BackgroundCallback", "RewakeCallback", "Session"]

logger = logging.getLogger("agent_hooks")

O = TypeVar("O", bound=HookOutput)

RewakeCallback = Callable[[str], Awaitable[None] | None]
"""``on_rewake``: called (sync or async) with the reason of a background block."""
BackgroundCallback = Callable[[HandlerResult], Awaitable[None] | None]
"""``on_background_result``: called (sync or async) with each background result."""

_FAILED = frozenset({Outcome.ERROR, Outcome.TIMEOUT})


def _raised(exc: Exception) -> HandlerResult:
    """The result of a handler that raised ``exc`` (whose ``str()`` may fail too)."""
    try:
        text = str(exc)
    except Exception:
        text = object.__repr__(exc)
    message = f"{type(exc).__name__}: {text}"
    return HandlerResult.failure(
        DiagnosticCode.HANDLER_ERROR, message, message=f"hook raised {message}"
    )


def _if_matches(rule: IfRule, input: HookInput[Any]) -> bool:
    """Whether a handler's ``if`` rule lets it run for ``input`` (an untyped event's
    ``tool_name`` and ``tool_input`` are read from its payload). A tool with matcher
    aliases is tried under each of its names (``run_shell_command`` is also ``Bash``)."""
    tool = input_value(input, "tool_name")
    tool_input = input_value(input, "tool_input")
    name = tool if isinstance(tool, str) else None
    args = tool_input if isinstance(tool_input, Mapping) else {}
    names = (name, *TOOL_MATCHER_ALIASES.get(name, ())) if name is not None else (None,)
    return any(rule.matches(n, args, input.cwd) for n in names)


_UNANSWERED = object()
"""What a run holds until its node answers (it stays when the deadline passed first)."""


def _timed_out(timeout: float) -> HandlerResult:
    return HandlerResult.failure(
        DiagnosticCode.TIMEOUT,
        f"timed out after {timeout:g}s",
        outcome=Outcome.TIMEOUT,
        message=f"hook timed out after {timeout:g}s and was stopped",
    )


class Session:
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

    The lifecycle helpers (:meth:`call_tool`, :meth:`submit_prompt`, :meth:`check_stop`,
    ...) dispatch the right events in the right order through :meth:`dispatch`; they
    are plain functions taking the session as their first argument, so a subclass
    that overrides ``dispatch`` changes what they do too (they are declared ``Final``,
    which gives type checkers their signatures: override ``dispatch``, not them).
    """

    call_tool: Final = _lifecycle.call_tool
    submit_prompt: Final = _lifecycle.submit_prompt
    turn_start: Final = _lifecycle.turn_start
    turn_end: Final = _lifecycle.turn_end
    before_llm_call: Final = _lifecycle.before_llm_call
    after_llm_call: Final = _lifecycle.after_llm_call
    check_stop: Final = _lifecycle.check_stop
    start: Final = _lifecycle.start
    end: Final = _lifecycle.end

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
        on_rewake: RewakeCallback | None = None,
        on_background_result: BackgroundCallback | None = None,
        observers: Sequence[Observer] = (),
    ) -> None:
        self._compiled = compiled
        self._options = compiled.registry
        self.session_id = session_id
        self.cwd: str = cwd if cwd is not None else os.getcwd()
        self.transcript_path = transcript_path
        self.permission_mode = permission_mode
        self.project_dir: str = project_dir or self.cwd
        self._directories_checked = False  # (by the first dispatch: see directory_diagnostics)
        self.env: Mapping[str, str] = dict(env or {})
        self._on_rewake = on_rewake
        self._on_background_result = on_background_result
        self._observers: tuple[Observer, ...] = (*compiled.observers, *observers)
        self._tg: anyio.abc.TaskGroup | None = None
        self._limiter: anyio.CapacityLimiter | None = None
        self._pending: list[HandlerResult] = []
        self._rewake: list[str] = []
        self._running = 0
        self._idle: anyio.Event | None = None
        self._continuations: dict[tuple[AnyEvent, str | None], int] = {}
        self.env_file: str | None = None
        """The session's ``CLAUDE_ENV_FILE`` (created when the session opens, removed when
        it closes, unless ``env`` named one); read it with :meth:`exported_env`."""
        self._owned_env_file: str | None = None
        self._output_files: OutputFiles | None = None  # (while the session is open)
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
        # Message strings longer than a dialect's cap are saved here (a directory made on
        # first use, removed when the session closes).
        self._output_files = OutputFiles()
        if "CLAUDE_ENV_FILE" not in self.env:
            fd, path = tempfile.mkstemp(prefix="agent_hooks-env-", suffix=".sh")
            os.close(fd)
            self.env_file = path
            self._owned_env_file = path
            self.env = {**self.env, "CLAUDE_ENV_FILE": path}
        else:
            self.env_file = self.env["CLAUDE_ENV_FILE"]
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        return self

    async def _tell_handlers_closed(self) -> None:
        """Let handlers that keep per-session state release it (shielded, bounded)."""
        closers: list[Callable[[str | None], Awaitable[None] | None]] = []
        for nodes in self._compiled.nodes.values():
            for cn in nodes:
                close = cn.node.on_session_close
                if close is not None and not any(close is known for known in closers):
                    closers.append(close)
        if not closers:
            return
        with anyio.CancelScope(shield=True), anyio.move_on_after(5.0):
            for close in closers:
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
                with anyio.move_on_after(self._options.background_drain_timeout):
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
            await self._tell_handlers_closed()
            if self._owned_env_file is not None:
                with contextlib.suppress(OSError):
                    os.unlink(self._owned_env_file)
                self._owned_env_file = None
            if self._output_files is not None:
                self._output_files.close()
                self._output_files = None
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
        environ: Mapping[str, str] | None = None,
    ) -> Decision[O]:
        """Run every handler that matches ``input`` and reduce their answers.

        Each handler runs under its own cancel scope: past its timeout it is
        cancelled at every await until it ends (never inside an
        ``anyio.CancelScope(shield=True)`` it entered) and its result is a TIMEOUT;
        a handler that catches the cancellation and answers anyway counts as having
        answered. Matching handlers run in parallel in one task group unless the
        event (or ``execution``) chains them, or one of them comes from a
        ``sequential`` group (Gemini CLI): then all of them run chained.

        ``environ`` is the environment this dispatch's processes (command hooks, and
        fire-and-forget ones it starts) start from, before credential stripping and the
        session's and the handler's own variables; default: this process's
        ``os.environ``. A bridge serving another process (the resident server of
        ``agent-hooks run``) passes that process's environment. Python callbacks run in
        this process whatever it says.

        Never raises because a handler failed: an ``Exception``, a timeout or a bad
        answer is contained in its result and the diagnostics, and its failure
        policy applies. Cancelling the dispatch cancels every running handler
        (their processes are killed) and propagates once they have ended, except
        for SessionEnd, which runs shielded within the registry's
        ``session_end_timeout``; a cancellation a handler swallowed reaches the
        caller at its next checkpoint.

        The decision's diagnostics say what went wrong and where; those of severity
        error are also logged once per dispatch, at WARNING, to the
        ``agent_hooks.diagnostics`` logger (those a :class:`LoggingObserver` of the
        session logged already excepted). The session's first decision carries an
        ``invalid_cwd`` error when the session's ``cwd`` or ``project_dir`` is not an
        existing directory and the registry has command hooks, which then run
        elsewhere (the session still works).

        Raises:
            BaseException: what a handler raised that is not an ``Exception`` nor a
                cancellation (``KeyboardInterrupt``, ...): as it is from a lone
                handler; from a parallel batch in a ``BaseExceptionGroup``, once the
                other handlers were cancelled and have ended.
            RuntimeError: a fire-and-forget handler matched and the session is not open.
        """
        spec = spec_for(input.event)
        # Every dispatch lets the loop run, and a cancelled caller meet its cancellation,
        # even when every handler is a plain function (SessionEnd only yields: it runs
        # shielded).
        if spec.event is HookEvent.SESSION_END:
            await anyio.lowlevel.cancel_shielded_checkpoint()
        else:
            await anyio.lowlevel.checkpoint()
        input = self._prepare(spec, input)
        nodes = self._compiled.select(spec.event, input)
        seen: DispatchInfo | None = None
        if self._observers:
            seen = DispatchInfo(
                event=spec.event, input=input, session_id=input.session_id, handlers=len(nodes)
            )
            notify(self._observers, "dispatch_started", seen)
        foreground = self._foreground(spec, input, nodes, seen, environ)
        mode = execution or (
            "chained"
            if any(cn.sequential for cn in foreground)
            else self._compiled.execution_for(spec.event)
        )
        chain_stop = self._options.stop_on_block if stop_on_block is None else stop_on_block
        if spec.event is HookEvent.SESSION_END:
            with anyio.CancelScope(shield=True):
                input, results = await self._execute(
                    spec,
                    input,
                    foreground,
                    mode,
                    chain_stop,
                    self._options.session_end_timeout,
                    seen,
                    environ,
                )
        else:
            input, results = await self._execute(
                spec, input, foreground, mode, chain_stop, None, seen, environ
            )
        chained = mode == "chained"
        shadow: list[HandlerResult] = []
        would_be: HookOutput | None = None
        if self._compiled.has_shadow:
            everyone = results
            results = [r for r in everyone if not (r.handler is not None and r.handler.shadow)]
            if len(results) != len(everyone):
                shadow = [r for r in everyone if r.handler is not None and r.handler.shadow]
                would_be, _ = reduce_results(spec, everyone, chained=chained)
        output, reduced = reduce_results(spec, results, chained=chained)
        diags = [d for r in results for d in r.diagnostics]
        diags.extend(d for r in shadow for d in r.diagnostics)
        diags.extend(reduced)
        if spec.counts_continuations:
            output = self._count_continuation(spec, input, output, results, diags)
        background = tuple(self._pending)
        self._pending.clear()
        for r in background:
            diags.extend(r.diagnostics)
        if not self._directories_checked:
            self._directories_checked = True
            diags.extend(
                _lifecycle.directory_diagnostics(self._compiled, self.cwd, self.project_dir)
            )
        if diags and any(d.severity is Severity.ERROR for d in diags):
            from .._base._diagnostics import log_errors
            from ._observe import LoggingObserver

            # (a LoggingObserver has logged the handlers' own diagnostics already)
            told = (
                {d for r in (*results, *background) for d in r.diagnostics}
                if any(isinstance(o, LoggingObserver) for o in self._observers)
                else ()
            )
            log_errors([d for d in diags if d not in told], f"{spec.event.value} dispatch")
        rewake = tuple(self._rewake)
        self._rewake.clear()
        decision: Decision[O] = Decision(
            event=spec.event,
            input=input,
            output=output,  # type: ignore[arg-type]  # (the reducer builds the event's class)
            results=tuple(results),
            diagnostics=tuple(diags),
            background=background,
            rewake=rewake,
            shadow=tuple(shadow),
            would_be=would_be,  # type: ignore[arg-type]  # (the event's class, as output)
        )
        if seen is not None:
            notify(self._observers, "dispatch_finished", seen, decision)
        return decision

    def _prepare(self, spec: EventSpec, input: HookInput[O]) -> HookInput[O]:
        """The input with the session's envelope filled into what it left unset, the
        tool alias applied, and ``stop_hook_active`` set on events that count."""
        changes: dict[str, Any] = {}
        if input.session_id is None and self.session_id is not None:
            changes["session_id"] = self.session_id
        if input.cwd is None:
            changes["cwd"] = self.cwd
        if input.transcript_path is None and self.transcript_path is not None:
            changes["transcript_path"] = self.transcript_path
        if input.permission_mode is None and self.permission_mode is not None:
            changes["permission_mode"] = self.permission_mode
        tool = input_value(input, "tool_name")
        if isinstance(tool, str) and tool in self._compiled.tool_aliases:
            changes.update(with_input_value(input, "tool_name", self._compiled.tool_aliases[tool]))
        if spec.counts_continuations and getattr(input, "stop_hook_active", True) is None:
            key = (spec.event, input.agent_id)
            changes["stop_hook_active"] = self._continuations.get(key, 0) > 0
        return attrs.evolve(input, **changes) if changes else input

    def _foreground(
        self,
        spec: EventSpec,
        input: HookInput[Any],
        nodes: Sequence[CompiledNode],
        seen: DispatchInfo | None,
        environ: Mapping[str, str] | None = None,
    ) -> list[CompiledNode]:
        """The nodes that hold up the decision; fire-and-forget ones are started here.
        Nodes whose ``if`` rule does not match the tool call are left out."""
        foreground: list[CompiledNode] = []
        for cn in nodes:
            rule = cn.if_rule
            if rule is not None and not _if_matches(rule, input):
                continue
            if cn.node.background:
                self._start_background(cn, spec, input, seen, environ)
            else:
                foreground.append(cn)
        return foreground

    async def _execute(
        self,
        spec: EventSpec,
        input: HookInput[O],
        foreground: Sequence[CompiledNode],
        mode: Execution,
        stop_on_block: bool,
        budget: float | None,
        seen: DispatchInfo | None,
        environ: Mapping[str, str] | None = None,
    ) -> tuple[HookInput[O], list[HandlerResult]]:
        """Run the foreground nodes as ``mode`` says; the input as the last one left it."""
        if not foreground:
            return input, []
        if mode == "chained":
            return await self._run_chained(
                spec, input, foreground, stop_on_block, budget, seen, environ
            )
        if len(foreground) == 1:
            return input, [await self._run(foreground[0], spec, input, budget, seen, environ)]
        return input, await self._run_parallel(spec, input, foreground, budget, seen, environ)

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
        cap = self._options.stop_continuation_cap
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
        environ: Mapping[str, str] | None = None,
    ) -> list[HandlerResult]:
        """Every node at once, each in its own task of one task group and under its own
        cancel scope; results in configuration order (observers are told of the starts
        in that order, whatever order the tasks then run in)."""
        results: list[HandlerResult | None] = [None] * len(nodes)
        if seen is not None:
            for cn in nodes:
                self._started(cn, spec, seen)

        async def run_one(i: int, cn: CompiledNode) -> None:
            results[i] = await self._run(cn, spec, input, budget, seen, environ, announced=True)

        async with anyio.create_task_group() as tg:
            for i, cn in enumerate(nodes):
                tg.start_soon(run_one, i, cn)
        return [r for r in results if r is not None]

    async def _run_chained(
        self,
        spec: EventSpec,
        input: HookInput[O],
        nodes: Sequence[CompiledNode],
        stop_on_block: bool,
        budget: float | None,
        seen: DispatchInfo | None,
        environ: Mapping[str, str] | None = None,
    ) -> tuple[HookInput[O], list[HandlerResult]]:
        results: list[HandlerResult] = []
        rewrite = spec.rewrite
        for cn in nodes:
            r = await self._run(cn, spec, input, budget, seen, environ)
            results.append(r)
            if cn.info.shadow:  # (what it would rewrite or block is its result's alone)
                continue
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
        environ: Mapping[str, str] | None = None,
        *,
        announced: bool = False,
    ) -> HandlerResult:
        """Run one node under its own cancel scope (its timeout plus its clean-up
        slack), contain its failure, settle its result by the rules of the event and of
        the node's dialect (``settle_result``: strict output, refused values, blocks the
        input ignores, long messages saved to the session's files), apply its failure
        policy. ``announced``: observers were told of the start already."""
        timeout = cn.timeout if budget is None else min(cn.timeout, budget)
        allowed = timeout + cn.node.timeout_slack
        scope = anyio.CancelScope(deadline=anyio.current_time() + allowed)

        def started() -> None:
            # The handler's own clock starts now (after a wait for a process slot); a
            # budget (SessionEnd) bounds the wait too.
            if budget is None:
                scope.deadline = max(scope.deadline, anyio.current_time() + allowed)

        call = HookCall(
            input=input,
            spec=spec,
            timeout=timeout,
            dialect=cn.dialect,
            project_dir=self.project_dir,
            env={**self.env, **cn.env} if cn.env else self.env,
            process_limiter=self._limiter,
            secret_env_patterns=self._options.secret_env_patterns,
            strict_output=cn.node.strict_output,
            started=started,
            base_env=environ,
        )
        if seen is not None and not announced:
            self._started(cn, spec, seen)
        start = time.perf_counter()
        answer: object = _UNANSWERED
        with scope:
            # An exception, or an answer that is not a result, is an ERROR result
            # (cancellation passes through).
            try:
                answer = await cn.node.call(call)
            except Exception as exc:
                answer = _raised(exc)
        if isinstance(answer, HandlerResult):
            result = answer
        elif answer is _UNANSWERED:  # (the deadline passed before it answered)
            result = _timed_out(timeout)
        else:
            result = _raised(
                TypeError(
                    f"the handler's node returned {type(answer).__name__}, not a HandlerResult"
                )
            )
        result = settle_result(
            spec,
            cn.dialect,
            input,
            result,
            strict=cn.node.strict_output,
            files=self._output_files,
        )
        return self._finish(cn.policy_for(spec, input), spec, result, start, seen)

    def _started(self, cn: CompiledNode, spec: EventSpec, seen: DispatchInfo) -> None:
        status = cn.node.status_message or f"Running {spec.event.value} hook"
        notify(self._observers, "handler_started", seen, cn.info, status)

    def _finish(
        self,
        cn: CompiledNode,
        spec: EventSpec,
        result: HandlerResult,
        start: float,
        seen: DispatchInfo | None,
    ) -> HandlerResult:
        """Complete a result: failure policy, who answered and how long it took."""
        if result.outcome in _FAILED:
            result = self._apply_policy(cn, spec, result)
        info = cn.info
        result = attrs.evolve(
            result,
            diagnostics=tuple(
                d.at(source=info.source, location=info.location, handler=info.name)
                for d in result.diagnostics
            ),
            duration=time.perf_counter() - start,
            handler=info,
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
        self,
        cn: CompiledNode,
        spec: EventSpec,
        input: HookInput[Any],
        seen: DispatchInfo | None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        if self._tg is None:
            raise RuntimeError("the session is not open; use 'async with registry.session() as s'")
        self._running += 1
        self._tg.start_soon(self._background, cn, spec, input, seen, environ)

    async def _background(
        self,
        cn: CompiledNode,
        spec: EventSpec,
        input: HookInput[Any],
        seen: DispatchInfo | None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        # The work counts as pending until the session's callbacks have seen its result,
        # so that a closing session waits for them too instead of cutting them short.
        try:
            try:
                result = await self._run(cn, spec, input, None, seen, environ)
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
