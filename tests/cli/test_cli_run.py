"""``agent-hooks run`` end to end, as a subprocess: one payload on stdin, one JSON answer
on stdout in the payload's dialect, diagnostics on stderr, exit status 0 (1 for a bad
payload; 2 with --fail-closed when the hooks cannot run as configured)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

NO_DAEMON = "AGENT_HOOKS_NO_DAEMON"  # (kept: tests/conftest.py keeps run in-process)

PY = sys.executable


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "AGENT_HOOKS_", "CODEX_", "DOCKER_"))
        or k == NO_DAEMON
        or k.startswith("AGENT_HOOKS_DAEMON_")
    }
    env.update(
        HOME=str(tmp / "home"),
        XDG_STATE_HOME=str(tmp / "state"),
        XDG_CONFIG_HOME=str(tmp / "home" / ".config"),
        CODEX_HOME=str(tmp / "home" / ".codex"),
    )
    env.update(extra)
    return env


class Workspace:
    """A project directory and, outside it, a directory for the --config files."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.project = tmp / "project"
        # not "hooks": a hooks/hooks.json is detected as a Claude Code plugin's file
        self.hooks = tmp / "conf"
        for d in (self.project, self.hooks, tmp / "home", tmp / "state"):
            d.mkdir(parents=True, exist_ok=True)

    def write(self, rel: str, text: str, *, base: Path | None = None) -> Path:
        path = (base or self.hooks) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        return path

    def config(self, hooks: dict[str, Any], name: str = "hooks.json") -> Path:
        return self.write(name, json.dumps({"hooks": hooks}))

    def payload(self, event: str = "PreToolUse", **fields: Any) -> dict[str, Any]:
        base: dict[str, Any] = {
            "session_id": "s-1",
            "transcript_path": str(self.tmp / "t.jsonl"),
            "cwd": str(self.project),
            "hook_event_name": event,
        }
        if event in ("PreToolUse", "pre_tool_use", "PermissionRequest"):
            base.update(tool_name="Bash", tool_input={"command": "ls"}, tool_use_id="t1")
        elif event in ("PostToolUse", "post_tool_use"):
            base.update(tool_name="Bash", tool_input={"command": "ls"}, tool_response={"ok": 1})
        elif event in ("UserPromptSubmit", "user_prompt_submit"):
            base.update(prompt="hello")
        elif event in ("SessionStart", "session_start"):
            base.update(source="startup")
        elif event in ("Stop", "SubagentStop", "stop"):
            base.update(stop_hook_active=False)
        base.update(fields)
        return base

    def run(
        self,
        *args: str | Path,
        payload: Any = None,
        stdin: bytes | None = None,
        env: dict[str, str] | None = None,
        python: list[str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        if stdin is None:
            stdin = json.dumps(payload if payload is not None else self.payload()).encode()
        cmd = python or [PY, "-m", "agent_hooks"]
        proc = subprocess.run(
            [*cmd, "run", *map(str, args)],
            input=stdin,
            capture_output=True,
            cwd=self.tmp,
            env=env or _env(self.tmp),
            timeout=60,
            check=False,
        )
        return subprocess.CompletedProcess(
            proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
        )


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


def answer(proc: subprocess.CompletedProcess[str]) -> Any:
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, proc.stdout  # exactly one JSON object
    return json.loads(lines[0])


def cmd(command: str, **more: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **more}


def echo_json(obj: Any) -> str:
    return f"printf '%s' '{json.dumps(obj)}'"


PY_HOOKS = """\
from agent_hooks import (
    PostToolUseOutput, PreToolUseInput, PreToolUseOutput, SessionStartOutput,
    UserPromptSubmitOutput,
)


def typed_context(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(additional_context="typed:" + input.tool_input["command"])


async def sdk_context(input_data, tool_use_id, context):
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": "sdk:" + str(tool_use_id),
        }
    }


def rewrite(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(
        permission_decision="allow",
        permission_decision_reason="rewritten",
        updated_input={"command": input.tool_input["command"] + " -la"},
    )


def stop_everything(input):
    return {"continue_": False, "stopReason": "enough", "systemMessage": "bye"}


def session_context(input):
    return SessionStartOutput(additional_context="python context")


def prompt_context(input):
    return UserPromptSubmitOutput(additional_context="from python")


def nothing(input):
    return None


def explode(input):
    raise ValueError("line one\\nline two")
"""


# --------------------------------------------------------------- exit code 2


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (
            "PreToolUse",
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "not allowed",
                }
            },
        ),
        ("PostToolUse", {"decision": "block", "reason": "not allowed"}),
        ("UserPromptSubmit", {"decision": "block", "reason": "not allowed"}),
        ("Stop", {"decision": "block", "reason": "not allowed"}),
        ("SubagentStop", {"decision": "block", "reason": "not allowed"}),
    ],
)
def test_exit_2_becomes_the_equivalent_json_decision(
    ws: Workspace, event: str, expected: dict[str, Any]
) -> None:
    config = ws.config({event: [{"hooks": [cmd("echo 'not allowed' >&2; exit 2")]}]})
    proc = ws.run("--config", config, payload=ws.payload(event))
    assert answer(proc) == expected


