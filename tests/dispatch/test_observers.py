"""Observers: the order of their calls for sequential, parallel and fire-and-forget
handlers, status messages, registry- and session-level observers, observers that
raise (never breaking a dispatch), and the LoggingObserver.

Concurrent orders are forced with anyio Events (a handler waits until the observer
has seen another handler start or finish), never with sleeps.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agent_hooks import (
    CallbackHook,
    CommandHook,
    Decision,
    DiagnosticCode,
    DispatchInfo,
    HandlerInfo,
    HandlerResult,
    HookMatcher,
    HookRegistry,
    LoggingObserver,
    Observer,
    Outcome,
    PreToolUseInput,
    PreToolUseOutput,
    StopInput,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
)

pytestmark = pytest.mark.anyio

LIMIT = 5.0
"""Upper bound for waiting on something that must happen (a failure, not a pacing)."""


class Recorder(Observer):
    """Records every call as a tuple in ``log`` (shareable between recorders) and lets a
    test wait until a given call was seen."""

    def __init__(self, log: list[tuple[Any, ...]] | None = None, tag: str = "") -> None:
        self.log: list[tuple[Any, ...]] = [] if log is None else log
        self.tag = tag
        self.dispatches: list[DispatchInfo] = []
        self.results: dict[str, HandlerResult] = {}
        self.decisions: list[Decision[Any]] = []
        self.foreign: list[str] = []
        """Calls with a DispatchInfo no dispatch_started announced (asserting inside an
        observer would only be logged: notify() contains observer failures)."""
        self._waiters: dict[tuple[Any, ...], anyio.Event] = {}

    def _add(self, entry: tuple[Any, ...]) -> None:
        self.log.append((self.tag, *entry) if self.tag else entry)
        waiter = self._waiters.get(entry)
        if waiter is not None:
            waiter.set()

    def seen(self, *entry: Any) -> anyio.Event:
        """An event set when ``entry`` is recorded (or already was)."""
        event = self._waiters.setdefault(entry, anyio.Event())
        if entry in self.log:
            event.set()
        return event

    def dispatch_started(self, dispatch: DispatchInfo) -> None:
        self.dispatches.append(dispatch)
        self._add(("dispatch_started", dispatch.event.value))

    def dispatch_finished(self, dispatch: DispatchInfo, decision: Decision[Any]) -> None:
        self._check(dispatch, "dispatch_finished")
        self.decisions.append(decision)
        self._add(("dispatch_finished", dispatch.event.value))

    def handler_started(
        self, dispatch: DispatchInfo, handler: HandlerInfo, status_message: str
    ) -> None:
        self._check(dispatch, "handler_started")
        self._add(("handler_started", handler.name))
        self.log.append(("status", handler.name, status_message))

    def handler_finished(
        self, dispatch: DispatchInfo, handler: HandlerInfo, result: HandlerResult
    ) -> None:
        self._check(dispatch, "handler_finished")
        self.results[handler.name] = result
        self._add(("handler_finished", handler.name))

    def _check(self, dispatch: DispatchInfo, method: str) -> None:
        if not any(dispatch is d for d in self.dispatches):
            self.foreign.append(method)

    def calls(self) -> list[tuple[Any, ...]]:
        """The recorded calls without the status lines (and no call was foreign)."""
        assert self.foreign == []
        return [e for e in self.log if e[0] != "status"]

    def statuses(self) -> dict[str, str]:
        return {e[1]: e[2] for e in self.log if e[0] == "status"}


def context_hook(
    name: str, text: str | None = None, before: Callable[[], Any] | None = None, **kw: Any
) -> CallbackHook:
    """A typed callback named ``name`` that awaits ``before()`` (if given), then adds context."""

    async def callback(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        if before is not None:
            with anyio.fail_after(LIMIT):
                await before()
        await anyio.lowlevel.checkpoint()
        return UserPromptSubmitOutput(additional_context=text or name)

    return CallbackHook(callback, name=name, **kw)


def prompt() -> UserPromptSubmitInput:
    return UserPromptSubmitInput(prompt="hi")


def registry(*hooks: Any, **options: Any) -> HookRegistry:
    return HookRegistry({"UserPromptSubmit": [HookMatcher(hooks=list(hooks))]}, **options)


def bracket(name: str) -> list[tuple[str, str]]:
    return [("handler_started", name), ("handler_finished", name)]


# ------------------------------------------------------------------ call order


async def test_sequential_order() -> None:
    rec = Recorder()
    reg = registry(
        context_hook("a"),
        context_hook("b"),
        context_hook("c"),
        observers=[rec],
        execution={"UserPromptSubmit": "chained"},
    )
    async with reg.session(session_id="s1") as session:
        d = await session.dispatch(prompt())
    assert rec.calls() == [
        ("dispatch_started", "UserPromptSubmit"),
        *bracket("a"),
        *bracket("b"),
        *bracket("c"),
        ("dispatch_finished", "UserPromptSubmit"),
    ]
    (info,) = rec.dispatches
    assert info.event.value == "UserPromptSubmit"
    assert info.session_id == "s1" and info.input.session_id == "s1"
    assert info.handlers == 3
    assert rec.decisions == [d]
    assert [rec.results[n] for n in "abc"] == list(d.results)
    assert all(r is x for r, x in zip((rec.results[n] for n in "abc"), d.results, strict=True))


async def test_parallel_order_forced_with_events() -> None:
    """a (first, in the dispatching task) waits until b has finished: b's start and
    finish both come between a's start and a's finish."""
    rec = Recorder()
    reg = registry(
        context_hook("a", before=lambda: rec.seen("handler_finished", "b").wait()),
        context_hook("b", before=lambda: rec.seen("handler_started", "a").wait()),
        observers=[rec],
    )
    async with reg.session() as session:
        d = await session.dispatch(prompt())
    assert rec.calls() == [
        ("dispatch_started", "UserPromptSubmit"),
        ("handler_started", "a"),
        ("handler_started", "b"),
        ("handler_finished", "b"),
        ("handler_finished", "a"),
        ("dispatch_finished", "UserPromptSubmit"),
    ]
    assert d.context == "a\nb"  # results stay in configuration order


async def test_parallel_finishes_in_reverse_order() -> None:
    """Three parallel handlers finish c, b, a; each start comes before its finish."""
    rec = Recorder()
    reg = registry(
        context_hook("a", before=lambda: rec.seen("handler_finished", "b").wait()),
        context_hook("b", before=lambda: rec.seen("handler_finished", "c").wait()),
        context_hook("c", before=lambda: rec.seen("handler_started", "b").wait()),
        observers=[rec],
    )
    async with reg.session() as session:
        d = await session.dispatch(prompt())
    calls = rec.calls()
    assert calls[0] == ("dispatch_started", "UserPromptSubmit")
    assert calls[1] == ("handler_started", "a")  # the first runs in the dispatching task
    assert calls[-1] == ("dispatch_finished", "UserPromptSubmit")
    finishes = [c[1] for c in calls if c[0] == "handler_finished"]
    assert finishes == ["c", "b", "a"]
    starts = [c[1] for c in calls if c[0] == "handler_started"]
    assert sorted(starts) == ["a", "b", "c"]
    for name in "abc":
        assert calls.index(("handler_started", name)) < calls.index(("handler_finished", name))
    assert d.context == "a\nb\nc"


async def test_parallel_timeout_under_a_shared_deadline_is_finished_too() -> None:
    """Parallel handlers with one deadline share a cancel scope: the one that runs past
    it still gets its handler_finished (TIMEOUT), after the others."""

    async def hangs(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        await anyio.sleep_forever()
        raise AssertionError

    rec = Recorder()
    reg = registry(
        context_hook(
            "quick", before=lambda: rec.seen("handler_started", "hangs").wait(), timeout=0.05
        ),
        CallbackHook(hangs, name="hangs", timeout=0.05),
        observers=[rec],
    )
    async with reg.session() as session:
        d = await session.dispatch(prompt())
    assert rec.calls() == [
        ("dispatch_started", "UserPromptSubmit"),
        ("handler_started", "quick"),
        ("handler_started", "hangs"),
        ("handler_finished", "quick"),
        ("handler_finished", "hangs"),
        ("dispatch_finished", "UserPromptSubmit"),
    ]
    assert rec.results["hangs"].outcome is Outcome.TIMEOUT
    assert rec.results["quick"].outcome is Outcome.OK
    assert d.context == "quick"


async def test_fire_and_forget_order() -> None:
    """The background handler starts during the dispatch, finishes after it."""
    rec = Recorder()
    release = anyio.Event()
    reg = registry(
        context_hook("fg", before=lambda: rec.seen("handler_started", "bg").wait()),
        context_hook("bg", before=release.wait, background=True),
        observers=[rec],
    )
    async with reg.session() as session:
        d = await session.dispatch(prompt())
        assert rec.calls() == [
            ("dispatch_started", "UserPromptSubmit"),
            ("handler_started", "fg"),
            ("handler_started", "bg"),
            ("handler_finished", "fg"),
            ("dispatch_finished", "UserPromptSubmit"),
        ]
        assert d.context == "fg"
        release.set()
        with anyio.fail_after(LIMIT):
            await rec.seen("handler_finished", "bg").wait()
        assert rec.calls()[-1] == ("handler_finished", "bg")
        assert rec.results["bg"].outcome is Outcome.OK
        assert rec.dispatches[0].handlers == 2
        assert rec.statuses()["bg"] == "Running UserPromptSubmit hook"
        # the background answer arrives with the next dispatch, which observers see too
        d = await session.dispatch(prompt())
    assert d.context == "fg\nbg"
    assert [c for c in rec.calls() if c[0].startswith("dispatch")] == [
        ("dispatch_started", "UserPromptSubmit"),
        ("dispatch_finished", "UserPromptSubmit"),
    ] * 2


async def test_only_background_handlers() -> None:
    """Nothing to wait for: the dispatch ends before the background handler starts."""
    rec = Recorder()
    reg = registry(context_hook("bg", background=True), observers=[rec])
    async with reg.session() as session:
        await session.dispatch(prompt())
        with anyio.fail_after(LIMIT):
            await rec.seen("handler_finished", "bg").wait()
    assert rec.calls() == [
        ("dispatch_started", "UserPromptSubmit"),
        ("dispatch_finished", "UserPromptSubmit"),
        *bracket("bg"),
    ]


async def test_background_handler_cancelled_at_session_close_is_finished() -> None:
    rec = Recorder()
    never = anyio.Event()
    reg = registry(
        context_hook("bg", before=never.wait, background=True),
        observers=[rec],
        background_drain_timeout=0.05,
    )
    async with reg.session() as session:
        await session.dispatch(prompt())
        with anyio.fail_after(LIMIT):
            await rec.seen("handler_started", "bg").wait()
    assert session.undelivered[0].outcome is Outcome.CANCELLED
    assert rec.calls()[-1] == ("handler_finished", "bg")
    assert rec.results["bg"].outcome is Outcome.CANCELLED


async def test_no_handlers_still_brackets_the_dispatch() -> None:
    rec = Recorder()
    reg = HookRegistry({"Stop": [HookMatcher(hooks=[context_hook("x")])]}, observers=[rec])
    async with reg.session() as session:
        await session.dispatch(prompt())
    assert rec.calls() == [
        ("dispatch_started", "UserPromptSubmit"),
        ("dispatch_finished", "UserPromptSubmit"),
    ]
    assert rec.dispatches[0].handlers == 0


async def test_chained_stop_on_block_never_starts_the_rest() -> None:
    async def deny(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")

    async def later(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput()

    rec = Recorder()
    reg = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    hooks=[CallbackHook(deny, name="deny"), CallbackHook(later, name="later")]
                )
            ]
        },
        observers=[rec],
        execution={"PreToolUse": "chained"},
        stop_on_block=True,
    )
    async with reg.session() as session:
        d = await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={}))
    assert d.blocked
    assert rec.calls() == [
        ("dispatch_started", "PreToolUse"),
        *bracket("deny"),
        ("dispatch_finished", "PreToolUse"),
    ]
    assert rec.results["deny"].outcome is Outcome.OK
    assert rec.decisions[0].blocked


async def test_finished_carries_outcome_duration_and_diagnostics() -> None:
    async def raises(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        raise ValueError("bad hook")

    async def hangs(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        await anyio.sleep_forever()
        raise AssertionError

    rec = Recorder()
    reg = registry(
        CallbackHook(raises, name="raises"),
        CallbackHook(hangs, name="hangs", timeout=0.05),
        context_hook("fine"),
        observers=[rec],
        source="tests/observers",
    )
    async with reg.session() as session:
        d = await session.dispatch(prompt())
    err, timeout, ok = (rec.results[n] for n in ("raises", "hangs", "fine"))
    assert err.outcome is Outcome.ERROR
    assert [x.code for x in err.diagnostics] == [DiagnosticCode.HANDLER_ERROR]
    assert err.diagnostics[0].source == "tests/observers"
    assert err.diagnostics[0].location == "UserPromptSubmit[0].hooks[0]"
    assert timeout.outcome is Outcome.TIMEOUT and timeout.duration >= 0.05
    assert ok.outcome is Outcome.OK and ok.duration >= 0.0 and ok.diagnostics == ()
    for r in (err, timeout, ok):
        assert r.handler is not None and r.handler.kind == "python"
        assert r.handler.source == "tests/observers"
    assert d.context == "fine"


# ------------------------------------------------------------ status messages


async def test_status_message_default_and_custom(tmp_path: Any) -> None:
    rec = Recorder()
    cmd = CommandHook(
        argv=[sys.executable, "-c", "print('from a command')"],
        status_message="Linting the prompt",
        name="lint",
    )
    reg = registry(
        context_hook("plain"),
        context_hook("custom", status_message="Checking the prompt"),
        cmd,
        observers=[rec],
    )
    async with reg.session() as session:
        d = await session.dispatch(prompt())
    assert rec.statuses() == {
        "plain": "Running UserPromptSubmit hook",
        "custom": "Checking the prompt",
        "lint": "Linting the prompt",
    }
    assert d.context == "plain\ncustom\nfrom a command"
    infos = {r.handler.name: r.handler for r in d.results if r.handler}
    assert infos["custom"].status_message == "Checking the prompt"
    assert infos["plain"].status_message is None


async def test_status_message_from_a_config_file(tmp_path: Any) -> None:
    import json

    from agent_hooks._config._load import load

    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "Stop": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": "true",
                                    "statusMessage": "Wrapping up",
                                },
                                {"type": "command", "command": "true "},
                            ]
                        }
                    ]
                }
            }
        )
    )
    rec = Recorder()
    async with load(path).registry(observers=[rec]).session() as session:
        await session.dispatch(StopInput())
    assert sorted(rec.statuses().values()) == ["Running Stop hook", "Wrapping up"]


# ------------------------------------------------- registry and session level


async def test_registry_observers_come_before_session_observers() -> None:
    log: list[tuple[Any, ...]] = []
    first, second = Recorder(log, "registry-1"), Recorder(log, "registry-2")
    mine = Recorder(log, "session")
    reg = registry(context_hook("a"), observers=[first, second])
    async with reg.session(observers=[mine]) as session:
        await session.dispatch(prompt())
    tagged = [e for e in log if e[0] != "status"]
    assert [e[0] for e in tagged] == ["registry-1", "registry-2", "session"] * 4
    assert [e[1] for e in tagged[::3]] == [
        "dispatch_started",
        "handler_started",
        "handler_finished",
        "dispatch_finished",
    ]
    # another session of the same registry has only the registry's observers
    log.clear()
    async with reg.session() as session:
        await session.dispatch(prompt())
    assert {e[0] for e in log if e[0] != "status"} == {"registry-1", "registry-2"}


async def test_session_observers_without_registry_observers() -> None:
    rec = Recorder()
    async with registry(context_hook("a")).session(observers=(rec,)) as session:
        await session.dispatch(prompt())
    assert len(rec.calls()) == 4


async def test_observers_survive_evolve_and_add() -> None:
    rec = Recorder()
    reg = registry(context_hook("a"), observers=(rec,))
    reg = reg.evolve(stop_on_block=True).add(
        {"UserPromptSubmit": [HookMatcher(hooks=[context_hook("b")])]}
    )
    async with reg.session() as session:
        await session.dispatch(prompt())
    # (both ran: parallel handlers finish in whatever order they finish)
    assert sorted(c[1] for c in rec.calls() if c[0] == "handler_finished") == ["a", "b"]


async def test_without_observers_no_observer_work_is_done(monkeypatch: pytest.MonkeyPatch) -> None:
    import agent_hooks._dispatch._session as session_module

    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("observer work without observers")

    monkeypatch.setattr(session_module, "DispatchInfo", forbidden)
    monkeypatch.setattr(session_module, "notify", forbidden)
    reg = registry(context_hook("a"), context_hook("b"), context_hook("bg", background=True))
    async with reg.session(observers=()) as session:
        d = await session.dispatch(prompt())
        d = await session.dispatch(prompt())
    assert d.context is not None and d.context.startswith("a\nb")


# ----------------------------------------------------------- failing observers


class Raising(Observer):
    def dispatch_started(self, dispatch: DispatchInfo) -> None:
        raise RuntimeError("dispatch_started broke")

    def dispatch_finished(self, dispatch: DispatchInfo, decision: Decision[Any]) -> None:
        raise RuntimeError("dispatch_finished broke")

    def handler_started(
        self, dispatch: DispatchInfo, handler: HandlerInfo, status_message: str
    ) -> None:
        raise RuntimeError("handler_started broke")

    def handler_finished(
        self, dispatch: DispatchInfo, handler: HandlerInfo, result: HandlerResult
    ) -> None:
        raise RuntimeError("handler_finished broke")

    def __repr__(self) -> str:
        return "<Raising>"


async def test_an_observer_that_raises_never_breaks_a_dispatch(
    caplog: pytest.LogCaptureFixture,
) -> None:
    after = Recorder()
    hooks = (
        context_hook("a"),
        context_hook("b"),
        context_hook("bg", background=True),
    )
    async with registry(*hooks).session() as session:
        expected = await session.dispatch(prompt())
    caplog.set_level(logging.ERROR, logger="agent_hooks")
    reg = registry(*hooks, observers=[Raising()])
    async with reg.session(observers=[after]) as session:
        d = await session.dispatch(prompt())
        with anyio.fail_after(LIMIT):
            await after.seen("handler_finished", "bg").wait()
    assert d.output == expected.output
    assert d.output.additional_context == "a\nb"
    assert [r.outcome for r in d.results] == [Outcome.OK, Outcome.OK]
    assert d.diagnostics == ()
    # the observer after the raising one saw everything
    assert sorted(c[1] for c in after.calls() if c[0] == "handler_finished") == ["a", "b", "bg"]
    failures = [r for r in caplog.records if "observer" in r.getMessage()]
    methods = sorted({str(r.args[1]) for r in failures if isinstance(r.args, tuple)})
    assert methods == sorted(
        ["dispatch_started", "dispatch_finished", "handler_started", "handler_finished"]
    )
    assert all(r.levelno == logging.ERROR and r.exc_info is not None for r in failures)
    assert all("<Raising>" in r.getMessage() for r in failures)
    # 1 dispatch: 2 dispatch calls + 3 handlers x 2 calls
    assert len(failures) == 8


async def test_an_object_missing_methods_is_logged_and_ignored(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Partial:
        """Not an Observer subclass, and without the handler methods."""

        def __init__(self) -> None:
            self.count = 0

        def dispatch_started(self, dispatch: DispatchInfo) -> None:
            self.count += 1

        def dispatch_finished(self, dispatch: DispatchInfo, decision: Decision[Any]) -> None:
            self.count += 1

    partial = Partial()
    caplog.set_level(logging.ERROR, logger="agent_hooks")
    reg = registry(context_hook("a"), observers=[partial])
    async with reg.session() as session:
        d = await session.dispatch(prompt())
    assert d.context == "a" and partial.count == 2
    assert len([r for r in caplog.records if "observer" in r.getMessage()]) == 2


async def test_an_observer_subclass_may_override_only_some_methods() -> None:
    names: list[str] = []

    class OnlyFinished(Observer):
        def handler_finished(
            self, dispatch: DispatchInfo, handler: HandlerInfo, result: HandlerResult
        ) -> None:
            names.append(handler.name)

    async with registry(context_hook("a"), observers=[OnlyFinished()]).session() as session:
        await session.dispatch(prompt())
    assert names == ["a"]


# --------------------------------------------------------------- LoggingObserver


async def test_logging_observer_writes_records(caplog: pytest.LogCaptureFixture) -> None:
    async def raises(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        raise ValueError("broken hook")

    caplog.set_level(logging.INFO, logger="agent_hooks")
    reg = registry(
        context_hook("ctx", status_message="Adding context"),
        CallbackHook(raises, name="raises"),
        observers=[LoggingObserver()],
        source="tests/logging",
    )
    async with reg.session() as session:
        await session.dispatch(prompt())
    messages = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    texts = [m for _, _, m in messages]
    assert "UserPromptSubmit: dispatch to 2 handler(s)" in texts
    assert "UserPromptSubmit: Adding context [ctx from tests/logging]" in texts
    assert "UserPromptSubmit: Running UserPromptSubmit hook [raises from tests/logging]" in texts
    assert any(t.startswith("UserPromptSubmit: ctx ok in ") and t.endswith(" ms") for t in texts)
    assert any(t.startswith("UserPromptSubmit: raises error in ") for t in texts)
    assert "UserPromptSubmit: decided, 1 diagnostic(s)" in texts
    (warning,) = [m for m in messages if m[1] == logging.WARNING]
    assert "broken hook" in warning[2]
    assert all(name == "agent_hooks" for name, _, _ in messages)


async def test_logging_observer_custom_logger_level_and_blocked(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def deny(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")

    log = logging.getLogger("myapp.hooks")
    caplog.set_level(logging.DEBUG, logger="myapp.hooks")
    reg = HookRegistry({"PreToolUse": [HookMatcher(hooks=[CallbackHook(deny, name="deny")])]})
    async with reg.session(observers=[LoggingObserver(log, level=logging.DEBUG)]) as session:
        await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={}))
    records = [r for r in caplog.records if r.name == "myapp.hooks"]
    assert len(records) == 4
    assert all(r.levelno == logging.DEBUG for r in records)
    assert records[-1].getMessage() == "PreToolUse: decided (blocked)"
