"""The harnesses' own managed files, read where each harness reads them (moved below a
directory of the test's by ``AGENT_HOOKS_SYSTEM_ROOT``): Claude Code's
``managed-settings.json`` and ``managed-settings.d/``, Codex's ``requirements.toml``
and its ``managed_dir``, Copilot's ``policy.d``, Cursor's enterprise ``hooks.json``.
They load as managed hooks when root owns them (the tests run as root; elsewhere they
are skipped) and no one else can write them; user and
project files cannot switch them off; their own policies (``allowManagedHooksOnly``,
``allow_managed_hooks_only``, ``[features].hooks``, a managed ``disableAllHooks``)
apply; and a managed file others can write is refused without switching anything off."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import DiagnosticCode
from tests.cli_inprocess import cli_in_process

ME = os.getuid()
pytestmark = pytest.mark.skipif(ME != 0, reason="only root's files are managed: run as root")


def _write(path: Path, doc: Any, mode: int = 0o644) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    path.chmod(mode)
    return path


def claude_hooks(command: str) -> dict[str, Any]:
    return {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}


class Machine:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.root = tmp / "sys"
        self.project = tmp / "project"
        (self.project / ".git").mkdir(parents=True)
        self.home = tmp / "home"
        self.home.mkdir()

    def system(self, rel: str, doc: Any, mode: int = 0o644) -> Path:
        return _write(self.root / rel.lstrip("/"), doc, mode)

    def discover(self, **kw: Any) -> agent_hooks.LoadedConfig:
        return agent_hooks.discover(self.project, home=self.home, trust=True, **kw)


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    m = Machine(tmp_path)
    monkeypatch.setenv("AGENT_HOOKS_SYSTEM_ROOT", str(m.root))
    monkeypatch.setenv("AGENT_HOOKS_MANAGED_DIR", str(tmp_path / "no-managed.d"))
    for name in ("CODEX_HOME", "COPILOT_HOME", "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    return m


def files(config: agent_hooks.LoadedConfig, *formats: str) -> dict[tuple[str, str], str]:
    return {
        (Path(f.path).name, f.scope): f.status
        for f in config.files
        if not formats or f.format in formats
    }


def messages(config: agent_hooks.LoadedConfig, code: DiagnosticCode) -> list[str]:
    return [d.message for d in config.diagnostics if d.code is code]


# ------------------------------------------------------------------ Claude Code

CLAUDE = ("claude-settings",)


def test_claude_managed_settings_and_drop_ins_load_in_order(machine: Machine) -> None:
    machine.system("/etc/claude-code/managed-settings.json", {"hooks": claude_hooks("base")})
    machine.system("/etc/claude-code/managed-settings.d/20-b.json", {"hooks": claude_hooks("b")})
    machine.system("/etc/claude-code/managed-settings.d/10-a.json", {"hooks": claude_hooks("a")})
    config = machine.discover(ecosystems=["claude"])
    assert [(Path(f.path).name, f.scope, f.precedence, f.status) for f in config.files] == [
        ("managed-settings.json", "managed", 100, "loaded"),
        ("10-a.json", "managed", 101, "loaded"),
        ("20-b.json", "managed", 102, "loaded"),
    ]


def test_claude_project_disable_all_hooks_leaves_managed_hooks_on(machine: Machine) -> None:
    machine.system("/etc/claude-code/managed-settings.json", {"hooks": claude_hooks("guard")})
    _write(
        machine.project / ".claude" / "settings.json",
        {"disableAllHooks": True, "hooks": claude_hooks("project")},
    )
    _write(machine.home / ".claude" / "settings.json", {"hooks": claude_hooks("user")})
    config = machine.discover(ecosystems=["claude"])
    assert files(config, *CLAUDE) == {
        ("managed-settings.json", "managed"): "loaded",
        ("settings.json", "project"): "disabled",
        ("settings.json", "user"): "disabled",
    }


def test_claude_run_denies_with_managed_hooks_when_the_project_disables_all(
    machine: Machine,
) -> None:
    machine.system(
        "/etc/claude-code/managed-settings.json", {"hooks": claude_hooks("echo no >&2; exit 2")}
    )
    _write(machine.project / ".claude" / "settings.json", {"disableAllHooks": True})
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "CODEX_"))},
        "HOME": str(machine.home),
        "XDG_STATE_HOME": str(machine.tmp / "state"),
    }
    payload = {
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "cwd": str(machine.project),
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    }
    proc = cli_in_process(
        ["run", "--discover", "--trust-project-hooks"],
        env=env,
        cwd=machine.project,
        input=json.dumps(payload),
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_claude_allow_managed_hooks_only_keeps_only_managed_hooks(machine: Machine) -> None:
    machine.system(
        "/etc/claude-code/managed-settings.json",
        {"allowManagedHooksOnly": True, "hooks": claude_hooks("guard")},
    )
    _write(machine.project / ".claude" / "settings.json", {"hooks": claude_hooks("project")})
    config = machine.discover(ecosystems=["claude"])
    assert files(config, *CLAUDE) == {
        ("managed-settings.json", "managed"): "loaded",
        ("settings.json", "project"): "disabled",
    }
    assert any(
        "allowManagedHooksOnly" in m for m in messages(config, DiagnosticCode.HOOKS_DISABLED)
    )


def test_a_claude_drop_in_overrides_the_base_files_flag(machine: Machine) -> None:
    machine.system("/etc/claude-code/managed-settings.json", {"allowManagedHooksOnly": True})
    machine.system(
        "/etc/claude-code/managed-settings.d/50-relax.json", {"allowManagedHooksOnly": False}
    )
    _write(machine.project / ".claude" / "settings.json", {"hooks": claude_hooks("project")})
    config = machine.discover(ecosystems=["claude"])
    assert files(config, *CLAUDE)[("settings.json", "project")] == "loaded"


def test_claude_managed_disable_all_hooks_disables_all(machine: Machine) -> None:
    machine.system(
        "/etc/claude-code/managed-settings.json",
        {"disableAllHooks": True, "hooks": claude_hooks("guard")},
    )
    _write(machine.project / ".claude" / "settings.json", {"hooks": claude_hooks("project")})
    config = machine.discover(ecosystems=["claude"])
    assert set(files(config, *CLAUDE).values()) == {"disabled"}


def test_a_claude_managed_file_others_can_write_switches_nothing_off(machine: Machine) -> None:
    machine.system(
        "/etc/claude-code/managed-settings.json",
        {"disableAllHooks": True, "allowManagedHooksOnly": True, "hooks": claude_hooks("x")},
        mode=0o666,
    )
    _write(machine.project / ".claude" / "settings.json", {"hooks": claude_hooks("project")})
    config = machine.discover(ecosystems=["claude"])
    assert files(config, *CLAUDE) == {
        ("managed-settings.json", "managed"): "untrusted",
        ("settings.json", "project"): "loaded",
    }
    (why,) = messages(config, DiagnosticCode.UNTRUSTED)
    assert "writable by its group or by others" in why


# ------------------------------------------------------------------ Codex

REQUIREMENTS = "/etc/codex/requirements.toml"
CODEX_HOOK = """
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "echo required"
"""


def codex_user(machine: Machine) -> Path:
    return _write(machine.home / ".codex" / "hooks.json", {"hooks": claude_hooks("user")})


def test_codex_requirements_hooks_and_managed_dir_are_managed(machine: Machine) -> None:
    machine.system(REQUIREMENTS, '[hooks]\nmanaged_dir = "hooks.d"\n' + CODEX_HOOK)
    machine.system("/etc/codex/hooks.d/hooks.json", {"hooks": claude_hooks("from dir")})
    codex_user(machine)
    config = machine.discover(ecosystems=["codex"])
    assert [(Path(f.path).name, f.scope, f.status, f.handlers) for f in config.files] == [
        ("requirements.toml", "managed", "loaded", 1),
        ("hooks.json", "managed", "loaded", 1),
        ("hooks.json", "user", "loaded", 1),
    ]


def test_codex_allow_managed_hooks_only(machine: Machine) -> None:
    machine.system(REQUIREMENTS, "allow_managed_hooks_only = true\n" + CODEX_HOOK)
    codex_user(machine)
    config = machine.discover(ecosystems=["codex"])
    assert files(config) == {
        ("requirements.toml", "managed"): "loaded",
        ("hooks.json", "user"): "disabled",
    }
    assert any(
        "allow_managed_hooks_only" in m for m in messages(config, DiagnosticCode.HOOKS_DISABLED)
    )


def test_codex_features_hooks_false_switches_every_hook_off(machine: Machine) -> None:
    machine.system(REQUIREMENTS, "[features]\nhooks = false\n" + CODEX_HOOK)
    codex_user(machine)
    config = machine.discover(ecosystems=["codex"])
    assert set(files(config).values()) == {"disabled"}


def test_a_codex_requirements_file_others_can_write_is_not_honoured(machine: Machine) -> None:
    machine.system(REQUIREMENTS, "[features]\nhooks = false\n" + CODEX_HOOK, mode=0o646)
    codex_user(machine)
    config = machine.discover(ecosystems=["codex"])
    assert files(config) == {
        ("requirements.toml", "managed"): "untrusted",
        ("hooks.json", "user"): "loaded",
    }


def test_invalid_codex_requirements_are_diagnosed(machine: Machine) -> None:
    machine.system(REQUIREMENTS, "allow_managed_hooks_only = tru")
    codex_user(machine)
    config = machine.discover(ecosystems=["codex"])
    assert files(config)[("requirements.toml", "managed")] == "invalid"
    assert any(d.code is DiagnosticCode.CONFIG_READ_FAILED for d in config.errors)
    assert files(config)[("hooks.json", "user")] == "loaded"


# ------------------------------------------------------------------ Copilot and Cursor


def test_copilot_policy_files_survive_the_repositorys_disable_all_hooks(
    machine: Machine,
) -> None:
    policy = {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "echo p"}]}}
    machine.system("/etc/github-copilot/policy.d/10-guard.json", policy)
    _write(
        machine.project / ".github" / "copilot" / "settings.json",
        {"disableAllHooks": True, "hooks": {"preToolUse": [{"bash": "echo repo"}]}},
    )
    config = machine.discover(ecosystems=["copilot"])
    assert files(config) == {
        ("10-guard.json", "managed"): "loaded",
        ("settings.json", "project"): "disabled",
    }


def test_cursor_enterprise_hooks_are_managed_and_owner_checked(machine: Machine) -> None:
    doc = {"version": 1, "hooks": {"beforeShellExecution": [{"command": "echo ent"}]}}
    path = machine.system("/etc/cursor/hooks.json", doc)
    _write(machine.project / ".cursor" / "hooks.json", doc)
    config = machine.discover(ecosystems=["cursor"])
    assert files(config) == {
        ("hooks.json", "managed"): "loaded",
        ("hooks.json", "project"): "loaded",
    }
    path.chmod(0o666)
    config = machine.discover(ecosystems=["cursor"])
    assert files(config)[("hooks.json", "managed")] == "untrusted"


def test_check_reports_the_managed_policies_in_effect(machine: Machine) -> None:
    managed = machine.system(
        "/etc/claude-code/managed-settings.json",
        {"allowManagedHooksOnly": True, "hooks": claude_hooks("guard")},
    )
    project = _write(
        machine.project / ".claude" / "settings.json", {"hooks": claude_hooks("project")}
    )
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "CODEX_"))},
        "HOME": str(machine.home),
        "XDG_STATE_HOME": str(machine.tmp / "state"),
    }
    args = ["check", "--project-dir", str(machine.project), "--trust-project-hooks"]
    report = json.loads(cli_in_process([*args, "--json"], env=env, cwd=machine.tmp).stdout)
    assert report["managed"]["policies"] == [
        {
            "policy": "allowManagedHooksOnly is true in managed policy settings",
            "switched_off": [str(project)],
        }
    ]
    assert [f["path"] for f in report["managed"]["files"]] == [str(managed)]
    text = cli_in_process(args, env=env, cwd=machine.tmp).stdout
    assert (
        "policy in effect: allowManagedHooksOnly is true in managed policy settings; "
        f"switched off: {project}"
    ) in text


def test_a_repository_that_points_the_system_locations_at_itself_switches_nothing_off(
    machine: Machine,
) -> None:
    """A repository can set a harness's environment (a project settings file's
    ``env``): pointing ``AGENT_HOOKS_SYSTEM_ROOT`` and ``AGENT_HOOKS_MANAGED_DIR`` at its
    own files (and naming itself an owner, which no variable does) makes none of them
    managed, so its ``allowManagedHooksOnly`` does not switch the user's guard off and
    the guard still denies."""
    repo_root = machine.project / ".evil-root"
    policy = _write(
        repo_root / "etc" / "claude-code" / "managed-settings.json",
        {"allowManagedHooksOnly": True, "disableAllHooks": True},
    )
    own = _write(machine.project / ".evil-managed" / "x.json", {"hooks": {}})
    for path in (policy, own, *policy.parents, *own.parents):
        if machine.project in (path, *path.parents):
            os.chown(path, 4242, -1, follow_symlinks=False)  # (the repository's owner)
    _write(
        machine.home / ".claude" / "settings.json",
        {"hooks": claude_hooks("echo user guard says no >&2; exit 2")},
    )
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "CODEX_", "AGENT_HOOKS_"))},
        "HOME": str(machine.home),
        "XDG_STATE_HOME": str(machine.tmp / "state"),
        "AGENT_HOOKS_SYSTEM_ROOT": str(repo_root),
        "AGENT_HOOKS_MANAGED_DIR": str(own.parent),
        "AGENT_HOOKS_MANAGED_OWNER": "4242",  # (a retired variable: never honoured)
        "AGENT_HOOKS_NO_DAEMON": "1",  # (in this process: no server outlives the test)
    }
    payload = {
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "cwd": str(machine.project),
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
    }
    proc = cli_in_process(
        ["run", "--discover"], env=env, cwd=machine.project, input=json.dumps(payload)
    )
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert "user guard says no" in answer["permissionDecisionReason"]
    assert "managed hook file refused" in proc.stderr
