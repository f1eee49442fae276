"""Tests of what only the asyncio-native runner (agent_hooks._handlers._process_asyncio) does.

The contract of ``run_process`` itself is tested on every runner in
test_process.py and, through command hooks, in test_command_*.py (``tests/handlers/``
and ``tests/security/``).  Here: that
the native runner is the one used on asyncio (also through the public API) and
the portable one where the loop or the moment cannot serve it,
that cancellation reaches it both as an anyio cancel scope and as a plain
``Task.cancel()`` (repeated, too) and still kills and reaps before
propagating, the exit polling used when no pidfd can be opened, a child reaped
behind its back, and that a finished run is freed without the garbage
collector.  asyncio only.  Nothing sleeps to wait for concurrency: the tests
synchronise on FIFOs.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import os
import signal
import sys
from pathlib import Path
from typing import Any, NoReturn

import anyio
import anyio.lowlevel
import pytest

from agent_hooks import (
    CommandHook,
    HookMatcher,
    HookRegistry,
    Outcome,
    PreToolUseInput,
)
from agent_hooks._handlers import _process, _process_asyncio
from agent_hooks._handlers._process import ProcessResult, ProcessSpec, run_process
from agent_hooks._handlers._process_portable import run_portable
from tests.process_helpers import fd_count, read_fifo_line

pytestmark = pytest.mark.anyio

PY = sys.executable


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def spec(*argv: str, stdin: bytes = b"", timeout: float = 10.0, **kwargs: Any) -> ProcessSpec:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    return ProcessSpec(argv=argv, env=env, cwd=None, stdin=stdin, timeout=timeout, **kwargs)


def our_children() -> list[int]:
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == me:
                found.append(int(entry))
    return found


def is_reaped(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# Reports its pid and ignores SIGTERM: only the SIGKILL after the grace ends it.
STUBBORN = (
    "import os, signal, sys, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "with open(sys.argv[1], 'w') as fifo:\n"
    "    fifo.write(f'{os.getpid()}\\n')\n"
    "time.sleep(100)\n"
)


# --------------------------------------------------------------------------- #
# The runner in use
# --------------------------------------------------------------------------- #


async def test_native_runner_is_picked_on_asyncio() -> None:
    assert _process_asyncio.supported(asyncio.get_running_loop())
    assert _process.select_runner() is _process_asyncio.run_native


@pytest.mark.parametrize(
    ("error", "runner"),
    [
        # no descriptor for the probe: the kernel has pidfds, the default loop watches
        # descriptors, and the native runner copes with the shortage itself (asyncio's
        # own subprocesses would fail after the fork: Python 3.12+ opens a pidfd per child)
        (errno.EMFILE, "native"),
        (errno.ENFILE, "native"),
        # no pidfds here (old kernel, seccomp): the portable runner
        (errno.ENOSYS, "portable"),
        (errno.EPERM, "portable"),
    ],
)
async def test_a_probe_that_fails_decides_that_run_only(
    monkeypatch: pytest.MonkeyPatch, error: int, runner: str
) -> None:
    # Nothing is cached: a probe failing for a moment only decides the runner of the
    # calls made meanwhile.
    real_pidfd_open = os.pidfd_open

    def no_pidfd(pid: int, flags: int = 0) -> int:
        # Only the probe (a pidfd of this process) fails: asyncio's own child watcher
        # (Python 3.12+) opens pidfds of the children the portable runner starts.
        if pid == os.getpid():
            raise OSError(error, os.strerror(error))
        return real_pidfd_open(pid, flags)

    monkeypatch.setattr(os, "pidfd_open", no_pidfd)
    expected = _process_asyncio.run_native if runner == "native" else run_portable
    assert _process.select_runner() is expected
    result = await run_process(spec("cat", stdin=b"payload"))
    assert (result.returncode, result.stdout) == (0, b"payload")
    monkeypatch.setattr(os, "pidfd_open", real_pidfd_open)
    assert _process.select_runner() is _process_asyncio.run_native


async def test_public_api_runs_hooks_without_asyncio_subprocesses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def forbidden(*_args: object, **_kwargs: object) -> NoReturn:
        raise AssertionError("the asyncio-native runner must not use asyncio subprocesses")

    monkeypatch.setattr(anyio, "open_process", forbidden)
    monkeypatch.setattr(asyncio, "create_subprocess_exec", forbidden)
    monkeypatch.setattr(asyncio.get_running_loop(), "subprocess_exec", forbidden)
    hooks = [
        CommandHook(argv=["cat"]),
        CommandHook(command='echo \'{"systemMessage": "shell"}\''),
        CommandHook(argv=[PY, "-c", 'print(\'{"systemMessage": "exec"}\')']),
        CommandHook(command="sleep 30", timeout=0.3),
    ]
    reg = HookRegistry({"PreToolUse": [HookMatcher(hooks=hooks)]})
    before = fd_count()
    async with reg.session(cwd=str(tmp_path)) as s:
        d = await s.dispatch(PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"}))
    assert [r.outcome for r in d.results] == [Outcome.OK, Outcome.OK, Outcome.OK, Outcome.TIMEOUT]
    messages = [r.output.system_message if r.output else None for r in d.results]
    assert messages == [None, "shell", "exec", None]
    assert fd_count() == before


class _NoReaderLoop(asyncio.SelectorEventLoop):
    """An event loop that cannot watch arbitrary descriptors (like some GUI loops)."""

    def add_reader(self, *_args: object) -> NoReturn:
        raise NotImplementedError


def test_loop_without_add_reader_gets_the_portable_runner() -> None:
    async def main() -> tuple[bool, object, ProcessResult]:
        supported = _process_asyncio.supported(asyncio.get_running_loop())
        runner = _process.select_runner()
        return supported, runner, await run_process(spec("cat", stdin=b"payload"))

    loop = _NoReaderLoop()
    try:
        supported, runner, result = loop.run_until_complete(main())
    finally:
        loop.close()
    assert not supported
    assert runner is run_portable
    assert (result.returncode, result.stdout) == (0, b"payload")


# --------------------------------------------------------------------------- #
# Cancellation
# --------------------------------------------------------------------------- #


async def test_anyio_cancel_scope_kills_and_reaps_before_propagating(tmp_path: Path) -> None:
    fifo = tmp_path / "events"
    os.mkfifo(fifo)
    limiter = anyio.CapacityLimiter(1)
    before = fd_count()
    pid = 0
    with anyio.CancelScope() as scope:
        async with anyio.create_task_group() as tg:

            async def cancel_when_started() -> None:
                nonlocal pid
                pid = int(await read_fifo_line(fifo))
                scope.cancel()

            tg.start_soon(cancel_when_started)
            await run_process(
                spec(PY, "-c", STUBBORN, str(fifo), timeout=30, kill_grace=0.2), limiter=limiter
            )
    assert scope.cancelled_caught
    assert is_reaped(pid)  # killed (SIGTERM ignored: SIGKILL) and reaped before we got here
    assert limiter.borrowed_tokens == 0
    assert fd_count() == before


async def test_deadline_of_an_anyio_scope_interrupts_the_run() -> None:
    before = fd_count()
    start = anyio.current_time()
    with anyio.move_on_after(0.3) as scope:
        await run_process(spec("sleep", "100", timeout=30, stdin=b"x" * 1_000_000))
    assert scope.cancelled_caught
    assert anyio.current_time() - start < 30  # the scope ended it, not the timeout
    assert our_children() == []
    assert fd_count() == before


# Reports its pid, then waits for SIGTERM, reports it, and exits only once told
# to (a line on the FIFO argv[2]): the clean-up is then provably waiting.
TERM_THEN_WAIT = (
    "import os, signal, sys\n"
    "out = open(sys.argv[1], 'w', buffering=1)\n"
    "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})\n"
    "out.write(f'{os.getpid()}\\n')\n"
    "signal.sigwait({signal.SIGTERM})\n"
    "out.write('term\\n')\n"
    "open(sys.argv[2]).readline()\n"
)


async def test_repeated_task_cancel_does_not_cut_the_clean_up(tmp_path: Path) -> None:
    # Plain asyncio cancellation: Task.cancel(), then more of it while the
    # clean-up waits for the child to exit after SIGTERM.  The clean-up still
    # waits for the exit and reaps, then the cancellation propagates.
    events, go = tmp_path / "events", tmp_path / "go"
    os.mkfifo(events)
    os.mkfifo(go)
    before = fd_count()
    run = spec(PY, "-c", TERM_THEN_WAIT, str(events), str(go), timeout=60, kill_grace=60)
    reader = os.open(events, os.O_RDONLY | os.O_NONBLOCK)
    release = os.open(go, os.O_RDWR | os.O_NONBLOCK)  # never blocks, keeps what we write
    try:
        task = asyncio.ensure_future(run_process(run))
        lines: list[bytes] = []
        buffer = b""
        while len(lines) < 2:  # the pid, then the SIGTERM of the clean-up
            await anyio.wait_readable(reader)
            try:
                chunk = os.read(reader, 4096)
            except BlockingIOError:
                continue
            assert chunk, f"the child closed its FIFO early, after {lines}"
            *complete, buffer = (buffer + chunk).split(b"\n")
            if complete and not lines:
                task.cancel()  # once the child runs
            lines += complete
        pid = int(lines[0])
        assert lines[1] == b"term"
        for _ in range(3):
            task.cancel()
            await anyio.lowlevel.checkpoint()  # the task sees each one
        assert not task.done()  # still waiting for the exit, shielded
        os.write(release, b"go\n")
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        for fd in (reader, release):
            anyio.notify_closing(fd)
            os.close(fd)
    assert is_reaped(pid)
    assert our_children() == []
    assert fd_count() == before


async def test_asyncio_wait_for_timeout() -> None:
    # wait_for's timeout is a Task.cancel(): the child is killed and reaped
    # before wait_for raises.
    before = fd_count()
    start = anyio.current_time()
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(run_process(spec("sleep", "100", timeout=30)), timeout=0.3)
    assert anyio.current_time() - start < 30  # wait_for ended it, not the run's timeout
    assert our_children() == []
    assert fd_count() == before


# --------------------------------------------------------------------------- #
# Exit detection
# --------------------------------------------------------------------------- #


async def test_exit_is_polled_when_no_pidfd_can_be_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    # The probe of select_runner() found a pidfd, the run does not get one (the
    # descriptors ran out meanwhile): the native runner polls the exit instead.
    def no_pidfd(_pid: int, _flags: int = 0) -> int:
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(os, "pidfd_open", no_pidfd)
    run_native = _process_asyncio.run_native
    before = fd_count()
    payload = bytes(range(256)) * 4096  # 1 MiB: more than the pipe holds
    result = await run_native(spec("cat", stdin=payload, stdout_cap=2_000_000), None)
    assert (result.returncode, result.stdout) == (0, payload)
    result = await run_native(spec("sh", "-c", "exit 3"), None)
    assert result.returncode == 3
    result = await run_native(spec("sleep", "100", timeout=0.3), None)
    assert result.timed_out and result.signal == signal.SIGKILL
    assert result.duration < 100  # killed at the deadline, not waited for
    assert our_children() == []
    assert fd_count() == before


async def test_child_reaped_elsewhere_reports_status_255(monkeypatch: pytest.MonkeyPatch) -> None:
    # Someone else (a process-wide SIGCHLD handler) reaps every child: the
    # status is lost, the run still ends, like asyncio reports it.
    real_waitpid = os.waitpid

    def stolen(pid: int, options: int) -> tuple[int, int]:
        real_waitpid(pid, 0)
        raise ChildProcessError(errno.ECHILD, "No child processes")

    monkeypatch.setattr(os, "waitpid", stolen)
    result = await run_process(spec("sh", "-c", "echo out; exit 3"))
    assert result.returncode == 255
    assert result.stdout == b"out\n"
    assert not result.timed_out
    assert our_children() == []


# --------------------------------------------------------------------------- #
# Memory
# --------------------------------------------------------------------------- #


async def test_finished_run_is_freed_without_the_garbage_collector() -> None:
    # A reference cycle would keep the run, and the output it captured, alive
    # until the next collection: the peak memory of a large capture would double.
    result: ProcessResult | None = None
    gc.collect()
    gc.disable()
    try:
        result = await run_process(spec("head", "-c", "3000000", "/dev/zero", stdout_cap=5_000_000))
        leftovers = [o for o in gc.get_objects() if isinstance(o, _process_asyncio._Run)]
    finally:
        gc.enable()
    assert result is not None and len(result.stdout) == 3_000_000
    assert leftovers == []
