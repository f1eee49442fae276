"""Portable runner behind :func:`agent_hooks._handlers._process.run_process`.

It keeps the whole contract of :func:`~agent_hooks._handlers._process.run_process`
with anyio's public process API only, so it works on every anyio backend (asyncio
with any event loop, trio): :func:`anyio.open_process` spawns the child, stdout and
stderr are ordinary ``subprocess.PIPE`` streams read by pump tasks in a task group,
timeouts and the drain period are cancel scopes.

The child's stdin is a pipe this module creates and owns (the read end is given to
the child as fd 0, the non-blocking write end is fed by us) rather than one made by
the backend: that way the write end can be closed at any moment on both backends,
even while a descendant holds the read end and never reads it (an asyncio pipe
transport with unsent data would stay open).

Spawns are made one at a time per event loop (trio spawns in worker threads, and each
spawn holds eight descriptors for a moment), as the asyncio-native runner makes them
anyway.

Needs ``anyio.wait_writable`` and ``anyio.notify_closing`` (anyio >= 4.7).  POSIX
only (process groups).
"""

from __future__ import annotations

import os
import signal
import subprocess
from contextlib import suppress

import anyio
import anyio.abc
import anyio.lowlevel

from ._process_contract import (
    CHUNK,
    LIVE_RUNS,
    REAP_TIMEOUT,
    Capture,
    OnStart,
    ProcessResult,
    ProcessSpec,
    describe_launch_error,
    killpg,
    launch_with_retries,
    wait_until,
)

__all__ = ["run_portable"]

_STDIN_ERRORS: tuple[type[BaseException], ...] = (
    BrokenPipeError,
    ConnectionResetError,
    anyio.BrokenResourceError,
    anyio.ClosedResourceError,
)
"""Errors of writing to the child's stdin that mean "nobody reads it any more"."""

_READ_ERRORS: tuple[type[BaseException], ...] = (
    anyio.BrokenResourceError,
    anyio.ClosedResourceError,
    OSError,
)
"""Errors of reading the child's stdout/stderr that are treated as end of stream."""


class _PumpedCapture(Capture):
    """A :class:`Capture` read by a pump task."""

    __slots__ = ("done",)

    def __init__(self, cap: int) -> None:
        super().__init__(cap)
        self.done = anyio.Event()  # set together with eof


class _State:
    """Mutable bookkeeping of one run."""

    __slots__ = ("err", "exited", "killed", "out")

    def __init__(self, spec: ProcessSpec) -> None:
        self.out = _PumpedCapture(spec.stdout_cap)
        self.err = _PumpedCapture(spec.stderr_cap)
        self.exited = False  # the direct child has exited and been reaped
        self.killed = False  # _terminate ran to its end (child reaped or given up on)

    @property
    def drained(self) -> bool:
        return self.out.eof and self.err.eof

    async def wait_drained(self) -> None:
        await self.out.done.wait()
        await self.err.done.wait()


async def _pump(stream: anyio.abc.ByteReceiveStream | None, capture: _PumpedCapture) -> None:
    """Read ``stream`` to its end into ``capture`` (discarding past the cap)."""
    if stream is not None:
        while True:
            try:
                chunk = await stream.receive(CHUNK)
            except anyio.EndOfStream:
                break
            except _READ_ERRORS:
                break
            capture.feed(chunk)
    capture.eof = True
    capture.done.set()


class _StdinPipe:
    """The pipe feeding the child's stdin, created and owned by us.

    We do not let the backend create the stdin pipe: on asyncio, a write pipe
    transport with unsent data is only closed once that data is flushed, so a
    descendant that left the process group while holding stdin open (and not
    reading) would keep the descriptor open past the run.  Owning the write end
    lets us close it whenever we want, on both backends.  Both ends are created
    close-on-exec; the child gets the read end as fd 0.
    """

    __slots__ = ("read_fd", "write_fd")

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.write_fd, False)

    def close_read(self) -> None:
        if self.read_fd >= 0:
            fd, self.read_fd = self.read_fd, -1
            os.close(fd)

    def close_write(self) -> None:
        if self.write_fd >= 0:
            fd, self.write_fd = self.write_fd, -1
            anyio.notify_closing(fd)
            os.close(fd)

    def close(self) -> None:
        self.close_read()
        self.close_write()


