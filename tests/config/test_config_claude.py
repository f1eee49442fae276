"""Claude Code configuration: settings files, managed policy, plugins, disableAllHooks,
allowManagedHooksOnly, handler fields and types, and bad input that never crashes.

Every file is real-shaped JSON written to a temporary project and home; the
dispatch tests run the resulting registries through ``registry.session()``.
"""

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
    UserPromptSubmitInput,
)
from agent_hooks._config._claude import load_claude, load_claude_settings
from agent_hooks._config._discover import discover
from agent_hooks._config._load import load
from agent_hooks._config._plugin import Plugin
from agent_hooks._config._snapshot import LoadedConfig
from agent_hooks._config._trust import TrustPolicy, TrustStore

pytestmark = pytest.mark.anyio
PY = sys.executable


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


@pytest.fixture
def project(tmp_path: Path) -> Path:
    p = tmp_path / "project"
    (p / ".claude").mkdir(parents=True)
    return p


def write(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc, indent=2))
    return path


def hooks(event: str, *handlers: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": list(handlers)}
    if matcher is not None:
        group["matcher"] = matcher
    return {"hooks": {event: [group]}}


def cmd(command: str, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **extra}


def codes(config: LoadedConfig) -> list[DiagnosticCode]:
    return [d.code for d in config.diagnostics]


def trusted() -> TrustPolicy:
    return TrustPolicy(store=None, trust_all=True)


# ------------------------------------------------------------------ locations


async def test_project_pre_tool_use_command_exiting_2_denies(project: Path, home: Path) -> None:
    # The reference's "block rm -rf" shape: a script reading the payload on stdin.
    script = write(
        project / ".claude" / "hooks" / "block-rm.py",
        "import json, sys\n"
        "cmd = json.load(sys.stdin)['tool_input'].get('command', '')\n"
        "if 'rm -rf' in cmd:\n"
        "    print('Blocked: rm -rf is not allowed', file=sys.stderr)\n"
        "    sys.exit(2)\n",
    )
    write(
        project / ".claude" / "settings.json",
        hooks(
            "PreToolUse",
            cmd(f'{PY} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{script.name}'),
            matcher="Bash",
        ),
    )
    config = discover(project, trust=trusted(), ecosystems=("claude",))
    assert config.diagnostics == ()
    registry = config.registry()
    async with registry.session(session_id="s", cwd=str(project)) as session:
        denied = await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "rm -rf /tmp/x"})
        )
        allowed = await session.dispatch(
            PreToolUseInput(tool_name="Bash", tool_input={"command": "ls"})
        )
        other = await session.dispatch(
            PreToolUseInput(tool_name="Read", tool_input={"file_path": "x"})
        )
    assert denied.blocked
    assert denied.reason == "Blocked: rm -rf is not allowed"
    assert not allowed.blocked and allowed.results
    assert not other.results  # matcher Bash only


async def test_exec_form_args_substitute_project_dir(project: Path) -> None:
    # The reference's exec form: "command" is the program, "args" its argv; no shell.
    write(
        project / ".claude" / "settings.json",
        hooks(
            "UserPromptSubmit",
            cmd(
                PY, args=["-c", "import sys; print('dir=' + sys.argv[1])", "${CLAUDE_PROJECT_DIR}"]
            ),
        ),
    )
    config = discover(project, trust=trusted(), ecosystems=("claude",))
    node = config.sources[0].groups[0].nodes[0]
    assert node.name.startswith(PY)
    async with config.registry().session(cwd=str(project)) as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    assert d.context == f"dir={project}"


async def test_local_and_user_settings_load_and_merge(project: Path, home: Path) -> None:
    write(project / ".claude" / "settings.json", hooks("UserPromptSubmit", cmd("echo project")))
    write(project / ".claude" / "settings.local.json", hooks("UserPromptSubmit", cmd("echo local")))
    write(home / ".claude" / "settings.json", hooks("UserPromptSubmit", cmd("echo user")))
    config = discover(project, trust=trusted(), ecosystems=("claude",))
    assert [(f.scope, f.status) for f in config.files] == [
        ("project", "loaded"),
        ("local", "loaded"),
        ("user", "loaded"),
    ]
    assert [f.precedence for f in config.files] == [200, 210, 300]
    async with config.registry().session(cwd=str(project)) as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    assert d.context == "project\nlocal\nuser"