def test_exit_2_on_permission_request_is_not_honoured(ws: Workspace) -> None:
    """Claude Code: only the ``decision`` object grants or denies a PermissionRequest;
    exit 2 leaves the permission flow unchanged, and a diagnostic says so."""
    config = ws.config({"PermissionRequest": [{"hooks": [cmd("echo 'not allowed' >&2; exit 2")]}]})
    proc = ws.run("--config", config, payload=ws.payload("PermissionRequest"))
    assert answer(proc) == {}
    assert "exit status 2 is not honoured on PermissionRequest" in proc.stderr


def test_no_opinion_is_an_empty_object(ws: Workspace) -> None:
    ws.write("quiet_hooks.py", PY_HOOKS)
    config = ws.config(
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [cmd("true"), {"type": "python", "callable": "quiet_hooks:nothing"}],
                },
                {"matcher": "Edit", "hooks": [cmd("echo 'never' >&2; exit 2")]},
            ]
        }
    )
    proc = ws.run("--config", config)
    assert answer(proc) == {}
    assert proc.stderr == ""


def test_no_config_no_hooks(ws: Workspace) -> None:
    assert answer(ws.run()) == {}


# --------------------------------------------------- mixed kinds, one config


def test_python_callbacks_and_shell_hooks_in_one_config(ws: Workspace) -> None:
    ws.write("mixed_hooks.py", PY_HOOKS)
    config = ws.config(
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "python", "callable": "mixed_hooks:typed_context"},
                        cmd(
                            echo_json(
                                {
                                    "hookSpecificOutput": {
                                        "hookEventName": "PreToolUse",
                                        "additionalContext": "shell",
                                    }
                                }
                            )
                        ),
                        {"type": "python", "callable": "mixed_hooks:sdk_context"},
                    ],
                },
                {"matcher": "Bash", "hooks": [cmd("echo 'from the shell' >&2; exit 2")]},
            ]
        }
    )
    proc = ws.run("--config", config)
    assert answer(proc) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "from the shell",
            "additionalContext": "typed:ls\nshell\nsdk:t1",
        }
    }


def test_updated_input_and_allow(ws: Workspace) -> None:
    ws.write("rewrite_hooks.py", PY_HOOKS)
    config = ws.config(
        {"PreToolUse": [{"hooks": [{"type": "python", "callable": "rewrite_hooks:rewrite"}]}]}
    )
    assert answer(ws.run("--config", config)) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "rewritten",
            "updatedInput": {"command": "ls -la"},
        }
    }


def test_permission_request_allow_with_updated_input(ws: Workspace) -> None:
    allow = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow", "updatedInput": {"command": "ls -1"}},
        }
    }
    config = ws.config({"PermissionRequest": [{"hooks": [cmd(echo_json(allow))]}]})
    assert answer(ws.run("--config", config, payload=ws.payload("PermissionRequest"))) == allow


# ----------------------------------------------------------------- dialects


def test_docker_payload_gets_a_snake_case_answer(ws: Workspace) -> None:
    ws.write("docker_hooks.py", PY_HOOKS)
    config = ws.config(
        {
            "PreToolUse": [
                {
                    "hooks": [
                        {"type": "python", "callable": "docker_hooks:typed_context"},
                        cmd("echo 'nope' >&2; exit 2"),
                    ]
                }
            ]
        }
    )
    proc = ws.run("--config", config, payload=ws.payload("pre_tool_use"))
    assert answer(proc) == {
        "hook_specific_output": {
            "hook_event_name": "pre_tool_use",
            "permission_decision": "deny",
            "permission_decision_reason": "nope",
            "additional_context": "typed:ls",
        }
    }


