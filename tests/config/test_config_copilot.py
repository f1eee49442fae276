"""GitHub Copilot hook files load unchanged: ``.github/hooks/*.json`` and
``$COPILOT_HOME/hooks/*.json`` (a bad entry dropped alone, a bad ``version`` or event
list refusing the file), inline ``hooks`` in its settings files (strict), policy files
(root-owned only), ``disableAllHooks``; camelCase entries get Copilot's payloads and
PascalCase entries Claude's; ``check`` lists them and ``run`` dispatches to them."""

from __future__ import annotations

import json
from pathlib import Path

from agent_hooks import TrustPolicy, discover, load
from agent_hooks._config._copilot import load_copilot_dir
from tests.config_helpers import check_json, cli, script, write

REALISTIC = {
    "version": 1,
    "hooks": {
        "preToolUse": [
            {
                "type": "command",
                "matcher": "bash|edit",
                "bash": "./scripts/guard.sh",
                "powershell": "./scripts/guard.ps1",
                "cwd": ".",
                "env": {"MODE": "strict"},
                "timeoutSec": 15,
            }
        ],
        "postToolUse": [
            {
                "type": "http",
                "url": "https://hooks.example.com/c",
                "headers": {"X-Src": "cli"},
                "allowedEnvVars": ["GITHUB_TOKEN"],
                "timeoutSec": 30,
            }
        ],
        "sessionStart": [{"type": "prompt", "prompt": "/plan"}],
        "agentStop": [{"bash": "./scripts/stop.sh"}],
        "PreToolUse": [{"matcher": "Bash", "command": "./scripts/claude-style.sh", "timeout": 5}],
    },
}


