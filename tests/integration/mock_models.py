"""Loopback mocks of the model APIs the real harnesses call, scripted turn by turn.

One :class:`MockModel` serves one harness run on ``127.0.0.1`` (stdlib
``http.server`` in a thread of the test process). It speaks one API:

* ``anthropic``: Anthropic Messages, ``POST /v1/messages`` (streaming SSE or JSON),
  ``/v1/messages/count_tokens`` (Claude Code);
* ``responses``: OpenAI Responses, ``POST /v1/responses`` streaming SSE with the full
  event sequence (Codex, Copilot CLI);
* ``gemini``: ``POST /v1beta/models/<model>:streamGenerateContent`` (SSE),
  ``:generateContent`` and ``:countTokens`` (Gemini CLI).

The script is stateless and read off the conversation in each request: a request
that offers the shell tool and carries ``k`` tool results gets a call of
``commands[k]`` while ``k < len(commands)``, and the final text after that (so a
harness that continues after a Stop block gets the final text again). Requests that
do not offer the shell tool (titles, classifiers, quota checks) get a short text.

Every request is logged (:attr:`MockModel.requests`, and one JSON line per request in
``log_path`` when given). The mock is bounded: past ``max_requests`` it answers 503 and
shuts down; past ``lifetime`` seconds it shuts down by itself; leaving the ``with``
block shuts it down and joins its thread.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal

import attrs

Api = Literal["anthropic", "responses", "gemini"]

FINAL_TEXT = "All done: MOCK-FINAL-ANSWER."
SIDE_TEXT = "ok"


@attrs.frozen
class MockRequest:
    """One request the harness sent."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: Any
    """The JSON body (``None`` when there was none or it was not JSON)."""
    main: bool
    """It offered the shell tool: a turn of the agent loop (not a side request)."""
    answer: str
    """``tool:<command>``, ``final``, ``side``, ``count``, ``refused`` or ``unknown``."""

    def text(self) -> str:
        """The whole body as JSON text, to look for strings the model was told."""
        return json.dumps(self.body, ensure_ascii=False)


def _sse(events: Sequence[tuple[str | None, Mapping[str, Any]]]) -> bytes:
    out: list[str] = []
    for name, data in events:
        if name is not None:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


# ---------------------------------------------------------------- Anthropic Messages


def _anthropic_tool_results(body: Mapping[str, Any]) -> int:
    n = 0
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, list):
            n += sum(
                1
                for block in content
                if isinstance(block, Mapping) and block.get("type") == "tool_result"
            )
    return n


def _anthropic_offers(body: Mapping[str, Any], tool: str) -> bool:
    return any(isinstance(t, Mapping) and t.get("name") == tool for t in body.get("tools") or [])


def _anthropic_message(
    blocks: list[dict[str, Any]], stop_reason: str, model: str, msg_id: str
) -> dict[str, Any]:
    return {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 12, "output_tokens": 6},
    }


def _anthropic_stream(
    blocks: list[dict[str, Any]], stop_reason: str, model: str, msg_id: str
) -> bytes:
    start = _anthropic_message([], stop_reason, model, msg_id)
    start["stop_reason"] = None
    events: list[tuple[str | None, Mapping[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start}),
    ]
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            events.append(
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": index,
                        "content_block": {"type": "text", "text": ""},
                    },
                )
            )
            events.append(
                (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "text_delta", "text": block["text"]},
                    },
                )
            )
        else:
            events.append(
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": index,
                        "content_block": {**block, "input": {}},
                    },
                )
            )
            events.append(
                (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {
                            "type": "input_json_delta",
                            "partial_json": json.dumps(block["input"]),
                        },
                    },
                )
            )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": 6},
            },
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return _sse(events)


# ---------------------------------------------------------------- OpenAI Responses


def _responses_tool_results(body: Mapping[str, Any]) -> int:
    items = body.get("input")
    if not isinstance(items, list):
        return 0
    return sum(
        1
        for item in items
        if isinstance(item, Mapping) and item.get("type") == "function_call_output"
    )


def _responses_tool_names(body: Mapping[str, Any]) -> list[str]:
    names = []
    for tool in body.get("tools") or []:
        if isinstance(tool, Mapping):
            name = tool.get("name") or (tool.get("function") or {}).get("name")
            if isinstance(name, str):
                names.append(name)
    return names