def test_docker_payload_top_level_fields_are_snake_case(ws: Workspace) -> None:
    ws.write("docker_stop.py", PY_HOOKS)
    config = ws.config(
        {"Stop": [{"hooks": [{"type": "python", "callable": "docker_stop:stop_everything"}]}]}
    )
    proc = ws.run("--config", config, payload=ws.payload("stop"))
    assert answer(proc) == {"continue": False, "stop_reason": "enough", "system_message": "bye"}


# --------------------------------------------------------- joining, continue


def test_session_start_context_joins_plain_stdout_json_and_python(ws: Workspace) -> None:
    ws.write("start_hooks.py", PY_HOOKS)
    config = ws.config(
        {
            "SessionStart": [
                {
                    "hooks": [
                        cmd("echo 'plain stdout'"),
                        {"type": "python", "callable": "start_hooks:session_context"},
                    ]
                },
                {
                    "hooks": [
                        cmd(
                            echo_json(
                                {
                                    "hookSpecificOutput": {
                                        "hookEventName": "SessionStart",
                                        "additionalContext": "json context",
                                    }
                                }
                            )
                        )
                    ]
                },
            ]
        }
    )
    proc = ws.run("--config", config, payload=ws.payload("SessionStart"))
    assert answer(proc) == {
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": "plain stdout\npython context\njson context",
        }
    }


def test_user_prompt_submit_block_reasons_and_context_are_joined(ws: Workspace) -> None:
    ws.write("prompt_hooks.py", PY_HOOKS)
    config = ws.config(
        {
            "UserPromptSubmit": [
                {
                    "hooks": [
                        cmd("echo 'first reason' >&2; exit 2"),
                        {"type": "python", "callable": "prompt_hooks:prompt_context"},
                        cmd(echo_json({"decision": "block", "reason": "second reason"})),
                        cmd("echo 'plain prompt context'"),
                    ]
                }
            ]
        }
    )
    proc = ws.run("--config", config, payload=ws.payload("UserPromptSubmit"))
    assert answer(proc) == {
        "decision": "block",
        "reason": "first reason\nsecond reason",
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": "from python\nplain prompt context",
        },
    }


def test_stop_block_reasons_are_joined_in_configuration_order(ws: Workspace) -> None:
    config = ws.config(
        {
            "Stop": [
                {"hooks": [cmd("echo 'run the tests' >&2; exit 2")]},
                {"hooks": [cmd(echo_json({"decision": "block", "reason": "and the linter"}))]},
            ]
        }
    )
    proc = ws.run("--config", config, payload=ws.payload("Stop"))
    assert answer(proc) == {"decision": "block", "reason": "run the tests\nand the linter"}


def test_continue_false_with_stop_reason_and_system_message(ws: Workspace) -> None:
    ws.write("cont_hooks.py", PY_HOOKS)
    config = ws.config(
        {
            "PostToolUse": [
                {
                    "hooks": [
                        cmd(echo_json({"continue": True, "suppressOutput": False})),
                        {"type": "python", "callable": "cont_hooks:stop_everything"},
                    ]
                }
            ]
        }
    )
    proc = ws.run("--config", config, payload=ws.payload("PostToolUse"))
    assert answer(proc) == {"continue": False, "stopReason": "enough", "systemMessage": "bye"}


def test_fields_that_say_nothing_are_left_out(ws: Workspace) -> None:
    config = ws.config(
        {"PreToolUse": [{"hooks": [cmd(echo_json({"continue": True, "suppressOutput": False}))]}]}
    )
    assert answer(ws.run("--config", config)) == {}


# ------------------------------------------------------------------- report


