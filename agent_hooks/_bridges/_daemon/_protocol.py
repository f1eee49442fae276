"""Where the resident server listens and how its clients talk to it (standard library
only: the client imports this before anything heavy).

One server per user, interpreter and package version. Each call carries its whole
environment; the server hands it to the worker of its project and *loading
environment* (the variables that decide which files load and how: the harness rows'
and :data:`BASE_LOADING_ENV`, :mod:`._routing`), and the worker runs it with that
environment, so a server loads exactly what an in-process ``run`` of its clients
would. Inside a worker, each configuration (the ``run`` options and the project) has
its own registry and sessions.

The socket lives in a private directory (mode 0700, owned by the user, checked before
use): ``$XDG_RUNTIME_DIR/agent-hooks`` when that is set and the user's, else
``<tempdir>/agent-hooks-<uid>``. Files in it, per server key: ``<key>.sock`` (the
socket, mode 0600), ``<key>.lock`` (held by the live server), ``<key>.spawn`` (held
while a server starts, so that concurrent first calls start one).

Frames: one kind byte, the lengths of a header and of a binary body (4 bytes each,
big-endian), the header (strings joined by NUL, UTF-8 with ``surrogateescape``: a
command line, a path and an environment hold no NUL, and bytes that are not UTF-8
come back as they went), the body. A client sends ``Q`` (``run``: header the version,
the working directory, the number of arguments, the arguments, then the environment
as name, value, name, value...; body: the payload), ``T`` (status) or ``S`` (stop);
the server answers ``A`` (accepted: its pid), ``H`` (heartbeats while it works), then
``R`` (header the exit status and the byte length of the body's stdout part; body:
stdout then stderr), or ``V`` (another version: the server stops; the client answers
in-process), ``T`` (status: one JSON text) or ``E`` (refused: why). The client's hot
path needs neither ``json`` nor ``re``.
"""

from __future__ import annotations

import errno
import os
import stat
import struct
import sys
import zlib

TYPE_CHECKING = False  # (not typing's: this module must not import typing)
if TYPE_CHECKING:
    import socket
    from collections.abc import Callable, Mapping, Sequence

__all__ = [
    "DISABLE_ENV",
    "HEARTBEAT",
    "IDLE_ENV",
    "BASE_LOADING_ENV",
    "MAX_BODY",
    "MAX_HEADER",
    "WAIT_ENV",
    "FrameError",
    "Gone",
    "Place",
    "Refused",
    "answer_of",
    "event_of",
    "log_path",
    "pack",
    "peer_uid",
    "private_dir",
    "read_frame",
    "request_fifo",
    "server_key",
    "server_paths",
    "wants_server",
]

BASE_LOADING_ENV = (
    "HOME",
    "USERPROFILE",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "XDG_DATA_HOME",
    "PYTHONPATH",
    "VIRTUAL_ENV",
)
"""Variables every load reads, whatever the harness: the home, configuration and state
directories (the trust store, user files) and the module path of Python callbacks. With
the variables the harness rows declare (``_config._harness.loading_env()``) they decide
which worker a call goes to (:mod:`._routing`)."""

DISABLE_ENV = "AGENT_HOOKS_NO_DAEMON"
"""Set to ``1`` (or ``true``, ``yes``) to keep ``agent-hooks run`` in-process."""
IDLE_ENV = "AGENT_HOOKS_DAEMON_IDLE"
"""Seconds a resident server waits without a request before it exits (default 300)."""
WAIT_ENV = "AGENT_HOOKS_DAEMON_WAIT"
"""Seconds a first call waits for the server it started, to be answered by it, before
answering in-process (default 0: answer at once). For tests and batch jobs that want
every call answered by the server."""

HEARTBEAT = 0.5
"""Seconds between the server's heartbeats while it answers a request."""
MAX_HEADER = 4 * 1024 * 1024
"""The largest frame header (a request's argv, cwd and environment)."""
MAX_BODY = 64 * 1024 * 1024
"""The largest frame body (a payload; an answer's stdout and stderr)."""

