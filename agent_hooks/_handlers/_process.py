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
import re
from collections.abc import Callable, Mapping, Sequence

import anyio

from . import _process_asyncio
from ._limits import (
    ALWAYS_PASSED_ENV,
    ALWAYS_PASSED_PREFIXES,
    DEFAULT_SECRET_PATTERNS,
    default_process_limit,
)
from ._process_contract import OnStart, ProcessResult, ProcessSpec, Runner
from ._process_portable import run_portable

try:
    import sniffio
except ImportError:  # pragma: no cover - trio depends on sniffio: without it, only asyncio
    sniffio = None  # type: ignore[assignment]

__all__ = [
    "ALWAYS_PASSED_ENV",
    "DEFAULT_SECRET_PATTERNS",
    "OnStart",
    "ProcessResult",
    "ProcessSpec",
    "Runner",
    "default_process_limit",
    "fast_path_argv",
    "run_process",
    "scrub_env",
    "secret_value",
    "select_runner",
    "shell_argv",
]


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
    under 2% of the cheapest run, and a failure of the moment only decides that one
    run (no descriptor left for the probe keeps asyncio's own loop on the native
    runner, which waits for descriptors itself).
    """
    if _on_asyncio() and _process_asyncio.supported(asyncio.get_running_loop()):
        return _process_asyncio.run_native
    return run_portable


async def run_process(
    spec: ProcessSpec,
    *,
    limiter: anyio.CapacityLimiter | None = None,
    on_start: OnStart | None = None,
) -> ProcessResult:
    """Run ``spec.argv`` to completion and report what happened.

    The child gets ``spec.stdin`` on its stdin (written concurrently with
    reading its outputs, so a child that reads little or nothing of a large
    payload cannot deadlock the run), runs in a new session and process group,
    and its stdout and stderr are read concurrently and kept up to the caps
    (the rest is read and discarded, so memory stays bounded).

    Before the start the run may wait, until ``spec.start_deadline`` (default:
    ``spec.timeout`` seconds after the call): for a ``limiter`` slot, and when the
    process has no file descriptor left (EMFILE, ENFILE) or the user no process
    (EAGAIN) for them to come free, retrying the launch with short sleeps.  None of
    this counts against ``spec.timeout``, which starts with the program.
    ``on_start``, if given, is called once the program is started (before its timeout
    begins); what it raises propagates once the child is killed and reaped.

    Failure behaviour (nothing here raises):

    * the start deadline passes while waiting for a slot: nothing is started,
      ``not_started`` is set;
    * the program cannot be started (``OSError`` such as ENOENT or EACCES, still
      EMFILE at the start deadline, a ``ValueError`` such as a NUL byte in ``argv``,
      or another ``subprocess.SubprocessError``): ``launch_error`` holds the error
      text, ``launch_errno`` its ``errno``, ``returncode`` is ``None``;
    * ``spec.timeout`` expires: the child's process group is killed (SIGTERM +
      ``kill_grace`` + SIGKILL, or SIGKILL), the child is reaped, the pipes are
      drained for at most ``spec.drain_timeout``; ``timed_out`` is set.  The call
      returns within about ``waited + timeout + kill_grace + drain_timeout``;
    * the child exits but a descendant keeps stdout/stderr open: the pipes are
      read for at most ``spec.drain_timeout`` more seconds, then the process group
      is sent SIGKILL and the pipes are closed (this is not a timeout).  A
      descendant that left the process group (``setsid``) is not killed, only cut
      off.  Descendants that closed their inherited pipes are left alone;
    * the child dies from a signal: ``signal`` is its number.

    ``timed_out`` means "the child was still running at the deadline".  If the
    child had already exited and only the post-exit drain was cut by the deadline,
    the result is not a timeout: the exit status stands and the lingering
    descendants are killed.

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
    return await select_runner()(spec, limiter, on_start)


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


_WORD = re.compile(r"[A-Z]+[a-z]*|[a-z]+")
"""Words of a variable name: runs of letters, split at every other character (``_``,
digits, ``-``, ``.``) and where a lower-case letter is followed by an upper-case one
(``apiKey2``: ``api``, ``Key``)."""

