"""Helpers for the dialect tests: a payload of any harness through ``dispatch_payload``
with one Python callback that answers a given canonical output; the examples of
``dialect_examples`` decoded; a project with a shell guard in ``.claude/settings.json``
and ``agent-hooks`` (``run`` or any
other command) in this process: these tests check the answer's shape per harness; the
``run`` contract as a process is tests/cli/test_cli_run.py's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from agent_hooks import DecodedInput, HookMatcher, HookRegistry
from agent_hooks._bridges._payload import BridgeResult, dispatch_payload, dumps
from agent_hooks._events._model import HookOutput
from agent_hooks._wire._detect import decode_payload
from tests.cli.test_cli_run import Workspace, _env
from tests.cli_inprocess import cli_in_process
from tests.dialect_examples import Example


async def answer(
    payload: dict[str, Any],
    output: HookOutput | None,
    *,
    dialect: str | None = None,
    event: str | None = None,
) -> BridgeResult:
    """The bridge's result for ``payload`` when one hook answers ``output``."""
    decoded = decode_payload(json.dumps(payload), dialect=dialect, event=event)

    async def hook(input: Any) -> HookOutput | None:
        return output

    registry = HookRegistry({str(decoded.input.event): [HookMatcher(hooks=[hook])]})
    return await dispatch_payload(decoded, registry)


def text(result: BridgeResult) -> str:
    """The answer as ``agent-hooks run`` prints it."""
    return dumps(result.answer)


def codes(result: BridgeResult) -> list[str]:
    """The codes of the result's diagnostics."""
    return [d.code.value for d in result.diagnostics]


def example_ids(examples: list[Example]) -> list[str]:
    """Test ids for ``examples``: the native event name and the index of each."""
    return [f"{e[0]}-{i}" for i, e in enumerate(examples)]


def decode_example(example: Example, dialect: str | None) -> DecodedInput:
    """``example`` decoded (as ``dialect``, else as detected), checked to have no
    diagnostics and to be its canonical event with its canonical tool name."""
    _native, event, payload, canonical, tool = example
    decoded = decode_payload(json.dumps(payload), dialect=dialect, event=event)
    assert decoded.diagnostics == ()
    assert decoded.input.event == canonical
    assert getattr(decoded.input, "tool_name", None) == tool
    return decoded


def guard_project(root: Path, guard: str, hooks: dict[str, Any] | None = None) -> Path:
    """``root``, a project whose ``.claude/settings.json`` runs ``root/guard.sh`` (the
    shell script ``guard``) on every ``Bash`` call, and after it the matcher groups of
    ``hooks`` (more events)."""
    (root / ".claude").mkdir(parents=True)
    script = root / "guard.sh"
    script.write_text(guard)
    script.chmod(0o755)
    settings = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": str(script)}]}
            ],
            **(hooks or {}),
        }
    }
    (root / ".claude" / "settings.json").write_text(json.dumps(settings))
    return root


THROUGH_SERVER = os.environ.get("AGENT_HOOKS_TEST_DAEMON") == "1"
"""The suite runs with the resident server (tests/conftest.py): ``agent-hooks`` runs in a
subprocess, which reaches it, instead of in this process."""


class InProcessWorkspace(Workspace):
    """The workspace of tests/cli/test_cli_run.py, its ``run`` in this process (with the
    same directory, environment and stdin): ``main(["run", ...])`` answers as the process
    does, but for an interpreter-level crash (``run`` as a process is the contract suite,
    tests/cli/test_cli_run.py). A call stays a process under :data:`THROUGH_SERVER`, with
    ``python=`` (another interpreter command line), or from another thread than the main
    one (calls racing a rewrite: :func:`cli_in_process` changes process-wide state)."""

    def run(
        self,
        *args: str | Path,
        payload: Any = None,
        stdin: bytes | None = None,
        env: dict[str, str] | None = None,
        python: list[str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        if (
            python is not None
            or THROUGH_SERVER
            or threading.current_thread() is not threading.main_thread()
        ):
            return super().run(*args, payload=payload, stdin=stdin, env=env, python=python)
        if stdin is None:
            stdin = json.dumps(payload if payload is not None else self.payload()).encode()
        argv = ["run", *map(str, args)]
        return cli_in_process(argv, env=env or _env(self.tmp), cwd=self.tmp, input=stdin)


def agent_hooks_cli(
    *args: str,
    cwd: Path,
    home: Path,
    state: Path,
    hide: tuple[str, ...] = (),
    payload: dict[str, Any] | None = None,
    process: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``agent-hooks ARGS`` run in this process (:func:`cli_in_process`) in ``cwd``, with
    ``payload`` (if any) on stdin, ``home`` and ``state`` as the home and state
    directories, and no environment variable starting with one of ``hide`` passed on.
    ``process`` (or :data:`THROUGH_SERVER`) runs it in a subprocess instead (what an
    async test must do)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(hide)}
    env.update(HOME=str(home), XDG_STATE_HOME=str(state))
    data = None if payload is None else json.dumps(payload)
    if not (process or THROUGH_SERVER):
        return cli_in_process(args, env=env, cwd=cwd, input=data)
    return subprocess.run(
        [sys.executable, "-m", "agent_hooks", *args],
        input=data,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=60,
        check=False,
    )


def agent_hooks_run(
    project: Path,
    payload: dict[str, Any],
    *args: str,
    hide: tuple[str, ...],
    config: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``agent-hooks run --config CONFIG --trust-project-hooks ARGS`` with ``payload`` on
    stdin, run in ``project``. ``CONFIG`` is ``config``, else the project's
    ``.claude/settings.json``; the home and state directories are scratch ones beside the
    project, and no environment variable starting with one of ``hide`` is passed on."""
    return agent_hooks_cli(
        "run",
        "--config",
        str(config or project / ".claude" / "settings.json"),
        "--trust-project-hooks",
        *args,
        cwd=project,
        home=project.parent / "home",
        state=project.parent / "state",
        hide=hide,
        payload=payload,
    )