_HEAD = struct.Struct(">cII")


class FrameError(Exception):
    """A frame that is cut short, too large or not well-formed."""


class Gone(Exception):
    """The server took a request, then died or fell silent (the call's hooks may have
    run there)."""


class Refused(Exception):
    """What is at the socket, or the directory it is in, is not this user's own: nothing
    was sent and no server is started."""


class Place:
    """The socket directory, opened (without following a symlink) and checked; the
    socket, the locks and the server's address are reached through the open directory,
    so a directory renamed or swapped after the check is not followed."""

    def __init__(self, directory: str, key: str) -> None:
        """Raises:
        Refused: a symlink, not a directory, another owner, group or other access."""
        self.directory = directory
        self.key = key
        self.sock_name, self.lock_name, self.spawn_name = (
            os.path.basename(p) for p in server_paths(directory, key)
        )
        self.sock_path = os.path.join(directory, self.sock_name)
        self.fifo_name = os.path.basename(request_fifo(directory, key))
        flags = os.O_RDONLY | os.O_CLOEXEC
        flags |= getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
        try:
            self.fd = os.open(directory, flags)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                raise Refused(
                    f"the socket directory {directory} is a symbolic link or not a "
                    "directory; answered in-process"
                ) from None
            raise Refused(
                f"the socket directory {directory} cannot be opened ({exc.strerror}); "
                "answered in-process"
            ) from None
        try:
            st = os.fstat(self.fd)
            problem = None
            if not stat.S_ISDIR(st.st_mode):
                problem = "is not a directory"
            elif st.st_uid != os.geteuid():
                problem = f"belongs to uid {st.st_uid}, not to this user (uid {os.geteuid()})"
            elif st.st_mode & 0o077:
                problem = f"can be reached by group or others (mode {stat.S_IMODE(st.st_mode):04o})"
            if problem is not None:
                raise Refused(f"the socket directory {directory} {problem}; answered in-process")
        except BaseException:
            os.close(self.fd)
            raise
        # (Linux: connect through the open directory; elsewhere by path, where the
        # owner checks of the socket and of its listener still hold)
        through = f"/proc/self/fd/{self.fd}"
        self.address = f"{through}/{self.sock_name}" if os.path.isdir(through) else self.sock_path

    def close(self) -> None:
        os.close(self.fd)

    def socket_state(self) -> bool:
        """Whether this user's socket is at the socket path (``False``: nothing is).

        Raises:
            Refused: a directory, another kind of file or another user's socket is
                there (the server cannot listen while it is; it is left alone).
        """
        try:
            st = os.lstat(self.sock_name, dir_fd=self.fd)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise Refused(
                f"{self.sock_path} cannot be examined ({exc.strerror}); answered in-process"
            ) from None
        if stat.S_ISSOCK(st.st_mode):
            if st.st_uid == os.geteuid():
                return True
            raise Refused(
                f"{self.sock_path} is a socket of uid {st.st_uid}, not of this user "
                f"(uid {os.geteuid()}); nothing was sent to it; remove it to use the "
                "resident server; answered in-process"
            )
        what = "a directory" if stat.S_ISDIR(st.st_mode) else "a file that is not a socket"
        raise Refused(
            f"{self.sock_path} is {what}, not the resident server's socket; remove it to "
            "use the resident server; answered in-process"
        )


def server_key(version: str) -> str:
    """The server of this user's clients of this interpreter and package version (16 hex
    digits: two CRC-32s with different seeds; zlib is cheap to import, hashlib is not,
    and the directory is private, so the key needs to tell them apart, not resist
    forgery). The user is the socket directory's; what a call loads is decided by its
    own environment, which the server routes on (:mod:`._routing`)."""
    # (the environment's prefix, not sys.executable: python and python3.11 of one
    # virtual environment are one server)
    parts = [version, sys.prefix, sys.version]
    data = "\0".join(parts).encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(data):08x}{zlib.crc32(data, 0x9E3779B9):08x}"


