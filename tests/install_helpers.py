"""Helpers for the ``agent-hooks install`` tests: a fake HOME and project under
``tmp_path``, the CLI as a subprocess, a hook graph to install."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

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
    """``agent-hooks ARGS`` in the fake home; a traceback is never an answer."""
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
