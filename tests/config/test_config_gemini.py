"""Gemini CLI settings files load unchanged: ``hooks`` with Gemini's event names,
timeouts in milliseconds (default 60 s), ``hooksConfig`` switches, extensions, project
files behind trust; ``check`` lists them and ``run`` dispatches to them in Gemini's
shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent_hooks import TrustPolicy, discover, load
from agent_hooks._events._untyped import UntypedEvent
from tests.config_helpers import check_json, cli, script, write

REALISTIC = {
    "general": {"vimMode": True},
    "hooksConfig": {"enabled": True, "disabled": ["old-hook"]},
    "hooks": {
        "BeforeTool": [
            {
                "matcher": "write_file|replace",
                "sequential": False,
                "hooks": [
                    {
                        "type": "command",
                        "name": "guard",
                        "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh",
                        "timeout": 5000,
                        "description": "block writes to secrets",
                        "env": {"MODE": "strict"},
                    }
                ],
            },
            {
                "matcher": "run_shell_command",
                "hooks": [{"type": "command", "name": "old-hook", "command": "echo old"}],
            },
        ],
        "AfterAgent": [{"hooks": [{"type": "command", "command": "echo check"}]}],
        "BeforeModel": [{"hooks": [{"type": "command", "command": "echo model", "timeout": 1500}]}],
        "SessionStart": [
            {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}
        ],
    },
}


def test_a_realistic_file_is_listed_by_check(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write(project / ".gemini" / "settings.json", REALISTIC)
    report = check_json(tmp_path, "--project-dir", str(project), "--trust-project-hooks")
    assert report["_rc"] == 0
    events = report["events"]
    pre = events["PreToolUse"]
    assert [(h["name"], h["matcher"], h["timeout"], h["disabled"] is not None) for h in pre] == [
        ("guard", "write_file|replace", 5.0, False),
        ("old-hook", "run_shell_command", 60.0, True),
    ]
    assert all(h["dialect"] == "gemini" for h in pre)
    assert [h["name"] for h in events["Stop"]] == ["echo check"]
    # Gemini's BeforeModel is the typed BeforeLLMCall
    assert events["BeforeLLMCall"][0]["timeout"] == 1.5
    assert events["BeforeLLMCall"][0]["typed"] is True
    assert events["SessionStart"][0]["matcher"] == "startup"
    (file,) = [f for f in report["files"] if f["format"] == "gemini-settings"]
    assert file["status"] == "loaded" and file["trust"] == "trusted" and file["scope"] == "project"
    warnings = [d for d in report["diagnostics"] if d["severity"] == "warning"]
    assert warnings == []


def test_project_settings_need_trust(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write(project / ".gemini" / "settings.json", REALISTIC)
    config = discover(project, home=tmp_path / "home", ecosystems=("gemini",), trust=False)
    assert next(f.status for f in config.files if f.format == "gemini-settings") == "untrusted"
    assert config.registry().compile().nodes == {}


def test_a_settings_file_without_hooks_needs_no_trust(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write(project / ".gemini" / "settings.json", {"general": {"vimMode": True}})
    config = discover(project, home=tmp_path / "home", ecosystems=("gemini",), trust=False)
    assert all(f.status == "loaded" for f in config.files)


def test_layers_add_up_and_hooks_config_applies_across_files(tmp_path: Path) -> None:
    project, home = tmp_path / "proj", tmp_path / "home"
    write(project / ".gemini" / "settings.json", REALISTIC)
    write(
        home / ".gemini" / "settings.json",
        {
            "hooksConfig": {"disabled": ["guard"]},
            "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo user"}]}]},
        },
    )
    write(
        home / ".gemini" / "extensions" / "fmt" / "hooks" / "hooks.json",
        {"hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "echo fmt"}]}]}},
    )
    config = discover(project, home=home, ecosystems=("gemini",), trust=TrustPolicy(trust_all=True))
    nodes = config.registry().compile().nodes
    names = [(cn.node.name, cn.node.disabled is None) for cn in nodes["PreToolUse"]]
    assert ("echo user", True) in names
    assert ("guard", True) not in names  # listed in the user's hooksConfig.disabled
    assert [cn.node.name for cn in nodes["PostToolUse"]] == ["echo fmt"]
    (extension,) = [f for f in config.files if "extensions" in f.path]
    assert extension.precedence == 400 and extension.scope == "plugin"


def test_hooks_switched_off(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write(project / ".gemini" / "settings.json", {**REALISTIC, "hooksConfig": {"enabled": False}})
    config = load(project / ".gemini" / "settings.json", project_dir=project, trust=True)
    assert config.files[0].status == "disabled"
    assert config.registry().compile().nodes == {}


def test_bad_pieces_are_dropped_alone(tmp_path: Path) -> None:
    doc: dict[str, Any] = {
        "hooks": {
            "BeforeTool": [
                {"matcher": 3, "hooks": [{"type": "command", "command": "echo a"}]},
                {"hooks": [{"type": "command", "command": "echo b"}, {"type": "command"}]},
            ],
            "BeforeTools": [{"hooks": [{"type": "command", "command": "echo c"}]}],
        }
    }
    path = write(tmp_path / "home" / ".gemini" / "settings.json", doc)
    config = load(path, home=tmp_path / "home")
    assert config.files[0].format == "gemini-settings"
    nodes = config.registry().compile().nodes
    assert [cn.node.name for cn in nodes["PreToolUse"]] == ["echo b"]
    codes = {d.code.value for d in config.diagnostics}
    assert {"invalid_config", "invalid_handler"} <= codes
    assert not any(isinstance(e, UntypedEvent) for e in nodes)


def test_a_gemini_hook_answers_a_gemini_call_and_a_claude_call(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    seen = tmp_path / "seen.jsonl"
    guard = script(
        tmp_path / "guard.py",
        f"p = json.load(sys.stdin); open({str(seen)!r}, 'a').write(json.dumps(p) + '\\n')\n"
        "if 'rm -rf' in p['tool_input']['command']:\n"
        "    print(json.dumps({'decision': 'deny', 'reason': 'not on my watch'}))",
    )
    write(
        project / ".gemini" / "settings.json",
        {
            "hooks": {
                "BeforeTool": [
                    {
                        "matcher": "run_shell_command",
                        "hooks": [{"type": "command", "command": str(guard), "timeout": 20000}],
                    }
                ]
            }
        },
    )
    gemini = {
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": str(project),
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-01T14:28:59.751Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf /"},
    }
    proc = cli(tmp_path, "run", "--discover", "--trust-project-hooks", stdin=gemini)
    assert proc.stdout.strip() == '{"decision":"deny","reason":"not on my watch"}', proc.stderr
    claude = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
    }
    proc = cli(tmp_path, "run", "--discover", "--trust-project-hooks", stdin=claude)
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    payloads = [json.loads(line) for line in seen.read_text().splitlines()]
    assert [p["hook_event_name"] for p in payloads] == ["BeforeTool", "BeforeTool"]
    assert {p["tool_name"] for p in payloads} == {"run_shell_command"}


def test_gemini_variables_are_set_whoever_calls(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    script(
        project / ".gemini" / "hooks" / "guard.py",
        "import os\n"
        "print(json.dumps({'decision': 'deny', 'reason': os.environ['GEMINI_PROJECT_DIR'] + "
        "' ' + os.environ['GEMINI_SESSION_ID']}))",
    )
    write(
        project / ".gemini" / "settings.json",
        {
            "hooks": {
                "BeforeTool": [
                    {
                        "matcher": "run_shell_command",
                        "hooks": [
                            {
                                "type": "command",
                                "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.py",
                            }
                        ],
                    }
                ]
            }
        },
    )
    claude = {
        "session_id": "s-42",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    }
    proc = cli(tmp_path, "run", "--discover", "--trust-project-hooks", stdin=claude)
    specific = json.loads(proc.stdout)["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny", proc.stderr
    assert specific["permissionDecisionReason"] == f"{project} s-42"
