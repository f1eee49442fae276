"""Limits of command hooks (issue 15, items 6, 12, 13, 14): waiting for a process slot
does not spend a hook's timeout and a hook that never started says so; hooks wait for
file descriptors instead of failing to start, and a launch that fails for good is a
failure under the hook's policy; an answer cut at the output cap is a failure on events
that can block; credentials stay out of the hooks' environment.

The descriptor tests run a dispatch in a child interpreter whose ``RLIMIT_NOFILE`` is
lowered to what it holds plus a few, on asyncio and on trio, each bounded in time.
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from agent_hooks import (
    CommandHook,
    DiagnosticCode,
    HandlerResult,
    HookMatcher,
    HookRegistry,
    Outcome,
    PreToolUseInput,
    SessionStartInput,
    Severity,
)
from agent_hooks._events._capabilities import CAPABILITIES
from agent_hooks._events._names import HookEvent
from agent_hooks._handlers._limits import DEFAULT_SECRET_PATTERNS
from agent_hooks._handlers._nodes import HookCall
from tests.process_helpers import read_fifo_line

pytestmark = pytest.mark.anyio

PY = sys.executable
QPY = shlex.quote(PY)


def bash_call() -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"})


def codes(result: HandlerResult) -> set[DiagnosticCode]:
    return {d.code for d in result.diagnostics}


def py(code: str) -> str:
    return f"{QPY} -c {shlex.quote(code)}"


# --------------------------------------------------------------------------- #
# Item 6: the wait for a process slot
# --------------------------------------------------------------------------- #


async def test_queued_hooks_each_get_their_whole_timeout(tmp_path: Path) -> None:
    # One slot, five hooks of 0.3 s with a 1 s timeout each: the fifth waits 1.2 s for
    # its slot, longer than its timeout. Before, the wait counted and the last timed out.
    # (Each has 0.7 s to spare for its start on a loaded machine.)
    hooks = [CommandHook(command=f"sleep 0.3 # {i}", timeout=1.0) for i in range(5)]
    reg = HookRegistry({"PreToolUse": [HookMatcher(hooks=hooks)]}, max_processes=1)
    async with reg.session(cwd=str(tmp_path)) as s:
        start = anyio.current_time()
        d = await s.dispatch(bash_call())
        elapsed = anyio.current_time() - start
    assert [r.outcome for r in d.results] == [Outcome.OK] * 5, d.diagnostics
    assert elapsed >= 5 * 0.3  # one after another: the last waited past its timeout


async def test_not_started_is_a_failure_under_the_hook_policy(tmp_path: Path) -> None:
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    holder = CommandHook(command=f"echo ready > {fifo}; exec sleep 30", timeout=60)
    guard = CommandHook(command="true", timeout=0.2, on_error="block")
    reg = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Hold", hooks=[holder]),
                HookMatcher(matcher="Bash", hooks=[guard]),
            ]
        },
        max_processes=1,
    )
    async with reg.session(cwd=str(tmp_path)) as s, anyio.create_task_group() as tg:
        tg.start_soon(s.dispatch, PreToolUseInput(tool_name="Hold"))
        with anyio.fail_after(10):
            await read_fifo_line(fifo)
        d = await s.dispatch(bash_call())
        tg.cancel_scope.cancel()
    (r,) = d.results
    assert r.outcome is Outcome.ERROR
    assert {DiagnosticCode.NOT_STARTED, DiagnosticCode.FAILED_CLOSED} <= codes(r)
    assert d.blocked  # a guard that could not run does not let the call through
    assert "not started" in (d.reason or "")


async def test_a_hook_leaves_the_queue_before_the_callers_deadline(tmp_path: Path) -> None:
    """The node bounds its wait by the deadline of the scope it runs in, whoever set it,
    and answers (not started) before that scope cancels it."""
    limiter = anyio.CapacityLimiter(1)
    someone_else = object()
    await limiter.acquire_on_behalf_of(someone_else)
    node = CommandHook(command="true", timeout=30).to_node()
    call = HookCall(
        input=bash_call(),
        spec=CAPABILITIES[HookEvent.PRE_TOOL_USE],
        timeout=30,
        process_limiter=limiter,
    )
    start = anyio.current_time()
    try:
        with anyio.move_on_after(1.0) as scope:
            result = await node.call(call)
    finally:
        limiter.release_on_behalf_of(someone_else)
    assert not scope.cancelled_caught  # it answered before the deadline
    assert result.outcome is Outcome.ERROR
    assert codes(result) == {DiagnosticCode.NOT_STARTED}
    assert result.reason is not None and "all 1 process slots were busy" in result.reason
    assert 0.5 <= anyio.current_time() - start < 1.0


async def test_a_wait_longer_than_the_slack_does_not_cut_the_run(tmp_path: Path) -> None:
    # The slot is held 3.3 s, more than the command's 3 s clean-up slack: the waiter
    # (timeout 1 s, runs 0.8 s) must still run whole once it starts.
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    holder = CommandHook(command=f"echo ready > {fifo}; exec sleep 3.3", timeout=60)
    waiter = CommandHook(command="sleep 0.8", timeout=1)
    reg = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Hold", hooks=[holder]),
                HookMatcher(matcher="Bash", hooks=[waiter]),
            ]
        },
        max_processes=1,
    )
    async with reg.session(cwd=str(tmp_path)) as s, anyio.create_task_group() as tg:
        tg.start_soon(s.dispatch, PreToolUseInput(tool_name="Hold"))
        with anyio.fail_after(10):
            await read_fifo_line(fifo)
        d = await s.dispatch(bash_call())
        tg.cancel_scope.cancel()
    (r,) = d.results
    assert r.outcome is Outcome.OK, r


# --------------------------------------------------------------------------- #
# Item 12: file descriptors
# --------------------------------------------------------------------------- #

FD_CHILD = r"""
import json, os, resource, sys, time

