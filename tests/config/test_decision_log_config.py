"""The decision log named in agent_hooks's own hook file (``"decision_log": PATH``,
relative to the file): ``agent-hooks run`` writes it unless ``AGENT_HOOKS_DECISION_LOG``
or ``--log`` names another (flag > environment > file); ``LoadedConfig.registry()``
uses it; a value that is no path is an error that writes no log."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import agent_hooks
from agent_hooks import DiagnosticCode
from tests.cli_inprocess import cli_in_process

HOOKS = {
    "PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo no >&2; exit 2"}]}
    ]
}
PAYLOAD = json.dumps(
    {
        "hook_event_name": "PreToolUse",
        "session_id": "s-1",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
    }
)


def _setup(tmp: Path, doc: dict[str, Any]) -> tuple[Path, dict[str, str]]:
    conf = tmp / "conf"
    conf.mkdir()
    (tmp / "project").mkdir()
    path = conf / "guards.json"
    path.write_text(json.dumps(doc))
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "AGENT_HOOKS_", "CODEX_", "XDG_"))
    }
    env.update(
        HOME=str(tmp / "home"),
        XDG_STATE_HOME=str(tmp / "state"),
        AGENT_HOOKS_NO_DAEMON="1",
        AGENT_HOOKS_MANAGED_DIR=str(tmp / "no-managed"),
        CLAUDE_PROJECT_DIR=str(tmp / "project"),
    )
    return path, env


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_run_writes_the_log_the_file_names(tmp_path: Path) -> None:
    path, env = _setup(tmp_path, {"decision_log": "logs/decisions.jsonl", "hooks": HOOKS})
    (tmp_path / "conf" / "logs").mkdir()
    proc = cli_in_process(["run", "--config", str(path)], env=env, cwd=tmp_path, input=PAYLOAD)
    assert proc.returncode == 0, proc.stderr
    (record,) = _records(tmp_path / "conf" / "logs" / "decisions.jsonl")
    assert record["event"] == "PreToolUse" and "deny" in json.dumps(record["decision"])


def test_the_environment_and_the_flag_come_before_the_file(tmp_path: Path) -> None:
    path, env = _setup(tmp_path, {"decision_log": "from-file.jsonl", "hooks": HOOKS})
    by_env = {**env, "AGENT_HOOKS_DECISION_LOG": str(tmp_path / "from-env.jsonl")}
    cli_in_process(["run", "--config", str(path)], env=by_env, cwd=tmp_path, input=PAYLOAD)
    flag = ["run", "--config", str(path), "--log", str(tmp_path / "from-flag.jsonl")]
    cli_in_process(flag, env=by_env, cwd=tmp_path, input=PAYLOAD)
    assert len(_records(tmp_path / "from-env.jsonl")) == 1
    assert len(_records(tmp_path / "from-flag.jsonl")) == 1
    assert not (tmp_path / "conf" / "from-file.jsonl").exists()


def test_the_api_reads_it_and_registry_uses_it(tmp_path: Path) -> None:
    path, _ = _setup(tmp_path, {"decision_log": "~/d.jsonl", "hooks": HOOKS})
    config = agent_hooks.load(path, home=tmp_path / "home")
    assert config.decision_log == os.path.expanduser("~/d.jsonl")
    assert config.registry().decision_log == config.decision_log
    assert config.registry(decision_log="x.jsonl").decision_log == "x.jsonl"


def test_a_decision_log_that_is_no_path_is_an_error(tmp_path: Path) -> None:
    path, env = _setup(tmp_path, {"decision_log": 7, "hooks": HOOKS})
    config = agent_hooks.load(path)
    (error,) = config.errors
    assert error.code is DiagnosticCode.INVALID_CONFIG and error.location == "decision_log"
    assert config.decision_log is None and config.registry().decision_log is None
    proc = cli_in_process(
        ["run", "--config", str(path), "--fail-closed"], env=env, cwd=tmp_path, input=PAYLOAD
    )
    assert proc.returncode == 2 and "'decision_log' must be a file path" in proc.stderr
