"""asyncio-native runner behind :func:`agent_hooks._handlers._process.run_process`.

It keeps the whole contract of :func:`~agent_hooks._handlers._process.run_process` (see
there: own session and process group, stdin from a pipe we own, bounded
captures that keep draining, timeout and cancellation killing the group with
SIGTERM + ``kill_grace`` + SIGKILL, reaping, launch errors reported, the
limiter, the post-exit drain period, no descriptor or process left behind); only
the machinery differs, to make one run cost fewer event loop iterations than
``asyncio.create_subprocess_exec`` + ``communicate`` of the same program:

* the child is spawned by :class:`subprocess.Popen` (as asyncio does it) with
  three pipes created here: its stdin, stdout and stderr are plain descriptors,
  our ends are non-blocking;
* the payload is written at once when it fits in the pipe (the common case)
  and the write end closed; a larger one is written from ``add_writer``
  callbacks, and the write end can be closed whenever we decide, even while a
  descendant holds the read end;
* stdout and stderr are read by ``add_reader`` callbacks feeding the bounded
  :class:`~agent_hooks._handlers._process_contract.Capture` objects: no task per pipe;
* the exit is seen through a pidfd (readable once the child exited) and
  reaped with ``waitpid(pid, WNOHANG)`` in the callback: no child watcher, no
  thread.  If no pidfd can be opened for one run (descriptor limit), the exit
  is polled with a timer instead.  A child reaped behind our back (a process
  wide ``SIGCHLD`` handler reaping every child) is reported with
  ``returncode`` 255, as asyncio does;
* the coroutine sleeps on one future, resolved only when what it waits for
  holds (exit and end of both pipes, a deadline timer, the drain period).

Timeouts are loop timers, not cancel scopes.  The caller's cancellation (an
anyio cancel scope, which uses ``Task.cancel()`` on asyncio, or ``Task.cancel()``
itself) interrupts the wait; the child is then killed and reaped in a shielded
clean-up (an anyio shield, and repeated ``Task.cancel()`` are ignored until it
is over, bounded by ``kill_grace`` + the reap timeout) before the cancellation
propagates.

:func:`supported` tells whether a loop can use this runner: it needs
``os.pidfd_open`` (Linux >= 5.3, Python >= 3.9) and a loop whose ``add_reader``
works (the default selector loop, uvloop).  POSIX only.

Public APIs only: :class:`subprocess.Popen` (its ``pid``, and its documented
``returncode`` set once we reaped the child, as asyncio's own subprocess transport
does, so that the ``Popen`` object neither polls a pid that may have been reused nor
warns that the child still runs), ``os.pidfd_open``, ``os.waitpid``, and the loop's
``add_reader``/``add_writer``/``call_at``/``create_future``.  This module imports
:mod:`agent_hooks._handlers._process_contract` only; the choice of runner is made
by :func:`agent_hooks._handlers._process.select_runner`.
"""

from __future__ import annotations

import asyncio
import errno
import os
import signal
import subprocess
from collections.abc import Callable

import anyio
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

__all__ = ["run_native", "supported"]

_POLL_FIRST = 0.001
_POLL_MAX = 0.05
"""Exit polling (only when no pidfd could be opened): first delay, then doubling up to this."""

_UNKNOWN_STATUS = 255
"""Return code of a child someone else reaped (its status is lost); asyncio's convention."""


def _noop() -> None:
    pass


