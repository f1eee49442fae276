"""The resident hook server of ``agent-hooks run``, end to end as subprocesses: a first
call starts it and a second is answered by it; edits, trust, cwd and environment behave
as in-process; a server killed mid-request or a stale socket is survived; idle exit;
private modes and the peer check; background output delivered by every bridge.

Every test has its own socket directory (``XDG_RUNTIME_DIR``) and state directory, and
stops every server it started (the lock files name their pids)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from agent_hooks import (
    CallbackHook,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
)
from agent_hooks._base._version import VERSION
from agent_hooks._bridges._daemon._protocol import (
    pack,
    private_dir,
    read_frame,
    server_key,
    server_paths,
)
from agent_hooks._bridges._daemon._server import peer_uid_allowed
from tests.cli_inprocess import cli_in_process
from tests.daemon_helpers import (
    DEADLINE,
    alive,
    ask,
    stop_servers,
    wait_for_server,
    wait_gone,
)
from tests.process_helpers import socket_dir

PY = sys.executable
ROOT = Path(__file__).resolve().parents[2]

GUARD = """#!/bin/sh
payload=$(cat)
case "$payload" in *"rm -rf"*) echo "no rm (mark=$MARK, in $(pwd))" >&2; exit 2;; esac
exit 0
"""


class Box:
    """A project, a hook file and an environment of their own, with a private socket
    directory; :meth:`close` stops every server started in it."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.project = tmp / "project"
        self.project.mkdir()
        self.runtime = self.socket_dir = socket_dir()
        guard = tmp / "guard.sh"
        guard.write_text(GUARD)
        guard.chmod(0o755)
        self.guard = guard
        self.config = tmp / "hooks.json"
        self.write_config(f"{guard}")
        self.env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("CLAUDE_", "AGENT_HOOKS_", "CODEX_", "XDG_"))
        }
        self.env.update(
            HOME=str(tmp / "home"),
            XDG_RUNTIME_DIR=str(self.runtime),
            XDG_STATE_HOME=str(tmp / "state"),
            XDG_CONFIG_HOME=str(tmp / "home" / ".config"),
            AGENT_HOOKS_DAEMON_IDLE="60",
            MARK="client",
        )

    def write_config(self, command: str, **extra: Any) -> None:
        hook = {"type": "command", "command": command, **extra}
        self.config.write_text(
            json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}})
        )

    def payload(self, command: str = "rm -rf /", **fields: Any) -> dict[str, Any]:
        return {
            "hook_event_name": "PreToolUse",
            "session_id": "s-1",
            "cwd": str(self.project),
            "tool_name": "Bash",
            "tool_input": {"command": command},
            **fields,
        }

    def run(
        self,
        *args: str,
        payload: Any = None,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> subprocess.CompletedProcess[str]:
        data = json.dumps(payload if payload is not None else self.payload()).encode()
        proc = subprocess.run(
            [PY, "-m", "agent_hooks", "run", "--config", str(self.config), *args],
            input=data,
            capture_output=True,
            cwd=cwd or self.tmp,
            env=env or self.env,
            timeout=60,
            check=False,
        )
        return subprocess.CompletedProcess(
            proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
        )

    @property
    def directory(self) -> str:
        found = private_dir(self.env)
        assert found is not None
        return found

    @property
    def paths(self) -> tuple[str, str, str]:
        return server_paths(self.directory, server_key(VERSION))

    def ask(self, kind: bytes) -> dict[str, Any] | None:
        found = ask(self.directory, kind)
        return found if isinstance(found, dict) else None

    def wait_for_server(self) -> dict[str, Any]:
        return wait_for_server(self.env)

    def server_pids(self) -> list[int]:
        pids = []
        for lock in Path(self.directory).glob("*.lock"):
            text = lock.read_text().strip()
            if text.isdigit():
                pids.append(int(text))
        return pids

    def close(self) -> None:
        stop_servers(private_dir(self.env), home=self.env["HOME"])
        shutil.rmtree(self.socket_dir, ignore_errors=True)


_alive = alive  # (the names other test modules import)
_wait_gone = wait_gone


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Box]:
    b = Box(tmp_path)
    try:
        yield b
    finally:
        b.close()


