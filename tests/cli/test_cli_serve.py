"""``agent-hooks serve`` / ``HookServer`` on a real loopback socket: the answer ``run``
would print, bearer auth (401), bounded bodies (413), concurrent requests, keep-alive,
``/healthz``, and a graceful shutdown that closes the listener at once and finishes
in-flight requests and background work. Once in-process (inside the test's task
group), once as a subprocess. Hostile clients: ``tests/security/test_serve_hostile.py``.
Options refused before the server starts: the command line in this process."""

from __future__ import annotations

import concurrent.futures
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import attrs
import pytest

from agent_hooks import (
    CallbackHook,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
)
from agent_hooks._bridges._payload import dispatch_payload
from agent_hooks._bridges._server import HookServer
from tests.cli_inprocess import cli_in_process

h11 = pytest.importorskip("h11")

TOKEN = "test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def payload(
    command: str = "ls", *, session_id: str | None = "s-1", event: str = "PreToolUse"
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "hook_event_name": event,
        "cwd": "/tmp",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "tu-1",
    }
    if session_id is not None:
        out["session_id"] = session_id
    return out


# ----------------------------------------------------------------- client


@attrs.define
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    """A minimal HTTP/1.1 client over one connection (keep-alive)."""

    def __init__(self, stream: anyio.abc.SocketStream) -> None:
        self.stream = stream
        self.conn = h11.Connection(h11.CLIENT)

    @classmethod
    async def connect(cls, port: int) -> Client:
        return cls(await anyio.connect_tcp("127.0.0.1", port))

    async def aclose(self) -> None:
        await self.stream.aclose()

    async def send_head(
        self, method: str, target: str, headers: Mapping[str, str], length: int | None
    ) -> None:
        hdrs = [("Host", "127.0.0.1"), *headers.items()]
        if length is not None:
            hdrs.append(("Content-Length", str(length)))
        else:
            hdrs.append(("Transfer-Encoding", "chunked"))
        await self.stream.send(
            self.conn.send(h11.Request(method=method, target=target, headers=hdrs))
        )

    async def read_response(self) -> Response:
        status, headers, body = 0, {}, b""
        while True:
            event = self.conn.next_event()
            if event is h11.NEED_DATA:
                try:
                    self.conn.receive_data(await self.stream.receive())
                except anyio.EndOfStream:
                    self.conn.receive_data(b"")
                continue
            if isinstance(event, h11.InformationalResponse):
                continue
            if isinstance(event, h11.Response):
                status = event.status_code
                headers = {k.decode(): v.decode() for k, v in event.headers}
            elif isinstance(event, h11.Data):
                body += bytes(event.data)
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                break
        if self.conn.our_state is h11.DONE and self.conn.their_state is h11.DONE:
            self.conn.start_next_cycle()
        return Response(status, headers, body)

    async def request(
        self,
        method: str,
        target: str = "/",
        body: bytes | Any = b"",
        headers: Mapping[str, str] = AUTH,
    ) -> Response:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        await self.send_head(method, target, headers, len(data))
        if data:
            await self.stream.send(self.conn.send(h11.Data(data=data)))
        await self.stream.send(self.conn.send(h11.EndOfMessage()))
        return await self.read_response()

    async def post(self, body: Any, headers: Mapping[str, str] = AUTH) -> Response:
        return await self.request("POST", "/hooks", body, headers)


async def post_once(port: int, body: Any, headers: Mapping[str, str] = AUTH) -> Response:
    client = await Client.connect(port)
    try:
        return await client.post(body, headers)
    finally:
        await client.aclose()


@asynccontextmanager
async def serving(registry: HookRegistry, **options: Any) -> AsyncIterator[HookServer]:
    options.setdefault("token", TOKEN)
    server = HookServer(registry, **options)
    async with anyio.create_task_group() as tg:
        await tg.start(server.run)
        try:
            yield server
        finally:
            server.shutdown()