async def test_identical_commands_in_two_settings_files_run_once(project: Path, home: Path) -> None:
    write(project / ".claude" / "settings.json", hooks("UserPromptSubmit", cmd("echo same")))
    write(home / ".claude" / "settings.json", hooks("UserPromptSubmit", cmd("echo same")))
    config = discover(project, trust=trusted(), ecosystems=("claude",))
    async with config.registry().session(cwd=str(project)) as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    assert d.context == "same"
    assert len(d.results) == 1


async def test_plugin_hook_sees_its_root_in_shell_and_exec_form(
    tmp_path: Path, project: Path
) -> None:
    root = tmp_path / "my plugin"  # a space: shell form must quote, exec form needs nothing
    data = tmp_path / "plugin-data"
    write(
        root / "hooks" / "hooks.json",
        {
            "description": "echo the plugin root",
            "hooks": {
                "SessionStart": [
                    {
                        "hooks": [
                            cmd('echo "shell=${CLAUDE_PLUGIN_ROOT}|${PLUGIN_DATA}"'),
                            cmd(
                                PY,
                                args=[
                                    "-c",
                                    "import sys; print('exec=' + sys.argv[1])",
                                    "${CLAUDE_PLUGIN_ROOT}",
                                ],
                            ),
                        ]
                    }
                ]
            },
        },
    )
    config = discover(
        project,
        trust=trusted(),
        ecosystems=("claude",),
        plugins=[Plugin(root=str(root), data=str(data))],
    )
    plugin_source = next(sg for sg in config.sources if sg.source.label.endswith("hooks.json"))
    assert plugin_source.source.precedence == 400
    assert plugin_source.source.env == {
        "CLAUDE_PLUGIN_ROOT": str(root),
        "PLUGIN_ROOT": str(root),
        "CLAUDE_PLUGIN_DATA": str(data),
        "PLUGIN_DATA": str(data),
    }
    async with config.registry().session(cwd=str(project)) as session:
        d = await session.dispatch(SessionStartInput(source="startup"))
    assert d.context == f"shell={root}|{data}\nexec={root}"


async def test_plugin_copy_of_a_command_stays_separate(
    tmp_path: Path, project: Path, home: Path
) -> None:
    write(home / ".claude" / "settings.json", hooks("UserPromptSubmit", cmd("echo twice")))
    write(tmp_path / "plug" / "hooks" / "hooks.json", hooks("UserPromptSubmit", cmd("echo twice")))
    config = discover(project, trust=trusted(), ecosystems=("claude",), plugins=[tmp_path / "plug"])
    async with config.registry().session(cwd=str(project)) as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    assert len(d.results) == 2


def test_managed_policy_loads_first(tmp_path: Path, project: Path, home: Path) -> None:
    managed = write(tmp_path / "etc" / "managed-settings.json", hooks("Stop", cmd("echo managed")))
    write(home / ".claude" / "settings.json", hooks("Stop", cmd("echo user")))
    config = discover(project, trust=trusted(), managed_policy=managed, ecosystems=("claude",))
    assert config.files[0].scope == "managed"
    assert config.files[0].precedence == 100
    nodes = config.registry().compile().nodes[HookEvent.STOP]
    assert [n.info.name for n in nodes] == ["echo managed", "echo user"]


# ------------------------------------------------------------------ handler fields and types


def test_command_fields_reach_the_node(project: Path) -> None:
    write(
        project / ".claude" / "settings.json",
        hooks(
            "PreToolUse",
            cmd(
                "./check.sh",
                timeout=30,
                statusMessage="Checking...",
                **{"async": True, "if": "Bash(git *)"},
                shell="bash",
            ),
            cmd("./wake.sh", asyncRewake=True),
            matcher="Bash",
        ),
    )
    config = load(project / ".claude" / "settings.json", trust=trusted())
    assert config.diagnostics == ()
    a, b = config.sources[0].groups[0].nodes
    assert (a.timeout, a.status_message, a.background, a.if_rule) == (
        30.0,
        "Checking...",
        True,
        "Bash(git *)",
    )
    assert b.background and b.async_rewake
    info = config.registry().compile().nodes[HookEvent.PRE_TOOL_USE][0].info
    assert info.location == "hooks.PreToolUse[0].hooks[0]"
    assert info.source == str(project / ".claude" / "settings.json")


