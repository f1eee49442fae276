"""Which files are project files is decided by the file, not by where the harness runs.

A hook file inside a repository (the nearest directory above it with ``.git``,
``.claude/``, ``.codex/``, ``.deepagents/`` or ``.hel/``) is that project's file and
needs that project's trust, whatever the caller's project directory or the payload's
cwd; the home directory and the user's own harness directories are never projects.

The CLI runs in this process (what it answers and runs is what is checked).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import TrustPolicy, TrustStore, discover, load
from agent_hooks._config._codex import load_codex
from agent_hooks._config._common import file_project, find_project_root
from agent_hooks._config._compat import load_claude_settings, load_deepagents
from agent_hooks._config._docker import load_docker_agent
from tests.cli_inprocess import cli_in_process

HOOKS = {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}
TOML_HOOKS = """\
[[hooks.PreToolUse]]
[[hooks.PreToolUse.hooks]]
type = "command"
command = "true"
"""
DOCKER_HOOKS = """\
pre_tool_use:
  - type: command
    command: 'true'
"""
AGENT_YAML = """\
agents:
  root:
    hooks:
      pre_tool_use:
        - type: command
          command: 'true'
"""
DOCKER_SETTINGS = """\
settings:
  hooks:
    pre_tool_use:
      - type: command
        command: 'true'
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def policy(tmp_path: Path) -> TrustPolicy:
    return TrustPolicy(store=TrustStore(tmp_path / "state" / "trust.json"))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


# ------------------------------------------------------------------ the roots


def test_the_nearest_marker_is_the_root(tmp_path: Path, home: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    assert find_project_root(repo / "hooks" / "deep" / "x.json", home=home) == str(repo)
    assert find_project_root(repo / "x.json", home=home) == str(repo)
    # a worktree's .git is a file; a harness directory marks a root too, nearest first
    write(repo / "sub" / ".git", "gitdir: /elsewhere\n")
    assert find_project_root(repo / "sub" / "x.json", home=home) == str(repo / "sub")
    for marker in (".claude", ".codex", ".deepagents", ".hel"):
        inner = tmp_path / f"p{marker}"
        (inner / marker).mkdir(parents=True)
        assert find_project_root(inner / marker / "hooks.json", home=home) == str(inner)
    # nothing above: not a project file
    assert find_project_root(tmp_path / "loose" / "hooks.json", home=home) is None


def test_home_and_the_users_own_directories_are_never_projects(tmp_path: Path, home: Path) -> None:
    (home / ".git").mkdir()  # a dotfiles repository
    (home / ".claude" / ".git").mkdir(parents=True)  # ~/.claude kept in git
    (home / ".config" / ".git").mkdir(parents=True)
    for path in (
        home / "hooks.json",
        home / ".claude" / "agent-hooks.json",
        home / ".claude" / "plugins" / "m" / "hooks" / "hooks.json",
        home / ".config" / "cagent" / "hooks.d" / "a.yaml",
        home / ".codex" / "hooks.json",
    ):
        assert find_project_root(path, home=home) is None, path
    # a repository under the home directory is a project all the same
    (home / "code" / "repo" / ".git").mkdir(parents=True)
    assert find_project_root(home / "code" / "repo" / "x.json", home=home) == str(
        home / "code" / "repo"
    )


def test_the_nearest_of_the_given_project_and_the_markers_is_the_root(
    tmp_path: Path, home: Path
) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "vendor" / "lib" / ".git").mkdir(parents=True)
    inner = repo / "vendor" / "lib" / "hooks.json"
    lib = str(repo / "vendor" / "lib")
    # a caller's project above, beside or around the repository changes nothing
    for project in (repo, tmp_path, tmp_path / "elsewhere", None):
        assert file_project(inner, project, home=home) == lib, project
    # a caller's project between the file and the markers is the root
    assert file_project(repo / "sub" / "x.json", repo / "sub", home=home) == str(repo / "sub")
    # and a project without markers is a root for its own files
    plain = tmp_path / "plain"
    assert file_project(plain / "agents" / "a.yaml", plain, home=home) == str(plain)
    assert file_project(plain / "agents" / "a.yaml", None, home=home) is None


def test_a_link_into_a_repository_leads_to_the_repository(tmp_path: Path, home: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".claude").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(repo / ".claude")
    assert file_project(link / "agent-hooks.json", None, home=home) == str(repo)
    # but the user's own directories stay theirs, linked into a dotfiles repository or not
    dotfiles = home / "dotfiles"
    (dotfiles / ".git").mkdir(parents=True)
    (dotfiles / "claude").mkdir()
    (home / ".claude").symlink_to(dotfiles / "claude")
    assert file_project(home / ".claude" / "agent-hooks.json", None, home=home) is None


# ------------------------------------------------------- loading: the payload's cwd