def deny_rm(input: PreToolUseInput) -> PreToolUseOutput | None:
    if "rm" in input.tool_input.get("command", ""):
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no rm")
    return PreToolUseOutput(additional_context="checked")


def registry_of(*hooks: Any) -> HookRegistry:
    return HookRegistry({"PreToolUse": [HookMatcher(hooks=list(hooks))]})


# ------------------------------------------------------------- in-process


@pytest.mark.anyio
async def test_answers_what_run_would_print() -> None:
    registry = registry_of(deny_rm)
    async with serving(registry) as server:
        for command in ("rm -rf /", "ls"):
            resp = await post_once(server.port, payload(command))
            assert resp.status == 200
            assert resp.headers["content-type"] == "application/json"
            expected = await dispatch_payload(payload(command), registry)
            assert resp.json() == expected.answer
        denied = await post_once(server.port, payload("rm -rf /", session_id=None))
        assert denied.json() == {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "no rm",
            }
        }


@pytest.mark.anyio
async def test_no_opinion_and_docker_dialect() -> None:
    async with serving(HookRegistry()) as server:
        assert (await post_once(server.port, payload())).json() == {}
    async with serving(registry_of(deny_rm)) as server:
        resp = await post_once(server.port, payload("rm x", event="pre_tool_use"))
        assert resp.json() == {
            "hook_specific_output": {
                "hook_event_name": "pre_tool_use",
                "permission_decision": "deny",
                "permission_decision_reason": "no rm",
            }
        }


@pytest.mark.anyio
async def test_auth() -> None:
    calls: list[str] = []

    def hook(input: PreToolUseInput) -> None:
        calls.append(input.tool_input["command"])

    async with serving(registry_of(hook)) as server:
        for headers in (
            {},
            {"Authorization": "Bearer wrong"},
            {"Authorization": TOKEN},
            {"Authorization": f"Basic {TOKEN}"},
            {"Authorization": f"Bearer {TOKEN}x"},
        ):
            resp = await post_once(server.port, payload("nope"), headers)
            assert resp.status == 401, headers
            assert resp.headers["www-authenticate"] == "Bearer"
            assert "error" in resp.json()
        assert calls == []
        ok = await post_once(server.port, payload("yes"), {"Authorization": f"bearer {TOKEN}"})
        assert ok.status == 200
        assert calls == ["yes"]


def test_a_token_is_required_unless_auth_is_off() -> None:
    with pytest.raises(ValueError, match="token"):
        HookServer(HookRegistry())
    HookServer(HookRegistry(), require_auth=False)


@pytest.mark.anyio
async def test_no_auth_when_disabled() -> None:
    async with serving(registry_of(deny_rm), token=None, require_auth=False) as server:
        assert (await post_once(server.port, payload(), {})).status == 200


@pytest.mark.anyio
async def test_healthz_needs_no_auth() -> None:
    async with serving(HookRegistry()) as server:
        client = await Client.connect(server.port)
        resp = await client.request("GET", "/healthz", headers={})
        assert (resp.status, resp.json()) == (200, {"status": "ok"})
        resp = await client.request("GET", "/healthz?probe=1", headers={})
        assert resp.status == 200
        await client.aclose()


@pytest.mark.anyio
async def test_request_size_is_bounded() -> None:
    async with serving(registry_of(deny_rm), max_body=1024) as server:
        body = payload()
        body["padding"] = ""
        size = len(json.dumps(body).encode())
        body["padding"] = "x" * (1024 - size)
        exact = json.dumps(body).encode()
        assert len(exact) == 1024
        assert (await post_once(server.port, exact)).status == 200

        # declared too large: 413 before the body is read, and the connection closes
        client = await Client.connect(server.port)
        big = json.dumps({**body, "padding": "x" * 5000}).encode()
        resp = await client.request("POST", "/hooks", big)
        assert resp.status == 413
        assert resp.headers["connection"] == "close"
        with pytest.raises((anyio.EndOfStream, anyio.BrokenResourceError)):
            await client.stream.receive()
        await client.aclose()

        # chunked, no length announced: cut off once past the limit
        client = await Client.connect(server.port)
        await client.send_head("POST", "/hooks", AUTH, None)
        for _ in range(4):
            await client.stream.send(client.conn.send(h11.Data(data=b" " * 400)))
        resp = await client.read_response()
        assert resp.status == 413
        await client.aclose()

        # without auth, too large is still 413 (nothing is buffered)
        resp = await post_once(server.port, big, {})
        assert resp.status == 413


