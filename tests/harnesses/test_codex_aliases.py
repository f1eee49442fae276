"""Codex's ``apply_patch`` is matched by ``Write`` and ``Edit`` matchers, as Codex maps it
(the payload keeps ``tool_name: apply_patch``), so one Claude-style hook file guards both
harnesses: through the public API, a Codex ``hooks.json`` and ``agent-hooks run``."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import (
    HookMatcher,
    HookRegistry,
    PostToolUseInput,
    PreToolUseInput,
    PreToolUseOutput,
    Source,
)
from agent_hooks._config._load import load
from agent_hooks._wire._dialects import CLAUDE, CODEX, DOCKER, TOOL_MATCHER_ALIASES
from tests.cli_inprocess import cli_in_process

NO_DAEMON = "AGENT_HOOKS_NO_DAEMON"  # (kept: tests/conftest.py keeps run in-process)

pytestmark = pytest.mark.anyio

PATCH = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-old\n+new\n*** End Patch\n"


def apply_patch() -> PreToolUseInput:
    return PreToolUseInput(tool_name="apply_patch", tool_input={"command": PATCH})


def recorder(seen: list[str]) -> Any:
    async def record(input: PreToolUseInput) -> PreToolUseOutput:
        seen.append(input.tool_name)
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no edits")

    return record


@pytest.mark.parametrize("matcher", ["Write|Edit", "Edit", "Write", "Edit.*", "apply_patch", "*"])
@pytest.mark.parametrize("dialect", [CLAUDE, CODEX], ids=lambda d: d.name)
async def test_edit_and_write_matchers_select_apply_patch(matcher: str, dialect: Any) -> None:
    seen: list[str] = []
    reg = HookRegistry(
        {"PreToolUse": [HookMatcher(matcher=matcher, hooks=[recorder(seen)])]},
        source=Source(label="t", dialect=dialect),
    )
    async with reg.session() as s:
        d = await s.dispatch(apply_patch())
    assert d.blocked and d.reason == "no edits"
    assert seen == ["apply_patch"]  # the hook sees the real name
    assert d.input.tool_name == "apply_patch"


@pytest.mark.parametrize("matcher", ["Bash", "Read", "MultiEdit", "Writer"])
async def test_other_matchers_do_not(matcher: str) -> None:
    seen: list[str] = []
    reg = HookRegistry({"PreToolUse": [HookMatcher(matcher=matcher, hooks=[recorder(seen)])]})
    async with reg.session() as s:
        d = await s.dispatch(apply_patch())
    assert not d.blocked and seen == []


async def test_an_anchored_expression_is_tested_against_every_name() -> None:
    seen: list[str] = []
    reg = HookRegistry({"PreToolUse": [HookMatcher(matcher="^(Edit)$", hooks=[recorder(seen)])]})
    async with reg.session() as s:
        await s.dispatch(apply_patch())
    assert seen == ["apply_patch"]


async def test_a_group_matching_several_names_runs_once() -> None:
    seen: list[str] = []
    reg = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="apply_patch|Edit", hooks=[recorder(seen)]),
                HookMatcher(matcher="Write", hooks=[recorder(seen)]),
            ]
        }
    )
    async with reg.session() as s:
        await s.dispatch(apply_patch())
    assert seen == ["apply_patch", "apply_patch"]  # each group once, in order


async def test_post_tool_use_too_and_write_itself_unchanged() -> None:
    seen: list[str] = []

    async def record(input: PostToolUseInput) -> None:
        seen.append(input.tool_name)

    reg = HookRegistry({"PostToolUse": [HookMatcher(matcher="Write|Edit", hooks=[record])]})
    async with reg.session() as s:
        await s.dispatch(PostToolUseInput(tool_name="apply_patch", tool_input={"command": PATCH}))
        await s.dispatch(PostToolUseInput(tool_name="Write", tool_input={"file_path": "a"}))
        await s.dispatch(PostToolUseInput(tool_name="Bash", tool_input={"command": "ls"}))
    assert seen == ["apply_patch", "Write"]


def test_the_aliases_are_dialect_data() -> None:
    assert CODEX.tool_matcher_aliases == {"apply_patch": ("Write", "Edit")}
    assert TOOL_MATCHER_ALIASES["apply_patch"] == ("Write", "Edit")
    assert CLAUDE.tool_matcher_aliases == {} and DOCKER.tool_matcher_aliases == {}


async def test_a_codex_hooks_file_guards_apply_patch(tmp_path: Path) -> None:
    path = tmp_path / "codex-home" / "hooks.json"  # $CODEX_HOME/hooks.json
    path.parent.mkdir()
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "edits need review",
        }
    }
    command = f"cat > {shlex.quote(str(tmp_path / 'payload.json'))}; printf '%s' {shlex.quote(json.dumps(deny))}"
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Edit|Write",
                            "hooks": [{"type": "command", "command": command}],
                        }
                    ]
                }
            }
        )
    )
    config = load(path, format="codex-json")
    assert config.sources[0].source.dialect is CODEX
    async with config.registry().session(cwd=str(tmp_path)) as s:
        d = await s.dispatch(apply_patch())
    assert d.blocked and d.reason == "edits need review"
    payload = json.loads((tmp_path / "payload.json").read_text())
    assert payload["tool_name"] == "apply_patch"
    assert payload["tool_input"] == {"command": PATCH}


def test_agent_hooks_run_one_claude_style_file_for_both_harnesses(tmp_path: Path) -> None:
    """The same ``--config`` file, called by Claude Code (Edit) and by Codex (apply_patch)
    (``run`` in this process: the answer is the point)."""
    project, conf = tmp_path / "project", tmp_path / "conf"
    project.mkdir()
    conf.mkdir()
    cfg = conf / "agent-hooks.json"
    guard = "echo 'protected file' >&2; exit 2"
    cfg.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": guard}]}
                    ]
                }
            }
        )
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "AGENT_HOOKS_")) or k == NO_DAEMON
    }
    env.update(HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"))
    base = {"session_id": "s", "cwd": str(project), "hook_event_name": "PreToolUse"}
    payloads = {
        "claude": {**base, "tool_name": "Edit", "tool_input": {"file_path": "a.py"}},
        "codex": {
            **base,
            "turn_id": "t-1",
            "model": "gpt-5",
            "tool_name": "apply_patch",
            "tool_use_id": "call_1",
            "tool_input": {"command": PATCH},
        },
    }
    for who, payload in payloads.items():
        proc = cli_in_process(
            ["run", "--config", str(cfg)], env=env, cwd=tmp_path, input=json.dumps(payload)
        )
        assert proc.returncode == 0, (who, proc.stderr)
        out = json.loads(proc.stdout)["hookSpecificOutput"]
        assert out["permissionDecision"] == "deny", who
        assert out["permissionDecisionReason"] == "protected file", who
