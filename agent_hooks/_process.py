"""Low-level runner for one external program.

This module knows nothing about hook events or JSON.  :func:`run_process` starts
one program (exec form, no shell unless the caller put one in ``argv``), feeds
it bytes on stdin, collects bounded stdout/stderr and reports what happened as a
:class:`ProcessResult`.  It never raises for anything the child does: a program
that cannot be started, hangs, floods its output, detaches a daemon, ignores
SIGTERM or dies from a signal all end up as fields of the result.  Only the
caller's own cancellation propagates (after the child has been killed and
reaped).

The child always runs in a new session (``start_new_session=True``): it is the
leader of its own process group and has no controlling terminal, so killing the
group reaches every descendant that did not move itself to another group, and
``/dev/tty`` cannot be opened by the child.

The child's stdin is a pipe this module creates and owns (the read end is
given to the child as fd 0, the non-blocking write end is fed by us) rather
than one made by the backend: that way the write end can be closed at any
moment on both backends, even while a descendant holds the read end and never
reads it (an asyncio pipe transport with unsent data would stay open).

Two runners implement this one contract; :func:`run_process` picks one per
call from a cache (about a microsecond):

* on asyncio, where the platform has pidfds (Linux >= 5.3) and the event loop
  watches file descriptors (``add_reader``: the default selector loop,
  uvloop), the native runner of :mod:`agent_hooks._process_asyncio` spawns
  with :class:`subprocess.Popen` and drives every pipe and the exit from event
  loop callbacks (a run costs fewer event loop iterations than
  ``asyncio.create_subprocess_exec`` + ``communicate``, and no watcher thread);
* everywhere else (trio, or an asyncio loop or platform without the above),
  the portable runner of this module: :func:`anyio.open_process` with reader
  tasks in a task group, stdout and stderr being ordinary ``subprocess.PIPE``
  streams.

The choice is made once per event loop class and cached.  Works on the asyncio
and trio backends of anyio (the portable runner needs ``anyio.wait_writable``
and ``anyio.notify_closing``, anyio >= 4.7).  POSIX only (process groups).
"""

from __future__ import annotations

import asyncio
import os
import signal as _signal
import subprocess
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress

import anyio
import anyio.abc
import anyio.lowlevel
import attrs

from ._limits import default_process_limit

try:
    import sniffio
except ImportError:  # pragma: no cover - trio depends on sniffio: without it, only asyncio
    sniffio = None  # type: ignore[assignment]

__all__ = [
    "DEFAULT_SECRET_PATTERNS",
    "ProcessResult",
    "ProcessSpec",
    "default_process_limit",
    "fast_path_argv",
    "run_process",
    "scrub_env",
    "select_runner",
    "shell_argv",
]

#: Substrings (matched case-insensitively) of environment variable names that
#: :func:`scrub_env` drops by default.
DEFAULT_SECRET_PATTERNS: tuple[str, ...] = ("KEY", "TOKEN", "SECRET", "PASSWORD", "APIKEY")

CHUNK = 65536
"""Read size for stdout/stderr and write size for stdin."""

REAP_TIMEOUT = 5.0
"""How long to wait for a SIGKILLed child to be reaped before giving up on it.

SIGKILL cannot be caught, so this only expires for a process stuck in the
kernel (uninterruptible sleep); its ``returncode`` is then reported as ``None``.
"""

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

LAUNCH_ERRORS: tuple[type[Exception], ...] = (OSError, ValueError, subprocess.SubprocessError)
"""Errors of spawning that mean "the program cannot be started" (reported, not raised):
ENOENT, EACCES, a bad ``cwd``, a NUL byte in ``argv`` or ``env``..."""


def _non_negative(name: str) -> Callable[[object, object, float], None]:
    def check(_instance: object, _attribute: object, value: float) -> None:
        if not value >= 0:  # also rejects NaN
            raise ValueError(f"{name} must be >= 0, got {value!r}")

    return check


def _check_argv(_instance: object, _attribute: object, value: tuple[str, ...]) -> None:
    if not isinstance(value, tuple) or not value:
        raise ValueError(f"argv must be a non-empty tuple of str, got {value!r}")
    if not all(isinstance(arg, str) for arg in value):
        raise TypeError(f"argv items must be str, got {value!r}")