@pytest.mark.anyio
async def test_bad_requests() -> None:
    async with serving(registry_of(deny_rm)) as server:
        client = await Client.connect(server.port)
        cases: Sequence[tuple[str, bytes | Any, int, str]] = [
            ("POST", b"{not json", 400, "not valid JSON"),
            ("POST", [1, 2], 400, "JSON object"),
            ("POST", {"hook_event_name": "PreToolUze", "session_id": "x"}, 400, "PreToolUze"),
            ("POST", {"session_id": "x"}, 400, "hook_event_name"),
            ("GET", b"", 405, "POST"),
            ("PUT", payload(), 405, "POST"),
        ]
        for method, body, status, fragment in cases:
            resp = await client.request(method, "/hooks", body)
            assert resp.status == status, (method, body, resp)
            assert fragment in resp.json()["error"]
        # the connection survived every error
        assert (await client.post(payload())).status == 200
        await client.aclose()


@pytest.mark.anyio
async def test_keep_alive_serves_many_requests_on_one_connection() -> None:
    async with serving(registry_of(deny_rm)) as server:
        client = await Client.connect(server.port)
        local = client.stream.extra(anyio.abc.SocketAttribute.local_port)
        for i in range(20):
            resp = await client.post(payload(f"echo {i}", session_id=f"s-{i % 3}"))
            assert resp.status == 200
            assert "connection" not in resp.headers
            assert client.stream.extra(anyio.abc.SocketAttribute.local_port) == local
        resp = await client.request("GET", "/healthz", headers={})
        assert resp.status == 200
        await client.aclose()


@pytest.mark.anyio
async def test_expect_100_continue() -> None:
    async with serving(registry_of(deny_rm)) as server:
        client = await Client.connect(server.port)
        data = json.dumps(payload("rm it")).encode()
        await client.send_head("POST", "/hooks", {**AUTH, "Expect": "100-continue"}, len(data))
        event = None
        while event is None or event is h11.NEED_DATA:
            if event is h11.NEED_DATA:
                client.conn.receive_data(await client.stream.receive())
            event = client.conn.next_event()
        assert isinstance(event, h11.InformationalResponse) and event.status_code == 100
        await client.stream.send(client.conn.send(h11.Data(data=data)))
        await client.stream.send(client.conn.send(h11.EndOfMessage()))
        resp = await client.read_response()
        assert resp.status == 200 and "deny" in resp.body.decode()
        await client.aclose()


@pytest.mark.anyio
@pytest.mark.parametrize("same_session", [False, True])
async def test_requests_are_served_concurrently(same_session: bool) -> None:
    n = 4
    arrived: list[str] = []
    all_in = anyio.Event()

    async def rendezvous(input: PreToolUseInput) -> PreToolUseOutput:
        arrived.append(input.tool_input["command"])
        if len(arrived) == n:
            all_in.set()
        await all_in.wait()  # returns only once every request is in flight at once
        return PreToolUseOutput(additional_context="met " + input.tool_input["command"])

    results: dict[int, Response] = {}

    async with serving(registry_of(rendezvous)) as server:

        async def one(i: int) -> None:
            sid = "shared" if same_session else f"s-{i}"
            results[i] = await post_once(server.port, payload(f"c{i}", session_id=sid))

        with anyio.fail_after(20):  # a server that serialises requests deadlocks here
            async with anyio.create_task_group() as tg:
                for i in range(n):
                    tg.start_soon(one, i)
        assert server.open_sessions == (1 if same_session else n)
    assert sorted(arrived) == [f"c{i}" for i in range(n)]
    for i, resp in results.items():
        assert resp.status == 200
        assert resp.json()["hookSpecificOutput"]["additionalContext"] == f"met c{i}"


