"""``agent-hooks check``'s look at command hooks: is the program there, and can it run?

A command hook whose program is missing or not executable fails at every run, as a
non-blocking error that is easy to miss. ``check`` loads with :func:`checking_kinds`,
whose ``command`` factory builds the handler as usual and then looks at its program:

* exec form (``args``/``argv``): the first element;
* shell form (``sh``/``bash``-like shells): the first word, after leading
  ``VAR=value`` assignments, unless it is a shell builtin or keyword.

A program with a ``/`` is a path (relative ones are resolved against the handler's
``working_dir``, else the project directory, where hooks run); a bare name is looked
up on ``PATH``. The known placeholders (``$CLAUDE_PROJECT_DIR``,
``${CLAUDE_PLUGIN_ROOT}``...) are replaced by their values; anything else the
shell would expand (another variable, ``$(...)``, backticks, a glob), a word that
does not parse, or a ``PATH`` the handler sets itself means the answer cannot be
known here, and nothing is said.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import shutil
from collections.abc import Mapping
from typing import Any

from ..._base._diagnostics import DiagnosticCode, Severity
from ..._handlers._kinds import HandlerKinds, KindContext, KindFactory
from ..._handlers._nodes import HandlerNode

__all__ = ["checking_kinds", "program_problem"]

_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash"})
"""Shells whose first word of a command is the program (``-c`` semantics as ``sh``)."""

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def checking_kinds(kinds: HandlerKinds | None = None) -> dict[str, KindFactory]:
    """``kinds`` (default: the built-in table) with a ``command`` factory that also
    reports a missing or non-executable program (a ``launch_failed`` warning)."""
    from ..._handlers._kinds import command_kind, default_kinds

    table = default_kinds() if kinds is None else dict(kinds)
    base = table.get("command", command_kind)

    @functools.wraps(base)
    def command(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
        node = base(entry, ctx)
        if node is not None and node.disabled is None:
            problem = program_problem(entry, ctx)
            if problem is not None:
                ctx.report(
                    DiagnosticCode.LAUNCH_FAILED,
                    f"{problem}; this hook will fail to start",
                    severity=Severity.WARNING,
                    handler=node.name,
                )
        return node

    table["command"] = command
    return table


def program_problem(entry: Mapping[str, Any], ctx: KindContext) -> str | None:
    """What is wrong with a command entry's program, or ``None`` (fine, or unknowable)."""
    if os.name == "nt":  # pragma: no cover - executability means something else there
        return None
    program = _program(entry, ctx)
    if program is None:
        return None
    if "/" not in program:
        env = entry.get("env")
        if isinstance(env, Mapping) and "PATH" in env:
            return None  # the hook brings its own PATH
        if shutil.which(program) is None:
            return f"program {program!r} is not found on PATH"
        return None
    if os.path.isabs(program):
        path = program
    else:
        base = _working_dir(entry, ctx)
        if base is None:
            return None
        path = os.path.normpath(os.path.join(base, program))
    if not os.path.exists(path):
        return f"program {program!r} does not exist ({path})"
    if os.path.isdir(path):
        return f"program {program!r} is a directory ({path})"
    if not os.access(path, os.X_OK):
        return (
            f"program {program!r} is not executable ({path}); "
            "chmod +x it, or run it through its interpreter"
        )
    return None


def _program(entry: Mapping[str, Any], ctx: KindContext) -> str | None:
    """The program the entry runs, placeholders replaced; ``None`` when not knowable."""
    argv = entry.get("argv")
    command = entry.get("command")
    if isinstance(argv, list) and argv and isinstance(argv[0], str):
        word: str | None = argv[0]
    elif entry.get("args") is not None and isinstance(command, str):
        word = command
    elif isinstance(command, str):
        shell = entry.get("shell")
        if shell is not None and (
            not isinstance(shell, str) or os.path.basename(shell) not in _SHELLS
        ):
            return None
        word = _first_word(command)
    else:
        return None
    if word is None:
        return None
    return _resolve(word, ctx)


def _first_word(command: str) -> str | None:
    """The program of a shell command line (after ``VAR=value`` words), or ``None`` for a
    builtin, a keyword, something that is not a plain word, or a line that does not parse."""
    from ..._handlers._process import _SHELL_WORDS

    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        for token in lexer:
            if _ASSIGNMENT.match(token):
                continue
            if token in _SHELL_WORDS or not token or all(c in "();<>|&" for c in token):
                return None
            return token
    except ValueError:  # unbalanced quotes: the shell will say more than we can
        return None
    return None


def _resolve(word: str, ctx: KindContext) -> str | None:
    """``word`` with the known placeholders replaced; ``None`` when the shell (or the
    exec form's placeholder pass) would still change it in ways unknown here."""
    known = ctx.placeholders
    unknown = False

    def value(match: re.Match[str]) -> str:
        nonlocal unknown
        name = match.group(1) or match.group(2)
        if name in known:
            return known[name]
        unknown = True
        return match.group(0)

    word = _VARIABLE.sub(value, word)
    if unknown or any(c in word for c in "$`*?[") or not word:
        return None
    if word.startswith("~"):
        word = os.path.expanduser(word)
        if word.startswith("~"):
            return None
    return word


def _working_dir(entry: Mapping[str, Any], ctx: KindContext) -> str | None:
    """Where the hook runs: its ``working_dir`` (relative to the project), else the
    project directory; ``None`` when that is not known."""
    base = ctx.project_dir
    wd = entry.get("working_dir")
    if isinstance(wd, str) and wd:
        resolved = _resolve(wd, ctx)
        if resolved is None:
            return None
        if os.path.isabs(resolved):
            return resolved
        return os.path.join(base, resolved) if base else None
    return base
