"""Workspace trust: grants bound to the SHA-256 of the exact bytes, revoked by edits,
session and headless grants, a corrupt or unreadable store that grants nothing,
concurrent writers, and a file that changes between the trust check and the load."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from agent_hooks import DiagnosticCode, HookEvent
from agent_hooks._config import _common
from agent_hooks._config._discover import discover
from agent_hooks._config._load import load
from agent_hooks._config._trust import TrustPolicy, TrustStore, TrustStoreError, default_trust_path


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "project"
    settings = p / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(hooks_doc("echo trusted"))
    return p


def hooks_doc(command: str) -> str:
    return json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}})


def settings_of(project: Path) -> Path:
    return project / ".claude" / "settings.json"


def sha_of(path: Path) -> str:
    return TrustStore.digest(path.read_bytes())


def status(project: Path, trust: object = None) -> str:
    config = discover(project, trust=trust, ecosystems=("claude",))  # type: ignore[arg-type]
    return config.files[0].status


def test_default_path_follows_xdg_state_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert default_trust_path() == tmp_path / "state" / "agent_hooks" / "trust.json"
    monkeypatch.delenv("XDG_STATE_HOME")
    assert (
        default_trust_path()
        == tmp_path / "home" / ".local" / "state" / "agent_hooks" / "trust.json"
    )
    monkeypatch.setenv("XDG_STATE_HOME", "relative/ignored")
    assert (
        default_trust_path()
        == tmp_path / "home" / ".local" / "state" / "agent_hooks" / "trust.json"
    )


def test_grant_persists_with_mode_0600_and_edit_revokes(project: Path) -> None:
    assert status(project) == "untrusted"
    store = TrustStore()
    store.grant(project, {".claude/settings.json": sha_of(settings_of(project))})
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    doc = json.loads(store.path.read_text())
    assert doc["projects"][os.path.realpath(project)]["files"] == {
        ".claude/settings.json": sha_of(settings_of(project))
    }
    assert status(project) == "loaded"  # a fresh default store reads the grant back
    settings_of(project).write_text(hooks_doc("echo edited"))
    assert status(project) == "untrusted"
    store.grant(project, {".claude/settings.json": sha_of(settings_of(project))})
    assert status(project) == "loaded"


def test_grants_are_bound_to_the_real_path(project: Path, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(project)
    TrustStore().grant(link, {".claude/settings.json": sha_of(settings_of(project))})
    assert status(project) == "loaded"
    assert TrustStore().trusted_files(link) == TrustStore().trusted_files(project)


def test_grant_merges_files_and_revoke_forgets_the_project(project: Path) -> None:
    store = TrustStore()
    other = "0" * 64
    store.grant(project, {".deepagents/hooks.json": other})
    store.grant(project, {".claude/settings.json": sha_of(settings_of(project))})
    assert set(store.trusted_files(project)) == {".deepagents/hooks.json", ".claude/settings.json"}
    store.revoke(project)
    assert store.trusted_files(project) == {}
    assert status(project) == "untrusted"
    with pytest.raises(ValueError, match="SHA-256"):
        store.grant(project, {".claude/settings.json": "not-a-digest"})


def test_session_grants_are_in_memory_only(project: Path) -> None:
    store = TrustStore()
    store.grant_session(project, {".claude/settings.json": sha_of(settings_of(project))})
    assert status(project, store) == "loaded"
    assert not store.path.exists()
    assert status(project) == "untrusted"  # another store object knows nothing
    policy = TrustPolicy(store=None)
    policy.grant(
        project, {".claude/settings.json": sha_of(settings_of(project))}
    )  # no store: session
    assert status(project, policy) == "loaded"
    policy.revoke(project)
    assert status(project, policy) == "untrusted"


def test_headless_explicit_trust_everything(project: Path) -> None:
    assert status(project, TrustPolicy(trust_all=True)) == "loaded"
    assert status(project, True) == "loaded"
    assert status(project, False) == "untrusted"


def test_corrupt_store_grants_nothing_and_says_so(project: Path) -> None:
    store = TrustStore()
    store.grant(project, {".claude/settings.json": sha_of(settings_of(project))})
    store.path.write_text('{"projects": {')  # truncated
    config = discover(project, ecosystems=("claude",))
    assert config.files[0].status == "untrusted"
    codes = {d.code for d in config.diagnostics}
    assert DiagnosticCode.UNTRUSTED in codes
    corrupt = [d for d in config.diagnostics if d.source == str(store.path)]
    assert corrupt and "corrupt" in corrupt[0].message
    # a later grant moves the corrupt file aside and starts afresh
    store.grant(project, {".claude/settings.json": sha_of(settings_of(project))})
    assert status(project) == "loaded"
    assert list(store.path.parent.glob("trust.json.corrupt-*"))


def test_wrong_shapes_in_the_store_grant_nothing(project: Path) -> None:
    store = TrustStore()
    store.path.parent.mkdir(parents=True)
    real = os.path.realpath(project)
    for doc in (
        [],
        {"projects": []},
        {"projects": {real: {"files": {".claude/settings.json": 3}}}},
    ):
        store.path.write_text(json.dumps(doc))
        os.chmod(store.path, 0o600)
        trusted, diags = store.check(project, ".claude/settings.json", sha_of(settings_of(project)))
        assert not trusted and diags


def test_unreadable_store_grants_nothing(project: Path) -> None:
    store = TrustStore()
    store.path.mkdir(parents=True)  # a directory where the file should be: cannot be read
    config = discover(project, ecosystems=("claude",))
    assert config.files[0].status == "untrusted"
    assert any(d.code is DiagnosticCode.CONFIG_READ_FAILED for d in config.diagnostics)
    with pytest.raises(TrustStoreError):
        store.grant(project, {".claude/settings.json": sha_of(settings_of(project))})


def test_store_writable_by_others_grants_nothing(project: Path) -> None:
    store = TrustStore()
    store.grant(project, {".claude/settings.json": sha_of(settings_of(project))})
    os.chmod(store.path, 0o666)
    trusted, diags = store.check(project, ".claude/settings.json", sha_of(settings_of(project)))
    assert not trusted
    assert "other users" in diags[0].message


def test_concurrent_threads_granting_all_survive(tmp_path: Path) -> None:
    store_path = tmp_path / "trust.json"
    errors: list[BaseException] = []

    def grant(i: int) -> None:
        try:
            for j in range(5):
                TrustStore(store_path).grant(
                    tmp_path / f"p{i}", {f"f{j}.json": f"{i:02d}{j:02d}".ljust(64, "a")}
                )
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=grant, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    projects = json.loads(store_path.read_text())["projects"]
    assert len(projects) == 8
    assert all(len(p["files"]) == 5 for p in projects.values())


def test_concurrent_processes_granting_all_survive(tmp_path: Path) -> None:
    store_path = tmp_path / "trust.json"
    script = (
        "import sys\n"
        "from agent_hooks._config._trust import TrustStore\n"
        "i = int(sys.argv[2])\n"
        "for j in range(20):\n"
        "    TrustStore(sys.argv[1]).grant(f'/proj/{i}', {f'f{j}.json': f'{i:02d}{j:02d}'.ljust(64, 'b')})\n"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(store_path), str(i)]) for i in range(4)
    ]
    assert all(p.wait(timeout=60) == 0 for p in procs)
    projects = json.loads(store_path.read_text())["projects"]
    assert sorted(projects) == [os.path.realpath(f"/proj/{i}") for i in range(4)]
    assert all(len(p["files"]) == 20 for p in projects.values())


def test_file_changing_after_the_read_loads_the_trusted_bytes(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = settings_of(project)
    TrustStore().grant(project, {".claude/settings.json": sha_of(path)})
    real_read = _common.read_bytes

    def read_then_swap(p: str) -> bytes:
        data = real_read(p)
        if p == str(path):
            path.write_text(hooks_doc("echo EVIL"))  # the file changes right after the read
        return data

    monkeypatch.setattr(_common, "read_bytes", read_then_swap)
    config = discover(project, ecosystems=("claude",))
    names = [cn.info.name for cn in config.registry().compile().nodes[HookEvent.STOP]]
    assert names == ["echo trusted"]  # what was hashed is what was parsed
    assert config.files[0].sha256 == TrustStore.digest(hooks_doc("echo trusted").encode())
    monkeypatch.setattr(_common, "read_bytes", real_read)
    assert status(project) == "untrusted"  # and the new content is not trusted


def test_file_changed_before_the_read_is_dropped(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = settings_of(project)
    TrustStore().grant(project, {".claude/settings.json": sha_of(path)})
    real_read = _common.read_bytes

    def swap_then_read(p: str) -> bytes:
        if p == str(path):
            path.write_text(hooks_doc("echo EVIL"))
        return real_read(p)

    monkeypatch.setattr(_common, "read_bytes", swap_then_read)
    config = load(path)
    assert config.files[0].status == "untrusted"
    assert config.sources[0].groups == ()


def test_a_plugin_shaped_file_inside_the_project_needs_trust(project: Path) -> None:
    """``hooks/hooks.json`` is detected as a plugin file; inside the project it is still
    project content, so it must not skip the trust gate."""
    plugin_file = project / "hooks" / "hooks.json"
    plugin_file.parent.mkdir(parents=True)
    plugin_file.write_text(hooks_doc("echo from-repo"))
    config = load(plugin_file, project_dir=project)
    assert [f.status for f in config.files] == ["untrusted"]
    assert not config.registry().compile().nodes
    assert any(d.code is DiagnosticCode.UNTRUSTED for d in config.diagnostics)
    trusted = load(plugin_file, project_dir=project, trust=True)
    assert trusted.registry().compile().nodes[HookEvent.STOP]


def test_trust_status_of_each_file(project: Path, tmp_path: Path) -> None:
    settings = project / ".claude" / "settings.json"
    untrusted = load(settings, project_dir=project)
    assert [(f.status, f.trust) for f in untrusted.files] == [("untrusted", "untrusted")]
    assert untrusted.sources[0].groups == ()
    # what it holds is parsed for inspection (nothing runs), beside the loaded hooks
    (shown,) = untrusted.skipped
    assert [g.event for g in shown.groups] == [HookEvent.STOP]
    trusted = load(settings, project_dir=project, trust=True)
    assert [(f.status, f.trust) for f in trusted.files] == [("loaded", "trusted")]
    assert trusted.skipped == ()
    outside = tmp_path / "elsewhere" / "hooks.json"
    outside.parent.mkdir()
    outside.write_bytes(settings.read_bytes())
    assert [f.trust for f in load(outside, project_dir=project).files] == ["not-needed"]


def test_hel_trust_file_is_off_unless_the_policy_opts_in() -> None:
    assert TrustPolicy().honor_hel_trust_file is False
    for value in (None, True, False, TrustStore()):
        assert TrustPolicy.coerce(value).honor_hel_trust_file is False
    assert TrustPolicy(honor_hel_trust_file=True).honor_hel_trust_file is True
