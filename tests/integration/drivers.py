"""How to point each real harness at its mock and at ``agent-hooks run``.

A driver writes two configurations for a test:

* the **harness's own** hook configuration (in the fresh HOME, or the project where
  the harness reads only project files): one entry per event that runs the recording
  wrapper, which keeps the payload as sent and execs ``agent-hooks run``;
* the **agent_hooks** configuration those calls load, in the harness's own file format,
  holding the scenario's hooks (shell scripts, ``python`` references) and, first on
  every event, ``record.sh``, which keeps the payload as a command hook received it.

Scenario hooks are given per canonical (Claude Code) event name; each driver maps them
to its harness's names.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from harnesses import (
    CLAUDE_CODE,
    CODEX,
    COPILOT_CLI,
    GEMINI_CLI,
    HOOK_TIMEOUT_S,
    RUN_TIMEOUT,
    SCENARIO_HOOKS_PY,
    Completed,
    HarnessSpec,
    World,
    agent_hooks_exe,
    run_bounded,
    write_json,
)
from mock_models import MockModel

from agent_hooks._config._load import FORMATS

Group = dict[str, Any]

# Every event each pinned harness fires or documents (the payload tests configure all).
CLAUDE_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "PermissionRequest",
    "PermissionDenied", "UserPromptSubmit", "UserPromptExpansion", "Stop", "StopFailure",
    "SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "Setup", "Notification",
    "PreCompact", "PostCompact", "ConfigChange", "DirectoryAdded", "FileChanged", "CwdChanged",
    "InstructionsLoaded", "Elicitation", "ElicitationResult", "TeammateIdle", "TaskCreated",
    "TaskCompleted", "WorktreeCreate", "WorktreeRemove", "MessageDisplay", "PreModelSwitch",
    "PostModelSwitch", "PreSkillShellCommand",
)  # fmt: skip
CODEX_EVENTS = (
    "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
    "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop", "SessionEnd", "Interrupt",
)  # fmt: skip
GEMINI_EVENTS = (
    "SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
    "BeforeToolSelection", "BeforeTool", "AfterTool", "PreCompress", "Notification",
)  # fmt: skip
COPILOT_EVENTS = (
    "sessionStart", "sessionEnd", "userPromptSubmitted", "userPromptTransformed", "preToolUse",
    "permissionRequest", "postToolUse", "postToolUseFailure", "agentStop", "subagentStart",
    "subagentStop", "preCompact", "errorOccurred", "notification",
)  # fmt: skip


def python_hook(function: str) -> dict[str, Any]:
    """A ``python`` handler: ``scenario_hooks:<function>``, next to the config file."""
    return {"type": "python", "callable": f"scenario_hooks:{function}"}


def command_hook(path: Path) -> dict[str, Any]:
    return {"type": "command", "command": str(path)}


def format_named(word: str) -> str | None:
    """The agent_hooks configuration format whose name holds ``word`` (issue 17 adds
    Gemini and Copilot formats; their exact names are read off the table of formats)."""
    names = sorted(name for name in FORMATS if word in name)
    return names[0] if names else None


class Driver:
    spec: HarnessSpec
    all_events: tuple[str, ...]
    events: Mapping[str, str]
    """Canonical (Claude Code) event name -> this harness's name."""
    dialect: str | None = None
    """The ``--dialect`` ``agent-hooks run`` needs (``None``: detected from the payload)."""
    python_beside = False
    """Put ``python`` handlers in a Claude Code format file of their own (see configure)."""

    def __init__(self, exe: Path, version: str) -> None:
        self.exe = exe
        self.version = version

    # -- what each harness differs in

    def inner_format(self) -> str | None:
        raise NotImplementedError

    def inner_config_path(self, world: World) -> Path:
        raise NotImplementedError

    def write_inner(self, path: Path, hooks: Mapping[str, list[Group]]) -> None:
        write_json(path, {"hooks": dict(hooks)})

    def write_harness_config(self, world: World, commands: Mapping[str, str]) -> None:
        raise NotImplementedError

    def mock(self, world: World, commands: Sequence[str]) -> MockModel:
        raise NotImplementedError

    def run(
        self, world: World, mock: MockModel, prompt: str, *, env: Mapping[str, str] | None = None
    ) -> Completed:
        raise NotImplementedError

    # -- shared

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def native_format(self) -> bool:
        """This build loads hook files in the harness's own format (else the scenario
        hooks go into a Claude Code settings file under canonical event names)."""
        return self.inner_format() is not None

    @property
    def shell_matcher(self) -> str:
        return self.spec.hook_shell_name if self.native_format else "Bash"

    def run_args(self, event: str) -> list[str]:
        """Extra ``agent-hooks run`` arguments for calls of ``event``."""
        return ["--dialect", self.dialect] if self.dialect else []

    def configure(
        self,
        world: World,
        hooks: Mapping[str, list[Group]],
        *,
        events: Sequence[str] = (),
        record: bool = True,
        harness_entry: Mapping[str, Any] | None = None,
        relative_config: bool = False,
        python_beside: bool | None = None,
    ) -> Path:
        """Write both configurations. ``hooks`` maps canonical event names (or this
        harness's own) to groups; ``events`` adds events (own names) with only the
        recorder. ``relative_config``: the hook command names the file relative to the
        project, the directory the harness runs hooks in. ``python_beside`` (default:
        :attr:`python_beside`): ``python`` handlers go into a second, Claude Code format
        file named by a second ``--config``, for a native format that refuses them.
        Returns the agent_hooks configuration file."""
        if python_beside is None:
            python_beside = self.python_beside
        own: dict[str, list[Group]] = {}
        for event, groups in hooks.items():
            own.setdefault(self.events.get(event, event), []).extend(groups)
        for event in events:
            own.setdefault(event, [])
        if record:
            for groups in own.values():
                groups.insert(0, {"hooks": [command_hook(world.bin / "record.sh")]})
        fmt = self.inner_format()
        side: dict[str, list[Group]] = {}
        if fmt is not None and python_beside:
            canonical = {v: k for k, v in self.events.items()}
            for event, groups in own.items():
                for group in [g for g in groups if g["hooks"][0].get("type") == "python"]:
                    groups.remove(group)
                    side.setdefault(canonical.get(event, event), []).append(group)
        if fmt is not None:
            path = self.inner_config_path(world)
            self.write_inner(path, own)
        else:  # no loader for the harness's own files yet: canonical names, Claude format
            canonical = {v: k for k, v in self.events.items()}
            path = world.hooks_dir / "agent-hooks.json"
            write_json(path, {"hooks": {canonical.get(e, e): g for e, g in own.items()}})
            fmt = "claude-settings"
        (path.parent / "scenario_hooks.py").write_text(SCENARIO_HOOKS_PY)
        extra_config: list[str] = []
        if side:  # two files of two formats: each one's format detected from its name
            side_path = write_json(world.hooks_dir / "python-hooks.json", {"hooks": side})
            (side_path.parent / "scenario_hooks.py").write_text(SCENARIO_HOOKS_PY)
            extra_config = ["--config", str(side_path)]
        commands: dict[str, str] = {}
        for event in own:
            formats = [] if side else ["--format", fmt]
            extra = [*formats, *extra_config, *self.run_args(event)]
            arg = os.path.relpath(path, world.project) if relative_config else path
            commands[event] = world.hook_command(arg, event=event, extra=extra)
        if harness_entry is not None:
            commands = dict.fromkeys(own, json.dumps(harness_entry))
        self.write_harness_config(world, commands)
        return path