def supported(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether :func:`run_native` works on ``loop`` here (pidfds, ``add_reader``).

    A pidfd of this process is opened, watched by ``loop`` and closed: a few system
    calls, cheap enough to ask before every run.  When no descriptor is left for the
    probe (EMFILE, ENFILE), the platform has pidfds all the same, and asyncio's own
    selector loop watches descriptors: the answer is yes for that loop, since this
    runner copes with the shortage itself (it waits for descriptors before the spawn
    and polls an exit it gets no pidfd for), where asyncio's subprocesses, which the
    portable runner uses, would fail after the fork (Python 3.12+ opens a pidfd per
    child).  Other loops go to the portable runner for that run.
    """
    if not hasattr(os, "pidfd_open"):  # pragma: no cover - Linux test machine
        return False
    try:
        pidfd = os.pidfd_open(os.getpid())
    except OSError as exc:  # (kernel older than 5.3, seccomp...: not supported)
        return exc.errno in (errno.EMFILE, errno.ENFILE) and isinstance(
            loop, asyncio.SelectorEventLoop
        )
    try:
        loop.add_reader(pidfd, _noop)
        loop.remove_reader(pidfd)
    except (NotImplementedError, OSError, ValueError):  # pragma: no cover - odd loops
        return False
    finally:
        os.close(pidfd)
    return True


class _Pipe(Capture):
    """A capture and the non-blocking descriptor (our end) it is read from."""

    __slots__ = ("fd",)

    def __init__(self, cap: int) -> None:
        super().__init__(cap)
        self.fd = -1


class _Run:
    """One child process, driven by event loop callbacks."""

    __slots__ = (
        "drain_timer",
        "err",
        "expired",
        "killed",
        "loop",
        "out",
        "pid",
        "pidfd",
        "poll_delay",
        "poll_timer",
        "popen",
        "ready",
        "returncode",
        "running",
        "shielded",
        "spec",
        "stdin_fd",
        "stdin_pos",
        "waiter",
    )

    def __init__(self, loop: asyncio.AbstractEventLoop, spec: ProcessSpec) -> None:
        self.loop = loop
        self.spec = spec
        self.out = _Pipe(spec.stdout_cap)
        self.err = _Pipe(spec.stderr_cap)
        self.stdin_fd = -1
        self.stdin_pos = 0
        self.popen: subprocess.Popen[bytes] | None = None
        self.pid = 0
        self.pidfd = -1
        self.poll_delay = _POLL_FIRST
        self.poll_timer: asyncio.TimerHandle | None = None
        self.drain_timer: asyncio.TimerHandle | None = None
        self.returncode: int | None = None
        self.killed = False  # terminate() ran to its end (child reaped or given up on)
        self.running = False  # first phase: an exit starts the drain period
        self.shielded = False  # clean-up: Task.cancel() does not interrupt a wait
        self.expired = False  # the timer of the current wait fired
        # Unbound (``_Run.finished``, not ``self.finished``): no reference cycle keeps
        # a finished run, and the output it holds, alive until the garbage collector runs.
        self.ready: Callable[[_Run], bool] = _Run.finished
        self.waiter: asyncio.Future[None] | None = None

    # ----------------------------------------------------------------- state

    def finished(self) -> bool:
        """The child exited and both pipes reached end of stream."""
        return self.returncode is not None and self.out.eof and self.err.eof

    def exited(self) -> bool:
        """The child exited and was reaped."""
        return self.returncode is not None

    def drained(self) -> bool:
        """Both pipes reached end of stream."""
        return self.out.eof and self.err.eof

    # ----------------------------------------------------------------- spawn

    def spawn(self) -> None:
        """Start the child with its three pipes.

        Raises what :class:`subprocess.Popen` or ``os.pipe`` raised when the program
        cannot be started, with every descriptor of this run closed again.
        """
        spec = self.spec
        theirs: list[int] = []
        try:
            stdin_r, self.stdin_fd = os.pipe()
            theirs.append(stdin_r)
            self.out.fd, stdout_w = os.pipe()
            theirs.append(stdout_w)
            self.err.fd, stderr_w = os.pipe()
            theirs.append(stderr_w)
            self.popen = subprocess.Popen(
                spec.argv,
                stdin=stdin_r,
                stdout=stdout_w,
                stderr=stderr_w,
                cwd=spec.cwd,
                env=spec.env,
                start_new_session=True,
            )
        except BaseException:
            self.close_stdin()
            self._close_pipe(self.out)
            self._close_pipe(self.err)
            raise
        finally:
            for fd in theirs:  # the child has its copies
                os.close(fd)
        self.pid = self.popen.pid
        LIVE_RUNS.add(self)
        os.set_blocking(self.stdin_fd, False)
        os.set_blocking(self.out.fd, False)
        os.set_blocking(self.err.fd, False)
        self._feed_now()
        try:
            self.pidfd = os.pidfd_open(self.pid)
        except OSError:  # EMFILE...: poll the exit instead
            self.poll_timer = self.loop.call_later(self.poll_delay, self._poll_exit)
        else:
            self.loop.add_reader(self.pidfd, self._on_exit_ready)
        self.loop.add_reader(self.out.fd, self._on_readable, self.out)
        self.loop.add_reader(self.err.fd, self._on_readable, self.err)
        return None

    # ----------------------------------------------------------------- stdin

    def _feed_now(self) -> None:
        """Write what fits of the payload; the rest goes from writer callbacks."""
        data = self.spec.stdin
        if data:
            try:
                self.stdin_pos = os.write(self.stdin_fd, data)
            except BlockingIOError:
                pass
            except OSError:  # EPIPE: the child exited or closed its stdin already
                self.stdin_pos = len(data)
        if self.stdin_pos >= len(data):
            self.close_stdin()
        else:
            self.loop.add_writer(self.stdin_fd, self._on_writable)

    def _on_writable(self) -> None:
        data = self.spec.stdin
        try:
            self.stdin_pos += os.write(self.stdin_fd, memoryview(data)[self.stdin_pos :])
        except BlockingIOError:
            return
        except OSError:  # EPIPE: nobody reads it any more
            self.stdin_pos = len(data)
        if self.stdin_pos >= len(data):
            self.close_stdin()

    def close_stdin(self) -> None:
        fd = self.stdin_fd
        if fd >= 0:
            self.stdin_fd = -1
            self.loop.remove_writer(fd)
            os.close(fd)

    # ---------------------------------------------------------------- output

    def _on_readable(self, pipe: _Pipe) -> None:
        try:
            chunk = os.read(pipe.fd, CHUNK)
        except BlockingIOError:
            return
        except OSError:  # treated as end of stream
            chunk = b""
        if chunk:
            pipe.feed(chunk)
            return
        pipe.eof = True
        self._close_pipe(pipe)
        self._wake()

    def _close_pipe(self, pipe: _Pipe) -> None:
        fd = pipe.fd
        if fd >= 0:
            pipe.fd = -1
            self.loop.remove_reader(fd)
            os.close(fd)

    # ------------------------------------------------------------------ exit

    def _on_exit_ready(self) -> None:
        self._reap()

    def _poll_exit(self) -> None:
        self.poll_timer = None
        if not self._reap():
            self.poll_delay = min(self.poll_delay * 2, _POLL_MAX)
            self.poll_timer = self.loop.call_later(self.poll_delay, self._poll_exit)

    def _reap(self) -> bool:
        """Reap the child if it exited; return whether it did."""
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            returncode = _UNKNOWN_STATUS
        else:
            if pid == 0:
                return False
            returncode = os.waitstatus_to_exitcode(status)
        self.returncode = returncode
        if self.popen is not None:
            self.popen.returncode = returncode  # reaped: Popen must not poll it again
        self._stop_exit_watch()
        if self.running and not self.drained():
            # Descendants may hold the pipes: read them for the drain period at most.
            self.drain_timer = self.loop.call_later(self.spec.drain_timeout, self._expire)
        self._wake()
        return True

    def _stop_exit_watch(self) -> None:
        fd = self.pidfd
        if fd >= 0:
            self.pidfd = -1
            self.loop.remove_reader(fd)
            os.close(fd)
        if self.poll_timer is not None:
            self.poll_timer.cancel()
            self.poll_timer = None

    # --------------------------------------------------------------- waiting

    def _wake(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done() and (self.expired or self.ready(self)):
            waiter.set_result(None)

    def _expire(self) -> None:
        self.expired = True
        self._wake()

    async def wait(self, ready: Callable[[_Run], bool], until: float) -> None:
        """Wait until ``ready(self)`` holds or the loop clock reaches ``until``.

        A ``drain_timer`` armed meanwhile (first phase) also ends the wait.
        """
        if ready(self) or self.loop.time() >= until:
            return
        self.ready = ready
        self.expired = False
        timer = self.loop.call_at(until, self._expire)
        try:
            while not (self.expired or ready(self)):
                self.waiter = self.loop.create_future()
                try:
                    await self.waiter
                except asyncio.CancelledError:
                    if not self.shielded:
                        raise
        finally:
            self.waiter = None
            timer.cancel()

    # ------------------------------------------------------------ the phases

    async def supervise(self, deadline: float) -> bool:
        """Run to the exit and the end of both pipes; return whether it timed out.

        After the exit the pipes are read for at most ``drain_timeout``
        (descendants may hold them); at the deadline a child still running is
        killed, reaped, and its pipes read for at most ``drain_timeout`` more.
        """
        self.running = True
        await self.wait(_Run.finished, deadline)
        self.running = False
        if self.exited():
            return False
        await self.terminate()
        await self.wait(_Run.drained, self.loop.time() + self.spec.drain_timeout)
        return True

    async def terminate(self) -> None:
        """Close stdin, kill the process group and reap the child (bounded).

        With ``kill_grace > 0``: SIGTERM to the group, up to ``kill_grace`` for
        the child to exit.  Then SIGKILL to the group in every case, and up to
        the reap timeout for the child to be reaped.
        """
        self.close_stdin()
        grace = self.spec.kill_grace
        if grace > 0 and not self.exited():
            killpg(self.pid, signal.SIGTERM)
            await self.wait(_Run.exited, self.loop.time() + grace)
        killpg(self.pid, signal.SIGKILL)
        if not self.exited():
            await self.wait(_Run.exited, self.loop.time() + REAP_TIMEOUT)
        self.killed = True

    async def clean_up(self) -> None:
        """Leave nothing behind: kill what still runs (shielded), close every descriptor."""
        self.close_stdin()
        if self.pid:
            if not self.exited() and not self.killed:
                # The caller cancelled us (or something unexpected was raised).
                self.shielded = True
                with anyio.CancelScope(shield=True):
                    await self.terminate()
            elif not self.drained():
                # The child is gone but descendants in its group still hold a pipe
                # after the drain period (or at the deadline).
                killpg(self.pid, signal.SIGKILL)
        self._close_pipe(self.out)
        self._close_pipe(self.err)
        self._stop_exit_watch()
        if self.drain_timer is not None:
            self.drain_timer.cancel()
        LIVE_RUNS.discard(self)


def _result(
    start: float,
    started: float | None,
    loop: asyncio.AbstractEventLoop,
    run: _Run | None,
    *,
    timed_out: bool = False,
    launch_error: BaseException | None = None,
) -> ProcessResult:
    end = loop.time()
    returncode = run.returncode if run is not None else None
    text, number = describe_launch_error(launch_error) if launch_error is not None else (None, None)
    return ProcessResult(
        returncode=returncode,
        signal=-returncode if returncode is not None and returncode < 0 else None,
        stdout=bytes(run.out.data) if run is not None else b"",
        stderr=bytes(run.err.data) if run is not None else b"",
        stdout_truncated=run.out.truncated if run is not None else False,
        stderr_truncated=run.err.truncated if run is not None else False,
        timed_out=timed_out,
        launch_error=text,
        duration=end - start,
        waited=(end if started is None else started) - start,
        not_started=run is None and launch_error is None,
        launch_errno=number,
    )


async def run_native(
    spec: ProcessSpec, limiter: anyio.CapacityLimiter | None, on_start: OnStart | None = None
) -> ProcessResult:
    """:func:`~agent_hooks._handlers._process.run_process` on asyncio (see the module documentation)."""
    loop = asyncio.get_running_loop()
    start = loop.time()  # (anyio's clock on asyncio)
    until = wait_until(spec, start)
    acquired = False
    if limiter is not None:
        try:
            limiter.acquire_nowait()
            acquired = True
        except anyio.WouldBlock:
            with anyio.CancelScope(deadline=until):
                await limiter.acquire()
                acquired = True
    try:
        if limiter is not None and not acquired:
            return _result(start, None, loop, None)  # never started
        await anyio.lowlevel.checkpoint_if_cancelled()  # a cancelled caller spawns nothing

        async def attempt() -> _Run:
            run = _Run(loop, spec)
            try:
                run.spawn()
            except BaseException:
                await run.clean_up()  # (kills the child if it was started after all)
                raise
            return run

        launched, started = await launch_with_retries(attempt, until)
        if isinstance(launched, Exception):
            return _result(start, started, loop, None, launch_error=launched)
        run = launched
        timed_out = False
        try:
            if on_start is not None:
                on_start()
            timed_out = await run.supervise(loop.time() + spec.timeout)
        finally:
            await run.clean_up()
        return _result(start, started, loop, run, timed_out=timed_out)
    finally:
        if acquired:
            assert limiter is not None
            limiter.release()
