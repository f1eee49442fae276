"""``agent-hooks install`` writes a command that runs: an absolute one in user files
(the harness's PATH does not matter), a portable one with paths relative to the project
in project files (and says when it will not resolve here), the harness's own
fail-closed switch on guard events, ``--trust-project-hooks`` carried into the command,
and a warning (and ``--one-entry``) where one harness runs another's file too."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.install_helpers import GUARD, ah, env_for, graph, grouped_commands, ours


def _run_as_harness(
    command: str, project: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """The written command run as Claude Code runs it (through ``sh -c``, in the project)
    on a PreToolUse payload that the installed guard blocks."""
    payload = {
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "cwd": str(project),
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
    }
    return subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=60,
        check=False,
    )


def test_a_user_file_gets_a_command_that_runs_without_path(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    hooks = graph(tmp_path / "graph" / "guard.json")
    proc = ah(tmp_path, "install", "--harness", "claude", "--scope", "user", "--config", str(hooks))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "home" / ".claude" / "settings.json").read_text())
    (command,) = ours(grouped_commands(doc, "PreToolUse"), "claude")
    assert os.path.isabs(shlex.split(command)[0])
    # the harness runs it through a shell whose PATH has no agent-hooks: it still guards
    run = _run_as_harness(command, project, {**env_for(tmp_path), "PATH": "/usr/bin:/bin"})
    assert run.returncode != 127, run.stderr
    assert run.returncode == 2 or '"deny"' in run.stdout or '"block"' in run.stdout, (
        run.returncode,
        run.stdout,
        run.stderr,
    )


def test_a_project_file_gets_a_portable_command_and_says_when_it_will_not_resolve(
    tmp_path: Path,
) -> None:
    project = tmp_path / "proj"
    hooks = graph(project / "hooks" / "guard.json")
    args = ["install", "--harness", "claude", "--project-dir", str(project)]
    proc = ah(tmp_path, *args, "--config", str(hooks), PATH="/usr/bin:/bin")
    assert proc.returncode == 0, proc.stderr
    assert "not found on this machine's PATH" in proc.stderr
    doc = json.loads((project / ".claude" / "settings.json").read_text())
    (command,) = ours(grouped_commands(doc, "PreToolUse"), "claude")
    words = shlex.split(command)
    assert words[0] == "agent-hooks"
    # relative to the project root, which the hook's environment names
    assert words[words.index("--config") + 1] == "${CLAUDE_PROJECT_DIR:-.}/hooks/guard.json"
    assert str(tmp_path) not in command


def test_trust_at_install_is_trust_at_run_time(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    hooks = graph(project / "guard.json")
    proc = ah(
        tmp_path,
        "install",
        "--harness",
        "cursor",
        "--project-dir",
        str(project),
        "--config",
        str(hooks),
        "--trust-project-hooks",
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((project / ".cursor" / "hooks.json").read_text())
    (entry,) = doc["hooks"]["preToolUse"]
    assert "--trust-project-hooks" in shlex.split(entry["command"])


def test_the_harness_s_fail_closed_switch_goes_on_guard_events(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    hooks = graph(project / "guard.json")
    base = ["install", "--project-dir", str(project), "--config", str(hooks)]
    assert ah(tmp_path, *base, "--harness", "claude").returncode == 0
    doc = json.loads((project / ".claude" / "settings.json").read_text())
    (pre,) = doc["hooks"]["PreToolUse"]
    assert pre["hooks"][0]["onFailure"] == "block"
    (stop,) = doc["hooks"]["Stop"]
    assert "onFailure" not in stop["hooks"][0]  # Claude Code ignores it there

    assert ah(tmp_path, *base, "--harness", "cursor").returncode == 0
    doc = json.loads((project / ".cursor" / "hooks.json").read_text())
    assert doc["hooks"]["preToolUse"][0]["failClosed"] is True
    assert "failClosed" not in doc["hooks"]["stop"][0]

    proc = ah(tmp_path, *base, "--harness", "gemini")
    assert proc.returncode == 0
    assert "fail open" in proc.stderr  # no switch there: said plainly

    proc = ah(tmp_path, *base, "--harness", "claude", "--fail-open")
    doc = json.loads((project / ".claude" / "settings.json").read_text())
    (pre,) = doc["hooks"]["PreToolUse"]
    assert "onFailure" not in pre["hooks"][0] and "fail open" in proc.stderr


def test_a_harness_that_runs_claude_s_file_is_warned_and_one_entry_writes_nothing(
    tmp_path: Path,
) -> None:
    project = tmp_path / "proj"
    hooks = graph(project / "guard.json")
    base = ["install", "--project-dir", str(project), "--config", str(hooks)]
    assert ah(tmp_path, *base, "--harness", "claude").returncode == 0
    proc = ah(tmp_path, *base, "--harness", "copilot", "--one-entry")
    assert proc.returncode == 0, proc.stderr
    assert "twice" in proc.stderr
    assert not (project / ".github" / "hooks" / "agent-hooks.json").exists()
    proc = ah(tmp_path, *base, "--harness", "copilot")
    assert proc.returncode == 0 and "twice" in proc.stderr and "--one-entry" in proc.stderr


def _environment_without_entry_point(tmp_path: Path) -> Path:
    """An environment of this interpreter with no ``agent-hooks`` script beside it (a
    venv made of this one's ``pyvenv.cfg`` and ``lib``): install then writes the
    interpreter with ``-m agent_hooks``."""
    venv = Path(sys.prefix)
    env = tmp_path / "env"
    (env / "bin").mkdir(parents=True)
    (env / "pyvenv.cfg").write_text((venv / "pyvenv.cfg").read_text())
    (env / "lib").symlink_to(venv / "lib")
    (env / "bin" / "python").symlink_to(Path(sys.executable))
    return env / "bin" / "python"


def test_an_interpreter_command_never_imports_what_the_project_ships(tmp_path: Path) -> None:
    """``<python> -m agent_hooks`` in the harness's working directory (the project) would
    put the project first on the module path: a repository shipping ``agent_hooks/``
    would answer for the guard. The written command keeps the project off the path."""
    if sys.prefix == sys.base_prefix:
        pytest.skip("needs a virtualenv to make an environment without the entry point")
    python = _environment_without_entry_point(tmp_path)
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    marker = tmp_path / "planted-ran"
    (project / "agent_hooks").mkdir()
    (project / "agent_hooks" / "__init__.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n"
    )
    (project / "agent_hooks" / "__main__.py").write_text("print('{}')\n")
    hooks = graph(tmp_path / "graph" / "guard.json")
    proc = subprocess.run(
        [str(python), "-m", "agent_hooks", "install", "--harness", "claude", "--scope", "user",
         "--config", str(hooks)],
        capture_output=True, text=True, env=env_for(tmp_path), cwd=tmp_path, timeout=120,
        check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "home" / ".claude" / "settings.json").read_text())
    (command,) = ours(grouped_commands(doc, "PreToolUse"), "claude")
    assert shlex.split(command)[0] == str(python)
    run = _run_as_harness(command, project, env_for(tmp_path))
    assert not marker.exists(), "the project's own agent_hooks ran as the guard"
    assert run.returncode == 2 or '"deny"' in run.stdout, (run.returncode, run.stdout, run.stderr)


@pytest.mark.skipif(os.name != "posix", reason="the quick client is written on POSIX")
def test_a_user_file_gets_the_quick_client_which_guards_with_and_without_a_server(
    tmp_path: Path,
) -> None:
    """A user file's command is the quick client (this interpreter by its path as
    installed, ``-I -S``, the package's ``_quick_run.py``); run as the harness runs it,
    it blocks when no server is up (it becomes ``agent-hooks run``) and when the server
    that call started answers; install again replaces it, uninstall removes it."""
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    hooks = graph(tmp_path / "graph" / "guard.json")
    args = ["install", "--harness", "claude", "--scope", "user", "--config", str(hooks)]
    assert ah(tmp_path, *args).returncode == 0
    settings = tmp_path / "home" / ".claude" / "settings.json"
    (command,) = ours(grouped_commands(json.loads(settings.read_text()), "PreToolUse"), "claude")
    words = shlex.split(command)
    assert words[:3] == [os.path.abspath(sys.executable), "-I", "-S"]
    assert Path(words[3]).parts[-4:] == ("agent_hooks", "_bridges", "_daemon", "_quick_run.py")
    assert words[4:7] == ["run", "--dialect", "claude"]

    env = {**env_for(tmp_path), "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": str(runtime)}
    try:
        for waited in ("", "20"):  # no server yet; then the server that call started
            run = _run_as_harness(command, project, {**env, "AGENT_HOOKS_DAEMON_WAIT": waited})
            assert run.returncode == 2 or '"deny"' in run.stdout, (run.returncode, run.stderr)
    finally:
        subprocess.run(
            [sys.executable, "-m", "agent_hooks", "daemon", "stop"],
            env=env, capture_output=True, timeout=60, check=False,
        )  # fmt: skip

    assert ah(tmp_path, *args, "--fail-closed").returncode == 0
    doc = json.loads(settings.read_text())
    (again,) = ours(grouped_commands(doc, "PreToolUse"), "claude")
    assert again == command + " --fail-closed"
    assert ah(tmp_path, "uninstall", "--harness", "claude", "--scope", "user").returncode == 0
    assert not settings.exists() or not ours(
        grouped_commands(json.loads(settings.read_text()), "PreToolUse"), "claude"
    )


def test_claude_gets_an_async_session_start_entry_that_starts_the_server(tmp_path: Path) -> None:
    """Claude Code runs ``async`` hooks without waiting: install adds ``daemon start`` at
    SessionStart there (unless the graph has a SessionStart entry of its own), once
    however often it is installed, and uninstall removes it; other harnesses get none."""
    project = tmp_path / "proj"
    hooks = graph(project / "guard.json")
    base = ["install", "--project-dir", str(project), "--config", str(hooks)]
    settings = project / ".claude" / "settings.json"
    for _ in range(2):
        assert ah(tmp_path, *base, "--harness", "claude").returncode == 0
    (group,) = json.loads(settings.read_text())["hooks"]["SessionStart"]
    (item,) = group["hooks"]
    (guard,) = ours(grouped_commands(json.loads(settings.read_text()), "PreToolUse"), "claude")
    run_options = shlex.split(guard)[4:]  # (after ``agent-hooks run --dialect claude``)
    assert run_options[:2] == ["--config", "${CLAUDE_PROJECT_DIR:-.}/guard.json"]
    # (with the guard's own options: its configuration loads before the first tool call)
    words = ["agent-hooks", "daemon", "start", "--dialect", "claude", "--", *run_options]
    assert shlex.split(item["command"]) == words
    assert item["async"] is True

    with_start = {"hooks": {**GUARD["hooks"], "SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}]}}
    graph(hooks, with_start)
    assert ah(tmp_path, *base, "--harness", "claude").returncode == 0
    (group,) = json.loads(settings.read_text())["hooks"]["SessionStart"]
    assert shlex.split(group["hooks"][0]["command"])[1:3] == ["run", "--dialect"]

    assert ah(tmp_path, "uninstall", "--harness", "claude", "--project-dir", str(project)).returncode == 0
    assert not settings.exists()  # (install created it; only its entries were there)
    assert ah(tmp_path, *base, "--harness", "cursor").returncode == 0
    doc = json.loads((project / ".cursor" / "hooks.json").read_text())
    assert not any("daemon" in e["command"] for entries in doc["hooks"].values() for e in entries)
