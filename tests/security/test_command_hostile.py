"""Hostile command hooks: each ends with a defined result and diagnostic, in bounded time,
leaving no process and no file descriptor behind.

Every test runs on asyncio and on trio under the ``no_leaks`` fixture, which

* snapshots the open file descriptors of the test process before the test and
  checks that the same number is open afterwards;
* checks that no child process of ours is left, running or zombie (unreaped);
* waits (bounded, with pidfds) for every process id the hooks wrote into the
  tracker file (grandchildren, daemons) to be gone; a test that provokes a
  daemon escaping the process group on purpose (``setsid``) kills it itself and
  says so.

No assertion counts on the machine's pace: a hook cut off at its timeout shows by its
outcome and by the run coming back long before the hook could have ended on its own
(``NEVER``); one that answered shows by its answer, back before its timeout.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shlex
import signal
import sys
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import anyio
import attrs
import pytest

from agent_hooks import (
    CommandHook,
    Decision,
    DiagnosticCode,
    HandlerResult,
    HookInput,
    HookMatcher,
    HookRegistry,
    Outcome,
    PreToolUseInput,
    Source,
    UserPromptSubmitInput,
)
from agent_hooks._wire._dialects import CLAUDE, DOCKER
from tests.process_helpers import is_gone, wait_gone

pytestmark = pytest.mark.anyio

PY = sys.executable
QPY = shlex.quote(PY)
NEVER = 30  # seconds a hook that never ends sleeps: back sooner, the run cut it off
TEN_MB = "x" * (10 * 1024 * 1024)


# --------------------------------------------------------------------------- #
# Leak checking
# --------------------------------------------------------------------------- #


@attrs.define
class Tracker:
    """Process ids hooks append to ``file`` must be gone at the end of the test."""

    file: Path
    escaped: set[int] = attrs.Factory(set)
    """Pids the test kills itself (daemons that left the process group on purpose)."""

    def pids(self) -> list[int]:
        if not self.file.exists():
            return []
        return [int(w) for w in self.file.read_text().split()]


def open_fds() -> dict[int, str]:
    fds: dict[int, str] = {}
    for name in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the descriptor listdir itself used
            fds[int(name)] = os.readlink(f"/proc/self/fd/{name}")
    return fds


def our_children() -> list[tuple[int, str]]:
    """(pid, state) of every process whose parent is this process."""
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == me:
            found.append((int(entry), fields[0]))
    return found


def listing(directory: Path, pattern: str = "*") -> list[str]:
    return sorted(p.name for p in directory.glob(pattern))


def kill_quietly(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


@pytest.fixture(autouse=True)
async def no_leaks(anyio_backend: str, tmp_path: Path) -> AsyncIterator[Tracker]:
    # Warm up the backend's process machinery (watchers, threads) once.
    await dispatch(CommandHook(argv=["true"]), prompt(), tmp_path)
    tracker = Tracker(file=tmp_path / "tracked-pids")
    before = open_fds()
    children_before = our_children()
    yield tracker
    for pid in tracker.escaped:
        kill_quietly(pid)
    for pid in tracker.pids():
        await wait_gone(pid)
    assert our_children() == children_before, "a hook process was left behind or not reaped"
    after = open_fds()
    leaked = {fd: after[fd] for fd in after.keys() - before.keys()}
    assert len(after) == len(before), f"file descriptors leaked: {leaked}"


# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #


def bash_call(**tool_input: Any) -> PreToolUseInput:
    return PreToolUseInput(tool_name="Bash", tool_input=tool_input or {"command": "ls"})


def prompt(text: str = "hello") -> UserPromptSubmitInput:
    return UserPromptSubmitInput(prompt=text)


async def dispatch(
    hooks: CommandHook | Iterable[CommandHook],
    input: HookInput[Any],
    tmp_path: Path,
    *,
    dialect: Any = CLAUDE,
    **options: Any,
) -> Decision[Any]:
    if isinstance(hooks, CommandHook):
        hooks = [hooks]
    reg = HookRegistry(
        {input.event: [HookMatcher(hooks=list(hooks))]},
        source=Source(label="hostile", dialect=dialect),
        **options,
    )
    async with reg.session(project_dir=str(tmp_path), cwd=str(tmp_path)) as s:
        return await s.dispatch(input)


async def timed(
    hooks: CommandHook | Iterable[CommandHook], input: HookInput[Any], tmp_path: Path, **kw: Any
) -> tuple[Decision[Any], float]:
    start = anyio.current_time()
    d = await dispatch(hooks, input, tmp_path, **kw)
    return d, anyio.current_time() - start


def only(d: Decision[Any]) -> HandlerResult:
    assert len(d.results) == 1, d.results
    return d.results[0]


def codes(obj: Decision[Any] | HandlerResult) -> set[DiagnosticCode]:
    return {x.code for x in obj.diagnostics}


def sh(script: str, **kw: Any) -> CommandHook:
    return CommandHook(command=script, **kw)


def py(code: str, **kw: Any) -> CommandHook:
    return CommandHook(argv=[PY, "-c", code], **kw)


def deny_json(reason: str = "no") -> str:
    return json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }
    )


# --------------------------------------------------------------------------- #
# stdin
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    "script",
    [
        'echo \'{"systemMessage": "done"}\'',
        'exec 0<&-; echo \'{"systemMessage": "done"}\'',
    ],
    ids=["ignores-stdin", "closes-stdin"],
)
async def test_never_reads_stdin(tmp_path: Path, script: str) -> None:
    d, elapsed = await timed(sh(script, timeout=10), bash_call(blob=TEN_MB), tmp_path)
    assert only(d).outcome is Outcome.OK
    assert d.system_messages == ("done",)
    assert elapsed < 10  # answered, not held until the timeout


async def test_never_reads_stdin_and_never_exits(tmp_path: Path, no_leaks: Tracker) -> None:
    hook = sh(f"echo $$ >> {no_leaks.file}; exec sleep 30", timeout=0.5)
    d, elapsed = await timed(hook, bash_call(blob=TEN_MB), tmp_path)
    assert only(d).outcome is Outcome.TIMEOUT
    assert DiagnosticCode.TIMEOUT in codes(d)
    assert 0.5 <= elapsed < NEVER


async def test_reads_part_of_a_10mb_payload(tmp_path: Path) -> None:
    hook = sh('head -c 1000 > /dev/null; echo \'{"systemMessage": "read 1000"}\'', timeout=10)
    d, elapsed = await timed(hook, bash_call(blob=TEN_MB), tmp_path)
    assert only(d).outcome is Outcome.OK
    assert d.system_messages == ("read 1000",)
    assert elapsed < 10  # answered, not held until the timeout


async def test_reads_all_of_a_10mb_payload(tmp_path: Path) -> None:
    code = "import json, sys; d = json.load(sys.stdin); print(len(d['tool_input']['blob']))"
    d = await dispatch(py(code, timeout=20), bash_call(blob=TEN_MB), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.OK
    assert DiagnosticCode.PLAIN_STDOUT_IGNORED in codes(r)  # plain text on PreToolUse
    assert str(len(TEN_MB)) in str(r.diagnostics)


# --------------------------------------------------------------------------- #
# Processes that do not end
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    "script",
    [
        "exec sleep 30",
        "while :; do :; done",  # busy loop
        f"{QPY} -c 'import time; time.sleep(30)'",
    ],
    ids=["sleep", "busy", "python"],
)
async def test_never_exits(tmp_path: Path, no_leaks: Tracker, script: str) -> None:
    hook = sh(f"echo $$ >> {no_leaks.file}; echo partial; {script}", timeout=0.5)
    d, elapsed = await timed(hook, prompt(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.TIMEOUT
    assert DiagnosticCode.TIMEOUT in codes(r)
    assert d.context is None  # partial output before the timeout is discarded
    assert 0.5 <= elapsed < NEVER


async def test_ignores_sigterm(tmp_path: Path, no_leaks: Tracker) -> None:
    # SIG_IGN is inherited: the sleep ignores SIGTERM too.
    script = f"trap '' TERM; sleep 30 & echo \"$$ $!\" >> {no_leaks.file}; wait; wait"
    hook = sh(script, timeout=0.5, kill_grace=0.3)
    d, elapsed = await timed(hook, bash_call(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.TIMEOUT
    assert r.exit_code == -signal.SIGKILL
    assert 0.5 + 0.3 <= elapsed < NEVER


async def test_background_job_keeps_stdout_open(tmp_path: Path, no_leaks: Tracker) -> None:
    # The hook answers and exits; a job it left in its process group holds stdout.
    script = f'sleep 30 & echo $! >> {no_leaks.file}; echo \'{{"systemMessage": "done"}}\''
    d, elapsed = await timed(sh(script, timeout=1.0), bash_call(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.OK  # the hook itself exited 0: its answer stands
    assert d.system_messages == ("done",)
    assert elapsed < NEVER  # not waiting for the job
    # the job is killed with the process group (checked by no_leaks)


DAEMON = """
import os, sys, time
r, w = os.pipe()
if os.fork() == 0:
    os.setsid()  # a real daemon: leaves our process group
    if os.fork() == 0:
        os.write(w, str(os.getpid()).encode()); os.close(w)
        time.sleep(30)  # keeps the inherited stdout and stderr open
        os._exit(0)
    os._exit(0)
