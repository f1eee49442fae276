"""Command-line habits that must not bite: an abbreviated option is an error (argparse
exit 2), in this process and through the resident server, on every command, so that
``run --no-d`` never quietly stands for ``--no-daemon``; ``run --report`` on a block
that is an exit 2 prints its report (on stderr, after the reason, stdout staying empty);
``payload --set cwd=DIR`` works and a key ``--set`` cannot take is a one-line error;
``--version`` prints the distribution and its version; the exit statuses are listed in
``--help`` and at the end of every command's help; ``-v``/``-q`` set the level of the
``agent_hooks`` logger (shell completion: ``tests/cli/test_cli_completion.py``).

The commands run in this process (what they print and exit with is what is checked),
but for ``--version`` end to end as a process, the resident server's and the logger's
(logging set up by the command line, read after it returns)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_hooks._bridges._cli import COMMAND_EXIT_STATUS, COMMANDS, EXIT_STATUS
from agent_hooks.testing import payload
from tests.cli_inprocess import cli_in_process
from tests.daemon.test_daemon import Box

PY = sys.executable


def cli(
    *args: str,
    stdin: str = "",
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    process: bool = False,
) -> subprocess.CompletedProcess[str]:
    if not process:
        return cli_in_process(
            args, env=dict(os.environ if env is None else env), cwd=cwd or os.getcwd(), input=stdin
        )
    return subprocess.run(
        [PY, "-m", "agent_hooks", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
        cwd=cwd,
    )


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Box]:
    b = Box(tmp_path)
    try:
        yield b
    finally:
        b.close()


@pytest.mark.parametrize(
    "args",
    [
        ["run", "--no-d"],
        ["run", "--fail"],
        ["run", "--rep"],
        ["serve", "--no-a", "--port", "0"],
        ["serve", "--fail-c", "--port", "0"],
        ["payload", "PreToolUse", "--dia", "claude"],
        ["check", "--conf", "x.json"],
        ["daemon", "status", "--he"],
    ],
)
def test_an_abbreviated_option_is_an_error(args: list[str], tmp_path: Path) -> None:
    proc = cli(*args, stdin=json.dumps(payload("PreToolUse")), cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    abbreviated = next(a for a in args[1:] if a.startswith("--") and a != "--port")
    assert "unrecognized arguments: " in proc.stderr and abbreviated in proc.stderr
    assert proc.stdout == ""


def test_run_no_d_is_an_error_through_the_resident_server(box: Box) -> None:
    first = box.run()  # answered in-process (the guard's deny); starts the server
    assert first.returncode == 0 and '"deny"' in first.stdout, first.stderr
    box.wait_for_server()
    proc = box.run("--no-d")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "unrecognized arguments: --no-d" in proc.stderr
    assert proc.stdout == ""


def test_report_of_an_exit_2_block_goes_to_stderr(tmp_path: Path) -> None:
    config = tmp_path / "hooks.json"
    hook = {"type": "command", "command": "echo 'tests still fail' >&2; exit 2"}
    config.write_text(json.dumps({"hooks": {"TaskCompleted": [{"hooks": [hook]}]}}))
    env = {**os.environ, "AGENT_HOOKS_NO_DAEMON": "1", "HOME": str(tmp_path)}
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    args = ["run", "--config", str(config), "--trust-project-hooks", "--project-dir"]
    data = json.dumps(payload("TaskCompleted", cwd=str(tmp_path)))

    plain = cli(*args, str(tmp_path), stdin=data, env=env)
    assert (plain.returncode, plain.stderr) == (2, "tests still fail\n")

    proc = cli(*args, str(tmp_path), "--report", stdin=data, env=env)
    assert proc.returncode == 2 and proc.stdout == ""
    reason, report_line = proc.stderr.splitlines()
    assert reason == "tests still fail"  # (the harness's reason comes first, as without --report)
    report = json.loads(report_line)
    assert report["event"] == "TaskCompleted"
    assert report["error"] == "tests still fail"
    (handler,) = report["handlers"]
    assert (handler["outcome"], handler["exit_code"], handler["decision"]) == (
        "blocked",
        2,
        "block",
    )


def test_payload_set_cwd_sets_the_cwd() -> None:
    proc = cli("payload", "PreToolUse", "--set", "cwd=/srv/app")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == payload("PreToolUse", cwd="/srv/app")
    same = cli("payload", "PreToolUse", "--set", "cwd=/srv/app", "--cwd", "/srv/app")
    assert json.loads(same.stdout) == payload("PreToolUse", cwd="/srv/app")
    # a tool_input key named like one of payload()'s arguments: a dotted key
    named = cli("payload", "PreToolUse", "--set", "tool_input.dialect=fr", "--set", "cwd=/x")
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout)["tool_input"]["dialect"] == "fr"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "cwd=5"], "--set cwd= needs a directory, got 5"),
        (["--set", "cwd=/a", "--cwd", "/b"], "--cwd /b and --set cwd=/a disagree; give one"),
        (["--set", "dialect=docker"], "--set dialect=...: use --dialect NAME"),
        (["--set", "event=Stop"], "--set event=...: the EVENT argument names the event"),
        (["--set", "extra=1"], "--set extra=...: it is no payload field"),
        (["--set", "tool_input..x=1"], "a dotted key has an empty part"),
    ],
)
def test_payload_set_mistakes_are_one_line_errors(args: list[str], message: str) -> None:
    proc = cli("payload", "PreToolUse", *args)
    assert proc.returncode == 1 and proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith("agent-hooks payload: error: ") and message in line
    assert "Traceback" not in proc.stderr


def test_version_prints_the_distribution_and_its_version() -> None:
    from agent_hooks import __version__

    proc = cli("--version", process=True)
    assert (proc.returncode, proc.stdout) == (0, f"py-agent-hooks {__version__}\n")


def test_help_lists_the_exit_statuses() -> None:
    proc = cli("--help")
    assert proc.returncode == 0
    epilog = proc.stdout.split("\nexit status:\n", 1)[1].splitlines()
    assert [int(line.split()[0]) for line in epilog] == [code for code, _ in EXIT_STATUS]
    assert [code for code, _ in EXIT_STATUS] == [0, 1, 2, 130, 141]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_commands_help_ends_with_its_exit_statuses(command: str) -> None:
    wide = {**os.environ, "COLUMNS": "1000"}  # (argparse wraps help at the terminal's width)
    proc = cli(command, "--help", env=wide)
    assert proc.returncode == 0, proc.stderr
    tail = proc.stdout.split("\nexit status: ", 1)[1].strip()
    assert tail == COMMAND_EXIT_STATUS[command] + "."
    assert tail.startswith("0 ")


# A library warning and error, as a hook module or the dispatcher would log them.
LOGS = """\
import logging, sys
from agent_hooks.__main__ import main
status = main(sys.argv[1:])
logging.getLogger("agent_hooks.diagnostics").warning("a warning")
logging.getLogger("agent_hooks").error("an error")
"""


def test_quiet_and_verbose_set_the_level_of_the_package_logger(tmp_path: Path) -> None:
    def logs(*flags: str) -> str:
        proc = subprocess.run(
            [PY, "-c", LOGS, *flags, "payload", "PreToolUse"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            cwd=tmp_path,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stderr

    assert logs() == "a warning\nan error\n"  # (logging's last resort, as without the CLI)
    assert logs("-q") == "agent-hooks: ERROR: agent_hooks: an error\n"
    verbose = logs("-v").splitlines()
    assert verbose[0].startswith("agent-hooks: INFO: agent_hooks: py-agent-hooks ")
    assert verbose[1:] == [
        "agent-hooks: WARNING: agent_hooks.diagnostics: a warning",
        "agent-hooks: ERROR: agent_hooks: an error",
    ]
    debug = logs("-vv").splitlines()
    assert debug[1] == "agent-hooks: DEBUG: agent_hooks: command line: ['-vv', 'payload', 'PreToolUse']"
    assert logs("-v", "-q") == logs()  # (they cancel out)


def test_verbose_goes_before_the_command() -> None:
    proc = cli("payload", "PreToolUse", "-v")
    assert proc.returncode == 2 and "unrecognized arguments: -v" in proc.stderr


def test_the_command_line_page_lists_every_exit_status() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    for code, meaning in EXIT_STATUS:
        assert f"| {code} | {meaning} |" in text
    for command, statuses in COMMAND_EXIT_STATUS.items():
        assert f"| `{command}` | {statuses} |" in text
    assert set(COMMAND_EXIT_STATUS) == set(COMMANDS)