def test_report_lists_every_handler_in_order(ws: Workspace) -> None:
    ws.write("report_hooks.py", PY_HOOKS)
    config = ws.config(
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "python", "callable": "report_hooks:typed_context"},
                        cmd("echo 'blocked here' >&2; exit 2", name="guard"),
                        cmd("exit 1"),
                    ],
                }
            ]
        }
    )
    proc = ws.run("--config", config, "--report")
    report = answer(proc)
    assert report["event"] == "PreToolUse"
    assert report["error"] is None
    assert report["decision"] == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "blocked here",
            "additionalContext": "typed:ls",
        }
    }
    names = [h["name"] for h in report["handlers"]]
    assert names == ["report_hooks:typed_context", "guard", "exit 1"]
    py, guard, failing = report["handlers"]
    assert py["kind"] == "python" and py["outcome"] == "ok" and py["exit_code"] is None
    assert guard["kind"] == "command" and guard["outcome"] == "blocked"
    assert guard["exit_code"] == 2
    assert failing["outcome"] == "error" and failing["exit_code"] == 1
    assert failing["diagnostics"], failing
    for h in report["handlers"]:
        assert h["source"] == str(config)
        assert h["matcher"] == "Bash"
        assert isinstance(h["duration_ms"], (int, float)) and h["duration_ms"] >= 0
        assert set(h) >= {"diagnostics", "reason"}
    # the non-blocking failure is also a diagnostic line on stderr
    assert "exit 1" in proc.stderr


REPORT_HOOKS = """\
from agent_hooks import PreToolUseInput, PreToolUseOutput


def deny(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(permission_decision="deny", permission_decision_reason="python says no")


def context(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(additional_context="typed context")


async def sdk_deny(input_data, tool_use_id, context):
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": "sdk says no"}}
"""


def test_report_says_what_each_handler_decided_and_why(ws: Workspace) -> None:
    """Not only exit 2: a Python callable's deny, a command's JSON answer, a typed output."""
    ws.write("report_verdicts.py", REPORT_HOOKS)
    json_ask = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "json asks",
        }
    }
    json_deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "json says no",
        }
    }
    config = ws.config(
        {
            "PreToolUse": [
                {
                    "hooks": [
                        {"type": "python", "callable": "report_verdicts:deny"},
                        {"type": "python", "callable": "report_verdicts:context"},
                        {"type": "python", "callable": "report_verdicts:sdk_deny"},
                        cmd(echo_json(json_ask), name="asks"),
                        cmd(echo_json(json_deny), name="json-deny"),
                        cmd("echo 'exit says no' >&2; exit 2", name="exit2"),
                        cmd(echo_json({"continue": False, "stopReason": "halt"}), name="halts"),
                        cmd("true", name="silent"),
                    ]
                }
            ]
        }
    )
    report = answer(ws.run("--config", config, "--report"))
    got = {h["name"]: (h["outcome"], h["decision"], h["reason"]) for h in report["handlers"]}
    assert got == {
        "report_verdicts:deny": ("ok", "deny", "python says no"),
        "report_verdicts:context": ("ok", None, None),
        "report_verdicts:sdk_deny": ("ok", "deny", "sdk says no"),
        "asks": ("ok", "ask", "json asks"),
        "json-deny": ("ok", "deny", "json says no"),
        "exit2": ("blocked", "deny", "exit says no"),
        "halts": ("ok", "stop", "halt"),
        "silent": ("ok", None, None),
    }
    by_name = {h["name"]: h for h in report["handlers"]}
    # each handler's own answer, in the payload's wire form
    assert by_name["report_verdicts:context"]["output"] == {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "typed context"}
    }
    assert by_name["asks"]["output"] == json_ask
    assert by_name["silent"]["output"] is None
    assert by_name["asks"]["location"] == "hooks.PreToolUse[0].hooks[3]"
    # the reduced decision is the first deny's; every deny is named as deciding it
    assert report["decision"]["hookSpecificOutput"]["permissionDecisionReason"] == "python says no"
    names = [report["handlers"][i]["name"] for i in report["decided_by"]]
    assert names == ["report_verdicts:deny", "report_verdicts:sdk_deny", "json-deny", "exit2"]


def test_report_stop_block_and_permission_request_verdicts(ws: Workspace) -> None:
    config = ws.config(
        {
            "Stop": [
                {
                    "hooks": [
                        cmd(echo_json({"decision": "block", "reason": "keep going"}), name="json"),
                        cmd("echo 'not yet' >&2; exit 2", name="exit2"),
                    ]
                }
            ],
            "PermissionRequest": [
                {
                    "hooks": [
                        cmd(
                            echo_json(
                                {
                                    "hookSpecificOutput": {
                                        "hookEventName": "PermissionRequest",
                                        "decision": {"behavior": "deny", "message": "refused"},
                                    }
                                }
                            ),
                            name="refuses",
                        )
                    ]
                }
            ],
        }
    )
    report = answer(ws.run("--config", config, "--report", payload=ws.payload("Stop")))
    got = [(h["name"], h["decision"], h["reason"]) for h in report["handlers"]]
    assert got == [("json", "block", "keep going"), ("exit2", "block", "not yet")]
    assert report["decided_by"] == [0, 1]
    report = answer(ws.run("--config", config, "--report", payload=ws.payload("PermissionRequest")))
    ((name, decision, reason),) = [
        (h["name"], h["decision"], h["reason"]) for h in report["handlers"]
    ]
    assert (name, decision, reason) == ("refuses", "deny", "refused")