MAX_SOCKET_PATH = 103
"""The longest socket path every platform binds (``sun_path`` is 104 bytes on macOS and
the BSDs, 108 on Linux, with its terminating NUL)."""


def private_dir(environ: Mapping[str, str]) -> str | None:
    """The user's private socket directory, made if missing; ``None`` when it cannot be
    made or is not private (another owner, group or world access, a symlink). A
    directory whose socket path would be longer than :data:`MAX_SOCKET_PATH` (a deep
    ``$XDG_RUNTIME_DIR`` or ``$TMPDIR``) is passed over for the next one, and then
    ``/tmp/agent-hooks-<uid>`` is the last."""
    uid = os.getuid()
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    candidates = []
    if runtime and os.path.isabs(runtime):
        candidates.append(os.path.join(runtime, "agent-hooks"))
    tmp = next((v for v in map(environ.get, ("TMPDIR", "TEMP", "TMP")) if v), "/tmp")
    candidates.append(os.path.join(tmp, f"agent-hooks-{uid}"))
    socket_name = 1 + len(server_paths("", "0" * 16)[0])  # ("/" and the name)
    last = f"/tmp/agent-hooks-{uid}"
    for path in candidates:
        too_long = len(os.fsencode(path)) + socket_name > MAX_SOCKET_PATH
        if not too_long:
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                pass
            except OSError:
                continue
        try:
            st: os.stat_result | None = os.lstat(path)
        except FileNotFoundError:
            st = None
        except OSError:
            continue
        private = (
            st is not None
            and stat.S_ISDIR(st.st_mode)
            and st.st_uid == uid
            and not st.st_mode & 0o077
        )
        if too_long:
            # (only the length: a directory there that is not private is refused as
            # anywhere else, with no way round it)
            if (st is None or private) and os.name == "posix" and last not in candidates:
                candidates.append(last)
            continue
        if private:
            return path
    return None


def server_paths(directory: str, key: str) -> tuple[str, str, str]:
    """``(socket, server lock, spawn lock)`` of the server ``key``."""
    base = os.path.join(directory, key)
    return base + ".sock", base + ".lock", base + ".spawn"


def request_fifo(directory: str, key: str) -> str:
    """The server ``key``'s request FIFO (Linux; see :mod:`._fifo`)."""
    return os.path.join(directory, key) + ".fifo"


