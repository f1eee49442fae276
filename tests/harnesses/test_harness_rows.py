"""The Harness rows (agent_hooks/_config/_harness.py): every name they hold resolves,
the docs' harness table and the resident server's key follow them, and
``load(path, harness=...)`` reads what ``format=`` read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import agent_hooks
from agent_hooks import load, reload
from agent_hooks._config._harness import FORMATS, HARNESSES, INSTALLS, loading_env, resolve

ROOT = Path(__file__).resolve().parents[2]

EARLIER_FORMAT_NAMES = {
    *("claude", "claude-settings", "claude-hooks", "claude-plugin", "plugin"),
    *("deepagents", "dcode", "codex", "codex-json", "codex-toml", "hel", "docker"),
    *("docker-agent", "docker-settings", "docker-dropin", "gemini", "gemini-cli"),
    *("gemini-settings", "cursor", "copilot", "github-copilot", "copilot-hooks"),
    *("copilot-settings", "factory", "qwen", "augment", "goose", "openhands", "trae"),
    *("qoder", "factory-droid", "qwen-code", "auggie", "windsurf", "cline", "kiro"),
}


def test_every_function_a_row_names_exists() -> None:
    for h in HARNESSES.values():
        for f in h.formats:
            assert resolve(f.loader) is not None, (h.name, f.loader)
        for ref in (h.walker, h.file_filter):
            if ref is not None:
                assert callable(resolve(ref)), (h.name, ref)


def test_every_name_format_accepted_before_is_still_accepted() -> None:
    assert set(FORMATS) >= EARLIER_FORMAT_NAMES
    assert FORMATS["claude"] == "claude-settings" and FORMATS["codex"] == "codex-json"
    assert FORMATS["copilot"] == "copilot-hooks" and FORMATS["docker"] == "docker-agent"


def test_a_row_lists_every_variable_that_moves_its_files() -> None:
    for h in HARNESSES.values():
        moved = {loc.env for loc in h.locations if loc.env}
        if h.install is not None and h.install.user_env:
            moved.add(h.install.user_env)
        assert moved <= set(h.env), (h.name, moved - set(h.env))
    assert {"CODEX_HOME", "COPILOT_HOME", "CLINE_DIR"} <= set(loading_env())


def _table() -> dict[str, list[str]]:
    """docs/harnesses.md's harness table: first cell -> the cells."""
    text = (ROOT / "docs" / "harnesses.md").read_text()
    start = text.index("| harness | hook files loaded unchanged |")
    rows = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        rows[cells[0]] = cells
    return rows


def test_the_docs_harness_table_has_a_line_for_every_row() -> None:
    table = _table()
    for h in HARNESSES.values():
        lines = [cells for first, cells in table.items() if h.title in first]
        assert lines, f"docs/harnesses.md has no line for {h.title}"
        install = lines[0][4]
        if h.install is not None and not h.install.per_event_files:
            assert f"`{h.install.project_file}`" in install, (h.name, install)
        elif h.install is None:
            assert re.search(r"refused|no `install` target|^—$", install), (h.name, install)


def test_install_writes_for_exactly_the_rows_with_an_install_target() -> None:
    assert set(INSTALLS) == {h.name for h in HARNESSES.values() if h.install is not None}
    assert all(h.install is None or h.not_installable is None for h in HARNESSES.values())


def test_load_by_harness_reads_what_format_read(tmp_path: Path) -> None:
    path = tmp_path / "elsewhere" / "hooks.json"
    path.parent.mkdir()
    doc = {"version": 1, "hooks": {"stop": [{"command": "echo hi"}]}}
    path.write_text(json.dumps(doc))
    by_harness = load(path, harness="cursor")
    by_format = load(path, format="cursor")
    assert [f.format for f in by_harness.files] == ["cursor"] == [f.format for f in by_format.files]
    assert by_harness.files[0].handlers == 1
    with pytest.raises(ValueError, match="not both"):
        load(path, harness="cursor", format="codex")
    with pytest.raises(ValueError, match="unknown format 'nope'"):
        load(path, harness="nope")


@pytest.mark.parametrize(
    ("name", "harness"),
    [
        ("load_cursor", "cursor"),
        ("load_codex", "codex"),
        ("load_gemini", "gemini"),
        ("load_copilot", "copilot"),
        ("load_deepagents", "deepagents"),
        ("load_claude_settings", "claude-settings"),
    ],
)
def test_the_earlier_loaders_are_load_by_harness_and_reload(
    tmp_path: Path, name: str, harness: str
) -> None:
    path = tmp_path / "x" / "hooks.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {}}))
    with pytest.warns(DeprecationWarning, match=r"agent_hooks\.load\(path, harness=\.\.\.\)"):
        earlier = getattr(agent_hooks, name)
    old = earlier(path)
    new = load(path, harness=harness)
    assert [(f.format, f.status) for f in old.files] == [(f.format, f.status) for f in new.files]
    _, changes = reload(old)
    assert not changes


def _cells(text: str, header: str) -> list[list[str]]:
    start = text.index(header)
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


def test_the_install_docs_list_every_install_target_and_switch() -> None:
    text = (ROOT / "docs" / "installing.md").read_text()
    files = {row[0].strip("`"): row for row in _cells(text, "| harness | project file |")}
    assert set(files) == set(INSTALLS)
    for name, target in INSTALLS.items():
        assert files[name][1].startswith(f"`{target.project_file}"), (name, files[name])
        user = target.user_file or target.project_file
        if target.user_env is None:
            assert files[name][2].startswith(f"`~/{user}"), (name, files[name])
        else:
            assert f"${target.user_env}" in files[name][2], (name, files[name])
    switches = _cells(text, "| harness | switch written |")
    for name, target in INSTALLS.items():
        (row,) = [r for r in switches if f"`{name}`" in r[0]]
        for key in target.fail_closed:
            assert f'"{key}"' in row[1], (name, row)
        if not target.fail_closed:
            assert row[1] == "none", (name, row)
