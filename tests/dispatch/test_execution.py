"""Execution: configuration order whatever the completion order, parallel and chained
runs, per-handler timeouts, contained failures, failure policies, fail-closed rules,
cancellation, and the shielded SessionEnd dispatch.

Completion order is forced with ``anyio.Event``s, never with sleeps; timeouts are short.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agent_hooks import (
    CallbackHook,
    Decision,
    DiagnosticCode,
    HandlerNode,
    HandlerResult,
    HookCall,
    HookEvent,
    HookMatcher,
    HookRegistry,
    MatcherGroup,
    Outcome,
    PostToolUseInput,
    PreToolUseInput,
    PreToolUseOutput,
    SessionEndInput,
    SessionEndOutput,
    Severity,
    Source,
    SourcedGroups,
    StopInput,
    ToolGuardInput,
    ToolInputTransformInput,
    ToolInputTransformOutput,
    UserPromptSubmitInput,
)
from agent_hooks._wire._dialects import DOCKER

pytestmark = pytest.mark.anyio

SHORT = 0.05  # a handler timeout that is quickly over
LIMIT = 5.0  # generous bound: a deadlock or a missed timeout fails instead of hanging


def bash(command: str = "ls") -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": command})


def node(name: str, fn: Callable[[HookCall], Awaitable[HandlerResult]], **kw: Any) -> HandlerNode:
    return HandlerNode(name=name, kind="fake", call=fn, **kw)


def in_source(
    label: str, precedence: int, event: HookEvent, *nodes: HandlerNode, dialect: Any = None
) -> SourcedGroups:
    source = Source(label=label, precedence=precedence, **({"dialect": dialect} if dialect else {}))
    return SourcedGroups(
        source=source,
        groups=(MatcherGroup(event=event, nodes=nodes, location=f"{event.value}[0]"),),
    )


async def hang_forever(input: Any) -> None:
    await anyio.sleep_forever()


async def raise_boom(input: Any) -> None:
    raise RuntimeError("boom")


# -------------------------------------------------------------------- order


class ReversedCompletion:
    """Handlers that finish in the reverse of their configuration order: handler i waits
    until handler i+1 has finished. Run one after another they would deadlock."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.done = {name: anyio.Event() for name in names}
        self.finished: list[str] = []

    def callback(self, name: str) -> Any:
        i = self.names.index(name)
        nxt = self.names[i + 1] if i + 1 < len(self.names) else None

        async def hook(input: PreToolUseInput) -> PreToolUseOutput:
            if nxt is not None:
                await self.done[nxt].wait()
            self.finished.append(name)
            self.done[name].set()
            return PreToolUseOutput(additional_context=name, system_message=f"msg {name}")

        return CallbackHook(callback=hook, name=name)

    def node(self, name: str) -> HandlerNode:
        cb = self.callback(name).callback

        async def call(c: HookCall) -> HandlerResult:
            return HandlerResult(output=await cb(c.input))

        return node(name, call)


async def test_results_reduce_in_configuration_order_not_completion_order() -> None:
    rc = ReversedCompletion(["p0", "p1", "p2", "late", "early"])
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Bash", hooks=[rc.callback("p0"), rc.callback("p1")]),
                HookMatcher(hooks=[rc.callback("p2")]),
            ]
        },
        source=Source(label="app", precedence=0),
        sources=[
            in_source("plugin", 7, HookEvent.PRE_TOOL_USE, rc.node("late")),
            in_source("managed", -3, HookEvent.PRE_TOOL_USE, rc.node("early")),
        ],
    )
    async with registry.session() as session:
        with anyio.fail_after(LIMIT):  # parallel: a sequential run would deadlock here
            decision = await session.dispatch(bash())
    assert rc.finished == ["early", "late", "p2", "p1", "p0"]
    order = ["early", "p0", "p1", "p2", "late"]
    assert [r.handler.name for r in decision.results] == order
    assert decision.output.additional_context == "\n".join(order)
    assert decision.system_messages == ("\n".join(f"msg {n}" for n in order),)
    assert [r.handler.source for r in decision.results] == [
        "managed",
        "app",
        "app",
        "app",
        "plugin",
    ]


async def test_handlers_run_in_parallel_by_default() -> None:
    a_started, b_started = anyio.Event(), anyio.Event()

    async def a(input: PreToolUseInput) -> None:
        a_started.set()
        await b_started.wait()

    async def b(input: PreToolUseInput) -> None:
        b_started.set()
        await a_started.wait()

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[a]), HookMatcher(hooks=[b])]})
    async with registry.session() as session:
        with anyio.fail_after(LIMIT):
            decision = await session.dispatch(bash())
    assert [r.outcome for r in decision.results] == [Outcome.OK, Outcome.OK]