def wants_server(options: Sequence[str], environ: Mapping[str, str]) -> bool:
    """Whether a ``run`` with ``options`` asks the resident server: not when it is
    switched off (:data:`DISABLE_ENV`), nor for ``--no-daemon`` or ``--help``."""
    if environ.get(DISABLE_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        return False
    for arg in options:
        if arg == "--":
            break
        if arg in ("--no-daemon", "-h", "--help"):
            return False
    return True


def answer_of(
    next_frame: Callable[[], tuple[bytes, list[str], bytes]],
) -> tuple[int, bytes, bytes]:
    """The answer a server sends after it took a request (``A``): heartbeats (``H``)
    skipped, then ``R``'s exit status, stdout and stderr. ``next_frame`` reads one
    frame within the silence a client allows.

    Raises:
        Gone: the server died, fell silent or answered something else.
    """
    while True:
        try:
            kind, header, body = next_frame()
        except (OSError, FrameError, ValueError) as exc:
            raise Gone(f"it died or stopped answering ({type(exc).__name__}: {exc})") from None
        if kind == b"H":
            continue
        if kind != b"R":
            raise Gone(f"it answered {kind!r}")
        try:
            code, cut = int(header[0]), int(header[1])
        except (IndexError, ValueError):
            raise Gone("its answer is malformed") from None
        return code, body[:cut], body[cut:]


def event_of(argv: Sequence[str], stdin: bytes) -> str:
    """The event a call names (``--event``, else the payload's event field), for a
    warning."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg.startswith("--event="):
            return arg.partition("=")[2]
        if arg == "--event" and i + 1 < len(argv):
            return argv[i + 1]
    import json

    try:
        payload = json.loads(stdin)
    except (ValueError, UnicodeDecodeError):
        payload = None
    if isinstance(payload, dict):
        for field in ("hook_event_name", "hookEventName", "event"):
            value = payload.get(field)
            if isinstance(value, str) and value:
                return value
    return "(unnamed event)"


def log_path(environ: Mapping[str, str], key: str) -> str:
    """Where the server ``key`` writes its log: the user's state directory
    (``$XDG_STATE_HOME/agent_hooks``, else ``~/.local/state/agent_hooks``)."""
    state = environ.get("XDG_STATE_HOME", "")
    if not (state and os.path.isabs(state)):
        state = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(state, "agent_hooks", f"daemon-{key}.log")


def pack(kind: bytes, fields: Sequence[str], body: bytes = b"") -> bytes:
    """One frame.

    Raises:
        ValueError: a field holds a NUL.
    """
    if any("\0" in f for f in fields):
        raise ValueError("a frame field holds a NUL")
    head = "\0".join(fields).encode("utf-8", "surrogateescape") if fields else b""
    return _HEAD.pack(kind, len(head), len(body)) + head + body


def _exactly(sock: socket.socket, n: int) -> bytes:
    chunks = []
    while n:
        chunk = sock.recv(min(n, 1 << 20))
        if not chunk:
            raise FrameError("the connection closed mid-frame")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(sock: socket.socket) -> tuple[bytes, list[str], bytes]:
    """Read one frame from a blocking socket (its timeout applies to each read).

    Raises:
        FrameError: cut short or too large.
        OSError: as the socket does (``TimeoutError`` included).
    """
    kind, head_len, body_len = _HEAD.unpack(_exactly(sock, _HEAD.size))
    return (kind, *parse(head_len, body_len, lambda n: _exactly(sock, n)))


def parse(head_len: int, body_len: int, read: Callable[[int], bytes]) -> tuple[list[str], bytes]:
    """The header fields and body of a frame whose lengths were read, through
    ``read(n)``.

    Raises:
        FrameError: too large.
    """
    if head_len > MAX_HEADER or body_len > MAX_BODY:
        raise FrameError("frame too large")
    head = read(head_len) if head_len else b""
    fields = head.decode("utf-8", "surrogateescape").split("\0") if head else []
    body = read(body_len) if body_len else b""
    return fields, body


HEAD = _HEAD
"""The fixed part of a frame: kind, header length, body length."""


def peer_uid(sock: socket.socket) -> int | None:
    """The user id of the process at the other end of a connected Unix socket
    (``SO_PEERCRED`` on Linux and OpenBSD, ``LOCAL_PEERCRED`` on macOS, FreeBSD and
    DragonFly); ``None`` where the platform cannot tell."""
    import socket

    platform = sys.platform
    try:
        if platform.startswith(("linux", "openbsd")):
            option: int | None = getattr(socket, "SO_PEERCRED", None)
            if option is None:
                return None
            data = sock.getsockopt(socket.SOL_SOCKET, option, 12)
            # (struct ucred: pid, uid, gid on Linux; struct sockpeercred: uid, gid, pid)
            if platform.startswith("linux"):
                return int(struct.unpack("=iII", data[:12])[1])
            return int(struct.unpack("=IIi", data[:12])[0])
        if platform.startswith(("darwin", "freebsd", "dragonfly")):
            level = getattr(socket, "SOL_LOCAL", 0)
            option = getattr(socket, "LOCAL_PEERCRED", 1)
            data = sock.getsockopt(level, option, 76)  # struct xucred
            version, uid = struct.unpack("=II", data[:8])
            return int(uid) if version == 0 else None  # (XUCRED_VERSION)
    except (OSError, struct.error):
        return None
    return None
