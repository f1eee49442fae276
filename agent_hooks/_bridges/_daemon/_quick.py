"""The quick client of ``agent-hooks run``: a module loaded by itself, without the
package.

Run as ``<python> -I -S <package>/_bridges/_daemon/_quick_run.py run ARGS...`` (``-I``:
neither the caller's directory nor ``PYTHONPATH`` is on the module path; ``-S``: no
``site``, so none of the environment's ``.pth`` files run); that file imports this one
from its directory. It imports the standard library and two standard-library-only
files of this package, by path (``_protocol.py`` beside it and ``_base/_version.py``),
and nothing else: it costs an interpreter start and a round trip to the resident
server. On Linux the round trip goes through FIFOs (:mod:`._fifo`), so this process
never imports ``socket`` (about a third of its own cost); elsewhere through the
server's socket, as the package's client does.

It asks the resident server exactly as the package's own client does
(:mod:`._client`), with the same checks before it sends anything: the socket
directory opened without following a symlink, a directory of this user that group
and others cannot reach, the socket reached through that open directory, the socket
this user's, and the listening process this user's (``SO_PEERCRED`` /
``LOCAL_PEERCRED``). A listener of another user is sent nothing.

Whenever the server does not answer (none running, a dead socket, another version,
anything refused, ``--no-daemon``, ``--help``, another command), this process becomes
``agent-hooks`` itself: it execs this interpreter on the package's command line
(``-P``, or on Python 3.10 the caller's directory taken off the module path, so that
no project's code loads as the guard) with the same arguments and the same stdin
bytes, which answers in-process and starts the server as ``agent-hooks run`` does, and
says what it found. A server that took the call and then died or fell silent is
reported here (the hooks may have run twice) and the call is answered in-process with
``--no-daemon``. So a deny is never lost: every path ends in the package's answer.
"""

from __future__ import annotations

import errno
import os
import stat
import sys

TYPE_CHECKING = False  # (not typing's: this file imports nothing it does not need)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import NoReturn

    from ..._base._version import VERSION
    from ._protocol import (
        HEAD,
        FrameError,
        Gone,
        Place,
        Refused,
        answer_of,
        event_of,
        pack,
        parse,
        peer_uid,
        private_dir,
        read_frame,
        request_fifo,
        server_key,
        server_paths,
        wants_server,
    )

__all__ = ["main"]

ACCEPT_WAIT = 5.0
"""Seconds to wait for a live server to take a request (as ``_client.ACCEPT_WAIT``)."""
SILENCE = 10.0
"""Seconds without a frame after which a server that took a request counts as hung
(as ``_client.SILENCE``)."""

_HERE = os.path.dirname(os.path.abspath(__file__))
_PACKAGE = os.path.dirname(os.path.dirname(_HERE))
"""The ``agent_hooks`` package directory this file belongs to: the one the fallback
runs."""

# The fallback's first code (after ``-P``, or on 3.10 with the caller's directory taken
# off the path by hand): this file's own agent_hooks, put first only when the
# interpreter would not find it by itself; then the ordinary command line.
_FALLBACK = """\
import os, sys
if not getattr(sys.flags, "safe_path", False) and sys.path and sys.path[0] == "":
    del sys.path[0]
want = os.path.realpath(sys.argv[1])
import importlib.util
spec = importlib.util.find_spec("agent_hooks")
if not (spec and spec.origin and os.path.dirname(os.path.realpath(spec.origin)) == want):
    sys.path.insert(0, os.path.dirname(want))
try:
    from agent_hooks.__main__ import main
except ImportError as exc:  # (a broken or mixed installation: a guard blocks)
    sys.stderr.write(f"agent-hooks: cannot load agent_hooks: {exc}; blocked (exit 2)\\n")
    sys.exit(2)
sys.argv = ["agent-hooks", *sys.argv[2:]]
sys.exit(main(sys.argv[1:]))
"""


def _sibling(directory: str, name: str) -> object:
    """The standard-library-only module file ``name`` of ``directory``, imported by
    itself (the directory is on the module path for this import only)."""
    sys.path.insert(0, directory)
    try:
        return __import__(name)
    finally:
        del sys.path[0]


if not TYPE_CHECKING:
    _p = _sibling(_HERE, "_protocol")
    HEAD, FrameError, Gone, event_of = _p.HEAD, _p.FrameError, _p.Gone, _p.event_of
    Place, Refused, answer_of = _p.Place, _p.Refused, _p.answer_of
    pack, parse, peer_uid, private_dir = _p.pack, _p.parse, _p.peer_uid, _p.private_dir
    read_frame, request_fifo, server_key = _p.read_frame, _p.request_fifo, _p.server_key
    server_paths, wants_server = _p.server_paths, _p.wants_server
    VERSION = _sibling(os.path.join(_PACKAGE, "_base"), "_version").VERSION
    del _p


_FIFOS = sys.platform.startswith("linux")
"""Whether calls go through FIFOs (Linux: a FIFO's reader sees no hang-up before its
first writer has come, which the wait for the server's answer relies on; elsewhere the
socket)."""


