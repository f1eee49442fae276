"""What the client of the resident server checks before it trusts the server, end to end
through ``agent-hooks run`` as subprocesses with the resident server on: the server is
started isolated (no project code runs in it); a listener of another user, a socket
directory that is a symlink, a directory or a file planted at the socket path are
refused (a warning, an in-process answer, nothing sent); a server killed mid-call
still yields the configured deny; a dead socket makes way for a fresh server.

Every test has its own socket directory (``XDG_RUNTIME_DIR``) and state directory, and
stops the servers it started."""

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

from agent_hooks._base._version import VERSION
from agent_hooks._bridges._daemon._protocol import private_dir, server_key, server_paths
from tests.daemon_helpers import DEADLINE, server_status, stop_servers, wait_gone
from tests.process_helpers import socket_dir

PY = sys.executable
# The console script a harness calls does not put its working directory on the module
# path (the client itself must not load the project's code); where there is none, -P does
# the same (Python 3.11+).
_SCRIPT = Path(PY).parent / "agent-hooks"
CLIENT = [str(_SCRIPT)] if _SCRIPT.is_file() else [PY, "-P", "-m", "agent_hooks"]

GUARD = """#!/bin/sh
payload=$(cat)
case "$payload" in *"rm -rf"*) echo "no rm" >&2; exit 2;; esac
exit 0
"""


class Home:
    """A project, a guard hook file and an environment of their own, with a private
    socket directory; :meth:`close` stops the server of this environment."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.project = tmp / "project"
        self.project.mkdir()
        self.runtime = socket_dir()
        guard = tmp / "guard.sh"
        guard.write_text(GUARD)
        guard.chmod(0o755)
        self.config = tmp / "hooks.json"
        self.write_config(str(guard))
        self.env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("CLAUDE_", "AGENT_HOOKS_", "CODEX_", "XDG_", "PYTHON"))
        }
        self.env.update(
            HOME=str(tmp / "home"),
            TMPDIR=str(tmp),
            XDG_RUNTIME_DIR=str(self.runtime),
            XDG_STATE_HOME=str(tmp / "state"),
            XDG_CONFIG_HOME=str(tmp / "home" / ".config"),
            AGENT_HOOKS_DAEMON_IDLE="60",
        )

    def write_config(self, command: str) -> None:
        hook = {"type": "command", "command": command}
        self.config.write_text(
            json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}})
        )

    def payload(self, command: str = "rm -rf /") -> dict[str, Any]:
        return {
            "hook_event_name": "PreToolUse",
            "session_id": "s-1",
            "cwd": str(self.project),
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }

    @property
    def directory(self) -> Path:
        return self.runtime / "agent-hooks"

    @property
    def socket_path(self) -> str:
        return server_paths(str(self.directory), server_key(VERSION))[0]

    def run(
        self, *args: str, cwd: Path | None = None, wait: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """One ``agent-hooks run`` of the guard; ``wait``: answered by the server it
        starts (``AGENT_HOOKS_DAEMON_WAIT``), not in-process."""
        env = dict(self.env, AGENT_HOOKS_DAEMON_WAIT="20") if wait else self.env
        return subprocess.run(
            [*CLIENT, "run", "--config", str(self.config), *args],
            input=json.dumps(self.payload()),
            capture_output=True,
            text=True,
            cwd=cwd or self.tmp,
            env=env,
            timeout=120,
            check=False,
        )

    def daemon(self, action: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*CLIENT, "daemon", action],
            capture_output=True,
            text=True,
            cwd=self.tmp,
            env=self.env,
            timeout=60,
            check=False,
        )

    def status(self) -> dict[str, Any] | None:
        """What ``agent-hooks daemon status`` says (asked on the socket, as it asks)."""
        return server_status(self.env)

    def close(self) -> None:
        stop_servers(private_dir(self.env), home=self.env["HOME"])
        shutil.rmtree(self.runtime, ignore_errors=True)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Home]:
    h = Home(tmp_path)
    try:
        yield h
    finally:
        h.close()


def denied(proc: subprocess.CompletedProcess[str]) -> bool:
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout)
    decision = answer.get("decision", answer)
    return bool(decision["hookSpecificOutput"]["permissionDecision"] == "deny")


def warnings(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [
        line
        for line in proc.stderr.splitlines()
        if line.startswith("agent-hooks: warning resident_server: ")
    ]


# ------------------------------------------------------------ isolation (item 1)


def test_the_server_runs_no_code_from_the_directory_it_started_in(home: Home) -> None:
    marker = home.tmp / "marker"
    evil = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    (home.project / "agent_hooks").mkdir()
    (home.project / "agent_hooks" / "__init__.py").write_text(evil)
    (home.project / "agent_hooks" / "__main__.py").write_text(
        evil + "import sys\nprint('{}')\nsys.exit(0)\n"
    )
    (home.project / "tomllib.py").write_text(evil + "def loads(s): return {}\n")
    # (a Codex file outside the project: reading it imports tomllib)
    toml = home.tmp / "codex" / "config.toml"
    toml.parent.mkdir()
    toml.write_text(
        '[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n[[hooks.PreToolUse.hooks]]\n'
        'type = "command"\ncommand = "echo codex says no >&2; exit 2"\n'
    )
    first = home.run("--report", cwd=home.project, wait=True)
    assert denied(first)
    report = json.loads(first.stdout)
    assert report["resident"] is True, first.stderr  # the server it started answered
    toml_call = home.run("--config", str(toml), "--report", cwd=home.project)
    assert denied(toml_call)
    assert json.loads(toml_call.stdout)["resident"] is True
    assert not marker.exists(), marker.read_text()
    status = home.status()
    assert status is not None
    server_cwd = os.readlink(f"/proc/{status['pid']}/cwd") if Path("/proc").is_dir() else None
    assert server_cwd in (None, str(home.directory))


# ------------------------------------------------------- who answers (item 4)

IMPOSTOR = """\
import select, socket, sys
s = socket.socket(fileno=int(sys.argv[1]))
s.listen(8)
print("listening", flush=True)
conns, count, total = [], 0, 0
while True:
    ready, _, _ = select.select([s, sys.stdin, *conns], [], [])
    if sys.stdin in ready:
        break
    if s in ready:
        c, _ = s.accept()
        conns.append(c)
        count += 1
    for c in [c for c in conns if c in ready]:
        data = c.recv(65536)
        total += len(data)
        if not data:
            conns.remove(c)
