"""The handler-kind table: the built-in kinds, an application's own factories, a
``type`` nobody registered (kept disabled with a diagnostic naming it), a factory
that raises or drops its entry, and the dispatch going on past all of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from agent_hooks import (
    DiagnosticCode,
    HandlerNode,
    HandlerResult,
    HookCall,
    HookEvent,
    Outcome,
    Severity,
    StopInput,
    UserPromptSubmitInput,
    default_kinds,
)
from agent_hooks._config._load import load
from agent_hooks._config._snapshot import LoadedConfig
from agent_hooks._handlers._kinds import (
    KindContext,
    KindFactory,
    build_handler,
    disabled_node,
    model_kinds,
)
from agent_hooks._wire._dialects import CLAUDE, DOCKER

pytestmark = pytest.mark.anyio


# ------------------------------------------------------------------- helpers


def settings(tmp_path: Path, event: str, *entries: object, matcher: str | None = None) -> Path:
    group: dict[str, Any] = {"hooks": list(entries)}
    if matcher is not None:
        group["matcher"] = matcher
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {event: [group]}}))
    return path


class NoteKind:
    """An application's own kind: ``{"type": "note", "text": ...}`` adds context.
    Records what it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[Mapping[str, Any], KindContext]] = []

    def __call__(self, entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
        self.seen.append((entry, ctx))
        text = entry.get("text")
        if not isinstance(text, str):
            ctx.report(
                DiagnosticCode.INVALID_HANDLER,
                "note handler needs 'text'; dropped",
                severity=Severity.ERROR,
            )
            return None

        async def call(c: HookCall) -> HandlerResult:
            fields: dict[str, Any] = {"additional_context": text}
            return HandlerResult(output=c.spec.output_type(**fields))

        status = entry.get("statusMessage")
        return HandlerNode(
            name=f"note:{text}",
            kind="note",
            call=call,
            status_message=status if isinstance(status, str) else None,
        )


def raising_kind(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
    raise KeyError("the factory has a bug")


def with_note(**more: KindFactory) -> dict[str, KindFactory]:
    return {**default_kinds(), "note": NoteKind(), **more}


def note(text: str) -> dict[str, str]:
    return {"type": "note", "text": text}


async def contexts(config: LoadedConfig, input: Any) -> tuple[str | None, list[str]]:
    """The dispatch's context and the kinds of the handlers that ran."""
    async with config.registry().session(cwd="/tmp") as session:
        d = await session.dispatch(input)
    return d.context, [r.handler.kind for r in d.results if r.handler]


# -------------------------------------------------------------- the tables


def test_default_kinds_are_the_built_ins_and_a_fresh_copy() -> None:
    table = default_kinds()
    assert set(table) == {"command", "python", "http", "builtin"}
    table["command"] = raising_kind
    del table["http"]
    assert set(default_kinds()) == {"command", "python", "http", "builtin"}
    assert default_kinds()["command"] is not raising_kind


def test_model_kinds_register_what_the_application_supplies() -> None:
    async def client(prompt: str, *, model: str | None, schema: str | None) -> str:
        return ""

    async def agent(prompt: str, *, input: Mapping[str, Any], model: str | None) -> str:
        return ""

    async def mcp(server: str, tool: str, arguments: Mapping[str, Any]) -> str:
        return ""

    base = set(default_kinds())
    assert set(model_kinds()) == base  # the default kinds come along
    assert set(model_kinds(client)) == base | {"model", "prompt"}
    assert set(model_kinds(agent=agent)) == base | {"agent"}
    assert set(model_kinds(mcp=mcp)) == base | {"mcp_tool"}
    assert set(model_kinds(client, agent=agent, mcp=mcp)) == base | {
        "model",
        "prompt",
        "agent",
        "mcp_tool",
    }


# ---------------------------------------------------- an application's kind


async def test_application_factory_builds_runnable_nodes(tmp_path: Path) -> None:
    kind = NoteKind()
    path = settings(
        tmp_path,
        "UserPromptSubmit",
        note("from the app kind"),
        {"type": "command", "command": "echo from a command"},
    )
    config = load(path, kinds={**default_kinds(), "note": kind})
    assert config.diagnostics == ()
    (entry, ctx), *_ = kind.seen
    assert entry == note("from the app kind")
    assert ctx.dialect is CLAUDE
    assert ctx.event is HookEvent.USER_PROMPT_SUBMIT
    assert (ctx.source, ctx.location) == (str(path), "hooks.UserPromptSubmit[0].hooks[0]")
    assert ctx.config_dir == str(tmp_path)
    context, kinds = await contexts(config, UserPromptSubmitInput(prompt="hi"))
    assert context == "from the app kind\nfrom a command"
    assert kinds == ["note", "command"]


async def test_application_factory_in_docker_yaml(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    kind = NoteKind()
    path = tmp_path / "hooks.yaml"
    path.write_text("user_prompt_submit:\n- type: note\n  text: from yaml\n")
    config = load(path, kinds={**default_kinds(), "note": kind})
    assert config.diagnostics == ()
    assert kind.seen[0][1].dialect is DOCKER
    assert kind.seen[0][1].location == "user_prompt_submit[0]"
    context, _ = await contexts(config, UserPromptSubmitInput(prompt="hi"))
    assert context == "from yaml"


async def test_application_can_replace_a_built_in_kind(tmp_path: Path) -> None:
    def command_as_note(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
        return NoteKind()({"text": f"would run {entry['command']}"}, ctx)

    path = settings(tmp_path, "UserPromptSubmit", {"type": "command", "command": "make lint"})
    config = load(path, kinds={**default_kinds(), "command": command_as_note})
    context, kinds = await contexts(config, UserPromptSubmitInput(prompt="hi"))
    assert (context, kinds) == ("would run make lint", ["note"])


async def test_any_mapping_is_a_kind_table(tmp_path: Path) -> None:
    path = settings(tmp_path, "UserPromptSubmit", note("read-only table"))
    config = load(path, kinds=MappingProxyType(with_note()))
    context, _ = await contexts(config, UserPromptSubmitInput(prompt="hi"))
    assert context == "read-only table"


def test_factory_reports_and_drops_its_entry(tmp_path: Path) -> None:
    path = settings(tmp_path, "Stop", {"type": "note"}, note("kept"))
    config = load(path, kinds=with_note())
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.INVALID_HANDLER and diag.severity is Severity.ERROR
    assert (diag.source, diag.location) == (str(path), "hooks.Stop[0].hooks[0]")
    (group,) = config.sources[0].groups
    assert [n.name for n in group.nodes] == ["note:kept"]
    assert group.node_locations == ("hooks.Stop[0].hooks[1]",)


# ---------------------------------------------------------------- unknown kind


async def test_unknown_kind_is_kept_disabled_with_a_diagnostic_naming_it(tmp_path: Path) -> None:
    path = settings(
        tmp_path,
        "UserPromptSubmit",
        {"type": "webhook", "name": "notify-slack", "statusMessage": "Posting"},
        note("still runs"),
    )
    config = load(path, kinds=with_note())
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.HANDLER_DISABLED
    assert diag.severity is Severity.ERROR
    assert "'webhook'" in diag.message and "never runs" in diag.message
    assert (diag.source, diag.location, diag.handler) == (
        str(path),
        "hooks.UserPromptSubmit[0].hooks[0]",
        "notify-slack",
    )
    (group,) = config.sources[0].groups
    disabled, kept = group.nodes
    assert (disabled.kind, disabled.name, disabled.status_message) == (
        "webhook",
        "notify-slack",
        "Posting",
    )
    assert disabled.disabled is not None and "'webhook'" in disabled.disabled
    assert kept.disabled is None
    compiled = config.registry().compile()
    (listed,) = compiled.disabled
    assert (listed.info.kind, listed.info.location) == (
        "webhook",
        "hooks.UserPromptSubmit[0].hooks[0]",
    )
    assert [cn.node.kind for cn in compiled.nodes[HookEvent.USER_PROMPT_SUBMIT]] == ["note"]
    context, kinds = await contexts(config, UserPromptSubmitInput(prompt="hi"))
    assert (context, kinds) == ("still runs", ["note"])


async def test_unknown_kind_in_docker_yaml(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    path = tmp_path / "hooks.yaml"
    path.write_text(
        "stop:\n- type: pager\n  command: page-oncall\n- type: note\n  text: after the pager\n"
    )
    config = load(path, kinds=with_note())
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.HANDLER_DISABLED and "'pager'" in diag.message
    assert (diag.source, diag.location, diag.handler) == (str(path), "stop[0]", "page-oncall")
    context, _ = await contexts(config, StopInput())
    assert context == "after the pager"


@pytest.mark.parametrize(
    ("entry", "kind", "hint"),
    [
        ({"type": "prompt", "prompt": "Safe? $ARGUMENTS"}, "prompt", "model client"),
        ({"type": "agent", "prompt": "Verify"}, "agent", "agent runner"),
        ({"type": "mcp_tool", "server": "s", "tool": "t"}, "mcp_tool", "MCP caller"),
        ({"type": "model", "model": "m", "prompt": "x"}, "model", "model client"),
    ],
)
def test_kinds_the_application_did_not_supply_are_disabled_as_warnings(
    tmp_path: Path, entry: dict[str, str], kind: str, hint: str
) -> None:
    path = settings(tmp_path, "Stop", entry)
    config = load(path)
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.HANDLER_DISABLED and diag.severity is Severity.WARNING
    assert f"{kind!r}" in diag.message and hint in diag.message and "model_kinds" in diag.message
    assert diag.location == "hooks.Stop[0].hooks[0]"
    assert [cn.node.kind for cn in config.registry().compile().disabled] == [kind]


# -------------------------------------------------------- a factory that raises


async def test_a_factory_that_raises_becomes_a_diagnostic(tmp_path: Path) -> None:
    path = settings(
        tmp_path,
        "UserPromptSubmit",
        note("before"),
        {"type": "buggy", "anything": 1},
        note("after"),
    )
    config = load(path, kinds=with_note(buggy=raising_kind))
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.INVALID_HANDLER and diag.severity is Severity.ERROR
    assert "'buggy'" in diag.message and "the factory has a bug" in diag.message
    assert (diag.source, diag.location) == (str(path), "hooks.UserPromptSubmit[0].hooks[1]")
    (group,) = config.sources[0].groups
    assert [n.name for n in group.nodes] == ["note:before", "note:after"]
    assert group.node_locations == (
        "hooks.UserPromptSubmit[0].hooks[0]",
        "hooks.UserPromptSubmit[0].hooks[2]",
    )
    context, _ = await contexts(config, UserPromptSubmitInput(prompt="hi"))
    assert context == "before\nafter"


@pytest.mark.parametrize("exc", [ValueError("bad"), TypeError("bad"), RuntimeError("bad")])
def test_build_handler_never_raises_for_a_failing_factory(exc: Exception) -> None:
    def factory(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
        raise exc

    ctx = KindContext(source="cfg.json", location="hooks.Stop[0].hooks[3]")
    assert build_handler({"type": "x"}, ctx, {"x": factory}) is None
    (diag,) = ctx.diagnostics
    assert (diag.source, diag.location) == ("cfg.json", "hooks.Stop[0].hooks[3]")
    assert "could not be built (bad)" in diag.message


# ------------------------------------------------------------ malformed entries


@pytest.mark.parametrize(
    ("entry", "code", "words"),
    [
        ("echo hi", DiagnosticCode.INVALID_HANDLER, "must be an object, got a string"),
        (["a"], DiagnosticCode.INVALID_HANDLER, "got a list"),
        ({"timeout": 5}, DiagnosticCode.INVALID_HANDLER, "no 'type'"),
        ({"type": 3}, DiagnosticCode.INVALID_HANDLER, "non-empty string, got a number"),
        ({"type": "  "}, DiagnosticCode.INVALID_HANDLER, "non-empty string"),
    ],
)
def test_build_handler_drops_malformed_entries(
    entry: object, code: DiagnosticCode, words: str
) -> None:
    ctx = KindContext(source="cfg.json", location="hooks.Stop[0].hooks[0]")
    assert build_handler(entry, ctx) is None
    (diag,) = ctx.diagnostics
    assert diag.code is code and words in diag.message
    assert (diag.source, diag.location) == ("cfg.json", "hooks.Stop[0].hooks[0]")


def test_an_entry_without_type_but_with_command_is_a_command() -> None:
    ctx = KindContext(source="cfg.json", location="hooks.Stop[0].hooks[0]")
    node = build_handler({"command": "echo hi"}, ctx)
    assert node is not None and node.kind == "command"
    (diag,) = ctx.diagnostics
    assert diag.code is DiagnosticCode.INVALID_CONFIG and diag.severity is Severity.WARNING


def test_build_handler_uses_the_default_table_without_one() -> None:
    ctx = KindContext()
    node = build_handler({"type": "note", "text": "x"}, ctx)
    assert node is not None and node.disabled is not None
    node = build_handler({"type": "note", "text": "x"}, KindContext(), with_note())
    assert node is not None and node.disabled is None


def test_disabled_node_never_runs_and_keeps_what_it_was() -> None:
    ctx = KindContext(source="s", location="l")
    node = disabled_node(
        "custom",
        {"command": "do-it", "status_message": "Doing"},
        ctx,
        why="custom handlers are switched off",
        severity=Severity.INFO,
    )
    assert (node.name, node.kind, node.status_message) == ("do-it", "custom", "Doing")
    assert node.disabled == "custom handlers are switched off"
    (diag,) = ctx.diagnostics
    assert diag.severity is Severity.INFO
    assert (
        diag.message == "custom handlers are switched off; kept as a disabled entry that never runs"
    )


async def test_a_disabled_node_is_not_selected_even_in_a_python_registry() -> None:
    from agent_hooks import HookMatcher, HookRegistry

    class Off:
        def to_node(self) -> HandlerNode:
            return disabled_node("off", {"name": "off"}, KindContext())

    registry = HookRegistry({"Stop": [HookMatcher(hooks=[Off()])]})
    assert [cn.info.name for cn in registry.compile().disabled] == ["off"]
    async with registry.session() as session:
        d = await session.dispatch(StopInput())
    assert d.results == ()


# --------------------------------------------------- model kinds from config


async def fake_client(prompt: str, *, model: str | None, schema: str | None) -> str:
    return "context"


async def fake_agent(prompt: str, *, input: Mapping[str, Any], model: str | None) -> str:
    return "context"


@pytest.mark.parametrize(
    ("entry", "timeout"),
    [
        ({"type": "prompt", "prompt": "p"}, 30.0),
        ({"type": "agent", "prompt": "p"}, 60.0),
        ({"type": "model", "prompt": "p"}, 60.0),
        ({"type": "prompt", "prompt": "p", "timeout": 12}, 12.0),
    ],
)
def test_model_kind_default_timeouts(tmp_path: Path, entry: dict[str, Any], timeout: float) -> None:
    path = settings(tmp_path, "Stop", entry)
    config = load(path, kinds=model_kinds(fake_client, agent=fake_agent))
    assert config.diagnostics == ()
    (group,) = config.sources[0].groups
    (node,) = group.nodes
    assert (node.kind, node.timeout) == (entry["type"], timeout)


def test_model_kind_fields(tmp_path: Path) -> None:
    entry = {
        "type": "prompt",
        "prompt": "Judge $ARGUMENTS",
        "name": "judge",
        "statusMessage": "Judging",
        "if": "Bash(rm *)",
        "on_error": "block",
    }
    path = settings(tmp_path, "PreToolUse", entry, matcher="Bash")
    config = load(path, kinds=model_kinds(fake_client))
    assert config.diagnostics == ()
    (node,) = config.sources[0].groups[0].nodes
    assert (node.name, node.status_message, node.if_rule, node.on_error) == (
        "judge",
        "Judging",
        "Bash(rm *)",
        "block",
    )


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"type": "prompt"}, "needs 'prompt'"),
        ({"type": "prompt", "prompt": "   "}, "needs 'prompt'"),
        ({"type": "model", "prompt": "p", "schema": "yes_no"}, "unknown model hook schema"),
    ],
)
def test_model_kind_config_errors_drop_the_entry(
    tmp_path: Path, entry: dict[str, Any], words: str
) -> None:
    path = settings(tmp_path, "Stop", entry, {"type": "prompt", "prompt": "kept"})
    config = load(path, kinds=model_kinds(fake_client))
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.INVALID_HANDLER and words in diag.message
    assert diag.location == "hooks.Stop[0].hooks[0]"
    (group,) = config.sources[0].groups
    assert [n.kind for n in group.nodes] == ["prompt"]


async def test_a_model_kind_runs_next_to_failing_entries(tmp_path: Path) -> None:
    path = settings(
        tmp_path,
        "UserPromptSubmit",
        {"type": "nobody-knows"},
        {"type": "buggy"},
        {"type": "prompt", "prompt": "Context please"},
    )
    config = load(path, kinds={**model_kinds(fake_client), "buggy": raising_kind})
    assert [d.code for d in config.diagnostics] == [
        DiagnosticCode.HANDLER_DISABLED,
        DiagnosticCode.INVALID_HANDLER,
    ]
    async with config.registry().session() as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    assert d.context == "context"
    assert [r.outcome for r in d.results] == [Outcome.OK]


def test_kind_context_placeholders() -> None:
    ctx = KindContext(project_dir="/p", plugin_root="/plug", plugin_data="/data")
    assert ctx.substitute(
        "${CLAUDE_PROJECT_DIR}/a ${PLUGIN_ROOT} ${CLAUDE_PLUGIN_DATA} ${OTHER}"
    ) == ("/p/a /plug /data ${OTHER}")
    assert KindContext().substitute("${CLAUDE_PROJECT_DIR}") == "${CLAUDE_PROJECT_DIR}"


async def test_a_kind_reports_a_failure_with_handler_result_failure(tmp_path: Path) -> None:
    """``HandlerResult.failure``: a failed run with its reason and one diagnostic after
    the kind's earlier ones, placed by the session like any other."""

    def failing(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
        async def call(c: HookCall) -> HandlerResult:
            from agent_hooks import Diagnostic

            return HandlerResult.failure(
                DiagnosticCode.NOT_STARTED,
                "the service is down",
                message="could not reach the service: down",
                earlier=[Diagnostic(code=DiagnosticCode.STDERR_TRUNCATED, message="cut")],
                exit_code=7,
            )

        return HandlerNode(name="failing", kind="failing", call=call)

    path = settings(tmp_path, "UserPromptSubmit", {"type": "failing"})
    config = load(path, kinds={**default_kinds(), "failing": failing})
    async with config.registry().session(cwd="/tmp") as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    (result,) = d.results
    assert (result.outcome, result.reason, result.exit_code) == (
        Outcome.ERROR,
        "the service is down",
        7,
    )
    assert [(x.code, x.message) for x in result.diagnostics] == [
        (DiagnosticCode.STDERR_TRUNCATED, "cut"),
        (DiagnosticCode.NOT_STARTED, "could not reach the service: down"),
    ]
    assert result.diagnostics[1].severity is Severity.ERROR
    assert {x.location for x in result.diagnostics} == {"hooks.UserPromptSubmit[0].hooks[0]"}
    assert not d.blocked  # (an error fails open under the default policy)

    timed_out = HandlerResult.failure(DiagnosticCode.TIMEOUT, "late", outcome=Outcome.TIMEOUT)
    assert timed_out.outcome is Outcome.TIMEOUT
    assert [(x.code, x.message) for x in timed_out.diagnostics] == [
        (DiagnosticCode.TIMEOUT, "late")
    ]
