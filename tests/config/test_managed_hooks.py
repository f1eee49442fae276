"""agent_hooks's own managed layer (``/etc/agent-hooks/managed.d``, moved here by
``AGENT_HOOKS_MANAGED_DIR``): root-owned files load first as managed hooks, through
``discover()`` and ``agent-hooks run`` (in-process and through the resident server), and
no project or user file switches them off; a file anyone else can change, a link to
one, or a half-written file is refused with a diagnostic, and blocks under
``--fail-closed``.

Only root's files are managed, so the tests that want a file to pass run as root (CI
does; elsewhere they are skipped), and those that want it to fail give it a uid that
is not root's (``chown`` as root; their own as any other user): they never touch the
real /etc."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from agent_hooks import DiagnosticCode, HookEvent
from agent_hooks._base._version import VERSION
from agent_hooks._bridges._daemon._protocol import (
    pack,
    private_dir,
    read_frame,
    server_key,
    server_paths,
)
from tests.cli_inprocess import cli_in_process
from tests.process_helpers import socket_dir

ME = os.getuid()
pytestmark = pytest.mark.skipif(ME != 0, reason="only root's files are managed: run as root")
OTHER = 4242
PY = sys.executable

DENY = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "echo managed says no >&2; exit 2"}],
            }
        ]
    }
}


def _write(path: Path, doc: Any, mode: int = 0o644) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    path.chmod(mode)
    return path


def not_mine(path: Path) -> None:
    """Make ``path`` a file the managed rule refuses by owner: another uid's as root;
    as anyone else it is theirs already (not root's; no owner variable is set)."""
    if ME == 0:
        os.chown(path, OTHER, -1, follow_symlinks=False)


class Machine:
    """A managed directory, a project and a home of their own, and the environment
    that points agent_hooks at them."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.managed = tmp / "managed.d"
        self.managed.mkdir(mode=0o755)
        self.managed.chmod(0o755)
        self.project = tmp / "project"
        (self.project / ".git").mkdir(parents=True)
        self.home = tmp / "home"
        self.home.mkdir()
        self.env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("CLAUDE_", "AGENT_HOOKS_", "CODEX_", "XDG_"))
        }
        self.env.update(
            HOME=str(self.home),
            XDG_STATE_HOME=str(tmp / "state"),
            XDG_CONFIG_HOME=str(self.home / ".config"),
            AGENT_HOOKS_MANAGED_DIR=str(self.managed),
            AGENT_HOOKS_NO_DAEMON="1",
        )

    def payload(self, command: str = "rm -rf /") -> str:
        return json.dumps(
            {
                "hook_event_name": "PreToolUse",
                "session_id": "s-1",
                "cwd": str(self.project),
                "tool_name": "Bash",
                "tool_input": {"command": command},
            }
        )

    def project_settings(self, doc: dict[str, Any]) -> Path:
        return _write(self.project / ".claude" / "settings.json", doc)

    def run(
        self, *args: str, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return cli_in_process(
            ["run", *args], env=env or self.env, cwd=self.tmp, input=self.payload()
        )


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Machine:
    m = Machine(tmp_path)
    monkeypatch.setenv("AGENT_HOOKS_MANAGED_DIR", m.env["AGENT_HOOKS_MANAGED_DIR"])
    return m


def denied(proc: subprocess.CompletedProcess[str]) -> bool:
    answer = json.loads(proc.stdout or "{}")
    specific = answer.get("hookSpecificOutput", {})
    return specific.get("permissionDecision") == "deny" or answer.get("decision") == "block"


ALLOW_ALL = {
    "disableAllHooks": True,
    "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]},
}


# ------------------------------------------------------------------ discover()


def test_discover_loads_managed_files_first_as_managed(machine: Machine) -> None:
    _write(machine.managed / "20-audit.json", DENY)
    _write(machine.managed / "10-guard.json", DENY)
    _write(machine.managed / "notes.txt", "not a hook file")
    config = agent_hooks.discover(machine.project, home=machine.home, trust=False)
    managed = [f for f in config.files if f.scope == "managed"]
    assert [(Path(f.path).name, f.precedence, f.status, f.trust) for f in managed] == [
        ("10-guard.json", 50, "loaded", "not-needed"),
        ("20-audit.json", 51, "loaded", "not-needed"),
    ]
    assert config.files[:2] == tuple(managed)


def test_a_project_file_that_disables_all_hooks_leaves_managed_hooks_on(machine: Machine) -> None:
    _write(machine.managed / "guard.json", DENY)
    machine.project_settings(ALLOW_ALL)
    config = agent_hooks.discover(machine.project, home=machine.home, trust=True)
    by_name = {Path(f.path).name: f.status for f in config.files}
    assert by_name == {"guard.json": "loaded", "settings.json": "disabled"}
    nodes = config.registry().compile().nodes[HookEvent.PRE_TOOL_USE]
    assert [n.node.name for n in nodes] == ["echo managed says no >&2; exit 2"]


# ------------------------------------------------------------------ agent-hooks run


@pytest.mark.parametrize("how", ["--config", "--discover"])
def test_run_still_denies_when_a_project_file_disables_all_hooks(
    machine: Machine, how: str
) -> None:
    _write(machine.managed / "guard.json", DENY)
    settings = machine.project_settings(ALLOW_ALL)
    args = ["--config", str(settings)] if how == "--config" else ["--discover"]
    proc = machine.run(*args, "--trust-project-hooks", "--project-dir", str(machine.project))
    assert proc.returncode == 0, proc.stderr
    assert denied(proc), proc.stdout


def test_run_without_managed_files_allows(machine: Machine) -> None:
    proc = machine.run("--discover", "--project-dir", str(machine.project))
    assert proc.returncode == 0 and not denied(proc), (proc.stdout, proc.stderr)


@pytest.mark.parametrize(
    ("file_mode", "dir_mode", "why"),
    [
        (0o666, 0o755, "the file is writable by its group or by others"),
        (0o644, 0o777, "its directory is writable by its group or by others"),
    ],
)
def test_a_managed_file_others_can_write_is_refused(
    machine: Machine, file_mode: int, dir_mode: int, why: str
) -> None:
    path = _write(machine.managed / "guard.json", DENY, file_mode)
    machine.managed.chmod(dir_mode)
    config = agent_hooks.discover(machine.project, home=machine.home, trust=False)
    (file,) = config.files
    assert (file.scope, file.status, file.handlers) == ("managed", "untrusted", 0)
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.UNTRUSTED and why in diag.message
    assert diag.source == str(path)
    assert config.registry().compile().nodes.get(HookEvent.PRE_TOOL_USE, ()) == ()
    proc = machine.run("--project-dir", str(machine.project))
    assert not denied(proc) and "managed hook file refused" in proc.stderr


def test_a_managed_file_of_another_owner_is_refused(machine: Machine) -> None:
    path = _write(machine.managed / "guard.json", DENY)
    not_mine(path)
    env = machine.env
    proc = machine.run("--project-dir", str(machine.project), env=env)
    assert not denied(proc)
    assert "managed hook file refused: the file is owned by uid" in proc.stderr
    # under --fail-closed a managed file that did not load blocks
    proc = machine.run("--project-dir", str(machine.project), "--fail-closed", env=env)
    assert proc.returncode == 2 and "was not loaded (untrusted)" in proc.stderr


def test_a_link_to_a_user_file_is_not_managed(machine: Machine) -> None:
    target = _write(machine.tmp / "mine" / "guard.json", DENY)
    not_mine(target)
    (machine.managed / "guard.json").symlink_to(target)
    env = machine.env
    if ME == 0:
        proc = machine.run("--project-dir", str(machine.project), env=env)
        assert "the file the link points to is owned by uid 4242" in proc.stderr
    else:
        proc = machine.run("--project-dir", str(machine.project), env=env)
        assert "managed hook file refused" in proc.stderr
    assert not denied(proc)


def test_a_link_into_a_writable_directory_is_not_managed(machine: Machine) -> None:
    shared = machine.tmp / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    target = _write(shared / "guard.json", DENY)
    (machine.managed / "guard.json").symlink_to(target)
    proc = machine.run("--project-dir", str(machine.project))
    assert "its directory is writable by its group or by others" in proc.stderr
    assert not denied(proc)


def test_a_half_written_managed_file_is_diagnosed_and_blocks_when_failing_closed(
    machine: Machine,
) -> None:
    _write(machine.managed / "guard.json", '{"hooks": {"PreToolUse": [{"matcher": "Ba')
    config = agent_hooks.discover(machine.project, home=machine.home, trust=False)
    (file,) = config.files
    assert (file.scope, file.status) == ("managed", "invalid")
    assert any(d.code is DiagnosticCode.CONFIG_READ_FAILED for d in config.errors)
    proc = machine.run("--project-dir", str(machine.project), "--fail-closed")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "guard.json was not loaded (invalid)" in proc.stderr


def test_an_absent_managed_directory_changes_nothing(machine: Machine) -> None:
    env = {**machine.env, "AGENT_HOOKS_MANAGED_DIR": str(machine.tmp / "none")}
    proc = machine.run("--project-dir", str(machine.project), "--fail-closed", env=env)
    assert proc.returncode == 0 and proc.stdout.strip() in ("", "{}"), proc.stderr


# ------------------------------------------------------------------ the resident server


@pytest.fixture
def resident(machine: Machine) -> Iterator[dict[str, str]]:
    runtime = socket_dir()
    env = {k: v for k, v in machine.env.items() if k != "AGENT_HOOKS_NO_DAEMON"}
    env.update(XDG_RUNTIME_DIR=str(runtime), AGENT_HOOKS_DAEMON_IDLE="60")
    try:
        yield env
    finally:
        for lock in runtime.rglob("*.lock"):
            text = lock.read_text().strip()
            if text.isdigit():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(text), signal.SIGTERM)
        shutil.rmtree(runtime, ignore_errors=True)


def _wait_for_server(env: dict[str, str]) -> None:
    directory = private_dir(env)
    assert directory is not None
    path = server_paths(directory, server_key(VERSION))[0]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(10)
        try:
            sock.connect(path)
            sock.sendall(pack(b"T", []))
            read_frame(sock)
            return
        except (OSError, ValueError):
            time.sleep(0.05)  # (the server is starting)
        finally:
            sock.close()
    raise AssertionError("no resident server came up")


def _through_server(machine: Machine, env: dict[str, str], *args: str) -> Any:
    proc = subprocess.run(
        [PY, "-m", "agent_hooks", "run", "--report", *args],
        input=machine.payload(),
        capture_output=True,
        text=True,
        cwd=machine.tmp,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_resident_server_honours_managed_hooks_and_sees_them_change(
    machine: Machine, resident: dict[str, str]
) -> None:
    settings = machine.project_settings(ALLOW_ALL)
    args = ("--config", str(settings), "--trust-project-hooks")
    first = _through_server(machine, resident, *args)
    assert first["decision"] == {}, first
    _wait_for_server(resident)
    _write(machine.managed / "guard.json", DENY)
    second = _through_server(machine, resident, *args)
    assert second["resident"] is True, second
    assert second["decision"]["hookSpecificOutput"]["permissionDecision"] == "deny", second
    (machine.managed / "guard.json").unlink()
    third = _through_server(machine, resident, *args)
    assert third["resident"] is True and third["decision"] == {}, third


# ------------------------------------------------------------------ check and doctor


def test_check_marks_managed_hooks(machine: Machine) -> None:
    _write(machine.managed / "guard.json", DENY)
    user = _write(machine.tmp / "conf" / "mine.json", {"hooks": ALLOW_ALL["hooks"]})
    args = ["check", "--project-dir", str(machine.project), "--config", str(user)]
    proc = cli_in_process([*args, "--json"], env=machine.env, cwd=machine.tmp)
    report = json.loads(proc.stdout)
    marks = [(Path(e["source"]).name, e["managed"]) for e in report["events"]["PreToolUse"]]
    assert marks == [("guard.json", True), ("mine.json", False)]
    assert report["managed"] == {
        "files": [
            {
                "path": str(machine.managed / "guard.json"),
                "format": "claude-hooks",
                "status": "loaded",
                "handlers": 1,
            }
        ],
        "policies": [],
    }
    text = cli_in_process(args, env=machine.env, cwd=machine.tmp).stdout
    assert "[command] echo managed says no >&2; exit 2  (managed)" in text
    assert (
        f"Managed hooks (no user or project file switches them off):\n  loaded  {machine.managed / 'guard.json'}  (1 handler)"
        in text
    )


def test_doctor_reports_managed_files_and_refused_ones(machine: Machine) -> None:
    good = _write(machine.managed / "10-guard.json", DENY)
    bad = _write(machine.managed / "20-loose.json", DENY, 0o666)
    args = ["doctor", "--project-dir", str(machine.project)]
    proc = cli_in_process([*args, "--json"], env=machine.env, cwd=machine.tmp)
    report = json.loads(proc.stdout)
    assert [(f["path"], f["status"]) for f in report["managed"]["files"]] == [
        (str(good), "loaded"),
        (str(bad), "untrusted"),
    ]
    assert "writable by its group or by others" in report["managed"]["files"][1]["why"]
    assert report["ok"] is False and proc.returncode == 1
    text = cli_in_process(args, env=machine.env, cwd=machine.tmp).stdout
    assert f"managed file (loaded): {good} (1 handler(s))" in text
    assert (
        f"managed file (REFUSED): {bad} (0 handler(s))\n  PROBLEM: managed hook file refused"
        in text
    )


# ------------------------------------------------------------------ the worker's watch

LATER = time.time_ns() + 3600 * 10**9
"""A load "started" an hour from now: what the test just made counts as settled."""


def _watched_load(machine: Machine) -> Any:
    """What a resident worker records of a ``run`` load (no ``--discover``): every path
    opened or listed, and the managed directory it names itself."""
    import argparse

    from agent_hooks._bridges._cli._run import load_hooks
    from agent_hooks._bridges._daemon._watch import Stamps, recording
    from agent_hooks._config._managed import managed_dir

    args = argparse.Namespace(
        config=[],
        format=None,
        discover=False,
        home=str(machine.home),
        trust_project_hooks=False,
        trust_store=str(machine.tmp / "trust.json"),
        honor_hel_trust_file=False,
    )
    with recording() as seen:
        load_hooks(args, str(machine.project))
    stamps = Stamps.taken({*seen, str(managed_dir())}, LATER)
    assert stamps is not None
    return stamps


def test_a_kept_load_is_redone_when_a_managed_file_appears_or_changes(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    stamps = _watched_load(machine)
    assert stamps.unchanged()
    path = _write(machine.managed / "guard.json", DENY)
    assert not stamps.unchanged()
    stamps = _watched_load(machine)
    path.chmod(0o666)  # (now refused: the same bytes, another verdict)
    assert not stamps.unchanged()


def test_a_kept_load_is_redone_when_the_managed_directory_appears(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    later = machine.tmp / "later" / "managed.d"
    monkeypatch.setenv("AGENT_HOOKS_MANAGED_DIR", str(later))
    stamps = _watched_load(machine)
    _write(later / "guard.json", DENY)
    assert not stamps.unchanged()


# ------------------------------------------------------------------ serve


def test_serve_answers_with_managed_hooks(machine: Machine) -> None:
    pytest.importorskip("h11")
    import http.client

    _write(machine.managed / "guard.json", DENY)
    settings = machine.project_settings(ALLOW_ALL)
    env = {**machine.env, "MY_TOKEN": "test-token-0123456789"}
    argv = [PY, "-m", "agent_hooks", "serve", "--config", str(settings), "--port", "0"]
    argv += ["--token-env", "MY_TOKEN", "--project-dir", str(machine.project)]
    argv += ["--trust-project-hooks"]
    proc = subprocess.Popen(
        argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    try:
        port = None
        for raw in proc.stderr:
            line = raw.decode()
            if "listening on http://127.0.0.1:" in line:
                port = int(line.rsplit(":", 1)[1].strip())
                break
        assert port is not None, "serve did not start"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Authorization": "Bearer test-token-0123456789"}
        conn.request("POST", "/hooks", body=machine.payload().encode(), headers=headers)
        resp = conn.getresponse()
        answer = json.loads(resp.read())
        conn.close()
        assert resp.status == 200
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", answer
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        proc.stderr.close()
        if proc.stdout is not None:
            proc.stdout.close()
