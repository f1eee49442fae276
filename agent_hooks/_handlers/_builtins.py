"""Built-in hooks: Python callbacks shipped with the SDK (Docker Agent's ``type: builtin``).

Each built-in is a factory that checks its arguments at once (so a bad argument
fails at registration, not in the middle of a session) and returns a typed
callback ``(input) -> output | None`` for ``HookMatcher(hooks=[...])``::

    from agent_hooks import HookMatcher, HookRegistry, add_date, add_git_status, max_iterations

    registry = HookRegistry({
        "TurnStart": [HookMatcher(hooks=[add_date(), add_git_status()])],
        "BeforeLLMCall": [HookMatcher(hooks=[max_iterations(50)])],
    })

Context built-ins (``add_*``) answer with ``additional_context`` in the output
class of whatever event they are registered on (TurnStart for per-turn context,
SessionStart for context that stays, UserPromptSubmit, ...), and return
``None`` where the event has no context or they have nothing to say. The git
built-ins run ``git`` in the input's ``cwd`` with a short timeout and are
no-ops outside a repository or without git.

:func:`builtin` builds one by name from a configuration file's ``command`` and
``args`` (Docker Agent's spelling: ``args: ["full"]``, ``args: ["50"]``).
"""

from __future__ import annotations

import datetime
import getpass
import json
import os
import platform
import re
import shutil
import socket
import tempfile
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import anyio
import anyio.to_thread
import attrs

from .._base._errors import RegistrationError
from .._events._capabilities import spec_for
from .._events._model import HookInput, HookOutput
from .._events._prompt._before_llm_call import BeforeLLMCallInput, BeforeLLMCallOutput
from .._events._session._session_end import SessionEndInput
from .._events._tool._post_tool_use import PostToolUseInput, PostToolUseOutput
from .._events._tool._pre_tool_use import PreToolUseInput, PreToolUseOutput
from .._events._tool._tool_input_transform import ToolInputTransformInput, ToolInputTransformOutput
from .._events._tool._tool_response_transform import (
    ToolResponseTransformInput,
    ToolResponseTransformOutput,
)

__all__ = [
    "BUILTINS",
    "BuiltinArgumentError",
    "BuiltinHook",
    "LargeResultLimiter",
    "add_date",
    "add_directory_listing",
    "add_environment_info",
    "add_git_diff",
    "add_git_status",
    "add_prompt_files",
    "add_recent_commits",
    "add_user_info",
    "builtin",
    "limit_large_tool_results",
    "max_iterations",
    "redact_secrets",
    "redact_text",
]

BuiltinHook = Callable[[HookInput[Any]], Awaitable[HookOutput | None]]
"""What every built-in factory returns: a typed async callback for ``HookMatcher.hooks``."""

GIT_TIMEOUT = 3.0
"""Seconds a git built-in waits for git before giving up (it then adds nothing)."""
GIT_DIFF_CAP = 4 * 1024
"""Bytes of ``git diff`` output kept by :func:`add_git_diff`."""
GIT_OUTPUT_CAP = 4 * 1024
"""Bytes of output kept by the other git built-ins."""
DIRECTORY_LISTING_CAP = 100
"""Entries listed by :func:`add_directory_listing` before ``... and N more``."""
PROMPT_FILE_CAP = 64 * 1024
"""Bytes read from each prompt file by :func:`add_prompt_files`."""


class BuiltinArgumentError(RegistrationError, ValueError):
    """A built-in was given an unusable argument (also a ``ValueError``)."""


# ------------------------------------------------------------------ helpers


def _named(fn: BuiltinHook, name: str) -> BuiltinHook:
    """Give a closure the built-in's name, so reports say ``add_date``, not ``<locals>``."""
    fn.__name__ = name
    fn.__qualname__ = name
    return fn


