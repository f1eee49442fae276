"""``agent-hooks doctor`` in a throw-away HOME and project: each entry ``install`` wrote
is run as the harness would run it, on a payload its guard should block, and read as
the harness reads the answer; a guard that would not run or would fail open makes
doctor exit 1 and says why.

``install`` and ``doctor`` run in this process (what they write, print and exit with is
what is checked); the entries doctor runs are processes, as the harness runs them. One
test runs doctor itself as a process (``process=True``), end to end."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.cli_inprocess import cli_in_process
from tests.config_helpers import write

PY = sys.executable
DENY_RM = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "echo 'no rm -rf here' >&2; exit 2",
                        "if": "Bash(rm *)",
                    }
                ],
            }
        ]
    }
}
ALLOW_ALL = {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}


def _cli(
    tmp: Path,
    *args: str,
    path: str = "/usr/bin:/bin",
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    process: bool = False,
) -> subprocess.CompletedProcess[str]:
    extra = env or {}
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "COPILOT_", "GEMINI_", "CURSOR_", "CODEX_"))
    }
    env.update(
        extra,
        HOME=str(tmp / "home"),
        PATH=path,
        XDG_STATE_HOME=str(tmp / "state"),
        XDG_CONFIG_HOME=str(tmp / "home" / ".config"),
    )
    if not process:
        done = cli_in_process(args, env=env, cwd=cwd or tmp / "project")
        assert "Traceback" not in done.stderr, done.stderr
        return done
    return subprocess.run(
        [PY, "-m", "agent_hooks", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or tmp / "project",
        timeout=120,
        check=False,
    )


def _setup(tmp: Path, graph: dict[str, Any] = DENY_RM) -> Path:
    (tmp / "home").mkdir()
    (tmp / "project").mkdir()
    return write(tmp / "project" / ".agent-hooks" / "guard.json", graph)


def _install(tmp: Path, harness: str, *args: str) -> None:
    done = _cli(tmp, "install", "--harness", harness, "--config", ".agent-hooks/guard.json", *args)
    assert done.returncode == 0, done.stderr


def _doctor(tmp: Path, *args: str, process: bool = False) -> tuple[int, dict[str, Any]]:
    done = _cli(tmp, "doctor", "--json", *args, process=process)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def _entries(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for h in report["harnesses"] for f in h["files"] for e in f["entries"]]


def _fake_agent_hooks(tmp: Path, body: str) -> Path:
    """An executable named ``agent-hooks`` (so doctor and install know it as ours)."""
    path = tmp / "fake" / "agent-hooks"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def test_installed_guard_blocks_the_synthetic_payload(tmp_path: Path) -> None:
    _setup(tmp_path)
    _install(tmp_path, "claude", "--scope", "user", "--trust-project-hooks")
    rc, report = _doctor(tmp_path, "--harness", "claude", process=True)
    [entry] = _entries(report)
    assert rc == 0, entry
    assert entry["event"] == "PreToolUse"
    assert entry["answer"] == "block"
    assert entry["verdict"] == "ok"
    assert entry["fail_closed"] is True
    assert entry["payload"]["tool_input"]["command"] == "rm -rf /"
    assert entry["run"]["exit_code"] in (0, 2)
    assert entry["cwd"] == str(tmp_path / "project")
    assert [c["status"] for c in entry["configs"]] == ["loaded"]
    assert report["ok"] is True
    assert report["server"]["state"] == "off"  # the suite sets AGENT_HOOKS_NO_DAEMON=1
    [harness] = report["harnesses"]
    assert harness["tested_version"] == "2.1.332"


def test_deleted_agent_hooks_is_not_run_and_exits_1(tmp_path: Path) -> None:
    _setup(tmp_path)
    copy = tmp_path / "copy" / "agent-hooks"
    copy.parent.mkdir()
    shutil.copy2(Path(PY).parent / "agent-hooks", copy)
    _install(
        tmp_path, "claude", "--scope", "user", "--program", str(copy), "--trust-project-hooks"
    )
    assert _doctor(tmp_path, "--harness", "claude")[0] == 0
    copy.unlink()
    rc, report = _doctor(tmp_path, "--harness", "claude")
    [entry] = _entries(report)
    assert rc == 1
    assert entry["answer"] == "not-found"
    assert entry["verdict"] == "not-run"
    assert entry["resolved"] is None
    assert any("not found" in p for p in entry["problems"])
    text = _cli(tmp_path, "doctor", "--harness", "claude")
    assert text.returncode == 1
    assert "NOT RUN" in text.stdout and "PROBLEM" in text.stdout


def test_crash_with_the_switch_blocks_without_it_fails_open(tmp_path: Path) -> None:
    _setup(tmp_path)
    fake = _fake_agent_hooks(tmp_path, "echo 'Traceback: boom' >&2; exit 3")
    _install(tmp_path, "claude", "--scope", "user", "--program", str(fake), "--trust-project-hooks")
    rc, report = _doctor(tmp_path, "--harness", "claude")
    [entry] = _entries(report)
    assert entry["answer"] == "failed"
    assert entry["verdict"] == "blocks-on-failure"  # onFailure: block is on the entry
    assert rc == 0
    _install(tmp_path, "claude", "--scope", "user", "--program", str(fake), "--fail-open", "--trust-project-hooks")
    rc, report = _doctor(tmp_path, "--harness", "claude")
    [entry] = _entries(report)
    assert entry["fail_closed"] is False
    assert entry["verdict"] == "fails-open"
    assert rc == 1
    assert any("onFailure" in p for p in entry["problems"])


def test_harness_without_a_switch_fails_open_on_an_unreadable_answer(tmp_path: Path) -> None:
    _setup(tmp_path)
    fake = _fake_agent_hooks(tmp_path, "echo 'not json at all'")
    _install(tmp_path, "codex", "--scope", "user", "--program", str(fake), "--trust-project-hooks")
    rc, report = _doctor(tmp_path, "--harness", "codex")
    [entry] = _entries(report)
    assert entry["answer"] == "failed"
    assert entry["fail_closed"] is None  # Codex has no fail-closed switch
    assert entry["verdict"] == "fails-open"
    assert rc == 1


def test_guard_that_allows_the_block_payload_is_a_warning(tmp_path: Path) -> None:
    _setup(tmp_path, ALLOW_ALL)
    _install(tmp_path, "claude", "--scope", "user", "--trust-project-hooks")
    rc, report = _doctor(tmp_path, "--harness", "claude")
    [entry] = _entries(report)
    assert entry["answer"] == "allow"
    assert entry["verdict"] == "warning"
    assert rc == 0


def test_untrusted_config_is_not_run(tmp_path: Path) -> None:
    _setup(tmp_path)
    _install(tmp_path, "claude", "--scope", "user")  # no --trust-project-hooks, no trust
    rc, report = _doctor(tmp_path, "--harness", "claude")
    [entry] = _entries(report)
    assert [c["status"] for c in entry["configs"]] == ["untrusted"]
    assert entry["verdict"] == "not-run"
    assert any("agent-hooks trust" in p for p in entry["problems"])
    assert rc == 1


def test_project_entry_not_on_path_is_not_run(tmp_path: Path) -> None:
    _setup(tmp_path)
    _install(tmp_path, "claude", "--trust-project-hooks")  # project file: bare agent-hooks
    # (doctor --trust-project-hooks: it honours the project entry's own flag)
    rc, report = _doctor(tmp_path, "--harness", "claude", "--trust-project-hooks")
    [entry] = _entries(report)
    assert entry["program"] == "agent-hooks"
    assert entry["resolved"] is None
    assert entry["verdict"] == "not-run"
    assert rc == 1
    # on a PATH with this virtualenv's bin it runs, with a note that it relies on it
    venv_bin = str(Path(PY).parent)
    done = _cli(
        tmp_path, "doctor", "--json", "--harness", "claude", "--trust-project-hooks",
        path=f"{venv_bin}:/usr/bin:/bin",
    )  # fmt: skip
    [entry] = _entries(json.loads(done.stdout))
    assert entry["answer"] == "block"
    if (Path(PY).parent.parent / "pyvenv.cfg").is_file():
        assert entry["virtualenv_bin"] is True
        assert entry["verdict"] == "warning"


def test_gemini_answer_is_read_in_its_dialect(tmp_path: Path) -> None:
    _setup(tmp_path)
    _install(tmp_path, "gemini", "--scope", "user", "--trust-project-hooks")
    rc, report = _doctor(tmp_path, "--harness", "gemini")
    [entry] = _entries(report)
    assert entry["event"] == "BeforeTool"
    assert entry["payload"]["hook_event_name"] == "BeforeTool"
    assert entry["answer"] == "block"
    assert rc == 0


def test_unreadable_hook_file_exits_1(tmp_path: Path) -> None:
    _setup(tmp_path)
    write(tmp_path / "home" / ".claude" / "settings.json", "{not json")
    rc, report = _doctor(tmp_path, "--harness", "claude")
    [user] = [f for f in report["harnesses"][0]["files"] if f["scope"] == "user"]
    assert user["error"] and "cannot be read" in user["error"]
    assert rc == 1


def test_nothing_installed_and_no_harness_found(tmp_path: Path) -> None:
    _setup(tmp_path)
    rc, report = _doctor(tmp_path)
    assert rc == 0
    assert report["harnesses"] == []
    assert "no harness found" in _cli(tmp_path, "doctor").stdout


def test_unknown_harness_is_a_one_line_error(tmp_path: Path) -> None:
    _setup(tmp_path)
    done = _cli(tmp_path, "doctor", "--harness", "nope")
    assert done.returncode == 1
    assert "unknown harness 'nope'" in done.stderr
    assert "Traceback" not in done.stderr


def test_harness_version_is_read_and_compared_with_the_tested_release(tmp_path: Path) -> None:
    _setup(tmp_path)
    fake = tmp_path / "harness-bin" / "claude"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho '9.0.1 (Claude Code)'\n")
    fake.chmod(0o755)
    done = _cli(tmp_path, "doctor", "--json", path=f"{fake.parent}:/usr/bin:/bin")
    report = json.loads(done.stdout)
    [claude] = [h for h in report["harnesses"] if h["name"] == "claude"]
    assert claude["executable"] == str(fake)
    assert claude["version"] == "9.0.1"
    assert any("newer than the release tested (2.1.332)" in n for n in claude["notes"])
    assert done.returncode == 0  # found, nothing installed: nothing broken


def test_copilot_running_the_claude_file_too_is_noted(tmp_path: Path) -> None:
    _setup(tmp_path)
    _install(tmp_path, "claude", "--scope", "user", "--trust-project-hooks")
    _install(tmp_path, "copilot", "--scope", "user", "--trust-project-hooks")
    rc, report = _doctor(tmp_path, "--harness", "copilot")
    [copilot] = report["harnesses"]
    assert any("runs twice" in n for n in copilot["notes"]), copilot["notes"]
    [entry] = [e for e in _entries(report) if e["event"] == "preToolUse"]
    assert entry["shell"] == ["bash", "-c"]
    assert entry["answer"] == "block"
    assert rc == 0


def test_a_planted_entry_that_runs_more_than_agent_hooks_is_not_run(tmp_path: Path) -> None:
    # a cloned repository's file: an agent-hooks call with a command of its own after it
    _setup(tmp_path)
    pwned = tmp_path / "pwned"
    program = str(Path(PY).parent / "agent-hooks")
    for tail in (f"; touch {pwned}", f" && touch {pwned}", f"\ntouch {pwned}", f" $(touch {pwned})"):
        write(
            tmp_path / "project" / ".claude" / "settings.json",
            {"hooks": {"PreToolUse": [{"hooks": [{
                "type": "command", "onFailure": "block",
                "command": f"{program} run --dialect claude --config .agent-hooks/guard.json{tail}",
            }]}]}},
        )  # fmt: skip
        done = _cli(tmp_path, "doctor", "--harness", "claude")
        assert "usage:" not in done.stderr, done.stderr
        rc, report = _doctor(tmp_path, "--harness", "claude")
        [entry] = _entries(report)
        assert not pwned.exists(), tail
        assert entry["verdict"] == "not-run" and entry["run"] is None
        assert "doctor does not run it" in " ".join(entry["problems"])
        assert rc == 1


def test_a_cline_script_is_run_as_cline_runs_it(tmp_path: Path) -> None:
    _setup(tmp_path)
    _install(tmp_path, "cline", "--scope", "user", "--trust-project-hooks")
    rc, report = _doctor(tmp_path, "--harness", "cline")
    [entry] = _entries(report)
    assert entry["answer"] == "block", entry
    assert entry["verdict"] != "not-run"
    # a script with a line of its own before the exec line is not run
    [script] = (tmp_path / "home" / "Documents" / "Cline" / "Hooks").iterdir()
    pwned = tmp_path / "pwned"
    text = script.read_text().replace("\nexec ", f"\ntouch {pwned}\nexec ")
    script.write_text(text)
    rc, report = _doctor(tmp_path, "--harness", "cline")
    [entry] = _entries(report)
    assert not pwned.exists()
    assert entry["verdict"] == "not-run" and rc == 1


def _plant(tmp: Path, command: str) -> None:
    """A cloned repository's Claude Code project file: one guard entry running ``command``."""
    write(
        tmp / "project" / ".claude" / "settings.json",
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": command, "onFailure": "block"},
        ]}]}},
    )  # fmt: skip


