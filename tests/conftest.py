"""Shared test set-up: every async test runs on asyncio and on trio (anyio's plugin).

``agent-hooks run`` started by a test answers in-process: the resident server would
outlive the test (``tests/daemon/`` tests it, each test with its own socket directory,
and stops what it starts; a server still running when a worker's tests are done fails
the run). ``AGENT_HOOKS_TEST_DAEMON=1`` runs the suite with the resident server instead
(the ``run`` contract tests then go through it)."""

from __future__ import annotations

import compileall
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

import agent_hooks

if os.environ.get("AGENT_HOOKS_TEST_DAEMON") != "1":
    os.environ["AGENT_HOOKS_NO_DAEMON"] = "1"


def pytest_configure(config: pytest.Config) -> None:
    """Compile the package once, before any test (in the controller under pytest-xdist),
    as ``pip install`` compiles what it installs: an editable install leaves it
    uncompiled, and with ``PYTHONDONTWRITEBYTECODE`` set every one of the suite's
    ~1,500 interpreters would compile it again (about 150 ms each)."""
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(os.path.dirname(agent_hooks.__file__), quiet=1)


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _servers_started_under(root: Path) -> list[int]:
    """Resident servers (``agent-hooks daemon serve``) of this user whose environment
    (``HOME``, ``XDG_*``) lies under ``root``: started by a test of this process."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            if b"daemon" not in argv or b"serve" not in argv:
                continue
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue  # (gone, or another user's)
        if any(
            line.partition(b"=")[2].startswith(os.fsencode(root))
            for line in environ
            if line.startswith((b"HOME=", b"XDG_"))
        ):
            found.append(int(entry.name))
    return found


@pytest.fixture(autouse=True, scope="session")
def _no_resident_server_outlives_the_tests(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[None]:
    """Every server a test started is stopped by that test; one still running when
    this process's tests are done is stopped here and fails the run. (With
    ``AGENT_HOOKS_TEST_DAEMON=1`` the tests share the server of the run on purpose: who
    started the run stops it.)"""
    yield
    if os.environ.get("AGENT_HOOKS_TEST_DAEMON") == "1" or not Path("/proc/self").exists():
        return
    leaked = _servers_started_under(tmp_path_factory.getbasetemp())
    for pid in leaked:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
    assert not leaked, f"resident servers left running by tests: {leaked}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``AGENT_HOOKS_TEST_SHARD=i/n`` keeps every n-th collected test from the i-th on:
    ``tests/daemon/test_daemon.py`` runs ``tests/cli/test_cli_run.py`` through the resident
    server in n such shards, so two workers share them (together they run every test)."""
    shard = os.environ.get("AGENT_HOOKS_TEST_SHARD")
    if not shard:
        return
    index, _, count = shard.partition("/")
    kept = items[int(index) :: int(count)]
    config.hook.pytest_deselected(items=[i for i in items if i not in kept])
    items[:] = kept