@attrs.frozen(kw_only=True)
class ProcessSpec:
    """What to run and under which limits.

    ``argv`` is the exec-form command line: ``argv[0]`` is looked up on the
    ``PATH`` of ``env`` (if it contains no ``/``) and executed directly; no shell
    is involved unless ``argv`` names one (see :func:`shell_argv`).  ``env`` is
    the *complete* environment of the child (nothing is inherited).  ``cwd`` is
    the working directory (``None``: the caller's).  ``stdin`` is written to the
    child, then its stdin is closed.

    ``timeout`` bounds the whole run, including the wait for a limiter slot.
    When it expires the process group is killed: with ``kill_grace > 0`` it first
    gets SIGTERM and ``kill_grace`` seconds to exit, then SIGKILL; otherwise
    SIGKILL right away.  ``drain_timeout`` is how long the pipes are still read
    after the child exited or was killed (descendants may hold them open).
    ``stdout_cap``/``stderr_cap`` bound how many bytes of each stream are kept.

    Construction raises :class:`ValueError` for an empty ``argv`` or a negative
    (or NaN) number.
    """

    argv: tuple[str, ...] = attrs.field(validator=_check_argv)
    env: Mapping[str, str]
    cwd: str | None
    stdin: bytes
    timeout: float = attrs.field(validator=_non_negative("timeout"))
    kill_grace: float = attrs.field(default=0.0, validator=_non_negative("kill_grace"))
    stdout_cap: int = attrs.field(default=100_000, validator=_non_negative("stdout_cap"))
    stderr_cap: int = attrs.field(default=100_000, validator=_non_negative("stderr_cap"))
    drain_timeout: float = attrs.field(default=2.0, validator=_non_negative("drain_timeout"))


@attrs.frozen(kw_only=True)
class ProcessResult:
    """What happened to one run.

    Exactly one of these situations holds:

    * ``launch_error`` is set: the program could not be started (missing
      program, no exec permission, bad ``cwd``...); ``returncode`` is ``None``.
    * ``timed_out`` with ``returncode is None`` and no ``launch_error``: the
      timeout expired before the program was started (waiting for a limiter
      slot), or a killed child could not be reaped.
    * ``timed_out`` with a ``returncode``: the child was still running at the
      deadline and was killed (``signal`` is then usually SIGTERM or SIGKILL,
      unless the child handled SIGTERM and exited on its own).
    * otherwise the child exited on its own: ``returncode >= 0`` for a normal
      exit, or ``returncode == -signal`` when a signal killed it.

    ``stdout``/``stderr`` hold at most the caps of the spec; the ``*_truncated``
    flags say that more was produced (and discarded).  Output is returned as
    raw bytes, undecoded.  ``duration`` is the wall time of the whole call
    (limiter wait included), in seconds.
    """

    returncode: int | None
    signal: int | None
    stdout: bytes
    stderr: bytes
    stdout_truncated: bool
    stderr_truncated: bool
    timed_out: bool
    launch_error: str | None
    duration: float


class Capture:
    """Bounded sink for one output pipe: keeps the first ``cap`` bytes.

    ``feed`` takes every chunk read; what does not fit is dropped and
    ``truncated`` set, so memory stays bounded however much the child writes.
    ``eof`` is set by the reader once the pipe reached end of stream.
    """

    __slots__ = ("cap", "data", "eof", "truncated")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data = bytearray()
        self.truncated = False
        self.eof = False

    def feed(self, chunk: bytes) -> None:
        room = self.cap - len(self.data)
        if len(chunk) <= room:
            self.data += chunk
        else:
            if room > 0:
                self.data += chunk[:room]
            self.truncated = True


class _PumpedCapture(Capture):
    """A :class:`Capture` read by a pump task of the portable runner."""

    __slots__ = ("done",)

    def __init__(self, cap: int) -> None:
        super().__init__(cap)
        self.done = anyio.Event()  # set together with eof


class _State:
    """Mutable bookkeeping of one run of the portable runner."""

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


def killpg(pgid: int, sig: int) -> None:
    """Signal a process group; a group that is already gone is not an error.

    The group id is the child's pid.  While any member of the group lives the
    kernel does not reuse that id, so signalling after the leader was reaped
    only hits our descendants; the one theoretical miss (group empty, pid
    recycled by an unrelated new group leader within the drain window) is
    accepted.
    """
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


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
    reading) would keep the descriptor open past :func:`run_process`.  Owning
    the write end lets us close it whenever we want, on both backends.
    Both ends are created close-on-exec; the child gets the read end as fd 0.
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
        killpg(pgid, _signal.SIGTERM)
        with anyio.move_on_after(kill_grace):
            await process.wait()
            state.exited = True
    killpg(pgid, _signal.SIGKILL)
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


Runner = Callable[[ProcessSpec, anyio.CapacityLimiter | None], Awaitable[ProcessResult]]
"""A function running one :class:`ProcessSpec` (the contract of :func:`run_process`)."""