def report(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    found = json.loads(proc.stdout)
    assert isinstance(found, dict)
    return found


def test_a_first_call_starts_the_server_and_the_next_is_answered_by_it(box: Box) -> None:
    first = box.run("--report")
    assert first.returncode == 0, first.stderr
    assert report(first)["resident"] is False
    box.wait_for_server()
    second = box.run("--report")
    assert report(second)["resident"] is True
    assert report(second)["decision"] == report(first)["decision"]
    assert report(second)["decision"]["hookSpecificOutput"]["permissionDecision"] == "deny"
    plain = box.run()
    assert plain.returncode == 0
    assert json.loads(plain.stdout) == report(first)["decision"]


def test_answers_are_byte_for_byte_those_of_an_in_process_run(box: Box) -> None:
    box.run()
    box.wait_for_server()
    cases: list[tuple[tuple[str, ...], Any]] = [
        ((), box.payload()),
        ((), box.payload("ls")),
        (("--fail-closed",), box.payload()),
        ((), {"hook_event_name": "NoSuchEventAtAll", "x": 1}),
        ((), [1, 2]),
        (("--bogus-flag",), box.payload()),
        (("--config", str(box.tmp / "missing.json"), "--fail-closed"), box.payload()),
    ]
    for args, payload in cases:
        resident = box.run(*args, payload=payload)
        alone = box.run(*args, "--no-daemon", payload=payload)
        assert (resident.returncode, resident.stdout, resident.stderr) == (
            alone.returncode,
            alone.stdout,
            alone.stderr,
        ), args


def test_an_edited_configuration_changes_the_next_answer(box: Box) -> None:
    box.run()
    box.wait_for_server()
    assert "deny" in box.run().stdout
    box.write_config("true")
    assert json.loads(box.run().stdout) == {}
    box.write_config(str(box.guard))
    assert "deny" in box.run().stdout


def test_an_untrusted_project_file_behaves_as_in_process(box: Box) -> None:
    settings = box.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(box.config.read_text())
    (box.project / ".git").mkdir()

    def both(*args: str) -> tuple[Any, Any]:
        argv = ("--config", str(settings), *args)
        data = json.dumps(box.payload()).encode()
        out = []
        for extra in ((), ("--no-daemon",)):
            proc = subprocess.run(
                [PY, "-m", "agent_hooks", "run", *argv, *extra],
                input=data,
                capture_output=True,
                cwd=box.project,
                env=box.env,
                timeout=60,
                check=False,
            )
            out.append((proc.returncode, proc.stdout, proc.stderr))
        return out[0], out[1]

    both()
    box.wait_for_server()
    resident, alone = both()
    assert resident == alone
    assert resident[0] == 0 and b"deny" not in resident[1]  # untrusted: not run
    resident, alone = both("--fail-closed")
    assert resident == alone and resident[0] == 2
    # (in-process: trusting is set-up here, the store a file the server reads)
    trusted = cli_in_process(
        ["trust", "--project-dir", str(box.project)], env=box.env, cwd=box.project
    )
    assert trusted.returncode == 0, trusted.stderr
    resident, alone = both()
    assert resident == alone and b"deny" in resident[1]
    settings.write_text(settings.read_text() + "\n")  # edited after trust: stops running
    resident, alone = both()
    assert resident == alone and b"deny" not in resident[1]


def test_the_clients_cwd_and_environment_reach_command_hooks(box: Box) -> None:
    box.run()
    box.wait_for_server()
    env = {**box.env, "MARK": "second-client"}
    payload = box.payload()
    del payload["cwd"]
    where = box.tmp / "elsewhere"
    where.mkdir()
    proc = box.run("--report", payload=payload, env=env, cwd=where)
    found = report(proc)
    assert found["resident"] is True
    reason = found["decision"]["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason == f"no rm (mark=second-client, in {where})"


def test_a_server_killed_mid_request_is_survived(box: Box) -> None:
    slow = box.tmp / "slow.sh"
    started = box.tmp / "started"
    slow.write_text(
        f"#!/bin/sh\ncat >/dev/null\nif [ -e {box.tmp}/once ]; then rm {box.tmp}/once; "
        f"touch {started}; sleep 30; fi\necho 'slow guard' >&2; exit 2\n"
    )
    slow.chmod(0o755)
    box.write_config(str(slow))
    box.run()
    status = box.wait_for_server()
    (box.tmp / "once").touch()
    client = subprocess.Popen(
        [PY, "-m", "agent_hooks", "run", "--config", str(box.config)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=box.env,
        cwd=box.tmp,
    )
    assert client.stdin is not None and client.stdout is not None and client.stderr is not None
    client.stdin.write(json.dumps(box.payload()).encode())
    client.stdin.close()
    deadline = time.monotonic() + DEADLINE
    while not started.exists():
        assert time.monotonic() < deadline, "the hook never started"
        time.sleep(0.02)  # (the hook runs in another process)
    os.kill(int(status["pid"]), signal.SIGKILL)
    assert client.wait(timeout=60) == 0
    out, err = client.stdout.read(), client.stderr.read()
    client.stdout.close()
    client.stderr.close()
    assert json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"] == "slow guard"
    assert b"resident_server" in err


def test_a_worker_that_ends_mid_call_is_a_failure_answered_as_run_answers_one(
    box: Box,
) -> None:
    # The hook kills the project's worker (its parent) while the call is under way: its
    # hooks may have run, so the client must not run them again; the call fails, and
    # failing closed for Cline (which reads no exit status) answers Cline's block.
    box.run(env={**box.env, "AGENT_HOOKS_DAEMON_WAIT": "30"}, payload=box.payload("ls"))
    box.wait_for_server()
    box.write_config("kill -9 $PPID")
    cline = {
        "clineVersion": "4.1.13",
        "taskId": "task-1",
        "workspaceRoots": [str(box.project)],
        "hookName": "PreToolUse",
        "preToolUse": {"toolName": "execute_command", "parameters": {"command": "ls"}},
    }
    ended = f"the resident server's worker for {box.project} ended before answering; no answer"
    proc = box.run("--fail-closed", payload=cline)
    assert (proc.returncode, proc.stderr) == (2, f"agent-hooks: {ended}\n")
    reason = f"agent-hooks failed closed: {ended}"
    assert json.loads(proc.stdout) == {"cancel": True, "errorMessage": reason}
    proc = box.run(payload=cline)
    assert (proc.returncode, proc.stdout, proc.stderr) == (1, "", f"agent-hooks: {ended}\n")


def test_a_stale_socket_is_replaced(box: Box) -> None:
    path, _, _ = box.paths
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(path)
    stale.close()  # the file stays; nobody listens
    first = box.run("--report")
    assert report(first)["resident"] is False
    box.wait_for_server()
    assert report(box.run("--report"))["resident"] is True


def test_the_server_exits_when_idle(box: Box) -> None:
    box.env["AGENT_HOOKS_DAEMON_IDLE"] = "0.5"
    box.run()
    pid = int(box.wait_for_server()["pid"])
    _wait_gone(pid, DEADLINE)
    assert not _alive(pid)
    assert not os.path.exists(box.paths[0])


def test_the_directory_and_socket_are_private(box: Box) -> None:
    box.run()
    box.wait_for_server()
    directory = box.directory
    assert directory == str(box.runtime / "agent-hooks")
    assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(box.paths[0]).st_mode) == 0o600
    os.chmod(directory, 0o755)
    try:
        assert private_dir(box.env) != directory  # not private: not used
    finally:
        os.chmod(directory, 0o700)


def test_the_peer_check_admits_only_this_user() -> None:
    assert peer_uid_allowed(os.getuid())
    assert not peer_uid_allowed(os.getuid() + 1)


@pytest.mark.skipif(
    os.getuid() != 0 or not os.path.exists("/usr/bin/python3"),
    reason="needs root (to connect as a second user) and /usr/bin/python3",
)
def test_a_client_of_another_user_is_refused(box: Box) -> None:
    import shutil
    import tempfile

    # (a socket directory another user can reach: pytest's own is private)
    box.runtime = Path(tempfile.mkdtemp(prefix="agent-hooks-test-"))
    box.env["XDG_RUNTIME_DIR"] = str(box.runtime)
    try:
        _refused(box)
    finally:
        box.close()
        shutil.rmtree(box.runtime, ignore_errors=True)


def _refused(box: Box) -> None:
    box.run()
    box.wait_for_server()
    directory, path = box.directory, box.paths[0]
    for opened in (box.runtime, directory):
        os.chmod(opened, 0o755)
    os.chmod(path, 0o666)
    try:
        probe = (  # (the system interpreter: another user may not read this checkout)
            "import socket, struct, sys\n"
            "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
            "s.settimeout(10)\n"
            "s.connect(sys.argv[1])\n"
            "try:\n"
            "    s.sendall(struct.pack('>cII', b'T', 0, 0))\n"
            "    print('answered' if s.recv(100) else 'closed')\n"
            "except (BrokenPipeError, ConnectionResetError):\n"
            "    print('closed')\n"
        )
        proc = subprocess.run(
            ["/usr/bin/python3", "-c", probe, path],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            user=65534,
            env={"PATH": os.environ.get("PATH", "")},
        )
    finally:
        for opened in (box.runtime, directory):
            os.chmod(opened, 0o700)
        os.chmod(path, 0o600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "closed"  # closed without an answer


def test_no_daemon_and_the_environment_switch_keep_run_in_process(box: Box) -> None:
    box.run("--no-daemon")
    box.run(env={**box.env, "AGENT_HOOKS_NO_DAEMON": "1"})
    assert not os.path.exists(box.paths[0])
    assert box.server_pids() == []


def test_concurrent_first_calls_start_one_server(box: Box) -> None:
    data = json.dumps(box.payload()).encode()
    procs = [
        subprocess.Popen(
            [PY, "-m", "agent_hooks", "run", "--config", str(box.config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=box.env,
            cwd=box.tmp,
        )
        for _ in range(6)
    ]
    for p in procs:
        out, _ = p.communicate(data, timeout=60)
        assert b"deny" in out
    box.wait_for_server()
    daemons = subprocess.run(
        # (this box's servers: started on its socket directory; the key is the same for
        # every server of this interpreter and version)
        ["pgrep", "-f", f"{box.directory} [^ ]+ daemon serve --key {server_key(VERSION)}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert len(daemons.stdout.split()) == 1


def test_background_output_reaches_the_next_answer_through_run(box: Box) -> None:
    note = box.tmp / "note.sh"
    note.write_text(
        "#!/bin/sh\ncat >/dev/null\n"
        'echo \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
        '"additionalContext": "tests passed"}}\'\n'
    )
    note.chmod(0o755)
    box.write_config(str(note), **{"async": True})
    cold = box.run(payload=box.payload("ls"))
    assert "undelivered" in cold.stderr and "tests passed" in cold.stderr
    box.wait_for_server()
    deadline = time.monotonic() + DEADLINE
    while True:
        answer = json.loads(box.run(payload=box.payload("ls")).stdout or "{}")
        context = answer.get("hookSpecificOutput", {}).get("additionalContext")
        if context:
            assert "tests passed" in context
            return
        assert time.monotonic() < deadline, "background output never delivered"


def test_every_variable_the_loaders_read_decides_the_worker() -> None:
    package = ROOT / "agent_hooks"
    read: set[str] = set()
    pattern = re.compile(r"""os\.environ(?:\.get)?[\[(]["']([A-Z_][A-Z0-9_]*)["']""")
    for path in [*package.glob("_config/*.py"), package / "_handlers" / "_pyref.py"]:
        read |= set(pattern.findall(path.read_text()))
    tuple_vars = re.compile(r"_USER_DIR_VARS\s*=\s*\(([^)]*)\)")
    for path in package.glob("_config/*.py"):
        for group in tuple_vars.findall(path.read_text()):
            read |= set(re.findall(r'"([A-Z_][A-Z0-9_]*)"', group))
    assert read, "the scan found nothing: the pattern is stale"
    from agent_hooks._config._harness import loading_env

    read |= set(loading_env())  # (the harness rows name the variables their files move with)
    from agent_hooks._bridges._daemon._routing import loading_names

    routed = set(loading_names())  # (what a call's worker is chosen by)
    assert read - {"CLAUDE_PROJECT_DIR"} <= routed, read - routed


# ------------------------------------------------- background output, in-process bridges


def _background_registry() -> HookRegistry:
    async def note(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(additional_context="lint clean", system_message="linted")

    return HookRegistry({"PreToolUse": [HookMatcher(hooks=[CallbackHook(note, background=True)])]})


@pytest.mark.anyio
async def test_background_output_reaches_the_next_answer_through_serve() -> None:
    pytest.importorskip("h11")
    from agent_hooks import HookServer

    server = HookServer(_background_registry(), require_auth=False)
    payload = {
        "hook_event_name": "PreToolUse",
        "session_id": "bg",
        "cwd": "/tmp",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    }
    async with anyio.create_task_group() as tg:
        port = await tg.start(server.run)
        try:
            with anyio.fail_after(DEADLINE):
                while True:
                    answer = await _post(port, payload)
                    specific = answer.get("hookSpecificOutput", {})
                    if specific.get("additionalContext"):
                        # (one line per background call finished since the last answer)
                        assert set(specific["additionalContext"].split("\n")) == {"lint clean"}
                        assert set(answer["systemMessage"].split("\n")) == {"linted"}
                        break
        finally:
            server.shutdown()


async def _post(port: int, payload: dict[str, Any]) -> dict[str, Any]:
    body = json.dumps(payload).encode()
    async with await anyio.connect_tcp("127.0.0.1", port) as stream:
        await stream.send(
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
            + body
        )
        data = b""
        try:
            while True:
                data += await stream.receive()
        except anyio.EndOfStream:
            pass
    found = json.loads(data.split(b"\r\n\r\n", 1)[1])
    assert isinstance(found, dict)
    return found


@pytest.mark.anyio
async def test_background_output_reaches_the_next_answer_through_the_sdk_adapter() -> None:
    pytest.importorskip("claude_agent_sdk")
    from agent_hooks.claude_agent_sdk import sdk_callback

    registry = _background_registry()
    async with registry.session(session_id="sdk") as session:
        callback = sdk_callback(session)
        data = {
            "hook_event_name": "PreToolUse",
            "session_id": "sdk",
            "cwd": "/tmp",
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
        }
        with anyio.fail_after(DEADLINE):
            while True:
                answer = await callback(data, "t1", {"signal": None})
                context = answer.get("hookSpecificOutput", {}).get("additionalContext")
                if context:
                    assert set(context.split("\n")) == {"lint clean"}
                    break


RUN_CONTRACT_SHARDS = 4
UNUSED_PLUGINS = [  # (by test_cli_run.py: loading them costs each shard about a second)
    arg
    for name in ("xdist", "xdist.looponfail", "hypothesispytest", "anyio", "agent_hooks")
    for arg in ("-p", f"no:{name}")
]


@pytest.mark.parametrize("shard", range(RUN_CONTRACT_SHARDS))
def test_the_run_contract_holds_through_the_resident_server(tmp_path: Path, shard: int) -> None:
    """``tests/cli/test_cli_run.py`` again, every call answered by a resident server (each
    test's first call waits for the server it starts, instead of answering itself).
    The file runs in four shards (every fourth test from the shard's number on; see
    ``conftest.py``), so the two workers share its two minutes."""
    runtime = socket_dir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_HOOKS_")}
    env.update(
        AGENT_HOOKS_TEST_DAEMON="1",
        AGENT_HOOKS_TEST_SHARD=f"{shard}/{RUN_CONTRACT_SHARDS}",
        AGENT_HOOKS_DAEMON_WAIT="20",
        AGENT_HOOKS_DAEMON_IDLE="20",
        XDG_RUNTIME_DIR=str(runtime),
    )
    try:
        proc = subprocess.run(
            [
                PY,
                "-m",
                "pytest",
                "-q",
                "-x",
                "-p",
                "no:randomly",
                *UNUSED_PLUGINS,
                "-p",
                "tests.daemon.run_contract_plugin",  # (stops the shard's server at its end)
                "--basetemp",
                str(tmp_path / "sub"),
                str(ROOT / "tests" / "cli" / "test_cli_run.py"),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=900,
            check=False,
        )
    finally:
        stop_servers(runtime / "agent-hooks")
        shutil.rmtree(runtime, ignore_errors=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    # (the calls really went through servers: each logs, in the state directory of the
    # test that started it, how many requests it answered when it stops)
    answered = sum(
        int(n)
        for log in (tmp_path / "sub").rglob("daemon-*.log")
        for n in re.findall(r"stopped after (\d+) request", log.read_text())
    )
    assert answered > 10, answered


def test_relative_paths_are_read_from_the_clients_directory(box: Box) -> None:
    """A guard configured as ``agent-hooks run --config .agent-hooks/hooks.json`` must
    not fail open because the server's own directory is not the caller's."""
    box.run()
    box.wait_for_server()
    data = json.dumps(box.payload()).encode()
    proc = subprocess.run(
        [PY, "-m", "agent_hooks", "run", "--config", "hooks.json", "--report"],
        input=data,
        capture_output=True,
        cwd=box.tmp,
        env=box.env,
        timeout=60,
        check=False,
    )
    found = json.loads(proc.stdout)
    assert found["resident"] is True
    assert found["decision"]["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_server_of_another_version_makes_way(box: Box) -> None:
    box.run()
    pid = int(box.wait_for_server()["pid"])
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    try:
        sock.connect(box.paths[0])
        sock.sendall(pack(b"Q", ["0.0.0-older", str(box.tmp), "1", "run"]))
        kind, fields, _ = read_frame(sock)
    finally:
        sock.close()
    assert (kind, fields) == (b"V", [VERSION])
    _wait_gone(pid)
    assert not _alive(pid)
    assert report(box.run("--report"))["resident"] is False  # answered, and a new one starts
    assert int(box.wait_for_server()["pid"]) != pid
