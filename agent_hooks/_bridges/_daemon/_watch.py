"""What a worker's configuration was loaded from, and whether any of it has changed
since: the check that lets a worker skip the per-call reload (docs/bridges.md, "When a
worker loads the configuration again").

While a load runs, :func:`recording` notes every path the process opens or lists (the
interpreter's ``open``, ``os.listdir`` and ``os.scandir`` audit events: the hook files,
the trust store, the modules imported for Python callbacks), plus the paths the caller
names (the trust store and the ``--config`` files, even when absent). A
:class:`Stamps` then holds, for each of those paths *and every directory above it*,
its identity and stat: ``(st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns)``, or
``None`` for a path that does not exist.

Why a change cannot be missed:

* a file edited in place, truncated, chmod-ed or replaced (rename, a new inode) changes
  its size, its inode or its change time (``st_ctime_ns``, which every write and every
  change of the inode sets to the current time and which no process can set back);
* a file or directory created, removed or renamed anywhere below a watched directory
  changes that directory's modification and change times, and every path the load
  consulted, absent or present, has its directories watched: a hook file that appears,
  a project marker (``.git``, ``.claude/``) that appears above a file (which can change
  which project the file belongs to, so whether it needs trust), a symlink retargeted;
* the stamps are taken *after* the load and kept only when every one of their times is
  older than the start of the load by more than :data:`SETTLE` seconds: a change made
  while the load ran, or just before it, within the filesystem's timestamp granularity
  (a same-size rewrite in the same clock tick leaves size and times equal), never gets
  stamped as "seen"; such a load is simply not kept, and the next call loads again.
  Any later change sets a change time at least that recent, so it differs.

What remains: a clock set backwards by more than :data:`SETTLE`, and filesystems whose
times are not the local clock's (some network filesystems): there a change can look
older than it is. A load whose paths could not all be named (a path opened through a
descriptor) is never kept.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterable, Iterator

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
    name: str | None = None
    if isinstance(path, str):
        name = path if os.path.isabs(path) else os.path.join(os.getcwd(), path)
    elif path is None and event != "open":
        name = os.getcwd()  # (os.listdir() / os.scandir() list the working directory)
    for recorder in _recorders:
        recorder.add(name)  # (None: a descriptor; the load cannot be kept)


@contextlib.contextmanager
def recording() -> Iterator[set[str | None]]:
    """The paths this process opens or lists while the block runs (``None`` among them
    for one opened through a descriptor). The audit hook is installed on first use and
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


Stamp = tuple[int, int, int, int, int] | None


def _stamp(path: str) -> Stamp:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _with_directories(paths: Iterable[str]) -> set[str]:
    """``paths``, their real paths, and every directory above each."""
    out: set[str] = set()
    for path in paths:
        for p in {os.path.abspath(path), os.path.realpath(path)}:
            while p not in out:
                out.add(p)
                parent = os.path.dirname(p)
                if parent == p:
                    break
                p = parent
    return out


class Stamps:
    """The identity and stat of a load's paths and their directories, taken after the
    load; :meth:`unchanged` says whether they are all still the same."""

    def __init__(self, stamps: dict[str, Stamp]) -> None:
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
        named = [p for p in paths if p is not None]
        limit = started_ns - int(SETTLE * 1e9)
        stamps = {p: _stamp(p) for p in _with_directories(named)}
        for stamp in stamps.values():
            if stamp is not None and (stamp[3] >= limit or stamp[4] >= limit):
                return None
        return cls(stamps)

    def unchanged(self) -> bool:
        """Every path has the identity and stat it had (an absent one is still absent)."""
        return all(_stamp(p) == s for p, s in self._stamps.items())


def now_ns() -> int:
    """The wall clock, as file times are set (:func:`time.time_ns`)."""
    return time.time_ns()
