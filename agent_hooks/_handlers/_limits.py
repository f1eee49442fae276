"""What hook processes may have by default: how many run at once, and which variables of
the environment they never see.

Kept light (``os`` and ``resource`` only): the registry and the handler call read these
defaults for every session, also when no command hook is configured, and must not
import the process runner to do so.
"""

from __future__ import annotations

import os

try:
    import resource
except ImportError:  # pragma: no cover - POSIX test machine
    resource = None  # type: ignore[assignment]

__all__ = [
    "ALWAYS_PASSED_ENV",
    "ALWAYS_PASSED_PREFIXES",
    "DEFAULT_SECRET_PATTERNS",
    "FDS_PER_PROCESS",
    "default_process_limit",
    "descriptor_process_limit",
]

DEFAULT_SECRET_PATTERNS: tuple[str, ...] = (
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
    "PASS",  # REDIS_PASS, SMTP_PASS, RABBITMQ_DEFAULT_PASS
    "PWD",  # MYSQL_PWD (PWD and OLDPWD, the working directories, always pass)
    "PASSPHRASE",
    "PASSFILE",  # PGPASSFILE: where the password is
    "JWT",
    "COOKIE",
    "NETRC",  # where the machine passwords are
    "DSN",  # SENTRY_DSN and database DSNs carry a key or a password
    "WEBHOOK",  # SLACK_WEBHOOK_URL: the URL is the credential
    "KUBECONFIG",  # cluster tokens and client keys
    "CONNECTION_STRING",  # AZURE_STORAGE_CONNECTION_STRING (a substring: not one word)
)
"""Words of environment variable names that hook processes never see by default.

Matched on the words of a name, not on raw substrings (see
:func:`agent_hooks._handlers._process.scrub_env` for the exact rule): ``GH_PAT``,
``NPM_AUTH``, ``PGPASSWORD``, ``AWS_CREDENTIALS``, ``MYSQL_PWD``, ``REDIS_PASS``,
``JWT``, ``SESSION_COOKIE``, ``NETRC``, ``SENTRY_DSN`` and
``AZURE_STORAGE_CONNECTION_STRING`` are withheld, ``PATH``, ``OLDPWD``,
``GIT_AUTHOR_NAME``, ``COOKIECUTTER_CONFIG`` and ``TOKENIZERS_PARALLELISM`` are not.
Variables that name where a credential is kept (``GOOGLE_APPLICATION_CREDENTIALS``,
``PGPASSFILE``, ``NETRC``, ``KUBECONFIG``, ``KEY_PATH``) are withheld like the
credential itself. The one constant behind
every default (``HookRegistry.secret_env_patterns``, ``HookCall.secret_env_patterns``,
``scrub_env``)."""

ALWAYS_PASSED_ENV: frozenset[str] = frozenset(
    {
        # what hooks need to run at all, and what the harness sets for them
        "PATH",
        "HOME",
        "LANG",
        "LANGUAGE",
        "TERM",
        "SHELL",
        "USER",
        "LOGNAME",
        "PWD",
        "OLDPWD",
        "TMPDIR",
        "TZ",
        "PATHEXT",
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_ENV_FILE",
        "CLAUDE_PLUGIN_ROOT",
        "CLAUDE_PLUGIN_DATA",
        # names a secret word would catch that hold no secret
        "SSH_AUTH_SOCK",  # the agent's socket path (the keys stay in the agent)
        "GOPRIVATE",  # module path patterns
        "GONOPROXY",
        "GONOSUMDB",
    }
)
"""Environment variables that are never withheld, whatever the patterns say (also every
``LC_*`` and ``XDG_*`` variable)."""

ALWAYS_PASSED_PREFIXES: tuple[str, ...] = ("LC_", "XDG_")
"""Prefixes of variable names that are never withheld (locale, XDG base directories)."""

FDS_PER_PROCESS = 8
"""File descriptors one hook process may hold at its peak, while it is spawned: its three
pipes (both ends), the pipe ``subprocess`` reports exec errors through; a running one
holds three (stdout, stderr, a pidfd) or four."""

_DESCRIPTOR_SHARE = 2
"""Hook processes are given at most ``1 / _DESCRIPTOR_SHARE`` of the descriptor limit:
the rest is the application's (its sockets, files, the event loop's own)."""


def descriptor_process_limit() -> int | None:
    """How many hook processes the descriptor limit of this process allows at once.

    Half the soft ``RLIMIT_NOFILE`` divided by :data:`FDS_PER_PROCESS` (at least 1), or
    ``None`` when the limit is unknown or unlimited. The limit is read on every call,
    so a process that lowers or raises it is seen by the next limiter made.
    """
    if resource is None:  # pragma: no cover - POSIX test machine
        return None
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):  # pragma: no cover - defensive
        return None
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return None
    return max(1, soft // _DESCRIPTOR_SHARE // FDS_PER_PROCESS)


def default_process_limit() -> int:
    """Default number of hook processes allowed to run at the same time.

    Hook scripts mostly wait (on I/O, on the network, on interpreter start-up)
    rather than compute, so the limit is ``4 * usable CPUs``, at least 16 (small
    machines and containers still run a typical burst of hooks in one wave) and at most
    64 (avoids fork storms on big machines). Usable CPUs are the ones this process may
    run on (``sched_getaffinity``) when the platform tells, else ``os.cpu_count()``.

    It is also never more than the descriptor limit allows
    (:func:`descriptor_process_limit`: half of ``ulimit -n`` at 8 descriptors per
    process, so 64 at the common 1024, 4 at 64), so that hooks wait for a slot
    instead of failing to start with "Too many open files".
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    limit = min(64, max(16, 4 * max(cpus, 1)))
    by_descriptors = descriptor_process_limit()
    return limit if by_descriptors is None else min(limit, by_descriptors)
