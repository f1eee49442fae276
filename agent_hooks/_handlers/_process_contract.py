"""What every process runner shares: the run's description, its result, and the pieces
both runners use.

:func:`agent_hooks._handlers._process.run_process` runs a :class:`ProcessSpec` and
returns a :class:`ProcessResult`; it delegates the run to one of two runners (a
:data:`Runner`), the portable one of :mod:`agent_hooks._handlers._process_portable`
and the asyncio-native one of :mod:`agent_hooks._handlers._process_asyncio`.  Both
import this module and nothing else of the package, so neither depends on the other
nor on the module that chooses between them.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Awaitable, Callable, Mapping
from contextlib import suppress
from typing import TypeVar

import anyio
import attrs

__all__ = [
    "CHUNK",
    "LAUNCH_ERRORS",
    "LIVE_RUNS",
    "OUT_OF_RESOURCES",
    "REAP_TIMEOUT",
    "Capture",
    "OnStart",
    "ProcessResult",
    "ProcessSpec",
    "Runner",
    "describe_launch_error",
    "killpg",
    "launch_with_retries",
    "wait_until",
]

CHUNK = 65536
"""Read size for stdout/stderr and write size for stdin."""

T = TypeVar("T")

REAP_TIMEOUT = 5.0
"""How long to wait for a SIGKILLed child to be reaped before giving up on it.

SIGKILL cannot be caught, so this only expires for a process stuck in the
kernel (uninterruptible sleep); its ``returncode`` is then reported as ``None``.
"""

LAUNCH_ERRORS: tuple[type[Exception], ...] = (OSError, ValueError, subprocess.SubprocessError)
"""Errors of spawning that mean "the program cannot be started" (reported, not raised):
ENOENT, EACCES, a bad ``cwd``, a NUL byte in ``argv`` or ``env``..."""

OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.EAGAIN})
"""Launch errors that mean "not now" rather than "never": no file descriptor left in this
process (EMFILE) or in the system (ENFILE), no process left for this user (EAGAIN from
``fork``). The launch is retried (:func:`launch_with_retries`) while other runs hold
some (they free them as they end) and the run may still wait."""

LIVE_RUNS: set[object] = set()
"""Runs of this process (any thread, any event loop) whose program was started and whose
descriptors are not all closed yet: what a launch that ran out of resources waits for.
A runner adds a token of its own once the spawn succeeded and discards it once every
descriptor of the run is closed (``set.add``/``discard`` are atomic)."""

RETRY_FIRST = 0.005
RETRY_MAX = 0.2
"""Delays between launch attempts that ran out of resources: the first, then doubling up
to this."""

OnStart = Callable[[], None]
"""Called once the program was started (after any wait for a limiter slot or for
descriptors), before its timeout begins; see :func:`~agent_hooks._handlers._process.run_process`."""


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
    is involved unless ``argv`` names one (see
    :func:`~agent_hooks._handlers._process.shell_argv`).  ``env`` is the
    *complete* environment of the child (nothing is inherited).  ``cwd`` is the
    working directory (``None``: the caller's).  ``stdin`` is written to the
    child, then its stdin is closed.

    ``timeout`` bounds the run of the program, counted from its start: waiting for a
    limiter slot (or for file descriptors) before it does not count.  When it expires
    the process group is killed: with ``kill_grace > 0`` it first gets SIGTERM and
    ``kill_grace`` seconds to exit, then SIGKILL; otherwise SIGKILL right away.
    ``drain_timeout`` is how long the pipes are still read after the child exited or
    was killed (descendants may hold them open).  ``stdout_cap``/``stderr_cap`` bound
    how many bytes of each stream are kept.

    ``start_deadline`` bounds the wait before the start: an absolute time on the clock
    of :func:`anyio.current_time` past which the program is no longer started (the
    result says ``not_started``) and a launch that keeps running out of descriptors is
    given up (a ``launch_error``).  ``None``: ``timeout`` seconds after the call.  A
    slot that is free at once is taken whatever the deadline says.

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
    start_deadline: float | None = None


def wait_until(spec: ProcessSpec, start: float) -> float:
    """The time past which a run called at ``start`` stops waiting to start its program."""
    return start + spec.timeout if spec.start_deadline is None else spec.start_deadline


@attrs.frozen(kw_only=True)
class ProcessResult:
    """What happened to one run.

    Exactly one of these situations holds:

    * ``not_started``: the start deadline passed while the run waited for a
      limiter slot; nothing was started, ``returncode`` is ``None``, ``timed_out``
      is false.
    * ``launch_error`` is set: the program could not be started (missing
      program, no exec permission, bad ``cwd``, still no descriptor left at the
      start deadline...); ``launch_errno`` is the ``errno`` when there is one;
      ``returncode`` is ``None``.
    * ``timed_out`` with ``returncode is None``: a killed child could not be reaped.
    * ``timed_out`` with a ``returncode``: the child was still running at the
      deadline and was killed (``signal`` is then usually SIGTERM or SIGKILL,
      unless the child handled SIGTERM and exited on its own).
    * otherwise the child exited on its own: ``returncode >= 0`` for a normal
      exit, or ``returncode == -signal`` when a signal killed it.

    ``stdout``/``stderr`` hold at most the caps of the spec; the ``*_truncated``
    flags say that more was produced (and discarded).  Output is returned as
    raw bytes, undecoded.  ``duration`` is the wall time of the whole call, in
    seconds; ``waited`` the part of it spent before the start (for a limiter slot,
    for descriptors), so the program ran ``duration - waited`` seconds, clean-up
    included.
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
    waited: float = 0.0
    not_started: bool = False
    launch_errno: int | None = None


Runner = Callable[
    [ProcessSpec, anyio.CapacityLimiter | None, OnStart | None], Awaitable[ProcessResult]
]
"""A function running one :class:`ProcessSpec` with an optional limiter and start callback:
the contract of :func:`~agent_hooks._handlers._process.run_process`, which every runner
keeps whole."""


def describe_launch_error(exc: BaseException) -> tuple[str, int | None]:
    """The text and ``errno`` a failed launch is reported with."""
    number = exc.errno if isinstance(exc, OSError) else None
    return str(exc) or type(exc).__name__, number


async def launch_with_retries(
    attempt: Callable[[], Awaitable[T]], until: float
) -> tuple[T | Exception, float]:
    """Call ``attempt`` until it starts the program, or its launch fails for good.

    Returns what ``attempt`` returned, or the launch error (one of
    :data:`LAUNCH_ERRORS`) it raised last, and when (:func:`anyio.current_time`) that
    last attempt began: the end of the wait before the start.  A failure for lack of resources
    (:data:`OUT_OF_RESOURCES`: no descriptor, no process left) is retried after a short,
    growing sleep while other runs are live (:data:`LIVE_RUNS`: their end frees what
    they hold) and the clock is before ``until``; any other failure, or one that no
    live run can relieve, is returned at once.  ``attempt`` must leave nothing open
    when it raises.
    """
    delay = RETRY_FIRST
    while True:
        began = anyio.current_time()
        try:
            return await attempt(), began
        except LAUNCH_ERRORS as exc:
            if not (isinstance(exc, OSError) and exc.errno in OUT_OF_RESOURCES):
                return exc, began
            now = anyio.current_time()
            if now >= until or not LIVE_RUNS:
                return exc, began
        await anyio.sleep(min(delay, until - now))
        delay = min(delay * 2, RETRY_MAX)


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