# ------------------------------------------------------- diagnostics, errors


def test_diagnostics_go_to_stderr_one_line_each_and_keep_exit_0(ws: Workspace) -> None:
    ws.write("diag_hooks.py", PY_HOOKS)
    config = ws.config(
        {
            "PreToolUse": [
                {
                    "hooks": [
                        {"type": "python", "callable": "diag_hooks:explode"},
                        cmd(echo_json({"bogus": 1, "systemMessage": 5})),
                    ]
                }
            ]
        }
    )
    proc = ws.run("--config", config)
    assert answer(proc) == {"bogus": 1}  # a key this version does not know is passed on
    lines = proc.stderr.splitlines()
    assert len(lines) == 2, lines
    assert all(line.startswith("agent-hooks: ") for line in lines), lines
    assert "ValueError" in lines[0] and "line one" in lines[0] and "line two" in lines[0]
    assert "systemMessage" in lines[1]


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"this is not json", "not valid JSON"),
        (b"[1, 2, 3]", "must be a JSON object"),
        (b'"PreToolUse"', "must be a JSON object"),
        (b'{"hook_event_name": "PreToolUze", "session_id": "s"}', "did you mean PreToolUse"),
        (b'{"session_id": "s"}', "hook_event_name"),
        (b"", "not valid JSON"),
    ],
)
def test_bad_payload_is_exit_1_with_a_message(ws: Workspace, stdin: bytes, message: str) -> None:
    config = ws.config({"PreToolUse": [{"hooks": [cmd("echo ran > ran.txt")]}]})
    proc = ws.run("--config", config, stdin=stdin)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert message in proc.stderr
    assert proc.stderr.startswith("agent-hooks: ")
    assert not (ws.tmp / "ran.txt").exists()


def test_fail_closed_turns_a_bad_payload_into_exit_2(ws: Workspace) -> None:
    proc = ws.run("--fail-closed", stdin=b"[]")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "must be a JSON object" in proc.stderr


def test_internal_error_is_exit_1_and_2_when_fail_closed(ws: Workspace) -> None:
    config = ws.config({"PreToolUse": [{"hooks": [cmd("true")]}]})
    broken = textwrap.dedent(
        """\
        import sys
        import agent_hooks

        def boom(self, **kwargs):
            raise RuntimeError("registry exploded")

        agent_hooks.HookRegistry.session = boom
        from agent_hooks._bridges._cli import main
        sys.argv[0] = "agent-hooks"
        sys.exit(main())
        """
    )
    python = [PY, "-c", broken]
    proc = ws.run("--config", config, python=python)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "internal error" in proc.stderr and "registry exploded" in proc.stderr
    proc = ws.run("--config", config, "--fail-closed", python=python)
    assert proc.returncode == 2
    assert "registry exploded" in proc.stderr


def test_missing_config_warns_and_fails_closed(ws: Workspace) -> None:
    missing = ws.hooks / "nope.json"
    proc = ws.run("--config", missing)
    assert answer(proc) == {}
    assert "nope.json" in proc.stderr and "no such file" in proc.stderr
    proc = ws.run("--config", missing, "--fail-closed")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "nope.json" in proc.stderr


def test_configuration_error_fails_closed(ws: Workspace) -> None:
    ws.write("broken.json", "{ this is not json")
    proc = ws.run("--config", ws.hooks / "broken.json")
    assert answer(proc) == {}
    assert "broken.json" in proc.stderr
    proc = ws.run("--config", ws.hooks / "broken.json", "--fail-closed")
    assert proc.returncode == 2
    assert "broken.json" in proc.stderr


def test_unknown_format_is_an_error(ws: Workspace) -> None:
    config = ws.config({})
    proc = ws.run("--config", config, "--format", "nonsense")
    assert proc.returncode == 1 and "nonsense" in proc.stderr
    proc = ws.run("--config", config, "--format", "nonsense", "--fail-closed")
    assert proc.returncode == 2


