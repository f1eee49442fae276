"""What every framework adapter shares: one agent_hooks session per framework run.

:class:`HookedRun` is an async context manager that opens one :class:`Session`
(SessionStart when it opens, SessionEnd when it closes, shielded, whatever ended the
run), and the three calls an adapter makes from the framework's own hooks:
:meth:`HookedRun.submit` before the agent runs (UserPromptSubmit, and SessionStart's
context for the first model request), :meth:`HookedRun.call_tool` around a tool call
(the library's :func:`~agent_hooks._dispatch._lifecycle.call_tool`, unchanged) and
:meth:`HookedRun.check_stop` after the model's final answer. Stop continuation,
fire-and-forget delivery and session start/end therefore behave as in the library's
own helpers.

A hook's ``continue: false`` anywhere ends the run by raising :class:`AgentStopped`
(its ``stop_reason`` is for the user); a blocked prompt raises :class:`PromptBlocked`.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Mapping
from contextvars import ContextVar
from types import MappingProxyType, TracebackType
from typing import Any

from ..._base._errors import RegistrationError
from ..._dispatch._lifecycle import PermissionCallback, Tool
from ..._dispatch._outcomes import PermissionAnswer, PermissionPrompt, ToolCallOutcome
from ..._dispatch._registry import HookRegistry
from ..._dispatch._session import Session
from ..._wire._json import dumps

__all__ = [
    "DEFAULT_TOOL_ALIASES",
    "AgentStopped",
    "HookedRun",
    "PromptBlocked",
    "RunScope",
    "ToolErrorResult",
    "ask_payload",
    "model_text",
    "permission_answer",
    "with_tool_aliases",
]

DEFAULT_TOOL_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "shell": "Bash",
        "run_shell": "Bash",
        "run_shell_command": "Bash",
        "bash": "Bash",
        "execute": "Bash",  # Deep Agents' shell tool
        "read_file": "Read",
        "write_file": "Write",
        "edit_file": "Edit",
        "glob": "Glob",
        "grep": "Grep",
    }
)
"""Framework tool names -> Claude Code's names, applied by every adapter unless the
application maps the name otherwise (``tool_aliases={"shell": "shell"}`` keeps a name).

The hooks then see ``Bash`` (so a ``Bash`` matcher and a ``Bash(rm *)`` rule match) and
the tool's own arguments as ``tool_input``: ``Bash(...)`` rules read ``command``, file
rules ``file_path``, as Claude Code's and Deep Agents' tools name them."""


class AgentStopped(Exception):
    """A hook answered ``continue: false`` (or a PermissionRequest deny with
    ``interrupt``): the framework run ends here. ``reason`` is the hook's
    ``stopReason``, for the user, not the model; ``event`` the event that stopped it."""

    def __init__(self, reason: str, *, event: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.event = event


class PromptBlocked(AgentStopped):
    """A UserPromptSubmit hook blocked the prompt: the model was not called.
    ``reason`` is the hook's reason, for the user."""


class ToolErrorResult(Exception):
    """Raised by an adapter's tool runner when the framework reported a failed call as
    a result rather than an exception (LangChain's error ``ToolMessage``): the call goes
    to PostToolUseFailure and the adapter gets ``result`` back instead of an exception."""

    def __init__(self, message: str, result: Any) -> None:
        super().__init__(message)
        self.result = result


def with_tool_aliases(
    registry: HookRegistry, tool_aliases: Mapping[str, str] | None
) -> HookRegistry:
    """``registry`` with :data:`DEFAULT_TOOL_ALIASES`, then its own ``tool_aliases``,
    then ``tool_aliases`` (later ones win).

    Raises:
        RegistrationError: a name or alias that is not a string.
    """
    merged = {**DEFAULT_TOOL_ALIASES, **registry.tool_aliases, **(tool_aliases or {})}
    if merged == dict(registry.tool_aliases):
        return registry
    return registry.evolve(tool_aliases=merged)


def model_text(value: Any) -> str:
    """``value`` as text for a model: a string as it is, JSON data as JSON, else ``str()``."""
    if isinstance(value, str):
        return value
    try:
        return dumps(value)
    except (TypeError, ValueError):
        return str(value)


def permission_answer(value: Any) -> PermissionAnswer:
    """A person's answer to an ask, as a framework's interrupt resumed with it: ``True``
    / ``False``, or ``{"allow": ..., "message": ..., "updated_input": {...}}``."""
    if isinstance(value, Mapping):
        updated = value.get("updated_input")
        message = value.get("message")
        return PermissionAnswer(
            allow=bool(value.get("allow")),
            message=message if isinstance(message, str) else None,
            updated_input=updated if isinstance(updated, Mapping) else None,
        )
    return PermissionAnswer(allow=bool(value))


