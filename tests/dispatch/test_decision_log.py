"""The decision log: one JSON Lines record per dispatch, redacted and bounded,
append-only and hash-chained with any number of concurrent writers, rotated by size;
``agent-hooks log verify`` finds a record edited, removed or inserted. ``log verify`` and
``run`` run in this process (what they print is the point), the concurrent writers and the
resident server in processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agent_hooks import (
    CallbackHook,
    CommandHook,
    DecisionLog,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
)
from agent_hooks._base._errors import RegistrationError
from tests.cli.test_cli_run import _env
from tests.cli_inprocess import cli_in_process
from tests.dialect_helpers import InProcessWorkspace

PY = sys.executable
SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "typings" / "audit" / "decision-log.schema.json").read_text()
)


def deny(input: PreToolUseInput) -> PreToolUseOutput:
    return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    return cli_in_process(["log", "verify", str(path)], env=dict(os.environ), cwd=os.getcwd())


async def dispatch(registry: HookRegistry, command: str = "ls", **tool_input: Any) -> Any:
    async with registry.session(session_id="s-1") as session:
        return await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": command, **tool_input})
        )


# ------------------------------------------------------------- records


@pytest.mark.anyio
async def test_one_record_per_dispatch_with_every_handler(tmp_path: Path) -> None:
    log = tmp_path / "decisions.jsonl"
    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(matcher="Bash", hooks=[deny, CallbackHook(deny, shadow=True)])
            ]
        },
        decision_log=str(log),
    )
    await dispatch(registry)
    await dispatch(registry, "pwd")
    records = lines(log)
    assert len(records) == 2
    for record in records:
        jsonschema.validate(record, SCHEMA)
    first = records[0]
    assert first["event"] == "PreToolUse" and first["tool_name"] == "Bash"
    assert first["session_id"] == "s-1"
    assert first["input"] == {"command": "ls"} and first["input_truncated"] is False
    assert first["decision"]["decision"] == "deny" and first["decision"]["blocked"] is True
    assert [(h["decision"], h["shadow"]) for h in first["handlers"]] == [
        ("deny", False),
        ("deny", True),
    ]
    assert first["prev"] is None and records[1]["prev"] == first["hash"]
    assert records[1]["input"] == {"command": "pwd"}


@pytest.mark.anyio
async def test_a_shadow_deny_is_logged_as_would_deny(tmp_path: Path) -> None:
    log = tmp_path / "decisions.jsonl"
    hook = CommandHook(command="echo nope >&2; exit 2")
    registry = HookRegistry(
        {"PreToolUse": [HookMatcher(hooks=[hook])]}, shadow=True, decision_log=log
    )
    decision = await dispatch(registry)
    assert not decision.blocked
    (record,) = lines(log)
    assert record["decision"] == {
        "decision": None,
        "reason": None,
        "blocked": False,
        "continue": True,
    }
    assert record["would_be"]["decision"] == "deny"
    assert record["would_be"]["blocked"] is True
    assert record["handlers"][0]["shadow"] is True
    assert record["handlers"][0]["outcome"] == "blocked"


@pytest.mark.anyio
async def test_a_sink_object_gets_the_records() -> None:
    got: list[Any] = []

    class Sink:
        def write(self, record: Any) -> None:
            got.append(record)

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[deny])]}, decision_log=Sink())
    await dispatch(registry)
    assert [r["decision"]["decision"] for r in got] == ["deny"]
    assert "hash" not in got[0]  # (the file chains; a sink gets the record as it is)


def test_a_decision_log_that_is_neither_path_nor_sink_is_refused() -> None:
    with pytest.raises(RegistrationError, match="decision_log must be a path or an object"):
        HookRegistry(decision_log=42)


SECRET = "sk-live-0123456789abcdefghijklmn"


@pytest.mark.anyio
async def test_planted_secrets_never_reach_the_log(tmp_path: Path) -> None:
    log = tmp_path / "decisions.jsonl"

    def leak(input: PreToolUseInput) -> PreToolUseOutput:
        return PreToolUseOutput(
            permission_decision="deny", permission_decision_reason=f"saw token={SECRET}"
        )

    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[leak])]}, decision_log=log)
    await dispatch(
        registry,
        f"curl -H 'Authorization: Bearer {SECRET}' https://user:hunter2pass@example.com/",
        env={"OPENAI_API_KEY": "plain-value-no-shape", "PATH": "/usr/bin"},
        GITHUB_TOKEN="also-plain",
    )
    text = log.read_text()
    for secret in (SECRET, "hunter2pass", "plain-value-no-shape", "also-plain"):
        assert secret not in text
    (record,) = lines(log)
    assert record["input"]["env"] == {"OPENAI_API_KEY": "[REDACTED]", "PATH": "/usr/bin"}
    assert record["input"]["GITHUB_TOKEN"] == "[REDACTED]"
    assert "[REDACTED]" in record["input"]["command"]
    assert "curl" in record["input"]["command"]  # (only the secret is cut)


@pytest.mark.anyio
async def test_a_password_in_a_url_after_a_long_run_of_letters_is_cut(tmp_path: Path) -> None:
    """(The URL rule's scheme is bounded; a password behind a long scheme-like run is
    cut all the same.)"""
    log = tmp_path / "decisions.jsonl"
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[deny])]}, decision_log=log)
    await dispatch(registry, "x" * 200 + "https://user:hunter2pass@example.com/ " + "y" * 200)
    assert "hunter2pass" not in log.read_text()
    (record,) = lines(log)
    assert "[REDACTED]" in record["input"]["command"]


@pytest.mark.anyio
async def test_the_input_view_is_bounded(tmp_path: Path) -> None:
    log = tmp_path / "decisions.jsonl"
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[deny])]}, decision_log=log)
    await dispatch(registry, "x" * 50_000)
    (record,) = lines(log)
    assert record["input_truncated"] is True
    assert isinstance(record["input"], str)
    assert len(record["input"]) < 2200 and "truncated" in record["input"]
    assert len(log.read_bytes()) < 6000


# ------------------------------------------------------------- the file


WRITER = textwrap.dedent(
    """
    import sys
    from agent_hooks import DecisionLog
    log = DecisionLog(sys.argv[1], max_bytes=int(sys.argv[3]), backups=1000)
    for i in range(int(sys.argv[2])):
        log.write({"writer": sys.argv[4], "i": i, "pad": "x" * 100})
    """
)


def chained_files(path: Path) -> list[Path]:
    """The log's files, oldest first."""
    rotated = sorted(path.parent.glob(path.name + ".*"), key=lambda p: -int(p.suffix[1:]))
    return [*rotated, path]


