"""Write a file the user owns without following links planted beside it, without
changing its mode or owner, and without losing a concurrent writer's change.

* :func:`real_target` is where an edit goes: a symlinked settings file (dotfiles) is
  edited at its target, so the link stays a link.
* :func:`locked` holds an exclusive ``fcntl.flock`` on a lock file in the user's state
  directory (:func:`state_directory`, ``$XDG_STATE_HOME/agent_hooks/install``, 0700,
  refused when it is a link, not the user's or writable by others), named by a hash of
  the target's real path (:func:`lock_name`) and opened with ``O_NOFOLLOW``: nothing is
  written beside the target. The lock file also keeps a short note of what install
  found (that it created the file, or that the file was empty), so that uninstall can
  undo exactly that; it is removed when there is nothing to note. A lock file of
  earlier versions beside the target (``.<name>.agent-hooks.lock``) is read, never
  followed (:attr:`Lock.legacy_note`), so that its note can be carried over.
* :func:`write_atomic` writes a temporary file created exclusively (``mkstemp``:
  ``O_CREAT | O_EXCL``, a random name) in the target's directory, gives it the
  target's mode and owner, fsyncs it and renames it over the target.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from ..._base._files import replace_file, state_home, sync_directory

__all__ = [
    "Lock",
    "UnsafeTarget",
    "lock_name",
    "locked",
    "real_target",
    "remove_file",
    "state_directory",
    "write_atomic",
]


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
    """The held lock of :func:`locked`; ``note`` is what the lock file holds,
    ``legacy_note`` what a lock file of earlier versions beside the target holds
    (``""``: none)."""

    def __init__(self, fd: int, path: Path, legacy: Path) -> None:
        self._fd = fd
        self.path = path
        self.legacy = legacy
        self.note = _read_all(fd)
        self.legacy_note = _read_legacy(legacy)

    def set_note(self, note: str) -> None:
        """Replace what the lock file holds (``""``: the lock file is removed when the
        lock is released)."""
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.ftruncate(self._fd, 0)
        os.write(self._fd, note.encode())
        os.fsync(self._fd)
        self.note = note

    def drop_legacy(self) -> None:
        """Remove the lock file of earlier versions beside the target (once its note is
        carried over)."""
        with contextlib.suppress(FileNotFoundError):
            self.legacy.unlink()
        self.legacy_note = ""


def _read_all(fd: int) -> str:
    data = b""
    while chunk := os.read(fd, 65536):
        data += chunk
    return data.decode("utf-8", "replace")


def _read_legacy(path: Path) -> str:
    # (a name a repository can ship: never followed, never anything but a small file)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return ""
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 65536:
            return ""
        return _read_all(fd)
    except OSError:
        return ""
    finally:
        os.close(fd)


def state_directory() -> Path:
    """Where install keeps its lock files and notes:
    ``$XDG_STATE_HOME/agent_hooks/install`` (an absolute ``XDG_STATE_HOME``), else
    ``~/.local/state/agent_hooks/install``. Not created here."""
    try:
        return Path(state_home(), "agent_hooks", "install")
    except RuntimeError:
        raise UnsafeTarget(
            "cannot tell where install keeps its notes: set HOME or XDG_STATE_HOME"
        ) from None


def _open_state_directory() -> tuple[int, Path]:
    """An open descriptor of :func:`state_directory`, created (0700) if missing.

    Raises:
        UnsafeTarget: the state directory cannot be created or opened, or
            ``agent_hooks`` or ``install`` there is a link, not a directory, not the
            user's, or writable by others.
    """
    path = state_directory()
    base = path.parent.parent
    directory = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(base, directory)
    except OSError as exc:
        raise UnsafeTarget(
            f"cannot use {base} for install's notes: {exc.strerror or exc}"
        ) from None
    where = base
    try:
        for name in (path.parent.name, path.name):
            where = where / name
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, 0o700, dir_fd=fd)
            try:
                child = os.open(name, directory | getattr(os, "O_NOFOLLOW", 0), dir_fd=fd)
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                    raise
                # (Linux answers ENOTDIR for a link opened O_DIRECTORY | O_NOFOLLOW)
                if stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                    raise UnsafeTarget(
                        f"{where} is a link; install keeps its notes there and follows no "
                        "link: remove it"
                    ) from None
                raise UnsafeTarget(f"{where} is not a directory; remove it") from None
            os.close(fd)
            fd = child
            st = os.fstat(fd)
            if st.st_uid != os.getuid():
                raise UnsafeTarget(
                    f"{where} belongs to uid {st.st_uid}, not to you; install keeps its "
                    "notes only in a directory of yours"
                )
            if st.st_mode & 0o022:
                raise UnsafeTarget(
                    f"{where} is writable by others; install keeps its notes only in a "
                    f"directory only you can write (chmod 700 {where})"
                )
    except BaseException:
        os.close(fd)
        raise
    return fd, path


def lock_name(target: Path) -> str:
    """The name of ``target``'s lock file in :func:`state_directory`: a hash of its
    resolved real path."""
    real = os.path.realpath(target)
    return hashlib.sha256(os.fsencode(real)).hexdigest()[:32] + ".lock"


@contextlib.contextmanager
def locked(target: Path) -> Iterator[Lock]:
    """Hold an exclusive lock for editing ``target`` (a file named by
    :func:`lock_name` in :func:`state_directory`; ``target``'s directory is created
    if missing). Nothing is written beside ``target``.

    Raises:
        UnsafeTarget: the state directory is unsafe (see :func:`_open_state_directory`),
            or the lock file's name is a link (or not a regular file).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    dfd, directory = _open_state_directory()
    try:
        name = lock_name(target)
        path = directory / name
        fd = _lock(dfd, name, path)
        lock = Lock(fd, path, target.with_name(f".{target.name}.agent-hooks.lock"))
        try:
            yield lock
        finally:
            try:
                if not lock.note:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(name, dir_fd=dfd)
            finally:
                os.close(fd)
    finally:
        os.close(dfd)


def _lock(dfd: int, name: str, path: Path) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        try:
            fd = os.open(name, flags, 0o600, dir_fd=dfd)
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
                now: os.stat_result | None = os.stat(name, dir_fd=dfd, follow_symlinks=False)
            except FileNotFoundError:
                now = None
            # (another process removed the lock file while we waited: lock the new one)
            if now is not None and (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


def write_atomic(target: Path, data: bytes) -> None:
    """Make ``target`` hold ``data`` (:func:`~agent_hooks._base._files.replace_file`: a new
    file in its directory, never a link followed), with the mode and owner ``target`` had
    (a new one: 0666 less the umask).

    Raises:
        UnsafeTarget: the owner of ``target`` cannot be kept.
        OSError: the directory cannot be written.
    """
    try:
        old: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        old = None

    def keep_mode_and_owner(fd: int) -> None:
        if old is None:
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(fd, 0o666 & ~mask)
            return
        os.fchmod(fd, stat.S_IMODE(old.st_mode))
        mine = os.fstat(fd)
        if (mine.st_uid, mine.st_gid) != (old.st_uid, old.st_gid):
            try:
                os.fchown(fd, old.st_uid, old.st_gid)
            except PermissionError:
                raise UnsafeTarget(
                    f"{target} belongs to uid {old.st_uid}; writing it would change its owner"
                ) from None

    replace_file(target, data, keep_mode_and_owner)


def remove_file(target: Path) -> None:
    """Remove ``target`` (a file install created), durably."""
    target.unlink(missing_ok=True)
    sync_directory(target.parent)


