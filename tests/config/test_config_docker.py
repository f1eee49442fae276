"""Docker Agent YAML hooks: the agent's hooks block, settings.hooks, hooks.d drop-ins,
CLI additions, their order, the handler shapes and fields, builtin/model entries,
and PyYAML being optional."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from agent_hooks import (
    DiagnosticCode,
    HookEvent,
    PreToolUseInput,
    SessionStartInput,
    Severity,
    TurnStartInput,
)
from agent_hooks._config._discover import discover
from agent_hooks._config._docker import (
    docker_cli_hooks,
    load_docker,
    load_docker_agent,
    load_docker_dropins,
)
from agent_hooks._config._load import load
from agent_hooks._config._trust import TrustPolicy
from agent_hooks._wire._dialects import DOCKER

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for var in ("DOCKER_AGENT_CONFIG_DIR", "CAGENT_CONFIG_DIR"):
        monkeypatch.delenv(var, raising=False)
    return home


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# The configuration example of the Docker Agent page, verbatim.
AGENT_YAML = """\
agents:
  root:
    model: openai/gpt-4o
    description: An agent with hooks
    instruction: You are a helpful assistant.
    hooks:
      # Run before specific tools
      pre_tool_use:
      - matcher: "shell|edit_file"
        hooks:
        - type: command
          command: "./scripts/validate-command.sh"
          timeout: 30

      # Run after all tool calls
      post_tool_use:
      - matcher: "*"
        hooks:
        - type: command
          command: "./scripts/log-tool-call.sh"

      # Run when session starts
      session_start:
      - type: command
        command: "./scripts/setup-env.sh"

      # Run when session ends
      session_end:
      - type: command
        command: "./scripts/cleanup.sh"

      # Run when agent is waiting for user input
      on_user_input:
      - type: command
        command: "./scripts/notify.sh"

      # Run when the model finishes responding
      stop:
      - type: command
        command: "./scripts/log-response.sh"

      # Run on agent errors and warnings
      notification:
      - type: command
        command: "./scripts/alert.sh"
"""


def test_the_documented_agent_file_loads(tmp_path: Path) -> None:
    config = load(write(tmp_path / "agent.yaml", AGENT_YAML))
    assert config.files[0].format == "docker-agent"
    assert config.diagnostics == ()
    (source,) = config.sources
    assert source.source.dialect is DOCKER and source.source.precedence == 200
    by_event = {g.event: g for g in source.groups}
    assert set(by_event) == {
        HookEvent.PRE_TOOL_USE,
        HookEvent.POST_TOOL_USE,
        HookEvent.SESSION_START,
        HookEvent.SESSION_END,
        HookEvent.ON_USER_INPUT,
        HookEvent.STOP,
        HookEvent.NOTIFICATION,
    }
    pre = by_event[HookEvent.PRE_TOOL_USE]
    assert pre.matcher == "shell|edit_file" and pre.location == "agents.root.hooks.pre_tool_use[0]"
    assert pre.nodes[0].timeout == 30
    assert by_event[HookEvent.SESSION_START].location == "agents.root.hooks.session_start[0]"
    compiled = config.registry().compile()
    assert compiled.nodes[HookEvent.STOP][0].timeout == 60  # Docker Agent's default


async def test_anchored_matcher_blocks_only_the_whole_name(tmp_path: Path) -> None:
    write(
        tmp_path / "agent.yaml",
        """\
agents:
  root:
    hooks:
      pre_tool_use:
      - matcher: "shel."
        hooks:
        - type: command
          command: "echo 'Dangerous command blocked by policy' >&2; exit 2"
""",
    )
    registry = load(tmp_path / "agent.yaml").registry()
    async with registry.session(cwd=str(tmp_path)) as session:
        shell = await session.dispatch(
            PreToolUseInput(tool_name="shell", tool_input={"cmd": "sudo x"})
        )
        shells = await session.dispatch(
            PreToolUseInput(tool_name="shells", tool_input={"cmd": "x"})
        )
    assert shell.blocked and shell.reason == "Dangerous command blocked by policy"
    assert not shells.results


def test_single_handler_as_a_mapping_and_group_fields(tmp_path: Path) -> None:
    path = write(
        tmp_path / "agent.yaml",
        """\
agents:
  root:
    hooks:
      stop:
        type: command
        command: "./scripts/log-response.sh"
      post_tool_use:
      - matcher: "shell"
        hooks:
        - name: "summarize shell output"
          type: command
          command: "./summarize.sh"
          timeout: 120 # 2 minutes
          working_dir: ./hooks
          env:
            PROFILE: dev
            LEVEL: 3
          on_error: warn # warn | ignore | block
      pre_tool_use:
      - matcher: "*"
        preempt_yolo: false
        hooks:
        - type: command
          command: ./security-check.sh
