"""Run an agent_hooks registry inside a Claude Agent SDK application.

``claude_agent_sdk_hooks(registry)`` returns the ``hooks`` mapping that
``claude_agent_sdk.ClaudeAgentOptions(hooks=...)`` takes: for every event the SDK
can call back into Python (and the registry has handlers for), one
``claude_agent_sdk.HookMatcher`` whose single callback dispatches the whole graph
(shell hooks, Python callbacks, config files, built-ins) and answers with the
reduced decision in the SDK's dict shape (``continue_`` for ``continue``).

Needs the optional extra: ``pip install 'py-agent-hooks[claude]'``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, cast

from ._base._errors import RegistrationError
from ._bridges._payload import dispatch_payload
from ._dispatch._registry import HookRegistry
from ._dispatch._session import Session
from ._events._names import HookEvent, parse_event

__all__ = ["SDK_EVENTS", "claude_agent_sdk_hooks", "sdk_callback"]

SDK_EVENTS: tuple[HookEvent, ...] = (
    HookEvent.PRE_TOOL_USE,
    HookEvent.POST_TOOL_USE,
    HookEvent.POST_TOOL_USE_FAILURE,
    HookEvent.USER_PROMPT_SUBMIT,
    HookEvent.STOP,
    HookEvent.SUBAGENT_STOP,
    HookEvent.PRE_COMPACT,
    HookEvent.NOTIFICATION,
    HookEvent.SUBAGENT_START,
    HookEvent.PERMISSION_REQUEST,
)
"""Events the Claude Agent SDK (Python) calls back into Python for."""

SdkCallback = Callable[[dict[str, Any], "str | None", Any], Awaitable[dict[str, Any]]]


def sdk_callback(target: HookRegistry | Session, *, project_dir: str | None = None) -> SdkCallback:
    """One SDK hook callback that dispatches ``target`` (a registry: a one-off session
    per call; a session: dispatched through it, so its state carries across calls)."""
    registry = target if isinstance(target, HookRegistry) else None
    session = target if isinstance(target, Session) else None

    async def callback(
        input_data: dict[str, Any], tool_use_id: str | None, context: Any
    ) -> dict[str, Any]:
        result = await dispatch_payload(
            input_data, registry, project_dir=project_dir, session=session
        )
        answer = dict(result.answer)
        if "continue" in answer:
            answer["continue_"] = answer.pop("continue")
        return answer

    return callback


def claude_agent_sdk_hooks(
    target: HookRegistry | Session,
    *,
    events: Iterable[HookEvent | str] | None = None,
    project_dir: str | None = None,
    timeout: float | None = None,
) -> dict[str, list[Any]]:
    """The ``hooks`` dict for ``ClaudeAgentOptions``.

    ``events`` defaults to the SDK events for which ``target`` has handlers.
    ``timeout`` is the SDK matcher's timeout (seconds); by default the largest
    handler timeout of the event, so the SDK never cuts agent_hooks short.

    Raises:
        RegistrationError: ``claude-agent-sdk`` is not installed, or an event the SDK
            does not call back for was asked for.
    """
    try:
        import claude_agent_sdk
    except ImportError:
        raise RegistrationError(
            "the Claude Agent SDK adapter needs the 'claude' extra: pip install 'py-agent-hooks[claude]'"
        ) from None
    compiled = target.compiled if isinstance(target, Session) else target.compile()
    if events is None:
        chosen = [e for e in SDK_EVENTS if compiled.nodes.get(e)]
    else:
        chosen = [parse_event(e) for e in events]
        unsupported = [e.value for e in chosen if e not in SDK_EVENTS]
        if unsupported:
            raise RegistrationError(
                f"the Claude Agent SDK does not call Python hooks for {', '.join(unsupported)}"
            )
    callback = sdk_callback(target, project_dir=project_dir)
    hooks: dict[str, list[Any]] = {}
    for event in chosen:
        nodes = compiled.nodes.get(event, ())
        limit = timeout or max((n.timeout + n.node.timeout_slack for n in nodes), default=None)
        hooks[event.value] = [
            claude_agent_sdk.HookMatcher(matcher=None, hooks=[cast(Any, callback)], timeout=limit)
        ]
    return hooks
