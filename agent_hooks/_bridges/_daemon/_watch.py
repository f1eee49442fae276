"""What a worker's configuration was loaded from, and whether any of it has changed
since: the check that lets a worker skip the per-call reload (docs/bridges.md, "When a
worker loads the configuration again").

While a load runs, :func:`recording` notes every path the process opens or lists (the
interpreter's ``open``, ``os.listdir`` and ``os.scandir`` audit events: the hook files,
the trust store, the modules imported for Python callbacks), plus the paths the caller
names (the trust store and the ``--config`` files, even when absent). A
:class:`Stamps` then holds, for each of those paths (as written and with links
resolved): its identity and stat ``(st_dev, st_ino, st_size, st_mtime_ns,
st_ctime_ns)`` followed and not (``None`` for a path that does not exist), the same of
its directory, and for every directory above it the entry on the way down (a symlink
by its whole stat, anything else by device, inode and type) and which project markers
(``.git``, ``.claude/``, ...) it holds.

Why a change cannot be missed:

* a file edited in place, truncated, chmod-ed or replaced (rename, a new inode) changes
  its size, its inode or its change time (``st_ctime_ns``, which every write and every
  change of the inode sets to the current time and which no process can set back);
* a file that appears or goes beside a consulted one (one the load looked for and did
  not find, or a listed directory's entry) changes that directory's times;
* a path that appears where the load found nothing, at any depth, creates an entry in
  a directory above it on the way down, whose entry then reads differently; a
  directory or symlink on the way renamed, replaced or retargeted likewise;
* a project marker that appears or goes above a file (which decides which project the
  file belongs to, so whether it needs trust) is read directly;
* the stamps are taken *after* the load and kept only when every one of their times is
  older than the start of the load by more than :data:`SETTLE` seconds: a change made
  while the load ran, or just before it, within the filesystem's timestamp granularity
  (a same-size rewrite in the same clock tick leaves size and times equal), never gets
  stamped as "seen"; such a load is simply not kept, and the next call loads again.
  Any later change sets a change time at least that recent, so it differs.

Other files created in directories further up (a home directory written to all day)
do not count: they cannot change what the load read.

What remains: a clock set backwards by more than :data:`SETTLE`, and filesystems whose
times are not the local clock's (some network filesystems): there a change can look
older than it is. A load whose paths could not all be named (a path opened through a
descriptor) is never kept.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any

from ..._config._common import PROJECT_MARKERS

__all__ = ["SETTLE", "Stamps", "recording"]

SETTLE = 2.0
"""Seconds: a load is kept only when everything it read is at least this much older
than the load's start (see the module's docstring)."""

_EVENTS = frozenset({"open", "os.listdir", "os.scandir"})
_recorders: list[set[str | None]] = []
_hooked = False


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event not in _EVENTS or not _recorders:
        return
    path = args[0] if args else None
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    # (a relative path may be relative to a directory descriptor the event does not
    # name, and a descriptor names no path: either way the load cannot be kept)
    name = path if isinstance(path, str) and os.path.isabs(path) else None
    for recorder in _recorders:
        recorder.add(name)


@contextlib.contextmanager
def recording() -> Iterator[set[str | None]]:
    """The paths this process opens or lists while the block runs (``None`` among them
    for one opened through a descriptor or by a relative path). The audit hook is installed on first use and
    stays, idle, for the process's life (a worker's)."""
    global _hooked
    if not _hooked:
        sys.addaudithook(_audit)
        _hooked = True
    seen: set[str | None] = set()
    _recorders.append(seen)
    try:
        yield seen
    finally:
        _recorders.remove(seen)


Stamp = tuple[int, ...] | None


def _stat(path: str, follow: bool = True) -> Stamp:
    """The identity and stat of ``path``; ``None`` when absent (or unreadable)."""
    try:
        st = os.stat(path, follow_symlinks=follow)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _node(path: str) -> Stamp:
    """What a directory above a consulted path holds on the way to it: a symlink by its
    whole stat (retargeting one makes a new one), anything else by its identity and
    type; ``None`` when absent."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    return (st.st_dev, st.st_ino, stat.S_IFMT(st.st_mode))


def _marks(directory: str) -> Stamp:
    """Which project markers a directory holds (``.git`` of any kind, the others as
    directories), as the load's search for a file's project reads them."""
    return tuple(_mark(os.path.join(directory, m), m == ".git") for m in PROJECT_MARKERS)


def _mark(path: str, any_kind: bool) -> int:
    try:
        st = os.stat(path, follow_symlinks=not any_kind)
    except OSError:
        return 0
    return 1 if any_kind or stat.S_ISDIR(st.st_mode) else 0


_PROBES: dict[str, Any] = {
    "stat": _stat,
    "lstat": lambda p: _stat(p, follow=False),
    "node": _node,
    "marks": _marks,
}
"""How each kind of probe reads a path (see :meth:`Stamps.taken`)."""


def _probes(paths: Iterable[str]) -> set[tuple[str, str]]:
    """What to watch for consulted ``paths`` (as written and resolved): each path's stat
    and lstat, its directory's whole stat (a file beside it that appears or goes, such
    as one the load looked for and did not find), and for every directory above it
    the entry on the way down and its project markers."""
    out: set[tuple[str, str]] = set()
    for path in paths:
        for p in {os.path.abspath(path), os.path.realpath(path)}:
            out |= {("stat", p), ("lstat", p), ("stat", os.path.dirname(p))}
            while True:
                parent = os.path.dirname(p)
                if parent == p:
                    break
                out |= {("node", p), ("marks", parent)}
                p = parent
    return out


class Stamps:
    """The probes of a load's paths and the directories above them, taken after the
    load; :meth:`unchanged` says whether they all read the same."""

    def __init__(self, stamps: dict[tuple[str, str], Stamp]) -> None:
        self._stamps = stamps

    @classmethod
    def taken(cls, paths: Iterable[str | None], started_ns: int) -> Stamps | None:
        """The stamps of ``paths`` (recorded by a load that started at ``started_ns``,
        :func:`time.time_ns`), or ``None`` when the load must not be kept: a path was
        opened through a descriptor, or something it read changed within
        :data:`SETTLE` seconds of its start, or after it."""
        paths = set(paths)
        if None in paths:
            return None
        limit = started_ns - int(SETTLE * 1e9)
        stamps = {
            probe: _PROBES[probe[0]](probe[1]) for probe in _probes(p for p in paths if p is not None)
        }
        for (kind, _), stamp in stamps.items():
            if kind in ("stat", "lstat") and stamp is not None and max(stamp[3:5]) >= limit:
                return None
        return cls(stamps)

    def unchanged(self) -> bool:
        """Every probe reads as it did (an absent path is still absent)."""
        return all(_PROBES[kind](path) == s for (kind, path), s in self._stamps.items())


def now_ns() -> int:
    """The wall clock, as file times are set (:func:`time.time_ns`)."""
    return time.time_ns()
