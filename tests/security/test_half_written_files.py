"""An empty or half-written hook file is not "no hooks" (issue 27, item 10).

A file named with ``--config`` that is empty is a load error (``config_read_failed``,
status ``unreadable``): ``run --fail-closed`` blocks, plain ``run`` says so. A file caught
while it is rewritten in place (an editor's truncate-then-write) is read again for a
bounded time before it counts as empty; one cut short is invalid. So under
``--fail-closed`` no call made while a writer keeps rewriting a file that denies is
allowed: each is denied by the complete file or blocked because it could not be read.

The writer is a thread in the test process; it paces itself, the calls do not wait for
it (nothing sleeps to synchronise). The calls made while it writes are processes of
their own (a call and the rewrite race); the others answer in this process.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import DiagnosticCode
from agent_hooks._config._load import load
from tests.cli.test_cli_run import Workspace, answer, cmd
from tests.dialect_helpers import InProcessWorkspace

CALLS = 12
"""CLI calls made at least while the writer runs (each a process of its own)."""
LOADS = 40
"""In-process loads made at least while the writer runs."""
REWRITES = 3
"""Rewrites the writer must have finished before the calls stop: the calls go on until
it has (on a loaded machine the thread may get little time), up to ``MAX_CALLS``."""
MAX_CALLS = 400

DENY = {"PreToolUse": [{"hooks": [cmd("echo 'no tools today' >&2; exit 2", name="deny")]}]}


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)


def old(path: Path) -> Path:
    """``path`` with a modification time long past (a file nobody is writing)."""
    past = time.time() - 3600
    os.utime(path, (past, past))
    return path


def denied(proc: Any) -> bool:
    return answer(proc)["hookSpecificOutput"]["permissionDecision"] == "deny"


# ------------------------------------------------------------ an empty --config


def test_an_empty_config_blocks_under_fail_closed(tmp_path: Path) -> None:
    """Before the fix: ``{}`` and exit 0, which Claude Code reads as "allow"."""
    ws = InProcessWorkspace(tmp_path)
    empty = old(ws.write("hooks.json", ""))
    proc = ws.run("--config", empty, "--fail-closed")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "config_read_failed" in proc.stderr and "the file is empty" in proc.stderr
    # without --fail-closed: no hooks, and a clear error saying why
    proc = ws.run("--config", empty)
    assert answer(proc) == {}
    assert "error config_read_failed" in proc.stderr and str(empty) in proc.stderr
    # whitespace is no more than nothing; {} is a file that configures no hooks
    assert (
        ws.run("--config", old(ws.write("blank.json", " \n\t\n")), "--fail-closed").returncode == 2
    )
    assert answer(ws.run("--config", old(ws.write("none.json", "{}")), "--fail-closed")) == {}


def test_an_empty_file_named_to_load_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b"")
    old(path)
    config = load(path, required=True)
    assert [f.status for f in config.files] == ["unreadable"]
    (diag,) = config.errors
    assert diag.code is DiagnosticCode.CONFIG_READ_FAILED and "empty" in diag.message
    # not named (found, or loaded by a program that allows it), a settled empty file
    # is still no hooks
    assert [f.status for f in load(path).files] == ["loaded"] and not load(path).errors


# ------------------------------------------------- a file rewritten in place


@contextmanager
def rewriting(path: Path, content: bytes) -> Iterator[list[int]]:
    """A thread that keeps rewriting ``path`` in place, as an editor saves: truncate, a
    pause, then ``content`` a few bytes at a time. Yields the list of rewrites done."""
    stop = threading.Event()
    done: list[int] = []
    step = max(1, len(content) // 4)

    def write() -> None:
        while not stop.is_set():
            with open(path, "r+b") as f:
                f.truncate(0)
                f.flush()
                stop.wait(0.03)  # the moment an empty file can be read
                for i in range(0, len(content), step):
                    f.write(content[i : i + step])
                    f.flush()
                    stop.wait(0.01)
            done.append(1)
            stop.wait(0.02)  # complete for a moment

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    try:
        yield done
    finally:
        stop.set()
        thread.join(timeout=10)
        assert not thread.is_alive()


def calls(least: int, done: list[int]) -> Iterator[int]:
    """Numbers for at least ``least`` calls, and more until the writer has finished
    ``REWRITES`` rewrites (what the tests need to have happened, instead of a pace)."""
    for i in range(MAX_CALLS):
        if i >= least and len(done) >= REWRITES:
            return
        yield i
    raise AssertionError(f"the writer finished {len(done)} rewrites in {MAX_CALLS} calls")


def test_a_config_rewritten_in_place_never_allows_under_fail_closed(ws: Workspace) -> None:
    """Before the fix an empty moment of the file answered ``{}`` (allow)."""
    content = json.dumps({"hooks": DENY}).encode()
    path = ws.write("hooks.json", content.decode())
    assert denied(InProcessWorkspace(ws.tmp).run("--config", path, "--fail-closed"))
    outcomes = []
    with rewriting(path, content) as done:
        for _ in calls(CALLS, done):
            proc = ws.run("--config", path, "--fail-closed")
            outcomes.append(
                "blocked" if proc.returncode == 2 else "denied" if denied(proc) else "allowed"
            )
    assert "allowed" not in outcomes, outcomes


def test_a_discovered_settings_file_rewritten_in_place_never_allows(ws: Workspace) -> None:
    """The project's trusted ``.claude/settings.json``, caught mid-save."""
    settings = ws.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    content = json.dumps({"permissions": {"allow": ["Bash(ls)"]}, "hooks": DENY}).encode()
    settings.write_bytes(content)
    args = ("--discover", "--project-dir", ws.project, "--trust-project-hooks", "--fail-closed")
    assert denied(InProcessWorkspace(ws.tmp).run(*args))
    outcomes = []
    with rewriting(settings, content) as done:
        for _ in calls(CALLS, done):
            proc = ws.run(*args)
            outcomes.append(
                "blocked" if proc.returncode == 2 else "denied" if denied(proc) else "allowed"
            )
    assert "allowed" not in outcomes, outcomes


def test_loading_a_file_being_rewritten_finds_its_hooks_or_says_it_could_not(
    tmp_path: Path,
) -> None:
    """Through the Python API: every load while the writer runs has the file's one hook,
    or a ``config_read_failed`` error; none is a silent "no hooks"."""
    path = tmp_path / "settings.json"
    content = json.dumps({"hooks": DENY}).encode()
    path.write_bytes(content)
    seen = []
    with rewriting(path, content) as done:
        for _ in calls(LOADS, done):
            config = load(path)
            (file,) = config.files
            if file.status == "loaded":
                assert file.handlers == 1, config.diagnostics
                seen.append("hooks")
            else:
                assert file.status in ("unreadable", "invalid")
                assert DiagnosticCode.CONFIG_READ_FAILED in {d.code for d in config.errors}
                seen.append(file.status)
    assert "hooks" in seen  # (the rewrites are caught complete, most of the time)
