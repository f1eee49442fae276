"""Configuration files are read the way their harness reads them: Gemini CLI's and Qwen
Code's ``settings.json`` may hold ``//`` and ``/* */`` comments (they parse it as
``JSON.parse(stripJsonComments(text))``), so such a file loads through ``agent-hooks run
--dialect gemini --discover`` and ``agent-hooks check``, and under ``--fail-closed`` it
does not block; a Gemini extension's ``hooks/hooks.json`` and Claude Code's
``settings.json`` stay plain JSON, as their harnesses read them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent_hooks import TrustPolicy, discover
from tests.config_helpers import check_json, cli, script, write


def _guard(tmp: Path) -> Path:
    return script(
        tmp / "guard.py",
        "p = json.load(sys.stdin)\n"
        "if 'rm -rf' in p['tool_input'].get('command', ''):\n"
        "    print(json.dumps({'decision': 'deny', 'reason': 'not on my watch'}))",
    )


def _settings(command: str) -> str:
    """A Gemini settings file with comments of every kind, and ``//`` and ``/* */`` inside
    strings that must stay as they are."""
    return f"""// Gemini CLI settings (JSON with comments)
{{
  /* general settings */
  "general": {{ "vimMode": true }}, // trailing comment
  "docs": "https://example.com/a//b /* not a comment */",
  "hooks": {{
    "BeforeTool": [
      {{
        "matcher": "run_shell_command", /* the shell tool */
        "hooks": [
          {{
            "type": "command",
            // the guard
            "command": {json.dumps(command)},
            "timeout": 20000 /* ms */
          }}
        ]
      }}
    ]
  }}
}}
/* end */
"""


def _payload(project: Path, command: str) -> dict[str, Any]:
    return {
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": str(project),
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-01T14:28:59.751Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command},
    }


def _project(tmp: Path) -> Path:
    project = tmp / "proj"
    (project / ".git").mkdir(parents=True)
    return project


def test_user_settings_with_comments_load_and_do_not_block_under_fail_closed(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    command = f"{_guard(tmp_path)} 'https://example.com/x' '/* kept */' '// kept'"
    write(tmp_path / "home" / ".gemini" / "settings.json", _settings(command))
    args = ("run", "--dialect", "gemini", "--discover", "--fail-closed")
    proc = cli(tmp_path, *args, stdin=_payload(project, "ls"), cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "{}"
    proc = cli(tmp_path, *args, stdin=_payload(project, "rm -rf /"), cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"decision": "deny", "reason": "not on my watch"}


def test_check_lists_the_hooks_of_a_commented_file_with_strings_intact(tmp_path: Path) -> None:
    project = _project(tmp_path)
    command = f"{_guard(tmp_path)} 'https://example.com/x' '/* kept */' '// kept'"
    write(project / ".gemini" / "settings.json", _settings(command))
    report = check_json(tmp_path, "--project-dir", str(project), "--trust-project-hooks")
    assert report["_rc"] == 0, report["diagnostics"]
    (file,) = [f for f in report["files"] if f["format"] == "gemini-settings"]
    assert file["status"] == "loaded" and file["trust"] == "trusted"
    (hook,) = report["events"]["PreToolUse"]
    assert hook["name"] == command and hook["timeout"] == 20.0
    assert hook["matcher"] == "run_shell_command"
    assert [d for d in report["diagnostics"] if d["severity"] != "info"] == []


def test_project_settings_with_comments_and_no_hooks_need_no_trust(tmp_path: Path) -> None:
    project = _project(tmp_path)
    write(project / ".gemini" / "settings.json", '{\n  // just a theme\n  "ui": {"theme": "x"}\n}')
    config = discover(project, home=tmp_path / "home", ecosystems=("gemini",), trust=False)
    assert [f.trust for f in config.files] == ["not-needed"] and config.errors == ()
    args = ("run", "--dialect", "gemini", "--discover", "--fail-closed")
    proc = cli(tmp_path, *args, stdin=_payload(project, "rm -rf /"), cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "{}"


def test_a_bad_comment_is_reported_where_it_is(tmp_path: Path) -> None:
    project = _project(tmp_path)
    # line 3 column 14: the value the unclosed comment swallowed is missing
    write(project / ".gemini" / "settings.json", '{\n  // fine\n  "hooks": /* never closed\n}\n')
    config = discover(
        project, home=tmp_path / "home", ecosystems=("gemini",), trust=TrustPolicy(trust_all=True)
    )
    (error,) = config.errors
    assert error.location == "line 5 column 1"
    assert "comments allowed" in error.message
    assert "the /* comment at line 3 column 12 is never closed" in error.message


def test_an_extension_hooks_file_stays_plain_json(tmp_path: Path) -> None:
    project = _project(tmp_path)
    home = tmp_path / "home"
    write(home / ".gemini" / "settings.json", _settings("echo settings"))
    ext = home / ".gemini" / "extensions" / "ext" / "hooks" / "hooks.json"
    write(ext, '{"hooks": {"BeforeTool": []} // Gemini parses this with JSON.parse\n}')
    config = discover(project, home=home, ecosystems=("gemini",))
    (error,) = config.errors
    assert error.source == str(ext) and error.location == "line 1 column 30"
    assert "comments allowed" not in error.message
    assert [f.status for f in config.files] == ["loaded", "invalid"]


def test_claude_settings_stay_plain_json(tmp_path: Path) -> None:
    project = _project(tmp_path)
    write(project / ".gemini" / "settings.json", _settings("echo gemini"))
    write(
        project / ".claude" / "settings.json", '{\n  // Claude Code refuses this\n  "hooks": {}\n}'
    )
    report = check_json(tmp_path, "--project-dir", str(project), "--trust-project-hooks")
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert [(e["source"], e["location"]) for e in errors] == [
        (str(project / ".claude" / "settings.json"), "line 2 column 3")
    ]
    assert [h["name"] for h in report["events"]["PreToolUse"]] == ["echo gemini"]


def test_qwen_settings_with_comments_load(tmp_path: Path) -> None:
    project = _project(tmp_path)
    write(
        project / ".qwen" / "settings.json",
        "{ /* Qwen Code reads this as JSON with comments */\n"
        '  "hooks": {"PreToolUse": [{"matcher": "run_shell_command", // the shell\n'
        '    "hooks": [{"type": "command", "command": "echo //kept"}]}]}}\n',
    )
    config = discover(
        project, home=tmp_path / "home", ecosystems=("qwen",), trust=TrustPolicy(trust_all=True)
    )
    assert config.errors == ()
    (group,) = [g for sg in config.sources for g in sg.groups]
    assert group.matcher == "run_shell_command"
    assert [n.name for n in group.nodes] == ["echo //kept"]