@pytest.mark.parametrize(
    ("entry", "kind"),
    [
        ({"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"}, "prompt"),
        ({"type": "agent", "prompt": "Verify the tests pass"}, "agent"),
        ({"type": "mcp_tool", "server": "my_server", "tool": "security_scan"}, "mcp_tool"),
    ],
)
def test_types_that_cannot_run_are_kept_disabled(
    project: Path, entry: dict[str, Any], kind: str
) -> None:
    write(
        project / ".claude" / "settings.json",
        hooks("PostToolUse", entry, cmd("echo ok"), matcher="Write"),
    )
    config = load(project / ".claude" / "settings.json", trust=trusted())
    nodes = config.sources[0].groups[0].nodes
    assert [n.kind for n in nodes] == [kind, "command"]
    assert nodes[0].disabled and kind in nodes[0].disabled
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.HANDLER_DISABLED
    assert diag.location == "hooks.PostToolUse[0].hooks[0]"
    compiled = config.registry().compile()
    assert [cn.node.kind for cn in compiled.disabled] == [kind]
    assert [cn.node.kind for cn in compiled.nodes[HookEvent.POST_TOOL_USE]] == ["command"]


def test_http_and_python_types_build_runnable_nodes(project: Path) -> None:
    write(
        project / ".claude" / "settings.json",
        hooks(
            "PostToolUse",
            {"type": "http", "url": "http://127.0.0.1:9/hooks", "timeout": 5},
            {"type": "python", "callable": "json:dumps"},
            matcher="Write",
        ),
    )
    config = load(project / ".claude" / "settings.json", trust=trusted())
    nodes = config.sources[0].groups[0].nodes
    assert [n.kind for n in nodes] == ["http", "python"]
    assert not any(n.disabled for n in nodes)
    assert nodes[0].timeout == 5


async def test_disabled_entries_never_run(project: Path) -> None:
    write(
        project / ".claude" / "settings.json",
        hooks("UserPromptSubmit", {"type": "prompt", "prompt": "x"}, cmd("echo ran")),
    )
    config = load(project / ".claude" / "settings.json", trust=trusted())
    async with config.registry().session(cwd=str(project)) as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    assert d.context == "ran"
    assert [r.handler.kind for r in d.results if r.handler] == ["command"]


def test_unknown_type_is_an_error_but_kept_visible(project: Path) -> None:
    write(project / ".claude" / "settings.json", hooks("Stop", {"type": "comand", "command": "x"}))
    config = load(project / ".claude" / "settings.json", trust=trusted())
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.HANDLER_DISABLED and diag.severity is Severity.ERROR


def test_bad_pieces_are_dropped_with_file_event_and_index(project: Path) -> None:
    path = write(
        project / ".claude" / "settings.json",
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "Bash",
                        "hooks": [cmd("echo ok"), {"type": "command"}, "nope", cmd("")],
                    },
                    {"matcher": "[unclosed", "hooks": [cmd("echo bad regex")]},
                    "not a group",
                    {"matcher": 3, "hooks": [cmd("echo x")]},
                    {"matcher": "Edit", "hooks": {"type": "command", "command": "echo x"}},
                    {"matcher": "Write", "hooks": [cmd("echo write", wat=1, timeout="10")]},
                ],
                "PreToolUze": [{"hooks": [cmd("echo typo")]}],
                "Stop": {"hooks": []},
            },
            "permissions": {"allow": ["Bash(ls)"]},
        },
    )
    config = load(path, trust=trusted())
    registry = config.registry()
    diags = registry.diagnostics
    where = {(d.code, d.location) for d in diags}
    assert all(d.source == str(path) for d in diags)
    assert (DiagnosticCode.INVALID_HANDLER, "hooks.PreToolUse[0].hooks[1]") in where
    assert (DiagnosticCode.INVALID_HANDLER, "hooks.PreToolUse[0].hooks[2]") in where
    assert (DiagnosticCode.INVALID_HANDLER, "hooks.PreToolUse[0].hooks[3]") in where
    assert (DiagnosticCode.INVALID_MATCHER, "hooks.PreToolUse[1]") in where
    assert (DiagnosticCode.INVALID_CONFIG, "hooks.PreToolUse[2]") in where
    assert (DiagnosticCode.INVALID_CONFIG, "hooks.PreToolUse[3]") in where
    assert (DiagnosticCode.INVALID_CONFIG, "hooks.PreToolUse[4]") in where
    assert (DiagnosticCode.INVALID_CONFIG, "hooks.PreToolUse[5].hooks[0]") in where
    assert (DiagnosticCode.INVALID_CONFIG, "hooks.PreToolUze") in where
    assert (DiagnosticCode.INVALID_CONFIG, "hooks.Stop") in where
    typo = next(d for d in diags if d.location == "hooks.PreToolUze")
    assert "PreToolUse" in typo.message  # the suggestion
    # the valid siblings stayed
    names = [cn.info.name for cn in registry.compile().nodes[HookEvent.PRE_TOOL_USE]]
    assert names == ["echo ok", "echo write"]
    write_node = registry.compile().nodes[HookEvent.PRE_TOOL_USE][1]
    assert write_node.timeout == 600  # the bad timeout fell back to the default