_asyncio_runners: dict[type[asyncio.AbstractEventLoop], Runner] = {}
"""The runner chosen for each asyncio event loop class (probed on first use)."""


def _on_asyncio() -> bool:
    """Whether the calling task runs on asyncio.

    anyio's own test: sniffio when it is installed (trio, which depends on it,
    sets it, also in guest mode on an asyncio loop), else asyncio is the only
    possibility.
    """
    if sniffio is None:  # pragma: no cover - the dev environment has trio, hence sniffio
        return True
    try:
        return sniffio.current_async_library() == "asyncio"
    except sniffio.AsyncLibraryNotFoundError:  # pragma: no cover - called from a task
        return False


def select_runner() -> Runner:
    """The runner :func:`run_process` uses in the calling task.

    The asyncio-native runner on an asyncio event loop that supports it (probed
    once per event loop class, see :func:`agent_hooks._process_asyncio.supported`),
    else the portable anyio runner.  Costs about a microsecond.
    """
    if _on_asyncio():
        loop_type = type(asyncio.get_running_loop())
        runner = _asyncio_runners.get(loop_type)
        if runner is None:
            from . import _process_asyncio

            runner = (
                _process_asyncio.run_native
                if _process_asyncio.supported(asyncio.get_running_loop())
                else _run_portable
            )
            _asyncio_runners[loop_type] = runner
        return runner
    return _run_portable


async def run_process(
    spec: ProcessSpec, *, limiter: anyio.CapacityLimiter | None = None
) -> ProcessResult:
    """Run ``spec.argv`` to completion and report what happened.

    The child gets ``spec.stdin`` on its stdin (written concurrently with
    reading its outputs, so a child that reads little or nothing of a large
    payload cannot deadlock the run), runs in a new session and process group,
    and its stdout and stderr are read concurrently and kept up to the caps
    (the rest is read and discarded, so memory stays bounded).

    Failure behaviour (nothing here raises):

    * the program cannot be started (``OSError`` such as ENOENT or EACCES, a
      ``ValueError`` such as a NUL byte in ``argv``, or another
      ``subprocess.SubprocessError``): ``launch_error`` holds the error text,
      ``returncode`` is ``None``;
    * ``spec.timeout`` expires (the wait for a ``limiter`` slot counts): if the
      child is running its process group is killed (SIGTERM + ``kill_grace``
      + SIGKILL, or SIGKILL), the child is reaped, the pipes are drained for at
      most ``spec.drain_timeout``; ``timed_out`` is set.  The call returns within
      about ``timeout + kill_grace + drain_timeout``;
    * the child exits but a descendant keeps stdout/stderr open: the pipes are
      read for at most ``spec.drain_timeout`` more seconds, then the process group
      is sent SIGKILL and the pipes are closed (this is not a timeout).  A
      descendant that left the process group (``setsid``) is not killed, only cut
      off.  Descendants that closed their inherited pipes are left alone;
    * the child dies from a signal: ``signal`` is its number.

    ``timed_out`` means "the child was still running at the deadline" (or
    never started because of it).  If the child had already exited and only the
    post-exit drain was cut by the deadline, the result is not a timeout: the
    exit status stands and the lingering descendants are killed.

    Cancellation of the caller kills the group the same way (shielded, bounded),
    reaps the child, closes every pipe, then re-raises.  In every path the pipes
    are closed and the limiter slot released before returning.

    ``limiter``, if given, is held from before the spawn until the child is
    reaped and its pipes are closed.  The caller's cancellation may come from
    an anyio cancel scope or, on asyncio, from ``Task.cancel()`` (``asyncio.timeout``,
    ``wait_for``...).

    The run is done by the runner :func:`select_runner` picks (see the module
    documentation); both keep this contract.
    """
    return await select_runner()(spec, limiter)


async def _run_portable(spec: ProcessSpec, limiter: anyio.CapacityLimiter | None) -> ProcessResult:
    """:func:`run_process` with anyio's process API: works on every anyio backend."""
    start = anyio.current_time()
    state = _State(spec)
    process: anyio.abc.Process | None = None
    launch_error: str | None = None
    timed_out = False
    acquired = False
    stdin: _StdinPipe | None = None
    try:
        with anyio.move_on_after(spec.timeout):
            if limiter is not None:
                await limiter.acquire()
                acquired = True
            await anyio.lowlevel.checkpoint_if_cancelled()  # deadline already past: no spawn
            try:
                stdin = _StdinPipe()
                # Shielded: a spawn cancelled half-way (asyncio connects the
                # pipes after the fork) would leave a child we hold no handle
                # on, hence cannot kill as a group nor reap.  Spawning is
                # short; a deadline or cancellation that arrives meanwhile is
                # seen at the next checkpoint, with the process in hand.
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
            except LAUNCH_ERRORS as exc:
                launch_error = str(exc) or type(exc).__name__
            else:
                assert process is not None  # (a shielded scope swallows nothing)
                await _supervise(process, stdin, spec, state)
        if process is None:
            # Deadline hit while waiting for the limiter (or before spawning).
            timed_out = launch_error is None
        elif not state.exited:
            assert stdin is not None
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
                    killpg(process.pid, _signal.SIGKILL)
                await _close(process)
            if acquired and limiter is not None:
                limiter.release()

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
        duration=anyio.current_time() - start,
    )