# ------------------------------------------------------------------ chained


def appender(tag: str, log: list[str]) -> Any:
    async def hook(input: ToolInputTransformInput | PreToolUseInput) -> Any:
        log.append(f"start {tag}")
        await anyio.lowlevel.checkpoint()
        trail = [*input.tool_input.get("trail", []), tag]
        log.append(f"end {tag}")
        return input.output_type(updated_input={**input.tool_input, "trail": trail})

    hook.__qualname__ = tag
    return hook


async def test_rewrite_events_chain_by_the_table() -> None:
    log: list[str] = []
    registry = HookRegistry(
        {"ToolInputTransform": [HookMatcher(hooks=[appender(t, log) for t in "abc"])]}
    )
    async with registry.session() as session:
        decision = await session.dispatch(
            ToolInputTransformInput(tool_name="Bash", tool_input={"command": "ls"})
        )
    assert log == ["start a", "end a", "start b", "end b", "start c", "end c"]
    assert decision.input.tool_input == {"command": "ls", "trail": ["a", "b", "c"]}
    assert isinstance(decision.output, ToolInputTransformOutput)
    assert decision.output.updated_input == {"command": "ls", "trail": ["a", "b", "c"]}
    assert not [d for d in decision.diagnostics if d.code is DiagnosticCode.OVERRIDDEN]


@pytest.mark.parametrize("how", ["registry", "dispatch"])
async def test_chained_on_request(how: str) -> None:
    log: list[str] = []
    hooks = {"PreToolUse": [HookMatcher(hooks=[appender("a", log), appender("b", log)])]}
    if how == "registry":
        registry = HookRegistry(hooks, execution={"pre_tool_use": "chained"})
        kwargs: dict[str, Any] = {}
    else:
        registry = HookRegistry(hooks)
        kwargs = {"execution": "chained"}
    async with registry.session() as session:
        decision = await session.dispatch(bash(), **kwargs)
        assert log == ["start a", "end a", "start b", "end b"]
        assert decision.input.tool_input == {"command": "ls", "trail": ["a", "b"]}
        assert decision.output.updated_input == {"command": "ls", "trail": ["a", "b"]}
        # and the parallel default elsewhere is untouched: both see the original input
        parallel = await session.dispatch(bash(), execution="parallel")
        assert parallel.output.updated_input == {"command": "ls", "trail": ["b"]}
        assert parallel.input.tool_input == {"command": "ls"}


def verdict(name: str, decision: str | None, calls: list[str]) -> Any:
    async def hook(input: PreToolUseInput) -> PreToolUseOutput:
        calls.append(name)
        return PreToolUseOutput(permission_decision=decision, permission_decision_reason=name)  # type: ignore[arg-type]

    hook.__qualname__ = name
    return hook


@pytest.mark.parametrize("how", ["registry", "dispatch"])
async def test_chained_can_stop_at_the_first_deny(how: str) -> None:
    calls: list[str] = []
    hooks = {
        "PreToolUse": [
            HookMatcher(
                hooks=[
                    verdict("allow", "allow", calls),
                    verdict("deny", "deny", calls),
                    verdict("after", "allow", calls),
                ]
            )
        ]
    }
    if how == "registry":
        registry = HookRegistry(hooks, execution={"PreToolUse": "chained"}, stop_on_block=True)
        kwargs: dict[str, Any] = {}
    else:
        registry = HookRegistry(hooks)
        kwargs = {"execution": "chained", "stop_on_block": True}
    async with registry.session() as session:
        decision = await session.dispatch(bash(), **kwargs)
        assert calls == ["allow", "deny"]
        assert decision.blocked
        assert decision.reason == "deny"
        assert len(decision.results) == 2
        calls.clear()
        # without stop_on_block every handler runs, and deny still wins
        decision = await session.dispatch(bash(), execution="chained", stop_on_block=False)
        assert calls == ["allow", "deny", "after"]
        assert decision.blocked


# ----------------------------------------------------------------- timeouts


def timeout_probe(seen: dict[str, float], name: str, **kw: Any) -> HandlerNode:
    async def call(c: HookCall) -> HandlerResult:
        seen[name] = c.timeout
        return HandlerResult()

    return node(name, call, **kw)