""",
    )
    config = load(path)
    groups = {g.event: g for g in config.sources[0].groups}
    assert groups[HookEvent.STOP].location == "agents.root.hooks.stop"
    node = groups[HookEvent.POST_TOOL_USE].nodes[0]
    assert node.name == "summarize shell output"
    assert node.timeout == 120 and node.on_error == "warn"
    assert groups[HookEvent.PRE_TOOL_USE].matcher == "*"
    # (preempt_yolo: true refuses the file: tests/config/test_docker_options.py)
    assert config.diagnostics == ()


async def test_env_and_working_dir_reach_the_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "hooks").mkdir()
    monkeypatch.setenv("FROM_PARENT", "parent-value")
    write(
        tmp_path / "agent.yaml",
        """\
agents:
  root:
    hooks:
      session_start:
      - type: command
        command: 'echo "$PROFILE $INHERITED $(basename "$PWD")"'
        working_dir: ./hooks
        env:
          PROFILE: dev
          INHERITED: ${env.FROM_PARENT}
""",
    )
    registry = load(tmp_path / "agent.yaml").registry()
    async with registry.session(cwd=str(tmp_path)) as session:
        d = await session.dispatch(SessionStartInput(source="startup"))
    assert d.context == "dev parent-value hooks"


async def test_builtins_run_and_model_entries_wait_for_a_client(tmp_path: Path) -> None:
    path = write(
        tmp_path / "agent.yaml",
        """\
agents:
  root:
    add_date: true
    hooks:
      turn_start:
      - type: builtin
        command: add_prompt_files
        args:
        - GUIDELINES.md
      pre_tool_use:
      - matcher: "shell|edit_file|mcp:.*"
        hooks:
        - type: model
          model: openai/gpt-4o-mini
          timeout: 15
          schema: pre_tool_use_decision
          prompt: |
            You are a security judge.
""",
    )
    (tmp_path / "GUIDELINES.md").write_text("Be kind to tests.\n")
    config = load(path)
    disabled = [d for d in config.diagnostics if d.code is DiagnosticCode.HANDLER_DISABLED]
    assert {d.handler for d in disabled} == {"model:openai/gpt-4o-mini"}
    assert all(d.severity is Severity.WARNING for d in disabled)
    assert any("'model'" in d.message and "model client" in d.message for d in disabled)
    compiled = config.registry().compile()
    assert [cn.node.kind for cn in compiled.disabled] == ["model"]
    names = sorted(cn.info.name for cn in compiled.nodes[HookEvent.TURN_START])
    assert names == ["builtin:add_date", "builtin:add_prompt_files"]
    async with config.registry().session(cwd=str(tmp_path)) as session:
        d = await session.dispatch(TurnStartInput())
    assert d.context is not None
    assert "Be kind to tests." in d.context
    assert "date" in d.context.lower()


def test_a_custom_kind_table_makes_builtins_runnable(tmp_path: Path) -> None:
    from agent_hooks import HandlerNode, HandlerResult, HookCall
    from agent_hooks._handlers._kinds import KindContext, default_kinds

    seen = []

    def builtin(entry: object, ctx: KindContext) -> HandlerNode:
        seen.append((entry, ctx.event, ctx.location))

        async def call(c: HookCall) -> HandlerResult:
            return HandlerResult()

        return HandlerNode(name="b", kind="builtin", call=call)

    path = write(tmp_path / "d.yaml", "turn_start:\n- type: builtin\n  command: add_date\n")
    config = load(path, kinds={**default_kinds(), "builtin": builtin})
    assert config.diagnostics == ()
    assert seen[0][1] is HookEvent.TURN_START and seen[0][2] == "turn_start[0]"


async def test_order_agent_settings_dropins_cli(tmp_path: Path, home: Path) -> None:
    cdir = home / ".config" / "cagent"
    agent = write(
        tmp_path / "agent.yaml",
        "agents:\n  root:\n    hooks:\n      session_start:\n      - type: command\n        command: echo agent\n",
    )
    write(
        cdir / "config.yaml",
        "settings:\n  hooks:\n    session_start:\n    - type: command\n      command: echo settings\n",
    )
    write(cdir / "hooks.d" / "50-b.yaml", "session_start:\n- type: command\n  command: echo 50-b\n")
    write(cdir / "hooks.d" / "10-a.yml", "session_start:\n- type: command\n  command: echo 10-a\n")
    write(cdir / "hooks.d" / "notes.txt", "not yaml")
    config = load_docker(agent, cli_hooks={"--hook-session-start": ["echo cli"]})
    assert [f.format for f in config.files] == [
        "docker-agent",
        "docker-settings",
        "docker-dropin",
        "docker-dropin",
        "docker-cli",
    ]
    assert [f.precedence for f in config.files] == [200, 300, 310, 311, 400]
    async with config.registry().session(cwd=str(tmp_path)) as session:
        d = await session.dispatch(SessionStartInput(source="startup"))
    assert d.context == "agent\nsettings\n10-a\n50-b\ncli"


def test_a_broken_dropin_is_skipped_and_the_others_load(tmp_path: Path) -> None:
    d = tmp_path / "hooks.d"
    write(d / "10-good.yaml", "stop:\n- type: command\n  command: echo good\n")
    write(d / "20-broken.yaml", "stop:\n  - type: command\n   command: [unclosed\n")
    write(d / "30-list.yaml", "- just\n- a list\n")
    write(d / "40-good.yaml", "stop:\n  type: command\n  command: echo also good\n")
    config = load_docker_dropins(d)
    statuses = {Path(f.path).name: f.status for f in config.files}
    assert statuses == {
        "10-good.yaml": "loaded",
        "20-broken.yaml": "invalid",
        "30-list.yaml": "invalid",
        "40-good.yaml": "loaded",
    }
    broken = next(x for x in config.diagnostics if x.source and x.source.endswith("20-broken.yaml"))
    assert broken.code is DiagnosticCode.CONFIG_READ_FAILED
    assert broken.location is not None and broken.location.startswith("line ")
    names = [cn.info.name for cn in config.registry().compile().nodes[HookEvent.STOP]]
    assert names == ["echo good", "echo also good"]


def test_unknown_event_and_bad_entries_are_pieces(tmp_path: Path) -> None:
    path = write(
        tmp_path / "hooks.d" / "x.yaml",
        """\
