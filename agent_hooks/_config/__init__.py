"""Hook configuration files: loaders, discovery of the standard locations, reloads.

Every loader returns a :class:`LoadedConfig` snapshot whose ``sources`` feed a
:class:`~agent_hooks.HookRegistry`; bad content becomes diagnostics, never an
exception. See ``README_SECTION.md`` beside this file for the locations, the
precedence numbers and the trust rules.

Names are imported on first access, so that a process that loads one format
(``agent-hooks run --config hooks.json``) imports that format's loader only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_module

if TYPE_CHECKING:
    from ._claude import load_claude, load_claude_settings
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
    from ._plugin import Plugin, load_claude_plugin
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

_MODULE_OF: dict[str, str] = {
    "Plugin": "_plugin",
    "load_claude": "_claude",
    "load_claude_plugin": "_plugin",
    "load_claude_settings": "_claude",
    "load_codex": "_codex",
    "load_codex_dir": "_codex",
    "load_codex_toml": "_codex",
    "PRECEDENCE": "_common",
    "PROJECT_SCOPES": "_common",
    "LoadedConfig": "_common",
    "LoadedFile": "_common",
    "combine": "_common",
    "LEGACY_EVENTS": "_deepagents",
    "load_deepagents": "_deepagents",
    "load_deepagents_dir": "_deepagents",
    "ECOSYSTEMS": "_discover",
    "PROJECT_HOOK_FILES": "_discover",
    "discover": "_discover",
    "project_hook_files": "_discover",
    "docker_cli_hooks": "_docker",
    "docker_config_dir": "_docker",
    "load_docker": "_docker",
    "load_docker_agent": "_docker",
    "load_docker_dropin": "_docker",
    "load_docker_dropins": "_docker",
    "load_docker_settings": "_docker",
    "load_hel": "_hel",
    "FORMATS": "_load",
    "detect_format": "_load",
    "load": "_load",
    "ConfigChanges": "_reload",
    "FileChange": "_reload",
    "HandlerRef": "_reload",
    "diff": "_reload",
    "reload": "_reload",
}
"""Which module defines each public name."""

__getattr__, __dir__ = lazy_module(__name__, globals(), _MODULE_OF, __all__)