async def test_timeout_is_the_handlers_else_the_matchers_else_the_tables() -> None:
    seen: dict[str, float] = {}
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    timeout=9,
                    hooks=[timeout_probe(seen, "own", timeout=3), timeout_probe(seen, "group")],
                ),
                HookMatcher(hooks=[timeout_probe(seen, "table")]),
            ],
            "UserPromptSubmit": [HookMatcher(hooks=[timeout_probe(seen, "prompt")])],
        },
        sources=[
            in_source(
                "docker", 0, HookEvent.PRE_TOOL_USE, timeout_probe(seen, "docker"), dialect=DOCKER
            )
        ],
    )
    async with registry.session() as session:
        await session.dispatch(bash())
        await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    assert seen == {"own": 3.0, "group": 9.0, "table": 600.0, "prompt": 30.0, "docker": 60.0}


async def test_a_timed_out_callback_is_contained_with_a_diagnostic() -> None:
    async def answer(input: PostToolUseInput) -> Any:
        return input.output_type(additional_context="still here")

    registry = HookRegistry(
        {
            "PostToolUse": [
                HookMatcher(
                    timeout=30,
                    hooks=[CallbackHook(callback=hang_forever, name="slow", timeout=SHORT), answer],
                ),
                HookMatcher(
                    timeout=SHORT, hooks=[CallbackHook(callback=hang_forever, name="slow-group")]
                ),
            ]
        },
        source="app",
    )
    async with registry.session() as session:
        with anyio.fail_after(LIMIT):
            decision = await session.dispatch(PostToolUseInput(tool_name="Bash"))
    slow, ok, slow_group = decision.results
    assert (slow.outcome, ok.outcome, slow_group.outcome) == (
        Outcome.TIMEOUT,
        Outcome.OK,
        Outcome.TIMEOUT,
    )
    assert slow.duration < LIMIT
    assert decision.output.additional_context == "still here"
    assert not decision.blocked  # PostToolUse does not fail closed
    timeouts = [d for d in decision.diagnostics if d.code is DiagnosticCode.TIMEOUT]
    assert [(d.handler, d.source) for d in timeouts] == [("slow", "app"), ("slow-group", "app")]
    assert "0.05s" in timeouts[0].message
    assert timeouts[0].location == "PostToolUse[0].hooks[0]"


async def test_raising_callbacks_and_nodes_are_contained() -> None:
    async def node_raises(c: HookCall) -> HandlerResult:
        raise ValueError("node exploded")

    async def fine(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="allow")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[raise_boom, node("exploding", node_raises), fine])]}
    )
    async with registry.session() as session:
        decision = await session.dispatch(bash())  # does not raise
    boom, exploding, ok = decision.results
    assert boom.outcome is Outcome.ERROR
    assert boom.reason == "RuntimeError: boom"
    assert exploding.outcome is Outcome.ERROR
    assert ok.outcome is Outcome.OK
    assert decision.output.permission_decision == "allow"
    errors = [d for d in decision.diagnostics if d.code is DiagnosticCode.HANDLER_ERROR]
    assert [d.handler for d in errors] == [boom.handler.name, "exploding"]
    assert "boom" in errors[0].message and "node exploded" in errors[1].message
    assert all(d.severity is Severity.ERROR and d.source == "python" for d in errors)


async def test_dispatch_never_raises_whatever_the_handlers_do() -> None:
    async def bad_type(input: Any) -> Any:
        return ["not", "an", "answer"]

    events = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionEnd"]
    hooks = [raise_boom, CallbackHook(callback=hang_forever, timeout=SHORT), bad_type]
    registry = HookRegistry({e: [HookMatcher(hooks=list(hooks))] for e in events})
    inputs = [
        bash(),
        PostToolUseInput(tool_name="Bash"),
        UserPromptSubmitInput(prompt="x"),
        StopInput(),
        SessionEndInput(reason="other"),
    ]
    async with registry.session() as session:
        for inp in inputs:
            with anyio.fail_after(LIMIT):
                decision = await session.dispatch(inp)
            assert [r.outcome for r in decision.results] == [
                Outcome.ERROR,
                Outcome.TIMEOUT,
                Outcome.ERROR,
            ]
            assert decision.should_continue


# ---------------------------------------------------------------- on_error


def failing(name: str, on_error: Any = None) -> CallbackHook:
    return CallbackHook(callback=raise_boom, name=name, on_error=on_error)