def test_fifty_concurrent_writers_leave_a_valid_chain(tmp_path: Path) -> None:
    log = tmp_path / "decisions.jsonl"
    writers = [
        subprocess.Popen([PY, "-c", WRITER, str(log), "10", "20000", str(n)]) for n in range(50)
    ]
    assert [w.wait(timeout=120) for w in writers] == [0] * 50
    files = chained_files(log)
    assert len(files) > 1  # (it rotated while they wrote)
    records = []
    last_hash = None
    for path in files:
        done = verify(path)
        assert done.returncode == 0, done.stderr
        got = lines(path)
        assert got[0]["prev"] == last_hash  # the chain goes on across rotations
        last_hash = got[-1]["hash"]
        records += got
    assert sorted((r["writer"], r["i"]) for r in records) == sorted(
        (str(n), i) for n in range(50) for i in range(10)
    )


def test_rotation_keeps_the_backups_it_is_told(tmp_path: Path) -> None:
    log = DecisionLog(tmp_path / "d.jsonl", max_bytes=2048, backups=2)
    for i in range(100):
        log.write({"i": i, "pad": "y" * 200})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.jsonl", "d.jsonl.1", "d.jsonl.2"]
    assert all(p.stat().st_size <= 2048 for p in tmp_path.iterdir())
    assert lines(tmp_path / "d.jsonl")[-1]["i"] == 99
    assert (tmp_path / "d.jsonl").stat().st_mode & 0o777 == 0o600