def _responses_stream(item: dict[str, Any], model: str, resp_id: str) -> bytes:
    seq = itertools.count()
    base = {
        "id": resp_id,
        "object": "response",
        "created_at": int(time.time()),
        "model": model,
        "output": [],
        "status": "in_progress",
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "parallel_tool_calls": False,
        "tool_choice": "auto",
        "tools": [],
    }
    events: list[tuple[str | None, Mapping[str, Any]]] = [
        (
            "response.created",
            {"type": "response.created", "sequence_number": next(seq), "response": base},
        ),
        (
            "response.in_progress",
            {"type": "response.in_progress", "sequence_number": next(seq), "response": base},
        ),
    ]
    if item["type"] == "function_call":
        added = {**item, "arguments": "", "status": "in_progress"}
        events += [
            (
                "response.output_item.added",
                {
                    "type": "response.output_item.added",
                    "sequence_number": next(seq),
                    "output_index": 0,
                    "item": added,
                },
            ),
            (
                "response.function_call_arguments.delta",
                {
                    "type": "response.function_call_arguments.delta",
                    "sequence_number": next(seq),
                    "item_id": item["id"],
                    "output_index": 0,
                    "delta": item["arguments"],
                },
            ),
            (
                "response.function_call_arguments.done",
                {
                    "type": "response.function_call_arguments.done",
                    "sequence_number": next(seq),
                    "item_id": item["id"],
                    "output_index": 0,
                    "arguments": item["arguments"],
                },
            ),
        ]
    else:
        text = item["content"][0]["text"]
        part = {"type": "output_text", "text": "", "annotations": []}
        events += [
            (
                "response.output_item.added",
                {
                    "type": "response.output_item.added",
                    "sequence_number": next(seq),
                    "output_index": 0,
                    "item": {**item, "content": [], "status": "in_progress"},
                },
            ),
            (
                "response.content_part.added",
                {
                    "type": "response.content_part.added",
                    "sequence_number": next(seq),
                    "item_id": item["id"],
                    "output_index": 0,
                    "content_index": 0,
                    "part": part,
                },
            ),
            (
                "response.output_text.delta",
                {
                    "type": "response.output_text.delta",
                    "sequence_number": next(seq),
                    "item_id": item["id"],
                    "output_index": 0,
                    "content_index": 0,
                    "delta": text,
                },
            ),
            (
                "response.output_text.done",
                {
                    "type": "response.output_text.done",
                    "sequence_number": next(seq),
                    "item_id": item["id"],
                    "output_index": 0,
                    "content_index": 0,
                    "text": text,
                },
            ),
            (
                "response.content_part.done",
                {
                    "type": "response.content_part.done",
                    "sequence_number": next(seq),
                    "item_id": item["id"],
                    "output_index": 0,
                    "content_index": 0,
                    "part": {**part, "text": text},
                },
            ),
        ]
    events.append(
        (
            "response.output_item.done",
            {
                "type": "response.output_item.done",
                "sequence_number": next(seq),
                "output_index": 0,
                "item": item,
            },
        )
    )
    done = {
        **base,
        "status": "completed",
        "output": [item],
        "usage": {
            "input_tokens": 12,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 6,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 18,
        },
    }
    events.append(
        (
            "response.completed",
            {"type": "response.completed", "sequence_number": next(seq), "response": done},
        )
    )
    return _sse(events)


def responses_shell_arguments(tool: str, command: str) -> dict[str, Any]:
    """The arguments of a shell call, as the harness's own shell tool takes them."""
    if tool == "exec_command":  # Codex
        return {"cmd": command}
    if tool == "shell":  # older Codex
        return {"command": ["bash", "-lc", command]}
    return {"command": command, "description": "Run a shell command"}  # Copilot's bash


# ---------------------------------------------------------------- Gemini


def _gemini_tool_results(body: Mapping[str, Any]) -> int:
    n = 0
    for content in body.get("contents") or []:
        if isinstance(content, Mapping):
            n += sum(
                1
                for part in content.get("parts") or []
                if isinstance(part, Mapping) and "functionResponse" in part
            )
    return n


def _gemini_offers(body: Mapping[str, Any], tool: str) -> bool:
    for entry in body.get("tools") or []:
        if isinstance(entry, Mapping):
            for decl in entry.get("functionDeclarations") or []:
                if isinstance(decl, Mapping) and decl.get("name") == tool:
                    return True
    return False


def _gemini_chunk(part: dict[str, Any], model: str) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 6, "totalTokenCount": 18},
        "modelVersion": model,
    }


