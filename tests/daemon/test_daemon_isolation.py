"""The resident hook server keeps projects apart and survives its clients, end to end
as subprocesses with the server on: two trusted projects' ``guard:check`` answer their
own; an edited handler (or a module it imports) answers at the next call; a client
killed mid-request costs only its own answer; a stop (SIGTERM, ``daemon stop``) with
calls in flight answers each once and runs each hook once; Python callbacks see the
calling client's environment; a directory at the socket path is reported.

Every test has its own socket and state directories and stops the server it started."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_hooks._base._version import VERSION
from agent_hooks._bridges._daemon._protocol import (
    log_path,
    private_dir,
    server_key,
    server_paths,
)
from tests.cli_inprocess import cli_in_process
from tests.daemon_helpers import DEADLINE, server_status, stop_servers
from tests.daemon_helpers import alive as _alive
from tests.daemon_helpers import wait_gone as _wait_gone
from tests.process_helpers import socket_dir

PY = sys.executable

ALLOW = """\
def check(input):
    return None
"""

DENY = """\
from agent_hooks import PreToolUseOutput


def check(input):
    if "rm -rf" in input.tool_input["command"]:
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="B says no")
    return None
"""

WORDY = """\
import helpers
from agent_hooks import PreToolUseOutput


def check(input):
    return PreToolUseOutput(additional_context=PREFIX + helpers.WORD)


PREFIX = "guard:"
"""

SLOW = """\
import os

import anyio
from agent_hooks import PreToolUseOutput

HERE = os.path.dirname(os.path.abspath(__file__))


async def check(input):
    command = input.tool_input["command"]
    with open(os.path.join(HERE, "runs"), "a") as runs:
        runs.write(command + "\\n")
    while not os.path.exists(os.path.join(HERE, "release")):
        await anyio.sleep(0.02)
    return PreToolUseOutput(additional_context="done:" + command)
"""

SECRET = """\
import os

from agent_hooks import PreToolUseOutput


def check(input):
    return PreToolUseOutput(additional_context="secret=" + os.environ.get("SECRET", "none"))
