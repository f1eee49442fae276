"""Merging sources: every source's matching groups run, reduced in precedence order
(Python 0, managed 100, project 200, local 210, user 300, plugins 400+); snapshots
stay fixed until reloaded; a reload reports what changed; load() detects formats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import (
    HookEvent,
    HookMatcher,
    HookRegistry,
    UserPromptSubmitInput,
    UserPromptSubmitOutput,
)
from agent_hooks._config._common import PRECEDENCE
from agent_hooks._config._discover import discover
from agent_hooks._config._load import detect_format, load
from agent_hooks._config._snapshot import LoadedConfig, diff, reload
from agent_hooks._config._trust import TrustPolicy

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for var in ("CODEX_HOME", "DOCKER_AGENT_CONFIG_DIR", "CAGENT_CONFIG_DIR"):
        monkeypatch.delenv(var, raising=False)
    return home


def write(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def echo(event: str, who: str, key: str = "hooks") -> dict[str, Any]:
    """A file whose one hook puts its identity into additionalContext (JSON answer)."""
    answer = json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": who}})
    return {key: {event: [{"hooks": [{"type": "command", "command": f"echo '{answer}'"}]}]}}


async def test_reduced_context_follows_precedence(tmp_path: Path, home: Path) -> None:
    project = tmp_path / "project"
    write(home / ".claude" / "settings.json", echo("UserPromptSubmit", "claude-user"))
    write(project / ".claude" / "settings.json", echo("UserPromptSubmit", "claude-project"))
    write(project / ".claude" / "settings.local.json", echo("UserPromptSubmit", "claude-local"))
    managed = write(tmp_path / "managed-settings.json", echo("UserPromptSubmit", "managed"))
    write(home / ".deepagents" / "hooks.json", echo("UserPromptSubmit", "dcode-user"))
    write(project / ".deepagents" / "hooks.json", echo("UserPromptSubmit", "dcode-project"))
    write(tmp_path / "p1" / "hooks" / "hooks.json", echo("UserPromptSubmit", "plugin-1"))
    write(tmp_path / "p2" / "hooks" / "hooks.json", echo("UserPromptSubmit", "plugin-2"))
    config = discover(
        project,
        trust=TrustPolicy(store=None, trust_all=True),
        managed_policy=managed,
        plugins=[tmp_path / "p2", tmp_path / "p1"],  # the order given counts
    )

    def python(input: UserPromptSubmitInput) -> UserPromptSubmitOutput:
        return UserPromptSubmitOutput(additional_context="python")

    # Python hooks keep precedence 0 whichever way they are combined.
    registry = config.registry().add({"UserPromptSubmit": [HookMatcher(hooks=[python])]})
    async with registry.session(cwd=str(project)) as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    assert d.context is not None
    assert d.context.split("\n") == [
        "python",
        "managed",
        "claude-project",
        "dcode-project",
        "claude-local",
        "claude-user",
        "dcode-user",
        "plugin-2",
        "plugin-1",
    ]
    also = HookRegistry({"UserPromptSubmit": [HookMatcher(hooks=[python])]}, sources=config.sources)
    first = also.compile().nodes[HookEvent.USER_PROMPT_SUBMIT][0]
    assert first.info.source == "python"


def test_precedence_numbers_are_documented() -> None:
    assert PRECEDENCE["python"] == 0
    assert PRECEDENCE["managed"] < PRECEDENCE["project"] < PRECEDENCE["local"] < PRECEDENCE["user"]
    assert PRECEDENCE["user"] < PRECEDENCE["plugin"]
    assert (
        PRECEDENCE["docker-agent"],
        PRECEDENCE["docker-settings"],
        PRECEDENCE["docker-dropin"],
        PRECEDENCE["docker-cli"],
    ) == (200, 300, 310, 400)
    page = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text()
    for number in ("100", "200", "210", "300", "310", "400"):
        assert number in page


async def test_a_snapshot_is_fixed_until_reloaded(tmp_path: Path, home: Path) -> None:
    path = write(home / ".claude" / "settings.json", echo("UserPromptSubmit", "one"))
    config = discover(tmp_path, ecosystems=("claude",))
    registry = config.registry()
    write(path, echo("UserPromptSubmit", "two"))  # edited after loading
    async with registry.session(cwd=str(tmp_path)) as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="x"))
    assert d.context == "one"
    new, changes = reload(config)
    assert changes
    assert [c.change for c in changes.files] == ["modified"]
    ((event, (added, removed)),) = changes.by_event().items()
    assert event is HookEvent.USER_PROMPT_SUBMIT
    assert len(added) == 1 and "two" in added[0].name
    assert len(removed) == 1 and "one" in removed[0].name
    assert any(line.startswith("+ UserPromptSubmit") for line in changes.summary())
    async with new.registry().session(cwd=str(tmp_path)) as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="x"))
    assert d.context == "two"


def test_reload_reports_new_files_removed_files_and_trust_changes(
    tmp_path: Path, home: Path
) -> None:
    project = tmp_path / "project"
    policy = TrustPolicy(store=None)
    pfile = write(project / ".claude" / "settings.json", echo("Stop", "p"))
    policy.grant_session(project, {".claude/settings.json": policy_sha(pfile)})
    config = discover(project, trust=policy, ecosystems=("claude", "deepagents"))
    assert [f.status for f in config.files] == ["loaded"]
    same, nothing = reload(config)
    assert not nothing and nothing.summary() == []
    write(home / ".deepagents" / "hooks.json", echo("Stop", "dcode"))
    write(pfile, echo("Stop", "p2"))  # edited: its trust lapses
    new, changes = reload(same)
    kinds = {(Path(c.path).name, c.change, c.after) for c in changes.files}
    assert ("settings.json", "modified", "untrusted") in kinds
    assert ("hooks.json", "added", "loaded") in kinds
    assert [r.name for r in changes.removed] and [r.name for r in changes.added]
    (home / ".deepagents" / "hooks.json").unlink()
    _, gone = reload(new)
    assert [c.change for c in gone.files] == ["removed"]


def policy_sha(path: Path) -> str:
    from agent_hooks._config._trust import TrustStore

    return TrustStore.digest(path.read_bytes())


def test_diff_of_identical_configs_is_empty(tmp_path: Path, home: Path) -> None:
    write(home / ".claude" / "settings.json", echo("Stop", "x"))
    a = discover(tmp_path, ecosystems=("claude",))
    b = discover(tmp_path, ecosystems=("claude",))
    assert not diff(a, b)


def test_configs_combine_with_plus(tmp_path: Path) -> None:
    a = load(write(tmp_path / "a" / "hooks.json", echo("Stop", "a")))
    b = load(write(tmp_path / "b" / "hooks.json", echo("Stop", "b")))
    both = a + b
    assert isinstance(both, LoadedConfig)
    assert len(both.files) == 2
    assert both.recipe is not None and len(both.recipe().files) == 2
    with pytest.raises(ValueError, match="cannot be reloaded"):
        reload(LoadedConfig())


# ------------------------------------------------------------------ format detection


@pytest.mark.parametrize(
    ("relpath", "content", "expected"),
    [
        (".claude/settings.json", "{}", "claude-settings"),
        ("etc/managed-settings.json", "{}", "claude-settings"),
        ("plug/hooks/hooks.json", '{"hooks": {}}', "claude-plugin"),
        (".deepagents/hooks.json", '{"hooks": {}}', "deepagents"),
        ("x/hooks.json", '{"hooks": [{"command": ["true"]}]}', "deepagents"),
        ("x/legacy.json", '[{"command": ["true"]}]', "deepagents"),
        (".hel/hooks.json", '{"hooks": {}}', "hel"),
        (".codex/hooks.json", '{"hooks": {}}', "codex-json"),
        ("x/config.toml", "", "codex-toml"),
        ("x/agent.yaml", "agents: {root: {}}", "docker-agent"),
        ("x/config.yaml", "settings: {}", "docker-settings"),
        ("x/hooks.d/10.yml", "stop: []", "docker-dropin"),
        ("x/mine.yml", "stop: []", "docker-dropin"),
        ("x/other.json", '{"hooks": {}}', "claude-hooks"),
        ("x/other.json", '{"hooks": {}, "permissions": {}}', "claude-settings"),
    ],
)
def test_detect_format(tmp_path: Path, relpath: str, content: str, expected: str) -> None:
    path = write(tmp_path / relpath, content)
    assert detect_format(path, path.read_bytes()) == expected


def test_load_any_format_then_explicit_format(tmp_path: Path) -> None:
    path = write(tmp_path / "x" / "other.json", echo("Stop", "x"))
    assert load(path).files[0].format == "claude-hooks"
    assert load(path, format="codex").files[0].format == "codex-json"
    with pytest.raises(ValueError, match="unknown format"):
        load(path, format="nope")
