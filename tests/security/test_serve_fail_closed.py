"""``agent-hooks serve --fail-closed`` as a subprocess on a loopback port: Claude Code
reads any HTTP status but 2xx (and a 2xx body that is no JSON object) as "go on", so a
hook call the server cannot answer (unreadable, oversized or invalid payload, a wrong
token, a --config file that did not load) gets HTTP 200 and the blocking answer of its
event, which is the payload's, else the one the path ends with; with neither, an answer that
stops the agent. Without --fail-closed the same calls keep their error statuses. A
--token-file others can read is warned about at start.

The tests that only send requests to a ``--fail-closed`` server with no --config share
one (``fail_closed_port``: a server start is a process); the others start their own."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("h11")

TOKEN = "fail-closed-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
MAX_BODY = 4096

PRE_TOOL_USE = {
    "session_id": "s-1",
    "hook_event_name": "PreToolUse",
    "cwd": "/tmp",
    "tool_name": "Bash",
    "tool_input": {"command": "ls"},
    "tool_use_id": "tu-1",
}


@contextmanager
def serving(tmp_path: Path, *args: str) -> Iterator[tuple[int, list[str]]]:
    """``agent-hooks serve`` on a free port: ``(port, lines logged before listening)``;
    stopped (SIGINT, then killed if it hangs) on the way out."""
    token_file = tmp_path / "token"
    if not token_file.exists():
        token_file.write_text(TOKEN)
        token_file.chmod(0o600)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    argv = [sys.executable, "-m", "agent_hooks", "serve", "--port", "0"]
    argv += ["--token-file", str(token_file), "--max-body", str(MAX_BODY), *args]
    proc = subprocess.Popen(
        argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    try:
        before: list[str] = []
        for raw in proc.stderr:
            line = raw.decode()
            if "listening on http://127.0.0.1:" in line:
                port = int(line.rsplit(":", 1)[1].strip())
                break
            before.append(line)
        else:
            raise AssertionError("the server did not start: " + "".join(before))
        yield port, before
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()


@pytest.fixture(scope="module")
def fail_closed_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The port of one ``serve --fail-closed`` (no --config) for this module's tests;
    stopped by SIGINT (exit 0) when they are done."""
    with serving(tmp_path_factory.mktemp("fail-closed"), "--fail-closed") as (port, _):
        yield port


def post(port: int, path: str, body: bytes, headers: Mapping[str, str] = AUTH) -> tuple[int, Any]:
    """``(status, the body as JSON)``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=body, headers=dict(headers))
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def deny_reason(answer: Any) -> str:
    """The reason of a PreToolUse deny as Claude Code reads it (fails if it is none)."""
    specific = answer["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse"
    assert specific["permissionDecision"] == "deny"
    reason = specific["permissionDecisionReason"]
    assert isinstance(reason, str) and reason
    return reason


BAD_BODIES = {
    "not JSON": b"{not json",
    "cut short": json.dumps(PRE_TOOL_USE).encode()[:-5],
    "not an object": b"[1, 2]",
    "not UTF-8": b'{"hook_event_name": "\xff"}',
    "oversized": json.dumps({**PRE_TOOL_USE, "pad": "x" * (2 * MAX_BODY)}).encode(),
    "invalid payload": json.dumps({**PRE_TOOL_USE, "tool_name": 42}).encode(),
}


def test_bad_payloads_to_a_blocking_events_endpoint_are_denied(fail_closed_port: int) -> None:
    port = fail_closed_port
    for what, body in BAD_BODIES.items():
        status, answer = post(port, "/PreToolUse", body)
        assert status == 200, (what, answer)
        assert "fail-closed" in deny_reason(answer), what
    # a missing or wrong token is no answer either
    status, answer = post(port, "/hooks/PreToolUse", json.dumps(PRE_TOOL_USE).encode(), {})
    assert status == 200
    assert "bearer token" in deny_reason(answer)
    # a payload that is read is answered by the hooks (none loaded: no opinion)
    assert post(port, "/PreToolUse", json.dumps(PRE_TOOL_USE).encode()) == (200, {})


def test_the_payloads_event_names_the_block_when_the_path_does_not(fail_closed_port: int) -> None:
    port = fail_closed_port
    invalid = json.dumps({**PRE_TOOL_USE, "tool_name": 42}).encode()
    status, answer = post(port, "/", invalid)
    assert status == 200
    deny_reason(answer)
    # snake_case paths name the event too; PermissionRequest's block is a deny decision
    status, answer = post(port, "/hooks/permission_request", b"{oops")
    assert status == 200
    decision = answer["hookSpecificOutput"]["decision"]
    assert answer["hookSpecificOutput"]["hookEventName"] == "PermissionRequest"
    assert decision["behavior"] == "deny" and "fail-closed" in decision["message"]
    # Stop and UserPromptSubmit block with decision: "block"
    for event in ("Stop", "UserPromptSubmit"):
        status, answer = post(port, f"/{event}", b"")
        assert status == 200
        assert answer["decision"] == "block" and "fail-closed" in answer["reason"]


def test_an_unknown_event_gets_an_answer_that_stops_the_agent(fail_closed_port: int) -> None:
    port = fail_closed_port
    status, answer = post(port, "/hooks", b"{not json")
    assert status == 200
    assert answer["continue"] is False
    assert "fail-closed" in answer["stopReason"]
    assert answer["decision"] == "block" and answer["reason"] == answer["stopReason"]


def test_an_event_that_cannot_block_keeps_its_error_status(fail_closed_port: int) -> None:
    port = fail_closed_port
    status, answer = post(port, "/Notification", b"{not json")
    assert status == 400 and "not valid JSON" in answer["error"]


def test_without_fail_closed_errors_keep_their_statuses(tmp_path: Path) -> None:
    with serving(tmp_path) as (port, _):
        assert post(port, "/PreToolUse", BAD_BODIES["not JSON"])[0] == 400
        assert post(port, "/PreToolUse", BAD_BODIES["oversized"])[0] == 413
        assert post(port, "/PreToolUse", json.dumps(PRE_TOOL_USE).encode(), {})[0] == 401


def test_a_config_file_that_did_not_load_blocks_every_call(tmp_path: Path) -> None:
    broken = tmp_path / "hooks.json"
    broken.write_text("{ this is not json")
    with serving(tmp_path, "--fail-closed", "--config", str(broken)) as (port, before):
        assert any("every hook call will be blocked" in line for line in before), before
        status, answer = post(port, "/PreToolUse", json.dumps(PRE_TOOL_USE).encode())
        assert status == 200
        assert "hooks cannot run as configured" in deny_reason(answer)


def test_a_token_file_others_can_read_is_warned_about(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN)
    token_file.chmod(0o644)
    with serving(tmp_path, "--fail-closed") as (port, before):
        warned = [line for line in before if "--token-file" in line]
        assert warned == [
            f"agent-hooks serve: warning: --token-file {token_file} can be read by group or "
            f"others (mode 0644): whoever reads it can run these hooks; chmod 600 {token_file}\n"
        ]
        # it still serves (a server that does not start would leave the hooks failing open)
        assert post(port, "/PreToolUse", json.dumps(PRE_TOOL_USE).encode()) == (200, {})
    token_file.chmod(0o600)
    with serving(tmp_path) as (_, before):
        assert not [line for line in before if "--token-file" in line]