s.setblocking(False)
while True:
    try:
        c, _ = s.accept()
    except BlockingIOError:
        break
    conns.append(c)
    count += 1
for c in conns:
    c.setblocking(False)
    while True:
        try:
            data = c.recv(65536)
        except BlockingIOError:
            break
        if not data:
            break
        total += len(data)
print(f"connections={count} bytes={total}", flush=True)
"""


class Impostor:
    """A listener at ``path`` that runs as uid 65534 (bound here, then handed to a
    process of that user, whose ``listen`` makes it the peer a client sees); it counts
    connections and the bytes they send."""

    def __init__(self, path: str) -> None:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        self.proc = subprocess.Popen(
            ["/usr/bin/python3", "-I", "-c", IMPOSTOR, str(listener.fileno())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            pass_fds=(listener.fileno(),),
            user=65534,
            group=65534,
            env={"PATH": os.environ.get("PATH", "")},
        )
        listener.close()
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "listening"

    def finish(self) -> tuple[int, int]:
        """``(connections, bytes received)``."""
        out, _ = self.proc.communicate(timeout=60)
        fields = dict(part.split("=") for part in out.split())
        return int(fields["connections"]), int(fields["bytes"])


needs_root = pytest.mark.skipif(
    os.getuid() != 0 or not os.path.exists("/usr/bin/python3"),
    reason="needs root (to listen as a second user) and /usr/bin/python3",
)


@needs_root
@pytest.mark.parametrize("owner", ["socket file of this user", "socket file of the impostor"])
def test_a_listener_of_another_user_is_sent_nothing(home: Home, owner: str) -> None:
    home.directory.mkdir(mode=0o700)
    impostor = Impostor(home.socket_path)
    if owner == "socket file of the impostor":
        os.chown(home.socket_path, 65534, 65534)
    try:
        calls = [home.run(), home.run("--report")]
    finally:
        connections, received = impostor.finish()
    assert received == 0  # not the payload, not the environment
    for proc in calls:
        assert denied(proc)  # answered in-process: the guard still guards
        (line,) = warnings(proc)
        assert home.socket_path in line
        assert "nothing was sent to it" in line
        if owner == "socket file of this user":
            assert "runs as uid 65534, not as this user" in line
        else:
            assert "is a socket of uid 65534" in line
    assert json.loads(calls[1].stdout)["resident"] is False
    if owner == "socket file of this user":
        assert connections == 2  # connected, asked who listens, left
    else:
        assert connections == 0  # refused by the socket's owner, before connecting


@needs_root
def test_a_symlinked_socket_directory_is_not_followed(home: Home) -> None:
    elsewhere = home.tmp / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    home.directory.symlink_to(elsewhere)
    fallback = home.tmp / f"agent-hooks-{os.getuid()}"  # ($TMPDIR's candidate)
    fallback.symlink_to(elsewhere)
    impostor = Impostor(str(elsewhere / Path(home.socket_path).name))
    try:
        proc = home.run()
    finally:
        connections, received = impostor.finish()
    assert (connections, received) == (0, 0)
    assert denied(proc)
    (line,) = warnings(proc)
    assert "no private directory for the resident server's socket" in line


# --------------------------------------------------- a server dies (item 5)


def test_a_server_killed_mid_call_still_denies_and_says_so(home: Home) -> None:
    slow = home.tmp / "slow.sh"
    started, hook_pid = home.tmp / "started", home.tmp / "hook.pid"
    slow.write_text(
        f"#!/bin/sh\ncat >/dev/null\nif [ -e {home.tmp}/once ]; then rm {home.tmp}/once; "
        f"echo $$ > {hook_pid}; touch {started}; exec sleep 30; fi\n"
        "echo 'slow guard' >&2; exit 2\n"
    )
    slow.chmod(0o755)
    home.write_config(str(slow))
    assert denied(home.run(wait=True))
    status = home.status()
    assert status is not None
    (home.tmp / "once").touch()
    payload = home.tmp / "payload.json"
    payload.write_text(json.dumps(home.payload()))
    with payload.open() as stdin:
        client = subprocess.Popen(
            [*CLIENT, "run", "--config", str(home.config)],
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
        os.kill(int(status["pid"]), signal.SIGKILL)
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


# ------------------------------------------- what is at the socket path (item 7)


@pytest.mark.parametrize("planted", ["directory", "file"])
def test_a_directory_or_file_at_the_socket_path_is_reported_on_every_call(
    home: Home, planted: str
) -> None:
    home.directory.mkdir(mode=0o700)
    path = Path(home.socket_path)
    if planted == "directory":
        path.mkdir()
        what = "is a directory, not the resident server's socket"
    else:
        path.write_text("not a socket")
        what = "is a file that is not a socket, not the resident server's socket"
    for _ in range(2):
        proc = home.run(wait=True)
        assert denied(proc)
        (line,) = warnings(proc)
        assert line == (
            f"agent-hooks: warning resident_server: {path} {what}; remove it to use the "
            "resident server; answered in-process"
        )
    assert home.status() is None  # no server was started to fail on it
    assert path.exists()  # left alone
    path.rmdir() if planted == "directory" else path.unlink()
    served = home.run("--report", wait=True)
    assert denied(served) and json.loads(served.stdout)["resident"] is True
    assert warnings(served) == []


def test_a_dead_socket_makes_way_for_a_fresh_server(home: Home) -> None:
    assert denied(home.run(wait=True))
    status = home.status()
    assert status is not None
    os.kill(int(status["pid"]), signal.SIGKILL)  # its socket stays; nobody listens
    wait_gone(int(status["pid"]))
    assert os.path.exists(home.socket_path)
    proc = home.run("--report", wait=True)
    assert denied(proc)
    assert json.loads(proc.stdout)["resident"] is True
    assert warnings(proc) == []
    fresh = home.status()
    assert fresh is not None and fresh["pid"] != status["pid"]
