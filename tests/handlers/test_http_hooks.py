"""HTTP hooks (Claude Code's ``type: "http"``) against a local server started in the test:
2xx with an empty body is no opinion, 2xx with a JSON object is the answer, anything
else (status, body, refused connection, timeout) is a non-blocking error with a
diagnostic; ``$VAR`` in headers expands only for allowed names."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import attrs
import pytest

from agent_hooks import HookMatcher, HookRegistry, PreToolUseInput
from agent_hooks._config._load import load
from agent_hooks._handlers._http import HttpHook, expand_header, http_post
from agent_hooks._handlers._nodes import Outcome

h11 = pytest.importorskip("h11")

pytestmark = pytest.mark.anyio


@attrs.define
class Seen:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes


@attrs.define
class Reply:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    hold: anyio.Event | None = None
    """When set, the server waits for this event before answering."""


class LocalServer:
    """Answers every request with ``reply`` and records what it saw."""

    def __init__(self) -> None:
        self.reply = Reply()
        self.seen: list[Seen] = []
        self.arrived = anyio.Event()
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def handle(self, stream: anyio.abc.SocketStream) -> None:
        conn = h11.Connection(h11.SERVER)
        request = None
        body = b""
        async with stream:
            while True:
                event = conn.next_event()
                if event is h11.NEED_DATA:
                    try:
                        conn.receive_data(await stream.receive())
                    except anyio.EndOfStream:
                        conn.receive_data(b"")
                    continue
                if isinstance(event, h11.Request):
                    request = event
                elif isinstance(event, h11.Data):
                    body += bytes(event.data)
                elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                    break
            if request is None:
                return
            self.seen.append(
                Seen(
                    method=request.method.decode(),
                    target=request.target.decode(),
                    headers={k.decode(): v.decode() for k, v in request.headers},
                    body=body,
                )
            )
            self.arrived.set()
            reply = self.reply
            if reply.hold is not None:
                await reply.hold.wait()
            headers = [
                ("Content-Type", reply.content_type),
                ("Content-Length", str(len(reply.body))),
            ]
            await stream.send(conn.send(h11.Response(status_code=reply.status, headers=headers)))
            await stream.send(conn.send(h11.Data(data=reply.body)))
            await stream.send(conn.send(h11.EndOfMessage()))


@pytest.fixture
async def server() -> AsyncIterator[LocalServer]:
    srv = LocalServer()
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    srv.port = listener.extra(anyio.abc.SocketAttribute.local_port)
    async with listener, anyio.create_task_group() as tg:
        tg.start_soon(listener.serve, srv.handle)
        yield srv
        if srv.reply.hold is not None:
            srv.reply.hold.set()
        tg.cancel_scope.cancel()


def pre(command: str = "ls") -> PreToolUseInput:
    return PreToolUseInput(
        tool_name="Bash",
        tool_input={"command": command},
        tool_use_id="tu-1",
        session_id="s-1",
        cwd="/tmp",
    )


async def dispatch(*hooks: Any, input: PreToolUseInput | None = None) -> Any:
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=list(hooks))]})
    async with registry.session() as session:
        return await session.dispatch(input or pre())


def deny(reason: str) -> bytes:
    return json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }
    ).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ------------------------------------------------------------------ answers


async def test_empty_2xx_body_is_no_opinion(server: LocalServer) -> None:
    for status in (200, 204):
        server.reply = Reply(status=status)
        decision = await dispatch(HttpHook(url=server.url))
        (result,) = decision.results
        assert result.outcome is Outcome.OK
        assert result.output is None
        assert result.exit_code == status
        assert decision.diagnostics == ()
        assert not decision.blocked


async def test_whitespace_body_is_no_opinion(server: LocalServer) -> None:
    server.reply = Reply(body=b"  \n")
    decision = await dispatch(HttpHook(url=server.url))
    assert decision.results[0].outcome is Outcome.OK
    assert decision.results[0].output is None


async def test_json_answer_is_the_handlers_output(server: LocalServer) -> None:
    server.reply = Reply(body=deny("the server says no"))
    decision = await dispatch(HttpHook(url=server.url))
    assert decision.blocked
    assert decision.output.permission_decision == "deny"
    assert decision.reason == "the server says no"
    (seen,) = server.seen
    assert seen.method == "POST" and seen.target == "/hook"
    assert seen.headers["content-type"] == "application/json"
    payload = json.loads(seen.body)
    assert payload["hook_event_name"] == "PreToolUse"
    assert payload["tool_name"] == "Bash"
    assert payload["tool_input"] == {"command": "ls"}
    assert payload["session_id"] == "s-1"


async def test_answer_with_unknown_fields_keeps_the_rest(server: LocalServer) -> None:
    body = json.loads(deny("no"))
    body["whatever"] = 1
    server.reply = Reply(body=json.dumps(body).encode())
    decision = await dispatch(HttpHook(url=server.url))
    assert decision.output.permission_decision == "deny"
    assert any("whatever" in d.message for d in decision.diagnostics)


@pytest.mark.parametrize("status", [400, 401, 404, 500, 503, 301])
async def test_non_2xx_is_a_non_blocking_error(server: LocalServer, status: int) -> None:
    server.reply = Reply(status=status, body=deny("ignored"))
    decision = await dispatch(HttpHook(url=server.url))
    (result,) = decision.results
    assert result.outcome is Outcome.ERROR
    assert result.exit_code == status
    assert not decision.blocked
    assert decision.output.permission_decision is None
    assert any(str(status) in d.message for d in decision.diagnostics)


@pytest.mark.parametrize("body", [b"not json at all", b"[1, 2]", b'"a string"', b"{broken"])
async def test_body_that_is_not_a_json_object_is_an_error(server: LocalServer, body: bytes) -> None:
    server.reply = Reply(body=body, content_type="text/plain")
    decision = await dispatch(HttpHook(url=server.url))
    (result,) = decision.results
    assert result.outcome is Outcome.ERROR
    assert not decision.blocked
    assert any("not a JSON object" in d.message for d in decision.diagnostics)


async def test_connection_refused_is_a_non_blocking_error() -> None:
    url = f"http://127.0.0.1:{free_port()}/hook"
    decision = await dispatch(HttpHook(url=url))
    (result,) = decision.results
    assert result.outcome is Outcome.ERROR
    assert not decision.blocked
    assert any(url in d.message for d in decision.diagnostics)


async def test_timeout_is_a_non_blocking_error(server: LocalServer) -> None:
    server.reply = Reply(body=deny("too late"), hold=anyio.Event())
    with anyio.fail_after(10):
        decision = await dispatch(HttpHook(url=server.url, timeout=0.3))
    (result,) = decision.results
    assert result.outcome is Outcome.TIMEOUT
    assert not decision.blocked
    assert decision.diagnostics
    assert server.arrived.is_set()  # it did reach the server


async def test_on_error_block_makes_a_failure_block() -> None:
    url = f"http://127.0.0.1:{free_port()}/hook"
    decision = await dispatch(HttpHook(url=url, on_error="block"))
    assert decision.blocked


async def test_http_and_python_handlers_reduce_together(server: LocalServer) -> None:
    from agent_hooks import PreToolUseOutput

    server.reply = Reply(
        body=json.dumps(
            {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "http"}}
        ).encode()
    )

    def local(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(additional_context="python")

    decision = await dispatch(local, HttpHook(url=server.url))
    assert decision.output.additional_context == "python\nhttp"


# ------------------------------------------------------------------ headers


async def test_header_env_expansion_only_for_allowed_names(
    server: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOK_TOKEN", "tok-123")
    monkeypatch.setenv("HOOK_SECRET", "must-not-leak")
    hook = HttpHook(
        url=server.url,
        headers={
            "Authorization": "Bearer $HOOK_TOKEN",
            "X-Braced": "${HOOK_TOKEN}-suffix",
            "X-Secret": "[$HOOK_SECRET]",
            "X-Plain": "no variables",
        },
        allowed_env_vars=("HOOK_TOKEN",),
    )
    await dispatch(hook)
    (seen,) = server.seen
    assert seen.headers["authorization"] == "Bearer tok-123"
    assert seen.headers["x-braced"] == "tok-123-suffix"
    assert seen.headers["x-secret"] == "[]"
    assert seen.headers["x-plain"] == "no variables"
    assert "must-not-leak" not in json.dumps(seen.headers)


def test_expand_header() -> None:
    env = {"A": "1", "B": "2"}
    assert expand_header("$A/${A}/$B/${B}/$C", ["A"], env) == "1/1///"
    assert expand_header("$A$A", ["A", "B"], env) == "11"
    assert expand_header("price: $5", ["A"], env) == "price: $5"
    assert expand_header("${A", ["A"], env) == "${A"


# ---------------------------------------------------------- from a config file


async def test_http_hook_from_a_config_file(
    server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOK_TOKEN", "from-config")
    monkeypatch.setenv("OTHER", "nope")
    server.reply = Reply(body=deny("configured server says no"))
    path = tmp_path / "hooks.json"
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [
                                {
                                    "type": "http",
                                    "url": server.url,
                                    "headers": {"Authorization": "Bearer $HOOK_TOKEN $OTHER"},
                                    "allowedEnvVars": ["HOOK_TOKEN"],
                                    "timeout": 5,
                                }
                            ],
                        }
                    ]
                }
            }
        )
    )
    config = load(path, project_dir=tmp_path / "elsewhere")
    assert not config.errors
    async with config.registry().session() as session:
        decision = await session.dispatch(pre())
    assert decision.reason == "configured server says no", [d.message for d in decision.diagnostics]
    (result,) = decision.results
    assert result.handler is not None and result.handler.kind == "http"
    assert result.handler.name == server.url
    # "$OTHER" is not allowed: it expands to "", and the trailing blank goes
    assert server.seen[0].headers["authorization"] == "Bearer from-config"


async def test_bad_http_entries_are_diagnostics(tmp_path: Path) -> None:
    path = tmp_path / "hooks.json"
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "hooks": [
                                {"type": "http"},
                                {"type": "http", "url": "ftp://example.com/x"},
                            ]
                        }
                    ]
                }
            }
        )
    )
    config = load(path, project_dir=tmp_path / "elsewhere")
    messages = [d.message for d in config.errors]
    assert any("needs 'url'" in m for m in messages)
    assert any("ftp://" in m for m in messages)


# ------------------------------------------------------------------ http_post


async def test_http_post_reads_status_headers_and_body(server: LocalServer) -> None:
    server.reply = Reply(status=201, body=b'{"a": 1}')
    resp = await http_post(server.url + "?q=1", b"{}", {"X-Test": "yes"})
    assert resp.status == 201
    assert resp.body == b'{"a": 1}'
    assert resp.headers["content-type"] == "application/json"
    assert server.seen[0].target == "/hook?q=1"
    assert server.seen[0].headers["x-test"] == "yes"


async def test_http_post_caps_the_response(server: LocalServer) -> None:
    server.reply = Reply(body=b"x" * 5000)
    resp = await http_post(server.url, b"{}", max_response=1000)
    assert resp.body == b"x" * 1000 and resp.truncated


@pytest.mark.parametrize("url", ["ftp://x/y", "not a url", "http://"])
async def test_http_post_rejects_bad_urls(url: str) -> None:
    with pytest.raises(ValueError):
        await http_post(url, b"{}")


def test_http_hook_validates() -> None:
    from agent_hooks._base._errors import RegistrationError

    with pytest.raises(RegistrationError):
        HttpHook(url="file:///etc/passwd")
    with pytest.raises(RegistrationError):
        HttpHook(url="http://localhost/x", timeout=0)