@pytest.mark.anyio
async def test_graceful_shutdown_finishes_the_in_flight_request() -> None:
    entered = anyio.Event()
    release = anyio.Event()

    async def slow(input: PreToolUseInput) -> PreToolUseOutput:
        entered.set()
        await release.wait()
        return PreToolUseOutput(additional_context="finished")

    server = HookServer(registry_of(slow), token=TOKEN)
    run_done = anyio.Event()
    answer: list[Response] = []
    with anyio.fail_after(20):
        async with anyio.create_task_group() as tg:

            async def started_run(*, task_status: anyio.abc.TaskStatus[int]) -> None:
                await server.run(task_status=task_status)
                run_done.set()

            port = await tg.start(started_run)
            idle = await Client.connect(port)  # an idle keep-alive connection
            assert (await idle.request("GET", "/healthz", headers={})).status == 200

            async def ask() -> None:
                answer.append(await post_once(port, payload()))

            tg.start_soon(ask)
            await entered.wait()
            server.shutdown()
            assert server.stopping
            await anyio.wait_all_tasks_blocked()
            assert not run_done.is_set()  # waiting for the request in flight
            assert server.in_flight == 1
            release.set()
            await run_done.wait()
            # the idle connection was closed; the listener too
            with pytest.raises((anyio.EndOfStream, anyio.BrokenResourceError)):
                await idle.stream.receive()
            await idle.aclose()
    (resp,) = answer
    assert resp.status == 200
    assert resp.headers["connection"] == "close"
    assert resp.json()["hookSpecificOutput"]["additionalContext"] == "finished"
    with pytest.raises(OSError):
        await anyio.connect_tcp("127.0.0.1", port)


@pytest.mark.anyio
async def test_shutdown_drains_background_work() -> None:
    release = anyio.Event()
    finished: list[bool] = []

    async def background(input: PreToolUseInput) -> None:
        await release.wait()
        finished.append(server.stopping)

    registry = registry_of(CallbackHook(background, background=True), deny_rm)
    server = HookServer(registry, token=TOKEN)
    run_done = anyio.Event()
    with anyio.fail_after(20):
        async with anyio.create_task_group() as tg:

            async def run(*, task_status: anyio.abc.TaskStatus[int]) -> None:
                await server.run(task_status=task_status)
                run_done.set()

            port = await tg.start(run)
            resp = await post_once(port, payload(session_id="bg"))
            assert resp.status == 200  # the background handler holds nothing up
            assert resp.json()["hookSpecificOutput"]["additionalContext"] == "checked"
            server.shutdown()
            await anyio.wait_all_tasks_blocked()
            assert not run_done.is_set()  # the session waits for its background work
            release.set()
            await run_done.wait()
    assert finished == [True]  # ran to its end, after the shutdown began


@pytest.mark.anyio
async def test_sessions_close_after_session_end_and_past_the_cap() -> None:
    registry = HookRegistry(
        {
            "PreToolUse": [HookMatcher(hooks=[deny_rm])],
            "SessionEnd": [HookMatcher(hooks=[lambda input: None])],
        }
    )
    async with serving(registry, max_sessions=3) as server:
        client = await Client.connect(server.port)
        for sid in ("a", "b"):
            assert (await client.post(payload(session_id=sid))).status == 200
        assert server.open_sessions == 2
        end = {"hook_event_name": "SessionEnd", "session_id": "a", "cwd": "/tmp"}
        end["reason"] = "logout"
        assert (await client.post(end)).status == 200
        assert server.open_sessions == 1
        for sid in ("c", "d", "e", "f"):
            assert (await client.post(payload(session_id=sid))).status == 200
        assert server.open_sessions == 3  # least recently used closed first
        await client.aclose()


