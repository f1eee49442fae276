"""``agent-hooks install`` edits the harness's file instead of rewriting it: newline
style, BOM, indentation, key order and comments stay; a second install replaces its own
entry; uninstall restores the bytes and never deletes a file it did not create; a file
of the wrong shape is refused with its name and key, and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.install_helpers import ah, graph, grouped_commands, ours


def _cycle(tmp: Path, harness: str, project: Path, hooks: Path, *extra: str) -> None:
    proc = ah(
        tmp, "install", "--harness", harness, "--project-dir", str(project),
        "--config", str(hooks), *extra,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def _undo(tmp: Path, harness: str, project: Path) -> None:
    proc = ah(tmp, "uninstall", "--harness", harness, "--project-dir", str(project))
    assert proc.returncode == 0, proc.stderr


def test_crlf_bom_indentation_and_other_hooks_are_kept(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    text = (
        '{\r\n    "zeta": 1,\r\n    "hooks": {\r\n        "PreToolUse": [\r\n'
        '            {"matcher": "Edit", "hooks": [{"type": "command", "command": "lint"}]}\r\n'
        '        ]\r\n    },\r\n    "alpha": {"b": 2, "a": 1}\r\n}\r\n'
    )
    original = b"\xef\xbb\xbf" + text.encode()
    target.write_bytes(original)
    hooks = graph(project / "guard.json")
    _cycle(tmp_path, "claude", project, hooks)
    after = target.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf")
    assert b"\n" not in after.replace(b"\r\n", b"")
    assert b'        "PreToolUse": [\r\n            {"matcher": "Edit"' in after
    assert b'\r\n    "alpha": {"b": 2, "a": 1}\r\n}\r\n' in after
    doc = json.loads(after.decode("utf-8-sig"))
    assert list(doc) == ["zeta", "hooks", "alpha"]
    assert grouped_commands(doc, "PreToolUse")[0] == "lint"
    assert len(ours(grouped_commands(doc, "PreToolUse"), "claude")) == 1
    _undo(tmp_path, "claude", project)
    assert target.read_bytes() == original


@pytest.mark.parametrize(
    ("harness", "rel", "text"),
    [
        (
            "gemini",
            ".gemini/settings.json",
            '// my settings\n{\n  "general": {"vimMode": true}, /* vim! */\n'
            '  "hooks": {\n    // none yet\n  },\n}\n',
        ),
        (
            "cursor",
            ".cursor/hooks.json",
            '{\n  "version": 1, // v1\n  "hooks": {\n    "stop": [\n'
            '      {"command": "./loop.sh"} // mine\n    ]\n  }\n}\n',
        ),
    ],
    ids=["gemini", "cursor"],
)
def test_comments_are_kept_where_the_harness_allows_them(
    tmp_path: Path, harness: str, rel: str, text: str
) -> None:
    project = tmp_path / "proj"
    target = project / rel
    target.parent.mkdir(parents=True)
    target.write_text(text)
    hooks = graph(project / "guard.json")
    _cycle(tmp_path, harness, project, hooks)
    after = target.read_text()
    for comment in ("// my settings", "/* vim! */", "// none yet", "// v1", "// mine"):
        assert (comment in after) == (comment in text)
    assert "agent-hooks run --dialect " + harness in after
    _undo(tmp_path, harness, project)
    assert target.read_text() == text


def test_installing_again_with_other_flags_replaces_its_own_entry(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    hooks = graph(project / "guard.json")
    _cycle(tmp_path, "claude", project, hooks)
    _cycle(tmp_path, "claude", project, hooks, "--fail-closed")
    doc = json.loads((project / ".claude" / "settings.json").read_text())
    (command,) = ours(grouped_commands(doc, "PreToolUse"), "claude")
    assert "--fail-closed" in command
    assert len(doc["hooks"]["PreToolUse"]) == 1


def test_an_entry_written_with_a_launcher_program_is_replaced_and_removed(
    tmp_path: Path,
) -> None:
    project = tmp_path / "proj"
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_text("{}\n")
    hooks = graph(project / "guard.json")
    _cycle(tmp_path, "claude", project, hooks, "--program", "uvx agent-hooks")
    _cycle(tmp_path, "claude", project, hooks)  # again, without --program
    doc = json.loads(target.read_text())
    assert len(ours(grouped_commands(doc, "PreToolUse"), "claude")) == 1
    assert len(doc["hooks"]["PreToolUse"]) == 1
    _cycle(tmp_path, "claude", project, hooks, "--program", "pipx run agent-hooks")
    _undo(tmp_path, "claude", project)
    assert target.read_text() == "{}\n"


@pytest.mark.parametrize(
    ("harness", "rel", "text"),
    [
        ("cursor", ".cursor/hooks.json", '{\n  "version": 1\n}\n'),
        ("cursor", ".cursor/hooks.json", '{"version": 1, "hooks": {}}'),
        ("claude", ".claude/settings.json", ""),
    ],
    ids=["cursor-skeleton", "cursor-empty-hooks", "zero-bytes"],
)
def test_uninstall_never_deletes_a_file_it_did_not_create(
    tmp_path: Path, harness: str, rel: str, text: str
) -> None:
    project = tmp_path / "proj"
    target = project / rel
    target.parent.mkdir(parents=True)
    target.write_text(text)
    hooks = graph(project / "guard.json")
    _cycle(tmp_path, harness, project, hooks)
    assert "agent-hooks run" in target.read_text()
    _undo(tmp_path, harness, project)
    assert target.exists() and target.read_text() == text


def test_a_file_install_created_goes_away_with_uninstall(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    hooks = graph(project / "guard.json")
    _cycle(tmp_path, "claude", project, hooks)
    _cycle(tmp_path, "claude", project, hooks, "--fail-closed")
    target = project / ".claude" / "settings.json"
    assert len(json.loads(target.read_text())["hooks"]["PreToolUse"]) == 1
    _undo(tmp_path, "claude", project)
    assert not target.exists()
    assert sorted(p.name for p in (project / ".claude").iterdir()) == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"hooks": "nope"}', "hooks"),
        ('{"hooks": {"PreToolUse": "abc"}}', "hooks.PreToolUse"),
        ('{"hooks": {"PreToolUse": null}}', "hooks.PreToolUse"),
        ('{"hooks": {"PreToolUse": [1, "x"]}}', "hooks.PreToolUse[0]"),
        ('{"hooks": {}, "a": }', "line 1"),
        ("[1, 2]", "top level"),
        ('{"hooks": {}, "hooks": {}}', "hooks"),
    ],
)
def test_a_file_of_the_wrong_shape_is_refused_by_name_and_key(
    tmp_path: Path, text: str, key: str
) -> None:
    project = tmp_path / "proj"
    target = project / ".claude" / "settings.json"
    target.parent.mkdir(parents=True)
    target.write_text(text)
    hooks = graph(project / "guard.json")
    for args in (("install", "--config", str(hooks)), ("uninstall",)):
        proc = ah(tmp_path, *args, "--harness", "claude", "--project-dir", str(project))
        if args[0] == "uninstall" and "PreToolUse" in key:
            assert proc.returncode == 0  # nothing of ours there: nothing to do
        else:
            assert proc.returncode == 1, proc.stderr
            assert str(target) in proc.stderr and key in proc.stderr, proc.stderr
            assert "nothing written" in proc.stderr
        assert target.read_text() == text
