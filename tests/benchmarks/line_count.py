"""Lines of the package's Python source (``agent_hooks/**/*.py``), now and at a revision.

Run from anywhere inside the repository::

    .venv/bin/python tests/benchmarks/line_count.py                # working tree vs aab1ba5
    .venv/bin/python tests/benchmarks/line_count.py --rev HEAD~3

The working tree is read from disk (every ``*.py`` under ``agent_hooks/``, tracked or
not); a revision is read from git only (``git ls-tree -r --name-only REV agent_hooks``,
then ``git show REV:path`` per file): nothing is checked out, no git state changes.
A line is what ``str.splitlines`` counts (blank lines and comments included).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

BEFORE = "aab1ba5"
"""The revision before the dispatch rewrite (issue #13)."""

PACKAGE = "agent_hooks"


def repo_root() -> Path:
    out = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"],
        cwd=Path(__file__).resolve().parent,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return Path(out.strip())


def count_text(data: bytes) -> int:
    return len(data.decode("utf-8", errors="replace").splitlines())


def working_tree(root: Path) -> tuple[int, int]:
    """(files, lines) of ``agent_hooks/**/*.py`` on disk."""
    files = sorted(p for p in (root / PACKAGE).rglob("*.py") if p.is_file())
    return len(files), sum(count_text(p.read_bytes()) for p in files)


def at_revision(root: Path, rev: str) -> tuple[int, int]:
    """(files, lines) of ``agent_hooks/**/*.py`` at ``rev``, read with git only."""
    listing = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", rev, PACKAGE],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    paths = [p for p in listing.splitlines() if p.endswith(".py")]
    lines = 0
    for path in paths:
        data = subprocess.run(
            ["git", "show", f"{rev}:{path}"], cwd=root, check=True, capture_output=True
        ).stdout
        lines += count_text(data)
    return len(paths), lines


def report(rev: str = BEFORE) -> str:
    root = repo_root()
    before_files, before = at_revision(root, rev)
    now_files, now = working_tree(root)
    change = now - before
    pct = f" ({change / before:+.1%})" if before else ""
    return (
        f"{PACKAGE}/**/*.py lines: {rev}: {before} ({before_files} files); "
        f"working tree: {now} ({now_files} files); change {change:+d}{pct}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default=BEFORE, help=f"the 'before' revision (default {BEFORE})")
    args = parser.parse_args(argv)
    print(report(args.rev))
    return 0


if __name__ == "__main__":
    sys.exit(main())
