"""Registration: HookMatcher, both callback signatures, handler nodes, registries from
several sources, composition, and the immutable compiled snapshot.

Every rule is exercised through the public API (``from agent_hooks import ...``).
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import attrs
import pytest

from agent_hooks import (
    CallbackHook,
    DiagnosticCode,
    HandlerNode,
    HandlerResult,
    HookCall,
    HookEvent,
    HookMatcher,
    HookOutput,
    HookRegistry,
    LoggingObserver,
    MatcherGroup,
    PreToolUseInput,
    PreToolUseOutput,
    RegistrationError,
    Severity,
    Source,
    SourcedGroups,
    StopInput,
    UnknownEventError,
    UserPromptSubmitInput,
    load,
)
from agent_hooks._dispatch._compiled import CompiledRegistry

pytestmark = pytest.mark.anyio


def bash(**tool_input: Any) -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input=tool_input or {"command": "ls"})


def ctx(text: str) -> PreToolUseOutput:
    return PreToolUseOutput(additional_context=text)


def names(decision: Any) -> list[str]:
    return [r.handler.name for r in decision.results]


# ------------------------------------------------------------------ HookMatcher


def test_hook_matcher_has_the_sdk_field_names_and_defaults() -> None:
    m = HookMatcher()
    assert m.matcher is None
    assert m.hooks == []
    assert m.timeout is None
    m2 = HookMatcher(matcher="Bash", hooks=[print], timeout=5)
    assert (m2.matcher, m2.hooks, m2.timeout) == ("Bash", [print], 5)


async def test_every_handler_kind_mixes_in_one_group_and_runs() -> None:
    seen: dict[str, Any] = {}

    async def typed_async(input: PreToolUseInput) -> PreToolUseOutput | None:
        seen["typed_async"] = input
        return ctx("typed_async")

    def typed_plain(input: PreToolUseInput) -> PreToolUseOutput:
        seen["typed_plain"] = input
        return ctx("typed_plain")

    async def sdk_async(input_data: dict[str, Any], tool_use_id: str | None, context: Any) -> Any:
        seen["sdk_async"] = (input_data, tool_use_id, context)
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "additionalContext": "sdk_async",
            }
        }

    def sdk_plain(input_data: dict[str, Any], tool_use_id: str | None, context: Any) -> Any:
        seen["sdk_plain"] = input_data
        return {
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "sdk_plain"}
        }

    async def node_call(call: HookCall) -> HandlerResult:
        seen["node"] = call
        return HandlerResult(output=ctx("node"))

    async def wrapped(input: PreToolUseInput) -> PreToolUseOutput:
        return ctx("wrapped")

    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    matcher="Bash",
                    hooks=[
                        typed_async,
                        typed_plain,
                        sdk_async,
                        sdk_plain,
                        HandlerNode(name="fake-command", kind="fake", call=node_call),
                        CallbackHook(callback=wrapped, name="wrapped-callback"),
                    ],
                )
            ]
        }
    )
    async with registry.session(session_id="s-1", cwd="/work") as session:
        decision = await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"}, tool_use_id="tu-1")
        )

    assert decision.output.additional_context == (
        "typed_async\ntyped_plain\nsdk_async\nsdk_plain\nnode\nwrapped"
    )
    assert [r.handler.kind for r in decision.results] == ["python"] * 4 + ["fake", "python"]
    assert names(decision)[4:] == ["fake-command", "wrapped-callback"]
    assert names(decision)[0].endswith("typed_async")
    # the typed callbacks get the event's input class, envelope filled in by the session
    assert isinstance(seen["typed_async"], PreToolUseInput)
    assert seen["typed_async"].session_id == "s-1"
    assert seen["typed_plain"].cwd == "/work"
    # the Claude Agent SDK callback gets the claude wire dict, the tool_use_id and a context
    data, tool_use_id, context = seen["sdk_async"]
    assert data["hook_event_name"] == "PreToolUse"
    assert data["tool_name"] == "Bash"
    assert data["tool_input"] == {"command": "ls"}
    assert data["session_id"] == "s-1"
    assert data["cwd"] == "/work"
    assert tool_use_id == "tu-1"
    assert context == {"signal": None}
    # nodes get a HookCall with the input and the event's capability row
    call = seen["node"]
    assert isinstance(call, HookCall)
    assert call.input.tool_name == "Bash"
    assert call.spec.event is HookEvent.PRE_TOOL_USE


async def test_sdk_callbacks_answer_with_wire_keys_including_continue_() -> None:
    async def stop_everything(input_data: dict[str, Any], tool_use_id: Any, context: Any) -> Any:
        return {
            "continue_": False,
            "stopReason": "budget exhausted",
            "systemMessage": "stopping",
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "no budget",
            },
        }

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[stop_everything])]})
    async with registry.session() as session:
        decision = await session.dispatch(bash())
    assert decision.should_continue is False
    assert decision.stop_reason == "budget exhausted"
    assert decision.blocked
    assert decision.output.permission_decision == "deny"
    assert decision.reason == "no budget"
    assert decision.system_messages == ("stopping",)


async def test_sdk_callback_with_defaulted_context_and_async_callable_object() -> None:
    class Checker:
        async def __call__(self, input: PreToolUseInput) -> PreToolUseOutput:
            return ctx("object")

    def sdk(input_data: dict[str, Any], tool_use_id: Any = None, context: Any = None) -> Any:
        return {"systemMessage": "defaults ok"}

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[Checker(), sdk])]})
    async with registry.session() as session:
        decision = await session.dispatch(bash())
    assert decision.output.additional_context == "object"
    assert decision.system_messages == ("defaults ok",)


@pytest.mark.parametrize(
    "key", ["PreToolUse", "pre_tool_use", "PRE_TOOL_USE", HookEvent.PRE_TOOL_USE]
)
async def test_event_keys_accept_either_spelling(key: Any) -> None:
    async def hook(input: PreToolUseInput) -> PreToolUseOutput:
        return ctx("ran")

    registry = HookRegistry({key: [HookMatcher(hooks=[hook])]})
    assert set(registry.compile().nodes) == {HookEvent.PRE_TOOL_USE}
    async with registry.session() as session:
        decision = await session.dispatch(bash())
    assert decision.output.additional_context == "ran"


# ------------------------------------------------------------------- bad input


def test_unknown_event_name_is_a_clear_error_at_registration() -> None:
    with pytest.raises(UnknownEventError, match="PreToolUze") as info:
        HookRegistry({"PreToolUze": [HookMatcher(hooks=[lambda input: None])]})
    assert "PreToolUse" in info.value.suggestions
    assert "did you mean" in str(info.value)
    with pytest.raises(UnknownEventError):
        HookRegistry().add({"SessionStrat": [HookMatcher()]})
    # a name that is no misspelling is an untyped event (tests/events/test_unknown_events.py)
    HookRegistry().add({"NoSuchEvent": [HookMatcher()]})


def two_args(a: Any, b: Any) -> None:
    return None


def no_args() -> None:
    return None


def keyword_only(input: Any, *, strict: bool) -> None:
    return None


async def four_args(a: Any, b: Any, c: Any, d: Any) -> None:
    return None


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        (two_args, ["two_args", "2 required arguments"]),
        (no_args, ["no_args"]),
        (keyword_only, ["keyword_only", "keyword-only", "strict"]),
        (four_args, ["four_args", "4 required arguments"]),
        (42, ["42", "not a callable"]),
        ("echo hi", ["echo hi", "not a callable"]),
    ],
)
def test_wrong_callback_signature_is_rejected_at_registration(bad: Any, words: list[str]) -> None:
    def fine(input: PreToolUseInput) -> None:
        return None

    with pytest.raises(RegistrationError) as info:
        HookRegistry({"PreToolUse": [HookMatcher(hooks=[fine]), HookMatcher(hooks=[fine, bad])]})
    message = str(info.value)
    for word in words:
        assert word in message
    assert "PreToolUse'][1].hooks[1]" in message  # where it was registered


def test_wrong_signature_in_callback_hook_and_add_is_rejected_too() -> None:
    with pytest.raises(RegistrationError, match="two_args"):
        HookRegistry({"Stop": [HookMatcher(hooks=[CallbackHook(callback=two_args)])]})
    with pytest.raises(RegistrationError, match="two_args"):
        HookRegistry().add({"Stop": [HookMatcher(hooks=[two_args])]}, source="extra")


def test_a_group_must_be_a_hook_matcher() -> None:
    with pytest.raises(RegistrationError, match="expected HookMatcher"):
        HookRegistry({"Stop": [{"matcher": None, "hooks": []}]})  # type: ignore[list-item]


# -------------------------------------------------------- sources, precedence


def group(event: HookEvent, *nodes: HandlerNode, matcher: str | None = None) -> MatcherGroup:
    return MatcherGroup(
        event=event, matcher=matcher, nodes=tuple(nodes), location=f"{event.value}[0]"
    )


def recorder(name: str, log: list[str]) -> HandlerNode:
    async def call(c: HookCall) -> HandlerResult:
        log.append(name)
        return HandlerResult(output=ctx(name))

    return HandlerNode(name=name, kind="fake", call=call)


async def test_groups_from_other_sources_run_by_precedence_then_registration_order() -> None:
    log: list[str] = []
    e = HookEvent.PRE_TOOL_USE
    late = SourcedGroups(
        source=Source(label="plugin", precedence=10), groups=(group(e, recorder("plugin", log)),)
    )
    user = SourcedGroups(
        source=Source(label="~/.claude/settings.json", precedence=0),
        groups=(group(e, recorder("user", log)),),
    )
    early = SourcedGroups(
        source=Source(label="managed", precedence=-5), groups=(group(e, recorder("managed", log)),)
    )

    async def python_hook(input: PreToolUseInput) -> PreToolUseOutput:
        return ctx("python")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[python_hook])]},
        source=Source(label="app", precedence=0),
        sources=[late, user, early],
    )
    async with registry.session() as session:
        decision = await session.dispatch(bash())
    # precedence -5, then the two at 0 in the order they were given, then 10
    assert decision.output.additional_context == "managed\npython\nuser\nplugin"
    assert [r.handler.source for r in decision.results] == [
        "managed",
        "app",
        "~/.claude/settings.json",
        "plugin",
    ]


async def test_registries_compose_and_stay_values() -> None:
    async def a(input: PreToolUseInput) -> PreToolUseOutput:
        return ctx("a")

    async def b(input: PreToolUseInput) -> PreToolUseOutput:
        return ctx("b")

    async def c(input: PreToolUseInput) -> PreToolUseOutput:
        return ctx("c")

    first = HookRegistry({"PreToolUse": [HookMatcher(hooks=[a])]}, source="first")
    second = HookRegistry({"pre_tool_use": [HookMatcher(hooks=[b])]}, source="second")
    both = first.add(second).add(
        {"PreToolUse": [HookMatcher(hooks=[c])]}, source=Source(label="third", precedence=-1)
    )
    assert both is not first
    assert len(first.sources) == 1  # adding never edits a registry
    async with both.session() as session:
        decision = await session.dispatch(bash())
    assert decision.output.additional_context == "c\na\nb"
    assert [r.handler.source for r in decision.results] == ["third", "first", "second"]
    async with first.session() as session:
        assert (await session.dispatch(bash())).output.additional_context == "a"
    # options evolve into a new registry too
    evolved = first.evolve(stop_continuation_cap=3)
    assert evolved.stop_continuation_cap == 3
    assert first.stop_continuation_cap == 8


async def test_compiled_snapshot_is_immutable_until_rebuilt() -> None:
    async def a(input: PreToolUseInput) -> PreToolUseOutput:
        return ctx("a")

    async def b(input: PreToolUseInput) -> PreToolUseOutput:
        return ctx("b")

    matcher = HookMatcher(matcher="Bash", hooks=[a])
    hooks: dict[str, list[HookMatcher]] = {"PreToolUse": [matcher]}
    registry = HookRegistry(hooks)
    compiled = registry.compile()
    assert isinstance(compiled, CompiledRegistry)
    assert registry.compile() is compiled  # built once

    # edit every source object after registration and compilation
    matcher.hooks.append(b)
    matcher.matcher = "Edit"
    hooks["PreToolUse"].append(HookMatcher(hooks=[b]))
    hooks["Stop"] = [HookMatcher(hooks=[b])]

    async with registry.session() as session:
        decision = await session.dispatch(bash())
        assert decision.output.additional_context == "a"
        assert (await session.dispatch(StopInput())).results == ()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        compiled.nodes = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        compiled.nodes[HookEvent.STOP] = ()  # type: ignore[index]

    # a rebuilt registry sees the edits
    rebuilt = HookRegistry(hooks)
    async with rebuilt.session() as session:
        assert (await session.dispatch(bash())).output.additional_context == "b"
        edit = PreToolUseInput(tool_name="Edit", tool_input={"file_path": "a"})
        assert (await session.dispatch(edit)).output.additional_context == "a\nb\nb"
        assert len((await session.dispatch(StopInput())).results) == 1


async def test_options_edited_after_compiling_change_nothing() -> None:
    seen: list[str] = []

    async def record(input: PreToolUseInput) -> PreToolUseOutput:
        seen.append(input.tool_name)
        return PreToolUseOutput(updated_input={"step": len(seen)})

    aliases = {"shell": "Bash"}
    execution: dict[str, Any] = {"PreToolUse": "parallel"}
    env = {"PLUGIN_ROOT": "/a"}
    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(matcher="Bash|sh", hooks=[record, record])]},
        source=Source(label="app", env=env),
        tool_aliases=aliases,
        execution=execution,
    )
    registry.compile()
    aliases["shell"] = "sh"
    execution["PreToolUse"] = "chained"
    env["PLUGIN_ROOT"] = "/b"
    async with registry.session() as session:
        decision = await session.dispatch(PreToolUseInput(tool_name="shell"))
    assert seen == ["Bash", "Bash"]  # the alias as compiled
    assert any(d.code.value == "overridden" for d in decision.diagnostics)  # still parallel
    (cn, _) = registry.compile().nodes[HookEvent.PRE_TOOL_USE]
    assert cn.env == {"PLUGIN_ROOT": "/a"}


async def test_sessions_keep_the_snapshot_they_were_opened_with() -> None:
    async def a(input: PreToolUseInput) -> PreToolUseOutput:
        return ctx("a")

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[a])]})
    async with registry.session() as session:
        bigger = registry.add({"PreToolUse": [HookMatcher(hooks=[a])]})
        assert session.compiled is registry.compile()
        assert len((await session.dispatch(bash())).results) == 1
        async with bigger.session() as other:
            assert len((await other.dispatch(bash())).results) == 2


async def test_callbacks_are_normalised_into_handler_nodes_once() -> None:
    calls = 0

    async def typed(input: UserPromptSubmitInput) -> None:
        nonlocal calls
        calls += 1

    registry = HookRegistry({"UserPromptSubmit": [HookMatcher(hooks=[typed])]})
    (node,) = registry.compile().nodes[HookEvent.USER_PROMPT_SUBMIT]
    assert isinstance(node.node, HandlerNode)
    assert node.node.kind == "python"
    assert node.info.location == "UserPromptSubmit[0].hooks[0]"
    async with registry.session() as session:
        for _ in range(3):
            decision = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
            assert decision.output == decision.output.__class__()
    assert calls == 3


async def test_base_hook_output_is_accepted_from_typed_callbacks() -> None:
    async def generic(input: Any) -> HookOutput:
        return HookOutput(system_message="hello")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[generic])], "Stop": [HookMatcher(hooks=[generic])]}
    )
    async with registry.session() as session:
        assert (await session.dispatch(bash())).system_messages == ("hello",)
        assert (await session.dispatch(StopInput())).system_messages == ("hello",)


async def test_plain_callbacks_can_run_in_a_worker_thread() -> None:
    def slow(input: PreToolUseInput) -> PreToolUseOutput:
        return ctx("thread")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CallbackHook(callback=slow, thread=True)])]}
    )
    async with registry.session() as session:
        with anyio.fail_after(5):
            decision = await session.dispatch(bash())
    assert decision.output.additional_context == "thread"


def test_hooks_must_be_a_list() -> None:
    async def fn(input: PreToolUseInput) -> None:
        return None

    with pytest.raises(RegistrationError, match=r"hooks=\[fn\]"):
        HookRegistry({"PreToolUse": [HookMatcher(hooks=fn)]})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"execution": {"PreToolUse": "sequential"}}, RegistrationError),
        ({"execution": {"PreToolUsed": "chained"}}, UnknownEventError),
        ({"on_error": "explode"}, RegistrationError),
        ({"on_error": {"PreToolUse": "nope"}}, RegistrationError),
        ({"on_error": {"PreToolUze": "block"}}, UnknownEventError),
        ({"max_processes": 0}, RegistrationError),
        ({"stop_continuation_cap": -1}, RegistrationError),
    ],
)
def test_registry_options_are_checked_when_built(
    options: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error):
        HookRegistry({}, **options)
    with pytest.raises(error):
        HookRegistry({}).evolve(**options)


def test_an_sdk_callback_with_defaults_is_still_an_sdk_callback() -> None:
    from agent_hooks._handlers._callbacks import callback_signature

    def sdk(input_data, tool_use_id=None, context=None):  # type: ignore[no-untyped-def]
        return {}

    def typed(input: PreToolUseInput, note: str = "", more: int = 0) -> None:
        return None

    assert callback_signature(sdk) == "sdk"
    assert callback_signature(typed) == "typed"


# ------------------------------------------- registration mistakes raise (issue 14)


async def noop(input: Any) -> None:
    return None


def _file_diagnostic(tmp_path: Path, matcher: object) -> Any:
    """The diagnostic the config loader gives a file group with ``matcher``."""
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": matcher, "hooks": [{"type": "command", "command": "true"}]},
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]},
                    ]
                }
            }
        )
    )
    registry = load(path, format="claude-settings").registry()
    (diag,) = [d for d in registry.diagnostics if d.severity is Severity.ERROR]
    # files stay lenient: the bad group is dropped, its neighbour loads
    assert [cn.info.matcher for cn in registry.compile().nodes[HookEvent.PRE_TOOL_USE]] == ["Bash"]
    return diag


@pytest.mark.parametrize("pattern", ["[", "Bash(", "*Edit"])
def test_an_invalid_regex_raises_with_the_file_loaders_words(pattern: str, tmp_path: Path) -> None:
    diag = _file_diagnostic(tmp_path, pattern)
    assert diag.code is DiagnosticCode.INVALID_MATCHER
    words = diag.message.removesuffix("; group dropped")
    assert "is not a valid regular expression" in words
    with pytest.raises(RegistrationError) as raised:
        HookRegistry(
            {
                "PreToolUse": [
                    HookMatcher(matcher="Bash", hooks=[noop]),
                    HookMatcher(matcher=pattern, hooks=[noop]),
                ]
            }
        )
    assert str(raised.value) == f"hooks['PreToolUse'][1]: {words}"
    with pytest.raises(RegistrationError, match="is not a valid regular expression"):
        HookRegistry({}).add(
            {
                "Stop": [HookMatcher(hooks=[noop])],
                "PostToolUse": [HookMatcher(matcher=pattern, hooks=[noop])],
            }
        )


@pytest.mark.parametrize("matcher", [5, ["Bash", "Edit"], b"Bash"])
def test_a_matcher_that_is_not_a_string_raises_registration_error(
    matcher: object, tmp_path: Path
) -> None:
    with pytest.raises(RegistrationError) as raised:
        HookRegistry({"PreToolUse": [HookMatcher(matcher=matcher, hooks=[noop])]})  # type: ignore[arg-type]
    message = str(raised.value)
    assert message.startswith("hooks['PreToolUse'][0]: 'matcher' must be a string, got ")
    assert f"builtins.{type(matcher).__name__}" in message


def test_a_matcher_that_is_not_a_string_in_groups_built_by_hand_is_a_diagnostic() -> None:
    bad = MatcherGroup(event=HookEvent.PRE_TOOL_USE, matcher=7, nodes=())  # type: ignore[arg-type]
    registry = HookRegistry(sources=[SourcedGroups(source=Source(label="mine"), groups=(bad,))])
    (diag,) = registry.diagnostics
    assert diag.code is DiagnosticCode.INVALID_MATCHER
    assert diag.message == "'matcher' must be a string, got builtins.int 7; group dropped"


def test_a_bad_on_failure_raises() -> None:
    with pytest.raises(RegistrationError, match="on_failure must be 'continue', 'block'"):
        HookRegistry({"Stop": [HookMatcher(hooks=[noop], on_failure="stop")]})  # type: ignore[arg-type]


class NotAMatcher:
    matcher = "Bash"


@pytest.mark.parametrize(
    ("group", "named"),
    [
        ({"matcher": "Bash", "hooks": []}, "builtins.dict"),
        (NotAMatcher(), f"{__name__}.NotAMatcher"),
        (HookMatcher, "builtins.type"),
        ("Bash", "builtins.str"),
    ],
)
def test_a_refused_group_is_named_by_module_and_class(group: object, named: str) -> None:
    with pytest.raises(RegistrationError) as raised:
        HookRegistry({"PreToolUse": [group]})  # type: ignore[list-item]
    assert f"hooks['PreToolUse'][0] is {named}, expected HookMatcher" in str(raised.value)


def test_refused_hooks_and_mappings_are_named_by_module_and_class() -> None:
    with pytest.raises(RegistrationError, match=r"hooks\[0\]: hook 42 \(builtins\.int\) is not"):
        HookRegistry({"Stop": [HookMatcher(hooks=[42])]})
    with pytest.raises(
        RegistrationError, match=r"must be a list of HookMatcher, got builtins\.str"
    ):
        HookRegistry({"Stop": "Bash"})  # type: ignore[dict-item]
    with pytest.raises(RegistrationError, match=r"must be a mapping .* got builtins\.list"):
        HookRegistry([HookMatcher()])  # type: ignore[arg-type]


async def test_the_claude_agent_sdks_own_hook_matcher_is_accepted() -> None:
    sdk = pytest.importorskip("claude_agent_sdk")
    seen: list[str] = []

    async def sdk_hook(input_data: dict[str, Any], tool_use_id: str | None, context: Any) -> Any:
        seen.append(f"sdk {input_data['tool_name']} {tool_use_id}")
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "a"}}

    async def typed(input: PreToolUseInput) -> PreToolUseOutput:
        seen.append("typed")
        return ctx("b")

    async def broken(input_data: dict[str, Any], tool_use_id: str | None, context: Any) -> Any:
        raise RuntimeError("down")

    registry = HookRegistry(
        {
            "PreToolUse": [
                sdk.HookMatcher(matcher="Bash", hooks=[sdk_hook, typed], timeout=5),
                HookMatcher(matcher="Edit", hooks=[typed]),
            ],
            "Stop": sdk.HookMatcher(hooks=[broken], on_failure="block"),  # one, not a list
        }
    )
    groups = registry.sources[0].groups
    assert [(g.matcher, g.timeout, g.on_error) for g in groups] == [
        ("Bash", 5, None),
        ("Edit", None, None),
        (None, None, "block"),
    ]
    async with registry.session(session_id="s") as session:
        decision = await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"}, tool_use_id="t1")
        )
        stop = await session.dispatch(StopInput())
    assert sorted(seen) == ["sdk Bash t1", "typed"]  # (they run in parallel)
    assert decision.context == "a\nb"
    assert stop.blocked  # on_failure="block": the callback's failure fails closed


def test_an_invalid_regex_in_an_sdk_hook_matcher_raises_too() -> None:
    sdk = pytest.importorskip("claude_agent_sdk")
    with pytest.raises(RegistrationError, match=r"hooks\['PreToolUse'\]\[0\]: matcher '\('"):
        HookRegistry({"PreToolUse": [sdk.HookMatcher(matcher="(", hooks=[noop])]})


# ------------------------------------------------- error diagnostics are logged


def _logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith("agent_hooks") and r.levelno >= logging.WARNING
    ]


def test_errors_from_files_are_logged_once_per_compile(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="agent_hooks")
    diag = _file_diagnostic(tmp_path, "[")  # (compiles once)
    assert _logged(caplog) == [f"agent_hooks registry: {diag}"]
    (record,) = caplog.records
    assert record.name == "agent_hooks.diagnostics"
    assert record.levelno == logging.WARNING
    assert record.diagnostic == diag  # type: ignore[attr-defined]


async def test_errors_from_a_dispatch_are_logged_once_per_dispatch_and_others_not(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken(input: PreToolUseInput) -> None:
        raise ValueError("broken hook")

    async def quiet(input: PreToolUseInput) -> None:
        raise ValueError("quiet hook")

    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(hooks=[broken]),
                HookMatcher(hooks=[CallbackHook(quiet, on_error="ignore")]),
            ],
            "Stop": [HookMatcher(matcher="anything", hooks=[noop])],  # an info diagnostic
        }
    )
    caplog.set_level(logging.DEBUG, logger="agent_hooks")
    assert registry.diagnostics and _logged(caplog) == []  # infos are not logged
    async with registry.session(session_id="s") as session:
        first = await session.dispatch(bash())
        assert len(_logged(caplog)) == 1
        await session.dispatch(bash())
    logged = _logged(caplog)
    (error,) = [d for d in first.diagnostics if d.severity is Severity.ERROR]
    assert logged == [f"agent_hooks PreToolUse dispatch: {error}"] * 2
    assert "broken hook" in logged[0]
    assert not any("quiet hook" in m for m in logged)  # on_error="ignore": an info


async def test_a_logging_observer_is_not_doubled(caplog: pytest.LogCaptureFixture) -> None:
    async def broken(input: PreToolUseInput) -> None:
        raise ValueError("broken hook")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[broken])]}, observers=[LoggingObserver()]
    )
    caplog.set_level(logging.WARNING, logger="agent_hooks")
    async with registry.session(session_id="s") as session:
        await session.dispatch(bash())
    assert len([m for m in _logged(caplog) if "broken hook" in m]) == 1


def test_an_error_is_visible_without_any_logging_set_up(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import anyio
        from agent_hooks import HookMatcher, HookRegistry, PreToolUseInput

        async def broken(input):
            raise ValueError("broken hook")

        async def main():
            registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[broken])]})
            async with registry.session(session_id="s") as session:
                await session.dispatch(PreToolUseInput(tool_name="Bash"))

        anyio.run(main)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "agent_hooks PreToolUse dispatch: python: PreToolUse[0].hooks[0]: error handler_error "
        "[__main__.broken]: hook raised ValueError: broken hook"
    ]
