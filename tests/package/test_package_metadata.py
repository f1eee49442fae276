"""What a team sees before adopting the package: the wheel and the sdist built from
this checkout carry the MIT license text and complete metadata (license expression,
classifiers for operating system and topic, keywords, a Markdown description), the
README renders on PyPI (``twine check --strict``) with no link that only works inside
the repository, and the wheel's ``agent_hooks`` entries are the ones the import-time
check of mixed-in distributions knows (``SHIPPED``)."""

from __future__ import annotations

import email
import email.message
import importlib.util
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from agent_hooks._base._version import DISTRIBUTION, SHIPPED, VERSION
from tests.package.test_wheel_typing import _build_wheel

ROOT = Path(__file__).resolve().parents[2]
LICENSE = (ROOT / "LICENSE").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("hatchling") is None:
        pytest.skip("hatchling (the dev extra) builds the sdist offline")
    out = tmp_path_factory.mktemp("sdist")
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from hatchling.build import build_sdist; "
         "print(build_sdist(sys.argv[1]))", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out / done.stdout.strip().splitlines()[-1]


def _metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as z:
        (name,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        return email.message_from_bytes(z.read(name))


def test_the_license_is_mit_and_its_text_is_in_the_wheel_and_the_sdist(
    wheel: Path, sdist: Path
) -> None:
    assert LICENSE.startswith("MIT License\n") and "agent_hooks developers" in LICENSE
    with zipfile.ZipFile(wheel) as z:
        (name,) = [n for n in z.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert z.read(name).decode() == LICENSE
    meta = _metadata(wheel)
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    with tarfile.open(sdist) as t:
        member = t.extractfile(f"py_agent_hooks-{VERSION}/LICENSE")
        assert member is not None and member.read().decode() == LICENSE


def test_the_metadata_names_the_project_for_a_search(wheel: Path) -> None:
    meta = _metadata(wheel)
    assert (meta["Name"], meta["Version"]) == (DISTRIBUTION, VERSION)
    classifiers = meta.get_all("Classifier") or []
    assert any(c.startswith("Operating System :: ") for c in classifiers)
    assert any(c.startswith("Topic :: ") for c in classifiers)
    assert "Typing :: Typed" in classifiers
    keywords = meta["Keywords"].split(",")
    assert {"hooks", "claude-code", "codex", "gemini-cli"} <= set(keywords)
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload() == (ROOT / "README.md").read_text(encoding="utf-8")


def test_twine_check_strict_passes(wheel: Path, sdist: Path) -> None:
    if importlib.util.find_spec("twine") is None:
        pytest.skip("twine is in the dev extra")
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_the_readme_as_pypi_renders_it_has_no_link_into_the_repository() -> None:
    render = pytest.importorskip("readme_renderer.markdown").render
    html = render((ROOT / "README.md").read_text(encoding="utf-8"))
    assert html is not None and "<table>" in html and "py-agent-hooks" in html
    hrefs = re.findall(r'(?:href|src)="([^"]*)"', html)
    relative = [h for h in hrefs if not h.startswith(("https://", "http://", "#", "mailto:"))]
    assert relative == [], f"these break on PyPI: {relative}"


def test_the_readme_install_section_names_the_distribution_and_the_clash() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    install = text.split("\n## Install\n", 1)[1].split("\n## ", 1)[0]
    assert "pip install py-agent-hooks" in install
    assert "`agent-hooks`" in install and "`agent-hooks-sdk`" in install
    assert "docs/harnesses.md" in text  # (the full list of harnesses is there, not here)


def test_shipped_is_what_the_wheel_ships(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        top = {n.split("/")[1] for n in z.namelist() if n.startswith("agent_hooks/")}
    assert top | {"__pycache__"} == SHIPPED