os.close(w)
pid = os.read(r, 64).decode()
with open(sys.argv[1], "a") as f:
    f.write(pid + " ")
print('{"systemMessage": "daemon started"}', flush=True)
"""


async def test_daemon_keeping_stdout_open(tmp_path: Path, no_leaks: Tracker) -> None:
    hook = CommandHook(argv=[PY, "-c", DAEMON, str(no_leaks.file)], timeout=1.0)
    d = await dispatch(hook, bash_call(), tmp_path)
    # It left the process group on purpose: nothing can kill it as part of the
    # group; the run is only cut off from it.  The test cleans it up.
    no_leaks.escaped.update(no_leaks.pids())
    assert no_leaks.escaped and not any(map(is_gone, no_leaks.escaped))  # back while it ran
    r = only(d)
    assert r.outcome is Outcome.OK
    assert d.system_messages == ("daemon started",)


async def test_daemon_keeping_stdout_open_default_timeout(
    tmp_path: Path, no_leaks: Tracker
) -> None:
    # Without a short timeout the wait for the pipes after the exit is bounded
    # by the drain period (seconds), far below the timeout.
    hook = CommandHook(argv=[PY, "-c", DAEMON, str(no_leaks.file)])
    d = await dispatch(hook, bash_call(), tmp_path)
    no_leaks.escaped.update(no_leaks.pids())
    assert no_leaks.escaped and not any(map(is_gone, no_leaks.escaped))  # back while it ran
    assert only(d).outcome is Outcome.OK


async def test_closes_stdout_early_then_keeps_running(tmp_path: Path, no_leaks: Tracker) -> None:
    script = f"echo $$ >> {no_leaks.file}; echo partial; exec >&- 2>&-; exec sleep 30"
    d, elapsed = await timed(sh(script, timeout=0.5), prompt(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.TIMEOUT
    assert d.context is None
    assert 0.5 <= elapsed < NEVER


# --------------------------------------------------------------------------- #
# Output floods and garbage
# --------------------------------------------------------------------------- #


async def test_one_gigabyte_of_stdout(tmp_path: Path) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB
    hook = sh("head -c 1000000000 /dev/zero", timeout=60)
    d = await dispatch(hook, bash_call(), tmp_path)
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    r = only(d)
    assert r.outcome is Outcome.OK
    assert DiagnosticCode.STDOUT_TRUNCATED in codes(r)
    assert DiagnosticCode.PLAIN_STDOUT_IGNORED in codes(r)
    assert grown_kib < 50 * 1024, f"memory grew by {grown_kib} KiB"


async def test_one_gigabyte_of_stdout_times_out_bounded(tmp_path: Path) -> None:
    hook = sh("while :; do head -c 100000000 /dev/zero; done", timeout=0.5)
    d, elapsed = await timed(hook, prompt(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.TIMEOUT
    assert d.context is None
    assert 0.5 <= elapsed < NEVER


async def test_flood_on_stderr(tmp_path: Path) -> None:
    hook = sh("head -c 50000000 /dev/zero | tr '\\0' e >&2; exit 1", timeout=60)
    d = await dispatch(hook, bash_call(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.ERROR
    assert {DiagnosticCode.STDERR_TRUNCATED, DiagnosticCode.NONZERO_EXIT} <= codes(r)


async def test_invalid_utf8(tmp_path: Path) -> None:
    d = await dispatch(sh("printf 'bad \\377\\376 bytes'"), prompt(), tmp_path)
    assert d.context == "bad \ufffd\ufffd bytes"
    d = await dispatch(sh('printf \'{"systemMessage": "bad \\377 byte"}\''), bash_call(), tmp_path)
    assert d.system_messages == ("bad \ufffd byte",)
    d = await dispatch(sh("printf '\\377\\376'; exit 1"), bash_call(), tmp_path)
    assert only(d).outcome is Outcome.ERROR
    d = await dispatch(sh("printf 'x\\377' >&2; exit 2"), bash_call(), tmp_path)
    assert d.blocked and d.reason == "x\ufffd"


@pytest.mark.parametrize(
    ("stdout", "code"),
    [
        ("[" + deny_json() + "]", DiagnosticCode.UNREADABLE_ANSWER),
        ("null", DiagnosticCode.PLAIN_STDOUT_IGNORED),
        ('"deny"', DiagnosticCode.PLAIN_STDOUT_IGNORED),
        ("42", DiagnosticCode.PLAIN_STDOUT_IGNORED),
        (deny_json()[:-5], DiagnosticCode.UNREADABLE_ANSWER),  # truncated
        (deny_json() + " trailing garbage", DiagnosticCode.UNREADABLE_ANSWER),
        (deny_json() + deny_json(), DiagnosticCode.UNREADABLE_ANSWER),  # two objects
        (deny_json() + "\n" + deny_json(), DiagnosticCode.UNREADABLE_ANSWER),
    ],
    ids=["array", "null", "string", "number", "truncated", "garbage", "two", "two-lines"],
)
async def test_not_one_json_object(tmp_path: Path, stdout: str, code: DiagnosticCode) -> None:
    """What looked like a JSON answer and is not one is a failure of the hook under its
    policy (``warn`` here: nothing blocks); a JSON scalar is plain text."""
    hook = sh(f"printf '%s' {shlex.quote(stdout)}")
    d = await dispatch(hook, bash_call(), tmp_path)
    r = only(d)
    failed = code is DiagnosticCode.UNREADABLE_ANSWER
    assert r.outcome is (Outcome.ERROR if failed else Outcome.OK)
    assert r.output is None
    assert not d.blocked  # the deny inside never counts
    assert code in codes(r)


async def test_json_with_wrong_types(tmp_path: Path) -> None:
    answer = {
        "continue": "no",
        "decision": 5,
        "systemMessage": ["not", "a", "string"],
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "maybe",
            "updatedInput": "not an object",
            "additionalContext": "kept",
        },
    }
    d = await dispatch(sh(f"echo {shlex.quote(json.dumps(answer))}"), bash_call(), tmp_path)
    assert not d.blocked
    assert d.should_continue
    assert d.output.updated_input is None
    assert d.output.permission_decision is None
    assert d.system_messages == ()
    assert d.context == "kept"
    assert codes(d) & {DiagnosticCode.WRONG_TYPE, DiagnosticCode.INVALID_VALUE}


# --------------------------------------------------------------------------- #
# Exit statuses
# --------------------------------------------------------------------------- #


async def test_exit_2_with_empty_stderr(tmp_path: Path) -> None:
    d = await dispatch(sh("exit 2", name="guard"), bash_call(), tmp_path)
    assert d.blocked
    assert only(d).outcome is Outcome.BLOCKED
    assert d.reason and "guard" in d.reason


async def test_exit_2_with_json_on_stdout(tmp_path: Path) -> None:
    allow = json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "additionalContext": "ctx",
            }
        }
    )
    hook = sh(f"echo {shlex.quote(allow)}; echo 'from stderr' >&2; exit 2")
    d = await dispatch(hook, bash_call(), tmp_path)
    assert d.blocked and d.reason == "from stderr" and d.context == "ctx"
    d = await dispatch(hook, bash_call(), tmp_path, dialect=DOCKER)
    assert d.blocked and d.reason == "from stderr" and d.context is None


async def test_exit_1_with_valid_json(tmp_path: Path) -> None:
    hook = sh(f"echo {shlex.quote(deny_json('json reason'))}; echo err >&2; exit 1")
    d = await dispatch(hook, bash_call(), tmp_path)
    assert d.blocked and d.reason == "json reason"
    d = await dispatch(hook, bash_call(), tmp_path, dialect=DOCKER)
    assert d.blocked  # Docker: JSON ignored, but PreToolUse fails closed
    assert d.reason and "err" in d.reason


async def test_missing_script(tmp_path: Path) -> None:
    d = await dispatch(sh("./missing-script.sh --flag"), bash_call(), tmp_path)
    r = only(d)
    assert (r.outcome, r.exit_code) == (Outcome.ERROR, 127)
    assert DiagnosticCode.NONZERO_EXIT in codes(r)
    assert not d.blocked
    d = await dispatch(CommandHook(argv=[str(tmp_path / "missing.sh")]), bash_call(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.ERROR
    assert DiagnosticCode.LAUNCH_FAILED in codes(r)


async def test_script_without_exec_bit(tmp_path: Path) -> None:
    script = tmp_path / "hook.sh"
    script.write_text('#!/bin/sh\necho \'{"systemMessage": "ran"}\'\n')
    script.chmod(0o644)
    r = only(await dispatch(sh("./hook.sh"), bash_call(), tmp_path))
    assert (r.outcome, r.exit_code) == (Outcome.ERROR, 126)
    r = only(await dispatch(sh("./hook.sh && true"), bash_call(), tmp_path))
    assert (r.outcome, r.exit_code) == (Outcome.ERROR, 126)
    r = only(await dispatch(CommandHook(argv=[str(script)]), bash_call(), tmp_path))
    assert r.outcome is Outcome.ERROR
    assert DiagnosticCode.LAUNCH_FAILED in codes(r)
    d = await dispatch(sh("sh ./hook.sh"), bash_call(), tmp_path)
    assert d.system_messages == ("ran",)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGSEGV, signal.SIGTERM])
async def test_killed_by_a_signal(tmp_path: Path, sig: signal.Signals) -> None:
    hook = py(f"import os; print('partial', flush=True); os.kill(os.getpid(), {int(sig)})")
    d = await dispatch(hook, prompt(), tmp_path)
    r = only(d)
    assert r.outcome is Outcome.ERROR
    assert r.exit_code == -sig
    assert any(sig.name in x.message for x in r.diagnostics)
    assert d.context is None


async def test_writes_to_the_terminal(tmp_path: Path) -> None:
    code = (
        "import json\n"
        "try:\n"
        "    open('/dev/tty', 'w').write('hi')\n"
        "    msg = 'had a tty'\n"
        "except OSError as e:\n"
        "    msg = 'no tty'\n"
        "print(json.dumps({'systemMessage': msg}))\n"
    )
    d, elapsed = await timed(py(code, timeout=5), bash_call(), tmp_path)
    assert d.system_messages == ("no tty",)
    assert elapsed < 5  # answered, not stopped on a terminal until the timeout
    hook = sh('echo hi > /dev/tty || echo \'{"systemMessage": "no tty"}\'', timeout=5)
    d, elapsed = await timed(hook, bash_call(), tmp_path)
    assert d.system_messages == ("no tty",)
    assert elapsed < 5  # answered, not stopped on a terminal until the timeout


# --------------------------------------------------------------------------- #
# Payload and environment
# --------------------------------------------------------------------------- #


async def test_command_substitution_only_in_the_payload(tmp_path: Path) -> None:
    payload = bash_call(command="$(touch PWNED)", file_path="`touch PWNED2`; touch PWNED3")
    hooks = [
        sh("cat > /dev/null"),
        sh('read -r line; printf "%s" "$line" > seen.json'),
        py("import json, sys; json.load(sys.stdin)"),
        CommandHook(argv=["cat"]),
    ]
    d = await dispatch(hooks, payload, tmp_path)
    assert [r.outcome for r in d.results] == [Outcome.OK] * 4
    assert listing(tmp_path, "PWNED*") == []
    assert json.loads((tmp_path / "seen.json").read_text())["tool_input"] == dict(
        payload.tool_input
    )


async def test_payload_field_with_shell_metacharacters(tmp_path: Path) -> None:
    text = "a'b\"c $HOME `id` $(id) ; | & > < * ? ~ {x,y} \\n \\ %s #!x"
    code = "import json, sys; print(json.load(sys.stdin)['prompt'])"
    d = await dispatch(py(code), prompt(text), tmp_path)
    assert d.context == text
    assert listing(tmp_path) == []  # nothing created by a redirection


async def test_credentials_do_not_reach_the_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-leak")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_leak")
    hooks = [
        sh('echo "${OPENAI_API_KEY:-unset} ${GITHUB_TOKEN:-unset}"'),
        py("import os; print([v for v in os.environ.values() if 'leak' in v])"),
    ]
    d = await dispatch(hooks, prompt(), tmp_path)
    assert d.context == "unset unset\n[]"


# --------------------------------------------------------------------------- #
# Many at once
# --------------------------------------------------------------------------- #


async def test_200_concurrent_dispatches_of_2_hooks(tmp_path: Path) -> None:
    sed = ["sed", "-n", 's/.*"prompt":"\\([^"]*\\)".*/\\1/p']
    hooks = [CommandHook(argv=sed), sh("echo second")]
    reg = HookRegistry({"UserPromptSubmit": [HookMatcher(hooks=hooks)]})
    decisions: dict[int, Decision[Any]] = {}
    # A low descriptor limit: unbounded spawning would hit EMFILE.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, len(open_fds()) + 200), hard))
    try:
        async with reg.session(cwd=str(tmp_path)) as s:

            async def one(i: int) -> None:
                decisions[i] = await s.dispatch(prompt(f"p{i}"))

            with anyio.fail_after(60):
                async with anyio.create_task_group() as tg:
                    for i in range(200):
                        tg.start_soon(one, i)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert len(decisions) == 200
    for i, d in decisions.items():
        assert [r.outcome for r in d.results] == [Outcome.OK, Outcome.OK], d.diagnostics
        assert d.context == f"p{i}\nsecond"


async def test_many_hostile_hooks_at_once(tmp_path: Path, no_leaks: Tracker) -> None:
    hooks = [
        sh(f"echo $$ >> {no_leaks.file}; exec sleep 30", timeout=0.5),
        sh(f"trap '' TERM; echo $$ >> {no_leaks.file}; sleep 30", timeout=0.5, kill_grace=0.2),
        sh("head -c 20000000 /dev/zero", timeout=10),
        sh("exit 1"),
        sh(f"sleep 30 & echo $! >> {no_leaks.file}; echo ok", timeout=0.5),
        sh("./missing"),
        sh("printf '\\377'"),
    ]
    d, elapsed = await timed(hooks, prompt(), tmp_path, max_processes=16)
    outcomes = [r.outcome for r in d.results]
    assert outcomes == [
        Outcome.TIMEOUT,
        Outcome.TIMEOUT,
        Outcome.OK,
        Outcome.ERROR,
        Outcome.OK,
        Outcome.ERROR,
        Outcome.OK,
    ]
    assert elapsed < NEVER  # the ones that never end were cut off, none waited for
