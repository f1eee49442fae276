"""Matching: match-all, exact-name sets, unanchored and Docker-anchored regular
expressions, the matched field from the capability table, bad regexes, matchers on
events without a matcher field, ``if`` rules, tool aliases and de-duplication.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_hooks import (
    CallbackHook,
    CommandHook,
    DiagnosticCode,
    Dialect,
    FileChangedInput,
    HandlerNode,
    HandlerResult,
    HookCall,
    HookEvent,
    HookMatcher,
    HookRegistry,
    MatcherGroup,
    NotificationInput,
    PostToolUseInput,
    PreToolUseInput,
    PreToolUseOutput,
    RegistrationError,
    SessionStartInput,
    Severity,
    Source,
    SourcedGroups,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
)
from agent_hooks._wire._dialects import CLAUDE, DEEPAGENTS, DOCKER

pytestmark = pytest.mark.anyio


def tool(name: str, **tool_input: Any) -> PreToolUseInput:
    return PreToolUseInput(tool_name=name, tool_input=tool_input)


def marker(label: str) -> Any:
    async def hook(input: Any) -> Any:
        return input.output_type(system_message=label)

    hook.__qualname__ = label
    return hook


async def fired(registry: HookRegistry, input: Any) -> list[str]:
    async with registry.session() as session:
        decision = await session.dispatch(input)
    return [r.output.system_message for r in decision.results if r.output is not None]


def one_group(matcher: str | None, event: str = "PreToolUse") -> HookRegistry:
    return HookRegistry({event: [HookMatcher(matcher=matcher, hooks=[marker("hit")])]})


def sourced(
    dialect: Dialect, event: HookEvent, matchers: Sequence[str | None], label: str = "cfg"
) -> HookRegistry:
    groups = tuple(
        MatcherGroup(
            event=event,
            matcher=m,
            nodes=(_node(f"g{i}"),),
            location=f"{event.value}[{i}]",
        )
        for i, m in enumerate(matchers)
    )
    return HookRegistry(
        sources=[SourcedGroups(source=Source(label=label, dialect=dialect), groups=groups)]
    )


def _node(label: str) -> HandlerNode:
    async def call(c: HookCall) -> HandlerResult:
        return HandlerResult(output=c.spec.output_type(system_message=label))

    return HandlerNode(name=label, kind="fake", call=call)


# ------------------------------------------------------------- matcher kinds


@pytest.mark.parametrize("matcher", [None, "", "*", "  ", " * "])
@pytest.mark.parametrize("name", ["Bash", "Edit", "mcp__github__create_issue", "weird name"])
async def test_none_empty_and_star_match_every_tool(matcher: str | None, name: str) -> None:
    assert await fired(one_group(matcher), tool(name)) == ["hit"]


@pytest.mark.parametrize(
    ("matcher", "hits", "misses"),
    [
        # ("bash", Copilot's name of the shell tool, is an alias of Bash: test_dialect_tools.py)
        ("Bash", ["Bash"], ["bash_output", "BashOutput", "XBash"]),
        ("Edit|Write", ["Edit", "Write"], ["MultiEdit", "Editor", "Edit|Write", "Read"]),
        ("Edit,Write", ["Edit", "Write"], ["MultiEdit", "Read"]),
        ("Edit, Write | Read", ["Edit", "Write", "Read"], ["MultiEdit", "Bash"]),
        (
            "mcp__memory-server__get_1",
            ["mcp__memory-server__get_1"],
            ["mcp__memory-server__get_12"],
        ),
    ],
)
async def test_plain_names_are_an_exact_name_set(
    matcher: str, hits: list[str], misses: list[str]
) -> None:
    registry = one_group(matcher)
    for name in hits:
        assert await fired(registry, tool(name)) == ["hit"], name
    for name in misses:
        assert await fired(registry, tool(name)) == [], name


@pytest.mark.parametrize(
    ("matcher", "hits", "misses"),
    [
        ("mcp__.*", ["mcp__github__create_issue", "x_mcp__y"], ["Bash"]),
        ("Edi.", ["Edit", "MultiEdit", "Editor"], ["Bash", "editor"]),
        ("^Bash$", ["Bash"], ["BashOutput", "XBash"]),
        ("Notebook.*|Write", ["NotebookEdit", "Write", "OverWrite"], ["Read"]),
        ("(?i)^bash$", ["Bash", "BASH"], ["Bash2"]),
    ],
)
async def test_anything_else_is_an_unanchored_regex(
    matcher: str, hits: list[str], misses: list[str]
) -> None:
    registry = one_group(matcher)
    for name in hits:
        assert await fired(registry, tool(name)) == ["hit"], name
    for name in misses:
        assert await fired(registry, tool(name)) == [], name


async def test_docker_dialect_anchors_regexes() -> None:
    e = HookEvent.PRE_TOOL_USE
    docker = sourced(DOCKER, e, ["Edi.", "Edit|Write", "mcp__.*"])
    claude = sourced(CLAUDE, e, ["Edi.", "Edit|Write", "mcp__.*"])
    assert await fired(docker, tool("Edit")) == ["g0", "g1"]
    assert await fired(docker, tool("MultiEdit")) == []  # search would match; ^(?:Edi.)$ does not
    assert await fired(docker, tool("Editor")) == []
    assert await fired(docker, tool("x_mcp__y")) == []
    assert await fired(docker, tool("mcp__fs__read")) == ["g2"]
    assert await fired(claude, tool("MultiEdit")) == ["g0"]
    assert await fired(claude, tool("x_mcp__y")) == ["g2"]


async def test_the_matched_field_comes_from_the_capability_table() -> None:
    registry = HookRegistry(
        {
            "SessionStart": [HookMatcher(matcher="resume|compact", hooks=[marker("session")])],
            "Notification": [HookMatcher(matcher="idle_prompt", hooks=[marker("notify")])],
            "FileChanged": [HookMatcher(matcher=r"^settings\.json$", hooks=[marker("file")])],
            "PostToolUse": [HookMatcher(matcher="Write", hooks=[marker("post")])],
        }
    )
    assert await fired(registry, SessionStartInput(source="resume")) == ["session"]
    assert await fired(registry, SessionStartInput(source="startup")) == []
    assert await fired(registry, NotificationInput(notification_type="idle_prompt")) == ["notify"]
    assert await fired(registry, NotificationInput(notification_type="auth_success")) == []
    # FileChanged matches the basename of file_path (an anchored regex proves it)
    assert await fired(registry, FileChangedInput(file_path="/repo/.claude/settings.json")) == [
        "file"
    ]
    assert await fired(registry, FileChangedInput(file_path="/repo/settings.json.bak")) == []
    assert await fired(registry, PostToolUseInput(tool_name="Write")) == ["post"]
    # a missing matched value only meets match-all groups
    assert await fired(registry, SessionStartInput()) == []


# ----------------------------------------------------------- bad matchers


async def test_an_invalid_regex_drops_only_its_group_with_a_diagnostic() -> None:
    e = HookEvent.PRE_TOOL_USE
    registry = sourced(
        CLAUDE, e, ["Bash", "(unclosed", "Ba.*", None], label="/repo/.claude/settings.json"
    )
    assert await fired(registry, tool("Bash")) == ["g0", "g2", "g3"]
    (diag,) = [d for d in registry.diagnostics if d.code is DiagnosticCode.INVALID_MATCHER]
    assert diag.source == "/repo/.claude/settings.json"
    assert diag.location == "PreToolUse[1]"
    assert "(unclosed" in diag.message
    assert diag.severity is Severity.ERROR
    assert "/repo/.claude/settings.json: PreToolUse[1]" in str(diag)


async def test_an_invalid_regex_from_python_raises_at_registration() -> None:
    # Python registration is strict (issue 14, item 4); files stay lenient (above).
    with pytest.raises(RegistrationError, match=r"PreToolUse(?s:.*)'\['"):
        HookRegistry(
            {
                "PreToolUse": [
                    HookMatcher(matcher="Bash", hooks=[marker("ok")]),
                    HookMatcher(matcher="[", hooks=[marker("broken")]),
                ],
            },
            source="app",
        )


async def test_docker_invalid_anchored_regex_is_dropped_too() -> None:
    registry = sourced(DOCKER, HookEvent.PRE_TOOL_USE, ["a)", "Bash"], label="agent.yaml")
    assert await fired(registry, tool("Bash")) == ["g1"]
    assert [d.location for d in registry.diagnostics] == ["PreToolUse[0]"]


async def test_claude_ignores_a_matcher_on_an_event_without_matcher_field() -> None:
    e = HookEvent.USER_PROMPT_SUBMIT
    registry = sourced(CLAUDE, e, ["Bash", None], label="settings.json")
    assert await fired(registry, UserPromptSubmitInput(prompt="hi")) == ["g0", "g1"]
    (diag,) = registry.diagnostics
    assert diag.code is DiagnosticCode.UNSUPPORTED_MATCHER
    assert (diag.source, diag.location) == ("settings.json", "UserPromptSubmit[0]")
    assert "runs on every firing" in diag.message


async def test_deepagents_rejects_a_matcher_on_an_event_without_matcher_field() -> None:
    e = HookEvent.USER_PROMPT_SUBMIT
    registry = sourced(DEEPAGENTS, e, ["Bash", None, "*"], label="~/.deepagents/hooks.json")
    assert await fired(registry, UserPromptSubmitInput(prompt="hi")) == ["g1", "g2"]
    (diag,) = registry.diagnostics
    assert diag.code is DiagnosticCode.UNSUPPORTED_MATCHER
    assert diag.severity is Severity.ERROR
    assert (diag.source, diag.location) == ("~/.deepagents/hooks.json", "UserPromptSubmit[0]")
    assert "dropped" in diag.message


# -------------------------------------------------------------- index


async def test_exact_name_groups_are_indexed_by_name() -> None:
    e = HookEvent.PRE_TOOL_USE
    matchers: list[str | None] = [f"Tool{i}" for i in range(200)]
    matchers[50] = "Tool50|Shared"
    matchers[150] = "Shared"
    matchers.append("Tool1.*")  # a regex group stays in order too
    registry = sourced(CLAUDE, e, matchers)
    compiled = registry.compile()
    assert [n.info.name for n in compiled.select(e, tool("Tool7"))] == ["g7"]
    assert [n.info.name for n in compiled.select(e, tool("Shared"))] == ["g50", "g150"]
    assert [n.info.name for n in compiled.select(e, tool("Tool10"))] == ["g10", "g200"]
    assert compiled.select(e, tool("Nope")) == ()
    assert await fired(registry, tool("Tool199")) == ["g199", "g200"]
    assert await fired(registry, tool("Shared")) == ["g50", "g150"]


_NAMES = ["Bash", "Write", "Edit", "Read", "apply_patch", "run_shell_command", "bash", "Other"]


@settings(max_examples=150, deadline=None)
@given(
    matchers=st.lists(
        st.one_of(
            st.none(),
            st.just("*"),
            st.lists(st.sampled_from(_NAMES), min_size=1, max_size=3).map("|".join),
        ),
        min_size=1,
        max_size=8,
    ),
    values=st.lists(st.sampled_from([*_NAMES, "Nope"]), min_size=1, max_size=4),
)
def test_a_registry_of_names_selects_as_one_with_a_regex_group(
    matchers: list[str | None], values: list[str]
) -> None:
    """Exact-name lookups worked out at registration (no regex group) select what the
    group-by-group match selects (a regex group that never matches forces it), aliases
    included."""
    e = HookEvent.PRE_TOOL_USE
    plain = sourced(CLAUDE, e, matchers).compile()
    with_regex = sourced(CLAUDE, e, [*matchers, "(?!x)x"]).compile()
    for value in values:
        names = [n.info.name for n in plain.select(e, tool(value))]
        assert names == [n.info.name for n in with_regex.select(e, tool(value))]


# -------------------------------------------------------------- if rules


def counted(label: str, calls: list[str], **options: Any) -> CallbackHook:
    async def hook(input: Any) -> Any:
        calls.append(label)
        return input.output_type(system_message=label)

    return CallbackHook(callback=hook, name=label, **options)


async def test_if_rules_filter_handlers_before_they_run() -> None:
    calls: list[str] = []
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    hooks=[
                        counted("git", calls, if_rule="Bash(git *)"),
                        counted("ts", calls, if_rule="Edit(*.ts)"),
                        counted("mcp", calls, if_rule="mcp__server__tool"),
                        counted("mcp-any", calls, if_rule="mcp__server__*"),
                        counted("always", calls),
                    ]
                )
            ]
        }
    )
    assert await fired(registry, tool("Bash", command="git status")) == ["git", "always"]
    assert await fired(registry, tool("Bash", command="ls -la")) == ["always"]
    assert await fired(registry, tool("Edit", file_path="/repo/src/app.ts")) == ["ts", "always"]
    assert await fired(registry, tool("Edit", file_path="/repo/src/app.py")) == ["always"]
    assert await fired(registry, tool("mcp__server__tool")) == ["mcp", "mcp-any", "always"]
    assert await fired(registry, tool("mcp__server__other")) == ["mcp-any", "always"]
    assert await fired(registry, tool("mcp__other__tool")) == ["always"]
    # handlers filtered out were never called
    assert calls.count("git") == 1
    assert calls.count("ts") == 1
    assert calls.count("always") == 7


async def test_a_handler_with_an_if_rule_on_a_non_tool_event_never_runs() -> None:
    calls: list[str] = []
    registry = HookRegistry(
        {
            "UserPromptSubmit": [
                HookMatcher(hooks=[counted("prompt", calls, if_rule="Bash(git *)")])
            ]
        },
        source="app",
    )
    # Claude Code: "if" only works on tool events; elsewhere the hook never runs.
    assert await fired(registry, UserPromptSubmitInput(prompt="hello")) == []
    (diag,) = registry.diagnostics
    assert diag.code is DiagnosticCode.INVALID_HANDLER
    assert "tool events only" in diag.message and "never runs" in diag.message
    assert diag.severity is Severity.WARNING
    assert (diag.source, diag.handler) == ("app", "prompt")


async def test_an_unparsable_if_rule_drops_that_handler_only() -> None:
    calls: list[str] = []
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    hooks=[counted("bad", calls, if_rule="Bash(git *"), counted("ok", calls)]
                )
            ]
        }
    )
    assert await fired(registry, tool("Bash", command="git log")) == ["ok"]
    (diag,) = registry.diagnostics
    assert diag.code is DiagnosticCode.INVALID_HANDLER
    assert diag.handler == "bad"
    assert diag.location == "PreToolUse[0].hooks[0]"


# ------------------------------------------------------------ tool aliases


async def test_tool_aliases_map_agent_names_to_public_names() -> None:
    seen: list[tuple[str, str]] = []

    async def typed(input: PreToolUseInput) -> PreToolUseOutput:
        seen.append(("typed", input.tool_name))
        return PreToolUseOutput(system_message="typed")

    async def sdk(data: dict[str, Any], tool_use_id: Any, context: Any) -> dict[str, Any]:
        seen.append(("sdk", data["tool_name"]))
        return {}

    calls: list[str] = []
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Bash", hooks=[typed, sdk]),
                HookMatcher(hooks=[counted("if-git", calls, if_rule="Bash(git *)")]),
            ]
        },
        tool_aliases={"shell": "Bash", "apply_patch": "Edit"},
    )
    async with registry.session() as session:
        decision = await session.dispatch(tool("shell", command="git push"))
        assert decision.input.tool_name == "Bash"
        assert decision.output.system_message == "typed\nif-git"
        other = await session.dispatch(tool("apply_patch"))
        assert other.input.tool_name == "Edit"
        assert other.results == ()
    assert sorted(seen) == [("sdk", "Bash"), ("typed", "Bash")]  # parallel: any order


# ------------------------------------------------------------ de-duplication


def command_node(name: str, log: list[str], key: str) -> HandlerNode:
    async def call(c: HookCall) -> HandlerResult:
        log.append(name)
        return HandlerResult(output=PreToolUseOutput(additional_context=name))

    return HandlerNode(name=name, kind="command", call=call, dedupe_key=key)


async def test_identical_command_handlers_from_several_sources_run_once() -> None:
    log: list[str] = []
    e = HookEvent.PRE_TOOL_USE

    def src(
        label: str, precedence: int, *nodes: HandlerNode, matcher: str | None = None
    ) -> SourcedGroups:
        return SourcedGroups(
            source=Source(label=label, precedence=precedence),
            groups=(MatcherGroup(event=e, matcher=matcher, nodes=nodes),),
        )

    registry = HookRegistry(
        sources=[
            src(
                "user",
                0,
                command_node("user-fmt", log, "cmd:fmt"),
                command_node("lint", log, "cmd:lint"),
            ),
            src("project", 1, command_node("project-fmt", log, "cmd:fmt"), matcher="Bash"),
            src(
                "plugin",
                2,
                command_node("plugin-fmt", log, "cmd:fmt"),
                command_node("other", log, "cmd:x"),
            ),
        ]
    )
    async with registry.session() as session:
        decision = await session.dispatch(tool("Bash"))
        assert decision.output.additional_context == "user-fmt\nlint\nother"
        assert sorted(log) == ["lint", "other", "user-fmt"]  # parallel: any order
        # per event firing: the next dispatch runs it again (once)
        await session.dispatch(tool("Bash"))
        assert log.count("user-fmt") == 2
        assert "project-fmt" not in log


async def test_identical_shell_commands_from_two_settings_files_run_once(tmp_path: Path) -> None:
    log = tmp_path / "ran.log"
    same = f"echo ran >> '{log}'"
    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(matcher="Bash", hooks=[CommandHook(command=same)])]},
        source="~/.claude/settings.json",
    ).add(
        {"PreToolUse": [HookMatcher(hooks=[CommandHook(command=same)])]},
        source=Source(label=".claude/settings.json", precedence=1),
    )
    async with registry.session(cwd=str(tmp_path)) as session:
        decision = await session.dispatch(tool("Bash", command="ls"))
    assert log.read_text() == "ran\n"
    (result,) = decision.results
    assert result.handler is not None
    assert result.handler.source == "~/.claude/settings.json"


async def test_python_callbacks_are_never_deduplicated() -> None:
    calls: list[str] = []

    async def hook(input: PreToolUseInput) -> None:
        calls.append(input.tool_name)

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[hook, hook])]}).add(
        {"PreToolUse": [HookMatcher(matcher="Bash", hooks=[hook])]}, source="plugin"
    )
    async with registry.session() as session:
        decision = await session.dispatch(tool("Bash"))
    assert calls == ["Bash"] * 3
    assert len(decision.results) == 3


async def test_userpromptsubmit_ignores_matchers_in_python_too() -> None:
    async def hook(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        return UserPromptSubmitOutput(additional_context="ctx")

    registry = HookRegistry({"UserPromptSubmit": [HookMatcher(matcher="Bash", hooks=[hook])]})
    async with registry.session() as session:
        decision = await session.dispatch(UserPromptSubmitInput(prompt="x"))
    assert decision.context == "ctx"
    assert [d.code for d in registry.diagnostics] == [DiagnosticCode.UNSUPPORTED_MATCHER]
