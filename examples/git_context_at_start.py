"""Git context for the model: once at session start, and fresh at every turn.

SessionStart context persists for the session (``session.persistent_context``);
TurnStart context is for one turn and recomputed each time. The built-ins run git
in the session's cwd (no-ops outside a repository); a shell hook adds the branch
through its plain stdout, which is context for SessionStart.

Run: python examples/git_context_at_start.py
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import anyio

from agent_hooks import (
    CommandHook,
    HookMatcher,
    HookRegistry,
    add_date,
    add_git_status,
    add_recent_commits,
)

registry = HookRegistry(
    {
        "SessionStart": [
            HookMatcher(
                hooks=[
                    add_recent_commits(3),  # git log --oneline -n 3
                    CommandHook(command='echo "Current branch: $(git branch --show-current)"'),
                ]
            )
        ],
        "TurnStart": [HookMatcher(hooks=[add_date(), add_git_status()])],
    }
)


def make_repo(root: Path) -> None:
    def git(*args: str) -> None:
        ident = ["-c", "user.name=Demo", "-c", "user.email=demo@example.com"]
        subprocess.run(["git", *ident, *args], cwd=root, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    for n, msg in enumerate(["Initial commit", "Add parser", "Fix off-by-one in parser"]):
        (root / "parser.py").write_text(f"VERSION = {n}\n")
        git("add", ".")
        git("commit", "-q", "-m", msg)
    (root / "parser.py").write_text("VERSION = 3  # work in progress\n")


async def main() -> None:
    if shutil.which("git") is None:
        print("git is not installed: the git built-ins would add nothing")
        return
    with tempfile.TemporaryDirectory(prefix="git-context-") as tmp:
        make_repo(Path(tmp))
        async with registry.session(session_id="git", cwd=tmp) as session:
            await session.start()
            print("== context kept for the whole session (SessionStart):")
            print("\n".join(session.persistent_context))
            turn = await session.turn_start()
            print("\n== context for this turn only (TurnStart):")
            print(turn.context)


if __name__ == "__main__":
    anyio.run(main)
