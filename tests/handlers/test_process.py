"""Tests of the low-level process runner (agent_hooks._handlers._process).

Every async test runs three times: on asyncio (with the asyncio-native runner
it picks there), on asyncio with the portable anyio runner forced (the one used
where the native runner cannot be), and on trio (portable runner).  No assertion
counts on the machine's pace: a run cut off at its deadline shows by its signal and by
returning long before the child could have ended on its own.
Nothing sleeps to wait for concurrency: the tests synchronise on FIFOs and
pidfds.  What only the native runner does is tested in test_process_asyncio.py.
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import signal
import stat
import sys
from collections.abc import Mapping
from pathlib import Path

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_hooks._handlers import _limits, _process, _process_asyncio, _process_contract
from agent_hooks._handlers._limits import ALWAYS_PASSED_ENV
from agent_hooks._handlers._process import (
    DEFAULT_SECRET_PATTERNS,
    ProcessResult,
    ProcessSpec,
    default_process_limit,
    fast_path_argv,
    run_process,
    scrub_env,
    shell_argv,
)
from agent_hooks._handlers._process_portable import run_portable
from tests.process_helpers import fd_count, is_gone, read_fifo_line, wait_gone

pytestmark = pytest.mark.anyio

PY = sys.executable
PAYLOAD_10MB = bytes(range(256)) * (10 * 1024 * 1024 // 256)


@pytest.fixture(params=["asyncio", "asyncio-portable", "trio"])
def anyio_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "asyncio-portable":
        monkeypatch.setattr(_process, "select_runner", lambda: run_portable)
        return "asyncio"
    return str(request.param)


def base_env() -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}


def spec(
    *argv: str,
    stdin: bytes = b"",
    timeout: float = 10.0,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    **kwargs: float,
) -> ProcessSpec:
    return ProcessSpec(
        argv=argv,
        env=base_env() if env is None else env,
        cwd=cwd,
        stdin=stdin,
        timeout=timeout,
        **kwargs,  # type: ignore[arg-type]
    )


def sh(script: str, **kwargs: object) -> ProcessSpec:
    return spec(*shell_argv(script), **kwargs)  # type: ignore[arg-type]


def kill_quietly(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def assert_clean_exit(result: ProcessResult) -> None:
    assert result.launch_error is None
    assert not result.timed_out
    assert result.returncode == 0, result
    assert result.signal is None


# --------------------------------------------------------------------------- #
# Runner choice
# --------------------------------------------------------------------------- #


async def test_each_variant_uses_the_runner_it_names(request: pytest.FixtureRequest) -> None:
    expected = {
        "asyncio": _process_asyncio.run_native,
        "asyncio-portable": run_portable,
        "trio": run_portable,
    }[request.node.callspec.params["anyio_backend"]]
    assert _process.select_runner() is expected


# --------------------------------------------------------------------------- #
# stdin / stdout plumbing
# --------------------------------------------------------------------------- #


async def test_cat_echoes_payload() -> None:
    result = await run_process(spec("cat", stdin=PAYLOAD_10MB, stdout_cap=20_000_000))
    assert_clean_exit(result)
    assert result.stdout == PAYLOAD_10MB
    assert not result.stdout_truncated
    assert result.stderr == b""
    assert result.duration > 0


async def test_empty_stdin_is_eof() -> None:
    result = await run_process(spec("cat"))
    assert_clean_exit(result)
    assert result.stdout == b""


async def test_child_never_reading_stdin_large_payload() -> None:
    result = await run_process(sh("echo ok", stdin=PAYLOAD_10MB))
    assert_clean_exit(result)
    assert result.stdout == b"ok\n"


async def test_child_reading_part_of_large_payload() -> None:
    result = await run_process(spec("head", "-c", "1000", stdin=PAYLOAD_10MB))
    assert_clean_exit(result)
    assert result.stdout == PAYLOAD_10MB[:1000]


async def test_child_not_reading_stdin_then_timeout() -> None:
    # stdin pipe full, child sleeping: the writer must not keep us past the deadline
    result = await run_process(spec("sleep", "100", stdin=PAYLOAD_10MB, timeout=0.5))
    assert result.timed_out
    assert result.signal == signal.SIGKILL
    assert 0.5 <= result.duration < 100  # killed at the deadline, not waited for


async def test_invalid_utf8_bytes_returned_as_is() -> None:
    result = await run_process(sh(r"printf '\377\376\200ok'; printf '\300\377' >&2"))
    assert_clean_exit(result)
    assert result.stdout == b"\xff\xfe\x80ok"
    assert result.stderr == b"\xc0\xff"


async def test_binary_roundtrip() -> None:
    data = bytes(range(256)) * 4
    result = await run_process(spec("cat", stdin=data))
    assert result.stdout == data


async def test_stdout_and_stderr_caps() -> None:
    script = "import sys; sys.stdout.write('a' * 50000); sys.stderr.write('b' * 50000)"
    result = await run_process(spec(PY, "-c", script, stdout_cap=10, stderr_cap=0))
    assert_clean_exit(result)
    assert result.stdout == b"a" * 10
    assert result.stdout_truncated
    assert result.stderr == b""
    assert result.stderr_truncated


async def test_exact_cap_is_not_truncated() -> None:
    result = await run_process(sh("printf 12345", stdout_cap=5))
    assert result.stdout == b"12345"
    assert not result.stdout_truncated


async def test_one_gigabyte_of_output_is_bounded() -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    result = await run_process(
        spec("head", "-c", "1000000000", "/dev/zero", timeout=60, stdout_cap=100_000)
    )
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert_clean_exit(result)  # read to the end, not killed
    assert result.stdout == b"\0" * 100_000
    assert result.stdout_truncated
    assert not result.stderr_truncated
    assert after - before < 64 * 1024  # < 64 MiB growth of the high-water mark


async def test_environment_is_exactly_the_given_one() -> None:
    env = {"PATH": base_env()["PATH"], "HOOK_VAR": "value with spaces"}
    result = await run_process(spec("env", env=env))
    assert_clean_exit(result)
    lines = sorted(result.stdout.decode().splitlines())
    assert lines == sorted(f"{k}={v}" for k, v in env.items())


async def test_cwd(tmp_path: Path) -> None:
    result = await run_process(spec("pwd", cwd=str(tmp_path)))
    assert_clean_exit(result)
    assert result.stdout.decode().strip() == str(await anyio.Path(tmp_path).resolve())


# --------------------------------------------------------------------------- #
# Launch errors, exit statuses, signals
# --------------------------------------------------------------------------- #


async def test_missing_program_is_launch_error() -> None:
    result = await run_process(spec("/nonexistent/definitely-missing-program"))
    assert result.launch_error is not None
    assert "No such file" in result.launch_error
    assert result.returncode is None
    assert result.signal is None
    assert not result.timed_out
    assert result.stdout == b"" and result.stderr == b""


async def test_missing_program_on_path_is_launch_error() -> None:
    result = await run_process(spec("agent-hooks-no-such-program-xyz"))
    assert result.launch_error is not None
    assert result.returncode is None


async def test_nul_byte_in_argv_is_launch_error() -> None:
    result = await run_process(sh("echo a\0b"))
    assert result.launch_error is not None
    assert "null" in result.launch_error
    assert result.returncode is None


async def test_missing_cwd_is_launch_error(tmp_path: Path) -> None:
    result = await run_process(spec("true", cwd=str(tmp_path / "missing")))
    assert result.launch_error is not None
    assert result.returncode is None


async def test_script_without_exec_bit_is_launch_error(tmp_path: Path) -> None:
    script = tmp_path / "hook.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(stat.S_IRUSR | stat.S_IWUSR)
    if os.access(script, os.X_OK):  # pragma: no cover - running as root with odd fs
        pytest.skip("exec permission cannot be withheld here")
    result = await run_process(spec(str(script)))
    assert result.launch_error is not None
    assert "Permission denied" in result.launch_error
    assert result.returncode is None


async def test_missing_script_through_shell_is_exit_127() -> None:
    result = await run_process(sh("/nonexistent/hook.sh"))
    assert result.launch_error is None
    assert result.returncode == 127
    assert result.stderr


async def test_nonzero_exit_status() -> None:
    result = await run_process(sh("echo out; echo err >&2; exit 3"))
    assert result.returncode == 3
    assert result.signal is None
    assert result.stdout == b"out\n"
    assert result.stderr == b"err\n"


async def test_killed_by_signal() -> None:
    result = await run_process(sh("kill -USR1 $$"))
    assert result.returncode == -signal.SIGUSR1
    assert result.signal == signal.SIGUSR1
    assert not result.timed_out


async def test_child_runs_in_new_session_without_tty() -> None:
    script = (
        "import os\n"
        "print(os.getsid(0) == os.getpid(), os.getpgrp() == os.getpid())\n"
        "try:\n"
        "    open('/dev/tty', 'w').write('x')\n"
        "    print('tty ok')\n"
        "except OSError as e:\n"
        "    print('tty failed', e.errno)\n"
    )
    result = await run_process(spec(PY, "-c", script))
    assert_clean_exit(result)
    first, second = result.stdout.decode().splitlines()
    assert first == "True True"
    assert second.startswith("tty failed")


async def test_shell_writing_to_dev_tty_fails_in_child_only() -> None:
    result = await run_process(sh('echo hi > /dev/tty; echo "status=$?"'))
    assert_clean_exit(result)
    assert result.stdout.startswith(b"status=")
    assert result.stdout != b"status=0\n"


# --------------------------------------------------------------------------- #
# Timeouts, kill, drain
# --------------------------------------------------------------------------- #


async def test_never_exits_times_out() -> None:
    result = await run_process(sh("echo before; sleep 100", timeout=0.5))
    assert result.timed_out
    assert result.launch_error is None
    assert result.signal == signal.SIGKILL
    assert result.returncode == -signal.SIGKILL
    assert result.stdout == b"before\n"  # output before the kill is kept
    assert 0.5 <= result.duration < 100  # killed at the deadline, not waited for


async def test_kill_grace_sigterm_is_enough() -> None:
    result = await run_process(spec("sleep", "100", timeout=0.3, kill_grace=30))
    assert result.timed_out
    assert result.signal == signal.SIGTERM
    assert result.duration < 30  # did not wait the whole grace


async def test_ignores_sigterm_still_dies() -> None:
    # SIG_IGN set by trap is inherited by sleep too: only SIGKILL works.
    result = await run_process(sh("trap '' TERM; sleep 100", timeout=0.5, kill_grace=0.3))
    assert result.timed_out
    assert result.signal == signal.SIGKILL
    assert 0.8 <= result.duration < 100  # timeout + grace, then killed: not waited for


async def test_child_writing_during_grace_is_read() -> None:
    script = (
        "import signal, sys, time\n"
        "def bye(*_):\n"
        "    sys.stdout.write('x' * 300000); sys.stdout.flush(); sys.exit(7)\n"
        "signal.signal(signal.SIGTERM, bye)\n"
        "print('ready', flush=True)\n"
        "time.sleep(100)\n"
    )
    result = await run_process(
        spec(PY, "-c", script, timeout=1.0, kill_grace=10, stdout_cap=1_000_000)
    )
    assert result.timed_out
    assert result.returncode == 7  # exited from its handler, pipe never blocked it
    assert result.stdout == b"ready\n" + b"x" * 300000
    assert result.duration < 10  # returned at its exit, not at the end of the grace


async def test_closes_stdout_early_then_runs_until_timeout() -> None:
    result = await run_process(sh("echo early; exec >&- 2>&-; sleep 100", timeout=0.5))
    assert result.timed_out
    assert result.signal == signal.SIGKILL
    assert result.stdout == b"early\n"
    assert 0.5 <= result.duration < 100  # killed at the deadline, not waited for


async def test_background_job_holding_stdout_is_killed_after_drain() -> None:
    result = await run_process(sh("sleep 100 & echo $!", timeout=30, drain_timeout=0.3))
    assert_clean_exit(result)  # not a timeout: the shell itself exited 0
    assert result.duration < 30  # the drain ended the wait for the pipe, not the timeout
    sleep_pid = int(result.stdout)
    await wait_gone(sleep_pid)  # the group was killed


async def test_background_job_not_holding_pipes_is_left_alone() -> None:
    result = await run_process(sh("sleep 100 >/dev/null 2>&1 </dev/null & echo $!"))
    assert_clean_exit(result)
    sleep_pid = int(result.stdout)
    try:
        assert not is_gone(sleep_pid)
    finally:
        kill_quietly(sleep_pid)


DAEMON = (
    "import os, sys, time\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.setsid()\n"  # leaves our process group: killpg cannot reach it
    "    time.sleep(20)\n"
    "    os._exit(0)\n"
    "print(pid, flush=True)\n"
)


async def test_detached_daemon_keeping_stdout_open() -> None:
    result = await run_process(spec(PY, "-c", DAEMON, timeout=30, drain_timeout=0.3))
    daemon_pid = int(result.stdout)
    running = not is_gone(daemon_pid)  # it holds the pipe until it ends
    kill_quietly(daemon_pid)
    assert_clean_exit(result)
    assert running  # the run returned without waiting for the pipe to close


async def test_detached_daemon_and_timeout_bounded_by_drain() -> None:
    script = DAEMON + "time.sleep(100)\n"
    result = await run_process(spec(PY, "-c", script, timeout=1.0, drain_timeout=0.3))
    running = bool(result.stdout) and not is_gone(int(result.stdout))
    if result.stdout:
        kill_quietly(int(result.stdout))
    assert result.timed_out
    assert result.signal == signal.SIGKILL
    assert result.stdout  # the pid printed before the deadline was drained
    assert running  # the drain ended the wait: the daemon holding the pipe still ran


async def test_zero_timeout() -> None:
    # The timeout starts with the program: with none at all it is killed at once.
    result = await run_process(spec("sleep", "100", timeout=0))
    assert result.timed_out
    assert result.signal == signal.SIGKILL
    assert result.launch_error is None
    assert not result.not_started
    assert result.duration < 100  # killed, not waited for


# --------------------------------------------------------------------------- #
# Cancellation and limiter
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("kill_grace", [0.0, 0.2])
async def test_cancellation_kills_process_group(tmp_path: Path, kill_grace: float) -> None:
    fifo = tmp_path / "pids"
    os.mkfifo(fifo)
    limiter = anyio.CapacityLimiter(1)
    run = sh(
        f"trap '' TERM; sleep 100 & echo \"$$ $!\" > '{fifo}'; wait",
        timeout=30,
        kill_grace=kill_grace,
    )
    outcome: list[ProcessResult] = []

    async def runner() -> None:
        outcome.append(await run_process(run, limiter=limiter))

    async with anyio.create_task_group() as tg:
        tg.start_soon(runner)
        with anyio.fail_after(10):
            line = await read_fifo_line(fifo)
        assert limiter.borrowed_tokens == 1  # held while the process runs
        tg.cancel_scope.cancel()

    assert outcome == []  # cancelled, no result
    assert limiter.borrowed_tokens == 0
    shell_pid, sleep_pid = map(int, line.split())
    with pytest.raises(ProcessLookupError):
        os.kill(shell_pid, 0)  # our direct child: killed and reaped
    await wait_gone(sleep_pid)  # grandchild in the group: killed


async def test_cancellation_returns_promptly() -> None:
    start = anyio.current_time()
    with anyio.move_on_after(0.3) as scope:
        await run_process(spec("sleep", "100", timeout=30))
    assert scope.cancelled_caught
    assert anyio.current_time() - start < 30  # the cancellation ended it, not the timeout


async def test_cancelled_caller_spawns_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    with anyio.CancelScope() as scope:
        scope.cancel()
        await run_process(sh(f"touch '{marker}'"))
    assert scope.cancelled_caught
    assert not marker.exists()


async def test_waiting_for_a_slot_does_not_spend_the_timeout() -> None:
    limiter = anyio.CapacityLimiter(1)
    someone_else = object()
    await limiter.acquire_on_behalf_of(someone_else)

    async def release_later() -> None:
        await anyio.sleep(0.5)
        limiter.release_on_behalf_of(someone_else)

    async with anyio.create_task_group() as tg:
        tg.start_soon(release_later)
        # 0.5 s for the slot, then 0.3 s of run: both under the 0.6 s timeout, not their sum.
        result = await run_process(spec("sleep", "0.3", timeout=0.6), limiter=limiter)
    assert_clean_exit(result)
    assert result.waited >= 0.5
    assert result.duration - result.waited >= 0.3
    assert not result.not_started  # (so the slot came before the start deadline)
    assert limiter.borrowed_tokens == 0


async def test_start_deadline_passes_while_waiting_for_a_slot() -> None:
    limiter = anyio.CapacityLimiter(1)
    someone_else = object()
    await limiter.acquire_on_behalf_of(someone_else)
    started: list[bool] = []
    try:
        result = await run_process(
            spec("true", timeout=30, start_deadline=anyio.current_time() + 0.2),
            limiter=limiter,
            on_start=lambda: started.append(True),
        )
    finally:
        limiter.release_on_behalf_of(someone_else)
    assert result.not_started
    assert not result.timed_out
    assert result.returncode is None
    assert result.launch_error is None
    assert 0.2 <= result.waited == result.duration  # gave up: the slot never came free
    assert started == []
    assert limiter.borrowed_tokens == 0


async def test_start_deadline_defaults_to_the_timeout() -> None:
    limiter = anyio.CapacityLimiter(1)
    someone_else = object()
    await limiter.acquire_on_behalf_of(someone_else)
    try:
        result = await run_process(spec("true", timeout=0.2), limiter=limiter)
    finally:
        limiter.release_on_behalf_of(someone_else)
    assert result.not_started  # gave up: the slot never came free
    assert result.duration >= 0.2


async def test_a_free_slot_is_taken_even_past_the_start_deadline() -> None:
    limiter = anyio.CapacityLimiter(1)
    past = anyio.current_time() - 1.0
    assert_clean_exit(await run_process(spec("true", start_deadline=past), limiter=limiter))
    assert_clean_exit(await run_process(spec("true", start_deadline=past)))


async def test_on_start_is_called_once_the_program_started(tmp_path: Path) -> None:
    calls: list[float] = []
    result = await run_process(
        sh(f"touch '{tmp_path}/ran'"), on_start=lambda: calls.append(anyio.current_time())
    )
    assert_clean_exit(result)
    assert len(calls) == 1
    assert (tmp_path / "ran").exists()
    # never for a program that could not be started
    result = await run_process(spec("/nonexistent/x"), on_start=lambda: calls.append(0.0))
    assert result.launch_error is not None and result.launch_errno == 2
    assert len(calls) == 1


async def test_on_start_raising_kills_the_child(tmp_path: Path) -> None:
    fifo = tmp_path / "pid"
    os.mkfifo(fifo)
    limiter = anyio.CapacityLimiter(1)

    def boom() -> None:
        raise RuntimeError("on_start failed")

    async def reader() -> None:
        with anyio.fail_after(10):
            line = await read_fifo_line(fifo)
        if line.strip():  # (killed after opening the FIFO, before writing: no pid)
            pids.append(int(line))

    pids: list[int] = []
    async with anyio.create_task_group() as tg:
        tg.start_soon(reader)
        with pytest.raises(RuntimeError, match="on_start failed"):
            await run_process(
                sh(f"echo $$ > '{fifo}'; exec sleep 100", timeout=30),
                limiter=limiter,
                on_start=boom,
            )
        # the child may not have written its pid before it was killed
        tg.cancel_scope.cancel()
    for pid in pids:
        await wait_gone(pid)
    assert limiter.borrowed_tokens == 0
    assert not _process_contract.LIVE_RUNS


async def test_limiter_released_after_every_outcome() -> None:
    limiter = anyio.CapacityLimiter(1)
    for run in (
        spec("true"),
        spec("/nonexistent/x"),
        spec("sleep", "100", timeout=0.2),
    ):
        await run_process(run, limiter=limiter)
        assert limiter.borrowed_tokens == 0


async def test_many_concurrent_runs_with_limiter() -> None:
    limiter = anyio.CapacityLimiter(8)
    results: dict[int, ProcessResult] = {}

    async def one(i: int) -> None:
        results[i] = await run_process(spec("cat", stdin=b"%d" % i), limiter=limiter)

    before = fd_count()
    async with anyio.create_task_group() as tg:
        for i in range(200):
            tg.start_soon(one, i)
    assert len(results) == 200
    for i, result in results.items():
        assert_clean_exit(result)
        assert result.stdout == b"%d" % i
    assert limiter.borrowed_tokens == 0
    assert fd_count() == before


async def test_no_fd_leak(tmp_path: Path) -> None:
    await run_process(spec("true"))  # warm up backend machinery (threads, watchers)
    before = fd_count()
    daemon_pids: list[int] = []
    try:
        for _ in range(2):
            await run_process(spec("cat", stdin=PAYLOAD_10MB[:200_000]))
            await run_process(spec("sleep", "100", stdin=PAYLOAD_10MB, timeout=0.2))
            await run_process(sh("trap '' TERM; sleep 100", timeout=0.2, kill_grace=0.1))
            await run_process(spec("/nonexistent/x"))
            await run_process(sh("sleep 100 & echo hi", drain_timeout=0.1))
            with anyio.move_on_after(0.2):
                await run_process(spec("sleep", "100", stdin=PAYLOAD_10MB, timeout=30))
            result = await run_process(
                spec(PY, "-c", DAEMON, stdin=PAYLOAD_10MB, drain_timeout=0.1)
            )
            daemon_pids.append(int(result.stdout))
            limiter = anyio.CapacityLimiter(1)
            await limiter.acquire_on_behalf_of(limiter)
            await run_process(spec("true", timeout=0.05), limiter=limiter)
            limiter.release_on_behalf_of(limiter)
        assert fd_count() == before
    finally:
        for pid in daemon_pids:
            kill_quietly(pid)


# --------------------------------------------------------------------------- #
# Pure helpers
# --------------------------------------------------------------------------- #


def test_shell_argv() -> None:
    assert shell_argv("echo hi") == ("sh", "-c", "echo hi")
    assert shell_argv("echo hi", "bash") == ("bash", "-c", "echo hi")
    assert shell_argv("a | b", shell="/bin/zsh") == ("/bin/zsh", "-c", "a | b")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("python3 hook.py", ("python3", "hook.py")),
        (
            "/usr/bin/env python3 /opt/hooks/check.py --strict",
            ("/usr/bin/env", "python3", "/opt/hooks/check.py", "--strict"),
        ),
        ("./hooks/pre-tool.sh", ("./hooks/pre-tool.sh",)),
        ("  node  hook.js  ", ("node", "hook.js")),
        ("node\thook.js", ("node", "hook.js")),
        ("uv run hook.py -v --fast", ("uv", "run", "hook.py", "-v", "--fast")),
        ("hook-a,b@c:d/e.f+g", ("hook-a,b@c:d/e.f+g",)),
        ("", None),
        ("   ", None),
        ("\t", None),
        ("a | b", None),
        ("a && b", None),
        ("a; b", None),
        ("a > out", None),
        ("a < in", None),
        ("(a)", None),
        ("echo $HOME", None),
        ("a `b`", None),
        ("a\\ b", None),
        ('a "b c"', None),
        ("a 'b c'", None),
        ("ls *.py", None),
        ("ls ?.py", None),
        ("ls [ab].py", None),
        ("a # comment", None),
        ("ls ~/x", None),
        ("FOO=1 hook", None),
        ("hook --opt=1", None),
        ("a %1", None),
        ("! a", None),
        ("a {b,c}", None),
        ("a ^ b", None),
        ("a\nb", None),
        ("a\rb", None),
        ("a\x0bb", None),
        ("a\x0cb", None),
        ("a\x00b", None),
        ("a\u00a0b", None),
        ("a\u2003b", None),
        ("a\x1cb", None),
        ("echo hi", None),
        ("cd /tmp", None),
        ("exit 0", None),
        ("test -f x", None),
        ("[ -f x ]", None),
        ("true", None),
        ("false", None),
        ("exec node", None),
        ("eval x", None),
        (". ./env.sh", None),
        ("source env.sh", None),
        (": noop", None),
        ("if x", None),
        ("time node", None),
        ("command node", None),
        ("kill 1", None),
        ("export X", None),
        ("local x", None),
        ("select x", None),
        ("declare x", None),
        ("wait", None),
        ("read x", None),
    ],
)
def test_fast_path_argv(command: str, expected: tuple[str, ...] | None) -> None:
    assert fast_path_argv(command) == expected


def test_fast_path_matches_shell_word_splitting() -> None:
    command = "  printf-args  one\t two   three "
    argv = fast_path_argv(command)
    assert argv == ("printf-args", "one", "two", "three")
    assert argv == tuple(command.split())


def test_scrub_env() -> None:
    environ = {
        "OPENAI_API_KEY": "x",
        "GITHUB_TOKEN": "x",
        "my_secret": "x",
        "DB_PASSWORD": "x",
        "SERVICE_APIKEY": "x",
        "aws_secret_access_key": "x",
        "Monkey": "x",  # a word ending with KEY
        "PATH": "/bin",
        "HOME": "/root",
        "LANG": "C",
        "CLAUDE_PROJECT_DIR": "/p",
        "Keychain": "x",  # KEY starts the word, does not end it
    }
    assert scrub_env(environ) == {
        "PATH": "/bin",
        "HOME": "/root",
        "LANG": "C",
        "CLAUDE_PROJECT_DIR": "/p",
        "Keychain": "x",
    }
    assert environ["GITHUB_TOKEN"] == "x"  # input untouched


WITHHELD = (
    # the spellings of issue 15
    "DB_PASSWD",
    "AWS_CREDENTIALS",
    "GH_PAT",
    "NPM_AUTH",
    "PRIVATE_PEM",
    # words that end with a pattern, plurals, other separators, camelCase
    "PGPASSWORD",
    "GITHUBTOKEN",
    "AZURE_DEVOPS_PAT",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "CLIENT_SECRETS",
    "SSH_PRIVATE_KEY",
    "NODE_AUTH_TOKEN",
    "REDISCLI_AUTH",
    "API_KEY2",
    "my-api.key",
    "apiKeyFile",
    "npm_config__authToken",
    # the old patterns still
    "OPENAI_API_KEY",
    "SERVICE_APIKEY",
    "GITHUB_TOKEN",
)

PASSED = (
    # must always pass
    "PATH",
    "HOME",
    "LANG",
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_ENV_FILE",
    # no word of theirs ends with a pattern
    "PATHEXT",
    "MANPATH",
    "LD_LIBRARY_PATH",
    "PYTHONPATH",
    "XDG_SEAT_PATH",
    "XDG_RUNTIME_DIR",
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "XAUTHORITY",
    "TOKENIZERS_PARALLELISM",
    "KEYBOARD_LAYOUT",
    "DISPATCH_MODE",
    "PATCH_LEVEL",
    "LC_ALL",
    "TERM",
    # named exceptions: a secret word, no secret
    "SSH_AUTH_SOCK",
    "GOPRIVATE",
)


@pytest.mark.parametrize("name", WITHHELD)
def test_scrub_env_withholds_credential_names(name: str) -> None:
    assert scrub_env({name: "x", "HOME": "/root"}) == {"HOME": "/root"}


@pytest.mark.parametrize("name", PASSED)
def test_scrub_env_passes_what_hooks_need(name: str) -> None:
    assert scrub_env({name: "x"}) == {name: "x"}


@pytest.mark.parametrize(
    "value",
    [
        "postgres://app:hunter2@db.internal:5432/prod",
        "redis://:hunter2@cache:6379/0",
        "mysql+pymysql://root:pw@localhost/db?charset=utf8",
        "http://user:pass@proxy:3128",
        "primary=https://u:p@a.example, replica=https://b.example",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\n-----END OPENSSH PRIVATE KEY-----",
        "-----BEGIN PRIVATE KEY-----\nMIIE",
    ],
)
def test_scrub_env_withholds_credentials_in_values(value: str) -> None:
    assert scrub_env({"DATABASE_URL": value, "HOME": "/root"}) == {"HOME": "/root"}


@pytest.mark.parametrize(
    "value",
    [
        "postgres://db.internal:5432/prod",
        "ssh://git@github.com/org/repo.git",  # a user, no password
        "https://example.com:8443/path?q=a@b:c",  # '@' past the host part
        "https://example.com/@user:tag",
        "user:pass@host",  # not a URL
        "-----BEGIN CERTIFICATE-----\nMIIB",
    ],
)
def test_scrub_env_passes_values_without_credentials(value: str) -> None:
    assert scrub_env({"DATABASE_URL": value}) == {"DATABASE_URL": value}


def test_scrub_env_always_passes_what_hooks_need_whatever_the_patterns() -> None:
    environ = {
        name: "x" for name in ("PATH", "HOME", "LANG", "CLAUDE_PROJECT_DIR", "CLAUDE_ENV_FILE")
    }
    assert scrub_env(environ, ["PATH", "HOME", "LANG", "DIR", "FILE", "CLAUDE"]) == environ


def test_scrub_env_custom_patterns() -> None:
    environ = {"HOME": "/root", "INTERNAL_CRED": "x", "GITHUB_TOKEN": "x"}
    assert scrub_env(environ, ["cred"]) == {"HOME": "/root", "GITHUB_TOKEN": "x"}
    assert scrub_env(environ, []) == environ
    assert scrub_env(environ, [""]) == environ
    # a pattern that is not only letters is a substring of the name
    assert scrub_env({"MY_K8S_CONFIG": "x", "K8S": "x", "HOME": "/"}, ["k8s_"]) == {
        "K8S": "x",
        "HOME": "/",
    }
    # values are inspected whatever the patterns
    assert scrub_env({"URL": "https://u:p@h/"}, []) == {}


def _withheld_by_the_rule(name: str, patterns: list[str]) -> bool:
    """The name rule of ``scrub_env`` as its docstring states it, read literally."""
    upper = name.upper()
    if upper in ALWAYS_PASSED_ENV or upper.startswith(("LC_", "XDG_")):
        return False
    words: list[str] = []
    word = ""
    for i, ch in enumerate(name):
        if not (ch.isascii() and ch.isalpha()):
            word and words.append(word)
            word = ""
            continue
        if word and name[i - 1].islower() and ch.isupper():
            words.append(word)
            word = ""
        word += ch
    word and words.append(word)
    for pattern in (p.upper() for p in patterns if p):
        if not (pattern.isascii() and pattern.isalpha()):
            if pattern in upper:
                return True
        elif any(w.upper().endswith((pattern, pattern + "S")) for w in words):
            return True
    return False


_NAME_PIECES = ["KEY", "Keys", "key", "token", "TOKENS", "Pat", "pats", "s", "S", "API", "api"]
_NAME_PIECES += ["x", "Hub", "PATH", "é", "_", "-", ".", "1", "LC_", "XDG_", "HOME"]


@settings(max_examples=400, deadline=None)
@given(
    name=st.lists(st.sampled_from(_NAME_PIECES), min_size=1, max_size=5).map("".join),
    patterns=st.lists(
        st.sampled_from(["KEY", "token", "PAT", "s", "API_KEY", "K8S", "éa", "hub", ""]),
        max_size=4,
    ),
)
def test_scrub_env_names_follow_the_documented_rule(name: str, patterns: list[str]) -> None:
    kept = scrub_env({name: "x", "HOME": "/"}, patterns)
    assert (name not in kept) is _withheld_by_the_rule(name, patterns)


def test_default_secret_patterns() -> None:
    assert DEFAULT_SECRET_PATTERNS == (
        "KEY",
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "APIKEY",
        "CREDENTIAL",
        "PAT",
        "AUTH",
        "PEM",
        "PRIVATE",
        "PASS",
        "PWD",
        "PASSPHRASE",
        "PASSFILE",
        "JWT",
        "COOKIE",
        "NETRC",
        "DSN",
        "WEBHOOK",
        "KUBECONFIG",
        "CONNECTION_STRING",
    )
    assert DEFAULT_SECRET_PATTERNS is _limits.DEFAULT_SECRET_PATTERNS  # one constant


def test_default_process_limit() -> None:
    limit = default_process_limit()
    assert isinstance(limit, int)
    assert 16 <= limit <= 64  # (the test machine's descriptor limit is at least 256)


@pytest.mark.parametrize(
    ("soft", "expected"),
    [(1024, 64), (256, 16), (64, 4), (16, 1), (8, 1), (resource.RLIM_INFINITY, None)],
)
def test_descriptor_process_limit(
    monkeypatch: pytest.MonkeyPatch, soft: int, expected: int | None
) -> None:
    monkeypatch.setattr(_limits.resource, "getrlimit", lambda _which: (soft, soft))
    assert _limits.descriptor_process_limit() == expected
    if expected is not None:
        assert default_process_limit() <= expected


# --------------------------------------------------------------------------- #
# Launches out of resources (the runs themselves: test_command_fd_limit.py)
# --------------------------------------------------------------------------- #


def _emfile() -> OSError:
    return OSError(errno.EMFILE, os.strerror(errno.EMFILE))


async def test_launch_out_of_descriptors_waits_while_other_runs_are_live() -> None:
    failures = [_emfile(), _emfile(), _emfile()]

    async def attempt() -> str:
        if failures:
            raise failures.pop()
        return "started"

    token = object()
    _process_contract.LIVE_RUNS.add(token)
    try:
        result, began = await _process_contract.launch_with_retries(
            attempt, anyio.current_time() + 10
        )
    finally:
        _process_contract.LIVE_RUNS.discard(token)
    assert result == "started"
    assert began <= anyio.current_time()


async def test_launch_out_of_descriptors_fails_at_once_when_nothing_else_runs() -> None:
    calls: list[int] = []

    async def attempt() -> str:
        calls.append(1)
        raise _emfile()

    assert not _process_contract.LIVE_RUNS
    start = anyio.current_time()
    result, _ = await _process_contract.launch_with_retries(attempt, start + 10)
    assert isinstance(result, OSError) and result.errno == errno.EMFILE
    assert calls == [1]
    assert anyio.current_time() - start < 10  # not retried until the deadline


async def test_launch_out_of_descriptors_gives_up_at_the_deadline() -> None:
    async def attempt() -> str:
        raise _emfile()

    token = object()
    _process_contract.LIVE_RUNS.add(token)
    try:
        start = anyio.current_time()
        result, _ = await _process_contract.launch_with_retries(attempt, start + 0.3)
    finally:
        _process_contract.LIVE_RUNS.discard(token)
    assert isinstance(result, OSError)  # gave up: the descriptors never came back
    assert anyio.current_time() - start >= 0.3


async def test_other_launch_errors_are_not_retried() -> None:
    calls: list[int] = []

    async def attempt() -> str:
        calls.append(1)
        raise FileNotFoundError(errno.ENOENT, "no such file")

    token = object()
    _process_contract.LIVE_RUNS.add(token)
    try:
        result, _ = await _process_contract.launch_with_retries(attempt, anyio.current_time() + 10)
    finally:
        _process_contract.LIVE_RUNS.discard(token)
    assert isinstance(result, FileNotFoundError)
    assert calls == [1]


async def test_live_runs_are_forgotten_after_every_outcome(tmp_path: Path) -> None:
    for run in (
        spec("true"),
        spec("/nonexistent/x"),
        spec("sleep", "100", timeout=0.2),
        sh("sleep 100 & echo hi", drain_timeout=0.1),
    ):
        await run_process(run)
        assert not _process_contract.LIVE_RUNS
    with anyio.move_on_after(0.2):
        await run_process(spec("sleep", "100", timeout=30))
    assert not _process_contract.LIVE_RUNS


def test_spec_validation() -> None:
    with pytest.raises(ValueError, match="argv"):
        spec()
    with pytest.raises(ValueError, match="timeout"):
        spec("true", timeout=-1)
    with pytest.raises(ValueError, match="timeout"):
        spec("true", timeout=float("nan"))
    with pytest.raises(ValueError, match="stdout_cap"):
        spec("true", stdout_cap=-1)
    defaults = spec("true")
    assert defaults.kill_grace == 0.0
    assert defaults.stdout_cap == defaults.stderr_cap == 100_000
    assert defaults.drain_timeout == 2.0


async def test_fast_path_argv_runs_like_the_shell(tmp_path: Path) -> None:
    script = tmp_path / "show-args"
    script.write_text('#!/bin/sh\nfor a in "$0" "$@"; do printf "[%s]" "$a"; done\n')
    script.chmod(0o755)
    command = f"  {script} one\t two   -x --y "
    argv = fast_path_argv(command)
    assert argv is not None
    direct = await run_process(spec(*argv))
    shelled = await run_process(sh(command))
    assert_clean_exit(direct)
    assert direct.stdout == shelled.stdout == f"[{script}][one][two][-x][--y]".encode()