# ---------------------------------------------------------------- Claude Code


class ClaudeCodeDriver(Driver):
    spec = CLAUDE_CODE
    all_events = CLAUDE_EVENTS
    events: Mapping[str, str] = {}

    def inner_format(self) -> str:
        return "claude-settings"

    def inner_config_path(self, world: World) -> Path:
        return world.hooks_dir / "agent-hooks.json"

    def write_harness_config(self, world: World, commands: Mapping[str, str]) -> None:
        hooks: dict[str, list[Group]] = {}
        for event, command in commands.items():
            if command.startswith("{"):  # a whole handler entry (http)
                entry = json.loads(command)
            else:
                entry = {"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}
            hooks[event] = [{"hooks": [entry]}]
        write_json(world.home / ".claude" / "settings.json", {"hooks": hooks})

    def mock(self, world: World, commands: Sequence[str]) -> MockModel:
        return MockModel("anthropic", commands, shell_tool="Bash", log_path=world.mock_log)

    def env(self, world: World, mock: MockModel) -> dict[str, str]:
        return {
            **world.base_env(),
            "ANTHROPIC_BASE_URL": mock.url,
            "ANTHROPIC_API_KEY": "sk-ant-mock-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "IS_SANDBOX": "1",  # --dangerously-skip-permissions as root (CI runs as root)
        }

    def run(
        self, world: World, mock: MockModel, prompt: str, *, env: Mapping[str, str] | None = None
    ) -> Completed:
        return run_bounded(
            [str(self.exe), "-p", prompt, "--dangerously-skip-permissions", "--model", "sonnet"],
            env={**self.env(world, mock), **(env or {})},
            cwd=world.project,
            timeout=RUN_TIMEOUT,
        )


# ---------------------------------------------------------------- Codex


class CodexDriver(Driver):
    spec = CODEX
    all_events = CODEX_EVENTS
    events: Mapping[str, str] = {}

    def codex_home(self, world: World) -> Path:
        return world.home / ".codex"

    def inner_format(self) -> str:
        return "codex-json"

    def inner_config_path(self, world: World) -> Path:
        return world.hooks_dir / "hooks.json"

    def write_harness_config(self, world: World, commands: Mapping[str, str]) -> None:
        hooks = {
            event: [{"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}]}]
            for event, command in commands.items()
        }
        write_json(self.codex_home(world) / "hooks.json", {"hooks": hooks})

    def mock(self, world: World, commands: Sequence[str]) -> MockModel:
        return MockModel("responses", commands, shell_tool="exec_command", log_path=world.mock_log)

    def run(
        self, world: World, mock: MockModel, prompt: str, *, env: Mapping[str, str] | None = None
    ) -> Completed:
        home = self.codex_home(world)
        home.mkdir(parents=True, exist_ok=True)
        (home / "config.toml").write_text(
            f"""model = "mock-model"
model_provider = "mock"

[model_providers.mock]
name = "mock"
base_url = "{mock.url}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0
"""
        )
        env = {
            **world.base_env(),
            "CODEX_HOME": str(home),
            "MOCK_API_KEY": "mock-key",
            **(env or {}),
        }
        return run_bounded(
            [
                str(self.exe),
                "exec",
                "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                "--dangerously-bypass-hook-trust",
                prompt,
            ],
            env=env,
            cwd=world.project,
            timeout=RUN_TIMEOUT,
        )


# ---------------------------------------------------------------- Gemini CLI


class GeminiDriver(Driver):
    spec = GEMINI_CLI
    all_events = GEMINI_EVENTS
    events: Mapping[str, str] = {
        "SessionStart": "SessionStart",
        "SessionEnd": "SessionEnd",
        "UserPromptSubmit": "BeforeAgent",
        "PreToolUse": "BeforeTool",
        "PostToolUse": "AfterTool",
        "Stop": "AfterAgent",
    }
    dialect = "gemini"

    def inner_format(self) -> str | None:
        return format_named("gemini")

    def inner_config_path(self, world: World) -> Path:
        return world.hooks_dir / ".gemini" / "settings.json"

    def write_inner(self, path: Path, hooks: Mapping[str, list[Group]]) -> None:
        write_json(path, {"hooksConfig": {"enabled": True}, "hooks": dict(hooks)})

    def write_harness_config(self, world: World, commands: Mapping[str, str]) -> None:
        hooks = {
            event: [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "name": f"agent-hooks-{event}",
                            "command": command,
                            "timeout": HOOK_TIMEOUT_S * 1000,
                        }
                    ]
                }
            ]
            for event, command in commands.items()
        }
        write_json(
            world.home / ".gemini" / "settings.json",
            {
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "hooksConfig": {"enabled": True},
                "hooks": hooks,
            },
        )
        write_json(
            world.home / ".gemini" / "trustedFolders.json", {str(world.project): "TRUST_FOLDER"}
        )

    def mock(self, world: World, commands: Sequence[str]) -> MockModel:
        return MockModel(
            "gemini",
            commands,
            shell_tool="run_shell_command",
            model="gemini-2.5-flash",
            log_path=world.mock_log,
        )

    def run(
        self, world: World, mock: MockModel, prompt: str, *, env: Mapping[str, str] | None = None
    ) -> Completed:
        settings = world.home / ".gemini" / "settings.json"
        if not settings.exists():  # no hooks: the auth setting alone
            write_json(settings, {"security": {"auth": {"selectedType": "gemini-api-key"}}})
        trusted = {str(world.project): "TRUST_FOLDER"}
        write_json(world.home / ".gemini" / "trustedFolders.json", trusted)
        env = {
            **world.base_env(),
            "GOOGLE_GEMINI_BASE_URL": mock.url,
            "GEMINI_API_KEY": "mock-key",
            "GEMINI_CLI_NO_RELAUNCH": "true",
            **(env or {}),
        }
        return run_bounded(
            [str(self.exe), "-m", "gemini-2.5-flash", "-y", "-p", prompt],
            env=env,
            cwd=world.project,
            timeout=RUN_TIMEOUT,
        )


