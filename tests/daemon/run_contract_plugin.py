"""A pytest plugin (``-p tests.daemon.run_contract_plugin``) for the run of
``tests/cli/test_cli_run.py`` through the resident server (``test_daemon.py``): the
shard's tests share the server its first call started (one socket directory for the
run); it is stopped once the last test is done, before the session's own teardown
checks that no test left a server running."""

from __future__ import annotations

import os

import pytest

from agent_hooks._bridges._daemon._protocol import private_dir
from tests.daemon_helpers import stop_servers


def _stop() -> None:
    stop_servers(private_dir(os.environ))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    if nextitem is None:  # (the last test: session fixtures are torn down next)
        _stop()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    _stop()  # (a run cut short by -x: what is left is torn down here)
