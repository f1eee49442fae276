"""Shared test set-up: every async test runs on asyncio and on trio (anyio's plugin).

``agent-hooks run`` started by a test answers in-process: the resident server would
outlive the test (``tests/daemon/test_daemon.py`` tests it, each test with its own socket
directory, and stops what it starts). ``AGENT_HOOKS_TEST_DAEMON=1`` runs the suite
with the resident server instead (the ``run`` contract tests then go through it)."""

from __future__ import annotations

import os

import pytest

if os.environ.get("AGENT_HOOKS_TEST_DAEMON") != "1":
    os.environ["AGENT_HOOKS_NO_DAEMON"] = "1"


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


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