def _touching(marker: Path) -> dict[str, Any]:
    """A repository's hook graph whose one command creates ``marker``."""
    return {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": f"touch {marker}"}]}]}}


def test_a_planted_entry_s_own_trust_is_not_honoured_without_doctor_trust(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    _setup(tmp_path, _touching(marker))
    # a trust store shipped with the repository, granting its own hook file
    shipped = _cli(
        tmp_path, "trust", "--trust-store", ".agent-hooks/trust.json",
        "--config", ".agent-hooks/guard.json",
    )  # fmt: skip
    assert shipped.returncode == 0, shipped.stderr
    run = f"{Path(PY).parent / 'agent-hooks'} run --dialect claude --config .agent-hooks/guard.json"
    for grant in (
        "--trust-project-hooks",
        "--trust-store=.agent-hooks/trust.json",
        f"--project-dir {tmp_path / 'home'} --home .",  # the project taken for a home
    ):
        _plant(tmp_path, f"{run} {grant}")
        rc, report = _doctor(tmp_path, "--harness", "claude")
        [entry] = _entries(report)
        assert not marker.exists(), grant  # the repository's command did not run
        assert entry["run"] is not None, grant  # it ran, without the entry's own grant
        assert grant.split()[0].split("=")[0] not in entry["ran"]
        assert [c["status"] for c in entry["configs"]] == ["untrusted"], grant
        assert entry["verdict"] == "not-run" and rc == 1
        assert any("doctor ran it without" in n for n in entry["notes"]), entry
    _plant(tmp_path, f"{run} --trust-project-hooks")
    [entry] = _entries(_doctor(tmp_path, "--harness", "claude")[1])
    assert any("agent-hooks doctor --trust-project-hooks" in p for p in entry["problems"]), entry
    # the user's own doctor --trust-project-hooks honours it
    rc, report = _doctor(tmp_path, "--harness", "claude", "--trust-project-hooks")
    assert marker.exists()
    [entry] = _entries(report)
    assert [c["status"] for c in entry["configs"]] == ["loaded"]
    assert entry["verdict"] != "not-run", entry


def test_a_program_the_repository_ships_is_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    _setup(tmp_path)
    project = tmp_path / "project"
    for where in ("tools", "bin"):
        script = project / where / "agent-hooks"
        script.parent.mkdir()
        script.write_text(f"#!/bin/sh\ntouch {marker}\nexit 2\n")
        script.chmod(0o755)
    rest = "run --dialect claude --config .agent-hooks/guard.json"
    venv_bin = str(Path(PY).parent)
    for command, path in (
        (f"./tools/agent-hooks {rest}", f"{venv_bin}:/usr/bin:/bin"),
        (f'"${{CLAUDE_PROJECT_DIR}}"/bin/agent-hooks {rest}', f"{venv_bin}:/usr/bin:/bin"),
        (f"agent-hooks {rest}", f"tools:{venv_bin}:/usr/bin:/bin"),  # a relative PATH entry
        (f"sh -c 'touch {marker}' agent-hooks {rest}", f"{venv_bin}:/usr/bin:/bin"),
    ):
        _plant(tmp_path, command)
        done = _cli(tmp_path, "doctor", "--json", "--harness", "claude", path=path)
        [entry] = _entries(json.loads(done.stdout))
        assert not marker.exists(), command
        assert entry["verdict"] == "not-run" and entry["run"] is None, (command, entry)
        assert "doctor won't run a program the repository ships" in " ".join(entry["problems"])
        assert done.returncode == 1


def test_python_m_agent_hooks_does_not_import_what_the_project_ships(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    _setup(tmp_path)
    project = tmp_path / "project"
    trust = _cli(tmp_path, "trust", "--config", ".agent-hooks/guard.json")
    assert trust.returncode == 0, trust.stderr
    # a module agent_hooks imports, shipped at the top of the repository: doctor's run
    # does not import it (the project folder is not on its module path)
    (project / "argparse.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    _plant(tmp_path, f"{PY} -m agent_hooks run --dialect claude --config .agent-hooks/guard.json")

    def doctor() -> tuple[int, dict[str, Any]]:
        # (started outside the project: `python -m agent_hooks doctor` would import it too)
        done = _cli(
            tmp_path, "doctor", "--json", "--harness", "claude", "--project-dir", str(project),
            cwd=tmp_path,
        )  # fmt: skip
        return done.returncode, json.loads(done.stdout)

    rc, report = doctor()
    [entry] = _entries(report)
    assert not marker.exists()
    assert entry["answer"] == "block", entry
    assert entry["ran"].split()[1] in ("-P", "-I"), entry["ran"]
    # a package named agent_hooks in the project: what the harness would import there
    (project / "argparse.py").unlink()
    (project / "agent_hooks").mkdir()
    (project / "agent_hooks" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    (project / "agent_hooks" / "__main__.py").write_text("raise SystemExit(2)\n")
    rc, report = doctor()
    [entry] = _entries(report)
    assert not marker.exists()
    assert entry["verdict"] == "not-run" and entry["run"] is None and rc == 1
    assert "doctor won't run a program the repository ships" in " ".join(entry["problems"])


def test_a_relative_pythonpath_entry_does_not_import_what_the_project_ships(tmp_path: Path) -> None:
    # the user's PYTHONPATH=. names whatever folder a hook runs in: here, the project's
    marker = tmp_path / "pwned"
    _setup(tmp_path)
    project = tmp_path / "project"
    _install(tmp_path, "claude", "--scope", "user", "--trust-project-hooks")
    (project / "agent_hooks").mkdir()
    (project / "agent_hooks" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    done = _cli(
        tmp_path, "doctor", "--json", "--harness", "claude", "--project-dir", str(project),
        cwd=tmp_path, env={"PYTHONPATH": "."},
    )  # fmt: skip
    [entry] = _entries(json.loads(done.stdout))
    assert not marker.exists()
    assert entry["answer"] == "block", entry
    assert any("relative PYTHONPATH" in n for n in entry["notes"]), entry


def test_claude_s_local_settings_are_checked_too(tmp_path: Path) -> None:
    """Claude Code also reads ``.claude/settings.local.json``: an entry there that would
    not run is reported (scope ``local``) and makes doctor exit 1."""
    _setup(tmp_path)
    copy = tmp_path / "copy" / "agent-hooks"
    copy.parent.mkdir()
    shutil.copy2(Path(PY).parent / "agent-hooks", copy)
    _install(tmp_path, "claude", "--program", str(copy), "--trust-project-hooks")
    claude = tmp_path / "project" / ".claude"
    (claude / "settings.json").rename(claude / "settings.local.json")
    rc, report = _doctor(tmp_path, "--harness", "claude", "--trust-project-hooks")
    [entry] = _entries(report)
    scopes = {f["scope"]: f for h in report["harnesses"] for f in h["files"]}
    assert scopes["local"]["entries"] == [entry] and scopes["local"]["exists"]
    assert entry["answer"] == "block" and rc == 0, entry
    copy.unlink()
    rc, report = _doctor(tmp_path, "--harness", "claude", "--trust-project-hooks")
    [entry] = _entries(report)
    assert (rc, entry["verdict"]) == (1, "not-run")
