"""``agent-hooks ARGS`` in this process, for the tests where a new interpreter adds
nothing to what they check (what the command prints, writes and exits with).

:func:`cli_in_process` calls the public entry, ``agent_hooks.__main__.main(argv)``, with
the given environment, working directory and standard input, and hands back what a
``subprocess.run(..., capture_output=True, text=True)`` of ``python -m agent_hooks ARGS``
would: the exit status (``SystemExit`` included, as the interpreter turns it into
one), standard output and standard error. Everything it changes (``os.environ``, the
working directory, ``sys.stdin``/``stdout``/``stderr``) is restored afterwards; being
process-wide, it is for the main thread only (calls racing each other need processes).

Keep a subprocess where the process boundary is what a test checks: the exit status
as a harness sees it, signals, leaked processes, the resident server, ``-I``/``-P``,
an interpreter's own environment, Python hooks imported by ``run``.

The environment always has ``AGENT_HOOKS_NO_DAEMON=1``: a resident server started from
here would be a child of the test process and outlive the test (the resident server is
tested through subprocesses, each test with its own socket directory).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from agent_hooks.__main__ import main


def _status(exc: SystemExit, stderr: io.TextIOBase) -> int:
    """The exit status the interpreter makes of ``exc`` (a message goes to stderr)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    print(exc.code, file=stderr)
    return 1


def cli_in_process(
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path | str,
    input: str | bytes | None = None,
) -> subprocess.CompletedProcess[str]:
    """``agent-hooks ARGS`` run by :func:`agent_hooks.__main__.main` in this process with
    ``env`` as its whole environment (plus ``AGENT_HOOKS_NO_DAEMON=1``), ``cwd`` as its
    directory and ``input`` on stdin."""
    data = input.encode() if isinstance(input, str) else (input or b"")
    env = dict(env)  # (``env`` may be ``os.environ`` itself, cleared below)
    out, err = io.BytesIO(), io.BytesIO()
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_std = sys.stdin, sys.stdout, sys.stderr
    stdout = io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape", newline="\n")
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", newline="\n")
    try:
        os.environ.clear()
        os.environ.update(env)
        os.environ["AGENT_HOOKS_NO_DAEMON"] = "1"
        os.chdir(cwd)
        sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
        sys.stdout, sys.stderr = stdout, stderr
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = _status(exc, stderr)
        stdout.flush()
        stderr.flush()
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_std
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(
        ["agent-hooks", *args],
        code,
        out.getvalue().decode("utf-8", "replace"),
        err.getvalue().decode("utf-8", "replace"),
    )
