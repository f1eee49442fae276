"""``discover()``: every standard hook location of a project and a home directory.

Sources, by precedence (lower runs and reduces first; equal precedences keep
the order of this list):

====  ============================================================  =========
prec  location                                                       trust
====  ============================================================  =========
0     hooks registered in Python                                     -
100   Claude Code managed policy (path given by the caller)         -
200   ``{project}/.claude/settings.json``                            project
210   ``{project}/.claude/settings.local.json``                      project
200   ``{project}/.deepagents/hooks.json``                           project
200   ``{project}/.codex/hooks.json``, ``.codex/config.toml``        project
200   ``{project}/.hel/hooks.json``                                  project
200   Docker Agent agent YAML (caller's; needs trust in a project)   project
300   ``~/.claude/settings.json``                                    -
300   ``~/.deepagents/hooks.json``                                   -
300   ``$CODEX_HOME/hooks.json``, ``config.toml`` (``~/.codex``)     -
300   Docker Agent ``settings.hooks`` (``~/.config/cagent``)         -
310+  Docker Agent ``hooks.d/*.yaml`` (lexical)                      -
400+  plugins' ``hooks/hooks.json`` (order given)                    -
400   Docker Agent CLI hooks                                         -
100   Cursor enterprise ``/etc/cursor/hooks.json``                   -
100+  Copilot policy ``/etc/github-copilot/policy.d/*.json``         -
200   ``{project}/.gemini/settings.json`` (Gemini CLI)               project
200   ``{project}/.cursor/hooks.json`` (Cursor)                      project
200   ``{project}/.github/hooks/*.json``, ``.github/copilot/settings.json`` project
210   ``{project}/.github/copilot/settings.local.json``              project
300   ``~/.gemini/settings.json``, ``~/.cursor/hooks.json``,         -
      ``$COPILOT_HOME/hooks/*.json``, ``$COPILOT_HOME/settings.json``
350   Gemini CLI system settings (360: its system defaults)          -
400+  Gemini CLI extensions' ``hooks/hooks.json``                    -
...   Factory, Qwen, Augment, Goose, OpenHands, Trae, Qoder:         as there
      see :mod:`._family`
100,  Windsurf: system, ``~/.codeium/[windsurf/]hooks.json``,        as there
150,  ``.windsurf/hooks.json`` (:mod:`._windsurf`)
200
200   Cline: ``.clinerules/hooks/<Event>``, ``.cline/hooks/<Event>``  project
300   Cline: ``~/Documents/Cline/Hooks/<Event>``, ``~/.cline/hooks/`` -
200   Kiro: ``.kiro/agents/*.json``, ``.amazonq/cli-agents/*.json``  project
300   Kiro: ``~/.kiro/agents/*.json``, ``~/.aws/amazonq/cli-agents/`` -
====  ============================================================  =========
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

import attrs

from .._handlers._kinds import HandlerKinds
from ._claude import load_claude
from ._codex import load_codex_dir
from ._deepagents import load_deepagents_dir
from ._docker import load_docker
from ._hel import load_hel
from ._plugin import Plugin
from ._snapshot import LoadedConfig, combine
from ._trust import TrustPolicy, TrustStore

__all__ = ["ECOSYSTEMS", "PROJECT_HOOK_FILES", "discover", "project_hook_files"]

TrustArg = TrustPolicy | TrustStore | bool | None

ECOSYSTEMS = (
    "claude",
    "deepagents",
    "codex",
    "hel",
    "docker",
    "gemini",
    "cursor",
    "copilot",
    "factory",
    "qwen",
    "augment",
    "goose",
    "openhands",
    "trae",
    "qoder",
    "windsurf",
    "cline",
    "kiro",
)
"""The ecosystems :func:`discover` looks at by default."""

PROJECT_HOOK_FILES = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".deepagents/hooks.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".hel/hooks.json",
    ".gemini/settings.json",
    ".cursor/hooks.json",
    ".github/copilot/settings.json",
    ".github/copilot/settings.local.json",
    ".factory/hooks.json",
    ".factory/hooks/hooks.json",
    ".factory/settings.json",
    ".factory/settings.local.json",
    ".qwen/settings.json",
    ".augment/settings.json",
    ".augment/settings.local.json",
    ".openhands/hooks.json",
    ".trae/hooks.json",
    ".qoder/settings.json",
    ".qoder/settings.local.json",
    ".windsurf/hooks.json",
)
"""Project-scoped hook files, relative to the project root (these need trust)."""


def project_hook_files(project_dir: str | os.PathLike[str]) -> list[str]:
    """The project-scoped hook files that exist in ``project_dir`` (relative paths),
    Copilot's ``.github/hooks/*.json`` and Cline's hook files included."""
    found = [rel for rel in PROJECT_HOOK_FILES if (Path(project_dir) / rel).is_file()]
    copilot = Path(project_dir) / ".github" / "hooks"
    found += sorted(f".github/hooks/{p.name}" for p in copilot.glob("*.json") if p.is_file())
    from ._cline import cline_event_of

    for rel in (".clinerules/hooks", ".cline/hooks"):
        hooks = Path(project_dir) / rel
        if hooks.is_dir():
            found += sorted(
                f"{rel}/{p.name}" for p in hooks.iterdir() if p.is_file() and cline_event_of(p.name)
            )
    return found


def discover(
    project_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
    trust: TrustArg = None,
    managed_policy: str | os.PathLike[str] | None = None,
    plugins: Sequence[Plugin | str | os.PathLike[str]] = (),
    kinds: HandlerKinds | None = None,
    ecosystems: Collection[str] = ECOSYSTEMS,
    disable_all_hooks: bool | None = None,
    docker_agent: str | os.PathLike[str] | None = None,
    docker_agent_name: str | None = None,
    docker_config_dir: str | os.PathLike[str] | None = None,
    docker_cli_hooks: Mapping[str, Sequence[str] | str] | None = None,
    codex_home: str | os.PathLike[str] | None = None,
) -> LoadedConfig:
    """Load every standard hook location for ``project_dir`` and ``home``.

    Args:
        project_dir: the project root (``None``: user-level locations only).
        home: the home directory (default: ``~``).
        trust: a :class:`TrustPolicy` (default: the default trust store), a
            :class:`TrustStore`, ``True`` (trust every project file: headless
            ``--trust-project-hooks``) or ``False`` (trust none).
        managed_policy: the Claude Code managed settings file, if any.
        plugins: enabled plugins (directories or :class:`Plugin`).
        kinds: the handler kind table (default: :func:`default_kinds`).
        ecosystems: which of :data:`ECOSYSTEMS` to look at.
        disable_all_hooks: Claude Code's ``--settings '{"disableAllHooks": ...}'``.
        docker_agent, docker_agent_name: a Docker Agent YAML and which agent.
        docker_config_dir: Docker Agent's config directory (default: see
            :func:`docker_config_dir`).
        docker_cli_hooks: ``--hook-*`` additions, ``{"pre_tool_use": ["cmd"]}``.
        codex_home: Codex's home (default ``$CODEX_HOME`` or ``~/.codex``).

    Raises:
        ValueError: an unknown ecosystem name.
    """
    unknown = set(ecosystems) - set(ECOSYSTEMS)
    if unknown:
        raise ValueError(f"unknown ecosystem(s) {sorted(unknown)}; known: {', '.join(ECOSYSTEMS)}")
    policy = TrustPolicy.coerce(trust)
    parts: list[LoadedConfig] = []
    if "claude" in ecosystems:
        parts.append(
            load_claude(
                project_dir,
                home=home,
                managed_policy=managed_policy,
                plugins=plugins,
                trust=policy,
                kinds=kinds,
                disable_all_hooks=disable_all_hooks,
            )
        )
    if "deepagents" in ecosystems:
        parts.append(load_deepagents_dir(project_dir, home=home, trust=policy, kinds=kinds))
    if "codex" in ecosystems:
        parts.append(
            load_codex_dir(
                project_dir, home=home, codex_home_dir=codex_home, trust=policy, kinds=kinds
            )
        )
    if "hel" in ecosystems and project_dir is not None:
        parts.append(load_hel(project_dir, trust=policy, kinds=kinds))
    if "docker" in ecosystems:
        parts.append(
            load_docker(
                docker_agent,
                agent=docker_agent_name,
                config_dir=docker_config_dir,
                home=home,
                cli_hooks=docker_cli_hooks,
                project_dir=project_dir,
                trust=policy,
                kinds=kinds,
            )
        )
    if "gemini" in ecosystems:
        from ._gemini import load_gemini_dir

        parts.append(load_gemini_dir(project_dir, home=home, trust=policy, kinds=kinds))
    if "cursor" in ecosystems:
        from ._cursor import load_cursor_dir

        parts.append(load_cursor_dir(project_dir, home=home, trust=policy, kinds=kinds))
    if "copilot" in ecosystems:
        from ._copilot import load_copilot_dir

        parts.append(load_copilot_dir(project_dir, home=home, trust=policy, kinds=kinds))
    from ._family import FAMILIES, load_family_dir

    for family in FAMILIES:
        if family in ecosystems:
            parts.append(load_family_dir(family, project_dir, home=home, trust=policy, kinds=kinds))
    if "windsurf" in ecosystems:
        from ._windsurf import load_windsurf_dir

        parts.append(load_windsurf_dir(project_dir, home=home, trust=policy, kinds=kinds))
    if "cline" in ecosystems:
        from ._cline import load_cline_dir

        parts.append(load_cline_dir(project_dir, home=home, trust=policy, kinds=kinds))
    if "kiro" in ecosystems:
        from ._kiro import load_kiro_dir

        parts.append(load_kiro_dir(project_dir, home=home, trust=policy, kinds=kinds))
    result = combine(parts)

    def recipe() -> LoadedConfig:
        return discover(
            project_dir,
            home=home,
            trust=policy,
            managed_policy=managed_policy,
            plugins=plugins,
            kinds=kinds,
            ecosystems=ecosystems,
            disable_all_hooks=disable_all_hooks,
            docker_agent=docker_agent,
            docker_agent_name=docker_agent_name,
            docker_config_dir=docker_config_dir,
            docker_cli_hooks=docker_cli_hooks,
            codex_home=codex_home,
        )

    return attrs.evolve(result, recipe=recipe)
