"""Cursor ``hooks.json`` files load unchanged: ``version: 1``, flat per-event lists,
per-entry ``matcher`` compared with what Cursor compares it with, ``timeout`` in
seconds, ``failClosed``, ``loop_limit``; project files behind trust; ``check`` lists
them and ``run`` dispatches to them in Cursor's shape."""

from __future__ import annotations

import json
from pathlib import Path

from agent_hooks import discover, load
from tests.config_helpers import check_json, cli, script, write

REALISTIC = {
    "version": 1,
    "hooks": {
        "preToolUse": [
            {
                "command": ".cursor/hooks/guard.sh",
                "type": "command",
                "matcher": "Shell",
                "timeout": 30,
                "failClosed": True,
            }
        ],
        "beforeShellExecution": [{"command": ".cursor/hooks/no-rm.sh", "matcher": "rm -rf"}],
        "beforeReadFile": [{"command": ".cursor/hooks/secrets.sh", "matcher": "Read"}],
        "afterFileEdit": [{"command": "npx prettier --write", "timeout": 60}],
        "stop": [{"command": "./hooks/loop.sh", "loop_limit": None}],
        "sessionStart": [{"command": "echo hello"}],
    },
}


def test_a_realistic_file_is_listed_by_check(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write(project / ".cursor" / "hooks.json", REALISTIC)
    report = check_json(tmp_path, "--project-dir", str(project), "--trust-project-hooks")
    events = report["events"]
    assert [
        (h["location"], h["matcher"], h["timeout"], h["on_error"]) for h in events["PreToolUse"]
    ] == [
        ("hooks.preToolUse[0]", "Shell", 30.0, "block"),
        ("hooks.beforeShellExecution[0]", "Bash", 30.0, "warn"),
        ("hooks.beforeReadFile[0]", "Read", 30.0, "warn"),
    ]
    assert [(h["location"], h["matcher"], h["timeout"]) for h in events["PostToolUse"]] == [
        ("hooks.afterFileEdit[0]", "Edit", 60.0)
    ]
    assert [h["location"] for h in events["Stop"]] == ["hooks.stop[0]"]
    assert [h["location"] for h in events["SessionStart"]] == ["hooks.sessionStart[0]"]
    (file,) = [f for f in report["files"] if f["format"] == "cursor"]
    assert (file["status"], file["trust"], file["handlers"]) == ("loaded", "trusted", 6)
    assert not [
        d for d in report["diagnostics"] if d["code"] in ("invalid_config", "invalid_handler")
    ]


def test_project_file_needs_trust_user_file_does_not(tmp_path: Path) -> None:
    project, home = tmp_path / "proj", tmp_path / "home"
    write(project / ".cursor" / "hooks.json", REALISTIC)
    write(
        home / ".cursor" / "hooks.json", {"version": 1, "hooks": {"stop": [{"command": "echo u"}]}}
    )
    config = discover(project, home=home, ecosystems=("cursor",), trust=False)
    status = {f.scope: f.status for f in config.files}
    assert status == {"project": "untrusted", "user": "loaded"}


def test_version_and_shape_errors_refuse_the_file(tmp_path: Path) -> None:
    for doc in ({"version": 2, "hooks": {}}, {"version": 1, "hooks": []}):
        path = write(tmp_path / "home" / ".cursor" / "hooks.json", doc)
        config = load(path, home=tmp_path / "home")
        assert config.files[0].format == "cursor"
        assert config.registry().compile().nodes == {}
        assert any(
            d.code.value == "invalid_config" and d.severity.value == "error"
            for d in config.diagnostics
        )


def test_bad_entries_are_dropped_alone(tmp_path: Path) -> None:
    doc = {
        "version": 1,
        "hooks": {
            "preToolUse": [
                42,
                {"matcher": "Shell"},
                {"command": "echo ok", "matcher": "("},
                {"command": "echo kept"},
            ],
            "beforeSubmitPrompt": [{"command": "echo never", "matcher": "Stop"}],
            "notAnEvent": [{"command": "echo x"}],  # (Cursor has more events: carried untyped)
            "not an event": [{"command": "echo x"}],
        },
    }
    path = write(tmp_path / "home" / ".cursor" / "hooks.json", doc)
    config = load(path, home=tmp_path / "home")
    registry = config.registry()
    nodes = registry.compile().nodes
    assert [cn.node.name for cn in nodes["PreToolUse"]] == ["echo kept"]
    assert "UserPromptSubmit" not in nodes  # its matcher never matches what Cursor compares
    codes = [d.code.value for d in registry.diagnostics]
    assert codes.count("invalid_handler") == 2 and "invalid_matcher" in codes
    assert "unsupported_matcher" in codes and "invalid_config" in codes
    assert "untyped_event" in codes
    assert {str(e): [cn.node.name for cn in n] for e, n in nodes.items() if "ent" in str(e)} == {
        "notAnEvent": ["echo x"]
    }


def _project(tmp_path: Path, hooks: dict[str, object]) -> Path:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    write(project / ".cursor" / "hooks.json", {"version": 1, "hooks": hooks})
    return project


def _shell(project: Path, command: str) -> dict[str, object]:
    return {
        "conversation_id": "c",
        "generation_id": "g",
        "hook_event_name": "beforeShellExecution",
        "workspace_roots": [str(project)],
        "command": command,
        "cwd": str(project),
        "sandbox": False,
    }


def test_a_shell_hook_matches_the_command_and_gets_its_payload(tmp_path: Path) -> None:
    seen = tmp_path / "seen.jsonl"
    guard = script(
        tmp_path / "guard.py",
        f"p = json.load(sys.stdin); open({str(seen)!r}, 'a').write(json.dumps(p) + '\\n')\n"
        "print(json.dumps({'permission': 'deny', 'user_message': 'no rm', 'agent_message': 'no rm'}))",
    )
    project = _project(
        tmp_path, {"beforeShellExecution": [{"command": str(guard), "matcher": "rm -rf"}]}
    )
    proc = cli(
        tmp_path, "run", "--discover", "--trust-project-hooks", stdin=_shell(project, "rm -rf /")
    )
    assert (
        proc.stdout.strip()
        == '{"permission":"deny","user_message":"no rm","agent_message":"no rm"}'
    )
    proc = cli(tmp_path, "run", "--discover", "--trust-project-hooks", stdin=_shell(project, "ls"))
    assert proc.stdout.strip() == "{}"
    payloads = [json.loads(line) for line in seen.read_text().splitlines()]
    assert len(payloads) == 1
    assert (
        payloads[0]["hook_event_name"] == "beforeShellExecution"
        and payloads[0]["command"] == "rm -rf /"
    )
    # and a Claude Code call of the same moment reaches it too, as Cursor would shape it
    claude = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /tmp/x"},
    }
    proc = cli(tmp_path, "run", "--discover", "--trust-project-hooks", stdin=claude)
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_fail_closed_blocks_on_a_crash_and_on_an_empty_answer(tmp_path: Path) -> None:
    crash = script(tmp_path / "crash.py", "sys.exit(1)")
    quiet = script(tmp_path / "quiet.py", "pass")
    for hook in (crash, quiet):
        project = _project(
            tmp_path, {"beforeShellExecution": [{"command": str(hook), "failClosed": True}]}
        )
        proc = cli(
            tmp_path, "run", "--discover", "--trust-project-hooks", stdin=_shell(project, "ls")
        )
        assert json.loads(proc.stdout)["permission"] == "deny", proc.stderr
    project = _project(tmp_path, {"beforeShellExecution": [{"command": str(crash)}]})
    proc = cli(tmp_path, "run", "--discover", "--trust-project-hooks", stdin=_shell(project, "ls"))
    assert proc.stdout.strip() == "{}"


