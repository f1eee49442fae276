"""Claude Code conformance corners (the hooks reference decides), through the public API
and ``agent-hooks run``:

* PermissionRequest: exit 2 is not honoured in the claude dialect; only the ``decision``
  object decides (other dialects keep their own rule: they deny);
* ``suppressOutput`` has no effect: a ``systemMessage`` is delivered;
* ``terminalSequence`` outside the allowlist (OSC 0/1/2/9/99/777, BEL) is ignored with a
  diagnostic;
* message strings over 10,000 characters are saved to a file of the session and replaced
  by a preview naming it; the file goes with the session;
* WorktreeCreate: any failure (a non-zero exit whatever the JSON says, a raise) fails the
  creation; ConfigChange from ``policy_settings`` cannot be blocked.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import (
    CommandHook,
    ConfigChangeInput,
    ConfigChangeOutput,
    Decision,
    DiagnosticCode,
    HookInput,
    HookMatcher,
    HookRegistry,
    NotificationInput,
    NotificationOutput,
    Outcome,
    PermissionAnswer,
    PermissionRequestInput,
    PreToolUseInput,
    PreToolUseOutput,
    SessionStartInput,
    Source,
    StopInput,
    UserPromptSubmitInput,
    WorktreeCreateInput,
)
from agent_hooks._wire._dialects import CLAUDE, CODEX, DEEPAGENTS, DOCKER
from tests.cli_inprocess import cli_in_process

NO_DAEMON = "AGENT_HOOKS_NO_DAEMON"  # (kept: tests/conftest.py keeps run in-process)

pytestmark = pytest.mark.anyio

PY = sys.executable


def registry(
    hooks: Iterable[Any], event: Any, *, dialect: Any = None, **options: Any
) -> HookRegistry:
    source = Source(label="test", dialect=dialect or CLAUDE)
    return HookRegistry({event: [HookMatcher(hooks=list(hooks))]}, source=source, **options)


async def dispatch(
    hooks: Any, input: HookInput[Any], tmp_path: Path, *, dialect: Any = None, **options: Any
) -> Decision[Any]:
    hooks = [hooks] if not isinstance(hooks, list) else hooks
    reg = registry(hooks, input.event, dialect=dialect, **options)
    async with reg.session(cwd=str(tmp_path), project_dir=str(tmp_path)) as s:
        return await s.dispatch(input)


def sh(script: str) -> CommandHook:
    return CommandHook(command=script)


def prints(obj: Any, code: int = 0, stderr: str = "") -> CommandHook:
    """A hook printing ``obj`` as JSON (and ``stderr``), exiting ``code``."""
    script = f"printf '%s' {shlex.quote(json.dumps(obj))}"
    if stderr:
        script += f"; printf '%s' {shlex.quote(stderr)} >&2"
    return sh(f"{script}; exit {code}")


def codes(d: Decision[Any]) -> set[DiagnosticCode]:
    return {x.code for x in d.diagnostics}


def only(d: Decision[Any]) -> Any:
    assert len(d.results) == 1, d.results
    return d.results[0]


PERMISSION = PermissionRequestInput(tool_name="Bash", tool_input={"command": "rm -rf build"})


# --------------------------------------------------------------------------- #
# PermissionRequest: exit 2 is not honoured in the claude dialect
# --------------------------------------------------------------------------- #


async def test_permission_request_exit_2_changes_nothing_in_the_claude_dialect(
    tmp_path: Path,
) -> None:
    d = await dispatch(sh("echo 'not like this' >&2; exit 2"), PERMISSION, tmp_path)
    assert not d.blocked
    assert d.output.permission_decision is None
    r = only(d)
    assert r.exit_code == 2 and r.outcome is Outcome.OK
    (diag,) = [x for x in r.diagnostics if x.code is DiagnosticCode.NONZERO_EXIT]
    assert "not honoured" in diag.message and "PermissionRequest" in diag.message
    assert "not like this" not in (d.reason or "")  # stderr is discarded


async def test_permission_request_decision_object_still_decides_on_exit_2(tmp_path: Path) -> None:
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "from the decision"},
        }
    }
    d = await dispatch(prints(deny, 2, "from stderr"), PERMISSION, tmp_path)
    assert d.blocked and d.reason == "from the decision"
    allow = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"},
        }
    }
    d = await dispatch(prints(allow, 2, "from stderr"), PERMISSION, tmp_path)
    assert not d.blocked and d.output.permission_decision.behavior == "allow"


@pytest.mark.parametrize("dialect", [DEEPAGENTS, DOCKER, CODEX], ids=lambda d: d.name)
async def test_permission_request_exit_2_denies_in_other_dialects(
    tmp_path: Path, dialect: Any
) -> None:
    d = await dispatch(
        sh("echo 'not like this' >&2; exit 2"), PERMISSION, tmp_path, dialect=dialect
    )
    assert d.blocked
    assert d.output.permission_decision.behavior == "deny"
    assert d.reason == "not like this"


async def test_permission_request_exit_2_leaves_the_permission_flow_to_the_user(
    tmp_path: Path,
) -> None:
    """call_tool: PreToolUse asks, the PermissionRequest hook exits 2, the user decides."""
    ask = PreToolUseOutput(permission_decision="ask", permission_decision_reason="check it")

    async def asks(input: PreToolUseInput) -> PreToolUseOutput:
        return ask

    reg = HookRegistry(
        {
            "PreToolUse": [HookMatcher(hooks=[asks])],
            "PermissionRequest": [HookMatcher(hooks=[sh("echo nope >&2; exit 2")])],
        }
    )
    prompts: list[Any] = []

    def user(prompt: Any) -> PermissionAnswer:
        prompts.append(prompt)
        return PermissionAnswer(allow=True)

    async with reg.session(cwd=str(tmp_path)) as s:
        outcome = await s.call_tool("Bash", {"command": "ls"}, lambda i: "done", permission=user)
    assert outcome.ran and outcome.result == "done"
    assert [p.hook_decision for p in prompts] == ["ask"]


# --------------------------------------------------------------------------- #
# suppressOutput has no effect on systemMessage
# --------------------------------------------------------------------------- #


async def test_system_message_is_delivered_whatever_suppress_output_says(tmp_path: Path) -> None:
    command = prints({"systemMessage": "from the command", "suppressOutput": True})

    async def typed(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(system_message="typed", suppress_output=True)

    d = await dispatch([command, typed], PreToolUseInput(tool_name="Bash"), tmp_path)
    assert d.system_messages == ("from the command\ntyped",)
    assert d.output.suppress_output is True  # passed on, acted on by nobody


def test_agent_hooks_run_delivers_a_suppressed_system_message(tmp_path: Path) -> None:
    answer = json.dumps({"systemMessage": "heads up", "suppressOutput": True})
    hooks = command_hooks("Stop", f"printf '%s' {shlex.quote(answer)}")
    out = answer_of(run_cli(tmp_path, hooks, {"hook_event_name": "Stop"}))
    assert out["systemMessage"] == "heads up"


# --------------------------------------------------------------------------- #
# terminalSequence: the allowlist
# --------------------------------------------------------------------------- #

ALLOWED = [
    "\x07",
    "\x1b]0;build done\x07",
    "\x1b]2;title\x1b\\",
    "\x1b]9;4;1;50\x07",
    "\x1b]99;i=1:d=0;Done\x1b\\",
    "\x1b]777;notify;Claude Code;Needs you\x07\x07",
]
REFUSED = [
    "\x1b[31mred",  # CSI colour
    "\x1b]8;;https://example.com\x07link\x1b]8;;\x07",  # OSC 8 hyperlink
    "\x1b]52;c;cm0gLXJmIH4=\x07",  # OSC 52 clipboard write
    "\x1b]1337;File=x\x07",  # OSC 1337
    "\x1b]4;1;rgb:ff/00/00\x07",  # OSC palette
    "\x1b]0;title\x07 and text",  # text outside a sequence
    "\x1b]0;ti\ntle\x07",  # a control character inside
]


@pytest.mark.parametrize("sequence", ALLOWED, ids=repr)
async def test_allowed_terminal_sequences_pass(tmp_path: Path, sequence: str) -> None:
    d = await dispatch(
        prints({"terminalSequence": sequence}), NotificationInput(message="m"), tmp_path
    )
    assert d.output.terminal_sequence == sequence
    assert DiagnosticCode.INVALID_VALUE not in codes(d)


@pytest.mark.parametrize("sequence", REFUSED, ids=repr)
async def test_other_terminal_sequences_are_ignored_with_a_diagnostic(
    tmp_path: Path, sequence: str
) -> None:
    answer = {"terminalSequence": sequence, "systemMessage": "kept"}
    d = await dispatch(prints(answer), StopInput(), tmp_path)
    assert d.output.terminal_sequence is None
    assert d.system_messages == ("kept",)  # the rest of the answer stands
    (diag,) = [x for x in d.diagnostics if x.code is DiagnosticCode.INVALID_VALUE]
    assert "terminal_sequence" in diag.message and diag.handler


async def test_terminal_sequence_rule_holds_for_callbacks_too(tmp_path: Path) -> None:
    async def bad(input: NotificationInput) -> NotificationOutput:
        return NotificationOutput(terminal_sequence="\x1b]52;c;ZXZpbA==\x07")

    async def good(input: NotificationInput) -> NotificationOutput:
        return NotificationOutput(terminal_sequence="\x07")

    d = await dispatch([bad, good], NotificationInput(message="m"), tmp_path)
    assert d.output.terminal_sequence == "\x07"
    assert DiagnosticCode.INVALID_VALUE in codes(d)


# --------------------------------------------------------------------------- #
# Long message strings: a preview and the path of a file of the session
# --------------------------------------------------------------------------- #

LONG = "".join(f"line {i:05d} " + "x" * 40 + "\n" for i in range(400))  # 19,600 characters


def saved_path(text: str) -> Path:
    head = text.splitlines()
    assert head[0] == "<persisted-output>", text[:200]
    assert head[1].startswith("Output too large (") and "Full output saved to: " in head[1]
    assert head[3] == "Preview (first 2KB):"
    assert text.endswith("\n...\n</persisted-output>")
    return Path(head[1].split("Full output saved to: ", 1)[1])


async def test_long_plain_stdout_context_is_saved_to_a_file_of_the_session(tmp_path: Path) -> None:
    (tmp_path / "long.txt").write_text(LONG)
    reg = registry([sh(f"cat {shlex.quote(str(tmp_path / 'long.txt'))}")], "SessionStart")
    async with reg.session(cwd=str(tmp_path)) as s:
        d = await s.dispatch(SessionStartInput(source="startup"))
        context = d.context
        assert context is not None and len(context) < 2_500
        path = saved_path(context)
        assert path.read_text() == LONG.strip()  # the whole text, as the hook printed it
        assert oct(path.stat().st_mode & 0o777) == oct(0o600)
        assert oct(path.parent.stat().st_mode & 0o777) == oct(0o700)
        preview = context.split("Preview (first 2KB):\n", 1)[1]
        assert LONG.startswith(preview.removesuffix("\n...\n</persisted-output>"))
        assert d.output.additional_context.full == LONG.strip()
    assert not path.exists() and not path.parent.exists()  # gone with the session


async def test_every_kind_of_message_is_capped_and_short_ones_are_not(tmp_path: Path) -> None:
    answer = {
        "systemMessage": LONG,
        "stopReason": "short",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": LONG,
            "additionalContext": "x" * 10_000,  # at the limit: kept as it is
        },
    }
    d = await dispatch(prints(answer), PreToolUseInput(tool_name="Bash"), tmp_path)
    assert d.output.additional_context == "x" * 10_000
    assert d.output.stop_reason == "short"
    for text in (d.output.system_message, d.reason):
        assert text.startswith("<persisted-output>") and len(text) < 2_500
        assert text.full == LONG


async def test_a_long_exit_2_reason_and_a_decision_message_are_capped(tmp_path: Path) -> None:
    (tmp_path / "long.txt").write_text(LONG)
    hook = sh(f"cat {shlex.quote(str(tmp_path / 'long.txt'))} >&2; exit 2")
    d = await dispatch(hook, UserPromptSubmitInput(prompt="p"), tmp_path)
    assert d.blocked and d.reason.startswith("<persisted-output>")

    async def deny(input: PermissionRequestInput) -> dict[str, Any]:
        decision = {"behavior": "deny", "message": LONG}
        return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}

    d = await dispatch(deny, PERMISSION, tmp_path)
    assert d.blocked and d.reason.startswith("<persisted-output>")


async def test_other_dialects_keep_long_messages_whole(tmp_path: Path) -> None:
    d = await dispatch(prints({"system_message": LONG}), StopInput(), tmp_path, dialect=DOCKER)
    assert d.system_messages == (LONG,)


async def test_a_session_that_saves_nothing_makes_no_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    await dispatch(prints({"systemMessage": "short"}), StopInput(), tmp_path)
    assert not list(tmp_path.glob("agent_hooks-output-*"))


def run_cli(
    tmp: Path, hooks: Mapping[str, Any], payload: Mapping[str, Any], **env: str
) -> subprocess.CompletedProcess[bytes]:
    """``agent-hooks run`` with ``hooks`` in a file outside the project (``tmp/project``,
    the payload's cwd), so that it needs no trust: in this process (the answer is the
    point), in a subprocess when ``env`` sets variables (``TMPDIR`` is read once per
    interpreter: only a new one honours it)."""
    project, conf = tmp / "project", tmp / "conf"
    project.mkdir(exist_ok=True)
    conf.mkdir(exist_ok=True)
    cfg = conf / "hooks.json"
    cfg.write_text(json.dumps({"hooks": hooks}))
    environ = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "AGENT_HOOKS_")) or k == NO_DAEMON
    }
    environ.update(HOME=str(tmp), XDG_STATE_HOME=str(tmp / "state"), **env)
    data = json.dumps({"session_id": "s", "cwd": str(project), **payload}).encode()
    if not env:
        done = cli_in_process(["run", "--config", str(cfg)], env=environ, cwd=tmp, input=data)
        return subprocess.CompletedProcess(
            done.args, done.returncode, done.stdout.encode(), done.stderr.encode()
        )
    return subprocess.run(
        [PY, "-m", "agent_hooks", "run", "--config", str(cfg)],
        input=data,
        capture_output=True,
        env=environ,
        cwd=tmp,
        timeout=60,
        check=False,
    )


def answer_of(proc: subprocess.CompletedProcess[bytes]) -> Any:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def command_hooks(event: str, command: str) -> dict[str, Any]:
    return {event: [{"hooks": [{"type": "command", "command": command}]}]}


def test_agent_hooks_run_answers_the_whole_text_and_leaves_no_directory(tmp_path: Path) -> None:
    """Claude Code caps the answer of the ``agent-hooks run`` hook itself (and keeps the file in
    its own session directory); the one-off session answers with the whole text and removes
    what it saved when it closes."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    (tmp_path / "long.txt").write_text(LONG)
    hooks = command_hooks("SessionStart", f"cat {shlex.quote(str(tmp_path / 'long.txt'))}")
    payload = {"hook_event_name": "SessionStart", "source": "startup"}
    out = answer_of(run_cli(tmp_path, hooks, payload, TMPDIR=str(temp)))
    assert out["hookSpecificOutput"]["additionalContext"] == LONG.strip()
    assert list(temp.iterdir()) == []


