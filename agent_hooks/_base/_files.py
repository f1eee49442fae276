"""Files the package writes for the user: where its state lives, and replacing a file
whole (the trust store, the hook files ``agent-hooks install`` edits)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

__all__ = ["replace_file", "state_home", "sync_directory", "within"]


def within(path: str, directory: str) -> bool:
    """``path`` is ``directory`` or lies below it, the two compared as they are written
    (absolute, no link resolved). The callers choose which forms to pair, and differ on
    purpose: the loaders pair as-written with as-written and resolved with resolved (a
    link inside a project is that project's file, ``_config._common._under``); doctor
    pairs every form with every form (a command reached through a link either way is
    the repository's, ``_bridges._cli._doctor._inside``)."""
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def state_home() -> str:
    """``$XDG_STATE_HOME`` when it is absolute, else ``~/.local/state``: where the trust
    store and install's notes live.

    Raises:
        RuntimeError: as ``Path.home()`` does, when the home directory is needed and
            cannot be determined.
    """
    state = os.environ.get("XDG_STATE_HOME", "")
    if state and os.path.isabs(state):
        return state
    home = os.path.expanduser("~")
    if home[:1] == "~":
        raise RuntimeError("Could not determine home directory.")
    return os.path.join(home, ".local", "state")


def replace_file(
    target: str | os.PathLike[str], data: bytes, prepare: Callable[[int], None]
) -> None:
    """Make ``target`` hold ``data``, atomically and durably: a temporary file created
    exclusively in its directory (``mkstemp``: ``O_CREAT | O_EXCL``, a random name, so a
    link planted beside the target is never followed), ``prepare(fd)`` on it (its mode
    and owner), written, fsynced, renamed over ``target``; then the directory fsynced. On
    any failure the temporary file is removed and ``target`` is as it was.

    Raises:
        OSError: the directory cannot be written; or whatever ``prepare`` raises.
    """
    import tempfile

    path = os.fspath(target)
    directory, name = os.path.split(path)
    fd, tmp = tempfile.mkstemp(dir=directory or ".", prefix=f".{name}.", suffix=".tmp")
    try:
        prepare(fd)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    sync_directory(directory or ".")


def sync_directory(directory: str | os.PathLike[str]) -> None:
    """fsync a directory (a rename or removal in it made durable); best effort."""
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
