"""The built wheel is typed for its users: it ships ``agent_hooks/py.typed``, and
``mypy --strict`` run on a user's program against the wheel installed in a fresh
virtual environment (outside the repository, so mypy cannot read the source tree)
accepts correct code and reports a wrong ``Literal``.

Offline-safe: the wheel is built without build isolation when hatchling is
installed here (with isolation otherwise, the way ``pip install -e .`` builds it),
installed with ``--no-deps``, and its runtime dependencies are copied from this
environment's installed distributions. The mypy of this environment checks the
program, pointed at the fresh environment's interpreter.
"""

from __future__ import annotations

import email
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]

# One worker builds the wheel once for all of the module's tests (pytest -n 2).
pytestmark = pytest.mark.xdist_group("wheel")

GOOD = """
from collections.abc import Mapping
from typing import Any

import anyio
from typing_extensions import assert_type

from agent_hooks import (
    Decision,
    HookMatcher,
    HookRegistry,
    PermissionAnswer,
    PermissionCallback,
    PermissionPrompt,
    PreToolUseInput,
    PreToolUseOutput,
    StopOutcome,
    Tool,
    ToolCallOutcome,
)


async def no_env(input: PreToolUseInput) -> PreToolUseOutput | None:
    if str(input.tool_input.get("file_path", "")).endswith(".env"):
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no")
    return None


def run_tool(tool_input: Mapping[str, Any]) -> str:
    return "ran"


def ask(prompt: PermissionPrompt) -> PermissionAnswer:
    return PermissionAnswer(allow=prompt.hook_decision != "ask", message="refused")


tool: Tool = run_tool
permission: PermissionCallback = ask
registry = HookRegistry({"PreToolUse": [HookMatcher(matcher="Edit", hooks=[no_env])]})


async def main() -> None:
    async with registry.session(session_id="s", cwd=".") as session:
        decision = await session.dispatch(
            PreToolUseInput(tool_name="Edit", tool_input={"file_path": ".env"})
        )
        assert_type(decision, Decision[PreToolUseOutput])
        outcome = await session.call_tool("Bash", {}, tool, permission=permission)
        assert_type(outcome, ToolCallOutcome)
        assert_type(outcome.stop, bool)
        stop = await session.check_stop()
        assert_type(stop, StopOutcome)
        print(decision.blocked, outcome.ran, stop.should_stop)


anyio.run(main)
"""

BAD = """
from agent_hooks import PreToolUseOutput

answer = PreToolUseOutput(permission_decision="maybe")
"""


def _build_wheel(out: Path) -> Path:
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)]
    if importlib.util.find_spec("hatchling") is not None:
        command.insert(4, "--no-build-isolation")
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=120, check=False, cwd=out
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("py_agent_hooks-*.whl")
    return wheel


def _runtime_requirements(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        (name,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = email.message_from_bytes(z.read(name))
    return metadata.get_all("Requires-Dist") or []


def _copy_dependencies(requirements: list[str], site: Path) -> list[str]:
    """Copy the installed distributions ``requirements`` need (closure, markers of this
    interpreter, no extras) into ``site``; returns their names."""
    todo = list(requirements)
    copied: list[str] = []
    while todo:
        req = Requirement(todo.pop())
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        if req.name in copied:
            continue
        dist = importlib.metadata.distribution(req.name)
        copied.append(req.name)
        base = Path(str(dist.locate_file("")))
        for file in dist.files or ():
            if ".." in file.parts or file.suffix == ".pyc":
                continue  # (console scripts and byte code)
            target = site / file
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(base / file, target)
        todo.extend(dist.requires or ())
    return copied


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built once for the module's tests, in a directory of its own outside
    the repository."""
    work = tmp_path_factory.mktemp("wheel")
    assert ROOT not in work.parents
    return _build_wheel(work)


@pytest.fixture(scope="module")
def installed(wheel: Path) -> tuple[Path, Path]:
    """(the fresh environment's python, a scratch directory outside the repository)."""
    work = wheel.parent
    env = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    done = subprocess.run(
        [
            sys.executable,
            *("-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", str(site)),
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    _copy_dependencies(_runtime_requirements(wheel), site)
    program = work / "program"
    program.mkdir()
    return python, program


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}


def _mypy(python: Path, program: Path, source: str) -> subprocess.CompletedProcess[str]:
    file = program / "user_program.py"
    file.write_text(textwrap.dedent(source), encoding="utf-8")
    return subprocess.run(
        [
            sys.executable,
            *("-m", "mypy", "--strict", "--no-error-summary", "--config-file", ""),
            *("--python-executable", str(python), "--cache-dir", str(program / ".mypy_cache")),
            str(file),
        ],
        cwd=program,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_wheel_ships_py_typed(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert "agent_hooks/py.typed" in names
    assert not [n for n in names if n.endswith(".pyc")]


def test_the_installed_package_is_the_wheel_and_runs(installed: tuple[Path, Path]) -> None:
    python, program = installed
    (program / "user_program.py").write_text(textwrap.dedent(GOOD), encoding="utf-8")
    done = subprocess.run(
        [
            str(python),
            "-c",
            "import agent_hooks, pathlib, runpy; "
            "print(pathlib.Path(agent_hooks.__file__).with_name('py.typed').is_file()); "
            "print(agent_hooks.__file__); runpy.run_path('user_program.py')",
        ],
        cwd=program,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    typed, location, result = done.stdout.splitlines()
    assert typed == "True"
    assert Path(location).is_relative_to(python.parent.parent)  # not the repository
    assert result == "True True True"


def test_mypy_strict_accepts_a_user_program_against_the_installed_wheel(
    installed: tuple[Path, Path],
) -> None:
    done = _mypy(*installed, GOOD)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_reports_a_wrong_literal_against_the_installed_wheel(
    installed: tuple[Path, Path],
) -> None:
    done = _mypy(*installed, BAD)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "user_program.py:4: error:" in done.stdout
    assert '"permission_decision"' in done.stdout and "maybe" in done.stdout
    assert "py.typed" not in done.stdout  # (not "installed, but missing library stubs")