def _venv_prefix() -> None:
    """Without ``site`` (``-S``) ``sys.prefix`` is the base interpreter's; the server key
    names the environment by the prefix ``site`` sets, so set it as ``site`` does: a
    ``pyvenv.cfg`` beside the executable or one directory up makes that directory's
    parent the prefix."""
    if not sys.flags.no_site or not sys.executable:
        return
    exe_dir = os.path.dirname(os.path.abspath(sys.executable))
    prefix = os.path.dirname(exe_dir)
    for folder in (exe_dir, prefix):
        if os.path.isfile(os.path.join(folder, "pyvenv.cfg")):
            sys.prefix = sys.exec_prefix = prefix
            return


def main(argv: Sequence[str]) -> int:
    """Answer ``argv`` (``run ARGS...``) through the resident server, or become
    ``agent-hooks`` itself; returns the exit status when the server answered. Whatever
    goes wrong here (an error of this file's own) hands the call to the package, which
    answers it (and blocks where it cannot, under ``--fail-closed``)."""
    read: list[bytes] = []
    try:
        return _main(argv, read)
    except Exception as exc:
        _warn(f"the quick client failed ({type(exc).__name__}: {exc}); answered in-process")
        _become_agent_hooks(argv, read[0] if read else None)


def _main(argv: Sequence[str], read: list[bytes]) -> int:
    """:func:`main`; the payload, once read, is kept in ``read``."""
    if not argv or argv[0] != "run" or not _wanted(argv[1:], os.environ):
        _become_agent_hooks(argv, None)
    stdin = sys.stdin.buffer.read()
    read.append(stdin)
    directory = private_dir(os.environ)
    if directory is None:
        _become_agent_hooks(argv, stdin)
    _venv_prefix()
    try:
        place = Place(directory, server_key(VERSION))
    except Refused:
        _become_agent_hooks(argv, stdin)
    try:
        answer = _ask(place, argv, stdin)
    except Refused:
        answer = None
    except Gone as exc:
        place.close()
        _warn(
            f"the resident hook server took this {event_of(argv, stdin)} call and gave "
            f"no answer: {exc}; its hooks may have run there, so they ran twice if they "
            "did: answered in-process"
        )
        _become_agent_hooks([argv[0], "--no-daemon", *argv[1:]], stdin)
    else:
        place.close()
    if answer is None:
        _become_agent_hooks(argv, stdin)
    code, out, err = answer
    _write(1, out)
    _write(2, err)
    return code


def _wanted(options: Sequence[str], environ: Mapping[str, str]) -> bool:
    """As ``_client._wanted``: the server is asked unless switched off or not at hand."""
    if not wants_server(options, environ):
        return False
    if _FIFOS:
        return True
    import socket

    return hasattr(socket, "AF_UNIX")


def _ask(place: Place, argv: Sequence[str], stdin: bytes) -> tuple[int, bytes, bytes] | None:
    """The server's answer; ``None`` when no server takes the request.

    Raises:
        Refused: the socket or FIFO, or the process listening on the socket, is not
            this user's (nothing was sent).
        Gone: the server took the request, then died or fell silent.
    """
    request = _request(argv, stdin)
    if _FIFOS:
        return _ask_fifo(place, request)
    return _ask_socket(place, request)


def _request(argv: Sequence[str], stdin: bytes) -> bytes:
    """The ``Q`` frame of this call: the version, the working directory, the command
    line, the environment, the payload."""
    fields = [VERSION, os.getcwd(), str(len(argv)), *argv]
    for name, value in os.environ.items():
        fields += (name, value)
    return pack(b"Q", fields, stdin)


