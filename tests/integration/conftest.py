"""The real-harness integration suite (marker ``integration``; see README.md here).

* ``.venv/bin/python -m pytest -q -m integration tests/integration`` installs each pinned harness from npm into
  the cache once (see ``harnesses.cache_dir``) and runs every scenario; a harness that
  cannot be installed is skipped with the reason, a scenario that fails fails.
* In the default run the suite runs only for harnesses already in the cache.
* ``--harness-latest`` (or ``AGENT_HOOKS_HARNESS_LATEST=1``) runs it against each
  harness's ``@latest`` release, in its own cache folder, and the summary at the end
  lists the events and payload fields agent_hooks does not know yet.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from drivers import DRIVERS, Driver
from harnesses import (
    CLAUDE_CODE,
    CODEX,
    COPILOT_CLI,
    GEMINI_CLI,
    LATEST_ENV,
    HarnessSpec,
    HarnessUnavailable,
    World,
    cache_dir,
    dialect_supported,
    install,
    installed_bin,
    latest_version,
)
from payloads import REPORTS

INTEGRATION_ENV = "AGENT_HOOKS_INTEGRATION"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--harness-latest",
        action="store_true",
        default=False,
        help=f"run the real-harness suite against each harness's @latest npm release ({LATEST_ENV}=1)",
    )


def _latest(config: pytest.Config) -> bool:
    return (
        bool(config.getoption("--harness-latest", default=False))
        or os.environ.get(LATEST_ENV) == "1"
    )


def _requested(config: pytest.Config) -> bool:
    """The suite was asked for (so missing harnesses are installed), not just collected."""
    expr = str(config.getoption("-m", default="") or "")
    asked = "integration" in expr and "not integration" not in expr
    return asked or os.environ.get(INTEGRATION_ENV) == "1" or _latest(config)


_DRIVERS: dict[tuple[str, bool], Driver | str] = {}


def _driver(config: pytest.Config, spec: HarnessSpec) -> Driver:
    """The harness ready to run (installed once per session), or a skip with the reason."""
    key = (spec.name, _latest(config))
    if key not in _DRIVERS:
        try:
            version = latest_version(spec) if key[1] else spec.version
            exe = installed_bin(spec, version)
            if exe is None and not _requested(config):
                raise HarnessUnavailable(
                    f"{spec.name} {version} is not in the harness cache {cache_dir()}; "
                    "run `pytest -m integration tests/integration` to install it"
                )
            if exe is None:
                exe = install(spec, version)
            _DRIVERS[key] = DRIVERS[spec.name](exe, version)
        except HarnessUnavailable as exc:
            _DRIVERS[key] = str(exc)
    found = _DRIVERS[key]
    if isinstance(found, str):
        pytest.skip(found)
    return found


def _needs_dialect(driver: Driver) -> None:
    if driver.dialect is not None and not dialect_supported(driver.dialect):
        label = {"gemini": "Gemini", "copilot": "Copilot"}.get(driver.dialect, driver.dialect)
        pytest.skip(
            f"{label} dialect not in this build (`agent-hooks run --help` has no `--dialect {driver.dialect}`; issue 17)"
        )


@pytest.fixture
def claude_code(request: pytest.FixtureRequest) -> Driver:
    return _driver(request.config, CLAUDE_CODE)


@pytest.fixture
def codex(request: pytest.FixtureRequest) -> Driver:
    return _driver(request.config, CODEX)


@pytest.fixture
def gemini_cli_harness(request: pytest.FixtureRequest) -> Driver:
    """Gemini CLI itself (no agent_hooks dialect needed)."""
    return _driver(request.config, GEMINI_CLI)


@pytest.fixture
def copilot_cli_harness(request: pytest.FixtureRequest) -> Driver:
    """Copilot CLI itself (no agent_hooks dialect needed)."""
    return _driver(request.config, COPILOT_CLI)


@pytest.fixture
def gemini_cli(gemini_cli_harness: Driver) -> Driver:
    """Gemini CLI with ``agent-hooks run`` as its hook command: needs the Gemini dialect."""
    _needs_dialect(gemini_cli_harness)
    return gemini_cli_harness


@pytest.fixture
def copilot_cli(copilot_cli_harness: Driver) -> Driver:
    """Copilot CLI with ``agent-hooks run`` as its hook command: needs the Copilot dialect."""
    _needs_dialect(copilot_cli_harness)
    return copilot_cli_harness


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    """A fresh HOME and project for one test; the resident servers its hook calls
    started are stopped after it."""
    world = World.create(tmp_path)
    try:
        yield world
    finally:
        world.stop_daemons()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not REPORTS:
        return
    terminalreporter.section("real harnesses: payloads compared with what agent_hooks knows")
    for report in REPORTS.values():
        for line in report.lines():
            terminalreporter.write_line(line)
