"""Helpers for the configuration tests of Gemini CLI, Cursor and Copilot files: write a
file, run ``agent-hooks`` in a throw-away home, in this process (these tests check what
the configuration makes of a call; ``run`` as a harness starts it, a process, is
tests/cli/test_cli_run.py's; ``run`` in a subprocess when the suite runs with the
resident server)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.cli_inprocess import cli_in_process
from tests.dialect_helpers import THROUGH_SERVER

PY = sys.executable
def write(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=2), encoding="utf-8")
    return path


def script(path: Path, body: str) -> Path:
    """An executable Python script (``body`` after ``import sys, json``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!{PY}\nimport sys, json\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def cli(
    tmp: Path, *args: str, stdin: Any = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "COPILOT_", "GEMINI_", "CURSOR_", "CODEX_", "DOCKER_"))
    }
    env.update(
        HOME=str(tmp / "home"),
        XDG_STATE_HOME=str(tmp / "state"),
        XDG_CONFIG_HOME=str(tmp / "home" / ".config"),
    )
    data = None if stdin is None else (stdin if isinstance(stdin, str) else json.dumps(stdin))
    if args[0] != "run" or not THROUGH_SERVER:
        return cli_in_process(args, env=env, cwd=cwd or tmp, input=data)
    return subprocess.run(
        [PY, "-m", "agent_hooks", *args],
        input=data,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or tmp,
        timeout=60,
        check=False,
    )


def check_json(tmp: Path, *args: str) -> dict[str, Any]:
    proc = cli(tmp, "check", "--json", *args)
    assert proc.returncode in (0, 1), proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    result["_rc"] = proc.returncode
    return result