# ------------------------------------------------------------- subprocess

GATE_MODULE = """\
import os

import anyio

from agent_hooks import PreToolUseInput, PreToolUseOutput


async def gate(input: PreToolUseInput) -> PreToolUseOutput:
    # tell the test we are in flight, then wait until it lets us go
    async with await anyio.connect_tcp("127.0.0.1", int(os.environ["GATE_PORT"])) as stream:
        await stream.send(input.tool_input["command"].encode())
        word = await stream.receive()
    return PreToolUseOutput(additional_context=f"{input.tool_input['command']}: {word.decode()}")
"""


def _wait_listening(proc: subprocess.Popen[bytes]) -> tuple[int, list[str]]:
    """The port from the start-up line, and the lines before it."""
    assert proc.stderr is not None
    before = []
    for raw in proc.stderr:
        line = raw.decode()
        if "listening on http://127.0.0.1:" in line:
            return int(line.rsplit(":", 1)[1].strip()), before
        before.append(line)
    raise AssertionError("the server did not start: " + "".join(before))


def _http(port: int, method: str, path: str, body: Any = None, headers: Any = None) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


def test_serve_subprocess(tmp_path: Path) -> None:
    gate_dir = tmp_path / "conf"
    gate_dir.mkdir()
    modname = f"gate_{os.getpid()}"
    (gate_dir / f"{modname}.py").write_text(GATE_MODULE)
    config = gate_dir / "hooks.json"
    config.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [{"hooks": [{"type": "python", "callable": f"{modname}:gate"}]}]
                }
            }
        )
    )
    gate = socket.socket()
    gate.bind(("127.0.0.1", 0))
    gate.listen(8)
    gate.settimeout(30)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "GATE_PORT": str(gate.getsockname()[1]),
        "MY_TOKEN": TOKEN,
    }
    argv = [sys.executable, "-m", "agent_hooks", "serve", "--config", str(config)]
    argv += ["--port", "0", "--token-env", "MY_TOKEN", "--project-dir", str(tmp_path / "p")]
    proc = subprocess.Popen(
        argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    released: list[socket.socket] = []
    try:
        port, before = _wait_listening(proc)
        assert before == []  # nothing to complain about

        assert _http(port, "GET", "/healthz")[0] == 200
        status, headers, _ = _http(port, "POST", "/", payload())
        assert status == 401 and headers["WWW-Authenticate"] == "Bearer"

        auth = {**AUTH, "Content-Type": "application/json"}
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            futures = [
                pool.submit(_http, port, "POST", "/hooks", payload(word), auth)
                for word in ("one", "two")
            ]
            # both hook calls reach the gate before either is let go: concurrent
            for _ in range(2):
                conn, _ = gate.accept()
                conn.settimeout(30)
                assert conn.recv(16) in (b"one", b"two")
                released.append(conn)
            proc.send_signal(signal.SIGTERM)
            line = proc.stderr.readline().decode()
            assert "SIGTERM: shutting down" in line, line
            # the listener closes at once, while both requests are still in flight
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=5).close()
                except OSError:
                    break
                assert time.monotonic() < deadline, "still accepting after SIGTERM"
                time.sleep(0.01)
            assert not any(f.done() for f in futures)
            for conn in released:
                conn.sendall(b"go")
            answers = sorted(f.result(timeout=30) for f in futures)
        for (status, _headers, body), word in zip(answers, ("one", "two"), strict=True):
            assert status == 200
            assert json.loads(body) == {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "additionalContext": f"{word}: go",
                }
            }
        assert proc.wait(timeout=30) == 0
        rest = proc.stderr.read().decode()
        assert "stopped" in rest
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
    finally:
        for conn in released:
            conn.close()
        gate.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        ([], {}, "no bearer token"),
        (["--token-env", "OTHER"], {"AGENT_HOOKS_TOKEN": "x"}, "$OTHER"),
        (["--token-file", "/nonexistent/token"], {}, "cannot read --token-file"),
        (["--max-body", "0", "--no-auth"], {}, "--max-body"),
        (["--header-timeout", "0", "--no-auth"], {}, "--header-timeout must be positive"),
        (["--body-timeout", "-1", "--no-auth"], {}, "--body-timeout must be positive"),
        (["--idle-timeout", "nan", "--no-auth"], {}, "--idle-timeout must be positive"),
        (["--max-connections", "0", "--no-auth"], {}, "--max-connections must be positive"),
        (["--max-sessions", "0", "--no-auth"], {}, "--max-sessions must be positive"),
        (["--session-idle", "-1", "--no-auth"], {}, "--session-idle must be 0 or more"),
        (
            ["--max-body", "2000", "--max-buffered", "1000", "--no-auth"],
            {},
            "--max-buffered must be at least --max-body",
        ),
    ],
)
def test_serve_refuses_to_start_without_a_token(
    tmp_path: Path, args: list[str], env: dict[str, str], message: str
) -> None:
    proc = cli_in_process(
        ["serve", "--port", "0", *args],
        env={"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), **env},
        cwd=os.getcwd(),
    )
    assert proc.returncode == 2
    assert message in proc.stderr


def test_the_command_line_defaults_are_the_servers() -> None:
    from agent_hooks._bridges import _server
    from agent_hooks._bridges._cli import _serve

    for name in (
        "DEFAULT_MAX_CONNECTIONS",
        "DEFAULT_MAX_SESSIONS",
        "DEFAULT_HEADER_TIMEOUT",
        "DEFAULT_BODY_TIMEOUT",
        "DEFAULT_IDLE_TIMEOUT",
        "DEFAULT_SESSION_IDLE",
    ):
        assert getattr(_serve, name) == getattr(_server, name), name


def test_serve_token_file(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(textwrap.dedent(f"  {TOKEN}\n"))
    argv = [sys.executable, "-m", "agent_hooks", "serve", "--port", "0"]
    proc = subprocess.Popen(
        [*argv, "--token-file", str(token_file)],
        env={"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    try:
        port, before = _wait_listening(proc)
        assert any("no hooks loaded" in line for line in before)
        assert _http(port, "POST", "/", payload(), {"Authorization": "Bearer nope"})[0] == 401
        status, _, body = _http(port, "POST", "/", payload(), AUTH)
        assert (status, json.loads(body)) == (200, {})
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()


@pytest.mark.anyio
async def test_an_internal_error_is_a_500_and_the_server_lives_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import agent_hooks._bridges._sessions as serve_module  # (the server core's dispatch path)

    logged: list[str] = []

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("dispatch exploded")

    async with serving(registry_of(deny_rm), log=logged.append) as server:
        client = await Client.connect(server.port)
        with monkeypatch.context() as patch:
            patch.setattr(serve_module, "dispatch_payload", broken)
            resp = await client.post(payload())
        assert resp.status == 500
        assert "RuntimeError" in resp.json()["error"]
        assert any("dispatch exploded" in line for line in logged)
        assert (await client.post(payload("rm x"))).status == 200
        await client.aclose()


@pytest.mark.anyio
async def test_configuration_diagnostics_are_logged_once(tmp_path: Path) -> None:
    from agent_hooks._config._load import load

    config = tmp_path / "hooks.json"
    config.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "hooks": [
                                {"type": "no-such-kind"},
                                {"type": "command", "command": "echo '{\"tool_name\": 1}'"},
                            ]
                        }
                    ]
                }
            }
        )
    )
    registry = load(config, project_dir=tmp_path / "elsewhere").registry()
    logged: list[str] = []
    async with serving(registry, log=logged.append) as server:
        for _ in range(3):
            assert (await post_once(server.port, payload())).status == 200
    assert sum("no-such-kind" in line for line in logged) == 1  # at start-up
    said = "'tool_name' is a key of the PreToolUse payload"
    assert sum(said in line for line in logged) == 3  # once per request that said it