def test_invalid_json_names_line_and_column(project: Path) -> None:
    path = write(
        project / ".claude" / "settings.json", '{\n  "hooks": {\n    "Stop": [,]\n  }\n}\n'
    )
    config = load(path, trust=trusted())
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.CONFIG_READ_FAILED
    assert diag.severity is Severity.ERROR
    assert diag.location == "line 3 column 14"
    assert config.files[0].status == "invalid"


def test_absent_files_are_not_errors(project: Path) -> None:
    config = load(project / ".claude" / "settings.json")
    assert config.sources == () and config.files == () and config.diagnostics == ()
    config = discover(project, ecosystems=("claude",))
    assert config.diagnostics == () and config.files == ()


def test_unreadable_file_is_a_diagnostic(project: Path) -> None:
    (project / ".claude" / "settings.json").mkdir()  # exists, cannot be read as a file
    config = discover(project, trust=trusted(), ecosystems=("claude",))
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.CONFIG_READ_FAILED
    assert config.files[0].status == "unreadable"


def test_wrong_top_level_shape(project: Path) -> None:
    config = load(
        write(project / ".claude" / "settings.json", "[1, 2]"), trust=trusted(), format="claude"
    )
    assert [d.code for d in config.diagnostics] == [DiagnosticCode.INVALID_CONFIG]
    config = load(
        write(project / ".claude" / "settings.json", '{"hooks": []}'),
        trust=trusted(),
        format="claude",
    )
    assert [d.code for d in config.diagnostics] == [DiagnosticCode.INVALID_CONFIG]
    assert config.diagnostics[0].location == "hooks"


# ------------------------------------------------------------------ trust


async def test_untrusted_project_is_skipped_user_and_python_keep_working(
    project: Path, home: Path
) -> None:
    from agent_hooks import HookMatcher, HookRegistry

    write(project / ".claude" / "settings.json", hooks("UserPromptSubmit", cmd("echo project")))
    write(home / ".claude" / "settings.json", hooks("UserPromptSubmit", cmd("echo user")))
    config = discover(project, ecosystems=("claude",))  # default trust store: empty
    (diag,) = [d for d in config.diagnostics if d.code is DiagnosticCode.UNTRUSTED]
    assert "agent-hooks trust --project-dir" in diag.message
    assert diag.source == str(project / ".claude" / "settings.json")

    def python_hook(input: UserPromptSubmitInput) -> Any:
        from agent_hooks import UserPromptSubmitOutput

        return UserPromptSubmitOutput(additional_context="python")

    registry = HookRegistry({"UserPromptSubmit": [HookMatcher(hooks=[python_hook])]}).add(
        config.registry()
    )
    async with registry.session(cwd=str(project)) as session:
        d = await session.dispatch(UserPromptSubmitInput(prompt="hi"))
    assert d.context == "python\nuser"


def test_project_settings_without_hooks_need_no_trust(project: Path) -> None:
    write(project / ".claude" / "settings.json", {"permissions": {"allow": ["Bash(ls)"]}})
    config = discover(project, ecosystems=("claude",))
    assert config.diagnostics == ()
    assert config.files[0].status == "loaded"


def test_trust_store_grant_loads_project(project: Path, tmp_path: Path) -> None:
    path = write(project / ".claude" / "settings.json", hooks("Stop", cmd("echo p")))
    store = TrustStore(tmp_path / "trust.json")
    store.grant(project, {".claude/settings.json": store.digest(path.read_bytes())})
    config = discover(project, trust=store, ecosystems=("claude",))
    assert config.files[0].status == "loaded" and config.diagnostics == ()