"""


class Lab:
    """Projects with a Python ``guard:check`` of their own, trusted, and an environment
    whose calls are all answered by one resident server (started by the first)."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.runtime = runtime = socket_dir()
        self.env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("CLAUDE_", "AGENT_HOOKS_", "CODEX_", "XDG_", "SECRET"))
        }
        self.env.update(
            HOME=str(tmp / "home"),
            XDG_RUNTIME_DIR=str(runtime),
            XDG_STATE_HOME=str(tmp / "state"),
            XDG_CONFIG_HOME=str(tmp / "home" / ".config"),
            AGENT_HOOKS_DAEMON_IDLE="60",
            AGENT_HOOKS_DAEMON_WAIT="30",
        )
        (tmp / "home").mkdir()
        self.started: list[subprocess.Popen[bytes]] = []

    def project(self, name: str, guard: str, **modules: str) -> Path:
        """A trusted project whose PreToolUse Bash hook is ``guard:check``."""
        root = self.tmp / name
        claude = root / ".claude"
        claude.mkdir(parents=True)
        hook = {"type": "python", "callable": "guard:check"}
        settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}
        (claude / "settings.json").write_text(json.dumps(settings))
        (claude / "guard.py").write_text(guard)
        for module, text in modules.items():
            (claude / f"{module}.py").write_text(text)
        # (in-process: trusting is set-up here, the store a file the server reads)
        trusted = cli_in_process(["trust", "--project-dir", str(root)], env=self.env, cwd=self.tmp)
        assert trusted.returncode == 0, trusted.stderr
        return root

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [PY, "-m", "agent_hooks", *args],
            capture_output=True,
            text=True,
            env=self.env,
            cwd=self.tmp,
            timeout=60,
            check=False,
        )

    def command(self, project: Path, *extra: str) -> list[str]:
        return [PY, "-m", "agent_hooks", "run", "--discover", "--fail-closed", *extra]

    def payload(self, project: Path, command: str) -> bytes:
        return json.dumps(
            {
                "hook_event_name": "PreToolUse",
                "session_id": f"s-{command}",  # (calls of one session go one by one)
                "cwd": str(project),
                "tool_name": "Bash",
                "tool_input": {"command": command},
            }
        ).encode()

    def call_env(self, project: Path, **extra: str) -> dict[str, str]:
        return {**self.env, "CLAUDE_PROJECT_DIR": str(project), **extra}

    def run(
        self, project: Path, command: str = "rm -rf /", *extra: str, **env: str
    ) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            self.command(project, *extra),
            input=self.payload(project, command),
            capture_output=True,
            env=self.call_env(project, **env),
            cwd=project,
            timeout=60,
            check=False,
        )

    def start(self, project: Path, command: str) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            self.command(project),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.call_env(project),
            cwd=project,
        )
        self.started.append(proc)
        assert proc.stdin is not None
        proc.stdin.write(self.payload(project, command))
        proc.stdin.close()
        return proc

    @property
    def key(self) -> str:
        return server_key(VERSION)

    @property
    def directory(self) -> str:
        found = private_dir(self.env)
        assert found is not None
        return found

    @property
    def log(self) -> Path:
        return Path(log_path(self.env, self.key))

    def status(self) -> dict[str, Any] | None:
        return server_status(self.env)

    def wait_for(self, condition: Any, what: str) -> None:
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.02)  # (other processes are working)
        raise AssertionError(f"timed out waiting for {what}")

    def logged(self, text: str) -> bool:
        return self.log.exists() and text in self.log.read_text(errors="replace")

    def close(self) -> None:
        for proc in self.started:
            if proc.poll() is None:
                proc.kill()
            finish(proc)
        stop_servers(private_dir(self.env), home=self.env["HOME"])
        shutil.rmtree(self.runtime, ignore_errors=True)


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    found = Lab(tmp_path)
    try:
        yield found
    finally:
        found.close()


def finish(proc: subprocess.Popen[bytes]) -> tuple[bytes, bytes]:
    """What a started client printed, once it exited (its streams closed)."""
    assert proc.stdout is not None and proc.stderr is not None
    if proc.stdout.closed:
        return b"", b""
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.wait(timeout=60)
    proc.stdout.close()
    proc.stderr.close()
    return out, err


def answer(proc: subprocess.CompletedProcess[bytes]) -> Any:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def decision(proc: subprocess.CompletedProcess[bytes]) -> Any:
    return answer(proc).get("hookSpecificOutput", {}).get("permissionDecision")


def context(proc: subprocess.CompletedProcess[bytes]) -> Any:
    return answer(proc).get("hookSpecificOutput", {}).get("additionalContext")


def runs(project: Path) -> list[str]:
    path = project / ".claude" / "runs"
    return path.read_text().splitlines() if path.exists() else []


def test_two_projects_guard_check_answer_their_own(lab: Lab) -> None:
    a = lab.project("a", ALLOW)
    b = lab.project("b", DENY)
    assert answer(lab.run(a)) == {}
    assert decision(lab.run(b)) == "deny"
    assert answer(lab.run(a)) == {}
    assert decision(lab.run(b, "rm -rf ~")) == "deny"
    assert decision(lab.run(b, "ls")) is None
    status = lab.status()
    assert status is not None and status["requests"] == 5  # (all answered by the server)


