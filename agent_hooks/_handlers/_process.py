"""Run one external program: :func:`run_process`, and the helpers building its command line
and environment.

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

Two runners keep this one contract (:data:`~agent_hooks._handlers._process_contract.Runner`,
defined with :class:`ProcessSpec` and :class:`ProcessResult` in
:mod:`agent_hooks._handlers._process_contract`); :func:`select_runner` picks one
for every call:

* on asyncio, where the platform has pidfds (Linux >= 5.3) and the event loop
  watches file descriptors (``add_reader``: the default selector loop,
  uvloop), the native runner of :mod:`agent_hooks._handlers._process_asyncio` spawns
  with :class:`subprocess.Popen` and drives every pipe and the exit from event
  loop callbacks (a run costs fewer event loop iterations than
  ``asyncio.create_subprocess_exec`` + ``communicate``, and no watcher thread);
* everywhere else (trio, or an asyncio loop or platform without the above),
  the portable runner of :mod:`agent_hooks._handlers._process_portable`:
  :func:`anyio.open_process` with reader tasks in a task group.

This module imports both runners; they import only the contract module, never
this one.  Works on the asyncio and trio backends of anyio (anyio >= 4.7).  POSIX
only (process groups).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

import anyio

from . import _process_asyncio
from ._limits import default_process_limit
from ._process_contract import ProcessResult, ProcessSpec, Runner
from ._process_portable import run_portable

try:
    import sniffio
except ImportError:  # pragma: no cover - trio depends on sniffio: without it, only asyncio
    sniffio = None  # type: ignore[assignment]

__all__ = [
    "DEFAULT_SECRET_PATTERNS",
    "ProcessResult",
    "ProcessSpec",
    "Runner",
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

    The asyncio-native runner on an asyncio event loop that supports it (see
    :func:`agent_hooks._handlers._process_asyncio.supported`), else the portable
    anyio runner.  Asked on every call, nothing is cached: the probe is a few
    system calls (a pidfd of this process opened, watched by the loop, closed),
    under 2% of the cheapest run, and a failure of the moment (no descriptor left)
    only sends that one run to the portable runner.
    """
    if _on_asyncio() and _process_asyncio.supported(asyncio.get_running_loop()):
        return _process_asyncio.run_native
    return run_portable


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
