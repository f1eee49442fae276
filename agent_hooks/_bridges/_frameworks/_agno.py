"""The hook graph inside an Agno agent: a tool hook and a pre-hook.

* ``tool_hooks`` (Agno's middleware around each tool call, ``function_call`` being
  the next step): the whole hooked tool call. A refusal returns the reason as the
  tool's result and never calls ``function_call`` (the tool never runs);
  ``updatedInput`` replaces the call's ``arguments`` in place (Agno's innermost step
  reads that dict, not what ``function_call`` is given; a call without arguments
  cannot be rewritten and is not run); a hook's replacement and hook context become
  the result the model reads.
* ``pre_hooks``: UserPromptSubmit for a text input; SessionStart's context (first
  run) and the prompt hooks' context are appended to the input. Agno logs and ignores
  what a pre-hook raises except its ``InputCheckError``, so a blocked prompt (and a
  ``continue: false``, and any failure of the hook graph) is raised as
  ``InputCheckError``: the model is not called.
* :meth:`AgnoHooks.arun`: ``agent.arun`` in the run, then Stop; a block runs the
  agent again on the conversation so far plus the feedback (Agno keeps no history
  between runs without a database), within the continuation cap. It raises
  :class:`PromptBlocked` / :class:`AgentStopped` where Agno returned an error or
  stopped run for them.
* ``continue: false`` in a tool call: Agno's ``StopAgentRun`` ends the run (Agno
  returns it as a completed run), then :meth:`AgnoHooks.arun` raises
  :class:`AgentStopped`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any

import attrs
from agno.exceptions import InputCheckError, StopAgentRun
from agno.models.message import Message

from ..._dispatch._lifecycle import PermissionCallback
from ..._dispatch._registry import HookRegistry
from ._run import AgentStopped, HookedRun, model_text, with_tool_aliases

__all__ = ["AgnoHooks"]


@attrs.define
class _Run:
    hooked: HookedRun
    continuing: bool = False
    stopped: AgentStopped | None = None
    """A prompt block or ``continue: false`` Agno turned into an error or stopped run:
    :meth:`AgnoHooks.arun` raises it."""


class AgnoHooks:
    """An agent_hooks registry as Agno hooks.

    ``AgnoHooks(registry, tool_aliases=..., permission=..., **session_options)``;
    ``hooks.install(agent)`` adds :meth:`tool_hook` to the agent's ``tool_hooks`` and
    :meth:`pre_hook` to its ``pre_hooks`` (or pass them to ``Agent(...)`` yourself);
    run the agent with ``async with hooks.run(): await hooks.arun(agent, prompt)``:
    one agent_hooks session per ``run()`` block.

    Failure: the hooks raise ``RuntimeError`` outside ``run()`` (the tool hook's is
    Agno's failed tool call; the pre-hook's an ``InputCheckError``: nothing runs);
    ask and defer go to the ``permission`` callback (refused without one).
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
        self._current: ContextVar[_Run | None] = ContextVar(
            f"agent_hooks_agno_run_{id(self)}", default=None
        )

    def install(self, agent: Any) -> Any:
        """Adds the tool hook and the pre-hook to ``agent`` (returned)."""
        agent.tool_hooks = [*(agent.tool_hooks or []), self.tool_hook]
        agent.pre_hooks = [*(agent.pre_hooks or []), self.pre_hook]
        return agent

    @contextlib.asynccontextmanager
    async def run(self, **session_options: Any) -> AsyncIterator[HookedRun]:
        """One framework run: a session for every agent run inside the block
        (``session_options`` over the constructor's)."""
        async with HookedRun(
            self._registry,
            tool_aliases=self._aliases,
            permission=self._permission,
            **{**self._session_options, **session_options},
        ) as hooked:
            token = self._current.set(_Run(hooked))
            try:
                yield hooked
            finally:
                self._current.reset(token)

    def _run(self) -> _Run:
        run = self._current.get()
        if run is None:
            raise RuntimeError("AgnoHooks: run the agent inside `async with hooks.run():`")
        return run

    async def arun(self, agent: Any, input: Any, **kwargs: Any) -> Any:
        """``agent.arun(input, **kwargs)``, then Stop: a block runs the agent again on
        the conversation plus the feedback. Returns the last ``RunOutput``.

        Raises:
            PromptBlocked: a UserPromptSubmit hook blocked the prompt.
            AgentStopped: a hook answered ``continue: false``.
        """
        run = self._run()
        output = await self._checked(run, agent.arun(input, **kwargs))
        while (feedback := await run.hooked.check_stop(_text(output.content))) is not None:
            conversation = [*(output.messages or []), Message(role="user", content=feedback)]
            run.continuing = True
            try:
                output = await self._checked(run, agent.arun(conversation, **kwargs))
            finally:
                run.continuing = False
        return output

    @staticmethod
    async def _checked(run: _Run, call: Awaitable[Any]) -> Any:
        output = await call
        if run.stopped is not None:
            stopped, run.stopped = run.stopped, None
            raise stopped
        return output

    async def pre_hook(self, run_input: Any) -> None:
        """Agno pre-hook: UserPromptSubmit for a text input, context appended to it."""
        try:
            run = self._run()
            prompt = run_input.input_content
            text = prompt if isinstance(prompt, str) and not run.continuing else None
            context = await run.hooked.submit(text)
        except AgentStopped as exc:
            self._remember(exc)
            raise InputCheckError(exc.reason) from exc
        except Exception as exc:  # Agno ignores a pre-hook's other exceptions: fail closed
            raise InputCheckError(f"agent_hooks: {exc}") from exc
        if context and isinstance(prompt, str):
            run_input.input_content = f"{prompt}\n\n{context}"
        elif context and isinstance(prompt, list):
            run_input.input_content = [*prompt, Message(role="user", content=context)]

    def _remember(self, exc: AgentStopped) -> None:
        run = self._current.get()
        if run is not None:
            run.stopped = run.stopped or exc

    async def tool_hook(
        self,
        function_name: str,
        function_call: Callable[..., Awaitable[Any]],
        arguments: dict[str, Any],
    ) -> Any:
        """Agno tool hook: the hooked tool call around ``function_call``."""
        run = self._run()

        had_arguments = bool(arguments)

        async def tool(tool_input: Mapping[str, Any]) -> Any:
            if dict(tool_input) != arguments:
                # Agno's innermost step reads the call's own ``arguments`` dict (the one
                # the hook got), not what ``function_call`` is given: rewrite it in
                # place. A call without arguments gets a fresh dict, so refuse there.
                if not had_arguments:
                    raise RuntimeError(
                        f"agent_hooks: Agno cannot give {function_name!r} a rewritten "
                        "input (the call had no arguments); the tool was not run"
                    )
                arguments.clear()
                arguments.update(tool_input)
            return await function_call(**tool_input)

        try:
            outcome = await run.hooked.call_tool(function_name, dict(arguments), tool)
        except AgentStopped as exc:
            self._remember(exc)
            raise StopAgentRun(exc.reason) from exc
        if not outcome.ran:
            return outcome.reason or "denied"
        if not outcome.context:
            return outcome.model_view
        return f"{model_text(outcome.model_view)}\n{outcome.context}"


def _text(content: Any) -> str | None:
    return None if content is None else model_text(content)