def test_an_edited_handler_and_its_helper_answer_at_the_next_call(lab: Lab) -> None:
    project = lab.project("p", WORDY, helpers='WORD = "one"\n')
    assert context(lab.run(project)) == "guard:one"
    (project / ".claude" / "helpers.py").write_text('WORD = "second"\n')
    assert context(lab.run(project)) == "guard:second"
    guard = project / ".claude" / "guard.py"
    guard.write_text(WORDY.replace('PREFIX = "guard:"', 'PREFIX = "edited guard:"'))
    resident = lab.run(project)
    assert context(resident) == "edited guard:second"
    in_process = lab.run(project, "rm -rf /", "--no-daemon")
    assert (resident.returncode, resident.stdout, resident.stderr) == (
        in_process.returncode,
        in_process.stdout,
        in_process.stderr,
    )
    status = lab.status()
    assert status is not None and status["requests"] == 3


def test_a_client_killed_mid_request_leaves_the_server_and_other_calls_alone(lab: Lab) -> None:
    project = lab.project("p", SLOW)
    (project / ".claude" / "release").write_text("")
    assert context(lab.run(project, "warm")) == "done:warm"
    (project / ".claude" / "release").unlink()
    killed = lab.start(project, "killed")
    other = lab.start(project, "other")
    lab.wait_for(lambda: len(runs(project)) == 3, "both calls to reach the hook")
    killed.kill()
    killed.wait()
    lab.wait_for(lambda: lab.logged("a client left before its answer"), "the server to notice")
    (project / ".claude" / "release").write_text("")
    out, err = finish(other)
    assert other.returncode == 0, err
    assert json.loads(out)["hookSpecificOutput"]["additionalContext"] == "done:other"
    assert b"resident_server" not in err
    status = lab.status()
    assert status is not None and status["requests"] == 3
    assert context(lab.run(project, "after")) == "done:after"
    assert sorted(runs(project)) == ["after", "killed", "other", "warm"]


@pytest.mark.parametrize("how", ["SIGTERM", "daemon stop"])
def test_a_stop_with_calls_in_flight_answers_each_once(lab: Lab, how: str) -> None:
    project = lab.project("p", SLOW)
    (project / ".claude" / "release").write_text("")
    assert context(lab.run(project, "warm")) == "done:warm"
    (project / ".claude" / "release").unlink()
    status = lab.status()
    assert status is not None
    calls = [lab.start(project, f"call-{i}") for i in range(8)]
    lab.wait_for(lambda: len(runs(project)) == 9, "every call to reach the hook")
    if how == "SIGTERM":
        os.kill(int(status["pid"]), signal.SIGTERM)
        lab.wait_for(lambda: lab.logged("signal SIGTERM; stopping"), "the server to stop")
    else:
        stopped = lab.cli("daemon", "stop")
        assert stopped.returncode == 0, stopped.stderr
        lab.wait_for(lambda: lab.logged("stop requested"), "the server to stop")
    (project / ".claude" / "release").write_text("")
    for i, proc in enumerate(calls):
        out, err = finish(proc)
        assert proc.returncode == 0, err
        assert json.loads(out)["hookSpecificOutput"]["additionalContext"] == f"done:call-{i}"
        assert b"resident_server" not in err
    assert sorted(runs(project)) == sorted(["warm", *(f"call-{i}" for i in range(8))])
    _wait_gone(int(status["pid"]))
    assert not _alive(int(status["pid"]))


def test_callbacks_see_the_calling_clients_environment(lab: Lab) -> None:
    project = lab.project("p", SECRET)
    assert context(lab.run(project, SECRET="first")) == "secret=first"
    assert context(lab.run(project, SECRET="second")) == "secret=second"
    assert context(lab.run(project)) == "secret=none"
    other = lab.project("q", SECRET)
    assert context(lab.run(other)) == "secret=none"
    status = lab.status()
    assert status is not None and status["requests"] == 4


def test_a_directory_at_the_socket_path_is_reported(lab: Lab) -> None:
    socket_path = server_paths(lab.directory, lab.key)[0]
    os.mkdir(socket_path)
    proc = lab.cli("daemon", "serve", "--key", lab.key)
    assert proc.returncode != 0
    assert f"cannot listen on {socket_path}: a directory is there" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert os.path.isdir(socket_path)
