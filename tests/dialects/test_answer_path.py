"""``agent-hooks run``'s answer, byte for byte, on every branch of the answer path: each
dialect's answer to a block, the exit-status-only harnesses, plain-text answers, blocks
without a JSON form, failures before dispatch (bad payload, unknown ``--dialect`` or
``--format``, a missing ``--config``, hook code that exits while loading) with and without
``--fail-closed``, and ``--report``. stdout, stderr and the exit status are compared
whole (paths of the scratch directory written as ``{tmp}``), in-process and, with
``AGENT_HOOKS_TEST_DAEMON=1``, through the resident server.

``run`` runs in this process (the answer is the point; ``run`` as a process is
tests/cli/test_cli_run.py's), and in a subprocess with ``AGENT_HOOKS_TEST_DAEMON=1`` (to
reach the resident server). The one Python hook exits while it is imported: nothing of it
stays in ``sys.modules``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_hooks._config._harness import FORMATS
from agent_hooks._wire._dialects import DIALECTS
from tests.cli_inprocess import cli_in_process
from tests.dialect_helpers import THROUGH_SERVER

KNOWN_FORMATS = ", ".join(sorted(FORMATS))
"""The names ``--format`` takes, as its error lists them (they grow with every harness row)."""
KNOWN_DIALECTS = ", ".join(sorted(DIALECTS))

GUARD = """\
p=$(cat)
case "$p" in
  *BLOCK*) echo "no: blocked here" >&2; exit 2;;
  *FAIL*) echo "it broke" >&2; exit 1;;
  *WTPATH*) echo /tmp/wt-new; exit 0;;
  *CONTEXT*) printf '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx here"}}'; exit 0;;
