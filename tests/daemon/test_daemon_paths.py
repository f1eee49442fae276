"""Where the resident server listens when the usual place cannot hold a socket
(``sun_path`` holds 104 bytes on macOS and the BSDs, 108 on Linux)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_hooks._bridges._daemon._protocol import MAX_SOCKET_PATH, private_dir
from tests.daemon.test_daemon_client_trust import Home, denied

pytestmark = pytest.mark.xdist_group("tmp-agent-hooks")  # (one may use /tmp's directory)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Home]:
    h = Home(tmp_path)
    try:
        yield h
    finally:
        h.close()


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="ah", dir="/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def deep_dir(home: Home) -> Path:
    deep = home.tmp / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True, mode=0o700)
    assert len(os.fsencode(deep / "agent-hooks" / ("0" * 16 + ".sock"))) > MAX_SOCKET_PATH
    return deep


def test_a_runtime_directory_too_deep_for_a_socket_is_passed_over(
    home: Home, short_tmp: Path
) -> None:
    deep = deep_dir(home)
    home.env.update(XDG_RUNTIME_DIR=str(deep), TMPDIR=str(short_tmp))
    assert private_dir(home.env) == str(short_tmp / f"agent-hooks-{os.getuid()}")
    proc = home.run("--report", wait=True)
    assert json.loads(proc.stdout)["resident"] is True, proc.stderr
    assert not (deep / "agent-hooks").exists()
    assert len(list((short_tmp / f"agent-hooks-{os.getuid()}").glob("*.sock"))) == 1
    assert denied(home.run())
    home.daemon("stop")


def test_with_every_candidate_too_deep_tmp_is_the_last(home: Home) -> None:
    deep = deep_dir(home)
    home.env.update(XDG_RUNTIME_DIR=str(deep), TMPDIR=str(deep))
    assert private_dir(home.env) == f"/tmp/agent-hooks-{os.getuid()}"
    proc = home.run("--report", wait=True)
    assert json.loads(proc.stdout)["resident"] is True, proc.stderr
    assert denied(home.run())
    home.daemon("stop")
