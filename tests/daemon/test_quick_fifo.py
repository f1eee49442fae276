"""The quick client's FIFO door to the resident server (Linux): a call through it is
answered as on the socket, and nothing at or around the door can turn a deny into an
allow, hang a client, or leave files behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from agent_hooks._base._version import VERSION
from agent_hooks._bridges._daemon._protocol import request_fifo, server_key
from tests.daemon.test_daemon import DEADLINE
from tests.daemon.test_daemon_client_trust import needs_root, warnings
from tests.daemon.test_quick_client import QuickHome, quick_denied
from tests.daemon_helpers import alive

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="FIFO calls are Linux's"
)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[QuickHome]:
    h = QuickHome(tmp_path)
    try:
        yield h
    finally:
        h.close()


def fifo_of(home: QuickHome) -> Path:
    return Path(request_fifo(str(home.directory), server_key(VERSION)))


def call_fifos(home: QuickHome) -> list[str]:
    return sorted(p.name for p in home.directory.iterdir() if p.name.endswith((".q", ".r")))


def resident(proc: subprocess.CompletedProcess[bytes]) -> bool:
    return bool(json.loads(proc.stdout)["resident"])


def test_a_call_goes_through_the_fifo_and_leaves_nothing_behind(home: QuickHome) -> None:
    home.start_server()
    assert fifo_of(home).exists()
    os.unlink(home.socket_path)  # (so that only the FIFO can answer)
    proc = home.quick("--report")
    assert resident(proc), proc.stderr
    assert quick_denied(home.quick())
    assert json.loads(home.quick(payload=home.payload("ls")).stdout) == {}
    assert call_fifos(home) == []


def test_many_clients_at_once_are_each_answered_their_own(home: QuickHome) -> None:
    home.start_server()
    commands = [("rm -rf /" if i % 2 else f"echo {i}") for i in range(24)]
    with ThreadPoolExecutor(8) as pool:
        procs = list(pool.map(lambda c: home.quick(payload=home.payload(c)), commands))
    for command, proc in zip(commands, procs, strict=True):
        assert proc.returncode == 0, proc.stderr
        if command.startswith("rm"):
            assert quick_denied(proc)
        else:
            assert json.loads(proc.stdout) == {}, proc.stdout
        assert not warnings(
            subprocess.CompletedProcess(proc.args, 0, "", proc.stderr.decode())
        )
    assert call_fifos(home) == []


def test_a_dead_server_s_fifo_is_no_server(home: QuickHome) -> None:
    pid = home.start_server()
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + DEADLINE
    while alive(pid):
        assert time.monotonic() < deadline
        time.sleep(0.02)  # (the kill lands in another process)
    assert fifo_of(home).exists()  # (left by the dead server: nobody reads it)
    assert quick_denied(home.quick())  # answered by the package, which starts a server
    proc = home.run("--report", wait=True)
    assert json.loads(proc.stdout)["resident"] is True
    assert resident(home.quick("--report"))  # the new server's FIFO


def test_junk_announcements_do_not_disturb_the_door(home: QuickHome) -> None:
    home.start_server()
    outside = home.tmp / "outside"
    os.mkfifo(outside)
    junk = [
        b"../outside\n",
        f"{os.getpid()}-../../outside\n".encode(),
        b"x" * 5000,  # (no newline, longer than any name)
        b"\n\n12-zz\n",
        f"{os.getpid()}-{'ab' * 8}\n".encode(),  # (no such FIFOs)
    ]
    fd = os.open(fifo_of(home), os.O_WRONLY | os.O_NONBLOCK)
    try:
        for line in junk:
            os.write(fd, line)
    finally:
        os.close(fd)
    assert quick_denied(home.quick())
    assert resident(home.quick("--report"))
    assert outside.exists()


def test_a_client_that_never_sends_its_request_holds_up_no_one(home: QuickHome) -> None:
    home.start_server()
    name = f"{os.getpid()}-{'cd' * 8}"
    ends = [home.directory / f"{name}.{e}" for e in ("q", "r")]
    for end in ends:
        os.mkfifo(end, 0o600)
    held = [os.open(end, os.O_RDWR | os.O_NONBLOCK) for end in ends]
    try:
        fd = os.open(fifo_of(home), os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, name.encode() + b"\n")
        os.close(fd)
        assert quick_denied(home.quick())
        assert resident(home.quick("--report"))
    finally:
        for fd in held:
            os.close(fd)


def test_leftovers_of_killed_clients_are_swept_when_a_server_starts(home: QuickHome) -> None:
    home.directory.mkdir(mode=0o700)
    gone = 2**22 + 7  # (above the default pid_max of 4,194,304: never a live process)
    stale = [home.directory / f"{gone}-{'ef' * 8}.{e}" for e in ("q", "r")]
    for end in stale:
        os.mkfifo(end, 0o600)
    home.start_server()
    assert not any(end.exists() for end in stale)


@needs_root
def test_a_fifo_of_another_user_is_sent_nothing(home: QuickHome) -> None:
    home.directory.mkdir(mode=0o700)
    impostor = fifo_of(home)
    os.mkfifo(impostor, 0o666)
    os.chown(impostor, 65534, 65534)
    reader = os.open(impostor, os.O_RDONLY | os.O_NONBLOCK)
    try:
        proc = home.quick()
        try:
            received = os.read(reader, 4096)
        except BlockingIOError:
            received = b""
    finally:
        os.close(reader)
    assert received == b""  # not even a name
    assert quick_denied(proc)  # answered by the package


def test_a_request_larger_than_a_pipe_holds_goes_through(home: QuickHome) -> None:
    home.start_server()
    big = "x" * (3 * 1024 * 1024)  # (a pipe holds 64 KiB)
    payload = home.payload("rm -rf / # " + big)
    proc = home.quick("--report", payload=payload)
    report = json.loads(proc.stdout)
    assert report["resident"] is True, proc.stderr[-500:]
    assert quick_denied(home.quick(payload=payload))
    assert call_fifos(home) == []
