"""Qwen Code 0.24.4 fires PostToolBatch (once after every tool call of a batch resolved)
and UserPromptExpansion (a slash command or skill expands into a prompt): a Qwen
settings file with hooks on them loads, their payloads decode (the batch's tool calls
named as the canonical tools, Qwen's own names given back to Qwen's hooks), and the
answers are in Qwen's shape (Claude Code's: ``decision: "block"``,
``hookSpecificOutput.additionalContext``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import agent_hooks
from agent_hooks import TrustPolicy, discover
from tests.config_helpers import check_json, cli, script, write

BASE = {
    "session_id": "s1",
    "transcript_path": "/t.jsonl",
    "cwd": "/w",
    "timestamp": "2026-12-02T08:00:00.000Z",
}
BATCH: dict[str, Any] = {
    **BASE,
    "hook_event_name": "PostToolBatch",
    "permission_mode": "default",
    "tool_calls": [
        {
            "tool_name": "run_shell_command",
            "tool_input": {"command": "npm test"},
            "tool_use_id": "u1",
            "tool_call_id": "call_1",
            "status": "success",
            "tool_response": "ok",
        },
        {
            "tool_name": "read_file",
            "tool_input": {"absolute_path": "/w/a.ts"},
            "tool_use_id": "u2",
            "tool_call_id": "call_2",
            "status": "success",
            "tool_response": "text",
        },
    ],
}
EXPANSION = {
    **BASE,
    "hook_event_name": "UserPromptExpansion",
    "command_name": "review",
    "command_args": "src/",
    "prompt": "/review src/",
}


def _settings(project: Path, batch_hook: Path, expansion_hook: Path) -> Path:
    return write(
        project / ".qwen" / "settings.json",
        {
            "hooks": {
                "PostToolBatch": [
                    {"hooks": [{"type": "command", "command": str(batch_hook), "timeout": 5000}]}
                ],
                "UserPromptExpansion": [
                    {
                        "matcher": "review",
                        "hooks": [{"type": "command", "command": str(expansion_hook)}],
                    }
                ],
            }
        },
    )


def _hooks(tmp: Path) -> tuple[Path, Path, Path]:
    seen = tmp / "seen.jsonl"
    record = f"open({str(seen)!r}, 'a').write(json.dumps(p) + '\\n')\n"
    batch = script(
        tmp / "batch.py",
        "p = json.load(sys.stdin)\n"
        + record
        + "names = [c['tool_name'] for c in p['tool_calls']]\n"
        "if 'run_shell_command' in names:\n"
        "    print(json.dumps({'decision': 'block', 'reason': 'tests ran: review first'}))",
    )
    expansion = script(
        tmp / "expansion.py",
        "p = json.load(sys.stdin)\n" + record + "print(json.dumps({'hookSpecificOutput': {"
        "'hookEventName': 'UserPromptExpansion', 'additionalContext': 'be thorough'}}))",
    )
    return batch, expansion, seen


def _project(tmp: Path) -> Path:
    project = tmp / "proj"
    (project / ".git").mkdir(parents=True)
    return project


def test_a_settings_file_with_the_new_events_loads(tmp_path: Path) -> None:
    project = _project(tmp_path)
    batch, expansion, _ = _hooks(tmp_path)
    _settings(project, batch, expansion)
    config = discover(
        project, home=tmp_path / "home", ecosystems=("qwen",), trust=TrustPolicy(trust_all=True)
    )
    assert [d for d in config.diagnostics if d.severity.value != "info"] == []
    groups = [g for sg in config.sources for g in sg.groups]
    assert sorted((str(g.event), g.matcher) for g in groups) == [
        ("PostToolBatch", None),
        ("UserPromptExpansion", "review"),
    ]
    report = check_json(tmp_path, "--project-dir", str(project), "--trust-project-hooks")
    assert report["_rc"] == 0
    (hook,) = report["events"]["PostToolBatch"]
    assert hook["dialect"] == "qwen" and hook["timeout"] == 5.0
    assert [h["matcher"] for h in report["events"]["UserPromptExpansion"]] == ["review"]


def test_the_payloads_decode() -> None:
    decoded = agent_hooks.decode_payload(BATCH, dialect="qwen")
    assert decoded.native_event is not None and decoded.native_event.name == "PostToolBatch"
    assert [d for d in decoded.diagnostics if d.severity.value != "info"] == []
    calls = decoded.input.tool_calls
    assert [(c.tool_name, dict(c.tool_input)) for c in calls] == [
        ("Bash", {"command": "npm test"}),
        ("Read", {"file_path": "/w/a.ts"}),
    ]
    decoded = agent_hooks.decode_payload(EXPANSION, dialect="qwen")
    assert decoded.native_event is not None and decoded.diagnostics == ()
    assert decoded.input.command_name == "review" and decoded.input.prompt == "/review src/"


def test_qwen_hooks_get_qwen_payloads_and_answer_in_qwen_shape(tmp_path: Path) -> None:
    project = _project(tmp_path)
    batch, expansion, seen = _hooks(tmp_path)
    _settings(project, batch, expansion)
    args = ("run", "--dialect", "qwen", "--discover", "--trust-project-hooks", "--fail-closed")
    proc = cli(tmp_path, *args, stdin={**BATCH, "cwd": str(project)}, cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"decision": "block", "reason": "tests ran: review first"}
    proc = cli(tmp_path, *args, stdin={**EXPANSION, "cwd": str(project)}, cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "UserPromptExpansion",
            "additionalContext": "be thorough",
        }
    }
    other = {**EXPANSION, "cwd": str(project), "command_name": "deploy"}
    proc = cli(tmp_path, *args, stdin=other, cwd=project)
    assert proc.returncode == 0 and proc.stdout.strip() == "{}", proc.stderr
    payloads = [json.loads(line) for line in seen.read_text().splitlines()]
    assert payloads[0]["tool_calls"] == BATCH["tool_calls"]  # Qwen's own names and keys
    assert payloads[1]["command_name"] == "review"
    assert len(payloads) == 2
