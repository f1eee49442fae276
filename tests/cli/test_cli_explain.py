"""``agent-hooks explain``: which files loaded, which groups matched and why, each
handler's ``if`` rule per subcommand, what each said and how the answer was chosen;
``--json`` for tools; ``--dry`` runs nothing, and nothing runs that was not selected.

The commands run in this process (what they print, run and exit with is what is
checked), one ``explain`` end to end as a process (``process=True``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_cli_run import Workspace, _env
from tests.cli_inprocess import cli_in_process

PY = sys.executable


def explain(
    ws: Workspace, *args: str | Path, stdin: Any = None, process: bool = False
) -> subprocess.CompletedProcess[str]:
    data = stdin if isinstance(stdin, bytes) else json.dumps(stdin).encode()
    if not process:
        return cli_in_process(
            ["explain", *map(str, args)], input=data, cwd=ws.tmp, env=_env(ws.tmp)
        )
    proc = subprocess.run(
        [PY, "-m", "agent_hooks", "explain", *map(str, args)],
        input=data,
        capture_output=True,
        cwd=ws.tmp,
        env=_env(ws.tmp),
        timeout=60,
        check=False,
    )
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
    )


@pytest.fixture
def guarded(tmp_path: Path) -> tuple[Workspace, Path]:
    ws = Workspace(tmp_path)
    marker = tmp_path / "ran"
    conf = ws.config(
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {
                            "type": "command",
                            "command": f"touch {marker}-push; echo 'no pushes' >&2; exit 2",
                            "if": "Bash(git push *)",
                        },
                        {
                            "type": "command",
                            "command": f"touch {marker}-rm; exit 2",
                            "if": "Bash(rm *)",
                        },
                        {
                            "type": "command",
                            "command": f"touch {marker}-shadow; exit 0",
                            "mode": "shadow",
                        },
                    ],
                },
                {
                    "matcher": "Edit|Write",
                    "hooks": [{"type": "command", "command": f"touch {marker}-edit"}],
                },
            ]
        }
    )
    return ws, conf


COMPOUND = "git status && git push origin main"


def test_a_compound_bash_command_with_if_rules_in_words(guarded: tuple[Workspace, Path]) -> None:
    ws, conf = guarded
    payload = ws.payload(tool_input={"command": COMPOUND})
    done = explain(ws, "--config", conf, stdin=payload, process=True)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert 'PreToolUse from claude, tool_name = "Bash"' in out
    assert f"command: {COMPOUND}" in out
    assert f"{conf}: loaded sha256" in out
    assert "1. " in out and 'matched: matcher "Bash" lists "Bash"' in out
    assert 'if "Bash(git push *)" matches the subcommand "git push origin main"' in out
    assert "- git status: no match" in out and "- git push origin main: matches" in out
    assert 'skipped: if "Bash(rm *)" matches none of the subcommands' in out
    assert 'said: deny ("no pushes") [blocked, exit 2' in out
    assert "(command, shadow): runs" in out
    assert 'not matched: matcher "Edit|Write" lists "Edit", "Write", not "Bash"' in out
    assert 'Decision: deny ("no pushes")' in out
    assert "permissionDecision: deny, from touch" in out
    assert "shadow handlers" in out and "are not enforced" in out
    # exactly what was selected ran: not the rm rule's, not the Edit group's
    ran = sorted(p.name for p in ws.tmp.glob("ran-*"))
    assert ran == ["ran-push", "ran-shadow"]


def test_json_for_tools(guarded: tuple[Workspace, Path]) -> None:
    ws, conf = guarded
    done = explain(
        ws, "--config", conf, "--json", stdin=ws.payload(tool_input={"command": COMPOUND})
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["event"] == "PreToolUse" and report["matcher_value"] == "Bash"
    assert report["files"][0]["status"] == "loaded"
    bash, edit = report["groups"]
    assert (bash["matched"], edit["matched"]) == (True, False)
    push, rm, shadow = bash["handlers"]
    assert push["runs"] and not rm["runs"] and shadow["runs"] and shadow["shadow"]
    assert {"command": "git push origin main", "matches": True} in push["subcommands"]
    assert push["result"]["decision"] == "deny"
    assert rm["result"] is None
    assert report["decision"] == {"decision": "deny", "reason": "no pushes", "blocked": True}
    assert report["would_be"]["decision"] == "deny"
    assert report["answer"]["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_dry_runs_nothing(guarded: tuple[Workspace, Path]) -> None:
    ws, conf = guarded
    payload = ws.payload(tool_input={"command": COMPOUND})
    done = explain(ws, "--config", conf, "--dry", stdin=payload)
    assert done.returncode == 0, done.stderr
    assert "Dry run: nothing ran. Would run: touch" in done.stdout
    assert "said:" not in done.stdout and "Decision:" not in done.stdout
    assert list(ws.tmp.glob("ran-*")) == []
    report = json.loads(explain(ws, "--config", conf, "--dry", "--json", stdin=payload).stdout)
    assert len(report["would_run"]) == 2 and "answer" not in report
    assert list(ws.tmp.glob("ran-*")) == []


def test_a_payload_file_and_a_payload_built_with_payload(guarded: tuple[Workspace, Path]) -> None:
    ws, conf = guarded
    path = ws.tmp / "payload.json"
    path.write_text(json.dumps(ws.payload(tool_input={"command": "rm -rf build"})))
    done = explain(ws, path, "--config", conf, "--dry")
    assert 'if "Bash(rm *)" matches the subcommand "rm -rf build"' in done.stdout
    payload = cli_in_process(
        ["payload", "PreToolUse", "--set", "command=git push"], env=_env(ws.tmp), cwd=os.getcwd()
    )
    assert payload.returncode == 0, payload.stderr
    built = payload.stdout.encode()
    done = explain(ws, "--config", conf, "--dry", stdin=built)
    assert done.returncode == 0, done.stderr
    assert 'matches the subcommand "git push"' in done.stdout


def test_a_bad_payload_is_a_clear_error(guarded: tuple[Workspace, Path]) -> None:
    ws, conf = guarded
    done = explain(ws, "--config", conf, stdin=b"not json")
    assert done.returncode == 1
    assert done.stderr.startswith("agent-hooks explain: ") and "Traceback" not in done.stderr
    done = explain(ws, "--config", ws.tmp / "missing.json", stdin=ws.payload())
    assert done.returncode == 1 and "no such file" in done.stderr
