"""Hook configuration files: loaders, discovery of the standard locations, reloads.

Every loader returns a :class:`LoadedConfig` snapshot whose ``sources`` feed a
:class:`~agent_hooks.HookRegistry`; bad content becomes diagnostics, never an
exception. See ``README_SECTION.md`` beside this file for the locations, the
precedence numbers and the trust rules.
"""

from __future__ import annotations

from ._claude import Plugin, load_claude, load_claude_plugin, load_claude_settings
from ._codex import load_codex, load_codex_dir, load_codex_toml
from ._common import PRECEDENCE, PROJECT_SCOPES, LoadedConfig, LoadedFile, combine
from ._deepagents import LEGACY_EVENTS, load_deepagents, load_deepagents_dir
from ._discover import ECOSYSTEMS, PROJECT_HOOK_FILES, discover, project_hook_files
from ._docker import (
    docker_cli_hooks,
    docker_config_dir,
    load_docker,
    load_docker_agent,
    load_docker_dropin,
    load_docker_dropins,
    load_docker_settings,
)
from ._hel import load_hel
from ._load import FORMATS, detect_format, load
from ._reload import ConfigChanges, FileChange, HandlerRef, diff, reload

__all__ = [
    "ECOSYSTEMS",
    "FORMATS",
    "LEGACY_EVENTS",
    "PRECEDENCE",
    "PROJECT_HOOK_FILES",
    "PROJECT_SCOPES",
    "ConfigChanges",
    "FileChange",
    "HandlerRef",
    "LoadedConfig",
    "LoadedFile",
    "Plugin",
    "combine",
    "detect_format",
    "diff",
    "discover",
    "docker_cli_hooks",
    "docker_config_dir",
    "load",
    "load_claude",
    "load_claude_plugin",
    "load_claude_settings",
    "load_codex",
    "load_codex_dir",
    "load_codex_toml",
    "load_deepagents",
    "load_deepagents_dir",
    "load_docker",
    "load_docker_agent",
    "load_docker_dropin",
    "load_docker_dropins",
    "load_docker_settings",
    "load_hel",
    "project_hook_files",
    "reload",
]