# ------------------------------------------------------------------ disableAllHooks / allowManagedHooksOnly


def statuses(config: LoadedConfig) -> dict[str, str]:
    return {f.scope: f.status for f in config.files}


def setup_all(
    tmp_path: Path, project_dir: Path, home: Path, **flags: dict[str, Any]
) -> tuple[Path, Path]:
    docs = {
        "managed": tmp_path / "etc" / "managed-settings.json",
        "project": project_dir / ".claude" / "settings.json",
        "local": project_dir / ".claude" / "settings.local.json",
        "user": home / ".claude" / "settings.json",
    }
    for scope, path in docs.items():
        write(path, {**hooks("Stop", cmd(f"echo {scope}")), **flags.get(scope, {})})
    plugin = tmp_path / "plugin"
    write(plugin / "hooks" / "hooks.json", hooks("Stop", cmd("echo plugin")))
    return docs["managed"], plugin


def test_disable_all_hooks_in_user_settings_spares_managed(
    tmp_path: Path, project: Path, home: Path
) -> None:
    managed, plugin = setup_all(tmp_path, project, home, user={"disableAllHooks": True})
    config = load_claude(project, managed_policy=managed, plugins=[plugin], trust=trusted())
    assert statuses(config) == {
        "managed": "loaded",
        "project": "disabled",
        "local": "disabled",
        "user": "disabled",
        "plugin": "disabled",
    }
    assert DiagnosticCode.HOOKS_DISABLED in codes(config)
    names = [n.info.name for n in config.registry().compile().nodes[HookEvent.STOP]]
    assert names == ["echo managed"]


def test_project_false_overrides_user_true(tmp_path: Path, project: Path, home: Path) -> None:
    managed, plugin = setup_all(
        tmp_path, project, home, user={"disableAllHooks": True}, project={"disableAllHooks": False}
    )
    config = load_claude(project, managed_policy=managed, plugins=[plugin], trust=trusted())
    assert set(statuses(config).values()) == {"loaded"}


def test_disable_all_hooks_in_managed_disables_everything(
    tmp_path: Path, project: Path, home: Path
) -> None:
    managed, plugin = setup_all(tmp_path, project, home, managed={"disableAllHooks": True})
    config = load_claude(project, managed_policy=managed, plugins=[plugin], trust=trusted())
    assert set(statuses(config).values()) == {"disabled"}
    assert HookEvent.STOP not in config.registry().compile().nodes


def test_caller_override_sits_below_managed(tmp_path: Path, project: Path, home: Path) -> None:
    managed, plugin = setup_all(tmp_path, project, home, local={"disableAllHooks": False})
    config = load_claude(
        project, managed_policy=managed, plugins=[plugin], trust=trusted(), disable_all_hooks=True
    )
    assert statuses(config)["managed"] == "loaded"
    assert statuses(config)["local"] == "disabled"


def test_allow_managed_hooks_only(tmp_path: Path, project: Path, home: Path) -> None:
    managed, plugin = setup_all(tmp_path, project, home, managed={"allowManagedHooksOnly": True})
    forced = tmp_path / "forced"
    write(forced / "hooks" / "hooks.json", hooks("Stop", cmd("echo forced")))
    config = load_claude(
        project,
        managed_policy=managed,
        plugins=[plugin, Plugin(root=str(forced), managed=True)],
        trust=trusted(),
    )
    names = [n.info.name for n in config.registry().compile().nodes[HookEvent.STOP]]
    assert names == ["echo managed", "echo forced"]


def test_allow_managed_hooks_only_outside_managed_is_ignored(project: Path, home: Path) -> None:
    write(
        home / ".claude" / "settings.json",
        {**hooks("Stop", cmd("echo u")), "allowManagedHooksOnly": True},
    )
    config = load_claude(project, trust=trusted())
    assert statuses(config)["user"] == "loaded"
    assert any("only honoured in managed" in d.message for d in config.diagnostics)


def test_single_file_disable_all_hooks(project: Path) -> None:
    path = write(
        project / ".claude" / "settings.json",
        {**hooks("Stop", cmd("echo x")), "disableAllHooks": True},
    )
    config = load_claude_settings(path, trust=trusted())
    assert config.files[0].status == "disabled"
    assert config.sources[0].groups == ()