pre_tool_use:
- matcher: "shell"
  hooks:
  - type: command
  - type: command
    command: echo ok
PreToolUse:
- type: command
  command: echo pascal
pre_tool_usage:
- type: command
  command: echo typo
stop: 3
""",
    )
    config = load(path)
    where = {(d.code, d.location) for d in config.diagnostics}
    assert (DiagnosticCode.INVALID_HANDLER, "pre_tool_use[0].hooks[0]") in where
    assert (DiagnosticCode.INVALID_CONFIG, "PreToolUse") in where  # read, with a spelling warning
    assert (DiagnosticCode.INVALID_CONFIG, "pre_tool_usage") in where
    assert (DiagnosticCode.INVALID_CONFIG, "stop") in where
    names = [cn.info.name for cn in config.registry().compile().nodes[HookEvent.PRE_TOOL_USE]]
    assert names == ["echo ok", "echo pascal"]


def test_cli_hooks_by_event_name() -> None:
    config = docker_cli_hooks({"pre_tool_use": ["./validate.sh"], "post-tool-use": "./log.sh"})
    assert [(g.event, g.nodes[0].name) for g in config.sources[0].groups] == [
        (HookEvent.PRE_TOOL_USE, "./validate.sh"),
        (HookEvent.POST_TOOL_USE, "./log.sh"),
    ]


def test_agent_selection(tmp_path: Path) -> None:
    path = write(
        tmp_path / "team.yaml",
        """\
agents:
  coder:
    hooks:
      on_agent_switch:
      - type: command
        command: echo coder
  reviewer:
    hooks:
      on_agent_switch:
      - type: command
        command: echo reviewer
""",
    )
    first = load_docker_agent(path)
    assert first.sources[0].groups[0].nodes[0].name == "echo coder"
    assert any(d.severity is Severity.INFO and "reviewer" in d.message for d in first.diagnostics)
    other = load_docker_agent(path, agent="reviewer")
    assert other.sources[0].groups[0].nodes[0].name == "echo reviewer"
    missing = load_docker_agent(path, agent="nobody")
    assert [d.code for d in missing.diagnostics] == [DiagnosticCode.INVALID_CONFIG]


def test_agent_file_in_the_project_needs_trust(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    write(project / "agent.yaml", AGENT_YAML)
    config = discover(project, docker_agent=project / "agent.yaml", ecosystems=("docker",))
    assert config.files[0].status == "untrusted"
    config = discover(
        project,
        docker_agent=project / "agent.yaml",
        ecosystems=("docker",),
        trust=TrustPolicy(store=None, trust_all=True),
    )
    assert config.files[0].status == "loaded"


def test_without_pyyaml_the_message_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "agent.yaml", AGENT_YAML)
    monkeypatch.setitem(sys.modules, "yaml", None)
    config = load(path)
    (diag,) = config.diagnostics
    assert diag.code is DiagnosticCode.CONFIG_READ_FAILED and diag.severity is Severity.ERROR
    assert "py-agent-hooks[yaml]" in diag.message
    # a user config without hooks does not need PyYAML at all
    settings = write(tmp_path / "cagent" / "config.yaml", "settings:\n  snapshot: true\n")
    assert load(settings).diagnostics == ()


def test_yaml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path / "agent.yaml", "agents:\n  root:\n    hooks: [\n")
    (diag,) = load(path).diagnostics
    assert diag.code is DiagnosticCode.CONFIG_READ_FAILED
    assert diag.location is not None and diag.location.startswith("line 4")