import anyio

from agent_hooks import CommandHook, HookMatcher, HookRegistry, PreToolUseInput
from agent_hooks._handlers._limits import default_process_limit

backend, spare, count, max_processes, on_error = sys.argv[1:6]


def registry():
    hooks = [
        CommandHook(command=f"cat > /dev/null; exit 0 # {i}", on_error=on_error)
        for i in range(int(count))
    ]
    options = {"max_processes": int(max_processes)} if int(max_processes) else {}
    return HookRegistry({"PreToolUse": [HookMatcher(hooks=hooks)]}, **options)


call = PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"})


async def main():
    async with registry().session(cwd="/") as s:  # everything imported, warmed up
        await s.dispatch(call)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    held = len(os.listdir("/proc/self/fd")) - 1  # (without the listing's own)
    resource.setrlimit(resource.RLIMIT_NOFILE, (held + int(spare), hard))
    start = time.monotonic()
    async with registry().session(cwd="/") as s:
        d = await s.dispatch(call)
    elapsed = time.monotonic() - start
    limit = default_process_limit()
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    print(json.dumps({
        "outcomes": [r.outcome.value for r in d.results],
        "codes": sorted({x.code.value for x in d.diagnostics}),
        "messages": sorted({x.message for x in d.diagnostics})[:3],
        "blocked": d.blocked,
        "elapsed": elapsed,
        "default_limit": limit,
    }))


