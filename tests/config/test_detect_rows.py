"""``load()``'s format detection is data on the harness rows (``FileFormat.places`` and
``suffixes``): it agrees with the file-name if-chain it replaced (tests/detect_oracle.py)
on every combination of the names that chain, or any row, knows."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from agent_hooks._config._harness import HARNESSES
from agent_hooks._config._load import detect_format
from tests.detect_oracle import detect_format as before

FAMILY_FORMATS = {h.name for h in HARNESSES.values() if h.family is not None}

DIRECTORIES = sorted(
    {
        part
        for h in HARNESSES.values()
        for loc in h.locations
        for part in loc.path.strip("/").split("/")[:-1]
        if "*" not in part
    }
    | {".deepagents", ".codex", ".hel", ".gemini", ".cursor", ".github", ".copilot", "copilot"}
    | {".windsurf", "windsurf", "Windsurf", ".codeium", ".kiro", "agents", "hooks", "Hooks"}
    | {".amazonq", "amazonq", "cli-agents", ".clinerules", ".cline", "Cline", "hooks.d"}
    | {".claude", "plugin", "x", "etc", "Documents", ".agents", "plugins", ".CODEX", "HOOKS"}
)
NAMES = [
    "hooks.json",
    "settings.json",
    "settings.local.json",
    "settings-extra.json",
    "managed-settings.json",
    "managed-settings.d",
    "config.toml",
    "x.TOML",
    ".toml",
    "config.yaml",
    "config.yml",
    "agent.YAML",
    ".yaml",
    "a.kiro.hook",
    ".kiro.hook",
    "a.KIRO.HOOK",
    "agent.json",
    "other.json",
    "PreToolUse",
    "hooks.JSON",
    "settings",
    ".json",
]
CONTENTS: list[bytes | None] = [
    None,
    b"",
    b"{}",
    b"not json",
    b'{"hooks": {}}',
    b'{"hooks": {}, "permissions": {}}',
    b'{"hooks": [{"command": ["true"]}]}',
    b'[{"command": ["true"]}]',
    b'{"hooks": {"BeforeTool": []}}',
    b'{"hooks": {"agentStop": []}}',
    b'{"hooks": {"x": [{"bash": "true"}]}}',
    b'{"version": 1, "hooks": {"beforeShellExecution": []}}',
    b'// comment\n{"hooks": {"BeforeTool": []}}',
    b"agents: {root: {}}",
    b"settings: {}",
    b"stop: []",
    b"- a\n- b",
    json.dumps({"hooks": {"PreToolUse": []}, "description": "d"}).encode(),
]


def _paths() -> list[str]:
    paths = [f"/r/{name}" for name in NAMES] + NAMES
    for a, b in itertools.product(DIRECTORIES, repeat=2):
        paths += [f"/r/{a}/{b}/{name}" for name in NAMES]
    for a in DIRECTORIES:
        paths += [f"/r/{a}/{name}" for name in NAMES]
    for h in HARNESSES.values():
        for loc in h.locations:
            path = loc.path.replace("*", "p")
            paths += [f"/r/{path}", f"/home/u/{path}"]
    return paths


PATHS = _paths()


ORACLE_FORMATS = {
    *("claude-settings", "claude-hooks", "claude-plugin", "deepagents", "codex-json"),
    *("codex-toml", "hel", "docker-agent", "docker-settings", "docker-dropin"),
    *("gemini-settings", "cursor", "copilot-hooks", "copilot-settings", "windsurf"),
    *("cline", "kiro"),
}
"""The formats of harnesses the if-chain knew by name (besides the Claude-compatible
family, which it read from the family rows)."""
GUESSED = {"claude-settings", "claude-hooks", "deepagents", "codex-toml"} | {
    "docker-agent",
    "docker-settings",
    "docker-dropin",
}
"""What the if-chain answered for a file it knew only by its suffix or its content."""


def _as_before(path: str, got: str, old: str, content: bytes | None = None) -> bool:
    """The differences, by design: a ``*.kiro.hook`` file in Cline's hook directory is
    Cline's (its place has more names than Kiro's ``*.kiro.hook``); the if-chain asked
    about Kiro's name before Cline's directory. And a harness added since (Kimi Code,
    Crush, Mistral Vibe, Hermes, Antigravity) claims its own files, which the if-chain
    could only guess by suffix or content (a Gemini event name in ``.agents/hooks.json``)."""
    if path.endswith(".kiro.hook") and "ooks/" in path and (old, got) == ("kiro", "cline"):
        return any(d in path for d in ("/.cline/hooks/", "/.clinerules/hooks/", "/Cline/Hooks/"))
    if got not in ORACLE_FORMATS and got not in FAMILY_FORMATS:
        # (guessed: by suffix or content, which the name alone would not have decided)
        return old in GUESSED or (content is not None and before(path) != old)
    return got == old


def test_every_path_is_detected_as_before_by_its_name() -> None:
    assert len(PATHS) > 10_000
    wrong = {
        p: (before(p), detect_format(p))
        for p in PATHS
        if not _as_before(p, detect_format(p), before(p))
    }
    assert wrong == {}


@pytest.mark.parametrize("content", CONTENTS, ids=repr)
def test_every_path_and_content_is_detected_as_before(content: bytes | None) -> None:
    rng = random.Random(29)
    sample = rng.sample(PATHS, 1500) + [f"/r/{n}" for n in NAMES]
    wrong = {
        p: (before(p, content), detect_format(p, content))
        for p in sample
        if not _as_before(p, detect_format(p, content), before(p, content), content)
    }
    assert wrong == {}
