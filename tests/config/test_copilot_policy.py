"""Copilot CLI's policy-level hook files (``/etc/github-copilot/policy.d/*.json``): owned
by root and writable by no one else, read alphabetically as managed hooks, whatever the
folder's trust and any ``disableAllHooks``; and its preToolUse failure rules (1.0.57: a
hook error denies; 1.0.67: a timeout lets the tool run). The tests stand a directory of
their own for ``policy.d`` and their own uid for root: never the real /etc."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import DiagnosticCode, HookEvent, Severity, TrustPolicy
from agent_hooks._config import _copilot
from agent_hooks._config._copilot import load_copilot_dir

ME = os.getuid()


def policy_file(directory: Path, name: str, hooks: dict[str, Any], mode: int = 0o644) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(json.dumps({"version": 1, "hooks": hooks}))
    path.chmod(mode)
    return path


def bash(command: str, **kw: Any) -> dict[str, Any]:
    return {"type": "command", "bash": command, **kw}


def project_with_hooks(root: Path, doc: dict[str, Any], settings: dict[str, Any]) -> Path:
    (root / ".git").mkdir(parents=True, exist_ok=True)
    hooks = root / ".github" / "hooks" / "repo.json"
    hooks.parent.mkdir(parents=True, exist_ok=True)
    hooks.write_text(json.dumps(doc))
    copilot = root / ".github" / "copilot" / "settings.json"
    copilot.parent.mkdir(parents=True, exist_ok=True)
    copilot.write_text(json.dumps(settings))
    return root


def names(config: agent_hooks.LoadedConfig, event: str = "preToolUse") -> list[str]:
    nodes = config.registry().compile().nodes
    return [cn.node.name for cn in nodes.get(HookEvent(event[0].upper() + event[1:]), ())]


def test_policy_files_load_alphabetically_as_managed_hooks(tmp_path: Path) -> None:
    policy = tmp_path / "policy.d"
    policy_file(policy, "20-audit.json", {"preToolUse": [bash("echo audit")]})
    policy_file(policy, "10-guard.json", {"preToolUse": [bash("echo guard")]})
    policy_file(policy, "notes.txt", {})  # not *.json: not read
    config = load_copilot_dir(None, home=tmp_path / "home", policy_dir=policy, policy_owner=ME)
    assert config.diagnostics == ()
    assert [(Path(f.path).name, f.scope, f.precedence, f.status) for f in config.files] == [
        ("10-guard.json", "managed", 100, "loaded"),
        ("20-audit.json", "managed", 101, "loaded"),
    ]
    assert names(config) == ["echo guard", "echo audit"]


@pytest.mark.parametrize(
    ("mode", "owner", "why"),
    [
        (0o664, ME, "writable by its group or by others"),
        (0o646, ME, "writable by its group or by others"),
        (0o644, ME + 1, f"is not owned by uid {ME + 1}"),
    ],
)
def test_a_policy_file_others_can_change_is_refused(
    tmp_path: Path, mode: int, owner: int, why: str
) -> None:
    policy = tmp_path / "policy.d"
    policy_file(policy, "10-guard.json", {"preToolUse": [bash("echo guard")]}, mode)
    config = load_copilot_dir(None, home=tmp_path / "home", policy_dir=policy, policy_owner=owner)
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.UNTRUSTED and diag.severity is Severity.WARNING
    assert why in diag.message and diag.source == str(policy / "10-guard.json")
    assert [f.status for f in config.files] == ["untrusted"]
    assert names(config) == []


def test_root_is_the_owner_by_default(tmp_path: Path) -> None:
    policy = tmp_path / "policy.d"
    policy_file(policy, "10-guard.json", {"preToolUse": [bash("echo guard")]})
    config = load_copilot_dir(None, home=tmp_path / "home", policy_dir=policy)
    assert names(config) == (["echo guard"] if ME == 0 else [])


def test_policy_hooks_ignore_disable_all_hooks_and_folder_trust(tmp_path: Path) -> None:
    policy = tmp_path / "policy.d"
    path = policy_file(policy, "10-guard.json", {"preToolUse": [bash("echo guard")]})
    doc = json.loads(path.read_text())
    path.write_text(json.dumps({**doc, "disableAllHooks": True}))
    project = project_with_hooks(
        tmp_path / "proj",
        {"version": 1, "hooks": {"preToolUse": [bash("echo repo")]}},
        {"disableAllHooks": True},
    )
    untrusted = TrustPolicy(store=None)
    config = load_copilot_dir(
        project, home=tmp_path / "home", policy_dir=policy, policy_owner=ME, trust=untrusted
    )
    assert names(config) == ["echo guard"]
    notes = [d for d in config.diagnostics if d.source == str(path)]
    assert [(d.severity, d.location) for d in notes] == [(Severity.INFO, "disableAllHooks")]
    trusted = TrustPolicy(store=None, trust_all=True)
    config = load_copilot_dir(
        project, home=tmp_path / "home", policy_dir=policy, policy_owner=ME, trust=trusted
    )
    assert names(config) == ["echo guard"]  # the repository's disableAllHooks: all but policy


def test_discover_reads_the_policy_directory_of_the_copilot_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy = tmp_path / "policy.d"
    policy_file(policy, "10-guard.json", {"preToolUse": [bash("echo guard")]})
    policy_file(policy, "20-open.json", {"preToolUse": [bash("echo open")]}, 0o666)
    monkeypatch.setattr(_copilot, "POLICY_DIR", str(policy))
    monkeypatch.setattr(_copilot, "POLICY_OWNER", ME)
    config = agent_hooks.discover(None, home=tmp_path / "home", ecosystems=("copilot",))
    assert names(config) == ["echo guard"]
    assert [f.status for f in config.files] == ["loaded", "untrusted"]
    row = agent_hooks._config._harness.HARNESSES["copilot"]
    managed = [loc for loc in row.locations if loc.scope == "managed"]
    assert [(loc.path, loc.root) for loc in managed] == [
        ("/etc/github-copilot/policy.d/*.json", "system")
    ]


RUN = ("run", "--discover", "--no-daemon", "--event", "preToolUse")
LAUNCH = """\
import sys
from agent_hooks._config import _copilot
_copilot.POLICY_DIR, _copilot.POLICY_OWNER = sys.argv[1], int(sys.argv[2])
from agent_hooks.__main__ import main
sys.exit(main(sys.argv[3:]))
"""


def run_with_policy(
    tmp_path: Path, policy: Path, project: Path, command: str, *args: str
) -> subprocess.CompletedProcess[str]:
    """``agent-hooks run --discover`` in a subprocess whose policy directory is ``policy``
    (and whose root is this test's uid), on a Copilot preToolUse for ``command``."""
    launcher = tmp_path / "launch.py"
    launcher.write_text(LAUNCH)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COPILOT_", "CLAUDE_"))}
    env.update(HOME=str(tmp_path / "home"), XDG_STATE_HOME=str(tmp_path / "state"))
    payload = {
        "sessionId": "s",
        "timestamp": 1,
        "cwd": str(project),
        "toolName": "bash",
        "toolArgs": {"command": command},
    }
    return subprocess.run(
        [sys.executable, str(launcher), str(policy), str(ME), *RUN, *args],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=60,
        check=False,
    )


GUARD = """c=$(cat); case "$c" in *'rm -rf'*) echo '{"permissionDecision":"deny","permissionDecisionReason":"policy says no"}';; *) echo '{}';; esac"""


def test_agent_hooks_run_applies_a_policy_guard_in_an_untrusted_folder(tmp_path: Path) -> None:
    policy = tmp_path / "policy.d"
    policy_file(policy, "10-guard.json", {"preToolUse": [bash(GUARD)]})
    project = project_with_hooks(
        tmp_path / "proj",
        {"version": 1, "hooks": {"preToolUse": [bash("echo repo")]}},
        {"disableAllHooks": True},
    )
    proc = run_with_policy(tmp_path, policy, project, "rm -rf /")
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["permissionDecision"] == "deny"
    assert answer["permissionDecisionReason"] == "policy says no"
    proc = run_with_policy(tmp_path, policy, project, "ls")
    assert proc.returncode == 0 and json.loads(proc.stdout).get("permissionDecision") != "deny"


def test_agent_hooks_run_refuses_a_writable_policy_file(tmp_path: Path) -> None:
    policy = tmp_path / "policy.d"
    policy_file(policy, "10-guard.json", {"preToolUse": [bash(GUARD)]}, 0o666)
    project = tmp_path / "proj"
    project.mkdir()
    proc = run_with_policy(tmp_path, policy, project, "rm -rf /")
    assert "writable by its group or by others" in proc.stderr
    assert json.loads(proc.stdout or "{}").get("permissionDecision") != "deny"
    closed = run_with_policy(tmp_path, policy, project, "rm -rf /", "--fail-closed")
    assert closed.returncode == 2 and "not loaded (untrusted)" in closed.stderr  # exit 2 denies


@pytest.mark.parametrize(
    ("command", "denied"),
    [("exit 1", True), ("no-such-program-xyz", True), ("sleep 5", False)],
)
def test_pre_tool_use_errors_deny_and_timeouts_do_not(
    tmp_path: Path, command: str, denied: bool
) -> None:
    policy = tmp_path / "policy.d"
    policy_file(policy, "10-guard.json", {"preToolUse": [bash(command, timeoutSec=1)]})
    project = tmp_path / "proj"
    project.mkdir()
    proc = run_with_policy(tmp_path, policy, project, "ls")
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout or "{}")
    assert (answer.get("permissionDecision") == "deny") is denied
    if denied:
        assert "hook errored" in answer["permissionDecisionReason"]