# -------------------------------------------------------- discovery, trust


def _project_settings(ws: Workspace, event: str = "PreToolUse") -> None:
    ws.write(
        ".claude/settings.json",
        json.dumps({"hooks": {event: [{"hooks": [cmd("echo 'project says no' >&2; exit 2")]}]}}),
        base=ws.project,
    )


def test_discover_is_off_by_default(ws: Workspace) -> None:
    _project_settings(ws, "Stop")
    ws.write(
        ".claude/settings.json",
        json.dumps({"hooks": {"Stop": [{"hooks": [cmd("echo 'user says no' >&2; exit 2")]}]}}),
        base=ws.tmp / "home",
    )
    config = ws.config({"Stop": [{"hooks": [cmd("echo 'config says no' >&2; exit 2")]}]})
    stop = ws.payload("Stop")
    proc = ws.run("--config", config, "--trust-project-hooks", payload=stop)
    assert answer(proc) == {"decision": "block", "reason": "config says no"}
    proc = ws.run(
        "--config",
        config,
        "--trust-project-hooks",
        "--discover",
        "--home",
        ws.tmp / "home",
        payload=stop,
    )
    reasons = answer(proc)["reason"].split("\n")
    assert sorted(reasons) == ["config says no", "project says no", "user says no"]


def test_discover_without_config(ws: Workspace) -> None:
    _project_settings(ws)
    proc = ws.run("--discover", "--home", ws.tmp / "home", "--trust-project-hooks")
    assert answer(proc)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_project_config_needs_trust(ws: Workspace) -> None:
    config = ws.write(
        "agent-hooks.json",
        json.dumps({"hooks": {"PreToolUse": [{"hooks": [cmd("echo 'no' >&2; exit 2")]}]}}),
        base=ws.project,
    )
    proc = ws.run("--config", config)
    assert answer(proc) == {}
    assert "untrusted" in proc.stderr and "not loaded" in proc.stderr
    proc = ws.run("--config", config, "--trust-project-hooks")
    assert answer(proc)["hookSpecificOutput"]["permissionDecision"] == "deny"


GUARD_RAN = "echo ran > {marker}; echo 'project says no' >&2; exit 2"