def _context_output(input: HookInput[Any], text: str | None) -> HookOutput | None:
    """``additional_context`` in the output class of the input's event, when it has one."""
    if not text:
        return None
    cls = spec_for(input.event).output_type
    if "additional_context" not in attrs.fields_dict(cls):
        return None
    kwargs: dict[str, Any] = {"additional_context": text}
    return cls(**kwargs)


def _cwd(input: HookInput[Any]) -> str | None:
    cwd = input.cwd or os.getcwd()
    return cwd if os.path.isdir(cwd) else None


def _cap(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` UTF-8 bytes (at a character boundary), with a marker."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    kept = data[:limit].decode("utf-8", errors="ignore")
    cut = kept.rfind("\n")
    if cut > limit // 2:
        kept = kept[:cut]
    return f"{kept}\n... (truncated: {len(data)} bytes, {limit} shown)"


def _positive_int(builtin_name: str, arg: str, value: Any) -> int:
    """An integer >= 1 from an int or a decimal string (configuration files give strings)."""
    n: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    elif isinstance(value, str) and value.strip().isdecimal():
        n = int(value.strip())
    if n is None or n < 1:
        raise BuiltinArgumentError(
            f"{builtin_name}: {arg} must be a positive integer, got {value!r}"
        )
    return n


async def _git(cwd: str | None, *args: str) -> str | None:
    """``git args...`` in ``cwd``: its stdout, or ``None`` when git is missing, fails
    (not a repository, no commits) or takes longer than :data:`GIT_TIMEOUT`."""
    if cwd is None:
        return None
    env = {
        **os.environ,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_PAGER": "cat",
    }
    try:
        with anyio.move_on_after(GIT_TIMEOUT):
            proc = await anyio.run_process(
                ["git", "--no-pager", *args],
                cwd=cwd,
                env=env,
                check=False,
                input=b"",
            )
            if proc.returncode == 0:
                return proc.stdout.decode("utf-8", errors="replace")
    except OSError:  # git is not installed (or not executable)
        return None
    return None


# ---------------------------------------------------------- context built-ins


def add_date() -> BuiltinHook:
    """``Today's date: YYYY-MM-DD`` (local date) as context; meant for TurnStart."""

    async def hook(input: HookInput[Any]) -> HookOutput | None:
        return _context_output(input, f"Today's date: {datetime.date.today().isoformat()}")

    return _named(hook, "add_date")


def add_environment_info() -> BuiltinHook:
    """Working directory, whether it is a git repository, OS and CPU architecture;
    meant for SessionStart."""

    async def hook(input: HookInput[Any]) -> HookOutput | None:
        cwd = _cwd(input)
        inside = await _git(cwd, "rev-parse", "--is-inside-work-tree")
        is_repo = inside is not None and inside.strip() == "true"
        lines = [
            f"Working directory: {input.cwd or os.getcwd()}",
            f"Is directory a git repo: {'yes' if is_repo else 'no'}",
            f"Operating system: {platform.system()} {platform.release()}".rstrip(),
            f"CPU architecture: {platform.machine() or 'unknown'}",
        ]
        return _context_output(input, "\n".join(lines))

    return _named(hook, "add_environment_info")


def add_prompt_files(files: Sequence[str] | str) -> BuiltinHook:
    """The contents of each named file, found in the working directory and its
    parents and in the home directory; meant for TurnStart.

    For each name, every copy found is added, the most general first (home,
    then from the filesystem root down to the working directory), so the
    nearest one comes last. Absolute paths are read as they are. Each file is
    read up to :data:`PROMPT_FILE_CAP` bytes; missing files are skipped.

    Raises:
        BuiltinArgumentError: no file names, or a name that is not a non-empty string.
    """
    names = [files] if isinstance(files, str) else files
    if not isinstance(names, Sequence) or not names:
        raise BuiltinArgumentError(
            f"add_prompt_files: files must be a non-empty list of file names, got {files!r}"
        )
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise BuiltinArgumentError(
                f"add_prompt_files: each file must be a non-empty string, got {name!r}"
            )
    wanted = tuple(names)

    def find(start: str | None) -> list[str]:
        found: list[str] = []
        seen: set[str] = set()

        def take(path: str) -> None:
            real = os.path.realpath(path)
            if real not in seen and os.path.isfile(path):
                seen.add(real)
                found.append(path)

        for name in wanted:
            expanded = os.path.expanduser(name)
            if os.path.isabs(expanded):
                take(expanded)
                continue
            take(os.path.join(os.path.expanduser("~"), name))
            chain: list[str] = []
            directory = start
            while directory:
                chain.append(os.path.join(directory, name))
                parent = os.path.dirname(directory)
                directory = parent if parent != directory else None
            for path in reversed(chain):
                take(path)
        return found

    def read_all(start: str | None) -> str | None:
        parts = []
        for path in find(start):
            try:
                with open(path, "rb") as f:
                    data = f.read(PROMPT_FILE_CAP + 1)
            except OSError:
                continue
            text = _cap(data.decode("utf-8", errors="replace"), PROMPT_FILE_CAP)
            parts.append(f"Contents of {path}:\n{text.rstrip()}")
        return "\n\n".join(parts) if parts else None

    async def hook(input: HookInput[Any]) -> HookOutput | None:
        text = await anyio.to_thread.run_sync(read_all, _cwd(input))
        return _context_output(input, text)

    return _named(hook, "add_prompt_files")


def add_git_status() -> BuiltinHook:
    """``git status --short --branch`` as context; meant for TurnStart. A no-op outside
    a repository or without git."""

    async def hook(input: HookInput[Any]) -> HookOutput | None:
        out = await _git(_cwd(input), "status", "--short", "--branch")
        if not out or not out.strip():
            return None
        text = _cap(out.rstrip(), GIT_OUTPUT_CAP)
        return _context_output(input, f"Git status (git status --short --branch):\n{text}")

    return _named(hook, "add_git_status")


def add_git_diff(full: bool = False) -> BuiltinHook:
    """``git diff --stat`` (or, with ``full=True``, the whole unified diff) of the
    working tree as context, capped at 4 KB; meant for TurnStart. Nothing when the
    tree is clean, outside a repository or without git.

    Raises:
        BuiltinArgumentError: ``full`` is not a bool.
    """
    if not isinstance(full, bool):
        raise BuiltinArgumentError(f"add_git_diff: full must be True or False, got {full!r}")
    args = ("diff",) if full else ("diff", "--stat")

    async def hook(input: HookInput[Any]) -> HookOutput | None:
        out = await _git(_cwd(input), *args)
        if not out or not out.strip():
            return None
        text = _cap(out.rstrip(), GIT_DIFF_CAP)
        return _context_output(input, f"Uncommitted changes (git {' '.join(args)}):\n{text}")

    return _named(hook, "add_git_diff")


def add_recent_commits(n: int | str = 10) -> BuiltinHook:
    """``git log --oneline -n N`` as context; meant for SessionStart. Nothing outside a
    repository, in one without commits, or without git.

    Raises:
        BuiltinArgumentError: ``n`` is not a positive integer.
    """
    count = _positive_int("add_recent_commits", "n", n)

    async def hook(input: HookInput[Any]) -> HookOutput | None:
        out = await _git(_cwd(input), "log", "--oneline", "--no-decorate", "-n", str(count))
        if not out or not out.strip():
            return None
        text = _cap(out.rstrip(), GIT_OUTPUT_CAP)
        return _context_output(input, f"Recent commits (git log --oneline -n {count}):\n{text}")

    return _named(hook, "add_recent_commits")


def add_directory_listing() -> BuiltinHook:
    """The working directory's top-level entries, alphabetically (dot files skipped,
    directories marked with ``/``, at most 100 then ``... and N more``); meant for
    SessionStart."""

    def listing(cwd: str | None) -> str | None:
        if cwd is None:
            return None
        try:
            with os.scandir(cwd) as it:
                entries = sorted(
                    (
                        e.name + ("/" if e.is_dir() else "")
                        for e in it
                        if not e.name.startswith(".")
                    ),
                    key=lambda s: (s.lower(), s),
                )
        except OSError:
            return None
        if not entries:
            return None
        shown = entries[:DIRECTORY_LISTING_CAP]
        lines = [f"Files in {cwd}:", *shown]
        if len(entries) > DIRECTORY_LISTING_CAP:
            lines.append(f"... and {len(entries) - DIRECTORY_LISTING_CAP} more")
        return "\n".join(lines)

    async def hook(input: HookInput[Any]) -> HookOutput | None:
        return _context_output(input, await anyio.to_thread.run_sync(listing, _cwd(input)))

    return _named(hook, "add_directory_listing")


def _user_info() -> str:
    try:
        user = getpass.getuser()
    except Exception:  # no name for this uid, no USER/LOGNAME
        user = "unknown"
    full_name = ""
    try:
        import pwd

        full_name = pwd.getpwnam(user).pw_gecos.split(",")[0].strip()
    except (ImportError, KeyError, OSError):
        pass
    lines = [f"User: {user}"]
    if full_name and full_name != user:
        lines.append(f"Full name: {full_name}")
    lines.append(f"Hostname: {socket.gethostname()}")
    return "\n".join(lines)


def add_user_info() -> BuiltinHook:
    """The OS user (login and full name) and the host name; meant for SessionStart."""

    async def hook(input: HookInput[Any]) -> HookOutput | None:
        return _context_output(input, _user_info())

    return _named(hook, "add_user_info")


# ------------------------------------------------------------- max_iterations


def max_iterations(n: int | str) -> BuiltinHook:
    """A hard stop on BeforeLLMCall once more than ``n`` model calls happened.

    The count is per ``session_id`` (sessions without one share a count). When
    the host supplies BeforeLLMCall's ``iteration`` (Docker Agent does), that
    number is used instead of the count. Registered on SessionEnd too, it forgets
    the session's count there.

    Raises:
        BuiltinArgumentError: ``n`` is not a positive integer.
    """
    limit = _positive_int("max_iterations", "n", n)
    counts: dict[str | None, int] = {}

    async def hook(input: HookInput[Any]) -> HookOutput | None:
        if isinstance(input, SessionEndInput):
            counts.pop(input.session_id, None)
            return None
        if not isinstance(input, BeforeLLMCallInput):
            return None
        count = counts.get(input.session_id, 0) + 1
        counts[input.session_id] = count
        if input.iteration is not None:
            count = input.iteration
        if count <= limit:
            return None
        return BeforeLLMCallOutput(
            decision="block",
            reason=f"max_iterations: the limit of {limit} model calls was reached; stopping",
        )

    return _named(hook, "max_iterations")


# ------------------------------------------------------------- redact_secrets

REDACTED = "[REDACTED]"

_SECRET_KEYWORDS = (
    r"api[_-]?key|apikey|secret|token|passwd|password|passphrase|access[_-]?key|"
    r"private[_-]?key|client[_-]?secret|credentials?|auth[_-]?key"
)

# Whole-match patterns: the full match is a secret and is replaced.
_SECRET_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p)
    for p in (
        # PEM private keys (RSA, EC, OPENSSH, PGP ...), also when the END line is missing.
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*)",
        # Anthropic, OpenAI (sk-..., sk-proj-...), generic sk- keys.
        r"\bsk-(?:ant-)?(?:[a-z]+-)?[A-Za-z0-9_\-]{20,}",
        # GitHub tokens.
        r"\bgh[pousr]_[A-Za-z0-9]{30,}\b",
        r"\bgithub_pat_[A-Za-z0-9_]{30,}\b",
        # GitLab personal access tokens.
        r"\bglpat-[A-Za-z0-9_\-]{20,}\b",
        # AWS access key ids.
        r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b",
        # Google API keys.
        r"\bAIza[0-9A-Za-z_\-]{35}\b",
        # Slack tokens and webhooks.
        r"\bxox[abposr]-[A-Za-z0-9\-]{10,}",
        r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]+",
        # Stripe keys.
        r"\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}\b",
        # Hugging Face, npm, PyPI tokens.
        r"\bhf_[A-Za-z0-9]{30,}\b",
        r"\bnpm_[A-Za-z0-9]{36}\b",
        r"\bpypi-[A-Za-z0-9_\-]{50,}",
        # JSON Web Tokens.
        r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    )
)


def _is_placeholder(value: str) -> bool:
    """A value that stands for a secret rather than being one: a variable reference, a
    template, a mask, a type name or a keyword."""
    if value.startswith(("$", "%", "<", "{", "@")) or REDACTED in value:
        return True
    if set(value) <= set("*xX.-_#"):
        return True  # masked already
    return value.lower() in _PLACEHOLDER_WORDS


_PLACEHOLDER_WORDS = frozenset(
    {
        "true", "false", "null", "none", "nil", "undefined", "required", "optional",
        "string", "str", "bytes", "number", "boolean", "bool", "text", "object", "any",
        "secretstr", "password", "secret", "token", "redacted", "hidden", "masked",
    }
)  # fmt: skip


def _looks_secret(value: str) -> bool:
    """Whether a value given to a secret-named key looks like a secret (not a word, an
    identifier, a number or a placeholder)."""
    if _is_placeholder(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    if not has_alpha:
        return False  # a number (max_tokens = 100000000)
    if has_digit:
        return True
    # letters only: a long mixed-case string is a key; a word or identifier is not
    return len(value) >= 20 and any(c.isupper() for c in value) and any(c.islower() for c in value)


def _any_value(value: str) -> bool:
    return not _is_placeholder(value)


_END = r"""(?=$|[\s"',;})\]])"""

# Patterns whose group "secret" is replaced (key names and schemes are kept), each with
# the test the value must pass.
_SECRET_VALUE_PATTERNS: tuple[tuple[re.Pattern[str], Callable[[str], bool]], ...] = (
    # Authorization: Bearer <token> / Basic <b64>
    (
        re.compile(r"(?i)\b(?:bearer|basic)\s+(?P<secret>[A-Za-z0-9._~+/\-]{16,}=*)"),
        _looks_secret,
    ),
    # scheme://user:password@host
    (
        re.compile(r"(?i)\b[a-z][a-z0-9+.\-]*://[^/\s:@]+:(?P<secret>[^/\s@]{3,})@"),
        _any_value,
    ),
    # password = "value", DB_PASSWD: value (any value that is not a placeholder)
    (
        re.compile(
            r"""(?ix)
            [a-z0-9_\-]*(?:password|passwd|passphrase)[a-z0-9_\-]*   # the key name
            ["']?[ \t]*[:=][ \t]*
            (?P<q>["']?)
            (?P<secret>[^\s"',;()\[\]{}<>]{4,})
            (?P=q)"""
            + _END
        ),
        _any_value,
    ),
    # api_key = "value", "client_secret": "value", --token value (a secret-looking value)
    (
        re.compile(
            rf"""(?ix)
            [a-z0-9_\-]*(?:{_SECRET_KEYWORDS})[a-z0-9_\-]*     # the key name
            ["']?[ \t]*(?:[:=]|[ \t])[ \t]*                   # = : or a space
            (?P<q>["']?)
            (?P<secret>[A-Za-z0-9_\-+/=.~!@#$%^&*]{{8,}})
            (?P=q)"""
            + _END
        ),
        _looks_secret,
    ),
)


def redact_text(text: str) -> str:
    """``text`` with the secrets it contains replaced by ``[REDACTED]``.

    Recognised: PEM private keys; API keys and tokens with a known shape
    (Anthropic, OpenAI, GitHub, GitLab, AWS access key ids, Google, Slack, Stripe,
    Hugging Face, npm, PyPI, JWTs); bearer/basic credentials; passwords in URLs;
    and values given to secret-named keys (``API_KEY=...``, ``"password": "..."``,
    ``--token ...``). Bare hex strings (git SHAs, sha256 digests) and other
    unlabelled random-looking text are left alone.
    """
    if len(text) < 8:
        return text
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(REDACTED, text)
    for pattern, accept in _SECRET_VALUE_PATTERNS:

        def value_sub(m: re.Match[str], accept: Callable[[str], bool] = accept) -> str:
            if not accept(m.group("secret")):
                return m.group(0)
            start, end = m.span("secret")
            whole = m.group(0)
            return whole[: start - m.start()] + REDACTED + whole[end - m.start() :]

        text = pattern.sub(value_sub, text)
    return text


def _redact(value: Any) -> tuple[Any, bool]:
    """``value`` with every string inside redacted (same shape), and whether anything changed."""
    if isinstance(value, str):
        red = redact_text(value)
        return red, red != value
    if isinstance(value, Mapping):
        changed = False
        out: dict[Any, Any] = {}
        for k, v in value.items():
            out[k], c = _redact(v)
            changed = changed or c
        return (out, True) if changed else (value, False)
    if isinstance(value, (list, tuple)):
        items = []
        changed = False
        for v in value:
            r, c = _redact(v)
            items.append(r)
            changed = changed or c
        if not changed:
            return value, False
        return (tuple(items) if isinstance(value, tuple) else items), True
    return value, False


def redact_secrets() -> BuiltinHook:
    """Scrub secrets (see :func:`redact_text`) from what crosses the model boundary.

    One callback for several events, acting by the input's event:

    * PreToolUse and ToolInputTransform: the tool input (``updated_input``);
    * BeforeLLMCall: the outgoing messages (``messages``);
    * PostToolUse: the tool output the model sees (``updated_tool_output``);
    * ToolResponseTransform: the tool response (``updated_tool_response``).

    It answers only when something was redacted, keeping the value's shape.
    """

    async def hook(input: HookInput[Any]) -> HookOutput | None:
        if isinstance(input, (PreToolUseInput, ToolInputTransformInput)):
            red, changed = _redact(input.tool_input)
            if not changed:
                return None
            if isinstance(input, PreToolUseInput):
                return PreToolUseOutput(updated_input=red)
            return ToolInputTransformOutput(updated_input=red)
        if isinstance(input, BeforeLLMCallInput):
            if input.messages is None:
                return None
            red, changed = _redact(input.messages)
            return BeforeLLMCallOutput(messages=list(red)) if changed else None
        if isinstance(input, PostToolUseInput):
            red, changed = _redact(input.tool_response)
            return PostToolUseOutput(updated_tool_output=red) if changed else None
        if isinstance(input, ToolResponseTransformInput):
            red, changed = _redact(input.tool_response)
            return ToolResponseTransformOutput(updated_tool_response=red) if changed else None
        return None

    return _named(hook, "redact_secrets")


# --------------------------------------------------- limit_large_tool_results

_HEAD_TOOLS = frozenset({"read", "read_file", "view", "cat", "readfile", "view_file"})
"""Tools whose excerpt is the head of the output (file readers); others keep the tail."""

_session_dirs: dict[str | None, str] = {}
"""Per-session temporary directories of large results, shared by every limiter in the
process so that a SessionEnd registration cleans up after any of them."""
_session_dirs_lock = threading.Lock()  # the files are written from worker threads
_NOTICE = "[Output too large: "


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:60] or "x"


def _head(lines: list[str], max_lines: int, max_bytes: int) -> str:
    out: list[str] = []
    size = 0
    for line in lines[:max_lines]:
        n = len(line.encode("utf-8"))
        if size + n > max_bytes:
            room = max_bytes - size
            if room > 0:
                out.append(line.encode("utf-8")[:room].decode("utf-8", errors="ignore"))
            break
        out.append(line)
        size += n
    return "".join(out)


def _tail(lines: list[str], max_lines: int, max_bytes: int) -> str:
    out: list[str] = []
    size = 0
    for line in reversed(lines[-max_lines:]):
        n = len(line.encode("utf-8"))
        if size + n > max_bytes:
            room = max_bytes - size
            if room > 0:
                out.append(line.encode("utf-8")[-room:].decode("utf-8", errors="ignore"))
            break
        out.append(line)
        size += n
    return "".join(reversed(out))


class LargeResultLimiter:
    """The callback :func:`limit_large_tool_results` returns.

    On ToolResponseTransform (``updated_tool_response``) and PostToolUse
    (``updated_tool_output``): a result over the limits is written in full to a
    file in a per-session temporary directory, and the model gets a notice naming
    the file plus an excerpt within the limits (the head for file-reading tools,
    the tail for the others). The session's directory is removed on SessionEnd
    and, in any case, when the session closes: the files never outlive it.
    """

    def __init__(self, max_lines: int, max_bytes: int) -> None:
        self.max_lines = max_lines
        self.max_bytes = max_bytes
        self._seq = 0
        # the name reports and diagnostics show for this handler
        self.__name__ = self.__qualname__ = "limit_large_tool_results"

    @staticmethod
    def directory(session_id: str | None) -> str | None:
        """The temporary directory of a session's large results, if one was created."""
        return _session_dirs.get(session_id)

    async def __call__(self, input: HookInput[Any]) -> HookOutput | None:
        if isinstance(input, SessionEndInput):
            await self.cleanup(input.session_id)
            return None
        if isinstance(input, ToolResponseTransformInput):
            text = await self._limit(input.tool_name, input.tool_use_id, input)
            return None if text is None else ToolResponseTransformOutput(updated_tool_response=text)
        if isinstance(input, PostToolUseInput):
            text = await self._limit(input.tool_name, input.tool_use_id, input)
            return None if text is None else PostToolUseOutput(updated_tool_output=text)
        return None

    async def session_closed(self, session_id: str | None) -> None:
        """Told by the session when it closes: the files go with it."""
        await self.cleanup(session_id)

    async def cleanup(self, session_id: str | None) -> None:
        """Remove the session's temporary directory and every file in it."""
        with _session_dirs_lock:
            path = _session_dirs.pop(session_id, None)
        if path is not None:
            await anyio.to_thread.run_sync(lambda: shutil.rmtree(path, ignore_errors=True))

    async def _limit(
        self, tool_name: str, tool_use_id: str | None, input: HookInput[Any]
    ) -> str | None:
        response = getattr(input, "tool_response", None)
        if response is None:
            return None
        if isinstance(response, str):
            text = response
        else:
            try:
                text = json.dumps(response, ensure_ascii=False, indent=1, default=str)
            except (TypeError, ValueError):
                text = str(response)
        size = len(text.encode("utf-8"))
        lines = text.splitlines(keepends=True)
        if size <= self.max_bytes and len(lines) <= self.max_lines:
            return None
        if text.startswith(_NOTICE):
            return None  # already limited (the limiter is on both transform and PostToolUse)
        self._seq += 1
        name = f"{self._seq:04d}-{_safe(tool_name)}-{_safe(tool_use_id or 'call')}.txt"
        session_id = input.session_id

        def save() -> str:
            with _session_dirs_lock:
                directory = _session_dirs.get(session_id)
                if directory is None or not os.path.isdir(directory):
                    directory = tempfile.mkdtemp(
                        prefix=f"agent_hooks-results-{_safe(session_id or 'session')}-"
                    )
                    _session_dirs[session_id] = directory
            path = os.path.join(directory, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            return path

        path = await anyio.to_thread.run_sync(save)
        head = tool_name.lower().rsplit("__", 1)[-1] in _HEAD_TOOLS
        # the notice and the excerpt together stay within the limits
        budget_bytes = self.max_bytes - 512 if self.max_bytes > 1024 else self.max_bytes // 2
        budget_lines = max(1, self.max_lines - 3)
        excerpt = (_head if head else _tail)(lines, budget_lines, max(1, budget_bytes))
        shown = len(excerpt.splitlines())
        where = "first" if head else "last"
        hint = (
            "read it in parts with offset/limit (line/limit)"
            if head
            else "read it with a file tool (offset/limit) or grep it"
        )
        notice = (
            f"{_NOTICE}{len(lines)} lines, {size} bytes. The full output was saved "
            f"to {path}; {hint}. Showing the {where} {shown} lines.]"
        )
        return f"{notice}\n{excerpt}" if head else f"{notice}\n...\n{excerpt}"


def limit_large_tool_results(
    max_lines: int | str = 2000, max_bytes: int | str = 50 * 1024
) -> LargeResultLimiter:
    """Keep huge tool results out of the conversation (see :class:`LargeResultLimiter`).

    Register the returned callback on ToolResponseTransform (or PostToolUse) and on
    SessionEnd, which removes the session's files.

    Raises:
        BuiltinArgumentError: a limit is not a positive integer.
    """
    return LargeResultLimiter(
        _positive_int("limit_large_tool_results", "max_lines", max_lines),
        _positive_int("limit_large_tool_results", "max_bytes", max_bytes),
    )


# ---------------------------------------------------------------- by name

BUILTINS: Mapping[str, Callable[..., Any]] = MappingProxyType(
    {
        "add_date": add_date,
        "add_environment_info": add_environment_info,
        "add_prompt_files": add_prompt_files,
        "add_git_status": add_git_status,
        "add_git_diff": add_git_diff,
        "add_recent_commits": add_recent_commits,
        "add_directory_listing": add_directory_listing,
        "add_user_info": add_user_info,
        "max_iterations": max_iterations,
        "redact_secrets": redact_secrets,
        "limit_large_tool_results": limit_large_tool_results,
    }
)
"""Every built-in by its configuration name (Docker Agent's ``command``) -> its factory."""


def _bool_arg(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("full", "true", "yes", "1"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("stat", "false", "no", "0"):
        return False
    raise BuiltinArgumentError(f'add_git_diff: expected no args or ["full"], got [{value!r}]')


def builtin(name: str, args: Sequence[Any] | Mapping[str, Any] = ()) -> BuiltinHook:
    """Build a built-in by name, as a configuration file names it.

    ``args`` is a list (Docker Agent's ``args``: ``["full"]`` for add_git_diff,
    ``["50"]`` for max_iterations, the file names for add_prompt_files) or a
    mapping of keyword arguments.

    Raises:
        ValueError: unknown name (the message lists the known ones) or unusable
            arguments (:class:`BuiltinArgumentError`).
    """
    factory = BUILTINS.get(name)
    if factory is None:
        raise ValueError(f"unknown built-in hook {name!r}; known: {', '.join(sorted(BUILTINS))}")
    if isinstance(args, Mapping):
        pos: tuple[Any, ...] = ()
        kw: dict[str, Any] = dict(args)
    elif isinstance(args, (str, bytes)) or not isinstance(args, Sequence):
        raise BuiltinArgumentError(
            f"{name}: args must be a list or a mapping, got {type(args).__name__}"
        )
    else:
        pos, kw = tuple(args), {}
        if name == "add_prompt_files":
            pos = (list(pos),)
        elif name == "add_git_diff" and len(pos) == 1:
            pos = (_bool_arg(pos[0]),)
    try:
        hook: BuiltinHook = factory(*pos, **kw)
    except TypeError as exc:
        if isinstance(exc, RegistrationError):
            raise
        raise BuiltinArgumentError(f"{name}: bad arguments {args!r} ({exc})") from None
    return hook
