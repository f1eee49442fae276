"""Shadow mode: a shadow handler runs and its would-be decision is recorded, never
enforced; it never weakens an enforcing one. Through the API (handler, group, source,
registry, a file's ``mode``) and through ``agent-hooks run`` on every dialect (in this
process, the answer being the point; through the resident server in processes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import (
    CallbackHook,
    CommandHook,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
    Source,
    load,
)
from agent_hooks._base._errors import RegistrationError
from agent_hooks.testing import payload
from tests.cli.test_cli_run import answer
from tests.dialect_helpers import InProcessWorkspace

pytestmark = pytest.mark.anyio


def deny(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")


def allow(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(permission_decision="allow", permission_decision_reason="fine")


CALL = PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"})


async def decide(registry: HookRegistry, input: Any = CALL) -> Any:
    async with registry.session(session_id="s") as session:
        return await session.dispatch(input)


async def test_a_shadow_deny_allows_and_says_it_would_deny() -> None:
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[deny], shadow=True)]})
    decision = await decide(registry)
    assert not decision.blocked
    assert decision.output.permission_decision is None
    assert decision.results == ()
    assert [r.handler.shadow for r in decision.shadow] == [True]
    assert decision.would_be is not None
    assert decision.would_be.permission_decision == "deny"
    assert decision.would_block


async def test_an_enforcing_deny_beside_a_shadow_allow_still_denies() -> None:
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(hooks=[CallbackHook(allow, shadow=True)]),
                HookMatcher(hooks=[deny]),
            ]
        }
    )
    decision = await decide(registry)
    assert decision.blocked
    assert decision.reason == "no"
    assert decision.would_be.permission_decision == "deny"
    assert [r.handler.name.rsplit(".", 1)[-1] for r in decision.results] == ["deny"]
    assert [r.handler.name.rsplit(".", 1)[-1] for r in decision.shadow] == ["allow"]


async def test_a_shadow_allow_never_turns_an_enforcing_ask_into_allow() -> None:
    def ask(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(permission_decision="ask")

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[ask, CallbackHook(allow, shadow=True)])]}
    )
    decision = await decide(registry)
    assert decision.output.permission_decision == "ask"


async def test_without_shadow_handlers_there_is_no_would_be() -> None:
    decision = await decide(HookRegistry({"PreToolUse": [HookMatcher(hooks=[deny])]}))
    assert decision.would_be is None and decision.shadow == ()
    assert decision.would_block  # (its own decision when nothing is in shadow)
    assert not HookRegistry({"PreToolUse": [HookMatcher(hooks=[deny])]}).compile().has_shadow


async def test_the_registry_option_puts_every_handler_in_shadow() -> None:
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[deny])]}, shadow=True)
    decision = await decide(registry)
    assert not decision.blocked and decision.would_block


async def test_a_source_in_shadow_mode_leaves_the_others_enforcing() -> None:
    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[allow])]},
        source=Source(label="rollout", shadow=True),
    ).add({"PreToolUse": [HookMatcher(hooks=[deny])]}, source="policy")
    decision = await decide(registry)
    assert decision.blocked
    assert [r.handler.source for r in decision.shadow] == ["rollout"]


async def test_a_shadow_command_hook_blocking_with_exit_2_is_only_recorded() -> None:
    hook = CommandHook(command="echo nope >&2; exit 2", shadow=True)
    decision = await decide(HookRegistry({"PreToolUse": [HookMatcher(hooks=[hook])]}))
    assert not decision.blocked
    assert decision.would_be.permission_decision == "deny"
    assert decision.would_be.permission_decision_reason == "nope"


async def test_a_shadow_copy_of_an_enforcing_command_does_not_stand_in_for_it() -> None:
    command = "echo nope >&2; exit 2"
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(hooks=[CommandHook(command=command)], shadow=True),
                HookMatcher(hooks=[CommandHook(command=command)]),
            ]
        }
    )
    decision = await decide(registry)
    assert decision.blocked  # (identical commands run once: not when one is in shadow)
    assert len(decision.shadow) == 1


async def test_in_a_chain_a_shadow_rewrite_is_not_passed_on() -> None:
    seen: list[Any] = []

    def rewrite(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(updated_input={"command": "rewritten"})

    def look(input: PreToolUseInput) -> None:
        seen.append(input.tool_input["command"])

    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[CallbackHook(rewrite, shadow=True), look])]},
        execution={"PreToolUse": "chained"},
    )
    decision = await decide(registry)
    assert seen == ["ls"]
    assert decision.output.updated_input is None
    assert decision.would_be.updated_input == {"command": "rewritten"}


def test_shadow_must_be_a_bool() -> None:
    with pytest.raises(RegistrationError, match="shadow must be True or False"):
        HookRegistry({"PreToolUse": [HookMatcher(hooks=[deny], shadow="yes")]})  # type: ignore[arg-type]


# ------------------------------------------------------------- the file format


DENY_CMD = {"type": "command", "command": "echo nope >&2; exit 2"}


@pytest.mark.parametrize(
    "doc",
    [
        {"mode": "shadow", "hooks": {"PreToolUse": [{"hooks": [DENY_CMD]}]}},
        {"hooks": {"PreToolUse": [{"mode": "shadow", "hooks": [DENY_CMD]}]}},
        {"hooks": {"PreToolUse": [{"hooks": [{**DENY_CMD, "mode": "shadow"}]}]}},
    ],
    ids=["file", "group", "handler"],
)
async def test_mode_shadow_in_a_file(tmp_path: Path, doc: dict[str, Any]) -> None:
    config = load(_write(tmp_path, doc), project_dir=str(tmp_path / "project"))
    assert [d for d in config.diagnostics if d.severity.value != "info"] == []
    decision = await decide(config.registry())
    assert not decision.blocked and decision.would_block


async def test_an_unknown_mode_is_an_error_and_enforces(tmp_path: Path) -> None:
    doc = {"hooks": {"PreToolUse": [{"mode": "shadw", "hooks": [DENY_CMD]}]}}
    config = load(_write(tmp_path, doc), project_dir=str(tmp_path / "project"))
    assert any("'mode' must be 'shadow' or 'enforce'" in str(d) for d in config.diagnostics)
    assert (await decide(config.registry())).blocked


def _write(tmp_path: Path, doc: dict[str, Any]) -> str:
    path = tmp_path / "hooks.json"
    path.write_text(json.dumps(doc))
    return str(path)


# ------------------------------------------------------------- agent-hooks run


DIALECTS = {  # dialect: what else run needs to read its payload
    "claude": [],
    "codex": [],
    "gemini": [],
    "cursor": [],
    "copilot": ["--event", "preToolUse"],
    "docker": [],
}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_run_shadow_answers_allow_where_the_hook_denies(tmp_path: Path, dialect: str) -> None:
    ws = InProcessWorkspace(tmp_path)
    conf = ws.config({"PreToolUse": [{"matcher": "*", "hooks": [DENY_CMD]}]})
    body = payload("PreToolUse", dialect=dialect, cwd=str(ws.project))
    args = ["--config", conf, "--no-daemon", "--dialect", dialect, *DIALECTS[dialect]]
    enforced = json.loads(ws.run(*args, "--report", payload=body).stdout)
    assert enforced["decided_by"] == [0]
    assert "would_be" not in enforced
    shadowed = ws.run(*args, "--shadow", payload=body)
    assert shadowed.returncode == 0, shadowed.stderr
    assert "nope" not in shadowed.stdout + shadowed.stderr
    assert "deny" not in shadowed.stdout and "block" not in shadowed.stdout
    report = json.loads(ws.run(*args, "--shadow", "--report", payload=body).stdout)
    assert report["would_be"]["decision"] in ("deny", "block")
    assert [h.get("shadow") for h in report["handlers"]] == [True]
    assert report["decided_by"] == []


def test_run_shadow_through_the_resident_server(tmp_path: Path) -> None:
    from tests.daemon.test_daemon import Box

    box = Box(tmp_path)
    try:
        box.write_config(DENY_CMD["command"])
        first = box.run("--shadow", "--report")
        box.wait_for_server()
        second = box.run("--shadow", "--report")
        for done in (first, second):
            report = json.loads(done.stdout)
            assert report["decision"] == {}
            assert report["would_be"]["decision"] == "deny"
        assert json.loads(second.stdout)["resident"] is True
        enforced = json.loads(box.run("--report").stdout)
        assert enforced["decision"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    finally:
        box.close()


def test_an_enforcing_deny_beside_a_shadow_file_still_denies_in_run(tmp_path: Path) -> None:
    ws = InProcessWorkspace(tmp_path)
    shadow = ws.write(
        "shadow.json",
        json.dumps(
            {
                "mode": "shadow",
                "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "exit 0"}]}]},
            }
        ),
    )
    enforcing = ws.config({"PreToolUse": [{"hooks": [DENY_CMD]}]})
    done = ws.run("--config", shadow, "--config", enforcing, "--no-daemon")
    assert answer(done)["hookSpecificOutput"]["permissionDecision"] == "deny"