# ---------------------------------------------------------------- the server


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    mock: MockModel


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 30  # an idle keep-alive connection ends its thread
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def do_GET(self) -> None:
        self._send(404, b'{"error": "not found"}', "application/json")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = None
        status, payload, ctype = self.server.mock.answer(
            self.command, self.path, dict(self.headers), body
        )
        self._send(status, payload, ctype)

    def _send(self, status: int, payload: bytes, ctype: str) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()
        except OSError:  # the harness went away
            self.close_connection = True


class MockModel:
    """A scripted model API on 127.0.0.1 for one harness run (use it as a ``with`` block)."""

    def __init__(
        self,
        api: Api,
        commands: Sequence[str] = (),
        *,
        shell_tool: str,
        model: str = "mock-model",
        max_requests: int = 40,
        lifetime: float = 240.0,
        log_path: Path | None = None,
        first_turn: float = 0.0,
    ) -> None:
        """``first_turn``: seconds the first main request waits for its answer (a real
        model's first turn; the benchmarks' "session's first call" after it)."""
        self.api: Api = api
        self.first_turn = first_turn
        self.commands = list(commands)
        self.shell_tool = shell_tool
        self.model = model
        self.max_requests = max_requests
        self.lifetime = lifetime
        self.log_path = log_path
        self.requests: list[MockRequest] = []
        self.refused = 0
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._timer: threading.Timer | None = None
        self._stopped = threading.Event()
        self._done = threading.Event()

    # -- life cycle

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> MockModel:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.mock = self
        self._server = server
        self._thread = threading.Thread(target=self._serve, args=(server,), daemon=True)
        self._thread.start()
        self._timer = threading.Timer(self.lifetime, self._stop_serving)
        self._timer.daemon = True
        self._timer.start()
        return self

    def _serve(self, server: _Server) -> None:
        try:
            server.serve_forever(poll_interval=0.1)
        finally:
            server.server_close()  # refuse new connections at once
            self._done.set()

    def wait_stopped(self, timeout: float) -> bool:
        """Wait (bounded) until the mock stopped serving by itself; True if it did."""
        return self._done.wait(timeout)

    def __exit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._stop_serving()
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._server is not None:
            self._server.server_close()

    def _stop_serving(self) -> None:
        if self._server is not None and not self._stopped.is_set():
            self._stopped.set()
            # shutdown() waits for serve_forever: never call it from a handler thread
            threading.Thread(target=self._server.shutdown, daemon=True).start()

    # -- what was asked

    @property
    def main_requests(self) -> list[MockRequest]:
        with self._lock:
            return [r for r in self.requests if r.main]

    def tool_calls(self) -> list[str]:
        return [
            r.answer.removeprefix("tool:")
            for r in self.main_requests
            if r.answer.startswith("tool:")
        ]

    def saw(self, text: str) -> bool:
        """Some request carried ``text`` (a hook's reason or context reached the model)."""
        with self._lock:
            return any(text in r.text() for r in self.requests)

    def describe(self) -> str:
        with self._lock:
            return "\n".join(
                f"{r.method} {r.path} main={r.main} -> {r.answer}" for r in self.requests
            )

    # -- answering

    def answer(
        self, method: str, path: str, headers: dict[str, str], body: Any
    ) -> tuple[int, bytes, str]:
        with self._lock:
            if len(self.requests) >= self.max_requests:
                self.refused += 1
                self._stop_serving()
                return (
                    503,
                    b'{"error": {"message": "mock request cap reached"}}',
                    "application/json",
                )
        body_map: Mapping[str, Any] = body if isinstance(body, Mapping) else {}
        if self.api == "anthropic":
            status, payload, ctype, main, kind = self._anthropic(path, body_map)
        elif self.api == "responses":
            status, payload, ctype, main, kind = self._responses(path, body_map)
        else:
            status, payload, ctype, main, kind = self._gemini(path, body_map)
        record = MockRequest(
            method=method, path=path, headers=headers, body=body, main=main, answer=kind
        )
        with self._lock:
            first_main = main and not any(r.main for r in self.requests)
            self.requests.append(record)
        if first_main and self.first_turn > 0:
            time.sleep(self.first_turn)  # (this handler's thread: a model thinking)
        if self.log_path is not None:
            with self._lock, self.log_path.open("a") as log:
                log.write(
                    json.dumps({"path": path, "main": main, "answer": kind, "body": body}) + "\n"
                )
        return status, payload, ctype

    def _next(self, results: int) -> str | None:
        """The command to call next, or ``None`` for the final text."""
        return self.commands[results] if results < len(self.commands) else None

    def _anthropic(self, path: str, body: Mapping[str, Any]) -> tuple[int, bytes, str, bool, str]:
        if "count_tokens" in path:
            return 200, b'{"input_tokens": 12}', "application/json", False, "count"
        if not path.startswith("/v1/messages"):
            return (
                404,
                b'{"type": "error", "error": {"type": "not_found_error", "message": "mock"}}',
                "application/json",
                False,
                "unknown",
            )
        main = _anthropic_offers(body, self.shell_tool)
        command = self._next(_anthropic_tool_results(body)) if main else None
        n = next(self._ids)
        if command is not None:
            blocks: list[dict[str, Any]] = [
                {"type": "text", "text": "I will run a command."},
                {
                    "type": "tool_use",
                    "id": f"toolu_mock{n:04d}",
                    "name": self.shell_tool,
                    "input": {"command": command, "description": "Run a shell command"},
                },
            ]
            stop, kind = "tool_use", f"tool:{command}"
        else:
            blocks = [{"type": "text", "text": FINAL_TEXT if main else SIDE_TEXT}]
            stop, kind = "end_turn", "final" if main else "side"
        msg_id = f"msg_mock{n:04d}"
        if body.get("stream"):
            return (
                200,
                _anthropic_stream(blocks, stop, self.model, msg_id),
                "text/event-stream",
                main,
                kind,
            )
        message = _anthropic_message(blocks, stop, self.model, msg_id)
        return 200, json.dumps(message).encode(), "application/json", main, kind

    def _responses(self, path: str, body: Mapping[str, Any]) -> tuple[int, bytes, str, bool, str]:
        if not path.rstrip("/").endswith("/responses"):
            return (
                404,
                b'{"error": {"message": "mock: unknown path"}}',
                "application/json",
                False,
                "unknown",
            )
        main = self.shell_tool in _responses_tool_names(body)
        command = self._next(_responses_tool_results(body)) if main else None
        n = next(self._ids)
        if command is not None:
            item: dict[str, Any] = {
                "type": "function_call",
                "id": f"fc_mock{n:04d}",
                "call_id": f"call_mock{n:04d}",
                "name": self.shell_tool,
                "arguments": json.dumps(responses_shell_arguments(self.shell_tool, command)),
                "status": "completed",
            }
            kind = f"tool:{command}"
        else:
            item = {
                "type": "message",
                "id": f"msg_mock{n:04d}",
                "role": "assistant",
                "status": "completed",
                "content": [
                    {
                        "type": "output_text",
                        "text": FINAL_TEXT if main else SIDE_TEXT,
                        "annotations": [],
                    }
                ],
            }
            kind = "final" if main else "side"
        return (
            200,
            _responses_stream(item, self.model, f"resp_mock{n:04d}"),
            "text/event-stream",
            main,
            kind,
        )

    def _gemini(self, path: str, body: Mapping[str, Any]) -> tuple[int, bytes, str, bool, str]:
        if ":countTokens" in path:
            return 200, b'{"totalTokens": 12}', "application/json", False, "count"
        if ":streamGenerateContent" not in path and ":generateContent" not in path:
            return (
                404,
                b'{"error": {"code": 404, "message": "mock: unknown path"}}',
                "application/json",
                False,
                "unknown",
            )
        main = _gemini_offers(body, self.shell_tool)
        command = self._next(_gemini_tool_results(body)) if main else None
        if command is not None:
            part: dict[str, Any] = {
                "functionCall": {
                    "name": self.shell_tool,
                    "args": {"command": command, "description": "Run a shell command"},
                }
            }
            kind = f"tool:{command}"
        else:
            part = {"text": FINAL_TEXT if main else SIDE_TEXT}
            kind = "final" if main else "side"
        chunk = _gemini_chunk(part, self.model)
        if ":streamGenerateContent" in path:
            return 200, _sse([(None, chunk)]), "text/event-stream", main, kind
        return 200, json.dumps(chunk).encode(), "application/json", main, kind


def iter_json_lines(path: Path) -> Iterator[Any]:
    """The records of a mock's request log."""
    if path.exists():
        for line in path.read_text().splitlines():
            yield json.loads(line)