# --------------------------------------------------------------------------- #
# Command lines
# --------------------------------------------------------------------------- #


def shell_argv(command: str, shell: str = "sh") -> tuple[str, ...]:
    """Return the argv running ``command`` through ``shell -c``.

    ``shell_argv("echo hi")`` is ``("sh", "-c", "echo hi")``; ``shell`` is used as
    given (``"bash"``, ``"/bin/zsh"``...), looked up on the child's ``PATH``.
    """
    return (shell, "-c", command)


_SHELL_META = frozenset("|&;<>()$`\\\"'*?[]#~=%!{}^")
"""Characters that make a command string need a shell (``^`` is a pipe in the
Bourne shell; ``=`` rejects assignments; ``%`` job specs)."""

# fmt: off
_SHELL_WORDS = frozenset((
    "exit", "cd", "echo", "test", "[", "true", "false", "printf", "export", "set", "unset",
    "source", ".", "eval", "exec", "read", "alias", "unalias", "umask", "wait", "trap", "shift",
    "return", "break", "continue", "if", "then", "else", "elif", "fi", "for", "while", "until",
    "do", "done", "case", "esac", "function", "time", "type", "command", "hash", "kill", "pwd",
    "times", "ulimit", "getopts", "local", "readonly", "let", ":", "in", "select", "coproc",
    "declare", "typeset", "builtin", "enable", "shopt", "disown", "jobs", "fg", "bg", "suspend",
    "logout", "dirs", "pushd", "popd", "caller", "complete", "compgen", "compopt", "history", "fc",
    "bind", "help", "mapfile", "readarray", "[[", "]]", "!", "{", "}",
))
# fmt: on
"""First words that are shell builtins or keywords (POSIX sh plus bash)."""


def fast_path_argv(command: str) -> tuple[str, ...] | None:
    """Return the argv a shell would build for ``command``, or ``None``.

    The fast path lets a caller exec a shell-form hook command directly instead
    of through ``sh -c``.  It only applies to a command that is a plain list of
    words: no shell metacharacter (``| & ; < > ( ) $ ` \\ " ' * ? [ ] # ~ = % ! {
    } ^``), no newline, no whitespace other than spaces and tabs (which only
    separate words), no control or non-printable characters, and a first word
    that is not a shell builtin or keyword.  Anything else, including an empty
    or blank command, gives ``None`` (run it through the shell).

    The result is ``tuple(command.split())``.  Remaining differences with
    ``sh -c`` that the caller should know: a missing program is a
    ``launch_error`` instead of exit status 127; a file without ``#!`` that is
    not a binary fails to exec (ENOEXEC) instead of being run as a shell script;
    shell functions (bash exported ``BASH_FUNC_*``, ``BASH_ENV``) are not seen.
    """
    if not command or not command.strip(" \t"):
        return None
    for char in command:
        if char in _SHELL_META:
            return None
        if char not in " \t" and not char.isprintable():
            # newline, CR, vertical tab, NUL, non-ASCII spaces...: str.split()
            # and sh would not agree on them.
            return None
    words = tuple(command.split())
    if not words or words[0] in _SHELL_WORDS:
        return None
    return words


# --------------------------------------------------------------------------- #
# Environment and limits
# --------------------------------------------------------------------------- #


def scrub_env(
    environ: Mapping[str, str], patterns: Sequence[str] = DEFAULT_SECRET_PATTERNS
) -> dict[str, str]:
    """Return a copy of ``environ`` without the variables that look secret.

    A variable is dropped when its name contains any of ``patterns`` as a
    substring, case-insensitively (``OPENAI_API_KEY``, ``GITHUB_TOKEN``,
    ``my_secret``).  This is deliberately broad (``MONKEY`` goes too).  Values
    are not inspected.  An empty pattern would drop everything and is ignored.
    """
    needles = tuple(p.upper() for p in patterns if p)
    return {
        name: value
        for name, value in environ.items()
        if not any(needle in name.upper() for needle in needles)
    }