_URL_CREDENTIALS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:]*:[^\s/?#@]+@")
"""A URL with a password in its user information: ``postgres://app:hunter2@db/prod``,
``redis://:hunter2@cache``, ``https://user:token@proxy:3128``."""

_PEM_PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----")


def _secret_names(needles: tuple[str, ...]) -> Callable[[str], bool]:
    """The test of :func:`scrub_env` for names under the upper-cased ``needles``, with the
    needles sorted out once: those of ASCII letters end words (alone or with an ``S``),
    the others are searched as substrings."""
    suffixes = tuple(f"{n}{s}" for n in needles if n.isascii() and n.isalpha() for s in ("", "S"))
    substrings = tuple(n for n in needles if not (n.isascii() and n.isalpha()))

    def secret(name: str) -> bool:
        upper = name.upper()
        if upper in ALWAYS_PASSED_ENV or upper.startswith(ALWAYS_PASSED_PREFIXES):
            return False
        for needle in substrings:
            if needle in upper:
                return True
        return bool(suffixes) and any(w.upper().endswith(suffixes) for w in _WORD.findall(name))

    return secret


def secret_value(value: str) -> bool:
    """Whether an environment value holds a credential whatever its name: a URL with a
    password in it (``scheme://user:password@host``) or a PEM private key."""
    return ("://" in value and _URL_CREDENTIALS.search(value) is not None) or (
        "-----BEGIN" in value and _PEM_PRIVATE_KEY.search(value) is not None
    )


def scrub_env(
    environ: Mapping[str, str], patterns: Sequence[str] = DEFAULT_SECRET_PATTERNS
) -> dict[str, str]:
    """Return a copy of ``environ`` without the variables that look secret.

    The rule, exactly:

    * a name is cut into words at every character that is not an ASCII letter (``_``,
      digits, ``-``, ``.``) and where a lower-case letter is followed by an upper-case
      one (``apiKey2``: ``api``, ``Key``); words and patterns are compared upper-cased;
    * the variable is withheld when one of its words *ends with* a pattern, or with the
      pattern followed by ``S``: ``OPENAI_API_KEY``, ``GH_PAT``, ``NPM_AUTH``,
      ``DB_PASSWD``, ``AWS_CREDENTIALS``, ``PRIVATE_PEM``, ``PGPASSWORD`` and
      ``GITHUBTOKEN`` go (and, with the default patterns, ``MYSQL_PWD``,
      ``REDIS_PASS``, ``JWT``, ``SESSION_COOKIE``, ``NETRC``, ``SENTRY_DSN``),
      while ``PATH``, ``PATHEXT``, ``GIT_AUTHOR_NAME``,
      ``XAUTHORITY``, ``KEYBOARD`` and ``TOKENIZERS_PARALLELISM`` stay (no word of
      theirs ends with a pattern).  A pattern that is not made of ASCII letters only
      (``API_KEY``, ``K8S``) is matched as a substring of the upper-cased name instead;
    * whatever its name, a variable is withheld when its value holds a URL with a
      password (``scheme://user:password@...``, as in ``DATABASE_URL`` or an
      authenticated proxy) or a PEM private key (``-----BEGIN ... PRIVATE KEY-----``);
    * never withheld, whatever the patterns: ``PATH``, ``HOME``, ``LANG``,
      ``CLAUDE_PROJECT_DIR``, ``CLAUDE_ENV_FILE``, the other names of
      :data:`ALWAYS_PASSED_ENV` (``SSH_AUTH_SOCK``, ``GOPRIVATE``...) and every
      ``LC_*`` and ``XDG_*`` variable.

    An empty pattern is ignored; with no pattern at all only values are inspected.
    To give one hook a variable this withholds, name it in the hook's own ``env``
    (``env={"DATABASE_URL": "${env.DATABASE_URL}"}``).
    """
    secret_name = _secret_names(tuple(p.upper() for p in patterns if p))
    return {
        name: value
        for name, value in environ.items()
        if not (secret_name(name) or secret_value(value))
    }