def ask_payload(prompt: PermissionPrompt) -> dict[str, Any]:
    """What an interrupt for ``prompt`` carries to the person who decides."""
    return {
        "tool_name": prompt.tool_name,
        "tool_input": dict(prompt.tool_input),
        "tool_use_id": prompt.tool_use_id,
        "reason": prompt.reason,
        "hook_decision": prompt.hook_decision,
    }


def _join(*parts: str | None) -> str | None:
    texts = [p for p in parts if p]
    return "\n".join(texts) if texts else None


class HookedRun:
    """One agent_hooks session for one framework run: ``async with HookedRun(registry)``.

    Args:
        registry: the hook graph (its ``fail_closed``, ``on_error`` and other options
            apply as they are).
        tool_aliases: framework tool names -> canonical names, over
            :data:`DEFAULT_TOOL_ALIASES` and the registry's own.
        permission: the application's permission callback (see
            :data:`agent_hooks.PermissionCallback`): it decides PreToolUse ``ask`` and
            ``defer``, and may refuse what hooks allowed. Without it, ask and defer are
            refused unless a PermissionRequest hook allowed.
        source: SessionStart's ``source`` (``startup``, ``resume``, ...).
        end_reason: SessionEnd's ``reason``.
        control_flow: exceptions of the framework that ``permission`` may raise to
            suspend the run (LangGraph's ``GraphInterrupt``): they propagate out of
            :meth:`call_tool` (the tool not run) instead of counting as a refusal.
        session_options: passed to :meth:`HookRegistry.session` (``session_id``, ``cwd``,
            ``project_dir``, ``env``, ``observers`` ...).

    Entering opens the session and dispatches SessionStart; leaving dispatches
    SessionEnd (shielded, within the registry's ``session_end_timeout``) and closes the
    session, which waits for fire-and-forget hooks as sessions do. The calls below raise
    ``RuntimeError`` outside the ``async with``.
    """

    def __init__(
        self,
        registry: HookRegistry,
        *,
        tool_aliases: Mapping[str, str] | None = None,
        permission: PermissionCallback | None = None,
        source: str = "startup",
        end_reason: str = "other",
        control_flow: tuple[type[BaseException], ...] = (),
        **session_options: Any,
    ) -> None:
        if not isinstance(registry, HookRegistry):
            raise RegistrationError(
                f"expected a HookRegistry, got {type(registry).__module__}.{type(registry).__qualname__}"
            )
        self.registry: HookRegistry = with_tool_aliases(registry, tool_aliases)
        self.permission = permission
        self.source = source
        self.end_reason = end_reason
        self.control_flow = control_flow
        self._options = session_options
        self._session: Session | None = None
        self._start_context: str | None = None
        self.messages: list[str] = []
        """System messages hooks addressed to the user, in order (``systemMessage``)."""

    @property
    def session(self) -> Session:
        """The open session.

        Raises:
            RuntimeError: outside ``async with``.
        """
        if self._session is None:
            raise RuntimeError(
                "agent_hooks: the framework run is not open; run the agent inside "
                "`async with <adapter>.run(): ...`"
            )
        return self._session

    async def __aenter__(self) -> HookedRun:
        session = self.registry.session(**self._options)
        await session.__aenter__()
        self._session = session
        try:
            started = await session.start(self.source)
        except BaseException:
            self._session = None
            await session.__aexit__(None, None, None)
            raise
        self.messages.extend(started.messages)
        self._start_context = started.context  # (also kept in session.persistent_context)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        session, self._session = self._session, None
        if session is None:
            return
        try:
            ended = await session.end(self.end_reason)
            self.messages.extend(ended.messages)
        finally:
            await session.__aexit__(exc_type, exc, tb)

    async def submit(self, prompt: str | None) -> str | None:
        """Before the agent runs: UserPromptSubmit for ``prompt`` (skipped when ``None``).

        Returns the context to add to the model's messages for this invocation: the
        SessionStart context (the first time only), then the prompt hooks' context.

        Raises:
            PromptBlocked: a hook blocked the prompt.
            AgentStopped: a hook answered ``continue: false``.
        """
        start, self._start_context = self._start_context, None
        if prompt is None:
            return start
        outcome = await self.session.submit_prompt(prompt)
        self.messages.extend(outcome.messages)
        if outcome.stop:
            raise AgentStopped(
                outcome.stop_reason or "a UserPromptSubmit hook stopped the agent",
                event="UserPromptSubmit",
            )
        if outcome.blocked:
            raise PromptBlocked(
                outcome.reason or "blocked by a UserPromptSubmit hook", event="UserPromptSubmit"
            )
        return _join(start, outcome.context)

    async def call_tool(
        self,
        tool_name: str,
        tool_input: Mapping[str, Any],
        tool: Tool,
        *,
        tool_use_id: str | None = None,
        permission: PermissionCallback | None = None,
    ) -> ToolCallOutcome:
        """One hooked tool call, :func:`agent_hooks.Session.call_tool` with the run's
        permission callback (or ``permission``, for this call); ``tool`` is never called
        when the graph refused the call (a deny, a failed guard under a fail-closed
        policy, a refused ask).

        An exception ``tool`` raises is reported to PostToolUseFailure, then re-raised
        (the framework handles it as it always does), except :class:`ToolErrorResult`,
        whose outcome is returned (``error`` set).

        Raises:
            AgentStopped: a hook answered ``continue: false`` (after PostToolUse ran,
                when the tool ran).
        """
        escaped: list[BaseException] = []
        outcome = await self.session.call_tool(
            tool_name,
            tool_input,
            tool,
            tool_use_id=tool_use_id,
            permission=self._permission_for(permission or self.permission, escaped),
        )
        self.messages.extend(outcome.messages)
        if escaped:  # the framework's own control flow, raised by the permission callback
            raise escaped[0]
        if outcome.error is not None and not isinstance(outcome.error, ToolErrorResult):
            raise outcome.error
        if outcome.stop:
            raise AgentStopped(
                outcome.stop_reason or "a hook stopped the agent", event="PreToolUse"
            )
        return outcome

    def _permission_for(
        self, permission: PermissionCallback | None, escaped: list[BaseException]
    ) -> PermissionCallback | None:
        """``permission``, letting the ``control_flow`` exceptions it raises escape (the
        helper counts any other exception as a refusal)."""
        if permission is None or not self.control_flow:
            return permission
        control_flow = self.control_flow

        async def guarded(prompt: PermissionPrompt) -> PermissionAnswer | bool:
            try:
                answer = permission(prompt)
                return await answer if inspect.isawaitable(answer) else answer
            except control_flow as exc:
                escaped.append(exc)
                raise

        return guarded

    async def check_stop(self, last_assistant_message: str | None) -> str | None:
        """After the model's final answer: ``None`` when the agent may stop, else the
        feedback it must continue with (the Stop hooks' reasons and context). The
        session tracks ``stop_hook_active`` and the continuation cap.

        Raises:
            AgentStopped: a Stop hook answered ``continue: false``.
        """
        outcome = await self.session.check_stop(last_assistant_message)
        self.messages.extend(outcome.messages)
        decision = outcome.decision
        if decision is not None and not decision.should_continue:
            raise AgentStopped(
                decision.stop_reason or "a Stop hook stopped the agent", event="Stop"
            )
        if outcome.should_stop:
            return None
        return outcome.feedback or "a Stop hook asked the agent to continue"


