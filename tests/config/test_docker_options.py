"""Docker Agent's two safety options are never accepted and ignored:

* ``strict_output: true`` is enforced as Docker Agent defines it (exit 0 must print nothing
  or one JSON object keeping the event's output contract; anything else is a failure of the
  handler, and ``pre_tool_use`` fails closed);
* ``preempt_yolo: true`` cannot be honoured by agent_hooks, so its file is refused with an
  error instead of running the group in the wrong place.
"""

from __future__ import annotations

import json
import shlex
import textwrap
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import (
    CommandHook,
    Decision,
    DiagnosticCode,
    HookInput,
    HookMatcher,
    HookRegistry,
    Outcome,
    PostToolUseInput,
    PreToolUseInput,
    SessionStartInput,
    Severity,
    Source,
    StopInput,
    UserPromptSubmitInput,
)
from agent_hooks._config._load import load
from agent_hooks._wire._dialects import DOCKER

pytest.importorskip("yaml")
pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return home


def agent_file(tmp_path: Path, hooks: str) -> Path:
    path = tmp_path / "agent.yaml"
    body = textwrap.indent(textwrap.dedent(hooks).strip(), "      ")
    path.write_text(f"agents:\n  root:\n    model: openai/gpt-4o\n    hooks:\n{body}\n")
    return path


def printing(obj: Any) -> str:
    text = obj if isinstance(obj, str) else json.dumps(obj)
    return json.dumps(f"printf '%s' {shlex.quote(text)}")  # a YAML (JSON) string


async def run(path: Path, input: HookInput[Any], tmp_path: Path) -> Decision[Any]:
    config = load(path)
    assert config.errors == (), config.errors
    async with config.registry().session(cwd=str(tmp_path)) as s:
        return await s.dispatch(input)


def codes(d: Decision[Any]) -> set[DiagnosticCode]:
    return {x.code for x in d.diagnostics}


SHELL = PreToolUseInput(tool_name="shell", tool_input={"cmd": "ls"})


# --------------------------------------------------------------------------- #
# strict_output
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    "stdout",
    [
        "looks fine to me",  # plain text
        '{"decision": "allow"} trailing',  # not one JSON object
        {"hook_specific_output": {"hook_event_name": "pre_tool_use", "colour": "red"}},
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}},
        {"suppress_output": True},
        {"hook_specific_output": {"hook_event_name": "post_tool_use"}},  # another event
        {"hook_specific_output": {"hook_event_name": "pre_tool_use", "summary": "x"}},
    ],
    ids=["plain", "trailing", "unknown", "camelCase", "suppress", "other-event", "foreign"],
)
async def test_strict_output_breaches_fail_and_pre_tool_use_fails_closed(
    tmp_path: Path, stdout: Any
) -> None:
    path = agent_file(
        tmp_path,
        f"""
        pre_tool_use:
        - matcher: shell
          hooks:
          - type: command
            command: {printing(stdout)}
            strict_output: true
        """,
    )
    d = await run(path, SHELL, tmp_path)
    assert d.blocked  # pre_tool_use fails closed
    (r,) = d.results
    assert r.reason and "strict_output" in r.reason
    assert DiagnosticCode.FAILED_CLOSED in codes(d)


async def test_the_same_answers_pass_without_strict_output(tmp_path: Path) -> None:
    path = agent_file(
        tmp_path,
        f"""
        pre_tool_use:
        - matcher: shell
          hooks:
          - type: command
            command: {printing("looks fine to me")}
        """,
    )
    d = await run(path, SHELL, tmp_path)
    assert not d.blocked and d.results[0].outcome is Outcome.OK


@pytest.mark.parametrize(
    "stdout",
    [
        "",
        {},
        {
            "hook_specific_output": {
                "hook_event_name": "pre_tool_use",
                "permission_decision": "allow",
            }
        },
    ],
    ids=["empty", "empty-object", "decision"],
)
async def test_strict_output_accepts_what_keeps_the_contract(tmp_path: Path, stdout: Any) -> None:
    path = agent_file(
        tmp_path,
        f"""
        pre_tool_use:
        - matcher: shell
          hooks:
          - type: command
            command: {printing(stdout)}
            strict_output: true
        """,
    )
    d = await run(path, SHELL, tmp_path)
    assert not d.blocked
    assert d.results[0].outcome is Outcome.OK


async def test_strict_output_on_a_context_event_rejects_plain_text(tmp_path: Path) -> None:
    """Plain stdout is context on stop for Docker Agent, except under strict_output."""
    hooks = """
        stop:
        - type: command
          command: {command}
          {strict}
    """
    lenient = agent_file(tmp_path, hooks.format(command=printing("remember X"), strict=""))
    d = await run(lenient, StopInput(), tmp_path)
    assert d.context == "remember X"
    strict = agent_file(
        tmp_path, hooks.format(command=printing("remember X"), strict="strict_output: true")
    )
    d = await run(strict, StopInput(), tmp_path)
    assert d.context is None
    (r,) = d.results
    assert r.outcome is Outcome.ERROR and "strict_output" in (r.reason or "")


async def test_strict_output_refuses_a_block_where_the_event_cannot_block(tmp_path: Path) -> None:
    path = agent_file(
        tmp_path,
        f"""
        post_tool_use:
        - matcher: shell
          hooks:
          - type: command
            command: {printing({"hook_specific_output": {"hook_event_name": "post_tool_use", "additional_context": "ok"}})}
            strict_output: true
        session_start:
        - type: command
          command: {printing({"continue": False})}
          strict_output: true
        """,
    )
    d = await run(path, PostToolUseInput(tool_name="shell"), tmp_path)
    assert d.context == "ok"
    d = await run(path, SessionStartInput(source="startup"), tmp_path)
    assert d.should_continue
    assert d.results[0].outcome is Outcome.ERROR