def test_a_realistic_file_is_listed_by_check(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write(project / ".github" / "hooks" / "guard.json", REALISTIC)
    report = check_json(tmp_path, "--project-dir", str(project), "--trust-project-hooks")
    events = report["events"]
    assert [(h["name"], h["matcher"], h["timeout"]) for h in events["PreToolUse"]] == [
        ("./scripts/guard.sh", "bash|edit", 15.0),
        ("./scripts/claude-style.sh", "Bash", 5.0),
    ]
    assert [(h["type"], h["timeout"]) for h in events["PostToolUse"]] == [("http", 30.0)]
    assert events["SessionStart"][0]["disabled"] is not None  # prompt hooks: listed, never run
    assert [(h["name"], h["timeout"]) for h in events["Stop"]] == [("./scripts/stop.sh", 30.0)]
    (file,) = [f for f in report["files"] if f["format"] == "copilot-hooks"]
    assert (file["status"], file["trust"], file["scope"]) == ("loaded", "trusted", "project")
    assert report["_rc"] == 0


def test_repository_hooks_need_trust(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write(project / ".github" / "hooks" / "guard.json", REALISTIC)
    config = discover(project, home=tmp_path / "home", ecosystems=("copilot",), trust=False)
    assert [f.status for f in config.files if f.format == "copilot-hooks"] == ["untrusted"]


def test_a_bad_entry_is_dropped_alone_in_a_hooks_file(tmp_path: Path) -> None:
    doc = {
        "version": 1,
        "hooks": {"preToolUse": [{"bash": "echo ok"}, "nope", {"type": "command"}]},
    }
    config = load(
        write(tmp_path / "home" / ".copilot" / "hooks" / "a.json", doc), home=tmp_path / "home"
    )
    assert config.files[0].format == "copilot-hooks"
    assert [cn.node.name for cn in config.registry().compile().nodes["PreToolUse"]] == ["echo ok"]


def test_a_bad_version_or_event_list_refuses_the_file(tmp_path: Path) -> None:
    for doc in (
        {"version": 2, "hooks": {"preToolUse": [{"bash": "echo a"}]}},
        {
            "version": 1,
            "hooks": {"preToolUse": {"bash": "echo a"}, "agentStop": [{"bash": "echo b"}]},
        },
    ):
        path = write(tmp_path / "home" / ".copilot" / "hooks" / "a.json", doc)
        config = load(path, home=tmp_path / "home")
        assert config.registry().compile().nodes == {}
        assert any(d.severity.value == "error" for d in config.diagnostics)


def test_inline_settings_hooks_are_strict(tmp_path: Path) -> None:
    home = tmp_path / "home"
    good = {"hooks": {"agentStop": [{"bash": "echo a"}]}, "model": "gpt-5"}
    bad = {"hooks": {"agentStop": [{"bash": "echo a"}, {"type": "command"}]}}
    config = load(write(home / ".copilot" / "settings.json", good), home=home)
    assert config.files[0].format == "copilot-settings"
    assert len(config.registry().compile().nodes["Stop"]) == 1
    config = load(write(home / ".copilot" / "settings.json", bad), home=home)
    assert config.registry().compile().nodes == {}
    assert any("strict" in d.message for d in config.diagnostics)


def test_disable_all_hooks(tmp_path: Path) -> None:
    project, home = tmp_path / "proj", tmp_path / "home"
    write(project / ".github" / "hooks" / "a.json", {**REALISTIC, "disableAllHooks": True})
    write(
        home / ".copilot" / "hooks" / "b.json",
        {"version": 1, "hooks": {"agentStop": [{"bash": "echo u"}]}},
    )
    config = discover(
        project, home=home, ecosystems=("copilot",), trust=TrustPolicy(trust_all=True)
    )
    status = {Path(f.path).name: f.status for f in config.files}
    assert status["a.json"] == "disabled" and status["b.json"] == "loaded"
    write(project / ".github" / "copilot" / "settings.json", {"disableAllHooks": True})
    write(project / ".github" / "hooks" / "a.json", REALISTIC)
    config = discover(
        project, home=home, ecosystems=("copilot",), trust=TrustPolicy(trust_all=True)
    )
    assert config.registry().compile().nodes == {}


def test_policy_files_must_be_root_owned(tmp_path: Path) -> None:
    policy = tmp_path / "policy.d"
    write(
        policy / "10-guard.json", {"version": 1, "hooks": {"preToolUse": [{"bash": "echo policy"}]}}
    )
    refused = load_copilot_dir(None, home=tmp_path / "home", policy_dir=policy)
    accepted = load_copilot_dir(
        None, home=tmp_path / "home", policy_dir=policy, require_root_policy=False
    )
    import os

    if os.geteuid() != 0:
        assert refused.registry().compile().nodes == {}
    assert [f.precedence for f in accepted.files if "policy" in f.path] == [100]
    assert [cn.node.name for cn in accepted.registry().compile().nodes["PreToolUse"]] == [
        "echo policy"
    ]


def _project(tmp_path: Path, hooks: dict[str, object]) -> Path:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    write(project / ".github" / "hooks" / "guard.json", {"version": 1, "hooks": hooks})
    return project


def _pre(project: Path, command: str) -> dict[str, object]:
    return {
        "sessionId": "s",
        "timestamp": 1,
        "cwd": str(project),
        "toolName": "bash",
        "toolArgs": {"command": command},
    }


def test_camel_and_pascal_entries_get_their_own_payloads(tmp_path: Path) -> None:
    seen = tmp_path / "seen.jsonl"
    record = f"p = json.load(sys.stdin); open({str(seen)!r}, 'a').write(json.dumps(p) + '\\n')\n"
    camel = script(
        tmp_path / "camel.py",
        record
        + "print(json.dumps({'permissionDecision': 'deny', 'permissionDecisionReason': 'camel says no'}))",
    )
    pascal = script(tmp_path / "pascal.py", record)
    project = _project(
        tmp_path,
        {
            "preToolUse": [{"matcher": "bash", "bash": str(camel)}],
            "PreToolUse": [{"matcher": "Bash", "command": str(pascal)}],
        },
    )
    proc = cli(
        tmp_path,
        "run",
        "--discover",
        "--trust-project-hooks",
        "--event",
        "preToolUse",
        stdin=_pre(project, "rm -rf /"),
    )
    assert (
        proc.stdout.strip()
        == '{"permissionDecision":"deny","permissionDecisionReason":"camel says no"}'
    ), proc.stderr
    payloads = [json.loads(line) for line in seen.read_text().splitlines()]
    by_shape = {("toolName" in p): p for p in payloads}
    assert by_shape[True]["toolName"] == "bash" and "hook_event_name" not in by_shape[True]
    assert (
        by_shape[False]["hook_event_name"] == "PreToolUse"
        and by_shape[False]["tool_name"] == "Bash"
    )


def test_a_crashing_guard_fails_closed(tmp_path: Path) -> None:
    crash = script(tmp_path / "crash.py", "sys.exit(1)")
    project = _project(tmp_path, {"preToolUse": [{"bash": str(crash)}]})
    proc = cli(
        tmp_path,
        "run",
        "--discover",
        "--trust-project-hooks",
        "--event",
        "preToolUse",
        stdin=_pre(project, "ls"),
    )
    answer = json.loads(proc.stdout)
    assert (
        answer["permissionDecision"] == "deny"
        and "hook errored" in answer["permissionDecisionReason"]
    )


def test_a_python_handler_sits_beside_copilot_entries(tmp_path: Path) -> None:
    write(
        tmp_path / "home" / ".copilot" / "hooks" / "guards.py",
        "def deny(input):\n    return None\n",
    )
    doc = {
        "version": 1,
        "hooks": {
            "preToolUse": [
                {"bash": "echo shell"},
                {"type": "python", "callable": "guards:deny", "matcher": "bash", "timeoutSec": 5},
            ]
        },
    }
    path = write(tmp_path / "home" / ".copilot" / "hooks" / "a.json", doc)
    config = load(path, home=tmp_path / "home")
    nodes = config.registry().compile().nodes["PreToolUse"]
    assert [(cn.node.kind, cn.timeout) for cn in nodes] == [("command", 30.0), ("python", 5.0)]
    assert not [d for d in config.diagnostics if d.severity.value != "info"]


def test_a_pascal_entry_may_answer_flat_or_wrapped(tmp_path: Path) -> None:
    flat = script(
        tmp_path / "flat.py",
        "print(json.dumps({'permissionDecision': 'deny', 'permissionDecisionReason': 'flat no'}))",
    )
    project = _project(tmp_path, {"PreToolUse": [{"matcher": "Bash", "command": str(flat)}]})
    proc = cli(
        tmp_path,
        "run",
        "--discover",
        "--trust-project-hooks",
        "--event",
        "preToolUse",
        stdin=_pre(project, "ls"),
    )
    assert (
        proc.stdout.strip() == '{"permissionDecision":"deny","permissionDecisionReason":"flat no"}'
    )
