"""The mock model APIs themselves (no harness needed, part of the fast suite): each
scripts a shell call then the final text, logs every request, and is bounded."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from mock_models import FINAL_TEXT, MockModel, iter_json_lines


def post(url: str, body: Any) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, exc.read()


def sse_data(raw: bytes) -> list[Any]:
    return [json.loads(line[6:]) for line in raw.decode().splitlines() if line.startswith("data: ")]


def test_anthropic_tool_call_then_final_text(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    tools = [{"name": "Bash", "input_schema": {}}]
    with MockModel("anthropic", ["rm -r victim"], shell_tool="Bash", log_path=log) as mock:
        status, raw = post(
            f"{mock.url}/v1/messages?beta=true",
            {"stream": True, "tools": tools, "messages": [{"role": "user", "content": "hi"}]},
        )
        assert status == 200
        events = sse_data(raw)
        assert next(e["type"] for e in events) == "message_start"
        deltas = [e["delta"] for e in events if e["type"] == "content_block_delta"]
        assert {
            "type": "input_json_delta",
            "partial_json": json.dumps(
                {"command": "rm -r victim", "description": "Run a shell command"}
            ),
        } in deltas
        done = [
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "x", "content": "REASON-X"}],
            }
        ]
        status, raw = post(f"{mock.url}/v1/messages", {"tools": tools, "messages": done})
        assert json.loads(raw)["content"] == [{"type": "text", "text": FINAL_TEXT}]
        status, raw = post(f"{mock.url}/v1/messages", {"messages": []})  # a side request
        assert json.loads(raw)["content"][0]["text"] == "ok"
    assert mock.tool_calls() == ["rm -r victim"]
    assert [r.answer for r in mock.requests] == ["tool:rm -r victim", "final", "side"]
    assert mock.saw("REASON-X")
    assert [r["answer"] for r in iter_json_lines(log)] == ["tool:rm -r victim", "final", "side"]


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("exec_command", {"cmd": "ls"}),
        ("bash", {"command": "ls", "description": "Run a shell command"}),
    ],
)
def test_responses_full_event_sequence(tool: str, args: dict[str, str]) -> None:
    with MockModel("responses", ["ls"], shell_tool=tool) as mock:
        _status, raw = post(
            f"{mock.url}/v1/responses",
            {"stream": True, "tools": [{"type": "function", "name": tool}], "input": []},
        )
        events = sse_data(raw)
        assert [e["type"] for e in events] == [
            "response.created",
            "response.in_progress",
            "response.output_item.added",
            "response.function_call_arguments.delta",
            "response.function_call_arguments.done",
            "response.output_item.done",
            "response.completed",
        ]
        assert json.loads(events[-1]["response"]["output"][0]["arguments"]) == args
        result = [{"type": "function_call_output", "call_id": "c", "output": "fine"}]
        _status, raw = post(
            f"{mock.url}/v1/responses",
            {"tools": [{"type": "function", "name": tool}], "input": result},
        )
        events = sse_data(raw)
        assert events[-1]["response"]["output"][0]["content"][0]["text"] == FINAL_TEXT


def test_gemini_stream_generate_content() -> None:
    tools = [{"functionDeclarations": [{"name": "run_shell_command"}]}]
    with MockModel("gemini", ["ls"], shell_tool="run_shell_command") as mock:
        path = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
        _status, raw = post(f"{mock.url}{path}", {"contents": [], "tools": tools})
        (chunk,) = sse_data(raw)
        assert (
            chunk["candidates"][0]["content"]["parts"][0]["functionCall"]["args"]["command"] == "ls"
        )
        answered = [
            {"role": "user", "parts": [{"functionResponse": {"name": "run_shell_command"}}]}
        ]
        _status, raw = post(f"{mock.url}{path}", {"contents": answered, "tools": tools})
        assert sse_data(raw)[0]["candidates"][0]["content"]["parts"][0]["text"] == FINAL_TEXT


def test_request_cap_answers_503_and_stops() -> None:
    with MockModel("anthropic", [], shell_tool="Bash", max_requests=2) as mock:
        assert post(f"{mock.url}/v1/messages", {})[0] == 200
        assert post(f"{mock.url}/v1/messages", {})[0] == 200
        assert post(f"{mock.url}/v1/messages", {})[0] == 503
        assert mock.wait_stopped(10)
    assert len(mock.requests) == 2 and mock.refused == 1


def test_lifetime_stops_the_mock_by_itself() -> None:
    with MockModel("anthropic", [], shell_tool="Bash", lifetime=0.2) as mock:
        assert mock.wait_stopped(10)
        with pytest.raises(OSError):
            post(f"{mock.url}/v1/messages", {})