async def test_strict_output_failure_follows_on_error(tmp_path: Path) -> None:
    path = agent_file(
        tmp_path,
        f"""
        user_prompt_submit:
        - type: command
          command: {printing("not json")}
          strict_output: true
          on_error: block
        """,
    )
    d = await run(path, UserPromptSubmitInput(prompt="hi"), tmp_path)
    assert d.blocked


async def test_strict_output_must_be_a_boolean(tmp_path: Path) -> None:
    path = agent_file(
        tmp_path,
        """
        pre_tool_use:
        - matcher: shell
          hooks:
          - type: command
            command: ./check.sh
            strict_output: "sometimes"
        """,
    )
    config = load(path)
    (diag,) = config.errors
    assert diag.code is DiagnosticCode.INVALID_HANDLER
    assert "strict_output" in diag.message and diag.location and "strict_output" in diag.location
    assert sum(len(g.nodes) for g in config.sources[0].groups) == 0


async def test_strict_output_is_not_reported_as_ignored(tmp_path: Path) -> None:
    path = agent_file(
        tmp_path,
        """
        stop:
        - type: command
          command: "true"
          strict_output: true
        """,
    )
    config = load(path)
    assert config.diagnostics == ()
    (group,) = config.sources[0].groups
    assert group.nodes[0].strict_output


async def test_command_hook_strict_output_in_python(tmp_path: Path) -> None:
    hook = CommandHook(command="echo plain", strict_output=True)
    reg = HookRegistry(
        {"Stop": [HookMatcher(hooks=[hook])]}, source=Source(label="t", dialect=DOCKER)
    )
    async with reg.session(cwd=str(tmp_path)) as s:
        d = await s.dispatch(StopInput())
    assert d.context is None and d.results[0].outcome is Outcome.ERROR


# --------------------------------------------------------------------------- #
# preempt_yolo
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("value", ["true", '"yes"'])
def test_preempt_yolo_refuses_the_file(tmp_path: Path, value: str) -> None:
    path = agent_file(
        tmp_path,
        f"""
        pre_tool_use:
        - matcher: "*"
          preempt_yolo: {value}
          hooks:
          - type: command
            command: ./security-check.sh
        - matcher: shell
          hooks:
          - type: command
            command: ./other-check.sh
        post_tool_use:
        - type: command
          command: ./log.sh
        """,
    )
    config = load(path)
    assert config.files[0].status == "invalid"
    assert config.sources[0].groups == ()  # nothing of the file loads
    (diag,) = config.errors
    assert diag.code is DiagnosticCode.CONFIG_READ_FAILED and diag.severity is Severity.ERROR
    assert diag.location == "agents.root.hooks.pre_tool_use[0].preempt_yolo"
    assert "preempt_yolo" in diag.message and "refused" in diag.message


def test_preempt_yolo_refuses_drop_ins_and_settings_too(tmp_path: Path) -> None:
    dropin = tmp_path / "cagent" / "hooks.d" / "10-guard.yaml"
    dropin.parent.mkdir(parents=True)
    dropin.write_text(
        "pre_tool_use:\n- matcher: '*'\n  preempt_yolo: true\n  hooks:\n  - {type: command, command: ./g.sh}\n"
    )
    config = load(dropin)
    assert config.files[0].status == "invalid" and config.errors


def test_preempt_yolo_false_and_elsewhere(tmp_path: Path) -> None:
    path = agent_file(
        tmp_path,
        """
        pre_tool_use:
        - matcher: "*"
          preempt_yolo: false
          hooks:
          - type: command
            command: ./check.sh
        post_tool_use:
        - matcher: "*"
          preempt_yolo: true
          hooks:
          - type: command
            command: ./log.sh
        """,
    )
    config = load(path)
    assert config.files[0].status == "loaded"
    assert len(config.sources[0].groups) == 2
    (diag,) = config.diagnostics  # meaningless outside pre_tool_use: a warning
    assert diag.severity is Severity.WARNING and "pre_tool_use only" in diag.message


# --------------------------------------------------------------------------- #
# strict_output in the other dialects' files: enforced, never accepted and ignored
# --------------------------------------------------------------------------- #


def claude_settings(tmp_path: Path, handler: dict[str, Any]) -> Path:
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}})
    )
    return path


BASH = PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"})


async def test_strict_output_in_a_claude_file_is_enforced(tmp_path: Path) -> None:
    command = "printf '%s' 'looks fine to me'"
    strict = claude_settings(
        tmp_path, {"type": "command", "command": command, "strict_output": True}
    )
    d = await run(strict, BASH, tmp_path)
    (r,) = d.results
    assert r.outcome is Outcome.ERROR and r.reason and "strict_output" in r.reason
    lenient = claude_settings(tmp_path, {"type": "command", "command": command})
    d = await run(lenient, BASH, tmp_path)
    (r,) = d.results
    assert r.outcome is Outcome.OK


def test_strict_output_in_a_claude_file_must_be_a_boolean(tmp_path: Path) -> None:
    path = claude_settings(tmp_path, {"type": "command", "command": "true", "strict_output": "yes"})
    config = load(path)
    assert [d.message for d in config.errors] == [
        "'strict_output' must be true or false, got a string; handler dropped"
    ]
    assert config.registry().compile().nodes == {}
