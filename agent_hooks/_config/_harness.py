"""One row per harness: everything agent_hooks knows about a harness's hook files.

A :class:`Harness` row says what the harness is called, which file formats it has and
which function reads a file of each (:class:`FileFormat`), where its files lie and in
which order they merge (:class:`Location`), which environment variables move them, its
wire dialect, and how ``agent-hooks install`` writes an entry that calls agent-hooks
(:class:`Install`). ``load()``, ``discover()``, ``check``, ``install``, ``doctor``, the
resident server's configuration key and the harness table of docs/harnesses.md are all
read from :data:`HARNESSES`. Code remains only where a harness truly behaves differently
(Gemini's ``hooksConfig``, Copilot's policy files, Claude Code's ``disableAllHooks``
rules, Docker Agent's four places): the row names that function (``walker``).

Loader and walker functions are named ``"module:function"`` and imported when first
used: ``agent-hooks run`` with one file imports only that file's loader.
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .._base._lazy import submodule

__all__ = [
    "FAILS_OPEN",
    "Family",
    "FORMATS",
    "HARNESSES",
    "INSTALLS",
    "FileFormat",
    "Harness",
    "Install",
    "Location",
    "file_loader",
    "format_harness",
    "format_of_path",
    "harness_named",
    "loading_env",
    "resolve",
]


@attrs.frozen
class FileFormat:
    """One file format of a harness: its name (the snapshot's ``format``), the function
    that loads one file of it, and the scope of such a file that lies in no project."""

    name: str
    loader: str
    """``"module:name"`` of a :class:`~._common.HookFile` (a format as data), or of a
    function called as ``function(path, scope=, project_dir=, precedence=, trust=,
    kinds=, data=)`` and the ``extras`` below."""
    outside: str | None = "user"
    """The scope of a file of this format in no project (``None``: the loader decides)."""
    extras: tuple[str, ...] = ()
    """Further arguments its loader takes: ``home``, ``agent``, ``plugin_data``,
    ``family`` (the format's name)."""
    places: tuple[str, ...] = ()
    """Where a file of this format lies, for ``load()``'s detection: patterns of a path's
    last names (``.cursor/hooks.json``, ``.github/hooks/*.json``; ``*`` matches within
    one name). The pattern with the most names decides, ties in row order. A
    Claude-compatible harness's are its locations' (:func:`format_of_path`)."""
    suffixes: tuple[str, ...] = ()
    """File name endings, in any case (``.toml``), that make a file this format before any
    place does."""


@attrs.frozen
class Location:
    """Where one of a harness's files (or a glob of them) lies, and how it merges."""

    path: str
    """Relative to ``root``; may end in a glob (``*.json``)."""
    scope: str
    """``managed``, ``project``, ``local`` (project files that need trust) or ``user``."""
    precedence: int | None = None
    """``None``: its scope's (:data:`~._common.PRECEDENCE`)."""
    root: str = "project"
    """``project``, ``home`` or ``system`` (``path`` is then absolute)."""
    env: str | None = None
    """A variable that, when set, replaces the first directory of ``path`` under home
    (``FACTORY_HOME_OVERRIDE`` for ``.factory``); for a system location, the directory
    that holds the file (or glob). ``AGENT_HOOKS_SYSTEM_ROOT`` moves every system
    location (:func:`~._managed.system_path`)."""
    darwin: str | None = None
    """The system path on macOS."""
    windows: str | None = None
    """The system path on Windows."""
    count_up: bool = False
    """Each file a glob finds takes the next precedence (plugins: 400, 401...)."""

    def place(self, project_dir: str | None, home: Path) -> Path | None:
        """The path (or glob) of this location; ``None``: no project to look in."""
        if self.root == "project":
            return Path(project_dir) / self.path if project_dir is not None else None
        if self.root == "system":
            from ._managed import system_path

            return system_path(self.path, darwin=self.darwin, windows=self.windows, env=self.env)
        rest = self.path.partition("/")[2]
        override = os.environ.get(self.env) if self.env else None
        return Path(override) / rest if override else home / self.path


FAILS_OPEN = "a missing or crashing agent-hooks lets the action go ahead (fail open)"


def _in(seconds: float, unit: float) -> int:
    return max(1, round(seconds / unit))


def _grouped(command: str, timeout: float, unit: float, extra: Mapping[str, Any]) -> Any:
    item = {"type": "command", "command": command, "timeout": _in(timeout, unit), **extra}
    return {"hooks": [item]}


def _grouped_commands(entry: Any) -> list[str]:
    hooks = entry.get("hooks") if isinstance(entry, Mapping) else None
    if not isinstance(hooks, list):
        return []
    return [
        h["command"] for h in hooks if isinstance(h, Mapping) and isinstance(h.get("command"), str)
    ]


def _flat(key: str) -> Callable[[Any], list[str]]:
    def read(entry: Any) -> list[str]:
        value = entry.get(key) if isinstance(entry, Mapping) else None
        return [value] if isinstance(value, str) else []

    return read


_Entry = Callable[[str, float, float, Mapping[str, Any]], Any]
_SHAPES: Mapping[str, tuple[_Entry, Callable[[Any], list[str]]]] = {
    "grouped": (_grouped, _grouped_commands),
    "cursor": (lambda c, t, u, x: {"command": c, "timeout": _in(t, u), **x}, _flat("command")),
    "copilot": (
        lambda c, t, u, x: {"type": "command", "bash": c, "timeoutSec": _in(t, u), **x},
        _flat("bash"),
    ),
    "bare": (lambda c, t, u, x: {"command": c, **x}, _flat("command")),
    "scripts": (lambda c, t, u, x: {"command": c, **x}, _flat("command")),
}
"""Entry shapes: (command, timeout in seconds, seconds per unit, the command's extra
keys) -> the entry; and an entry -> the commands it runs (to recognise ours). Claude's
matcher groups; Cursor's and Copilot's flat entries; a bare ``{command}`` (Windsurf
documents no timeout; Cline's entry is a script)."""


@attrs.frozen(kw_only=True)
class Install:
    """How ``agent-hooks install`` writes an entry that calls agent-hooks (the
    defaults are Claude Code's shape; a row states only what differs)."""

    name: str = ""
    """The harness's name (filled in from its row)."""
    project_file: str
    """Relative to the project root (a directory for a script-folder harness)."""
    user_file: str | None = None
    """Relative to home; default ``project_file``. Its first directory is replaced by
    ``user_env`` when that variable is set."""
    user_env: str | None = None
    shape: str = "grouped"
    """The entry's shape, a key of :data:`_SHAPES`; ``scripts``: one executable per event
    in a directory (Cline), which install writes as a small shell script."""
    event_rule: str = "native"
    """Which events get an entry: ``native`` (each canonical event's native one),
    ``every-native`` (every native event of it), ``listed`` (those in ``listed``)."""
    listed: tuple[str, ...] = ()
    head: Mapping[str, Any] = attrs.field(factory=dict)
    """Keys a new file starts with (``version: 1``)."""
    names_event: bool = False
    """The payload does not name its event: the command passes ``--event``."""
    fail_closed: Mapping[str, Any] = attrs.field(factory=dict)
    """The keys of the harness's own switch that blocks when the command cannot run,
    crashes or times out (Claude Code ``onFailure: block``, Cursor ``failClosed``),
    written on the entries of guard events. Empty: the harness has none."""
    fails_open: str = FAILS_OPEN
    """What a broken command does where ``fail_closed`` is empty (or a caveat where it is
    not), as install and doctor say it."""
    comments: bool = False
    """The harness reads ``//`` and ``/* */`` comments in its file (they are kept)."""
    project_dir_var: str | None = None
    """The variable naming the project root in the hook's environment: a project file's
    ``--config`` paths are written relative to it."""
    also_runs: tuple[str, ...] = ()
    """Other harnesses whose hook files this one runs itself (Copilot CLI runs the
    project's ``.claude/settings.json``): entries in both would run the guard twice."""
    other_files: tuple[tuple[str, str], ...] = ()
    """Other hook files doctor checks, ``(scope, path)``: relative to the project, or
    absolute (a system file)."""

    @property
    def per_event_files(self) -> bool:
        """Hooks are executables named by their event in a directory (Cline)."""
        return self.shape == "scripts"

    def user_path(self, home: Path) -> Path:
        """The user file (``$CODEX_HOME``-style overrides applied)."""
        rel = self.user_file or self.project_file
        override = os.environ.get(self.user_env) if self.user_env else None
        return Path(override) / rel.partition("/")[2] if override else home / rel

    def events(self, event: str) -> list[str]:
        """Canonical event -> the harness's events that deliver it (empty: none)."""
        if self.event_rule == "listed":
            return [event] if event in self.listed else []
        from .._wire._dialects import get_dialect

        native = get_dialect(self.name).native
        assert native is not None
        if self.event_rule == "every-native":
            return [e.name for e in native.events if e.event == event]
        found = native.for_event(event)
        return [found.name] if found is not None else []

    def entry(self, command: str, timeout: float, unit: float, extra: Mapping[str, Any]) -> Any:
        """The entry that runs ``command``."""
        return _SHAPES[self.shape][0](command, timeout, unit, extra)

    def commands(self, entry: Any) -> list[str]:
        """The commands an entry runs."""
        return _SHAPES[self.shape][1](entry)


@attrs.frozen(kw_only=True)
class Family:
    """How a Claude-compatible harness's files differ from Claude Code's (:mod:`._family`
    reads them with one builder)."""

    name: str = ""
    """The harness's name (filled in from its row): its format and dialect name."""
    group_keys: frozenset[str] = frozenset()
    """Keys a matcher group may carry besides ``matcher`` and ``hooks``."""
    top_keys: frozenset[str] = frozenset({"hooks", "description", "$schema"})
    """Top-level keys of a stand-alone hooks file."""
    sh_only: bool = False
    """The harness runs only ``.sh`` files (Augment)."""
    comments: bool = False
    """The harness reads its files as JSON with ``//`` and ``/* */`` comments (Qwen
    Code: ``JSON.parse(stripJsonComments(text))``; Augment: "files may be JSONC")."""
    plugin_root: bool = False
    """A file in a plugin's ``hooks/`` gets ``PLUGIN_ROOT``, the plugin's directory (Goose)."""
    file_kinds: Mapping[str, str] = attrs.field(factory=dict)
    """File name -> how the file holds its hooks, where the name alone does not say:
    ``settings`` (a ``hooks`` key among the harness's settings), ``hooks`` (a hooks file,
    ``hooks`` and ``top_keys`` only) or ``bare`` (the whole object is the hooks object,
    Devin's ``hooks.v1.json``). Other names: ``settings*`` is ``settings``, else ``hooks``."""
    on_failure_on: frozenset[str] | None = None
    """Events on which a handler's ``on_failure: block`` makes its failure block (Goose:
    PreToolUse); elsewhere it is ignored with a note. ``None``: every event."""
    plugin_switches: str | None = None
    """A settings file, relative to the home directory and to the project, whose
    ``disabledPlugins`` lists plugins (by directory name) whose hooks are not loaded
    (Goose: ``.config/goose/settings.json``)."""

    @property
    def dialect(self) -> Any:
        """The harness's wire dialect (:mod:`agent_hooks._wire._dialects`)."""
        from .._wire._dialects import get_dialect

        return get_dialect(self.name)


@attrs.frozen(kw_only=True)
class Harness:
    """Everything about one harness (see the module docstring and docs/architecture.md,
    "Adding a harness")."""

    name: str
    """The ecosystem name (``discover(ecosystems=...)``), ``--harness`` name and the
    wire dialect's name."""
    title: str
    """How the docs name it."""
    aliases: tuple[str, ...] = ()
    """Other names accepted for it by ``load(harness=)``, ``install --harness``."""
    formats: tuple[FileFormat, ...] = ()
    """Its file formats; the first is the one ``load(path, harness=name)`` reads."""
    locations: tuple[Location, ...] = ()
    """Its files, in merge order; project files need the project's trust."""
    walker: str | None = None
    """``"module:function"`` that loads every location, where the harness layers its
    files by more than place and precedence; ``None``: the locations, merged."""
    options: Mapping[str, str] = attrs.field(factory=dict)
    """``discover()`` arguments passed on to ``walker``, ``{discover's name: its}``."""
    user_scope_sees_project: bool = False
    """A user file's hooks see the project directory too (Codex, Deep Agents)."""
    file_filter: str | None = None
    """``"module:function"``: which names found by a glob are its files (Cline)."""
    env: tuple[str, ...] = ()
    """Environment variables its loaders read (they key the resident server)."""
    executables: tuple[str, ...] = ()
    """Names its executable goes by on PATH (doctor)."""
    tested_version: str | None = None
    """The release agent_hooks is checked against (doctor)."""
    install: Install | None = None
    not_installable: str | None = None
    family: Family | None = None
    """A Claude-compatible harness's file-shape differences (:mod:`._family`)."""
    """Why ``install`` does not write this harness's hooks (and what to do instead)."""

    def project_files(self) -> list[str]:
        """Its project files that need trust, relative to the project (no globs)."""
        return [
            loc.path
            for loc in self.locations
            if loc.root == "project" and loc.scope in ("project", "local") and "*" not in loc.path
        ]


_CLAUDE_FILES = (
    Location(
        "/etc/claude-code/managed-settings.json",
        "managed",
        root="system",
        darwin="/Library/Application Support/ClaudeCode/managed-settings.json",
        windows="C:/Program Files/ClaudeCode/managed-settings.json",
    ),
    Location(
        "/etc/claude-code/managed-settings.d/*.json",
        "managed",
        root="system",
        darwin="/Library/Application Support/ClaudeCode/managed-settings.d/*.json",
        windows="C:/Program Files/ClaudeCode/managed-settings.d/*.json",
    ),
    Location(".claude/settings.json", "project"),
    Location(".claude/settings.local.json", "local"),
    Location(".claude/settings.json", "user", root="home"),
)


def _family(
    name: str,
    title: str,
    locations: tuple[Location, ...],
    *,
    aliases: tuple[str, ...] = (),
    env: tuple[str, ...] = (),
    executables: tuple[str, ...] = (),
    install: Install | None = None,
    not_installable: str | None = None,
    shape: Family | None = None,
    user_scope_sees_project: bool = False,
) -> Harness:
    """A Claude-compatible harness (:mod:`._family`): Claude's file shape, its places."""
    return Harness(
        name=name,
        title=title,
        aliases=aliases,
        formats=(FileFormat(name, "_family:load_family", extras=("home", "family")),),
        locations=locations,
        env=env,
        executables=executables,
        install=install,
        not_installable=not_installable,
        family=shape or Family(),
        user_scope_sees_project=user_scope_sees_project,
    )


def _at(path: str, scope: str, precedence: int | None = None, **kw: Any) -> Location:
    return Location(path, scope, precedence, **kw)


def _named(h: Harness) -> Harness:
    install = attrs.evolve(h.install, name=h.name) if h.install is not None else None
    family = attrs.evolve(h.family, name=h.name) if h.family is not None else None
    return attrs.evolve(h, install=install, family=family)


HARNESSES: Mapping[str, Harness] = {
    h.name: _named(h)
    for h in (
        Harness(
            name="claude",
            title="Claude Code",
            aliases=("claude-code",),
            formats=(
                FileFormat("claude-settings", "_claude:load_claude_settings"),
                FileFormat("claude-hooks", "_claude_format:load_hooks_file", outside=None),
                FileFormat("claude-plugin", "_plugin:load_plugin_file", extras=("plugin_data",)),
            ),
            locations=_CLAUDE_FILES,
            walker="_claude:load_claude",
            options={
                "managed_policy": "managed_policy",
                "plugins": "plugins",
                "disable_all_hooks": "disable_all_hooks",
            },
            env=("CLAUDE_CONFIG_DIR",),
            executables=("claude",),
            tested_version="2.1.332",
            install=Install(
                project_file=".claude/settings.json",
                event_rule="listed",
                listed=(
                    "PreToolUse",
                    "PostToolUse",
                    "PostToolUseFailure",
                    "PostToolBatch",
                    "PermissionRequest",
                    "PermissionDenied",
                    "UserPromptSubmit",
                    "UserPromptExpansion",
                    "Stop",
                    "StopFailure",
                    "SubagentStart",
                    "SubagentStop",
                    "SessionStart",
                    "SessionEnd",
                    "Setup",
                    "Notification",
                    "PreCompact",
                    "PostCompact",
                    "ConfigChange",
                    "DirectoryAdded",
                    "FileChanged",
                    "CwdChanged",
                    "InstructionsLoaded",
                    "Elicitation",
                    "ElicitationResult",
                    "TeammateIdle",
                    "TaskCreated",
                    "TaskCompleted",
                    "WorktreeCreate",
                    "WorktreeRemove",
                    "MessageDisplay",
                    "PreModelSwitch",
                    "PostModelSwitch",
                    "PreSkillShellCommand",
                ),
                fail_closed={"onFailure": "block"},
                fails_open="onFailure: block needs Claude Code 2.1.295 or later; an older "
                "version ignores it and lets the action go ahead when agent-hooks is missing "
                "or crashes",
                project_dir_var="CLAUDE_PROJECT_DIR",
                other_files=(
                    ("local", ".claude/settings.local.json"),
                    ("managed", "/etc/claude-code/managed-settings.json"),
                ),
            ),
        ),
        Harness(
            name="deepagents",
            title="Deep Agents Code",
            aliases=("dcode",),
            formats=(FileFormat("deepagents", "_deepagents:FILE", places=(".deepagents/*",)),),
            locations=(
                _at(".deepagents/hooks.json", "project"),
                _at(".deepagents/hooks.json", "user", root="home"),
            ),
            user_scope_sees_project=True,
            not_installable="Deep Agents Code has no install target yet",
        ),
        Harness(
            name="codex",
            title="OpenAI Codex",
            formats=(
                FileFormat("codex-json", "_codex:load_codex", places=(".codex/*",)),
                FileFormat("codex-toml", "_codex:TOML_FILE", suffixes=(".toml",)),
            ),
            locations=(
                # (requirements.toml: Codex's documented Unix path; the Windows one is
                # unconfirmed, chosen beside its other ProgramData files)
                _at(
                    "/etc/codex/requirements.toml",
                    "managed",
                    root="system",
                    windows="C:/ProgramData/OpenAI/Codex/requirements.toml",
                ),
                _at(".codex/hooks.json", "project"),
                _at(".codex/config.toml", "project"),
                _at(".codex/hooks.json", "user", root="home", env="CODEX_HOME"),
                _at(".codex/config.toml", "user", root="home", env="CODEX_HOME"),
            ),
            walker="_codex:load_codex_dir",
            options={"codex_home": "codex_home_dir", "codex_requirements": "requirements"},
            env=("CODEX_HOME",),
            executables=("codex",),
            tested_version="0.171.0",
            install=Install(
                project_file=".codex/hooks.json",
                user_env="CODEX_HOME",
                event_rule="listed",
                listed=(
                    "PreToolUse",
                    "PermissionRequest",
                    "PostToolUse",
                    "SessionStart",
                    "UserPromptSubmit",
                    "Stop",
                    "SessionEnd",
                    "PreCompact",
                    "PostCompact",
                    "SubagentStart",
                    "SubagentStop",
                    "Interrupt",
                ),
            ),
        ),
        Harness(
            name="hel",
            title="hel",
            formats=(FileFormat("hel", "_hel:load_hel_file", places=(".hel/hooks.json",)),),
            locations=(_at(".hel/hooks.json", "project"),),
            walker="_hel:load_hel_dir",
            not_installable="hel has no install target yet",
        ),
        Harness(
            name="docker",
            title="Docker Agent",
            aliases=("docker-agent",),
            formats=(
                FileFormat(
                    "docker-agent",
                    "_docker:load_docker_agent",
                    outside="explicit",
                    extras=("agent",),
                    suffixes=(".yaml", ".yml"),  # (which of its three: _load.detect_format)
                ),
                FileFormat("docker-settings", "_docker:SETTINGS_FILE"),
                FileFormat("docker-dropin", "_docker:DROPIN_FILE"),
            ),
            walker="_docker:load_docker",
            options={
                "docker_agent": "agent_file",
                "docker_agent_name": "agent",
                "docker_config_dir": "config_dir",
                "docker_cli_hooks": "cli_hooks",
            },
            env=("DOCKER_CONFIG", "CAGENT_CONFIG_DIR", "DOCKER_AGENT_CONFIG_DIR"),
            not_installable="Docker Agent has no install target yet",
        ),
        Harness(
            name="gemini",
            title="Gemini CLI",
            aliases=("gemini-cli",),
            formats=(
                FileFormat("gemini-settings", "_gemini:load_gemini", places=(".gemini/*.json",)),
            ),
            locations=(
                _at(".gemini/settings.json", "project"),
                _at(".gemini/settings.json", "user", root="home"),
            ),
            walker="_gemini:load_gemini_dir",
            env=(
                "GEMINI_CLI_SYSTEM_DEFAULTS_PATH",
                "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
                "GEMINI_CLI_HOME",
            ),
            executables=("gemini",),
            tested_version="0.61.0",
            install=Install(
                project_file=".gemini/settings.json",
                comments=True,
                project_dir_var="GEMINI_PROJECT_DIR",
            ),
        ),
        Harness(
            name="cursor",
            title="Cursor",
            formats=(
                FileFormat(
                    "cursor", "_cursor:FILE", extras=("home",), places=(".cursor/hooks.json",)
                ),
            ),
            locations=(
                _at(
                    "/etc/cursor/hooks.json",
                    "managed",
                    root="system",
                    darwin="/Library/Application Support/Cursor/hooks.json",
                    windows="C:/ProgramData/Cursor/hooks.json",
                ),
                _at(".cursor/hooks.json", "project"),
                _at(".cursor/hooks.json", "user", root="home"),
            ),
            env=("CURSOR_CONFIG_DIR",),
            executables=("cursor-agent", "cursor"),
            install=Install(
                project_file=".cursor/hooks.json",
                shape="cursor",
                head={"version": 1},
                fail_closed={"failClosed": True},
                fails_open="",
                comments=True,
                project_dir_var="CURSOR_PROJECT_DIR",
                also_runs=("claude",),
            ),
        ),
        Harness(
            name="copilot",
            title="GitHub Copilot CLI",
            aliases=("github-copilot",),
            formats=(
                FileFormat(
                    "copilot-hooks",
                    "_copilot:load_copilot",
                    places=(".github/hooks/*.json", ".copilot/hooks/*.json"),
                ),
                FileFormat(
                    "copilot-settings",
                    "_copilot:load_copilot",
                    places=(".github/copilot/settings*", ".copilot/settings*"),
                ),
            ),
            locations=(
                _at(
                    "/etc/github-copilot/policy.d/*.json",
                    "managed",
                    100,
                    root="system",
                    windows="C:/ProgramData/GitHub/Copilot/policy.d/*.json",
                    count_up=True,
                ),
                _at(".github/copilot/settings.json", "project"),
                _at(".github/copilot/settings.local.json", "local"),
                _at(".github/hooks/*.json", "project"),
            ),
            walker="_copilot:load_copilot_dir",
            env=("COPILOT_HOME",),
            executables=("copilot",),
            tested_version="1.0.102",
            install=Install(
                project_file=".github/hooks/agent-hooks.json",
                user_file=".copilot/hooks/agent-hooks.json",
                user_env="COPILOT_HOME",
                shape="copilot",
                head={"version": 1},
                names_event=True,
                fails_open="its preToolUse blocks on its own when agent-hooks is missing or "
                "crashes, but on a timeout, and on every other event, the action goes ahead "
                "(fail open)",
                also_runs=("claude",),
            ),
        ),
        _family(
            "factory",
            "Factory Droid",
            (
                _at(".factory/hooks.json", "project", 200),
                _at(".factory/hooks/hooks.json", "project", 200),
                _at(".factory/settings.json", "project", 200),
                _at(".factory/settings.local.json", "project", 210),
                _at(".factory/hooks.json", "user", 300, root="home", env="FACTORY_HOME_OVERRIDE"),
                _at(
                    ".factory/settings.json", "user", 300, root="home", env="FACTORY_HOME_OVERRIDE"
                ),
            ),
            aliases=("factory-droid", "droid"),
            env=("FACTORY_HOME_OVERRIDE",),
            executables=("droid",),
            install=Install(
                project_file=".factory/settings.json",
                user_env="FACTORY_HOME_OVERRIDE",
                project_dir_var="FACTORY_PROJECT_DIR",
            ),
            shape=Family(
                top_keys=frozenset({"hooks", "description", "$schema", "allowManagedHooksOnly"})
            ),
        ),
        _family(
            "qwen",
            "Qwen Code",
            (
                _at(".qwen/settings.json", "project", 200),
                _at(".qwen/settings.json", "user", 300, root="home"),
            ),
            aliases=("qwen-code",),
            executables=("qwen",),
            install=Install(
                project_file=".qwen/settings.json",
                comments=True,
                project_dir_var="QWEN_PROJECT_DIR",
            ),
            shape=Family(group_keys=frozenset({"sequential"}), comments=True),
        ),
        _family(
            "augment",
            "Augment / Auggie",
            (
                _at("/etc/augment/settings.json", "managed", 100, root="system"),
                _at(".augment/settings.json", "project", 200),
                _at(".augment/settings.local.json", "project", 210),
                _at(".augment/settings.json", "user", 300, root="home"),
            ),
            aliases=("auggie",),
            not_installable="Augment runs only .sh files named in its settings; write a .sh "
            "script that runs `agent-hooks run --dialect augment --config ...` and name it in "
            ".augment/settings.json",
            shape=Family(group_keys=frozenset({"metadata"}), sh_only=True, comments=True),
        ),
        _family(
            "goose",
            "Goose",
            (
                _at(".agents/plugins/*/hooks/hooks.json", "project", 400, count_up=True),
                _at(
                    ".agents/plugins/*/hooks/hooks.json", "plugin", 400, root="home", count_up=True
                ),
            ),
            not_installable="Goose reads hooks only from plugins, whose manifest agent-hooks "
            "does not write; put a hooks/hooks.json whose commands run `agent-hooks run "
            "--dialect goose --config ...` in a plugin of yours",
            shape=Family(
                plugin_root=True,
                on_failure_on=frozenset({"PreToolUse"}),
                plugin_switches=".config/goose/settings.json",
            ),
            user_scope_sees_project=True,  # (a project's disabledPlugins: the user's too)
        ),
        _family(
            "openhands",
            "OpenHands",
            (
                _at(".openhands/hooks.json", "project", 200),
                _at(".openhands/hooks.json", "user", 300, root="home"),
            ),
            executables=("openhands",),
            install=Install(
                project_file=".openhands/hooks.json",
                event_rule="listed",
                listed=(
                    "PreToolUse",
                    "PostToolUse",
                    "UserPromptSubmit",
                    "Stop",
                    "SessionStart",
                    "SessionEnd",
                ),
            ),
        ),
        _family(
            "trae",
            "Trae",
            (
                _at(".trae/hooks.json", "project", 200),
                _at(".trae/hooks.json", "user", 300, root="home"),
                _at(".trae-cn/hooks.json", "user", 300, root="home"),
            ),
            executables=("trae", "trae-cli"),
            install=Install(
                project_file=".trae/hooks.json",
                event_rule="listed",
                listed=(
                    "SessionStart",
                    "UserPromptSubmit",
                    "PreToolUse",
                    "PostToolUse",
                    "Stop",
                    "Notification",
                ),
                head={"version": 1},
                also_runs=("claude",),
            ),
            shape=Family(
                group_keys=frozenset({"loop_limit"}),
                top_keys=frozenset({"hooks", "version", "description", "$schema"}),
            ),
        ),
        _family(
            "qoder",
            "Qoder",
            (
                _at(".qoder/settings.json", "project", 200),
                _at(".qoder/settings.local.json", "project", 210),
                _at(".qoder/settings.json", "user", 300, root="home"),
            ),
            executables=("qodercli", "qoder"),
            install=Install(
                project_file=".qoder/settings.json",
                event_rule="listed",
                listed=(
                    "SessionStart",
                    "SessionEnd",
                    "UserPromptSubmit",
                    "PreToolUse",
                    "PostToolUse",
                    "PostToolUseFailure",
                    "PermissionRequest",
                    "PermissionDenied",
                    "Stop",
                    "StopFailure",
                    "SubagentStart",
                    "SubagentStop",
                    "PreCompact",
                ),
            ),
        ),
        # Devin CLI (digest: devin-cli.md, medium-low confidence). Unconfirmed, chosen:
        # every file's hooks add up (the digest does not say whether they merge or
        # override); timeouts in seconds with Claude Code's default; no trust gate of its
        # own (project files need agent_hooks' trust, as every project file does);
        # `install` writes `hooks` in .devin/config.json (not the unwrapped
        # hooks.v1.json) with `--event`, as whether payloads carry hook_event_name is
        # unconfirmed. Devin also runs the project's .claude/ hooks: `also_runs`.
        _family(
            "devin",
            "Devin CLI",
            (
                _at(".devin/hooks.v1.json", "project", 200),
                _at(".devin/config.json", "project", 200),
                _at(".devin/config.local.json", "local", 210),
                _at(".config/devin/config.json", "user", 300, root="home"),
            ),
            aliases=("devin-cli",),
            executables=("devin",),
            install=Install(
                project_file=".devin/config.json",
                user_file=".config/devin/config.json",
                names_event=True,
                project_dir_var="DEVIN_PROJECT_DIR",
                also_runs=("claude",),
            ),
            shape=Family(
                file_kinds={
                    "hooks.v1.json": "bare",
                    "config.json": "settings",
                    "config.local.json": "settings",
                }
            ),
        ),
        # Antigravity CLI (digest: antigravity-cli.md, low confidence; sources disagree by
        # version). Chosen: the official page's places, `.agents/hooks.json` and
        # `~/.gemini/config/hooks.json`, plus plugins' root `hooks.json` (what agy 1.1.11
        # was seen to load); the 1.0.x places (`.antigravitycli/`, `~/.gemini/hooks.json`)
        # are not read. Files add up; no trust gate of its own is documented (project
        # files need agent_hooks' trust). `install` writes the tool events only (a hook
        # named "hooks", which is also the older wrapped shape), with `--event`: payloads
        # do not name their event. Stop and the invocation events take flat handler
        # lists, which install's entry shapes do not write.
        Harness(
            name="antigravity",
            title="Antigravity CLI",
            aliases=("agy", "antigravity-cli"),
            formats=(FileFormat("antigravity", "_antigravity:FILE"),),
            locations=(
                _at(".agents/hooks.json", "project", 200),
                _at(".gemini/config/hooks.json", "user", 300, root="home"),
                _at(
                    ".gemini/config/plugins/*/hooks.json", "plugin", 400, root="home", count_up=True
                ),
            ),
            executables=("agy",),
            install=Install(
                project_file=".agents/hooks.json",
                user_file=".gemini/config/hooks.json",
                event_rule="listed",
                listed=("PreToolUse", "PostToolUse"),
                names_event=True,
                fails_open="Antigravity blocks a tool call itself when agent-hooks is "
                "missing, crashes or prints no decision (it fails closed); on PostToolUse "
                "the action goes ahead",
            ),
        ),
        # Hermes Agent (digest: hermes-agent.md). User scope only (a profile's
        # config.yaml; HERMES_HOME moves it). `install` does not edit YAML; Hermes's own
        # first-use consent (its allowlist) applies to whatever entry the user writes.
        Harness(
            name="hermes",
            title="Hermes Agent",
            aliases=("hermes-agent",),
            formats=(FileFormat("hermes", "_hermes:FILE"),),
            locations=(_at(".hermes/config.yaml", "user", 300, root="home", env="HERMES_HOME"),),
            env=("HERMES_HOME",),
            executables=("hermes",),
            not_installable="Hermes keeps hooks in ~/.hermes/config.yaml (YAML), which "
            "install does not edit; add `hooks: {pre_tool_call: [{command: 'agent-hooks run "
            "--dialect hermes --config ...', fail_closed: true}]}` there and approve it on "
            "first run (or `hermes --accept-hooks`)",
        ),
        _family(
            # CodeBuddy Code 2.117.0 (Tencent): Claude Code's file shape in .codebuddy/.
            # Unconfirmed, chosen: the enterprise policy bundle's path is not read; of the
            # 28 events in its bundle's enum, install writes the 9 its docs document.
            "codebuddy",
            "CodeBuddy Code",
            (
                _at(".codebuddy/settings.json", "project", 200),
                _at(".codebuddy/settings.local.json", "project", 210),
                _at(".codebuddy/settings.json", "user", 300, root="home"),
            ),
            aliases=("codebuddy-code",),
            executables=("codebuddy",),
            install=Install(
                project_file=".codebuddy/settings.json",
                event_rule="listed",
                listed=(
                    "PreToolUse",
                    "PostToolUse",
                    "Notification",
                    "UserPromptSubmit",
                    "Stop",
                    "SubagentStop",
                    "PreCompact",
                    "SessionStart",
                    "SessionEnd",
                ),
                project_dir_var="CODEBUDDY_PROJECT_DIR",
            ),
        ),
        Harness(
            # Kimi Code 0.38 (Moonshot): a flat [[hooks]] list in its user config.toml; no
            # project file. Unconfirmed, chosen: Kimi's tool names are taken as they come
            # (not mapped), and a Notification matcher is tested against its "type".
            name="kimi",
            title="Kimi Code",
            aliases=("kimi-code", "kimi-cli"),
            formats=(FileFormat("kimi-toml", "_kimi:FILE"),),
            locations=(
                _at(".kimi-code/config.toml", "user", 300, root="home", env="KIMI_CODE_HOME"),
            ),
            env=("KIMI_CODE_HOME",),
            executables=("kimi",),
            not_installable="Kimi Code's hooks live in ~/.kimi-code/config.toml (TOML), which "
            "install does not edit; add a [[hooks]] table with event = \"PreToolUse\" and "
            "command = \"agent-hooks run --dialect kimi --config ...\" there (Kimi Code has "
            "no fail-closed switch: a missing or crashing agent-hooks lets the action go ahead)",
        ),
        Harness(
            # Crush 0.90 (Charm): flat PreToolUse entries under "hooks" in crush.json.
            # Unconfirmed, chosen: project and global hooks both run (project first);
            # $XDG_CONFIG_HOME moves the global file; tool inputs use Claude's keys.
            name="crush",
            title="Crush",
            aliases=("charm-crush",),
            formats=(FileFormat("crush", "_crush:FILE"),),
            locations=(
                _at("crush.json", "project", 200),
                _at(".crush.json", "project", 200),
                _at(".config/crush/crush.json", "user", 300, root="home", env="XDG_CONFIG_HOME"),
            ),
            env=("XDG_CONFIG_HOME",),
            executables=("crush",),
            install=Install(
                project_file="crush.json",
                user_file=".config/crush/crush.json",
                user_env="XDG_CONFIG_HOME",
                shape="cursor",
                comments=True,
                project_dir_var="CRUSH_PROJECT_DIR",
            ),
        ),
        Harness(
            # Mistral Vibe 3.0.3: [[hooks]] in .vibe/hooks.toml (trusted folders) and
            # ~/.vibe/hooks.toml. Unconfirmed, chosen: read_file/write_file take "path";
            # a post_agent "match" is tested against the payload's agent_name.
            name="vibe",
            title="Mistral Vibe",
            aliases=("mistral-vibe",),
            formats=(FileFormat("vibe", "_vibe:FILE"),),
            locations=(
                _at(".vibe/hooks.toml", "project", 200),
                _at(".vibe/hooks.toml", "user", 300, root="home", env="VIBE_HOME"),
            ),
            env=("VIBE_HOME",),
            executables=("vibe",),
            not_installable="Mistral Vibe's hooks live in .vibe/hooks.toml (TOML), which "
            "install does not edit; add a [[hooks]] table with name, type = \"pre_tool\", "
            "command = \"agent-hooks run --dialect vibe --config ...\" and strict = true "
            "(without it a missing or crashing agent-hooks lets the call go ahead)",
        ),
        Harness(
            name="windsurf",
            title="Windsurf",
            formats=(
                FileFormat(
                    "windsurf",
                    "_windsurf:FILE",
                    extras=("home",),
                    places=tuple(
                        f"{d}/hooks.json" for d in (".windsurf", "windsurf", "Windsurf", ".codeium")
                    ),
                ),
            ),
            locations=(
                _at(
                    "/etc/windsurf/hooks.json",
                    "managed",
                    100,
                    root="system",
                    darwin="/Library/Application Support/Windsurf/hooks.json",
                    windows="C:/ProgramData/Windsurf/hooks.json",
                ),
                _at(".codeium/windsurf/hooks.json", "user", 150, root="home"),
                _at(".codeium/hooks.json", "user", 150, root="home"),
                _at(".windsurf/hooks.json", "project", 200),
            ),
            executables=("windsurf",),
            install=Install(
                project_file=".windsurf/hooks.json",
                user_file=".codeium/windsurf/hooks.json",
                shape="bare",
                event_rule="every-native",
            ),
        ),
        Harness(
            name="cline",
            title="Cline",
            formats=(
                FileFormat(
                    "cline",
                    "_cline:load_cline",
                    extras=("home",),
                    places=(".clinerules/hooks/*", ".cline/hooks/*", "Cline/Hooks/*"),
                ),
            ),
            locations=(
                _at(".clinerules/hooks/*", "project", 200),
                _at(".cline/hooks/*", "project", 200),
                _at("Documents/Cline/Hooks/*", "user", 300, root="home"),
                _at(".cline/hooks/*", "user", 300, root="home", env="CLINE_DIR"),
            ),
            file_filter="_cline:cline_event_of",
            env=("CLINE_DIR",),
            executables=("cline",),
            install=Install(
                project_file=".clinerules/hooks",
                user_file="Documents/Cline/Hooks",
                shape="scripts",
            ),
        ),
        Harness(
            name="kiro",
            title="Kiro CLI",
            formats=(
                FileFormat(
                    "kiro",
                    "_kiro:FILE",
                    extras=("home",),
                    places=(
                        "*.kiro.hook",
                        ".kiro/agents/*.json",
                        ".kiro/hooks/*.json",
                        ".amazonq/cli-agents/*.json",
                        "amazonq/cli-agents/*.json",
                    ),
                ),
            ),
            locations=(
                _at(".kiro/agents/*.json", "project", 200),
                _at(".amazonq/cli-agents/*.json", "project", 200),
                _at(".kiro/hooks/*.json", "project", 200),
                _at(".kiro/hooks/*.kiro.hook", "project", 200),
                _at(".kiro/agents/*.json", "user", 300, root="home"),
                _at(".aws/amazonq/cli-agents/*.json", "user", 300, root="home"),
                _at(".kiro/hooks/*.json", "user", 300, root="home"),
            ),
            not_installable="Kiro CLI keeps hooks in the configuration of each agent; add "
            "entries running `agent-hooks run --dialect kiro --config ...` to the agent's hooks",
        ),
    )
}
"""Every harness, by name, in :func:`discover`'s order."""


INSTALLS: Mapping[str, Install] = {
    h.name: h.install for h in HARNESSES.values() if h.install is not None
}
"""Every harness ``agent-hooks install`` writes for, by name."""


def _formats() -> dict[str, str]:
    names: dict[str, str] = {}
    for h in HARNESSES.values():
        for f in h.formats:
            names[f.name] = f.name
        for alias in (h.name, *h.aliases):
            names.setdefault(alias, h.formats[0].name)
    names["plugin"] = "claude-plugin"
    names["claude"] = "claude-settings"
    names["copilot"] = "copilot-hooks"
    return names


FORMATS: Mapping[str, str] = _formats()
"""Accepted ``load(format=...)`` / ``load(harness=...)`` names -> the format they select:
every format's own name, every harness's name and aliases (its first format)."""

_BY_FORMAT: Mapping[str, tuple[Harness, FileFormat]] = {
    f.name: (h, f) for h in HARNESSES.values() for f in h.formats
}


def format_harness(fmt: str) -> tuple[Harness, FileFormat]:
    """The harness and format row of a format name.

    Raises:
        KeyError: not a format's name.
    """
    return _BY_FORMAT[fmt]


def _places(h: Harness, f: FileFormat) -> tuple[str, ...]:
    """A format's places: its own, else, for a Claude-compatible harness or a harness of
    one format, its locations (a system file by its last two names; for a harness of one
    format only the locations without a glob)."""
    if f.places:
        return f.places
    if h.family is None and len(h.formats) != 1:
        return ()
    return tuple(
        "/".join(loc.path.strip("/").split("/")[-2:] if loc.root == "system" else [loc.path])
        for loc in h.locations
        if h.family is not None or "*" not in loc.path
    )


_SUFFIXES: tuple[tuple[str, str], ...] = tuple(
    (s, f.name) for h in HARNESSES.values() for f in h.formats for s in f.suffixes
)
_PLACES: tuple[tuple[tuple[str, ...], str], ...] = tuple(
    sorted(
        (
            (tuple(p.strip("/").split("/")), f.name)
            for h in HARNESSES.values()
            for f in h.formats
            for p in _places(h, f)
        ),
        key=lambda row: -len(row[0]),
    )
)
Place = tuple[int, tuple[str, ...], str]
"""A place pattern: its rank (longest first), its names, its format."""


def _by_last_name(places: Sequence[tuple[tuple[str, ...], str]]) -> dict[str, list[Place]]:
    found: dict[str, list[Place]] = {}
    for rank, (want, fmt) in enumerate(places):
        found.setdefault(want[-1], []).append((rank, want, fmt))
    return found


def _globbed(name: str) -> bool:
    return any(c in name for c in "*?[")


_WHOLE_PLACES = _by_last_name(
    [(w, f) for w, f in _PLACES if len(w) > 1 and not any("*" in n for n in w)]
)
"""The places of several names without a glob (``.vibe/hooks.toml``), which outrank a
suffix, by their last name."""
_EXACT_LAST = _by_last_name([(w, f) for w, f in _PLACES if not _globbed(w[-1])])
"""The places whose last name is not a pattern, by that name (ranks kept)."""
_GLOB_LAST: tuple[Place, ...] = tuple(
    (rank, w, f) for rank, (w, f) in enumerate(_PLACES) if _globbed(w[-1])
)
"""The places whose last name is a pattern, by rank."""


def format_of_path(parts: Sequence[str]) -> str | None:
    """The format whose row claims a file by its path's names (``parts``, the last is the
    file's): a name ending in one of a format's ``suffixes`` (any case, after at least one
    other character), else the format of the place pattern with the most names that the
    path ends with (:attr:`FileFormat.places`); ``None``: no row claims it. A place of
    several names without a glob (``.vibe/hooks.toml``) is checked before the suffixes.
    (The places are indexed by their last name once, at import: a call looks at the few
    that can match.)"""
    from fnmatch import fnmatchcase

    name = parts[-1] if parts else ""
    for _, want, fmt in _WHOLE_PLACES.get(name, ()):
        if tuple(parts[-len(want) :]) == want:
            return fmt  # (a whole place, such as .vibe/hooks.toml, outranks a suffix)
    low = name.lower()
    for suffix, fmt in _SUFFIXES:
        if low.endswith(suffix) and len(name) > len(suffix):
            return fmt
    for _, want, fmt in heapq.merge(_EXACT_LAST.get(name, ()), _GLOB_LAST):
        tail = parts[-len(want) :]
        if len(tail) == len(want) and all(map(fnmatchcase, tail, want)):
            return fmt
    return None


def harness_named(name: str) -> Harness | None:
    """The harness called ``name`` or one of its aliases."""
    found = HARNESSES.get(name)
    if found is not None:
        return found
    return next((h for h in HARNESSES.values() if name in h.aliases), None)


def resolve(ref: str) -> Any:
    """The object ``"module:attr"`` names (the module imported on first use)."""
    module, _, attr = ref.partition(":")
    return getattr(submodule(__package__, module), attr)


def file_loader(fmt: str) -> Callable[..., Any]:
    """The function that loads one file of format ``fmt``: the one its row names, or
    the ``load`` of the :class:`~._common.HookFile` it names."""
    found = resolve(format_harness(fmt)[1].loader)
    load = getattr(found, "load_file", None)
    loader: Callable[..., Any] = found if load is None else load
    return loader


def loading_env() -> tuple[str, ...]:
    """Every environment variable some harness's loaders read, and those that move or
    judge managed files (:data:`~._managed.MANAGED_ENV`)."""
    from ._managed import MANAGED_ENV

    return tuple(dict.fromkeys((*(v for h in HARNESSES.values() for v in h.env), *MANAGED_ENV)))


def expand(
    harness: Harness, project_dir: str | None, home: Path
) -> Iterator[tuple[Path, Location]]:
    """Each existing file of ``harness``'s locations, in order (globs sorted, a file
    reached twice kept the first time). A project file that is also one of the user's
    (the project is the home directory) is the user's."""
    keep: Callable[[str], object] | None = (
        resolve(harness.file_filter) if harness.file_filter else None
    )
    seen: set[str] = set()
    users = {
        os.path.realpath(p)
        for loc in harness.locations
        if loc.root == "home" and "*" not in loc.path
        for p in [loc.place(project_dir, home)]
        if p is not None
    }
    for loc in harness.locations:
        place = loc.place(project_dir, home)
        if place is None or (loc.root == "project" and os.path.realpath(place) in users):
            continue
        if "*" in place.name or "*" in str(place.parent):
            base, pattern = _glob_base(place)
            found = sorted(base.glob(pattern)) if base.is_dir() else []
        else:
            found = [place]
        for p in found:
            real = os.path.realpath(p)
            if real in seen or not p.is_file() or (keep is not None and not keep(p.name)):
                continue
            seen.add(real)
            yield p, loc


def _glob_base(place: Path) -> tuple[Path, str]:
    parts = place.parts
    i = next(i for i, part in enumerate(parts) if "*" in part)
    return Path(*parts[:i]), "/".join(parts[i:])