class RunScope:
    """Where an adapter's framework callbacks find the :class:`HookedRun` of the run
    they belong to: :meth:`open` makes one, with the adapter's options (a run's own
    session options over the adapter's), the current one of the block's context;
    :meth:`current` returns it. ``missing`` is the error's text when a callback runs
    outside such a block; ``run_options`` go to every :class:`HookedRun`."""

    def __init__(
        self,
        registry: HookRegistry,
        *,
        tool_aliases: Mapping[str, str] | None,
        permission: PermissionCallback | None,
        session_options: Mapping[str, Any],
        missing: str,
        **run_options: Any,
    ) -> None:
        self.registry = with_tool_aliases(registry, tool_aliases)  # compiled once
        self._aliases = tool_aliases
        self._permission = permission
        self._options = {**run_options, **session_options}
        self._missing = missing
        self._current: ContextVar[HookedRun | None] = ContextVar(
            f"agent_hooks_run_{id(self)}", default=None
        )

    @contextlib.asynccontextmanager
    async def open(self, **session_options: Any) -> AsyncIterator[HookedRun]:
        """One framework run: a session for every agent run inside the block."""
        async with HookedRun(
            self.registry,
            tool_aliases=self._aliases,
            permission=self._permission,
            **{**self._options, **session_options},
        ) as hooked:
            token = self._current.set(hooked)
            try:
                yield hooked
            finally:
                self._current.reset(token)

    def current(self) -> HookedRun:
        """The run of this context.

        Raises:
            RuntimeError: outside :meth:`open` (``missing`` says how to call it).
        """
        hooked = self._current.get()
        if hooked is None:
            raise RuntimeError(self._missing)
        return hooked
