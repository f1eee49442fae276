"""``agent-hooks install`` / ``uninstall`` keep their lock file and note in the user's
state directory (``$XDG_STATE_HOME/agent_hooks/install``), so a project shows only the
settings file's change in ``git status``; a state directory that is a link or that
others can write is refused and nothing is written; an earlier version's note beside
the file is carried over and removed."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from tests.install_helpers import ah, env_for, graph, grouped_commands, ours

SETTINGS = '{\n  "permissions": {"allow": ["Bash(ls)"]}\n}\n'

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git(tmp: Path, project: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", "-C", str(project), *args],
        capture_output=True,
        text=True,
        env=env_for(tmp, GIT_CONFIG_NOSYSTEM="1"),
        timeout=60,
        check=True,
    )
    return proc.stdout


def _project(tmp: Path, settings: str | None) -> tuple[Path, Path, Path]:
    """A git repository with ``guard.json`` (and ``.claude/settings.json`` when
    ``settings`` is given) committed."""
    project = tmp / "proj"
    target = project / ".claude" / "settings.json"
    hooks = graph(project / "guard.json")
    if settings is not None:
        target.parent.mkdir(parents=True)
        target.write_text(settings)
    _git(tmp, project, "init", "-q")
    _git(tmp, project, "add", ".")
    _git(
        tmp, project, "-c", "user.name=t", "-c", "user.email=t@example.invalid",
        "commit", "-q", "-m", "init",
    )  # fmt: skip
    return project, target, hooks


def _install(tmp: Path, project: Path, hooks: Path) -> None:
    proc = ah(
        tmp, "install", "--harness", "claude", "--project-dir", str(project),
        "--config", str(hooks),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def _uninstall(tmp: Path, project: Path) -> None:
    proc = ah(tmp, "uninstall", "--harness", "claude", "--project-dir", str(project))
    assert proc.returncode == 0, proc.stderr


def _state(tmp: Path) -> Path:
    return tmp / "state" / "agent_hooks" / "install"


def test_git_status_shows_only_the_settings_file(tmp_path: Path) -> None:
    project, target, hooks = _project(tmp_path, '{}\n')
    _install(tmp_path, project, hooks)
    assert ours(grouped_commands(json.loads(target.read_text()), "PreToolUse"), "claude")
    status = _git(tmp_path, project, "status", "--porcelain", "--untracked-files=all")
    assert status == " M .claude/settings.json\n"
    # what install added (the hooks key) is noted in the state directory, private to the user
    state = _state(tmp_path)
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    (note,) = state.iterdir()
    assert note.suffix == ".lock" and stat.S_IMODE(note.stat().st_mode) == 0o600
    assert json.loads(note.read_text())["path"] == os.path.realpath(target)
    _uninstall(tmp_path, project)
    assert _git(tmp_path, project, "status", "--porcelain", "--untracked-files=all") == ""
    assert target.read_text() == "{}\n"
    assert list(state.iterdir()) == []


def test_a_file_install_creates_is_the_only_new_file(tmp_path: Path) -> None:
    project, target, hooks = _project(tmp_path, None)
    _install(tmp_path, project, hooks)
    status = _git(tmp_path, project, "status", "--porcelain", "--untracked-files=all")
    assert status == "?? .claude/settings.json\n"
    _uninstall(tmp_path, project)
    assert not target.exists()
    assert _git(tmp_path, project, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("linked", ["agent_hooks", "agent_hooks/install"])
def test_a_linked_state_directory_is_refused_and_nothing_written(
    tmp_path: Path, linked: str
) -> None:
    project, target, hooks = _project(tmp_path, SETTINGS)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    link = tmp_path / "state" / linked
    link.parent.mkdir(parents=True, mode=0o700)
    link.symlink_to(elsewhere)
    proc = ah(
        tmp_path, "install", "--harness", "claude", "--project-dir", str(project),
        "--config", str(hooks),
    )  # fmt: skip
    assert proc.returncode == 1
    assert f"{link} is a link" in proc.stderr and "nothing written" in proc.stderr
    assert target.read_text() == SETTINGS
    assert list(elsewhere.iterdir()) == []
    assert _git(tmp_path, project, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_state_directory_others_can_write_is_refused(tmp_path: Path) -> None:
    project, target, hooks = _project(tmp_path, SETTINGS)
    state = _state(tmp_path)
    state.mkdir(parents=True)
    state.chmod(0o777)
    proc = ah(
        tmp_path, "install", "--harness", "claude", "--project-dir", str(project),
        "--config", str(hooks),
    )  # fmt: skip
    assert proc.returncode == 1
    assert "writable by others" in proc.stderr and "nothing written" in proc.stderr
    assert target.read_text() == SETTINGS and list(state.iterdir()) == []


@pytest.mark.skipif(os.getuid() != 0, reason="giving a directory to another user needs root")
def test_a_state_directory_of_another_user_is_refused(tmp_path: Path) -> None:
    project, target, hooks = _project(tmp_path, SETTINGS)
    state = _state(tmp_path)
    state.mkdir(parents=True, mode=0o700)
    os.chown(state, 12345, 12345)
    proc = ah(
        tmp_path, "install", "--harness", "claude", "--project-dir", str(project),
        "--config", str(hooks),
    )  # fmt: skip
    assert proc.returncode == 1
    assert f"{state} belongs to uid 12345" in proc.stderr and "nothing written" in proc.stderr
    assert target.read_text() == SETTINGS and list(state.iterdir()) == []


def test_a_state_home_that_is_a_file_is_refused_by_name(tmp_path: Path) -> None:
    project, target, hooks = _project(tmp_path, SETTINGS)
    (tmp_path / "state").write_text("")
    proc = ah(
        tmp_path, "install", "--harness", "claude", "--project-dir", str(project),
        "--config", str(hooks),
    )  # fmt: skip
    assert proc.returncode == 1
    assert f"cannot use {tmp_path / 'state'} for install's notes" in proc.stderr
    assert target.read_text() == SETTINGS


def test_an_earlier_version_s_note_beside_the_file_is_carried_over(tmp_path: Path) -> None:
    project, target, hooks = _project(tmp_path, None)
    _install(tmp_path, project, hooks)
    # what an earlier version left: the same note, with the file's (device, inode), beside it
    (lock,) = _state(tmp_path).iterdir()
    note = json.loads(lock.read_text())
    assert note["created"] is True
    st = target.stat()
    legacy = target.with_name(".settings.json.agent-hooks.lock")
    old = {k: v for k, v in note.items() if k not in ("path", "file")}
    legacy.write_text(json.dumps({**old, "file": [st.st_dev, st.st_ino]}))
    lock.unlink()
    _install(tmp_path, project, hooks)
    assert not legacy.exists()
    (lock,) = _state(tmp_path).iterdir()
    assert json.loads(lock.read_text())["created"] is True
    status = _git(tmp_path, project, "status", "--porcelain", "--untracked-files=all")
    assert status == "?? .claude/settings.json\n"
    _uninstall(tmp_path, project)
    assert not target.exists() and list(_state(tmp_path).iterdir()) == []


def test_a_note_about_other_bytes_at_the_same_inode_is_ignored(tmp_path: Path) -> None:
    project, target, hooks = _project(tmp_path, "{}\n")
    _install(tmp_path, project, hooks)
    (lock,) = _state(tmp_path).iterdir()
    note = json.loads(lock.read_text())
    # a note left about a file since deleted whose inode the repository's file now has
    # (same device and inode, other bytes): its "created" must not delete this one
    note.update(created=True, file={**note["file"], "sha256": "0" * 64})
    lock.write_text(json.dumps(note))
    _uninstall(tmp_path, project)
    assert target.exists()
    assert not ours(grouped_commands(json.loads(target.read_text()), "PreToolUse"), "claude")
    assert list(_state(tmp_path).iterdir()) == []