def _trust(ws: Workspace, path: Path) -> None:
    """Grant trust to ``path`` as it is now, as `agent-hooks trust` does."""
    proc = subprocess.run(
        [PY, "-m", "agent_hooks", "trust", "--project-dir", str(ws.project), "--config", str(path)],
        capture_output=True,
        text=True,
        env=_env(ws.tmp),
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def _guard_config(ws: Workspace, marker: Path) -> Path:
    return ws.write(
        "agent-hooks.json",
        json.dumps({"hooks": {"PreToolUse": [{"hooks": [cmd(GUARD_RAN.format(marker=marker))]}]}}),
        base=ws.project,
    )


def test_fail_closed_exits_2_when_a_config_file_is_untrusted(ws: Workspace) -> None:
    """A guard marked fail-closed never passes silently because its file did not load."""
    marker = ws.tmp / "ran.txt"
    config = _guard_config(ws, marker)
    proc = ws.run("--config", config, "--fail-closed")
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"{config} was not loaded (untrusted)" in proc.stderr
    assert "agent-hooks trust --project-dir" in proc.stderr  # how to fix it
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("agent-hooks: ")
    assert not marker.exists()
    # trusted: the guard runs and decides
    _trust(ws, config)
    proc = ws.run("--config", config, "--fail-closed")
    assert answer(proc)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert marker.exists()
    marker.unlink()
    # edited after it was trusted: its trust is gone, and so is the silent pass
    config.write_text(config.read_text().replace("project says no", "project says NO"))
    proc = ws.run("--config", config, "--fail-closed")
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"{config} was not loaded (untrusted)" in proc.stderr
    assert not marker.exists()
    # without --fail-closed it is still said, and the answer is no opinion
    proc = ws.run("--config", config)
    assert answer(proc) == {} and "untrusted" in proc.stderr and str(config) in proc.stderr


def test_fail_closed_exits_2_when_a_config_file_is_unreadable_or_invalid(ws: Workspace) -> None:
    unreadable = ws.hooks / "a-directory.json"
    unreadable.mkdir()  # exists, cannot be read (a directory: whoever runs the tests)
    proc = ws.run("--config", unreadable)
    assert answer(proc) == {} and str(unreadable) in proc.stderr
    proc = ws.run("--config", unreadable, "--fail-closed")
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"{unreadable} was not loaded (unreadable)" in proc.stderr
    assert "cannot read the file" in proc.stderr
    # untrusted and broken: both are said
    broken = ws.write("broken.json", '{"hooks": {', base=ws.project)
    proc = ws.run("--config", broken, "--fail-closed")
    assert proc.returncode == 2 and f"{broken} was not loaded (untrusted)" in proc.stderr
    # a good file beside a bad one does not make the run pass
    good = ws.config({"PreToolUse": [{"hooks": [cmd("true")]}]})
    proc = ws.run("--config", good, "--config", unreadable, "--fail-closed")
    assert proc.returncode == 2 and str(unreadable) in proc.stderr


def test_fail_closed_covers_discovered_project_files(ws: Workspace) -> None:
    """With --discover, the standard project files count too: an untrusted
    .claude/settings.json under --fail-closed is a block, not a silent pass."""
    _project_settings(ws)
    proc = ws.run("--discover", "--home", ws.tmp / "home", "--fail-closed")
    assert proc.returncode == 2
    assert f"{ws.project / '.claude' / 'settings.json'} was not loaded (untrusted)" in proc.stderr


def test_project_dir_comes_from_claude_project_dir(ws: Workspace) -> None:
    """The payload's cwd says nothing here; $CLAUDE_PROJECT_DIR makes the file a project file."""
    config = ws.config({"PreToolUse": [{"hooks": [cmd("echo 'no' >&2; exit 2")]}]})
    payload = ws.payload(cwd=str(ws.project))
    env = _env(ws.tmp, CLAUDE_PROJECT_DIR=str(ws.tmp))
    proc = ws.run("--config", config, payload=payload, env=env)
    assert answer(proc) == {} and "untrusted" in proc.stderr
    proc = ws.run("--config", config, "--project-dir", ws.project, payload=payload, env=env)
    assert answer(proc)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_several_configs_in_several_formats(ws: Workspace) -> None:
    pytest.importorskip("yaml")
    ws.write("fmt_hooks.py", PY_HOOKS)
    first = ws.config(
        {"PreToolUse": [{"hooks": [{"type": "python", "callable": "fmt_hooks:typed_context"}]}]}
    )
    toml = ws.write(
        "codex.toml",
        """\
        [[hooks.PreToolUse]]
        matcher = "Bash"

        [[hooks.PreToolUse.hooks]]
        type = "command"
        command = "echo 'codex says no' >&2; exit 2"
        """,
    )
    yaml_file = ws.write(
        "dropin.yaml",
        """\
        pre_tool_use:
        - matcher: "Bash"
          hooks:
          - type: python
            callable: fmt_hooks:sdk_context
        """,
    )
    proc = ws.run("--config", first, "--config", toml, "--config", yaml_file)
    out = answer(proc)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert out["permissionDecisionReason"] == "codex says no"
    assert set(out["additionalContext"].split("\n")) == {"typed:ls", "sdk:t1"}


def test_console_script(ws: Workspace) -> None:
    script = Path(PY).parent / "agent-hooks"
    if not script.exists():
        pytest.skip("agent-hooks console script not installed next to the interpreter")
    config = ws.config({"PreToolUse": [{"hooks": [cmd("echo 'no' >&2; exit 2")]}]})
    proc = ws.run("--config", config, python=[str(script)])
    assert answer(proc)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_answer_is_utf8_whatever_the_locale(ws: Workspace) -> None:
    config = ws.config({"SessionStart": [{"hooks": [cmd("echo 'héllo → wörld'")]}]})
    env = _env(ws.tmp, PYTHONIOENCODING="ascii", LC_ALL="C")
    proc = ws.run("--config", config, payload=ws.payload("SessionStart"), env=env)
    assert answer(proc) == {
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": "héllo → wörld",
        }
    }


def test_a_block_without_a_json_form_exits_2_with_the_reason(ws: Workspace) -> None:
    """TeammateIdle takes a block only as exit 2 (Claude Code); run answers that way."""
    cfg = ws.config(
        {"TeammateIdle": [{"hooks": [cmd("echo 'keep working on the tests' >&2; exit 2")]}]}
    )
    proc = ws.run("--config", cfg, payload=ws.payload("TeammateIdle", teammate_name="bob"))
    assert proc.returncode == 2
    assert proc.stderr.strip() == "keep working on the tests"