# ---------------------------------------------------------------- Copilot CLI


class CopilotDriver(Driver):
    spec = COPILOT_CLI
    all_events = COPILOT_EVENTS
    events: Mapping[str, str] = {
        "SessionStart": "sessionStart",
        "SessionEnd": "sessionEnd",
        "UserPromptSubmit": "userPromptSubmitted",
        "PreToolUse": "preToolUse",
        "PostToolUse": "postToolUse",
        "Stop": "agentStop",
    }
    dialect = "copilot"
    python_beside = True  # this build's Copilot loader refuses python entries (see report)

    def run_args(self, event: str) -> list[str]:
        # camelCase payloads carry no event name: the entry names it
        return ["--dialect", "copilot", "--event", event]

    def inner_format(self) -> str | None:
        return format_named("copilot")

    def inner_config_path(self, world: World) -> Path:
        return world.hooks_dir / ".github" / "hooks" / "agent-hooks.json"

    def write_inner(self, path: Path, hooks: Mapping[str, list[Group]]) -> None:
        flat: dict[str, list[dict[str, Any]]] = {}
        for event, groups in hooks.items():
            for group in groups:
                for hook in group["hooks"]:
                    entry = dict(hook)
                    if entry.get("type") == "command":
                        entry["bash"] = entry.pop("command")
                    if "matcher" in group:
                        entry["matcher"] = group["matcher"]
                    flat.setdefault(event, []).append(entry)
        write_json(path, {"version": 1, "hooks": flat})

    def write_harness_config(self, world: World, commands: Mapping[str, str]) -> None:
        hooks = {
            event: [{"type": "command", "bash": command, "timeoutSec": HOOK_TIMEOUT_S}]
            for event, command in commands.items()
        }
        write_json(
            world.project / ".github" / "hooks" / "harness.json", {"version": 1, "hooks": hooks}
        )

    def mock(self, world: World, commands: Sequence[str]) -> MockModel:
        return MockModel("responses", commands, shell_tool="bash", log_path=world.mock_log)

    def run(
        self, world: World, mock: MockModel, prompt: str, *, env: Mapping[str, str] | None = None
    ) -> Completed:
        git = world.project / ".git"  # repo hooks load in a repository: one, without git
        for sub in ("objects", "refs/heads"):
            (git / sub).mkdir(parents=True, exist_ok=True)
        (git / "HEAD").write_text("ref: refs/heads/main\n")
        env = {
            **world.base_env(),
            "COPILOT_HOME": str(world.home / ".copilot"),
            "COPILOT_OFFLINE": "true",
            "COPILOT_PROVIDER_BASE_URL": f"{mock.url}/v1",
            "COPILOT_PROVIDER_API_KEY": "mock-key",
            "COPILOT_PROVIDER_WIRE_API": "responses",
            "COPILOT_MODEL": "gpt-5",
            **(env or {}),
        }
        return run_bounded(
            [
                str(self.exe),
                "--no-auto-update",
                "--allow-all-tools",
                "--trust-folder",
                "-p",
                prompt,
            ],
            env=env,
            cwd=world.project,
            timeout=RUN_TIMEOUT,
        )


DRIVERS: dict[str, type[Driver]] = {
    "claude-code": ClaudeCodeDriver,
    "codex": CodexDriver,
    "gemini-cli": GeminiDriver,
    "copilot": CopilotDriver,
}

__all__ = ["DRIVERS", "Driver", "agent_hooks_exe", "command_hook", "python_hook"]
