"""Trust is decided on the file a link points to, not on where the link lies.

Through ``agent-hooks run`` (and ``agent-hooks trust``): a hook file that is a
symbolic link to another project's file needs that project's trust, from outside any
project and from inside a trusted one; a link from a project to a file of no project
needs the project's trust; a link whose target is gone is an error, never an empty
configuration.

``run`` and ``trust`` run in this process (what they answer and run is what is checked).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_inprocess import cli_in_process

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")


def hooks_doc(marker: Path) -> str:
    code = f"open({str(marker)!r}, 'a').write('ran\\n')"
    command = f'{sys.executable} -c "{code}"'
    return json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}})


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    out = {k: v for k, v in os.environ.items() if k in ("PATH", "SYSTEMROOT", "PYTHONPATH")}
    out.update(
        HOME=str(home),
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_CONFIG_HOME=str(home / ".config"),
        AGENT_HOOKS_NO_DAEMON="1",
    )
    return out


def project(root: Path, marker: Path) -> Path:
    """A repository with a Claude settings file whose Stop hook appends to ``marker``."""
    (root / ".git").mkdir(parents=True)
    settings = root / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(hooks_doc(marker))
    return settings


def run(
    env: dict[str, str], config: Path, project_dir: Path, *extra: str
) -> subprocess.CompletedProcess[str]:
    payload = {"hook_event_name": "Stop", "session_id": "s", "cwd": str(project_dir)}
    return cli_in_process(
        ["run", "--config", str(config), *extra],
        input=json.dumps(payload),
        env={**env, "CLAUDE_PROJECT_DIR": str(project_dir)},
        cwd=project_dir,
    )


def trust(env: dict[str, str], project_dir: Path, *extra: str) -> None:
    proc = cli_in_process(
        ["trust", "--project-dir", str(project_dir), *extra], env=env, cwd=os.getcwd()
    )
    assert proc.returncode == 0, proc.stderr


def test_a_link_outside_any_project_to_an_untrusted_file_does_not_run_it(
    tmp_path: Path, env: dict[str, str]
) -> None:
    ran = tmp_path / "ran"
    untrusted = project(tmp_path / "untrusted", ran)
    scratch = tmp_path / "scratch"  # not a project: no marker above it
    scratch.mkdir()
    link = scratch / "hooks.json"
    link.symlink_to(untrusted)
    proc = run(env, link, scratch)
    assert not ran.exists()
    assert "untrusted" in proc.stderr
    assert f"--project-dir {tmp_path / 'untrusted'}" in proc.stderr  # the target's project
    assert run(env, link, scratch, "--fail-closed").returncode == 2
    assert not ran.exists()
    # trusted for the project it points into, the link runs it
    trust(env, tmp_path / "untrusted")
    assert run(env, link, scratch).returncode == 0
    assert ran.read_text() == "ran\n"


def test_a_link_inside_a_trusted_project_into_an_untrusted_one_is_untrusted(
    tmp_path: Path, env: dict[str, str]
) -> None:
    ran = tmp_path / "ran"
    untrusted = project(tmp_path / "untrusted", ran)
    trusted_settings = project(tmp_path / "trusted", tmp_path / "own")
    trust(env, tmp_path / "trusted")
    link = trusted_settings.parent / "agent-hooks.json"
    link.symlink_to(untrusted)
    proc = run(env, link, tmp_path / "trusted")
    assert not ran.exists(), proc.stderr
    assert "untrusted" in proc.stderr
    assert run(env, link, tmp_path / "trusted", "--fail-closed").returncode == 2
    assert not ran.exists()
    # granting the link from the trusted project grants the file it points to, in its
    # own project: what `trust` lists is what then runs
    trust(env, tmp_path / "trusted", "--config", str(link))
    assert run(env, link, tmp_path / "trusted").returncode == 0
    assert ran.read_text() == "ran\n"


def test_a_link_from_a_project_to_a_file_of_no_project_needs_the_projects_trust(
    tmp_path: Path, env: dict[str, str]
) -> None:
    ran = tmp_path / "ran"
    loose = tmp_path / "loose" / "hooks.json"  # in no project
    loose.parent.mkdir()
    loose.write_text(hooks_doc(ran))
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".claude").mkdir()
    link = repo / ".claude" / "agent-hooks.json"
    link.symlink_to(loose)
    proc = run(env, link, repo)
    assert not ran.exists(), proc.stderr
    assert "untrusted" in proc.stderr
    trust(env, repo, "--config", str(link))
    assert run(env, link, repo).returncode == 0
    assert ran.read_text() == "ran\n"


def test_a_link_whose_target_is_gone_is_an_error(tmp_path: Path, env: dict[str, str]) -> None:
    ran = tmp_path / "ran"
    repo = tmp_path / "repo"
    settings = project(repo, ran)
    trust(env, repo)
    gone = tmp_path / "gone.json"
    settings.unlink()
    settings.symlink_to(gone)  # the project's own settings file now points nowhere
    proc = run(env, settings, repo)
    assert not ran.exists()
    assert "symbolic link" in proc.stderr and "does not exist" in proc.stderr, proc.stderr
    assert run(env, settings, repo, "--fail-closed").returncode == 2
    # found by discovery rather than named: the same error, not "no settings file"
    discovered = cli_in_process(
        ["run", "--discover", "--fail-closed"],
        input=json.dumps({"hook_event_name": "Stop", "session_id": "s", "cwd": str(repo)}),
        env={**env, "CLAUDE_PROJECT_DIR": str(repo)},
        cwd=repo,
    )
    assert discovered.returncode == 2, discovered.stderr
    assert "symbolic link" in discovered.stderr


def test_trusting_a_project_grants_its_links_where_they_point(
    tmp_path: Path, env: dict[str, str]
) -> None:
    ran = tmp_path / "ran"
    untrusted = project(tmp_path / "other", ran)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").symlink_to(untrusted)
    assert not run(env, repo / ".claude" / "settings.json", repo).returncode
    assert not ran.exists()
    # `trust --project-dir repo` lists the linked file and grants it in its own project,
    # where the loaders look for the grant
    trust(env, repo)
    store = json.loads((tmp_path / "state" / "agent_hooks" / "trust.json").read_text())
    assert list(store["projects"]) == [os.path.realpath(tmp_path / "other")]
    assert run(env, repo / ".claude" / "settings.json", repo).returncode == 0
    assert ran.read_text() == "ran\n"