def test_log_verify_finds_an_edited_a_removed_and_an_inserted_record(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    log = DecisionLog(path)
    for i in range(5):
        log.write({"i": i, "decision": {"decision": "deny"}})
    done = verify(path)
    assert done.returncode == 0 and "5 record(s)" in done.stdout
    original = path.read_text().splitlines(keepends=True)

    edited = list(original)
    edited[2] = edited[2].replace('"deny"', '"allow"')
    path.write_text("".join(edited))
    done = verify(path)
    assert done.returncode == 1
    assert f"{path}:3: the record does not match its hash" in done.stderr

    path.write_text("".join(original[:2] + original[3:]))
    done = verify(path)
    assert done.returncode == 1 and f"{path}:3: 'prev' is not the hash" in done.stderr

    path.write_text("".join([*original[:2], original[4], *original[2:]]))
    assert verify(path).returncode == 1

    path.write_text("".join(original) + "not json\n")
    done = verify(path)
    assert done.returncode == 1 and ":6: not JSON" in done.stderr


def test_log_verify_of_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    done = verify(tmp_path / "nothing.jsonl")
    assert done.returncode == 1
    assert "No such file" in done.stderr and "Traceback" not in done.stderr


# ------------------------------------------------------------- agent-hooks run


def _stable(record: dict[str, Any]) -> dict[str, Any]:
    """A record without what differs from call to call (time, durations, chain)."""
    out = {k: v for k, v in record.items() if k not in ("time", "hash", "prev")}
    out["handlers"] = [
        {k: v for k, v in h.items() if k != "duration_ms"} for h in record["handlers"]
    ]
    return out


def test_run_logs_with_the_option_and_the_environment_variable(tmp_path: Path) -> None:
    ws = InProcessWorkspace(tmp_path)
    conf = ws.config(
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": "echo no >&2; exit 2"}],
                }
            ]
        }
    )
    by_option = tmp_path / "a.jsonl"
    by_env = tmp_path / "b.jsonl"
    done = ws.run("--config", conf, "--log", by_option)
    assert done.returncode == 0, done.stderr
    env = _env(tmp_path, AGENT_HOOKS_DECISION_LOG=str(by_env))
    assert ws.run("--config", conf, env=env).returncode == 0
    (a,) = lines(by_option)
    (b,) = lines(by_env)
    jsonschema.validate(a, SCHEMA)
    assert _stable(a) == _stable(b)
    assert a["harness"] == "claude" and a["dialect"] == "claude"
    assert a["config"][0]["path"] == str(conf)
    assert a["handlers"][0]["source_sha256"] == a["config"][0]["sha256"]
    assert a["decision"]["decision"] == "deny"


def test_the_resident_server_logs_what_an_in_process_run_logs(tmp_path: Path) -> None:
    from tests.daemon.test_daemon import Box

    box = Box(tmp_path)
    try:
        in_process = tmp_path / "in.jsonl"
        resident = tmp_path / "resident.jsonl"
        assert box.run("--no-daemon", "--log", str(in_process)).returncode == 0
        box.run("--log", str(resident))
        box.wait_for_server()
        env = {**box.env, "AGENT_HOOKS_DECISION_LOG": str(resident)}
        done = box.run("--report", env=env)
        assert json.loads(done.stdout)["resident"] is True
        records = lines(resident)
        assert len(records) == 2
        assert _stable(records[1]) == _stable(lines(in_process)[0])
        assert verify(resident).returncode == 0
    finally:
        box.close()


@pytest.mark.anyio
async def test_a_log_that_cannot_be_written_never_breaks_a_dispatch(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[deny])]}, decision_log=tmp_path)
    decision = await dispatch(registry)  # (a directory: the record cannot be written)
    assert decision.blocked
    assert any("DecisionLogObserver" in r.getMessage() for r in caplog.records)