def test_loop_limit(tmp_path: Path) -> None:
    again = script(tmp_path / "again.py", "print(json.dumps({'followup_message': 'again'}))")
    project = _project(tmp_path, {"stop": [{"command": str(again), "loop_limit": 2}]})
    stop = {
        "conversation_id": "c",
        "hook_event_name": "stop",
        "status": "completed",
        "workspace_roots": [str(project)],
    }
    outs = [
        cli(
            tmp_path, "run", "--discover", "--trust-project-hooks", stdin={**stop, "loop_count": n}
        ).stdout.strip()
        for n in (0, 1, 2)
    ]
    assert outs == ['{"followup_message":"again"}', '{"followup_message":"again"}', "{}"]


def test_a_python_handler_sits_beside_cursor_entries(tmp_path: Path) -> None:
    write(tmp_path / "home" / ".cursor" / "guards.py", "def deny(input):\n    return None\n")
    doc = {
        "version": 1,
        "hooks": {
            "preToolUse": [{"type": "python", "callable": "guards:deny", "matcher": "Shell"}]
        },
    }
    config = load(write(tmp_path / "home" / ".cursor" / "hooks.json", doc), home=tmp_path / "home")
    (cn,) = config.registry().compile().nodes["PreToolUse"]
    assert cn.node.kind == "python" and cn.info.matcher == "Shell"
    assert not [d for d in config.diagnostics if d.severity.value != "info"]