# --------------------------------------------------------------------------- #
# WorktreeCreate: any failure fails the creation
# --------------------------------------------------------------------------- #

WORKTREE = WorktreeCreateInput(name="feature-auth")


async def test_worktree_create_non_zero_exit_fails_the_creation(tmp_path: Path) -> None:
    d = await dispatch(sh("echo 'svn: checkout failed' >&2; exit 1"), WORKTREE, tmp_path)
    assert d.blocked
    assert d.output.worktree_path is None
    assert "svn: checkout failed" in (d.reason or "")
    assert DiagnosticCode.FAILED_CLOSED in codes(d)


async def test_worktree_create_non_zero_exit_fails_whatever_the_json_says(tmp_path: Path) -> None:
    answer = {
        "hookSpecificOutput": {"hookEventName": "WorktreeCreate", "worktreePath": str(tmp_path)}
    }
    d = await dispatch(prints(answer, 3), WORKTREE, tmp_path)
    assert d.blocked and d.output.worktree_path is None
    # elsewhere the claude dialect still lets JSON on a non-zero exit decide
    deny = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    d = await dispatch(prints(deny, 3), PreToolUseInput(tool_name="Bash"), tmp_path)
    assert d.output.permission_decision == "allow" and not d.blocked


async def test_worktree_create_failure_blocks_even_under_on_error_ignore(tmp_path: Path) -> None:
    hook = CommandHook(command="exit 1", on_error="ignore")
    d = await dispatch(hook, WORKTREE, tmp_path)
    assert d.blocked


