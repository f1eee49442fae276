"""One version everywhere: ``pyproject.toml``, the package, ``agent-hooks --version``, the
installed distribution's metadata and the newest release of CHANGELOG.md agree; the
changelog keeps Keep a Changelog's shape (an ``[Unreleased]`` section first, releases
newest first with dates, only the standard headings)."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version as installed_version
from pathlib import Path

from agent_hooks import __version__
from agent_hooks._base._version import DISTRIBUTION, VERSION

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover (3.10)
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
CHANGELOG = ROOT / "CHANGELOG.md"

RELEASE = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?$")
HEADINGS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def _releases() -> list[tuple[str, str | None]]:
    found = []
    for line in CHANGELOG.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            m = RELEASE.match(line)
            assert m, f"not a Keep a Changelog release heading: {line!r}"
            found.append((m["version"], m["date"]))
    return found


def test_pyproject_and_the_package_have_one_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert (project["name"], project["version"]) == (DISTRIBUTION, VERSION)
    assert __version__ == VERSION
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)


def test_the_installed_distribution_has_that_version() -> None:
    assert installed_version(DISTRIBUTION) == VERSION


def test_agent_hooks_version_prints_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agent_hooks", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, f"{DISTRIBUTION} {VERSION}\n"), done.stderr


def test_the_newest_release_in_the_changelog_is_this_version() -> None:
    releases = _releases()
    assert releases[0] == ("Unreleased", None)
    version, date = releases[1]
    assert version == VERSION
    assert date is not None
    dated = [d or "" for _, d in releases[1:]]
    assert all(dated) and dated == sorted(dated, reverse=True)
    assert len({v for v, _ in releases}) == len(releases)


def test_the_changelog_uses_only_keep_a_changelogs_headings() -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    used = re.findall(r"^### (.+)$", text, flags=re.MULTILINE)
    assert used and set(used) <= HEADINGS, set(used) - HEADINGS
    unreleased = text.split("\n## [Unreleased]\n", 1)[1].split("\n## [", 1)[0]
    # (where entries of work after the release go)
    for heading in ("Added", "Changed", "Fixed"):
        assert f"### {heading}\n" in unreleased


def test_the_release_section_has_entries() -> None:
    text = CHANGELOG.read_text(encoding="utf-8")
    section = text.split(f"\n## [{VERSION}] - ", 1)[1].split("\n## [", 1)[0]
    assert "### Added\n" in section
    assert section.count("\n- ") >= 10
