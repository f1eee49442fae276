"""The check that lets a resident worker skip reloading its configuration
(``agent_hooks._bridges._daemon._watch``): every path a load opened or named, absent
ones too, and every directory above them, keeps its identity and stat, or the load is
done again. A load whose files changed around its start is never kept."""

from __future__ import annotations

import os
import time
from pathlib import Path

from agent_hooks._bridges._daemon._watch import SETTLE, Stamps, recording

LATER = time.time_ns() + 3600 * 10**9
"""A load "started" an hour from now: the files these tests just made count as settled."""


def _next_tick(tmp_path: Path) -> None:
    """Return once the filesystem's clock has moved past the times of what the test
    made (they are set from a coarse clock: a change in the same tick would carry the
    same times, which is what a real load guards against with ``SETTLE``)."""
    probe = tmp_path / "tick"
    probe.touch()
    first = probe.stat().st_ctime_ns
    while probe.stat().st_ctime_ns == first:
        os.utime(probe)


def _stamped(tmp_path: Path, *extra: Path) -> tuple[Stamps, Path]:
    hooks = tmp_path / "project" / ".claude" / "hooks.json"
    hooks.parent.mkdir(parents=True)
    hooks.write_text('{"hooks": {}}')
    with recording() as seen:
        hooks.read_bytes()
    assert str(hooks) in seen
    _next_tick(tmp_path)
    stamps = Stamps.taken([*seen, *map(str, extra)], LATER)
    assert stamps is not None and stamps.unchanged()
    return stamps, hooks


def test_a_same_size_rewrite_is_a_change(tmp_path: Path) -> None:
    stamps, hooks = _stamped(tmp_path)
    hooks.write_text('{"hooks": []}')  # (the same size: the change time moved)
    assert not stamps.unchanged()


def test_a_replaced_file_is_a_change(tmp_path: Path) -> None:
    stamps, hooks = _stamped(tmp_path)
    new = hooks.with_name("new.json")
    new.write_text(hooks.read_text())
    os.replace(new, hooks)
    assert not stamps.unchanged()


def test_a_file_that_appears_where_the_load_looked_is_a_change(tmp_path: Path) -> None:
    store = tmp_path / "state" / "agent_hooks" / "trust.json"
    stamps, _ = _stamped(tmp_path, store)
    store.parent.mkdir(parents=True)
    assert not stamps.unchanged()


def test_a_project_marker_above_a_file_is_a_change(tmp_path: Path) -> None:
    stamps, _ = _stamped(tmp_path)
    (tmp_path / "project" / ".git").mkdir()
    assert not stamps.unchanged()


def test_nothing_changed_is_unchanged(tmp_path: Path) -> None:
    stamps, hooks = _stamped(tmp_path)
    hooks.read_bytes()
    os.stat(hooks)
    assert stamps.unchanged()


def test_a_load_of_files_changed_around_its_start_is_not_kept(tmp_path: Path) -> None:
    hooks = tmp_path / "hooks.json"
    hooks.write_text("{}")
    just_now = time.time_ns() - int(SETTLE * 1e9) // 2
    assert Stamps.taken([str(hooks)], just_now) is None
    assert Stamps.taken([str(hooks), None], LATER) is None  # (opened through a descriptor)


def test_a_new_file_elsewhere_above_is_no_change(tmp_path: Path) -> None:
    """A directory further up written to all day (a home directory) does not make
    every call load again: only its entry on the way down and its markers count."""
    stamps, _ = _stamped(tmp_path)
    (tmp_path / "notes.txt").write_text("unrelated")
    (tmp_path / "project" / "README").write_text("unrelated")
    assert stamps.unchanged()