async def test_worktree_create_callback_that_raises_fails_the_creation(tmp_path: Path) -> None:
    async def broken(input: WorktreeCreateInput) -> None:
        raise RuntimeError("no space left")

    d = await dispatch(broken, WORKTREE, tmp_path)
    assert d.blocked and "no space left" in (d.reason or "")


async def test_worktree_create_success_is_the_path(tmp_path: Path) -> None:
    d = await dispatch(sh(f"echo {shlex.quote(str(tmp_path))}"), WORKTREE, tmp_path)
    assert not d.blocked and d.output.worktree_path == str(tmp_path)


async def test_worktree_create_in_the_docker_dialect_keeps_its_rule(tmp_path: Path) -> None:
    d = await dispatch(sh("exit 1"), WORKTREE, tmp_path, dialect=DOCKER)
    assert not d.blocked
    assert only(d).outcome is Outcome.ERROR


def test_agent_hooks_run_worktree_create_failure_exits_2(tmp_path: Path) -> None:
    hooks = command_hooks("WorktreeCreate", "echo broken >&2; exit 1")
    proc = run_cli(tmp_path, hooks, {"hook_event_name": "WorktreeCreate", "name": "wt"})
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout.strip() == b""  # no path
    assert b"broken" in proc.stderr


# --------------------------------------------------------------------------- #
# ConfigChange from policy_settings cannot be blocked
# --------------------------------------------------------------------------- #


