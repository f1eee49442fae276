"""``agent-hooks serve`` against hostile clients, on a real loopback socket: slow and
idle clients time out, connections are capped and ``accept()`` backs off when the
process runs out of descriptors, malformed HTTP gets 400, request bodies are bounded
in bytes across connections, shutdown refuses new connections at once, and idle
sessions are closed (draining their background work). In-process on asyncio and trio,
and as a subprocess with a lowered file-descriptor limit."""

from __future__ import annotations

import concurrent.futures
import errno
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import anyio.lowlevel
import pytest
from anyio.abc import SocketAttribute
from anyio.streams.stapled import MultiListener

from agent_hooks import CallbackHook, HookRegistry, PreToolUseInput, PreToolUseOutput
from agent_hooks._bridges._server import HookServer
from tests.cli.test_cli_serve import (
    TOKEN,
    Client,
    deny_rm,
    payload,
    post_once,
    registry_of,
    serving,
)

h11 = pytest.importorskip("h11")


async def poll(condition: Callable[[], bool], within: float = 10.0) -> None:
    """Wait until ``condition()`` holds, failing after ``within`` seconds."""
    with anyio.fail_after(within):
        while not condition():  # noqa: ASYNC110 (state of the server, not an event)
            await anyio.sleep(0.01)


async def read_to_end(stream: anyio.abc.ByteStream, within: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    with anyio.fail_after(within):
        while True:
            try:
                data += await stream.receive()
            except (anyio.EndOfStream, anyio.BrokenResourceError):
                return data


def status_of(raw: bytes) -> int:
    return int(raw.split(b" ", 2)[1])


def json_body(raw: bytes) -> Any:
    return json.loads(raw.split(b"\r\n\r\n", 1)[1])


# ----------------------------------------------------------------- malformed


MALFORMED = [
    (b"GARBAGE\r\n\r\n", 400),
    (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(32) + b"\r\n\r\n", 400),  # TLS
    (b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400),
    (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
    (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
    (b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
    (
        b"POST / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN.encode() + b"\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz\r\n",
        400,
    ),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n", 431),
]


@pytest.mark.anyio
async def test_malformed_http_gets_an_error_answer_and_the_connection_closes() -> None:
    logged: list[str] = []
    async with serving(registry_of(deny_rm), log=logged.append) as server:
        for raw, expected in MALFORMED:
            stream = await anyio.connect_tcp("127.0.0.1", server.port)
            await stream.send(raw)
            answer = await read_to_end(stream)  # the server closes the connection
            await stream.aclose()
            assert status_of(answer) == expected, (raw[:40], answer[:80])
            assert b"\r\nconnection: close\r\n" in answer.lower()
            error = json_body(answer)["error"]
            assert error.startswith("malformed HTTP request") or expected == 501, error
        # the server lives on
        assert (await post_once(server.port, payload("rm x"))).status == 200
        await poll(lambda: server.open_connections == 0)
    assert logged == []  # a client's mistake is not the server's


# ---------------------------------------------------------------- timeouts


@pytest.mark.anyio
async def test_slow_clients_are_closed_by_the_header_timeout_and_others_are_served() -> None:
    # (3 s: time enough to open 51 connections on a loaded machine before the first is
    # cut; the test asserts what the timeout did, not how fast)
    async with serving(registry_of(deny_rm), header_timeout=3.0) as server:
        started = anyio.current_time()
        slow: list[anyio.abc.SocketStream] = []
        try:
            await _slow_clients_are_cut(server, slow)
        finally:  # (a failure leaves no socket for the garbage collector to warn about)
            for stream in slow:
                await stream.aclose()
        assert anyio.current_time() - started < 10  # well under the 10 s a dribble takes
        await poll(lambda: server.open_connections == 0)


async def _slow_clients_are_cut(server: Any, slow: list[anyio.abc.SocketStream]) -> None:
    """Fifty clients that send one byte, one that drips its head: each gets a 408 once the
    header timeout passes, and a well-behaved client is served meanwhile (``slow``: the
    streams opened, for the caller to close)."""
    for _ in range(50):  # each sends one byte of a request line, then nothing
        stream = await anyio.connect_tcp("127.0.0.1", server.port)
        await stream.send(b"P")
        slow.append(stream)
    # a client that drips its head one byte at a time gets no more time
    drip = await anyio.connect_tcp("127.0.0.1", server.port)
    slow.append(drip)

    async def dribble() -> None:
        for byte in b"POST /hooks HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"s" * 500:
            try:
                await drip.send(bytes([byte]))
            except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
                return
            await anyio.sleep(0.02)

    async with anyio.create_task_group() as tg:
        tg.start_soon(dribble)
        await poll(lambda: server.open_connections >= 51)
        # a well-behaved client is served while the slow ones hang on
        resp = await post_once(server.port, payload("rm -rf /"))
        assert resp.status == 200 and "deny" in resp.body.decode()
        for stream in slow:
            answer = await read_to_end(stream)
            assert status_of(answer) == 408, answer[:80]
            assert "not received within 3.0 s" in json_body(answer)["error"]
        tg.cancel_scope.cancel()


@pytest.mark.anyio
async def test_a_body_that_does_not_arrive_in_time_is_a_408() -> None:
    async with serving(registry_of(deny_rm), body_timeout=0.3) as server:
        stream = await anyio.connect_tcp("127.0.0.1", server.port)
        await stream.send(
            b"POST /hooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            + TOKEN.encode()
            + b'\r\nContent-Length: 100\r\n\r\n{"hook_'
        )
        answer = await read_to_end(stream)
        assert status_of(answer) == 408
        assert "body not received within 0.3 s" in json_body(answer)["error"]
        await stream.aclose()
        assert server.buffered_bytes == 0


@pytest.mark.anyio
async def test_an_idle_keep_alive_connection_is_closed() -> None:
    async with serving(registry_of(deny_rm), idle_timeout=0.3) as server:
        client = await Client.connect(server.port)
        resp = await client.post(payload())
        assert resp.status == 200 and "connection" not in resp.headers
        assert "keep-alive" not in resp.headers  # under a second: nothing to promise
        assert await read_to_end(client.stream) == b""  # closed by the server
        await client.aclose()
    async with serving(registry_of(deny_rm), idle_timeout=5) as server:
        client = await Client.connect(server.port)
        assert (await client.post(payload())).headers["keep-alive"] == "timeout=5"
        await client.aclose()


# -------------------------------------------------------------- connections


@pytest.mark.anyio
async def test_connections_past_the_cap_wait_until_one_closes() -> None:
    async with serving(registry_of(deny_rm), max_connections=2, header_timeout=60) as server:
        holders = []
        for _ in range(2):
            stream = await anyio.connect_tcp("127.0.0.1", server.port)
            await stream.send(b"P")
            holders.append(stream)
        await poll(lambda: server.open_connections == 2)
        late = await Client.connect(server.port)  # queued by the kernel, not accepted
        answered: list[int] = []

        async def ask() -> None:
            answered.append((await late.post(payload())).status)

        async with anyio.create_task_group() as tg:
            tg.start_soon(ask)
            with anyio.move_on_after(0.3):  # nothing happens while both slots are held
                await poll(lambda: bool(answered))
            assert answered == [] and server.open_connections == 2
            await holders[0].aclose()
        assert answered == [200]
        assert server.open_connections <= 2
        await late.aclose()
        await holders[1].aclose()


@pytest.mark.anyio
async def test_idle_keep_alive_connections_make_room_for_new_ones() -> None:
    async with serving(registry_of(deny_rm), max_connections=1, idle_timeout=60) as server:
        idle = await Client.connect(server.port)
        assert (await idle.post(payload())).status == 200  # then stays idle
        with anyio.fail_after(10):
            assert (await post_once(server.port, payload())).status == 200
        assert await read_to_end(idle.stream) == b""  # the idle one was closed for it
        await idle.aclose()


class FlakyListener(anyio.abc.SocketListener):
    """A real listener whose ``accept()`` first fails as a process out of descriptors
    sees it fail: ``OSError`` on asyncio, ``BrokenResourceError`` from one on trio."""

    def __init__(self, real: anyio.abc.SocketListener, failures: list[BaseException]) -> None:
        self.real = real
        self.failures = failures
        self.calls = 0

    @property
    def _raw_socket(self) -> socket.socket:
        sock: socket.socket = self.real.extra(SocketAttribute.raw_socket)
        return sock

    async def accept(self) -> anyio.abc.SocketStream:
        self.calls += 1
        if self.failures:
            await anyio.lowlevel.checkpoint()
            raise self.failures.pop(0)
        return await self.real.accept()

    async def aclose(self) -> None:
        await self.real.aclose()


def broken_from(code: int) -> anyio.BrokenResourceError:
    exc = anyio.BrokenResourceError()
    exc.__cause__ = OSError(code, os.strerror(code))
    return exc


@pytest.mark.anyio
async def test_accept_backs_off_when_out_of_descriptors(monkeypatch: pytest.MonkeyPatch) -> None:
    create = anyio.create_tcp_listener
    flaky: list[FlakyListener] = []

    async def create_flaky(**kwargs: Any) -> MultiListener[anyio.abc.SocketStream]:
        multi = await create(**kwargs)
        (real,) = multi.listeners
        assert isinstance(real, anyio.abc.SocketListener)
        failures: list[BaseException] = [
            OSError(errno.EMFILE, os.strerror(errno.EMFILE)),
            broken_from(errno.ENFILE),
            OSError(errno.EMFILE, os.strerror(errno.EMFILE)),
            broken_from(errno.ECONNABORTED),
        ]
        flaky.append(FlakyListener(real, failures))
        return MultiListener([flaky[0]])

    monkeypatch.setattr(anyio, "create_tcp_listener", create_flaky)
    logged: list[str] = []
    async with serving(registry_of(deny_rm), log=logged.append) as server:
        with anyio.fail_after(10):
            assert (await post_once(server.port, payload())).status == 200
        assert flaky[0].failures == [] and flaky[0].calls >= 5
    assert len([line for line in logged if "backing off" in line]) == 1, logged
    assert "EMFILE" in logged[0]


# ------------------------------------------------------------------ memory


@pytest.mark.anyio
async def test_a_request_without_the_token_is_refused_before_its_body() -> None:
    async with serving(registry_of(deny_rm), max_body=10_000) as server:
        stream = await anyio.connect_tcp("127.0.0.1", server.port)
        # announces 9,000 bytes and sends none: the 401 does not wait for them
        await stream.send(b"POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: 9000\r\n\r\n")
        answer = await read_to_end(stream, within=5)
        assert status_of(answer) == 401
        assert b"\r\nconnection: close\r\n" in answer.lower()
        await stream.aclose()
        assert server.buffered_bytes == 0


@pytest.mark.anyio
@pytest.mark.parametrize(("body_timeout", "late_status"), [(0.3, 503), (30.0, 200)])
async def test_request_bodies_held_at_once_are_bounded_in_bytes(
    body_timeout: float, late_status: int
) -> None:
    entered = anyio.Event()
    release = anyio.Event()

    async def hold(input: PreToolUseInput) -> PreToolUseOutput:
        if input.tool_input.get("command") == "hold":
            entered.set()
            await release.wait()
        return PreToolUseOutput(additional_context=input.tool_input["command"])

    def body(command: str) -> bytes:
        data = payload(command)
        data["tool_input"]["pad"] = "x" * 600
        return json.dumps(data).encode()

    options = {"max_body": 1000, "max_buffered": 1000, "body_timeout": body_timeout}
    statuses: dict[str, int] = {}
    async with serving(registry_of(hold), **options) as server:

        async def ask(command: str) -> None:
            statuses[command] = (await post_once(server.port, body(command))).status

        async with anyio.create_task_group() as tg:
            tg.start_soon(ask, "hold")
            await entered.wait()  # its body is held while its hooks run
            assert server.buffered_bytes == len(body("hold"))
            tg.start_soon(ask, "late")  # no room for a second body
            if late_status == 503:  # none in time
                await poll(lambda: "late" in statuses)
            else:
                with anyio.move_on_after(0.3):
                    await poll(lambda: "late" in statuses)
                assert "late" not in statuses  # it waits for room
            release.set()
        assert statuses == {"hold": 200, "late": late_status}
        assert server.buffered_bytes == 0
        assert (await post_once(server.port, body("again"))).status == 200


def test_the_byte_budget_is_never_below_one_body() -> None:
    with pytest.raises(ValueError, match="max_buffered"):
        HookServer(HookRegistry(), token=TOKEN, max_body=1000, max_buffered=999)
    for option in ("header_timeout", "body_timeout", "idle_timeout", "max_connections"):
        with pytest.raises(ValueError, match=option):
            HookServer(HookRegistry(), token=TOKEN, **{option: 0})
    big = HookServer(HookRegistry(), token=TOKEN, max_body=64_000_000)
    assert big.max_connections >= 1


# ---------------------------------------------------------------- shutdown


@pytest.mark.anyio
async def test_shutdown_closes_the_listener_first() -> None:
    entered = anyio.Event()
    release = anyio.Event()

    async def slow(input: PreToolUseInput) -> PreToolUseOutput:
        entered.set()
        await release.wait()
        return PreToolUseOutput(additional_context="finished")

    server = HookServer(registry_of(slow), token=TOKEN)
    run_done = anyio.Event()
    answer: list[Any] = []
    with anyio.fail_after(20):
        async with anyio.create_task_group() as tg:

            async def started_run(*, task_status: anyio.abc.TaskStatus[int]) -> None:
                await server.run(task_status=task_status)
                run_done.set()

            port = await tg.start(started_run)
            idle = await Client.connect(port)
            assert (await idle.request("GET", "/healthz", headers={})).status == 200

            async def ask() -> None:
                answer.append(await post_once(port, payload()))

            tg.start_soon(ask)
            await entered.wait()
            server.shutdown()

            async def refused() -> bool:
                try:
                    stream = await anyio.connect_tcp("127.0.0.1", port)
                except OSError:
                    return True
                await stream.aclose()
                return False

            with anyio.fail_after(5):  # the listener closes at once...
                while not await refused():  # noqa: ASYNC110
                    await anyio.sleep(0.01)
            assert await read_to_end(idle.stream) == b""  # ...and so do idle connections
            assert server.in_flight == 1 and not run_done.is_set()  # the request goes on
            release.set()
            await run_done.wait()
            await idle.aclose()
    (resp,) = answer
    assert resp.status == 200 and resp.headers["connection"] == "close"
    assert resp.json()["hookSpecificOutput"]["additionalContext"] == "finished"


# ---------------------------------------------------------------- sessions


@pytest.mark.anyio
async def test_idle_sessions_are_closed_and_drain_their_background_work() -> None:
    release = anyio.Event()
    finished: list[str] = []
    closed: list[str | None] = []
    entered = anyio.Event()
    in_use = anyio.Event()

    class Background:
        async def __call__(self, input: PreToolUseInput) -> None:
            if input.tool_input["command"] == "bg":
                await release.wait()
                finished.append(input.session_id or "")

        def session_closed(self, session_id: str | None) -> None:
            closed.append(session_id)

    async def busy(input: PreToolUseInput) -> None:
        if input.tool_input["command"] == "busy":
            entered.set()
            await in_use.wait()

    registry = registry_of(CallbackHook(Background(), background=True), busy, deny_rm)
    async with serving(registry, session_idle=0.2) as server:
        assert (await post_once(server.port, payload("bg", session_id="idle-1"))).status == 200
        assert server.open_sessions == 1
        await poll(lambda: server.open_sessions == 0)  # evicted once idle...
        assert closed == [] and finished == []  # ...and draining its background work
        release.set()
        await poll(lambda: closed == ["idle-1"])  # then closed as any session closes
        assert finished == ["idle-1"]

        # a session in use is never evicted, however long the request takes
        async with anyio.create_task_group() as tg:
            tg.start_soon(post_once, server.port, payload("busy", session_id="busy-1"))
            await entered.wait()
            await anyio.sleep(0.6)  # three idle periods pass while it is in use
            assert server.open_sessions == 1 and "busy-1" not in closed
            in_use.set()
        await poll(lambda: server.open_sessions == 0)
        await poll(lambda: "busy-1" in closed)

        # a new request for an evicted session_id opens a fresh session
        assert (await post_once(server.port, payload(session_id="idle-1"))).status == 200
        assert server.open_sessions == 1
    assert closed.count("idle-1") == 2


# -------------------------------------------------------------- subprocess


def _config(tmp_path: Path) -> Path:
    """A hook file with a Python hook that holds some payloads for a moment."""
    modname = f"hold_{os.getpid()}"
    (tmp_path / f"{modname}.py").write_text(
        "import anyio\n"
        "from agent_hooks import PreToolUseInput, PreToolUseOutput\n\n\n"
        "async def hold(input: PreToolUseInput) -> PreToolUseOutput:\n"
        "    if 'pad' in input.tool_input:  # work that keeps the decoded payload alive\n"
        "        await anyio.sleep(0.5)\n"
        "    return PreToolUseOutput(additional_context=str(len(input.tool_input)))\n"
    )
    config = tmp_path / "hooks.json"
    hook = {"type": "python", "callable": f"{modname}:hold"}
    config.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": [hook]}]}}))
    return config


@contextmanager
def serve_process(
    tmp_path: Path, *args: str, nofile: int | None = None, config: Path | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], int, Path]]:
    """``agent-hooks serve`` on a free port (stderr to a file, so that nothing blocks on
    a full pipe); yields the process, its port and the log file."""
    log = tmp_path / f"serve-{len(list(tmp_path.glob('serve-*')))}.log"
    argv = [sys.executable, "-m", "agent_hooks", "serve", "--port", "0", "--token-env", "T"]
    if config is not None:
        argv += ["--config", str(config), "--project-dir", str(tmp_path / "elsewhere")]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "T": TOKEN}

    def lower_limit() -> None:
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    with open(log, "wb") as err:
        proc = subprocess.Popen(
            [*argv, *args],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            preexec_fn=lower_limit,
        )
    try:
        deadline = time.monotonic() + 30
        port = None
        while port is None:
            for line in log.read_text().splitlines():
                if "listening on http://127.0.0.1:" in line:
                    port = int(line.rsplit(":", 1)[1])
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not start: " + log.read_text()
            time.sleep(0.01)
        yield proc, port, log
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, log.read_text()
        assert "stopped" in log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def wait_for(condition: Callable[[], bool], within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def fds_of(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def hook_request(port: int, body: bytes, timeout: float = 30) -> tuple[int, bytes]:
    """One POST on a fresh connection: ``(status, body)``."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(
            b"POST /hooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            + TOKEN.encode()
            + b"\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body)
            + body
        )
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return status_of(data), data.split(b"\r\n\r\n", 1)[1]


SMALL = json.dumps(payload("ls")).encode()


def test_serve_closes_a_slow_client_flood_and_serves_others(tmp_path: Path) -> None:
    with serve_process(tmp_path, "--header-timeout", "1") as (proc, port, _log):
        base = fds_of(proc.pid)
        started = time.monotonic()
        flood = []
        try:
            for _ in range(300):  # more than the 256 connections served at once
                s = socket.create_connection(("127.0.0.1", port), timeout=30)
                s.sendall(b"P")
                flood.append(s)
            assert hook_request(port, SMALL)[0] == 200  # served, late or not
            for s in flood:  # each slow client got its 408 and was closed
                data = b""
                while chunk := s.recv(65536):
                    data += chunk
                assert status_of(data) == 408
            assert time.monotonic() - started < 20
        finally:
            for s in flood:
                s.close()
        assert proc.poll() is None
        wait_for(lambda: fds_of(proc.pid) <= base)


@pytest.mark.parametrize("max_connections", [None, 500])
def test_serve_survives_connection_floods_at_a_low_fd_limit(
    tmp_path: Path, max_connections: int | None
) -> None:
    args = ["--header-timeout", "2"]
    if max_connections is not None:  # more than the descriptors allow: accept() fails
        args += ["--max-connections", str(max_connections)]
    with serve_process(tmp_path, *args, nofile=64) as (proc, port, log):
        flood = []
        try:
            for _ in range(200):
                s = socket.create_connection(("127.0.0.1", port), timeout=30)
                s.sendall(b"P")
                flood.append(s)
            if max_connections is None:
                assert "at most 32 connections at once" in log.read_text()
                wait_for(lambda: fds_of(proc.pid) >= 32)
            else:
                wait_for(lambda: "EMFILE" in log.read_text())
                assert "backing off" in log.read_text()
            assert proc.poll() is None and fds_of(proc.pid) <= 64
        finally:
            for s in flood:
                s.close()
        # answers afterwards (with a session: the session's own file needs a descriptor)
        body = json.dumps(payload("rm -rf /", session_id="after")).encode()
        wait_for(lambda: hook_request(port, body)[0] == 200)
        assert proc.poll() is None


def test_serve_memory_is_bounded_in_bytes(tmp_path: Path) -> None:
    config = _config(tmp_path)
    buffered = 4 * 1_048_576
    args = ["--max-buffered", str(buffered), "--session-idle", "1"]
    with serve_process(tmp_path, *args, config=config) as (proc, port, _log):
        assert hook_request(port, SMALL)[0] == 200
        base = rss_mb(proc.pid)

        # 1 MB payloads for one session id after another: nothing stays per session
        def one_mb(sid: str, i: int) -> bytes:
            data = payload(session_id=sid)
            data["tool_input"]["content"] = f"{i:08d}" + "x" * 1_000_000
            return json.dumps(data).encode()

        after: list[float] = []
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            for sid in ("m-1", "m-2", "m-3", "m-4"):
                statuses = list(
                    pool.map(lambda i, s=sid: hook_request(port, one_mb(s, i))[0], range(32))
                )
                assert statuses == [200] * 32
                after.append(rss_mb(proc.pid))
        assert after[-1] - after[0] < 60, after

        # 48 payloads at once whose JSON decodes to ~20x its size: only 4 MiB of
        # bodies are held at once, so only 4 decoded payloads are alive at once
        data = payload(session_id="wide")
        data["tool_input"]["pad"] = [{}] * 250_000
        wide = json.dumps(data).encode()
        assert len(wide) < 1_048_576
        peak = rss_mb(proc.pid)
        done = threading.Event()

        def watch() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, rss_mb(proc.pid))
                done.wait(0.005)

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            with concurrent.futures.ThreadPoolExecutor(48) as pool:
                statuses = list(pool.map(lambda _: hook_request(port, wide, 60)[0], range(48)))
        finally:
            done.set()
            watcher.join()
        assert statuses == [200] * 48
        assert peak - base < 300, (base, peak)  # unbounded: about 700 MB


@pytest.mark.anyio
async def test_an_answer_with_a_lone_surrogate_is_sent_not_dropped() -> None:
    def odd(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(additional_context="x\ud800y")

    async with serving(registry_of(odd)) as server:
        client = await Client.connect(server.port)
        resp = await client.post(payload())
        assert resp.status == 200
        context = json.loads(resp.body.decode("utf-8"))["hookSpecificOutput"]["additionalContext"]
        assert context.startswith("x") and context.endswith("y")
        assert (await client.post(payload())).status == 200  # the connection lives on
        await client.aclose()


SERVER_SCRIPT = """\
import sys

import anyio

from agent_hooks import HookRegistry
from agent_hooks._bridges._server import HookServer


def log(line):
    print(line, file=sys.stderr, flush=True)


async def main():
    server = HookServer(
        HookRegistry(), require_auth=False, max_connections=500, header_timeout=1, log=log
    )
    async with anyio.create_task_group() as tg:
        port = await tg.start(server.run)
        log(f"listening on http://127.0.0.1:{port}")
        await anyio.to_thread.run_sync(sys.stdin.read)  # until the test closes stdin
        server.shutdown()
    log("stopped")


anyio.run(main, backend=sys.argv[1])
"""


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_accept_backs_off_on_a_real_emfile(tmp_path: Path, backend: str) -> None:
    """The same as the CLI test, on both backends: trio reports EMFILE from ``accept()``
    as a ``BrokenResourceError`` raised from the ``OSError``, asyncio as the ``OSError``."""
    log = tmp_path / "server.log"

    def lower_limit() -> None:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))

    with open(log, "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-c", SERVER_SCRIPT, backend],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=err,
            preexec_fn=lower_limit,
        )
    assert proc.stdin is not None
    flood: list[socket.socket] = []
    try:
        wait_for(lambda: "listening on" in log.read_text() or proc.poll() is not None)
        port = int(log.read_text().split("listening on http://127.0.0.1:")[1].split()[0])
        for _ in range(150):
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.sendall(b"P")
            flood.append(s)
        wait_for(lambda: "EMFILE" in log.read_text() or proc.poll() is not None)
        assert proc.poll() is None, log.read_text()
        for s in flood:
            s.close()
        body = json.dumps(payload(session_id=None)).encode()
        wait_for(lambda: hook_request(port, body)[0] == 200)
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0, log.read_text()
        assert "backing off" in log.read_text() and "stopped" in log.read_text()
    finally:
        for s in flood:
            s.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
