"""The quick client of ``agent-hooks run`` (``python -I -S <package>/_bridges/_daemon/
_quick_run.py run ...``), end to end as subprocesses: it answers byte for byte as
``agent-hooks run`` and ``--no-daemon`` do, through the resident server the console
script started; it loads no package module and no ``site``; a listener of another
user or a symlinked socket directory is sent nothing; without a server, with the
server switched off, or with a server killed mid-call, the package's own ``run``
answers (a deny stays a deny) with the same stdin bytes.

Every test has its own socket directory (``XDG_RUNTIME_DIR``) and state directory, and
stops the server it started."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import agent_hooks
from tests.daemon.test_daemon import DEADLINE
from tests.daemon.test_daemon_client_trust import (
    CLIENT,
    Home,
    Impostor,
    denied,
    needs_root,
    warnings,
)

PY = sys.executable
QUICK = Path(agent_hooks.__file__).parent / "_bridges" / "_daemon" / "_quick_run.py"
"""The file the installed command runs (found from the package, as install finds it)."""


class QuickHome(Home):
    """:class:`Home` with calls through the quick client, the console script, or
    ``--no-daemon``, each taking the payload as bytes."""

    def call(
        self,
        client: list[str],
        *args: str,
        payload: Any = None,
        stdin: bytes | None = None,
        env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[bytes]:
        data = stdin if stdin is not None else json.dumps(payload or self.payload()).encode()
        return subprocess.run(
            [*client, "run", "--config", str(self.config), *args],
            input=data,
            capture_output=True,
            cwd=self.tmp,
            env=env or self.env,
            timeout=120,
            check=False,
        )

    def quick(self, *args: str, **kw: Any) -> subprocess.CompletedProcess[bytes]:
        return self.call([PY, "-I", "-S", str(QUICK)], *args, **kw)

    def console(self, *args: str, **kw: Any) -> subprocess.CompletedProcess[bytes]:
        return self.call(CLIENT, *args, **kw)

    def start_server(self) -> int:
        """The server, started by the console script and answering; its pid."""
        first = self.run("--report", wait=True)
        assert json.loads(first.stdout)["resident"] is True, first.stderr
        status = self.status()
        assert status is not None
        return int(status["pid"])


@pytest.fixture
def home(tmp_path: Path) -> Iterator[QuickHome]:
    h = QuickHome(tmp_path)
    try:
        yield h
    finally:
        h.close()


def quick_denied(proc: subprocess.CompletedProcess[bytes]) -> bool:
    return denied(
        subprocess.CompletedProcess(
            proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
        )
    )


def test_the_quick_client_is_answered_by_the_server_the_console_script_started(
    home: QuickHome,
) -> None:
    pid = home.start_server()
    proc = home.quick("--report")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["resident"] is True  # (same server key: the same server answered)
    assert report["decision"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    status = home.status()
    assert status is not None and int(status["pid"]) == pid


def test_answers_are_byte_for_byte_those_of_run_and_no_daemon(home: QuickHome) -> None:
    home.start_server()
    exit_2 = home.tmp / "exit2.sh"
    exit_2.write_text("#!/bin/sh\ncat >/dev/null\necho 'teammate must wait' >&2\nexit 2\n")
    exit_2.chmod(0o755)
    config = json.loads(home.config.read_text())
    config["hooks"]["TeammateIdle"] = [{"hooks": [{"type": "command", "command": str(exit_2)}]}]
    home.config.write_text(json.dumps(config))
    teammate = {"hook_event_name": "TeammateIdle", "session_id": "s-1", "cwd": str(home.project)}
    cases: list[tuple[str, tuple[str, ...], Any]] = [
        ("allow", (), home.payload("ls")),
        ("deny", (), home.payload()),
        ("exit 2 (an untyped block)", (), teammate),
        ("--fail-closed, bad payload", ("--fail-closed",), [1, 2]),
        ("--fail-closed, missing file", ("--config", str(home.tmp / "none.json"), "--fail-closed"), home.payload()),
        ("usage error", ("--bogus-flag",), home.payload()),
    ]  # fmt: skip
    for name, args, payload in cases:
        quick = home.quick(*args, payload=payload)
        console = home.console(*args, payload=payload)
        alone = home.console(*args, "--no-daemon", payload=payload)
        got = (quick.returncode, quick.stdout, quick.stderr)
        assert got == (console.returncode, console.stdout, console.stderr), name
        assert got == (alone.returncode, alone.stdout, alone.stderr), name
    assert quick_denied(home.quick())
    assert home.quick(payload=teammate).returncode == 2
    assert json.loads(home.quick("--report").stdout)["resident"] is True


def test_it_loads_no_package_module_and_no_site(home: QuickHome) -> None:
    home.start_server()
    proc = home.call([PY, "-I", "-S", "-X", "importtime", str(QUICK)], "--report")
    assert json.loads(proc.stdout)["resident"] is True
    loaded = [
        line.split("|")[-1].strip()
        for line in proc.stderr.decode().splitlines()
        if line.startswith("import time:") and "|" in line
    ][1:]  # (the first line is the table's header)
    assert {"_quick", "_protocol", "_version"} <= set(loaded)
    assert not [m for m in loaded if m.startswith(("agent_hooks", "site", "anyio", "attrs"))]
    if sys.platform.startswith("linux"):  # (through FIFOs: see _fifo)
        assert "socket" not in loaded


@needs_root
def test_a_listener_of_another_user_is_sent_nothing(home: QuickHome) -> None:
    home.directory.mkdir(mode=0o700)
    impostor = Impostor(home.socket_path)
    try:
        calls = [home.quick(), home.quick("--report")]
    finally:
        connections, received = impostor.finish()
    assert received == 0  # not the payload, not the environment
    assert connections >= 2  # (asked who listens, then left)
    for proc in calls:
        assert quick_denied(proc)  # answered by the package in-process
        text = subprocess.CompletedProcess(proc.args, 0, "", proc.stderr.decode())
        (line,) = warnings(text)
        assert "runs as uid 65534, not as this user" in line
        assert "nothing was sent to it" in line
    assert json.loads(calls[1].stdout)["resident"] is False


@needs_root
def test_a_symlinked_socket_directory_is_not_followed(home: QuickHome) -> None:
    elsewhere = home.tmp / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    home.directory.symlink_to(elsewhere)
    (home.tmp / f"agent-hooks-{os.getuid()}").symlink_to(elsewhere)  # ($TMPDIR's)
    impostor = Impostor(str(elsewhere / Path(home.socket_path).name))
    try:
        proc = home.quick()
    finally:
        connections, received = impostor.finish()
    assert (connections, received) == (0, 0)
    assert quick_denied(proc)


def test_without_a_server_the_package_answers_and_starts_it(home: QuickHome) -> None:
    big = home.payload()
    big["padding"] = "x" * 300_000  # (more than a pipe holds: the replayed stdin is a file)
    first = home.quick("--report", payload=big)
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["resident"] is False
    assert report["decision"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    deadline = time.monotonic() + DEADLINE
    while home.status() is None:  # the fallback's run started the server
        assert time.monotonic() < deadline, "no server came up"
        time.sleep(0.05)  # (another process is starting)
    assert json.loads(home.quick("--report", payload=big).stdout)["resident"] is True


@pytest.mark.parametrize("how", ["--no-daemon", "AGENT_HOOKS_NO_DAEMON=1"])
def test_switched_off_it_answers_in_process(home: QuickHome, how: str) -> None:
    home.start_server()
    args = ("--report", how) if how.startswith("--") else ("--report",)
    env = dict(home.env, AGENT_HOOKS_NO_DAEMON="1") if how.startswith("AGENT") else None
    proc = home.quick(*args, env=env)
    assert quick_denied(proc)
    assert json.loads(proc.stdout)["resident"] is False


def test_another_command_is_the_package_s(home: QuickHome) -> None:
    proc = subprocess.run(
        [PY, "-I", "-S", str(QUICK), "daemon", "status"],
        capture_output=True,
        env=home.env,
        timeout=60,
        check=False,
    )
    console = subprocess.run(
        [*CLIENT, "daemon", "status"], capture_output=True, env=home.env, timeout=60, check=False
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        console.returncode,
        console.stdout,
        console.stderr,
    )


def test_a_server_killed_mid_call_still_denies_and_says_so(home: QuickHome) -> None:
    slow = home.tmp / "slow.sh"
    started, hook_pid = home.tmp / "started", home.tmp / "hook.pid"
    slow.write_text(
        f"#!/bin/sh\ncat >/dev/null\nif [ -e {home.tmp}/once ]; then rm {home.tmp}/once; "
        f"echo $$ > {hook_pid}; touch {started}; exec sleep 30; fi\n"
        "echo 'slow guard' >&2; exit 2\n"
    )
    slow.chmod(0o755)
    home.write_config(str(slow))
    pid = home.start_server()
    (home.tmp / "once").touch()
    payload = home.tmp / "payload.json"
    payload.write_text(json.dumps(home.payload()))
    with payload.open() as stdin:
        client = subprocess.Popen(
            [PY, "-I", "-S", str(QUICK), "run", "--config", str(home.config)],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=home.env,
            cwd=home.tmp,
        )
    try:
        deadline = time.monotonic() + DEADLINE
        while not started.exists():
            assert time.monotonic() < deadline, "the hook never started"
            time.sleep(0.02)  # (the hook runs in another process)
        os.kill(pid, signal.SIGKILL)
        out, err = client.communicate(timeout=60)
    finally:
        if hook_pid.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(hook_pid.read_text()), signal.SIGKILL)
    proc = subprocess.CompletedProcess(client.args, client.returncode, out, err)
    assert denied(proc)
    assert json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"] == "slow guard"
    (line,) = warnings(proc)
    assert "took this PreToolUse call and gave no answer" in line
    assert "its hooks may have run there, so they ran twice if they did" in line
    assert "answered in-process" in line
