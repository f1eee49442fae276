"""Helpers for the ``agent-hooks install`` tests: a fake HOME and project under
``tmp_path``, the CLI (in this process: what it writes and prints is what they check;
the commands it writes run as the harness runs them, in a subprocess), a hook graph to
install."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from tests.cli_inprocess import cli_in_process

PY = sys.executable

GUARD = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "echo no >&2; exit 2", "timeout": 10}],
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "true"}]}],
    }
}


def env_for(tmp: Path, **extra: str) -> dict[str, str]:
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
    env.update(extra)
    return env


def ah(tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``agent-hooks ARGS`` in the fake home; a traceback is never an answer (one raised
    in this process fails the test as it is). Called from another thread than the main
    one (installs racing each other), each call is a process of its own."""
    if threading.current_thread() is threading.main_thread():
        proc = cli_in_process(args, env=env_for(tmp, **env), cwd=tmp)
    else:
        proc = subprocess.run(
            [PY, "-m", "agent_hooks", *args],
            capture_output=True,
            text=True,
            env=env_for(tmp, **env),
            cwd=tmp,
            timeout=120,
            check=False,
        )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def graph(path: Path, doc: Any = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(GUARD if doc is None else doc), encoding="utf-8")
    return path


def ours(commands: list[str], dialect: str) -> list[str]:
    """The commands among ``commands`` that call ``agent-hooks run --dialect D``."""
    found = []
    for c in commands:
        words = shlex.split(c)
        if "run" in words and words[words.index("run") + 1 : words.index("run") + 3] == [
            "--dialect",
            dialect,
        ]:
            found.append(c)
    return found


def grouped_commands(doc: dict[str, Any], event: str) -> list[str]:
    return [h["command"] for g in doc["hooks"].get(event, []) for h in g.get("hooks", [])]