@pytest.mark.parametrize(
    ("rel", "content"),
    [
        (".claude/agent-hooks.json", json.dumps(HOOKS)),
        (".claude/settings.json", json.dumps(HOOKS)),
        (".claude/settings.local.json", json.dumps(HOOKS)),
        (".codex/hooks.json", json.dumps(HOOKS)),
        (".codex/config.toml", TOML_HOOKS),
        (".deepagents/hooks.json", json.dumps(HOOKS)),
        (".hel/hooks.json", json.dumps(HOOKS)),
        ("hooks/agent-hooks.json", json.dumps(HOOKS)),
        ("agents/agent.yaml", AGENT_YAML),
        ("hooks.d/extra.yaml", DOCKER_HOOKS),
        ("cagent/config.yaml", DOCKER_SETTINGS),
    ],
)
def test_a_repository_file_needs_trust_whatever_the_callers_project(
    tmp_path: Path, home: Path, policy: TrustPolicy, rel: str, content: str
) -> None:
    if rel.endswith(".yaml"):
        pytest.importorskip("yaml")
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "sub").mkdir()
    path = write(repo / rel, content)
    # The harness's project is a subdirectory (the payload's cwd), another directory, or
    # not given at all: the file is the repository's in every case.
    for project in (repo / "sub", tmp_path / "elsewhere", None):
        config = load(path, project_dir=project, home=home, trust=policy)
        (file,) = config.files
        assert (file.status, file.trust) == ("untrusted", "untrusted"), (project, file)
        assert file.scope in ("project", "local")
        assert file.project_dir == str(repo)
        assert not [g for sg in config.sources for g in sg.groups]
        assert any(f"--project-dir {repo}" in d.message for d in config.diagnostics)
    # trusted for that repository, it loads from anywhere
    policy.grant(repo, {rel: TrustStore.digest(path.read_bytes())})
    for project in (repo / "sub", tmp_path / "elsewhere", None, repo):
        config = load(path, project_dir=project, home=home, trust=policy)
        assert [f.status for f in config.files] == ["loaded"], project
        assert sum(len(g.nodes) for sg in config.sources for g in sg.groups) == 1


def test_the_format_loaders_find_the_project_too(tmp_path: Path, policy: TrustPolicy) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    elsewhere = tmp_path / "repo" / "sub"
    loaders: list[tuple[str, Any]] = [
        (".claude/settings.json", load_claude_settings),
        (".codex/hooks.json", load_codex),
        (".deepagents/hooks.json", load_deepagents),
    ]
    for rel, loader in loaders:
        path = write(repo / rel, json.dumps(HOOKS))
        config = loader(path, project_dir=elsewhere, trust=policy)
        assert [f.status for f in config.files] == ["untrusted"], rel
    pytest.importorskip("yaml")
    agent = write(repo / "agent.yaml", AGENT_YAML)
    assert [f.status for f in load_docker_agent(agent, trust=policy).files] == ["untrusted"]


def test_files_in_no_project_need_no_trust(tmp_path: Path, home: Path, policy: TrustPolicy) -> None:
    loose = write(tmp_path / "loose" / "hooks.json", json.dumps(HOOKS))
    mine = write(home / ".claude" / "agent-hooks.json", json.dumps(HOOKS))
    (home / ".git").mkdir()
    (home / ".claude" / ".git").mkdir()
    for path in (loose, mine):
        config = load(path, project_dir=tmp_path / "project", home=home, trust=policy)
        (file,) = config.files
        assert (file.status, file.trust) == ("loaded", "not-needed"), path


def test_discover_keeps_user_files_in_a_versioned_home(
    tmp_path: Path, home: Path, policy: TrustPolicy
) -> None:
    (home / ".git").mkdir()
    (home / ".claude" / ".git").mkdir(parents=True)
    write(home / ".claude" / "settings.json", json.dumps(HOOKS))
    project = tmp_path / "project"
    project.mkdir()
    config = discover(project, home=home, trust=policy, ecosystems=("claude",))
    assert [(f.scope, f.status) for f in config.files] == [("user", "loaded")]


# ------------------------------------------------------------------- the CLI


def test_run_does_not_let_the_payloads_cwd_decide_trust(tmp_path: Path) -> None:
    """The issue's repro: ``run --config P/.claude/agent-hooks.json`` with no
    --project-dir and no CLAUDE_PROJECT_DIR, the payload's cwd a subdirectory of P."""
    project = tmp_path / "P"
    (project / "sub").mkdir(parents=True)
    marker = tmp_path / "ran"
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "project hook ran",
        }
    }
    command = f"touch {marker}; echo '{json.dumps(deny)}'"
    config = write(
        project / ".claude" / "agent-hooks.json",
        json.dumps(
            {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}}
        ),
    )
    payload = json.dumps(
        {
            "hook_event_name": "PreToolUse",
            "session_id": "s",
            "cwd": str(project / "sub"),
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
        }
    ).encode()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path / "home"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        # (AGENT_HOOKS_NO_DAEMON: kept in-process, as tests/conftest.py asks)
        **{k: v for k, v in os.environ.items() if k in ("PYTHONPATH", "AGENT_HOOKS_NO_DAEMON")},
    }

    def cli(*args: str, cwd: Path = tmp_path) -> subprocess.CompletedProcess[bytes]:
        done = cli_in_process(args, input=payload, env=env, cwd=cwd)
        return subprocess.CompletedProcess(
            done.args, done.returncode, done.stdout.encode(), done.stderr.encode()
        )

    for cwd in (tmp_path, project / "sub"):
        proc = cli("run", "--config", str(config), cwd=cwd)
        assert proc.returncode == 0 and json.loads(proc.stdout) == {}, proc.stderr
        assert b"untrusted" in proc.stderr and f"--project-dir {project}".encode() in proc.stderr
        assert not marker.exists()
        failed = cli("run", "--fail-closed", "--config", str(config), cwd=cwd)
        assert failed.returncode == 2 and not marker.exists()

    # `agent-hooks trust --config FILE` grants it for its own project, from anywhere
    granted = cli("trust", "--config", str(config))
    assert granted.returncode == 0, granted.stderr
    assert f"project hook files of {project}".encode() in granted.stdout
    proc = cli("run", "--config", str(config))
    assert json.loads(proc.stdout) == deny and marker.exists()