esac
exit 0
"""

EVENTS = ("PreToolUse", "TeammateIdle", "WorktreeCreate", "UserPromptSubmit", "FutureThing")

EXITS_AT_IMPORT = "import sys\nsys.exit(3)\n"


def _claude(event: str = "PreToolUse", **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "session_id": "s-1",
        "transcript_path": "/t.jsonl",
        "cwd": "{project}",
        "hook_event_name": event,
    }
    if event == "PreToolUse":
        base.update(tool_name="Bash", tool_input={"command": "BLOCK"}, tool_use_id="t1")
    base.update(fields)
    return base


_CLINE = {
    "clineVersion": "4.1.13",
    "timestamp": "1764599339751",
    "taskId": "task-1",
    "workspaceRoots": ["{project}"],
    "userId": "u1",
    "hookName": "PreToolUse",
    "preToolUse": {"toolName": "execute_command", "parameters": {"command": "BLOCK"}},
}
_WINDSURF = {
    "agent_action_name": "pre_run_command",
    "trajectory_id": "t1",
    "execution_id": "e1",
    "timestamp": "2026-12-01T14:28:59Z",
    "tool_info": {"command_line": "BLOCK", "cwd": "{project}"},
}
_GEMINI = {
    "session_id": "8f2c",
    "transcript_path": "/t.json",
    "cwd": "{project}",
    "timestamp": "2026-12-01T14:28:59.751Z",
    "hook_event_name": "BeforeTool",
    "tool_name": "run_shell_command",
    "tool_input": {"command": "BLOCK"},
}
_COPILOT = {
    "sessionId": "c0ffee",
    "timestamp": 1764599339751,
    "cwd": "{project}",
    "toolName": "bash",
    "toolArgs": json.dumps({"command": "BLOCK"}),
}
_CURSOR = {
    "conversation_id": "c1",
    "generation_id": "g1",
    "hook_event_name": "beforeShellExecution",
    "command": "BLOCK",
    "cwd": "{project}",
    "workspace_roots": ["{project}"],
}
_KIRO = {
    "hook_event_name": "userPromptSubmit",
    "cwd": "{project}",
    "prompt": "CONTEXT",
}
_DOCKER = {
    "session_id": "s-1",
    "cwd": "{project}",
    "hook_event_name": "pre_tool_use",
    "tool_name": "shell",
    "tool_input": {"cmd": "BLOCK"},
}

_CRUSH = {
    "event": "PreToolUse",
    "session_id": "313909e",
    "cwd": "{project}",
    "tool_name": "bash",
    "tool_input": {"command": "BLOCK"},
}

_VIBE = {
    "hook_event_name": "pre_tool",
    "session_id": "s-1",
    "cwd": "{project}",
    "tool_name": "bash",
    "tool_call_id": "c1",
    "tool_input": {"command": "BLOCK"},
}

_ALLOW = _claude(tool_input={"command": "ls"})

# (id, payload (an object, or raw bytes), run's options after --config)
CASES: list[tuple[str, Any, tuple[str, ...]]] = [
    ("claude-deny", _claude(), ()),
    ("claude-allow", _ALLOW, ()),
    ("claude-hook-fails", _claude(tool_input={"command": "FAIL"}), ()),
    ("claude-hook-fails-closed", _claude(tool_input={"command": "FAIL"}), ("--fail-closed",)),
    ("codex-deny", _claude(), ("--dialect", "codex")),
    ("codebuddy-deny", _claude(), ("--dialect", "codebuddy")),
    ("kimi-deny", _claude(), ("--dialect", "kimi")),
    ("crush-deny", _CRUSH, ("--dialect", "crush")),
    ("vibe-deny", _VIBE, ()),
    (
        "vibe-hook-fails-closed",
        {**_VIBE, "tool_input": {"command": "FAIL"}},
        ("--dialect", "vibe", "--fail-closed"),
    ),
    (
        "crush-hook-fails-closed",
        {**_CRUSH, "tool_input": {"command": "FAIL"}},
        ("--dialect", "crush", "--fail-closed"),
    ),
    (
        "kimi-hook-fails-closed",
        _claude(tool_input={"command": "FAIL"}),
        ("--dialect", "kimi", "--fail-closed"),
    ),
    (
        "codebuddy-hook-fails-closed",
        _claude(tool_input={"command": "FAIL"}),
        ("--dialect", "codebuddy", "--fail-closed"),
    ),
    ("docker-deny", _DOCKER, ()),
    ("gemini-deny", _GEMINI, ()),
    ("cursor-deny", _CURSOR, ()),
    ("copilot-deny", _COPILOT, ("--dialect", "copilot", "--event", "preToolUse")),
    ("cline-deny", _CLINE, ()),
    ("windsurf-deny", _WINDSURF, ()),
    ("windsurf-allow", {**_WINDSURF, "tool_info": {"command_line": "ls"}}, ()),
    ("kiro-context", _KIRO, ("--dialect", "kiro")),
    ("teammate-idle-block", _claude("TeammateIdle", teammate_name="BLOCK", team_name="t"), ()),
    (
        "teammate-idle-block-report",
        _claude("TeammateIdle", teammate_name="BLOCK", team_name="t"),
        ("--report",),
    ),
    ("untyped-block", _claude("FutureThing", what="BLOCK"), ()),
    ("worktree-path", _claude("WorktreeCreate", name="WTPATH"), ()),
    ("worktree-block", _claude("WorktreeCreate", name="BLOCK"), ()),
    ("bad-json", b"{not json", ()),
    ("bad-json-closed", b"{not json", ("--fail-closed",)),
    ("bad-json-copilot", b"{not json", ("--dialect", "copilot")),
    ("bad-json-copilot-closed", b"{not json", ("--dialect", "copilot", "--fail-closed")),
    ("bad-json-cline-closed", b"{not json", ("--dialect", "cline", "--fail-closed")),
    ("bad-json-report", b"[]", ("--report",)),
    ("unknown-event", _claude("PreToolUze"), ()),
    ("unknown-dialect", _claude(), ("--dialect", "nope")),
    ("unknown-dialect-closed", _claude(), ("--dialect", "nope", "--fail-closed")),
    ("unknown-format", _claude(), ("--format", "nonsense")),
    (
        "unknown-format-copilot",
        _COPILOT,
        ("--format", "nonsense", "--dialect", "copilot", "--event", "preToolUse"),
    ),
    (
        "project-not-a-path-copilot",
        {**_COPILOT, "cwd": "a\u0000b"},
        ("--dialect", "copilot", "--event", "preToolUse"),
    ),
    (
        "project-not-a-path-cline-closed",
        {**_CLINE, "workspaceRoots": ["a\u0000b"]},
        ("--fail-closed",),
    ),
    ("claude-report", _claude(), ("--report",)),
    ("unknown-format-cline-closed", _CLINE, ("--format", "nonsense", "--fail-closed")),
    ("missing-config", _claude(), ("--config", "{tmp}/missing.json")),
    ("missing-config-closed", _claude(), ("--config", "{tmp}/missing.json", "--fail-closed")),
    (
        "missing-config-cline-closed",
        _CLINE,
        ("--config", "{tmp}/missing.json", "--fail-closed"),
    ),
    ("exits-at-import", _claude(), ("--config", "{tmp}/conf/exits.json")),
    (
        "exits-at-import-copilot",
        _COPILOT,
        ("--config", "{tmp}/conf/exits.json", "--dialect", "copilot", "--event", "preToolUse"),
    ),
    (
        "exits-at-import-cline-closed",
        _CLINE,
        ("--config", "{tmp}/conf/exits.json", "--fail-closed"),
    ),
]

EXPECTED: dict[str, tuple[int, str, str]] = {
    "claude-deny": (
        0,
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no: blocked here"}}\n',
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "claude-allow": (
        0,
        "{}\n",
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "claude-hook-fails": (
        0,
        "{}\n",
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\nagent-hooks: {tmp}/conf/hooks.json: hooks.PreToolUse[0].hooks[0]: warning nonzero_exit [sh {tmp}/conf/guard.sh]: Failed with non-blocking status code: exit status 1: it broke\n",
    ),
    "claude-hook-fails-closed": (
        0,
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hook sh {tmp}/conf/guard.sh failed: it broke"}}\n',
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\nagent-hooks: {tmp}/conf/hooks.json: hooks.PreToolUse[0].hooks[0]: warning nonzero_exit [sh {tmp}/conf/guard.sh]: Failed with non-blocking status code: exit status 1: it broke\nagent-hooks: {tmp}/conf/hooks.json: hooks.PreToolUse[0].hooks[0]: warning failed_closed [sh {tmp}/conf/guard.sh]: the failure blocks (PreToolUse fails closed for this handler)\n",
    ),
    "codex-deny": (
        0,
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no: blocked here"}}\n',
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "docker-deny": (
        0,
        '{"hook_specific_output":{"hook_event_name":"pre_tool_use","permission_decision":"deny","permission_decision_reason":"no: blocked here"}}\n',
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "gemini-deny": (
        0,
        '{"decision":"deny","reason":"no: blocked here"}\n',
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "cursor-deny": (
        0,
        '{"permission":"deny","user_message":"no: blocked here","agent_message":"no: blocked here"}\n',
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "copilot-deny": (
        0,
        '{"permissionDecision":"deny","permissionDecisionReason":"no: blocked here"}\n',
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "cline-deny": (
        0,
        '{"cancel":true,"errorMessage":"no: blocked here"}\n',
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "windsurf-deny": (2, "", "no: blocked here\n"),
    "windsurf-allow": (
        0,
        "",
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "kiro-context": (
        0,
        "ctx here\n",
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "teammate-idle-block": (2, "{}\n", "no: blocked here\n"),
    "teammate-idle-block-report": (
        2,
        "",
        'no: blocked here\n{"event":"TeammateIdle","decision":{},"decided_by":[0],"handlers":[{"name":"sh {tmp}/conf/guard.sh","source":"{tmp}/conf/hooks.json","location":"hooks.TeammateIdle[0].hooks[0]","matcher":null,"kind":"command","outcome":"blocked","exit_code":2,"decision":"block","reason":"no: blocked here","output":{"decision":"block","reason":"no: blocked here"},"duration_ms":0,"diagnostics":[]}],"diagnostics":[{"code":"untyped_event","severity":"warning","message":"event \'FutureThing\' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares","source":"{tmp}/conf/hooks.json","location":"hooks.FutureThing[0]","handler":null}],"error":"no: blocked here","resident":null}\n',
    ),
    "untyped-block": (
        2,
        '{"hookSpecificOutput":{"hookEventName":"FutureThing","permissionDecision":"deny","permissionDecisionReason":"no: blocked here"}}\n',
        "no: blocked here\n",
    ),
    "worktree-path": (
        0,
        "/tmp/wt-new\n",
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "worktree-block": (2, "", "no: blocked here\n"),
    "bad-json": (
        1,
        "",
        "agent-hooks: $: payload is not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))\n",
    ),
    "bad-json-closed": (
        2,
        "",
        "agent-hooks: $: payload is not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))\n",
    ),
    "bad-json-copilot": (
        0,
        "",
        "agent-hooks: $: payload is not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))\n",
    ),
    "bad-json-copilot-closed": (
        2,
        "",
        "agent-hooks: $: payload is not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))\n",
    ),
    "bad-json-cline-closed": (
        2,
        '{"cancel":true,"errorMessage":"agent-hooks failed closed: $: payload is not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"}\n',
        "agent-hooks: $: payload is not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))\n",
    ),
    "bad-json-report": (1, "", "agent-hooks: $: payload must be a JSON object, got list\n"),
    "unknown-event": (
        1,
        "",
        "agent-hooks: unknown hook event 'PreToolUze'; did you mean PreToolUse?\n",
    ),
    "unknown-dialect": (
        1,
        "",
        f"agent-hooks: unknown dialect 'nope'; known dialects: {KNOWN_DIALECTS}\n",
    ),
    "unknown-dialect-closed": (
        2,
        "",
        f"agent-hooks: unknown dialect 'nope'; known dialects: {KNOWN_DIALECTS}\n",
    ),
    "unknown-format": (
        1,
        "",
        f"agent-hooks: unknown format 'nonsense'; known: {KNOWN_FORMATS}\n",
    ),
    "unknown-format-copilot": (
        1,
        "",
        f"agent-hooks: unknown format 'nonsense'; known: {KNOWN_FORMATS}\n",
    ),
    "project-not-a-path-copilot": (
        1,
        "",
        "agent-hooks: the project directory 'a\\x00b' is not a path\n",
    ),
    "project-not-a-path-cline-closed": (
        2,
        '{"cancel":true,"errorMessage":"agent-hooks failed closed: the project directory \'a\\\\x00b\' is not a path"}\n',
        "agent-hooks: the project directory 'a\\x00b' is not a path\n",
    ),
    "claude-report": (
        0,
        '{"event":"PreToolUse","decision":{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no: blocked here"}},"decided_by":[0],"handlers":[{"name":"sh {tmp}/conf/guard.sh","source":"{tmp}/conf/hooks.json","location":"hooks.PreToolUse[0].hooks[0]","matcher":null,"kind":"command","outcome":"blocked","exit_code":2,"decision":"deny","reason":"no: blocked here","output":{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no: blocked here"}},"duration_ms":0,"diagnostics":[]}],"diagnostics":[{"code":"untyped_event","severity":"warning","message":"event \'FutureThing\' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares","source":"{tmp}/conf/hooks.json","location":"hooks.FutureThing[0]","handler":null}],"error":null,"resident":null}\n',
        "agent-hooks: {tmp}/conf/hooks.json: hooks.FutureThing[0]: warning untyped_event: event 'FutureThing' is not typed by this version of agent_hooks; its hooks run for that exact name, with the payload as it came, and their answers are reduced by the rules every event shares\n",
    ),
    "unknown-format-cline-closed": (
        2,
        json.dumps(
            {
                "cancel": True,
                "errorMessage": "agent-hooks failed closed: unknown format 'nonsense'; "
                f"known: {KNOWN_FORMATS}",
            },
            separators=(",", ":"),
        )
        + "\n",
        f"agent-hooks: unknown format 'nonsense'; known: {KNOWN_FORMATS}\n",
    ),
    "missing-config": (
        0,
        "{}\n",
        "agent-hooks: {tmp}/missing.json: no such file; no hooks loaded from it\n",
    ),
    "missing-config-closed": (
        2,
        "",
        "agent-hooks: hooks cannot run as configured: {tmp}/missing.json: no such file\n",
    ),
    "missing-config-cline-closed": (
        2,
        '{"cancel":true,"errorMessage":"agent-hooks failed closed: hooks cannot run as configured: {tmp}/missing.json: no such file"}\n',
        "agent-hooks: hooks cannot run as configured: {tmp}/missing.json: no such file\n",
    ),
    "exits-at-import": (
        0,
        "{}\n",
        "agent-hooks: {tmp}/conf/exits.json: hooks.PreToolUse[0].hooks[0]: error invalid_handler [python]: python handler dropped: cannot import 'exits_at_import' for python hook 'exits_at_import:hook': SystemExit: 3\n",
    ),
    "exits-at-import-copilot": (
        0,
        "{}\n",
        "agent-hooks: {tmp}/conf/exits.json: hooks.PreToolUse[0].hooks[0]: error invalid_handler [python]: python handler dropped: cannot import 'exits_at_import' for python hook 'exits_at_import:hook': SystemExit: 3\n",
    ),
    "exits-at-import-cline-closed": (
        2,
        '{"cancel":true,"errorMessage":"agent-hooks failed closed: hooks cannot run as configured: {tmp}/conf/exits.json: hooks.PreToolUse[0].hooks[0]: error invalid_handler [python]: python handler dropped: cannot import \'exits_at_import\' for python hook \'exits_at_import:hook\': SystemExit: 3"}\n',
        "agent-hooks: hooks cannot run as configured: {tmp}/conf/exits.json: hooks.PreToolUse[0].hooks[0]: error invalid_handler [python]: python handler dropped: cannot import 'exits_at_import' for python hook 'exits_at_import:hook': SystemExit: 3\n",
    ),
}

# Claude-shaped harnesses answer a deny and a failed-closed hook as Claude Code does
EXPECTED["codebuddy-deny"] = EXPECTED["claude-deny"]
EXPECTED["codebuddy-hook-fails-closed"] = EXPECTED["claude-hook-fails-closed"]
# Kimi Code reads the same hookSpecificOutput deny (and nothing of an allow)
EXPECTED["kimi-deny"] = EXPECTED["claude-deny"]
EXPECTED["kimi-hook-fails-closed"] = EXPECTED["claude-hook-fails-closed"]
EXPECTED["crush-deny"] = (
    0,
    '{"decision":"deny","reason":"no: blocked here"}\n',
    EXPECTED["claude-deny"][2],
)
EXPECTED["vibe-deny"] = (
    0,
    '{"decision":"deny","reason":"no: blocked here"}\n',
    EXPECTED["claude-deny"][2],
)
EXPECTED["vibe-hook-fails-closed"] = (
    0,
    '{"decision":"deny","reason":"hook sh {tmp}/conf/guard.sh failed: it broke"}\n',
    EXPECTED["claude-hook-fails-closed"][2],
)
EXPECTED["crush-hook-fails-closed"] = (
    0,
    '{"decision":"deny","reason":"hook sh {tmp}/conf/guard.sh failed: it broke"}\n',
    EXPECTED["claude-hook-fails-closed"][2],
)


def _fill(value: Any, tmp: str) -> Any:
    text = json.dumps(value).replace("{project}", f"{tmp}/project").replace("{tmp}", tmp)
    return json.loads(text)


def _setup(tmp: Path) -> None:
    conf = tmp / "conf"
    for d in (conf, tmp / "project", tmp / "home", tmp / "state"):
        d.mkdir(parents=True, exist_ok=True)
    (conf / "guard.sh").write_text(GUARD)
    hook = {"type": "command", "command": f"sh {conf / 'guard.sh'}"}
    hooks = {event: [{"hooks": [hook]}] for event in EVENTS}
    (conf / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    (conf / "exits_at_import.py").write_text(EXITS_AT_IMPORT)
    python = {"type": "python", "callable": "exits_at_import:hook"}
    (conf / "exits.json").write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [python]}]}}))


def _run(tmp: Path, payload: Any, options: tuple[str, ...]) -> tuple[int, str, str]:
    data = payload if isinstance(payload, bytes) else json.dumps(_fill(payload, str(tmp))).encode()
    argv = [str(a) for a in _fill(list(options), str(tmp))]
    if "--config" not in argv:
        argv = ["--config", str(tmp / "conf" / "hooks.json"), *argv]
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "AGENT_HOOKS_", "CODEX_", "DOCKER_"))
        or k == "AGENT_HOOKS_NO_DAEMON"
        or k.startswith("AGENT_HOOKS_DAEMON_")
    }
    env.update(HOME=str(tmp / "home"), XDG_STATE_HOME=str(tmp / "state"))
    if not THROUGH_SERVER:
        done = cli_in_process(["run", *argv], env=env, cwd=tmp / "project", input=data)
        code, stdout, stderr = done.returncode, done.stdout, done.stderr
    else:
        proc = subprocess.run(
            [sys.executable, "-m", "agent_hooks", "run", *argv],
            input=data,
            capture_output=True,
            cwd=tmp / "project",
            env=env,
            timeout=60,
            check=False,
        )
        code, stdout, stderr = proc.returncode, proc.stdout.decode(), proc.stderr.decode()
    out = stdout.replace(str(tmp), "{tmp}")
    err = stderr.replace(str(tmp), "{tmp}")
    return code, _without_durations(out), _without_durations(err)


def _without_durations(text: str) -> str:
    """A report's handler durations vary from run to run (written as 0), and it says
    whether the resident server answered (written as ``null``)."""
    text = re.sub(r'"duration_ms":[0-9.e-]+', '"duration_ms":0', text)
    return re.sub(r'"resident":(true|false)', '"resident":null', text)


@pytest.mark.parametrize(("name", "payload", "options"), CASES, ids=[c[0] for c in CASES])
def test_answer_is_byte_for_byte(
    tmp_path: Path, name: str, payload: Any, options: tuple[str, ...]
) -> None:
    _setup(tmp_path)
    got = _run(tmp_path, payload, options)
    assert got == EXPECTED[name]