def _ask_fifo(place: Place, request: bytes) -> tuple[int, bytes, bytes] | None:
    """:func:`_ask` through the server's request FIFO (:mod:`._fifo`, the client's
    side): this call's two FIFOs made in the socket directory (``<name>.q`` open for
    reading and writing, so writing never waits for a reader to open it;
    ``<name>.r`` for reading), the name announced in one write (atomic: shorter than
    ``PIPE_BUF``), the request written, the answer read as from the socket. Nobody
    reading the server's FIFO (``ENXIO``: no server, or a dead one's) is no server.
    Both FIFOs are removed at the end (the server removes them once it has opened
    them, so a client killed mid-call leaves nothing)."""
    import select
    import time

    try:
        st = os.lstat(place.fifo_name, dir_fd=place.fd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Refused(f"{place.fifo_name}: {exc.strerror}") from None
    if not stat.S_ISFIFO(st.st_mode) or st.st_uid != os.geteuid():
        raise Refused(f"{place.fifo_name} is not this user's FIFO")
    name = f"{os.getpid()}-{os.urandom(8).hex()}"
    ends = (name + ".q", name + ".r")
    flags = os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOFOLLOW
    fds: list[int] = []
    made: list[str] = []
    try:
        for end in ends:
            os.mkfifo(end, 0o600, dir_fd=place.fd)
            made.append(end)
        fds.append(os.open(ends[1], os.O_RDONLY | flags, dir_fd=place.fd))
        fds.append(os.open(ends[0], os.O_RDWR | flags, dir_fd=place.fd))
        answers, requests = fds
        try:
            server = os.open(place.fifo_name, os.O_WRONLY | flags, dir_fd=place.fd)
        except OSError:
            return None  # (nobody reads it: no server; nothing was sent)
        try:
            st = os.fstat(server)
            if not stat.S_ISFIFO(st.st_mode) or st.st_uid != os.geteuid():
                raise Refused(f"{place.fifo_name} is not this user's FIFO")
            os.write(server, name.encode() + b"\n")
        except OSError:
            return None  # (full, or its reader went away: nothing was sent)
        finally:
            os.close(server)
        poll = select.poll()
        deadline = time.monotonic() + ACCEPT_WAIT

        def wait(fd: int, event: int) -> None:
            poll.register(fd, event)
            try:
                left = deadline - time.monotonic()
                if left <= 0 or not poll.poll(left * 1000):
                    raise TimeoutError("no word from the server in time")
            finally:
                poll.unregister(fd)

        def read(n: int) -> bytes:
            chunks = []
            while n:
                wait(answers, select.POLLIN)
                chunk = os.read(answers, min(n, 1 << 20))
                if not chunk:
                    raise FrameError("the server closed mid-frame")
                chunks.append(chunk)
                n -= len(chunk)
            return b"".join(chunks)

        def frame() -> tuple[bytes, list[str], bytes]:
            kind, head_len, body_len = HEAD.unpack(read(HEAD.size))
            return (kind, *parse(head_len, body_len, read))

        try:
            view = memoryview(request)
            while view:
                wait(requests, select.POLLOUT)
                view = view[os.write(requests, view) :]
            kind, _, _ = frame()
        except (OSError, FrameError, ValueError):
            return None  # nobody (or nobody sane) took it: nothing ran
        if kind != b"A":
            return None

        def silence_bounded() -> tuple[bytes, list[str], bytes]:
            nonlocal deadline
            deadline = time.monotonic() + SILENCE
            return frame()

        return answer_of(silence_bounded)
    finally:
        for fd in fds:
            os.close(fd)
        for end in made:
            try:  # noqa: SIM105 (contextlib is one more import on every call)
                os.unlink(end, dir_fd=place.fd)
            except OSError:
                pass  # (the server removed it)


def _ask_socket(place: Place, request: bytes) -> tuple[int, bytes, bytes] | None:
    """:func:`_ask` through the server's socket."""
    import socket

    if not place.socket_state():
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(ACCEPT_WAIT)
        try:
            sock.connect(place.address)
        except OSError:
            return None
        uid = peer_uid(sock)
        if uid is None or uid != os.geteuid():
            raise Refused(f"{place.sock_path}: the listener is not this user's")
        try:
            sock.sendall(request)
            kind, _, _ = read_frame(sock)
        except (OSError, FrameError, ValueError):
            return None
        if kind != b"A":
            return None
        sock.settimeout(SILENCE)
        return answer_of(lambda: read_frame(sock))
    finally:
        sock.close()


def _warn(problem: str) -> None:
    message = f"warning resident_server: {problem}".replace("\n", "\\n")
    _write(2, f"agent-hooks: {message}\n".encode("utf-8", "backslashreplace"))


def _write(fd: int, data: bytes) -> None:
    """All of ``data`` to ``fd``; a reader that went away (the harness gave up on
    the call) is not an error of the hook."""
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view) :]
    except BrokenPipeError:
        pass


def _become_agent_hooks(argv: Sequence[str], stdin: bytes | None) -> NoReturn:
    """Exec this interpreter on the package's command line with ``argv``; the payload
    already read (``stdin``) is its stdin again. Never returns: when the exec itself
    fails, exit 2 with the reason (a harness reads 2 as a block). Where an exec is not
    a POSIX exec (Windows starts a new process and ends this one, so the harness
    would see this one's exit first), the command runs as a child and its exit status
    is this process's."""
    try:
        if not sys.executable:
            raise OSError(errno.ENOENT, "the interpreter's path is unknown (sys.executable)")
        flags = ["-P"] if sys.version_info >= (3, 11) else []
        command = [sys.executable, *flags, "-c", _FALLBACK, _PACKAGE, *argv]
        if os.name != "posix":
            import subprocess

            os._exit(subprocess.run(command, input=stdin, check=False).returncode)
        if stdin is not None:
            _replay(stdin)
        os.execv(sys.executable, command)
    except OSError as exc:
        _write(2, f"agent-hooks: cannot run {sys.executable!r}: {exc}\n".encode())
        os._exit(2)


def _replay(stdin: bytes) -> None:
    """Make descriptor 0 a file that holds ``stdin`` from its start (an anonymous
    in-memory file where there is one, else a temporary file)."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("agent-hooks-payload")
        _write(fd, stdin)
    else:
        import tempfile

        with tempfile.TemporaryFile() as held:
            held.write(stdin)
            held.flush()
            fd = os.dup(held.fileno())
    os.lseek(fd, 0, os.SEEK_SET)
    os.dup2(fd, 0)
    os.close(fd)