async def test_on_error_per_handler() -> None:
    async def run(policy: Any) -> Decision[PreToolUseOutput]:
        registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[failing("h", policy)])]})
        async with registry.session() as session:
            return await session.dispatch(bash())

    warn = await run(None)
    assert not warn.blocked
    assert [d.severity for d in warn.diagnostics] == [Severity.ERROR]
    assert (await run("warn")).diagnostics == warn.diagnostics

    ignore = await run("ignore")
    assert not ignore.blocked
    assert [d.severity for d in ignore.diagnostics] == [Severity.INFO]
    assert ignore.results[0].outcome is Outcome.ERROR  # still reported, quietly

    block = await run("block")
    assert block.blocked
    assert block.output.permission_decision == "deny"
    assert block.reason is not None and "h" in block.reason and "boom" in block.reason
    assert DiagnosticCode.FAILED_CLOSED in [d.code for d in block.diagnostics]


async def test_on_error_per_registry_and_per_event() -> None:
    hooks = {
        "PreToolUse": [HookMatcher(hooks=[failing("default"), failing("own-warn", "warn")])],
        "UserPromptSubmit": [HookMatcher(hooks=[failing("prompt")])],
    }
    everywhere = HookRegistry(hooks, on_error="block")
    async with everywhere.session() as session:
        d = await session.dispatch(bash())
        assert d.blocked
        assert d.reason is not None and "default" in d.reason
        assert "own-warn" not in d.reason  # the handler's own policy wins
        prompt = await session.dispatch(UserPromptSubmitInput(prompt="x"))
        assert prompt.blocked and prompt.output.decision == "block"

    per_event = HookRegistry(hooks, on_error={"user_prompt_submit": "block"})
    async with per_event.session() as session:
        assert not (await session.dispatch(bash())).blocked
        assert (await session.dispatch(UserPromptSubmitInput(prompt="x"))).blocked

    quiet = HookRegistry(hooks, on_error="ignore")
    async with quiet.session() as session:
        d = await session.dispatch(bash())
        assert [d.severity for d in d.diagnostics] == [Severity.INFO, Severity.ERROR]


async def test_docker_dialect_fails_closed_on_pre_tool_use() -> None:
    async def raises(c: HookCall) -> HandlerResult:
        raise RuntimeError("guard crashed")

    async def hangs(c: HookCall) -> HandlerResult:
        await anyio.sleep_forever()
        raise AssertionError

    def registry_for(event: HookEvent, dialect: Any, call: Any) -> HookRegistry:
        n = node("guard", call, on_error="ignore", timeout=SHORT)
        return HookRegistry(sources=[in_source("agent.yaml", 0, event, n, dialect=dialect)])

    async def decide(registry: HookRegistry, input: Any) -> Decision[Any]:
        async with registry.session() as session:
            with anyio.fail_after(LIMIT):
                return await session.dispatch(input)

    e = HookEvent.PRE_TOOL_USE
    crashed = await decide(registry_for(e, DOCKER, raises), bash())
    assert crashed.blocked  # whatever on_error says
    assert crashed.reason is not None and "guard crashed" in crashed.reason
    timed_out = await decide(registry_for(e, DOCKER, hangs), bash())
    assert timed_out.blocked
    guard = await decide(
        registry_for(HookEvent.TOOL_GUARD, DOCKER, raises), ToolGuardInput(tool_name="Bash")
    )
    assert guard.blocked
    # the claude dialect fails open under the same policy; docker fails open where the
    # table does not say fails_closed
    assert not (await decide(registry_for(e, None, raises), bash())).blocked
    post = await decide(
        registry_for(HookEvent.POST_TOOL_USE, DOCKER, raises), PostToolUseInput(tool_name="Bash")
    )
    assert not post.blocked


async def test_python_callbacks_that_time_out_block_pre_tool_use_and_prompts() -> None:
    slow = CallbackHook(callback=hang_forever, name="slow", timeout=SHORT, on_error="ignore")

    async def slow_node(c: HookCall) -> HandlerResult:
        await anyio.sleep_forever()
        raise AssertionError

    registry = HookRegistry(
        {
            "PreToolUse": [HookMatcher(matcher="Bash", hooks=[slow])],
            "UserPromptSubmit": [HookMatcher(hooks=[slow])],
            "PostToolUse": [HookMatcher(hooks=[slow])],
        }
    ).add(
        {"PreToolUse": [HookMatcher(matcher="Edit", hooks=[node("cmd", slow_node, timeout=SHORT)])]}
    )
    async with registry.session() as session:
        with anyio.fail_after(LIMIT):
            pre = await session.dispatch(bash())
            prompt = await session.dispatch(UserPromptSubmitInput(prompt="x"))
            post = await session.dispatch(PostToolUseInput(tool_name="Bash"))
            other_kind = await session.dispatch(PreToolUseInput(tool_name="Edit"))
    assert pre.blocked and pre.output.permission_decision == "deny"
    assert pre.reason is not None and "timed out" in pre.reason
    assert prompt.blocked and prompt.output.decision == "block"
    assert not post.blocked
    assert post.results[0].outcome is Outcome.TIMEOUT
    assert not other_kind.blocked  # only Python callbacks follow the SDK rule
    # but a raising Python callback follows its policy (warn: fail open)
    raising = HookRegistry({"PreToolUse": [HookMatcher(hooks=[raise_boom])]})
    async with raising.session() as session:
        assert not (await session.dispatch(bash())).blocked