def change(source: str) -> ConfigChangeInput:
    return ConfigChangeInput(source=source, file_path="/etc/claude-code/managed-settings.json")


@pytest.mark.parametrize(
    "hook",
    [
        sh("echo 'no changes' >&2; exit 2"),
        prints({"decision": "block", "reason": "no changes"}),
        CommandHook(command="exit 1", on_error="block"),
    ],
    ids=["exit-2", "json", "failure-under-on_error-block"],
)
async def test_policy_settings_changes_cannot_be_blocked(tmp_path: Path, hook: CommandHook) -> None:
    d = await dispatch(hook, change("policy_settings"), tmp_path)
    assert not d.blocked
    assert d.output.decision is None and d.output.reason is None
    assert only(d).outcome is not Outcome.BLOCKED
    if only(d).exit_code != 1:
        (diag,) = [x for x in d.diagnostics if "cannot be blocked" in x.message]
        assert "policy_settings" in diag.message
    # the same hook blocks a change of another source
    d = await dispatch(hook, change("project_settings"), tmp_path)
    assert d.blocked


async def test_policy_settings_block_from_a_callback_is_ignored(tmp_path: Path) -> None:
    async def block(input: ConfigChangeInput) -> ConfigChangeOutput:
        return ConfigChangeOutput(decision="block", reason="frozen")

    d = await dispatch(block, change("policy_settings"), tmp_path)
    assert not d.blocked
    d = await dispatch(block, change("user_settings"), tmp_path)
    assert d.blocked and d.reason == "frozen"
