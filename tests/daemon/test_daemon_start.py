"""A server and a project's worker started off the caller's path: ``agent-hooks daemon
start`` starts them in the background and returns; a server keeps one spare worker
(no project loaded) that a new project's first call claims; a call with no server
still answers in-process (a deny is a deny) and starts the server with its project's
worker. Each test has its own socket directory and stops its server."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.daemon.test_daemon import DEADLINE
from tests.daemon.test_daemon_client_trust import CLIENT, Home, denied, warnings


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Home]:
    h = Home(tmp_path)
    try:
        yield h
    finally:
        h.close()


def _until(home: Home, ready: Any) -> dict[str, Any]:
    """The server's status once ``ready(status)`` holds (it starts in the background)."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        status = home.status()
        if status is not None and ready(status):
            return status
    raise AssertionError(f"the server did not get there: {home.status()}")


def _start(home: Home, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLIENT, "daemon", "start", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=home.tmp,
        env=home.env,
        timeout=120,
        check=False,
    )


def test_daemon_start_starts_the_server_and_the_project_s_worker(home: Home) -> None:
    done = _start(home, "--project-dir", str(home.project))
    assert done.returncode == 0, done.stderr
    status = _until(home, lambda s: s["workers"] == 1)
    assert status["requests"] == 0  # (started ahead of any call)
    call = home.run("--report", cwd=home.project)
    assert denied(call) and json.loads(call.stdout)["resident"] is True, call.stderr
    assert not warnings(call)
    # the call found its project's worker; a spare starts once it is answered
    _until(home, lambda s: s["workers"] == 1 and s["spare_worker"])


def test_daemon_start_reads_the_harness_s_payload_and_asks_a_running_server(
    home: Home,
) -> None:
    other = home.tmp / "other"
    (other / ".git").mkdir(parents=True)
    assert _start(home, "--project-dir", str(home.project)).returncode == 0
    _until(home, lambda s: s["workers"] == 1)
    payload = json.dumps({"hook_event_name": "SessionStart", "session_id": "s", "cwd": str(other)})
    assert _start(home, stdin=payload).returncode == 0
    _until(home, lambda s: s["workers"] == 2)


def test_a_new_project_claims_the_spare_worker_and_a_new_spare_starts(home: Home) -> None:
    first = home.run("--report", wait=True)
    assert denied(first) and json.loads(first.stdout)["resident"] is True, first.stderr
    _until(home, lambda s: s["spare_worker"] and s["workers"] == 1)
    other = home.tmp / "other"
    (other / ".git").mkdir(parents=True)
    second = home.run("--report", "--project-dir", str(other))
    assert denied(second) and json.loads(second.stdout)["resident"] is True, second.stderr
    _until(home, lambda s: s["spare_worker"] and s["workers"] == 2)


def test_a_first_call_without_a_server_answers_in_process_and_starts_its_worker(
    home: Home,
) -> None:
    first = home.run("--report")
    assert denied(first) and json.loads(first.stdout)["resident"] is False, first.stderr
    _until(home, lambda s: s["workers"] == 1)