# ------------------------------------------------------------- cancellation


@pytest.mark.parametrize("mode", ["parallel", "chained", "single"])
async def test_cancelling_a_dispatch_cancels_every_handler_and_propagates(mode: str) -> None:
    started: list[str] = []
    cancelled: list[str] = []
    all_started = anyio.Event()
    count = 1 if mode == "single" else 3
    expect_started = 1 if mode in ("single", "chained") else 3

    def waiter(name: str) -> Any:
        async def hook(input: PreToolUseInput) -> None:
            started.append(name)
            if len(started) == expect_started:
                all_started.set()
            try:
                await anyio.sleep_forever()
            except anyio.get_cancelled_exc_class():
                cancelled.append(name)
                raise

        return hook

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[waiter(f"h{i}") for i in range(count)])]}
    )
    after_dispatch = False
    async with registry.session() as session, anyio.create_task_group() as tg:
        scope = anyio.CancelScope()

        async def run() -> None:
            nonlocal after_dispatch
            with scope:
                await session.dispatch(bash(), execution="chained" if mode == "chained" else None)
                after_dispatch = True

        tg.start_soon(run)
        with anyio.fail_after(LIMIT):
            await all_started.wait()
        scope.cancel()
    assert scope.cancelled_caught
    assert not after_dispatch  # the cancellation propagated out of dispatch
    assert sorted(cancelled) == sorted(started)
    assert len(started) == expect_started


async def test_session_end_runs_shielded_from_the_callers_cancellation() -> None:
    started, proceed = anyio.Event(), anyio.Event()
    finished: list[str] = []

    async def cleanup(input: SessionEndInput) -> SessionEndOutput:
        started.set()
        await proceed.wait()
        await anyio.lowlevel.checkpoint()
        finished.append(input.reason or "")
        return SessionEndOutput(system_message="saved")

    registry = HookRegistry({"SessionEnd": [HookMatcher(hooks=[cleanup])]})
    decisions: list[Decision[SessionEndOutput]] = []
    async with registry.session() as session, anyio.create_task_group() as tg:
        scope = anyio.CancelScope()

        async def run() -> None:
            with scope:
                decisions.append(await session.dispatch(SessionEndInput(reason="logout")))
                await anyio.lowlevel.checkpoint()  # the caller's cancellation lands here
                decisions.clear()

        tg.start_soon(run)
        with anyio.fail_after(LIMIT):
            await started.wait()
        scope.cancel()
        await anyio.lowlevel.checkpoint()
        proceed.set()
    assert finished == ["logout"]
    assert scope.cancelled_caught
    (decision,) = decisions
    assert decision.system_messages == ("saved",)


async def test_session_end_runs_within_its_own_budget() -> None:
    registry = HookRegistry(
        {"SessionEnd": [HookMatcher(timeout=600, hooks=[hang_forever])]}, session_end_timeout=0.1
    )
    async with registry.session() as session:
        start = anyio.current_time()
        with anyio.CancelScope() as scope:
            scope.cancel()  # even dispatched from a cancelled scope, it runs, and ends in time
            decision = await session.dispatch(SessionEndInput(reason="exit"))
        elapsed = anyio.current_time() - start
    assert decision.results[0].outcome is Outcome.TIMEOUT
    assert elapsed + 0.01 >= 0.1 and elapsed < LIMIT
    assert math.isclose(decision.results[0].duration, 0.1, abs_tol=1.0)


async def test_an_exception_in_the_session_body_propagates_as_it_is() -> None:
    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CallbackHook(callback=hang_forever, background=True)])]},
        background_drain_timeout=SHORT,
    )
    with pytest.raises(KeyError, match="mine"):
        async with registry.session() as session:
            await session.dispatch(bash())
            raise KeyError("mine")
