"""Write a file the user owns without following links planted beside it, without
changing its mode or owner, and without losing a concurrent writer's change.

* :func:`real_target` is where an edit goes: a symlinked settings file (dotfiles) is
  edited at its target, so the link stays a link.
* :func:`locked` holds an exclusive ``fcntl.flock`` on a lock file beside the target
  (opened with ``O_NOFOLLOW``; a planted link there is refused). The lock file also
  keeps a short note of what install found (that it created the file, or that the file
  was empty), so that uninstall can undo exactly that; it is removed when there is
  nothing to note.
* :func:`write_atomic` writes a temporary file created exclusively (``mkstemp``:
  ``O_CREAT | O_EXCL``, a random name) in the target's directory, gives it the
  target's mode and owner, fsyncs it and renames it over the target.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["Lock", "UnsafeTarget", "locked", "real_target", "remove_file", "write_atomic"]


class UnsafeTarget(OSError):
    """The file cannot be written safely (a link where a lock file goes, an owner that
    cannot be kept, a link that leaves the directory it must stay in)."""


def real_target(path: Path, *, inside: Path | None = None) -> Path:
    """Where writing ``path`` goes: the file a symlink (chain) at ``path`` ends at, or
    ``path`` itself.

    Raises:
        UnsafeTarget: ``inside`` is given and the link (of the file or of a directory on
            its way) ends outside that directory (a
            repository's file that links to a file of the user's).
    """
    if not path.is_symlink() and inside is None:
        return path
    real = Path(os.path.realpath(path))
    # (a linked directory on the way counts too: a repository's `.claude` -> elsewhere)
    if inside is not None:
        root = Path(os.path.realpath(inside))
        if root != real and root not in real.parents:
            raise UnsafeTarget(
                f"{path} leads to {real}, outside {os.path.abspath(inside)}: a project's file "
                "must not edit a file elsewhere"
            )
    return real


class Lock:
    """The held lock of :func:`locked`; ``note`` is what the lock file holds."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd = fd
        self.path = path
        data = b""
        while chunk := os.read(fd, 65536):
            data += chunk
        self.note = data.decode("utf-8", "replace")

    def set_note(self, note: str) -> None:
        """Replace what the lock file holds (``""``: the lock file is removed when the
        lock is released)."""
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.ftruncate(self._fd, 0)
        os.write(self._fd, note.encode())
        os.fsync(self._fd)
        self.note = note


@contextlib.contextmanager
def locked(target: Path) -> Iterator[Lock]:
    """Hold an exclusive lock for editing ``target`` (a file named
    ``.<name>.agent-hooks.lock`` beside it; the directory is created if missing).

    Raises:
        UnsafeTarget: the lock file's name is a link (or not a regular file).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    path = target.with_name(f".{target.name}.agent-hooks.lock")
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        try:
            fd = os.open(path, flags, 0o600)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise UnsafeTarget(f"{path} is a link; remove it") from None
            raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise UnsafeTarget(f"{path} is not a regular file")
            try:
                now = os.lstat(path)
            except FileNotFoundError:
                now = None
            # (another process removed the lock file while we waited: lock the new one)
            if now is not None and (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    lock = Lock(fd, path)
    try:
        yield lock
    finally:
        try:
            if not lock.note:
                path.unlink(missing_ok=True)
        finally:
            os.close(fd)


def write_atomic(target: Path, data: bytes) -> None:
    """Make ``target`` hold ``data``: a new file in its directory (never a link
    followed), with the mode and owner ``target`` had (a new one: 0666 less the umask),
    fsynced, then renamed over ``target``.

    Raises:
        UnsafeTarget: the owner of ``target`` cannot be kept.
        OSError: the directory cannot be written.
    """
    try:
        old: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        old = None
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if old is not None:
            os.fchmod(fd, stat.S_IMODE(old.st_mode))
            mine = os.fstat(fd)
            if (mine.st_uid, mine.st_gid) != (old.st_uid, old.st_gid):
                try:
                    os.fchown(fd, old.st_uid, old.st_gid)
                except PermissionError:
                    raise UnsafeTarget(
                        f"{target} belongs to uid {old.st_uid}; writing it would change its "
                        "owner"
                    ) from None
        else:
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(fd, 0o666 & ~mask)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _sync_dir(target.parent)


def remove_file(target: Path) -> None:
    """Remove ``target`` (a file install created), durably."""
    target.unlink(missing_ok=True)
    _sync_dir(target.parent)


def _sync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