anyio.run(main, backend=backend)
"""


def run_fd_child(
    backend: str, spare: int, count: int, max_processes: int = 0, on_error: str = "warn"
) -> dict[str, Any]:
    proc = subprocess.run(
        [PY, "-c", FD_CHILD, backend, str(spare), str(count), str(max_processes), on_error],
        capture_output=True,
        text=True,
        timeout=90,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


BACKENDS = pytest.mark.parametrize("backend", ["asyncio", "trio"])


@BACKENDS
def test_hooks_wait_for_descriptors_instead_of_failing(backend: str) -> None:
    # 60 hooks may run at once, 24 descriptors are free: launches that find none wait
    # for the running hooks to give theirs back. Before, most failed with EMFILE.
    r = run_fd_child(backend, spare=24, count=60, max_processes=64, on_error="block")
    assert r["outcomes"] == ["ok"] * 60, r
    assert not r["blocked"]
    assert r["elapsed"] < 30


@BACKENDS
def test_default_process_limit_follows_the_descriptor_limit(backend: str) -> None:
    r = run_fd_child(backend, spare=24, count=60)
    assert r["outcomes"] == ["ok"] * 60, r
    assert r["default_limit"] <= 4  # (held + 24) // 2 // 8, the machine's CPUs whatever


@BACKENDS
def test_a_launch_that_can_never_succeed_fails_at_once_and_the_policy_blocks(
    backend: str,
) -> None:
    # Four free descriptors: no spawn can ever get its pipes. Nothing is running that
    # could give some back, so the hooks fail now (not at their 600 s deadline), as
    # errors, and on_error="block" blocks the call.
    r = run_fd_child(backend, spare=4, count=5, max_processes=64, on_error="block")
    assert r["outcomes"] == ["error"] * 5, r
    assert "launch_failed" in r["codes"]
    assert "failed_closed" in r["codes"]
    assert r["blocked"]
    assert r["elapsed"] < 20
    assert any("Too many open files" in m for m in r["messages"]), r


@BACKENDS
def test_a_launch_failure_fails_open_under_the_default_policy(backend: str) -> None:
    r = run_fd_child(backend, spare=4, count=2)
    assert r["outcomes"] == ["error"] * 2, r
    assert not r["blocked"]


def test_fail_closed_blocks_when_no_hook_can_start(tmp_path: Path) -> None:
    """``agent-hooks run --fail-closed`` under a descriptor limit too low to start any
    hook: the launch failures are hook failures, and the event is denied."""
    config = tmp_path / "hooks.json"
    hooks = [{"type": "command", "command": "cat > /dev/null"}]
    config.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": hooks}]}}))
    payload = {
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "cwd": str(tmp_path),
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    }

    def low_limit() -> None:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (12, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
        )

    argv = [PY, "-m", "agent_hooks", "run", "--fail-closed", "--trust-project-hooks"]
    proc = subprocess.run(
        [*argv, "--config", str(config), "--project-dir", str(tmp_path)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=low_limit,
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")},
    )
    assert proc.returncode == 0, proc.stderr
    assert "launch_failed" in proc.stderr and "Too many open files" in proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


# --------------------------------------------------------------------------- #
# Item 13: an answer cut at the output cap
# --------------------------------------------------------------------------- #

PADDED_DENY = (
    "import json, sys\n"
    "sys.stdout.write(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
    " 'permissionDecision': 'deny', 'permissionDecisionReason': 'no'},"
    " 'pad': 'x' * 200000}))\n"
)


@pytest.mark.parametrize("on_error", [None, "block"])
async def test_a_decision_cut_at_the_cap_is_a_failure_on_a_blocking_event(
    tmp_path: Path, on_error: Any
) -> None:
    hook = CommandHook(command=py(PADDED_DENY), on_error=on_error)
    reg = HookRegistry({"PreToolUse": [HookMatcher(hooks=[hook])]})
    async with reg.session(cwd=str(tmp_path)) as s:
        d = await s.dispatch(bash_call())
    (r,) = d.results
    assert r.outcome is Outcome.ERROR
    (cut,) = [x for x in r.diagnostics if x.code is DiagnosticCode.STDOUT_TRUNCATED]
    assert cut.severity is Severity.ERROR
    assert "output too large to read the decision" in cut.message
    assert "on_error" in cut.message
    assert d.output.additional_context is None  # the broken JSON is not context
    assert d.blocked is (on_error == "block")


async def test_a_decision_that_fits_the_cap_still_counts(tmp_path: Path) -> None:
    # Past the cap, but the JSON object itself is whole: it is read.
    code = (
        "import json, sys\n"
        "sys.stdout.write(json.dumps({'decision': 'block', 'reason': 'no'}) + ' ' * 200000)\n"
    )
    reg = HookRegistry({"PreToolUse": [HookMatcher(hooks=[CommandHook(command=py(code))])]})
    async with reg.session(cwd=str(tmp_path)) as s:
        d = await s.dispatch(bash_call())
    (r,) = d.results
    assert r.outcome is Outcome.OK
    assert d.blocked
    assert DiagnosticCode.STDOUT_TRUNCATED in codes(r)


async def test_an_answer_cut_at_the_cap_is_ignored_where_nothing_blocks(tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "sys.stdout.write(json.dumps({'hookSpecificOutput': {'hookEventName': 'SessionStart',"
        " 'additionalContext': 'x' * 200000}}))\n"
    )
    reg = HookRegistry({"SessionStart": [HookMatcher(hooks=[CommandHook(command=py(code))])]})
    async with reg.session(cwd=str(tmp_path)) as s:
        d = await s.dispatch(SessionStartInput(source="startup"))
    (r,) = d.results
    assert r.outcome is Outcome.OK
    (cut,) = [x for x in r.diagnostics if x.code is DiagnosticCode.STDOUT_TRUNCATED]
    assert cut.severity is Severity.WARNING
    assert d.output.additional_context is None  # not 100,000 bytes of broken JSON


async def test_an_answer_cut_at_the_cap_breaks_strict_output(tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "sys.stdout.write(json.dumps({'hookSpecificOutput': {'hookEventName': 'SessionStart',"
        " 'additionalContext': 'x' * 200000}}))\n"
    )
    hook = CommandHook(command=py(code), strict_output=True)
    reg = HookRegistry({"SessionStart": [HookMatcher(hooks=[hook])]})
    async with reg.session(cwd=str(tmp_path)) as s:
        d = await s.dispatch(SessionStartInput(source="startup"))
    (r,) = d.results
    assert r.outcome is Outcome.ERROR
    assert "output too large to read the decision" in (r.reason or "")


# --------------------------------------------------------------------------- #
# Item 14: credentials in the environment
# --------------------------------------------------------------------------- #

CREDENTIALS = {
    "DB_PASSWD": "hunter2",
    "AWS_CREDENTIALS": "[default]",
    "GH_PAT": "ghp_x",
    "NPM_AUTH": "npm_x",
    "PRIVATE_PEM": "pem",
    "PGPASSWORD": "hunter2",
    "DATABASE_URL": "postgres://app:hunter2@db:5432/prod",
    "DEPLOY_KEY_FILE": "-----BEGIN RSA PRIVATE KEY-----\nMIIE",
}
HARMLESS = {
    "PATHEXT": ".COM;.EXE",
    "XDG_SEAT_PATH": "/org/freedesktop/DisplayManager/Seat0",
    "SSH_AUTH_SOCK": "/tmp/ssh-agent.sock",
    "GIT_AUTHOR_NAME": "A. Author",
    "TOKENIZERS_PARALLELISM": "false",
    "PUBLIC_URL": "https://example.com:8443/app",
}


async def test_credentials_do_not_reach_hooks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {**CREDENTIALS, **HARMLESS}.items():
        monkeypatch.setenv(name, value)
    out = tmp_path / "env.json"
    code = "import json, os, sys; json.dump(dict(os.environ), open(sys.argv[1], 'w'))"
    hooks = [
        CommandHook(argv=[PY, "-c", code, str(out)]),
        # a hook that needs one of them names it in its own env
        CommandHook(
            argv=[PY, "-c", code, str(tmp_path / "explicit.json")],
            env={"DATABASE_URL": "${env.DATABASE_URL}"},
        ),
    ]
    # (named here until HookRegistry's default is this constant: see the test below)
    reg = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=hooks)]}, secret_env_patterns=DEFAULT_SECRET_PATTERNS
    )
    async with reg.session(cwd=str(tmp_path), project_dir=str(tmp_path)) as s:
        await s.dispatch(bash_call())
    env = json.loads(out.read_text())
    assert sorted(set(CREDENTIALS) & set(env)) == []
    for name, value in HARMLESS.items():
        assert env[name] == value
    for name in ("PATH", "HOME", "LANG"):
        if name in os.environ:
            assert env[name] == os.environ[name]
    assert env["CLAUDE_PROJECT_DIR"] == str(tmp_path)
    explicit = json.loads((tmp_path / "explicit.json").read_text())
    assert explicit["DATABASE_URL"] == CREDENTIALS["DATABASE_URL"]
    assert "PGPASSWORD" not in explicit


def test_every_default_is_the_one_constant() -> None:
    assert HookRegistry().secret_env_patterns is DEFAULT_SECRET_PATTERNS
    call = HookCall(input=bash_call(), spec=CAPABILITIES[HookEvent.PRE_TOOL_USE], timeout=1)
    assert call.secret_env_patterns is DEFAULT_SECRET_PATTERNS
