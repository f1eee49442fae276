"""``agent-hooks install`` / ``uninstall`` write safely: a link planted at any name
beside the target is never followed, a symlinked settings file is edited at its target
and stays a link, the mode is kept, and concurrent installs lose no entry."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.install_helpers import ah, graph, grouped_commands, ours

SETTINGS = '{\n  "permissions": {"allow": ["Bash(ls)"]}\n}\n'


def _install(tmp: Path, project: Path, hooks: Path, *extra: str) -> None:
    proc = ah(
        tmp, "install", "--harness", "claude", "--project-dir", str(project),
        "--config", str(hooks), *extra,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def _uninstall(tmp: Path, project: Path) -> None:
    proc = ah(tmp, "uninstall", "--harness", "claude", "--project-dir", str(project))
    assert proc.returncode == 0, proc.stderr


def test_mode_is_kept(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_text(SETTINGS)
    target.chmod(0o600)
    hooks = graph(project / "guard.json")
    _install(tmp_path, project, hooks)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert ours(grouped_commands(json.loads(target.read_text()), "PreToolUse"), "claude")
    _uninstall(tmp_path, project)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert target.read_text() == SETTINGS


def test_a_planted_link_beside_the_target_is_never_followed(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_text(SETTINGS)
    victim = tmp_path / "home" / ".bashrc"
    victim.parent.mkdir(parents=True)
    victim.write_text("# mine\n")
    # the names a writer might use for its temporary file
    for name in (".settings.json.agent-hooks.tmp", "settings.json.tmp", ".settings.json.tmp"):
        (target.parent / name).symlink_to(victim)
    hooks = graph(project / "guard.json")
    _install(tmp_path, project, hooks)
    assert victim.read_text() == "# mine\n"
    assert not target.is_symlink()
    _uninstall(tmp_path, project)
    assert victim.read_text() == "# mine\n"
    assert target.read_text() == SETTINGS


def test_a_link_at_the_lock_file_s_name_is_refused(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_text(SETTINGS)
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    state = tmp_path / "state" / "agent_hooks" / "install"
    state.mkdir(parents=True, mode=0o700)
    name = hashlib.sha256(os.fsencode(os.path.realpath(target))).hexdigest()[:32] + ".lock"
    (state / name).symlink_to(victim)
    hooks = graph(project / "guard.json")
    proc = ah(
        tmp_path, "install", "--harness", "claude", "--project-dir", str(project),
        "--config", str(hooks),
    )  # fmt: skip
    assert proc.returncode == 1 and "is a link" in proc.stderr
    assert victim.read_text() == "mine\n" and target.read_text() == SETTINGS
    # an earlier version's lock file name beside the target is never followed either
    (state / name).unlink()
    (target.parent / ".settings.json.agent-hooks.lock").symlink_to(victim)
    _install(tmp_path, project, hooks)
    _uninstall(tmp_path, project)
    assert victim.read_text() == "mine\n" and target.read_text() == SETTINGS


def test_a_symlinked_settings_file_is_edited_at_its_target_and_stays_a_link(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    dotfile = home / "dotfiles" / "claude.json"
    dotfile.parent.mkdir(parents=True)
    dotfile.write_text(SETTINGS)
    dotfile.chmod(0o600)
    link = home / ".claude" / "settings.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(dotfile)
    hooks = graph(tmp_path / "graph" / "guard.json")
    proc = ah(tmp_path, "install", "--harness", "claude", "--scope", "user", "--config", str(hooks))
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == str(dotfile)
    assert ours(grouped_commands(json.loads(dotfile.read_text()), "PreToolUse"), "claude")
    assert stat.S_IMODE(dotfile.stat().st_mode) == 0o600
    proc = ah(tmp_path, "uninstall", "--harness", "claude", "--scope", "user")
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and dotfile.read_text() == SETTINGS


def test_a_project_link_to_a_file_outside_the_project_is_refused(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    outside = tmp_path / "home" / ".claude" / "settings.json"
    outside.parent.mkdir(parents=True)
    outside.write_text(SETTINGS)
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").symlink_to(outside)
    hooks = graph(project / "guard.json")
    proc = ah(
        tmp_path, "install", "--harness", "claude", "--project-dir", str(project),
        "--config", str(hooks),
    )  # fmt: skip
    assert proc.returncode == 1 and "outside" in proc.stderr
    assert outside.read_text() == SETTINGS


EVENTS = [
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "UserPromptSubmit",
    "Stop", "SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "Notification",
    "PreCompact",
]  # fmt: skip


def test_concurrent_installs_lose_no_entry(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_text(SETTINGS)
    graphs = [
        graph(project / f"g{i}.json", {"hooks": {e: [{"hooks": [{"type": "command", "command": "true"}]}]}})
        for i, e in enumerate(EVENTS)
    ]  # fmt: skip
    with ThreadPoolExecutor(len(EVENTS)) as pool:
        list(pool.map(lambda g: _install(tmp_path, project, g), graphs))
    doc = json.loads(target.read_text())
    for i, event in enumerate(EVENTS):
        (command,) = ours(grouped_commands(doc, event), "claude")
        assert f"g{i}.json" in command
    # the same event, other flags: one entry stays, whoever wrote last
    flags = [["--fail-closed"], ["--fail-open"], ["--trust-project-hooks"], []] * 3
    with ThreadPoolExecutor(len(flags)) as pool:
        list(pool.map(lambda f: _install(tmp_path, project, graphs[0], *f), flags))
    doc = json.loads(target.read_text())
    assert len(ours(grouped_commands(doc, "PreToolUse"), "claude")) == 1
    _uninstall(tmp_path, project)
    assert target.read_text() == SETTINGS


def test_a_project_directory_linked_outside_the_project_is_refused(tmp_path: Path) -> None:
    # the repository ships `.claude` (not the file) as a link to a directory of the user's
    project = tmp_path / "proj"
    project.mkdir()
    victim = tmp_path / "home" / ".config" / "elsewhere"
    victim.mkdir(parents=True)
    (project / ".claude").symlink_to(victim)
    hooks = graph(project / "guard.json")
    proc = ah(
        tmp_path, "install", "--harness", "claude", "--project-dir", str(project),
        "--config", str(hooks),
    )  # fmt: skip
    assert proc.returncode == 1 and "outside" in proc.stderr
    assert list(victim.iterdir()) == []
    # Cline's hooks are a directory of scripts
    (project / ".clinerules").mkdir()
    (project / ".clinerules" / "hooks").symlink_to(victim)
    proc = ah(
        tmp_path, "install", "--harness", "cline", "--project-dir", str(project),
        "--config", str(hooks),
    )  # fmt: skip
    assert proc.returncode == 1 and "outside" in proc.stderr
    assert list(victim.iterdir()) == []


def test_a_planted_lock_note_cannot_make_uninstall_write_its_bytes(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_text("{}\n")
    note = json.dumps({"empty": b'{"hooks": {"Stop": [{"hooks": [{"command": "evil"}]}]}}'.hex()})
    (target.parent / ".settings.json.agent-hooks.lock").write_text(note)
    hooks = graph(project / "guard.json")
    _install(tmp_path, project, hooks)
    _uninstall(tmp_path, project)
    assert "evil" not in target.read_text()
    assert target.read_text() == "{}\n"


def test_a_blank_file_with_a_bom_comes_back_byte_for_byte(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"\xef\xbb\xbf\r\n")
    hooks = graph(project / "guard.json")
    _install(tmp_path, project, hooks)
    assert ours(grouped_commands(json.loads(target.read_text("utf-8-sig")), "PreToolUse"), "claude")
    _uninstall(tmp_path, project)
    assert target.read_bytes() == b"\xef\xbb\xbf\r\n"


def test_a_planted_created_note_cannot_make_uninstall_delete_the_file(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_text("{}\n")  # the repository's own file, and a note claiming install made it
    note = json.dumps({"created": True, "hooks": True, "events": ["PreToolUse"]})
    (target.parent / ".settings.json.agent-hooks.lock").write_text(note)
    hooks = graph(project / "guard.json")
    _install(tmp_path, project, hooks)
    _uninstall(tmp_path, project)
    assert target.read_text() == "{}\n"
