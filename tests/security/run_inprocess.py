"""The ``agent-hooks run`` workspace of ``tests/cli/test_cli_run.py``, answering in this
process: the security tests check the answer (exit status, stdout, stderr), which
``main(["run", ...])`` gives as the process does, but for an interpreter-level crash
(``run`` as a process is the contract suite, ``tests/cli/test_cli_run.py``). From
another thread than the main one (calls racing a rewrite), or with ``python=`` (another
interpreter command line), each call stays a process."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from typing import Any

from tests.cli.test_cli_run import Workspace, _env
from tests.cli_inprocess import cli_in_process


class InProcessWorkspace(Workspace):
    """:class:`Workspace` whose :meth:`run` is :func:`cli_in_process` on the main thread."""

    def run(
        self,
        *args: str | Path,
        payload: Any = None,
        stdin: bytes | None = None,
        env: dict[str, str] | None = None,
        python: list[str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        if python is not None or threading.current_thread() is not threading.main_thread():
            return super().run(*args, payload=payload, stdin=stdin, env=env, python=python)
        if stdin is None:
            stdin = json.dumps(payload if payload is not None else self.payload()).encode()
        return cli_in_process(
            ["run", *map(str, args)], env=env or _env(self.tmp), cwd=self.tmp, input=stdin
        )
