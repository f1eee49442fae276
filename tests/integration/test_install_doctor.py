"""``agent-hooks install`` into the real harnesses, and ``agent-hooks doctor`` on what it
wrote (issue #28): the entries install writes (not a hand-written file) make the real
Claude Code, Codex, Gemini CLI and Copilot CLI refuse ``rm -r victim``; a deleted
``agent-hooks`` executable still blocks in Claude Code (``onFailure: block``), and
doctor reports it and exits 1."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from drivers import Driver, command_hook
from harnesses import GUARD_SH_REASON, Completed, World, agent_hooks_exe, write_json
from mock_models import MockModel
from scenarios import RM_VICTIM

pytestmark = pytest.mark.integration


def _guard(world: World) -> None:
    """The project's hooks: guard.sh (exit 2 on ``rm -r``) before every tool call."""
    write_json(
        world.hooks_dir / "guard.json",
        {"hooks": {"PreToolUse": [{"hooks": [command_hook(world.bin / "guard.sh")]}]}},
    )


def _ah_bin(world: World) -> Path:
    """A directory holding a copy of this environment's ``agent-hooks`` entry point,
    put first on the harness's PATH (the project file names bare ``agent-hooks``)."""
    where = world.root / "ah-bin"
    where.mkdir(exist_ok=True)
    shutil.copy2(agent_hooks_exe(), where / "agent-hooks")
    return where


def _env(world: World, driver: Driver, extra: dict[str, str]) -> dict[str, str]:
    env = {**world.base_env(), **extra}
    env["PATH"] = os.pathsep.join([str(world.root / "ah-bin"), str(driver.exe.parent), env["PATH"]])
    return env


def _agent_hooks(
    world: World, env: dict[str, str], *args: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [agent_hooks_exe(), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=world.project,
        timeout=300,
        check=False,
    )


def _install(world: World, env: dict[str, str], harness: str, scope: str) -> None:
    done = _agent_hooks(
        world,
        env,
        "install",
        "--harness",
        harness,
        "--scope",
        scope,
        "--config",
        ".agent-hooks/guard.json",
        "--trust-project-hooks",
    )
    assert done.returncode == 0, done.stderr


def _doctor(world: World, env: dict[str, str], harness: str) -> tuple[int, dict[str, Any]]:
    # (--trust-project-hooks: the project entries install wrote carry it, and doctor
    # honours a project entry's own flag only when the user passes it to doctor)
    done = _agent_hooks(
        world, env, "doctor", "--json", "--harness", harness, "--trust-project-hooks"
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def _guard_entries(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        e
        for h in report["harnesses"]
        for f in h["files"]
        for e in f["entries"]
        if e["canonical_event"] == "PreToolUse"
    ]


def _refused(driver: Driver, world: World, env: dict[str, str]) -> tuple[MockModel, Completed]:
    with driver.mock(world, [RM_VICTIM]) as mock:
        done = driver.run(world, mock, "Please delete the folder named victim.", env=env)
    ctx = f"{done.describe()}\n--- model requests\n{mock.describe()}\n{world.debug()}"
    assert (world.victim / "file.txt").exists(), "the victim folder was deleted\n" + ctx
    assert mock.tool_calls() == [RM_VICTIM], ctx
    assert mock.main_requests[1:], "no model request after the refused call\n" + ctx
    return mock, done


def _installed_guard_blocks(
    driver: Driver, world: World, harness: str, scope: str, extra: dict[str, str] | None = None
) -> dict[str, str]:
    _guard(world)
    _ah_bin(world)
    env = _env(world, driver, extra or {})
    _install(world, env, harness, scope)
    mock, _ = _refused(driver, world, env)
    assert GUARD_SH_REASON in mock.main_requests[1].text(), mock.describe()
    rc, report = _doctor(world, env, harness)
    entries = _guard_entries(report)
    assert entries, report
    assert all(e["answer"] == "block" for e in entries), entries
    assert rc == 0, json.dumps(report, indent=2)
    assert report["harnesses"][0]["version"] == driver.version, report["harnesses"][0]
    return env


def test_claude_install_blocks_and_a_deleted_agent_hooks_still_blocks(
    claude_code: Driver, world: World
) -> None:
    env = _installed_guard_blocks(claude_code, world, "claude", "project")
    settings = json.loads((world.project / ".claude" / "settings.json").read_text())
    [group] = settings["hooks"]["PreToolUse"]
    assert group["hooks"][0]["onFailure"] == "block"
    assert group["hooks"][0]["command"].startswith("agent-hooks run --dialect claude")
    # the executable the harness finds is gone: Claude Code blocks (onFailure: block) ...
    (world.root / "ah-bin" / "agent-hooks").unlink()
    world.stop_daemons()
    (world.victim / "file.txt").write_text("precious\n")
    _refused(claude_code, world, env)
    # ... and doctor says so, and exits 1
    rc, report = _doctor(world, env, "claude")
    [entry] = _guard_entries(report)
    assert rc == 1, json.dumps(report, indent=2)
    assert entry["answer"] == "not-found"
    assert entry["verdict"] == "not-run"
    assert entry["fail_closed"] is True
    assert entry["resolved"] is None


def test_codex_user_install_blocks(codex: Driver, world: World) -> None:
    _installed_guard_blocks(
        codex, world, "codex", "user", {"CODEX_HOME": str(world.home / ".codex")}
    )


def test_gemini_user_install_blocks(gemini_cli: Driver, world: World) -> None:
    write_json(
        world.home / ".gemini" / "settings.json",
        {"security": {"auth": {"selectedType": "gemini-api-key"}}, "hooksConfig": {"enabled": True}},
    )
    _installed_guard_blocks(gemini_cli, world, "gemini", "user")


def test_copilot_project_install_blocks(copilot_cli: Driver, world: World) -> None:
    _installed_guard_blocks(
        copilot_cli, world, "copilot", "project", {"COPILOT_HOME": str(world.home / ".copilot")}
    )
