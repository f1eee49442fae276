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
        time.sleep(0.02)  # (it starts in another process)
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


@pytest.mark.parametrize("server", ["started by this start", "running already"])
def test_daemon_start_with_the_guard_s_options_loads_its_hooks_before_the_first_call(
    home: Home, server: str
) -> None:
    """``daemon start -- OPTIONS`` (what install writes for Claude Code's SessionStart)
    loads the configuration of ``run OPTIONS`` in the project's worker, running nothing:
    the first call finds its hooks loaded (a Python hook's module imported once, before
    that call) and answers through them."""
    imported = home.tmp / "imported.txt"
    (home.project / "guardmod.py").write_text(
        f"with open({str(imported)!r}, 'a') as f:\n"
        "    f.write('imported\\n')\n\n\n"
        "def no_rm(input, tool_use_id, context):\n"
        "    if 'rm -rf' in input['tool_input'].get('command', ''):\n"
        "        return {'hookSpecificOutput': {'hookEventName': 'PreToolUse',\n"
        "                'permissionDecision': 'deny', 'permissionDecisionReason': 'no rm'}}\n"
        "    return None\n"
    )
    config = home.project / "py-guard.json"
    hook = {"type": "python", "callable": "guardmod:no_rm"}
    config.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}))
    home.env["PYTHONPATH"] = str(home.project)
    options = ["--config", str(config), "--trust-project-hooks"]
    if server == "running already":
        assert _start(home, "--project-dir", str(home.project)).returncode == 0
        _until(home, lambda s: s["workers"] == 1)
    done = _start(home, "--project-dir", str(home.project), "--", *options)
    assert done.returncode == 0, done.stderr
    deadline = time.monotonic() + DEADLINE
    while not imported.exists():
        assert time.monotonic() < deadline, f"not loaded ahead: {home.status()}"
        time.sleep(0.02)  # (the worker loads it in another process)
    assert home.status()["requests"] == 0  # type: ignore[index]
    call = subprocess.run(
        [*CLIENT, "run", *options, "--report"],
        input=json.dumps(home.payload()),
        capture_output=True,
        text=True,
        cwd=home.tmp,
        env=home.env,
        timeout=120,
        check=False,
    )
    assert denied(call) and json.loads(call.stdout)["resident"] is True, call.stderr
    assert imported.read_text() == "imported\n"  # (loaded once: ahead of the call)


def test_daemon_start_options_that_do_not_load_are_left_to_the_first_call(home: Home) -> None:
    """A configuration ``daemon start`` cannot load (a missing file, bad options) is
    not an error there; the first call reports it as ``run`` does, and still denies
    with ``--fail-closed``."""
    missing = home.tmp / "missing.json"
    assert _start(home, "--project-dir", str(home.project), "--", "--config", str(missing)).returncode == 0
    assert _start(home, "--project-dir", str(home.project), "--", "--bogus").returncode == 0
    _until(home, lambda s: s["workers"] == 1)
    call = subprocess.run(
        [*CLIENT, "run", "--config", str(missing), "--fail-closed"],
        input=json.dumps(home.payload("ls")),
        capture_output=True,
        text=True,
        cwd=home.tmp,
        env=home.env,
        timeout=120,
        check=False,
    )
    assert call.returncode == 2, call.stderr
    assert "missing.json" in call.stderr