def _feed_now(pipe: _StdinPipe, data: bytes) -> int:
    """Write what fits of ``data`` into the child's stdin without waiting.

    Returns how many bytes were written; once everything is written (a payload
    that fits in the pipe buffer, the common case) or the child does not read
    its stdin any more, the write end is closed and ``len(data)`` is returned, so
    no writer task is needed.
    """
    try:
        written = os.write(pipe.write_fd, data) if data else 0
    except BlockingIOError:
        return 0
    except _STDIN_ERRORS:
        written = len(data)
    if written >= len(data):
        pipe.close_write()
        return len(data)
    return written


async def _feed(pipe: _StdinPipe, data: bytes, pos: int = 0) -> None:
    """Write ``data[pos:]`` to the child's stdin, then close it.

    Writes are non-blocking and interleaved with checkpoints, so this runs
    concurrently with the output pumps.  A child that does not read its stdin
    (closed it, exited) is normal: the broken-pipe errors are swallowed.
    """
    view = memoryview(data)
    try:
        while pos < len(view) and pipe.write_fd >= 0:
            try:
                pos += os.write(pipe.write_fd, view[pos : pos + CHUNK])
            except BlockingIOError:
                await anyio.wait_writable(pipe.write_fd)
            else:
                await anyio.lowlevel.checkpoint()
    except _STDIN_ERRORS:
        pass
    finally:
        pipe.close_write()


def _start_pumps(process: anyio.abc.Process, state: _State, tg: anyio.abc.TaskGroup) -> None:
    """Start pumps for the output pipes not yet at end of stream."""
    # Named: anyio otherwise derives a name from the function on every start.
    if not state.out.eof:
        tg.start_soon(_pump, process.stdout, state.out, name="agent_hooks stdout")
    if not state.err.eof:
        tg.start_soon(_pump, process.stderr, state.err, name="agent_hooks stderr")


async def _supervise(
    process: anyio.abc.Process, stdin: _StdinPipe, spec: ProcessSpec, state: _State
) -> None:
    """Feed stdin, pump both outputs and wait for the child to exit.

    Returns once the child exited and both pipes reached end of stream, or
    ``drain_timeout`` seconds after the child exited if a descendant still
    holds a pipe open (the caller then kills the group).
    """
    async with anyio.create_task_group() as tg:
        written = _feed_now(stdin, spec.stdin)
        if written < len(spec.stdin):
            tg.start_soon(_feed, stdin, spec.stdin, written, name="agent_hooks stdin")
        _start_pumps(process, state, tg)
        await process.wait()
        state.exited = True
        if not state.drained:
            with anyio.move_on_after(spec.drain_timeout):
                await state.wait_drained()
        # Whatever is still running (stdin writer blocked on a descendant that
        # does not read, pumps blocked on a descendant holding a pipe) stops now.
        tg.cancel_scope.cancel()


async def _terminate(process: anyio.abc.Process, kill_grace: float, state: _State) -> None:
    """Kill the child's process group and reap the child (bounded).

    With ``kill_grace > 0``: SIGTERM to the group, wait up to ``kill_grace`` for
    the child to exit.  Then SIGKILL to the group in every case (descendants
    that survived SIGTERM), and wait up to :data:`REAP_TIMEOUT` for the reap.
    """
    pgid = process.pid
    if kill_grace > 0 and not state.exited:
        killpg(pgid, signal.SIGTERM)
        with anyio.move_on_after(kill_grace):
            await process.wait()
            state.exited = True
    killpg(pgid, signal.SIGKILL)
    if not state.exited:
        with anyio.move_on_after(REAP_TIMEOUT):
            await process.wait()
            state.exited = True
    state.killed = True


async def _kill_and_drain(
    process: anyio.abc.Process, stdin: _StdinPipe, spec: ProcessSpec, state: _State
) -> None:
    """Timeout path: close stdin, kill and reap, then read what is left.

    The pipes are read during the whole sequence (a child writing while it
    handles SIGTERM must not block on a full pipe), and for at most
    ``drain_timeout`` seconds after the child is gone.
    """
    stdin.close_write()
    async with anyio.create_task_group() as tg:
        _start_pumps(process, state, tg)
        await _terminate(process, spec.kill_grace, state)
        with anyio.move_on_after(spec.drain_timeout):
            await state.wait_drained()
        tg.cancel_scope.cancel()


async def _close(process: anyio.abc.Process) -> None:
    """Close all pipes and release the process object.  Call shielded."""
    if process.returncode is not None:
        # The child is reaped: this closes the streams, returns at once and
        # lets the backend release the transport.
        await process.aclose()
    else:
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with suppress(Exception):
                    await stream.aclose()
    # Let the event loop run the close callbacks of the pipe transports so
    # the file descriptors are really closed when we return.
    await anyio.lowlevel.checkpoint()