def test_worktree_create_answers_with_the_path_as_plain_text(ws: Workspace) -> None:
    """A WorktreeCreate command hook's stdout is the path (last line, ANSI stripped)."""
    script = "printf 'Preparing worktree\\n\\033[32m/tmp/wt-1\\033[0m\\n'"
    cfg = ws.config({"WorktreeCreate": [{"hooks": [cmd(script)]}]})
    proc = ws.run("--config", cfg, payload=ws.payload("WorktreeCreate", name="feature"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "/tmp/wt-1\n"


def test_an_elicitation_block_declines(ws: Workspace) -> None:
    cfg = ws.config({"Elicitation": [{"hooks": [cmd("echo no >&2; exit 2")]}]})
    got = answer(ws.run("--config", cfg, payload=ws.payload("Elicitation", mcp_server_name="db")))
    assert got == {"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "decline"}}


# ------------------------------------------------------------- command line


@pytest.mark.parametrize(
    "options",
    [
        ["--config", "{config}"],
        ["--config={config}"],
        ["--config", "{config}", "--config", "{config}", "--report", "--report"],
        ["--format", "nonsense", "--format=claude-hooks", "--config", "{config}"],
    ],
)
def test_every_option_form_argparse_reads(ws: Workspace, options: list[str]) -> None:
    ws.write("guard_hooks.py", PY_HOOKS)
    config = ws.config(
        {"PreToolUse": [{"hooks": [{"type": "python", "callable": "guard_hooks:typed_context"}]}]}
    )
    proc = ws.run(*(option.format(config=config) for option in options))
    got = answer(proc)
    decision = got["decision"] if "--report" in options else got
    context = decision["hookSpecificOutput"]["additionalContext"]
    assert set(context.split("\n")) == {"typed:ls"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--config", "{config}", "--bogus"], "unrecognized arguments: --bogus"),
        (["--config", "{config}", "stray"], "unrecognized arguments: stray"),
        (["--config", "{config}", "--report=yes"], "argument --report"),
        (["--conf", "{config}"], "unrecognized arguments: --conf"),  # no abbreviations
        (["--config"], "argument --config: expected one argument"),
    ],
)
def test_usage_errors_exit_2_and_run_nothing(ws: Workspace, args: list[str], message: str) -> None:
    config = ws.config({"PreToolUse": [{"hooks": [cmd("echo ran > ran.txt")]}]})
    proc = ws.run(*(arg.format(config=config) for arg in args))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("usage: agent-hooks")
    assert message in proc.stderr
    assert not (ws.tmp / "ran.txt").exists()


def test_help_lists_every_option_and_exits_0(ws: Workspace) -> None:
    proc = ws.run("--help", stdin=b"")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("usage: agent-hooks run [-h] [--config PATH]")
    for option in (
        "--config PATH",
        "--format FORMAT",
        "--project-dir DIR",
        "--discover",
        "--home DIR",
        "--trust-project-hooks",
        "--trust-store PATH",
        "--report",
        "--fail-closed",
        "--honor-hel-trust-file",
    ):
        assert option in proc.stdout


def test_without_a_project_dir_the_nearest_project_root_above_cwd_is_the_project(
    tmp_path: Path,
) -> None:
    """No ``--project-dir`` and no ``CLAUDE_PROJECT_DIR``: ``$CLAUDE_PROJECT_DIR`` is the
    nearest directory at or above the payload's cwd that holds a project marker, not the
    subdirectory the harness happens to be in."""
    ws = Workspace(tmp_path)
    (ws.project / ".git").mkdir()
    sub = ws.project / "src" / "pkg"
    sub.mkdir(parents=True)
    echo = 'printf \'{"systemMessage": "%s"}\' "$CLAUDE_PROJECT_DIR"'
    config = ws.config({"PreToolUse": [{"hooks": [{"type": "command", "command": echo}]}]})
    proc = ws.run("--config", config, payload=ws.payload(cwd=str(sub)))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["systemMessage"] == str(ws.project)
    named = ws.run("--config", config, "--project-dir", sub, payload=ws.payload(cwd=str(sub)))
    assert json.loads(named.stdout)["systemMessage"] == str(sub)
