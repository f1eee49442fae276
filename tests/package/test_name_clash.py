"""Another distribution's ``agent_hooks`` (PyPI's ``agent-hooks`` and ``agent-hooks-sdk``
install one) mixed into this package: ``import agent_hooks`` fails with an
``ImportError`` that names it and says how to repair the environment, while a stray
file nobody installed does not stop the import; ``agent-hooks --version`` prints the
distribution and version, and finds a distribution whose files all have this package's
names too. The clean import does not load ``importlib.metadata`` (the check costs one
directory listing).

Each test copies this package into a scratch site directory put first on
``PYTHONPATH`` and, for the clash, writes the ``.dist-info`` of an ``agent-hooks``
distribution that owns files in it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agent_hooks._base._version import DISTRIBUTION, VERSION
from tests.process_helpers import socket_dir

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    shutil.copytree(
        ROOT / "agent_hooks", site / "agent_hooks", ignore=shutil.ignore_patterns("__pycache__")
    )
    return site


def _other_distribution(site: Path, files: dict[str, str]) -> None:
    """Install (by hand, as pip would leave it) ``agent-hooks`` 9.9 owning ``files``."""
    info = site / "agent_hooks-9.9.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: agent-hooks\nVersion: 9.9\n")
    for name, text in files.items():
        (site / name).write_text(text)
    record = [f"{name},," for name in files] + [
        "agent_hooks-9.9.dist-info/METADATA,,",
        "agent_hooks-9.9.dist-info/RECORD,,",
    ]
    (info / "RECORD").write_text("\n".join(record) + "\n")


def _python(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    return subprocess.run(
        [sys.executable, *args],
        cwd=site.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


IMPORT = "import agent_hooks, sys; print(agent_hooks.__file__); print('importlib.metadata' in sys.modules)"


def test_a_clean_copy_imports_without_reading_metadata(site: Path) -> None:
    done = _python(site, "-c", IMPORT)
    assert done.returncode == 0, done.stderr
    location, metadata_loaded = done.stdout.splitlines()
    assert Path(location).parent == site / "agent_hooks"  # (the copy, not the checkout)
    assert metadata_loaded == "False"


def test_a_stray_file_nobody_installed_does_not_stop_the_import(site: Path) -> None:
    (site / "agent_hooks" / "notes.txt~").write_text("an editor's backup")
    done = _python(site, "-c", IMPORT)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.splitlines()[0]).parent == site / "agent_hooks"


def test_another_distributions_files_make_the_import_fail_clearly(site: Path) -> None:
    _other_distribution(site, {"agent_hooks/hooks.py": "HOOKS = []\n"})
    done = _python(site, "-c", "import agent_hooks")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: agent_hooks (py-agent-hooks) at ")
    assert "mixed in: agent-hooks (agent_hooks/hooks.py)" in last
    assert "pip uninstall agent-hooks py-agent-hooks && pip install py-agent-hooks" in last


def test_version_prints_the_distribution(site: Path) -> None:
    done = _python(site, "-m", "agent_hooks", "--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{DISTRIBUTION} {VERSION}\n", "")


def test_version_finds_a_distribution_whose_files_have_our_names(site: Path) -> None:
    # (its py.typed: no new name in the directory, so the import's cheap check passes)
    _other_distribution(site, {"agent_hooks/py.typed": ""})
    assert _python(site, "-c", "import agent_hooks").returncode == 0
    done = _python(site, "-m", "agent_hooks", "--version")
    assert done.returncode == 1
    assert done.stdout == f"{DISTRIBUTION} {VERSION}\n"
    assert "mixed in: agent-hooks (agent_hooks/py.typed)" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_quick_client_of_a_mixed_installation_blocks(site: Path, tmp_path: Path) -> None:
    """The command ``install`` writes (the quick client) in a mixed installation neither
    crashes nor passes: exit 2 (a harness reads it as a block) with the clash named."""
    _other_distribution(site, {"agent_hooks/hooks.py": "HOOKS = []\n"})
    runtime = socket_dir()  # (short: a socket path must fit in 104 bytes)
    quick = site / "agent_hooks" / "_bridges" / "_daemon" / "_quick_run.py"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "AGENT_HOOKS_"))}
    env.update(HOME=str(tmp_path), XDG_RUNTIME_DIR=str(runtime), XDG_STATE_HOME=str(tmp_path))
    payload = '{"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash", '
    payload += f'"cwd": "{tmp_path}", "tool_input": {{"command": "rm -rf /"}}}}'
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(quick), "run", "--config", str(tmp_path / "h.json")],
        input=payload,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    shutil.rmtree(runtime, ignore_errors=True)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "cannot load agent_hooks" in done.stderr
    assert "mixed in: agent-hooks (agent_hooks/hooks.py)" in done.stderr