_SPAWNING: anyio.lowlevel.RunVar[anyio.Lock] = anyio.lowlevel.RunVar("agent_hooks spawning")
"""One spawn at a time per event loop.  A spawn holds eight descriptors for a moment (its
three pipes, both ends, and the one ``subprocess`` reports exec errors through), and
trio spawns in worker threads, so that without this lock a burst of hooks held eight
per hook being spawned, twice what the running hooks hold.  It also makes a launch
that finds no descriptor left a fact about the runs already started, which
:func:`~agent_hooks._handlers._process_contract.launch_with_retries` waits for."""


def _spawning() -> anyio.Lock:
    lock = _SPAWNING.get(None)
    if lock is None:
        lock = anyio.Lock()
        _SPAWNING.set(lock)
    return lock


async def _open(spec: ProcessSpec, stdin: _StdinPipe) -> anyio.abc.Process:
    """Spawn the child with ``stdin``'s read end as its stdin (closed here afterwards).

    Shielded: a spawn cancelled half-way (asyncio connects the pipes after the fork)
    would leave a child we hold no handle on, hence cannot kill as a group nor reap.
    Spawning is short; a deadline or cancellation that arrives meanwhile is seen at the
    next checkpoint, with the process in hand.
    """
    try:
        with anyio.CancelScope(shield=True):
            process = await anyio.open_process(
                list(spec.argv),
                stdin=stdin.read_fd,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=spec.cwd,
                env=dict(spec.env),
                start_new_session=True,
            )
    finally:
        stdin.close_read()  # the child has its copy
    return process


async def run_portable(
    spec: ProcessSpec, limiter: anyio.CapacityLimiter | None, on_start: OnStart | None = None
) -> ProcessResult:
    """:func:`~agent_hooks._handlers._process.run_process` with anyio's process API."""
    start = anyio.current_time()
    until = wait_until(spec, start)
    started = start
    state = _State(spec)
    process: anyio.abc.Process | None = None
    launch_error: str | None = None
    launch_errno: int | None = None
    timed_out = False
    acquired = False
    stdin: _StdinPipe | None = None
    try:
        if limiter is not None:
            try:
                limiter.acquire_nowait()
                acquired = True
            except anyio.WouldBlock:
                with anyio.CancelScope(deadline=until):
                    await limiter.acquire()
                    acquired = True
        if limiter is None or acquired:
            await anyio.lowlevel.checkpoint_if_cancelled()  # a cancelled caller spawns nothing

            async def attempt() -> tuple[anyio.abc.Process, _StdinPipe]:
                async with _spawning():
                    pipe = _StdinPipe()
                    try:
                        return await _open(spec, pipe), pipe
                    except BaseException:
                        pipe.close()
                        raise

            launched, started = await launch_with_retries(attempt, until)
            if isinstance(launched, Exception):
                launch_error, launch_errno = describe_launch_error(launched)
            else:
                process, stdin = launched
                LIVE_RUNS.add(state)
        if process is not None:
            assert stdin is not None
            if on_start is not None:
                on_start()
            with anyio.move_on_after(spec.timeout):
                await _supervise(process, stdin, spec, state)
            if not state.exited:
                timed_out = True
                await _kill_and_drain(process, stdin, spec, state)
    finally:
        if stdin is not None:
            stdin.close()
        with anyio.CancelScope(shield=True):
            if process is not None:
                if not state.exited and not state.killed:
                    # Only reached when the caller cancelled us (or on an
                    # unexpected error): kill and reap, bounded.
                    with anyio.move_on_after(spec.kill_grace + REAP_TIMEOUT):
                        await _terminate(process, spec.kill_grace, state)
                elif not state.drained:
                    # The child is gone but descendants in its group still hold
                    # a pipe after the drain period (or at the deadline).
                    killpg(process.pid, signal.SIGKILL)
                try:
                    await _close(process)
                finally:
                    LIVE_RUNS.discard(state)
            if acquired and limiter is not None:
                limiter.release()

    end = anyio.current_time()
    returncode = process.returncode if process is not None else None
    return ProcessResult(
        returncode=returncode,
        signal=-returncode if returncode is not None and returncode < 0 else None,
        stdout=bytes(state.out.data),
        stderr=bytes(state.err.data),
        stdout_truncated=state.out.truncated,
        stderr_truncated=state.err.truncated,
        timed_out=timed_out,
        launch_error=launch_error,
        duration=end - start,
        waited=(started if process is not None or launch_error is not None else end) - start,
        not_started=process is None and launch_error is None,
        launch_errno=launch_errno,
    )
