"""Deep Agents Code configuration: ~/.deepagents/hooks.json and the project's (trusted),
argv exec form, async rejected, matcher-less events, and the legacy list format."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_hooks import (
    DiagnosticCode,
    HookEvent,
    PreToolUseInput,
    SessionStartInput,
    Severity,
    StopInput,
    UserPromptSubmitInput,
)
from agent_hooks._config._compat import load_deepagents
from agent_hooks._config._deepagents import LEGACY_EVENTS
from agent_hooks._config._discover import discover
from agent_hooks._config._load import load
from agent_hooks._config._trust import TrustPolicy, TrustStore
from agent_hooks._wire._dialects import DEEPAGENTS

pytestmark = pytest.mark.anyio
PY = sys.executable


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "project"
    p.mkdir()
    return p


def write(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=2))
    return path


ALL = TrustPolicy(store=None, trust_all=True)

# The setup example of the Deep Agents Code page, with commands that exist here.
SETUP_EXAMPLE = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "echo 'Recursive or forced rm is blocked by policy' >&2; exit 2",
                        "timeout": 600,
                    }
                ],
            }
        ],
        "SessionStart": [
            {
                "matcher": "startup|resume",
                "hooks": [{"type": "command", "command": "echo 'Recent commits: none'"}],
            }
        ],
    }
}


async def test_the_documented_example_denies_and_adds_context(home: Path, project: Path) -> None:
    path = write(home / ".deepagents" / "hooks.json", SETUP_EXAMPLE)
    config = discover(project, ecosystems=("deepagents",))
    assert config.diagnostics == ()
    assert config.files[0].path == str(path) and config.files[0].scope == "user"
    assert config.sources[0].source.dialect is DEEPAGENTS
    async with config.registry().session(cwd=str(project)) as session:
        denied = await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "rm -rf /"})
        )
        start = await session.dispatch(SessionStartInput(source="startup"))
        clear = await session.dispatch(SessionStartInput(source="clear"))
    assert denied.blocked and denied.reason == "Recursive or forced rm is blocked by policy"
    assert start.context == "Recent commits: none"
    assert clear.context is None


async def test_project_file_needs_trust_user_file_does_not(
    home: Path, project: Path, tmp_path: Path
) -> None:
    write(
        project / ".deepagents" / "hooks.json",
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo p"}]}]}},
    )
    write(
        home / ".deepagents" / "hooks.json",
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo u"}]}]}},
    )
    store = TrustStore(tmp_path / "trust.json")
    config = discover(project, trust=store, ecosystems=("deepagents",))
    assert [(f.scope, f.status) for f in config.files] == [
        ("project", "untrusted"),
        ("user", "loaded"),
    ]
    assert [d.code for d in config.diagnostics] == [DiagnosticCode.UNTRUSTED]
    # headless --trust-project-hooks
    config = discover(
        project, trust=TrustPolicy(store=store, trust_all=True), ecosystems=("deepagents",)
    )
    names = [cn.info.name for cn in config.registry().compile().nodes[HookEvent.STOP]]
    assert names == ["echo p", "echo u"]  # project (200) before user (300)


async def test_argv_runs_without_a_shell(home: Path, project: Path) -> None:
    write(
        home / ".deepagents" / "hooks.json",
        {
            "hooks": {
                "UserPromptSubmit": [
                    {
                        "hooks": [
                            {
                                "type": "command",
                                "command": "print a $literal",
                                "argv": [PY, "-c", "import sys; print(sys.argv[1])", "$HOME;|`x`"],
                                "statusMessage": "Printing",
                            }
                        ]
                    }
                ]
            }
        },
    )
    config = discover(project, ecosystems=("deepagents",))
    node = config.sources[0].groups[0].nodes[0]
    assert node.name == "print a $literal"  # 'command' is what people read
    assert node.status_message == "Printing"
    async with config.registry().session(cwd=str(project)) as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="x"))
    assert d.context == "$HOME;|`x`"


def test_async_true_is_a_visible_configuration_error(home: Path, project: Path) -> None:
    write(
        home / ".deepagents" / "hooks.json",
        {
            "hooks": {
                "Stop": [
                    {
                        "hooks": [
                            {"type": "command", "command": "echo bg", "async": True},
                            {"type": "command", "command": "echo fg"},
                        ]
                    }
                ]
            }
        },
    )
    config = discover(project, ecosystems=("deepagents",))
    (diag,) = config.diagnostics
    assert diag.severity is Severity.ERROR and '"async": true' in diag.message
    assert diag.location == "hooks.Stop[0].hooks[0]"
    compiled = config.registry().compile()
    assert [cn.info.name for cn in compiled.nodes[HookEvent.STOP]] == ["echo fg"]
    assert [cn.info.name for cn in compiled.disabled] == ["echo bg"]


def test_matcher_on_a_matcherless_event_drops_the_group(home: Path, project: Path) -> None:
    write(
        home / ".deepagents" / "hooks.json",
        {
            "hooks": {
                "Stop": [
                    {"matcher": "Stop", "hooks": [{"type": "command", "command": "echo dropped"}]},
                    {"matcher": "*", "hooks": [{"type": "command", "command": "echo kept"}]},
                ]
            }
        },
    )
    registry = discover(project, ecosystems=("deepagents",)).registry()
    (diag,) = registry.diagnostics
    assert diag.code is DiagnosticCode.UNSUPPORTED_MATCHER and diag.location == "hooks.Stop[0]"
    assert [cn.info.name for cn in registry.compile().nodes[HookEvent.STOP]] == ["echo kept"]


async def test_exit_2_reads_stderr_only(home: Path, project: Path) -> None:
    # dcode ignores stdout JSON on exit 2: the reason is stderr.
    write(
        home / ".deepagents" / "hooks.json",
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "hooks": [
                            {
                                "type": "command",
                                "command": 'echo \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
                                '"permissionDecision": "allow"}}\'; echo nope >&2; exit 2',
                            }
                        ]
                    }
                ]
            }
        },
    )
    config = discover(project, ecosystems=("deepagents",))
    async with config.registry().session(cwd=str(project)) as session:
        d = await session.dispatch(PreToolUseInput(tool_name="Bash", tool_input={}))
    assert d.blocked and d.reason == "nope"


# ------------------------------------------------------------------ legacy list format


async def test_legacy_list_format_is_migrated(home: Path, project: Path) -> None:
    path = write(
        home / ".deepagents" / "hooks.json",
        {
            "hooks": [
                {"command": [PY, "-c", "print('started')"], "events": ["session.start"]},
                {
                    "command": "echo done",
                    "events": ["task.complete", "context.offload", "user.prompt"],
                },
                {"command": 42, "events": ["session.end"]},
                {"command": ["true"], "events": ["session.end"], "bogus": 1},
            ]
        },
    )
    config = load(path)
    assert config.files[0].format == "deepagents-legacy"
    by_code: dict[DiagnosticCode, list[Any]] = {}
    for d in config.diagnostics:
        by_code.setdefault(d.code, []).append(d)
    (deprecated,) = [d for d in by_code[DiagnosticCode.LEGACY_DEPRECATED] if d.location == "hooks"]
    assert "deprecated" in deprecated.message and "SessionStart" in deprecated.message
    (offload,) = [d for d in by_code[DiagnosticCode.LEGACY_DEPRECATED] if d.location != "hooks"]
    assert offload.location == "hooks[1].events[1]" and "context.offload" in offload.message
    assert by_code[DiagnosticCode.INVALID_HANDLER][0].location == "hooks[2]"
    assert by_code[DiagnosticCode.INVALID_CONFIG][0].location == "hooks[3]"
    events = sorted(g.event.value for g in config.sources[0].groups)
    assert events == ["SessionEnd", "SessionStart", "Stop", "UserPromptSubmit"]
    async with config.registry().session(cwd=str(project)) as session:
        d = await session.dispatch(SessionStartInput(source="startup"))
        stop = await session.dispatch(StopInput())
    assert d.context == "started"
    assert stop.results and stop.results[0].handler is not None
    assert stop.results[0].handler.name == "echo done"


def test_legacy_top_level_list_and_missing_events(home: Path) -> None:
    path = write(home / ".deepagents" / "hooks.json", [{"command": ["true"]}])
    config = load_deepagents(path)
    assert {g.event for g in config.sources[0].groups} == set(LEGACY_EVENTS.values())
    assert DiagnosticCode.LEGACY_DEPRECATED in {d.code for d in config.diagnostics}


def test_legacy_mapping_table() -> None:
    assert LEGACY_EVENTS["session.start"] is HookEvent.SESSION_START
    assert LEGACY_EVENTS["task.complete"] is HookEvent.STOP
    assert "context.offload" not in LEGACY_EVENTS
