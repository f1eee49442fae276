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
from typing import Any

import attrs

from .._handlers._kinds import HandlerKinds
from ._harness import HARNESSES, Harness, expand, file_loader, resolve
from ._plugin import Plugin
from ._snapshot import LoadedConfig, combine
from ._trust import TrustPolicy, TrustStore

__all__ = ["ECOSYSTEMS", "PROJECT_HOOK_FILES", "discover", "load_harness", "project_hook_files"]

TrustArg = TrustPolicy | TrustStore | bool | None

ECOSYSTEMS = tuple(HARNESSES)
"""The ecosystems :func:`discover` looks at by default: every harness row."""

PROJECT_HOOK_FILES = tuple(rel for h in HARNESSES.values() for rel in h.project_files())
"""Project-scoped hook files, relative to the project root (these need trust)."""


def project_hook_files(project_dir: str | os.PathLike[str]) -> list[str]:
    """The project-scoped hook files that exist in ``project_dir`` (relative paths),
    the files of globbed locations (Copilot's ``.github/hooks/*.json``, Cline's scripts,
    Kiro's agents, Goose's plugins) included."""
    root = Path(project_dir)
    found = [rel for rel in PROJECT_HOOK_FILES if (root / rel).is_file()]
    home = Path("/nonexistent-home")
    for h in HARNESSES.values():
        globbed = attrs.evolve(
            h,
            locations=tuple(
                loc
                for loc in h.locations
                if loc.root == "project" and loc.scope in ("project", "local") and "*" in loc.path
            ),
        )
        found += [p.relative_to(root).as_posix() for p, _ in expand(globbed, os.fspath(root), home)]
    return list(dict.fromkeys(found))


def load_harness(
    harness: Harness,
    project_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    system: str | os.PathLike[str] | None = None,
    **options: Any,
) -> LoadedConfig:
    """Every location of ``harness`` for ``project_dir`` and ``home``: its ``walker``
    when the row names one (given ``options``), else each existing file of its
    locations, in order, loaded by its format's loader. ``system``: a path that stands
    for its managed (system) location."""
    policy = TrustPolicy.coerce(trust)
    pdir = os.fspath(project_dir) if project_dir is not None else None
    if harness.walker is not None:
        walker = resolve(harness.walker)
        result: LoadedConfig = walker(
            project_dir=pdir, home=home, trust=policy, kinds=kinds, **options
        )
        return result
    home_p = Path(home) if home is not None else Path.home()
    rows = harness.locations
    if system is not None:
        rows = tuple(
            attrs.evolve(loc, path=os.fspath(system), darwin=None, windows=None)
            if loc.root == "system"
            else loc
            for loc in rows
        )
    fmt = harness.formats[0]
    loader = file_loader(fmt.name)
    extras = {"home": home, "family": fmt.name}
    counted = 0
    parts = []
    for path, loc in expand(attrs.evolve(harness, locations=rows), pdir, home_p):
        prec = loc.precedence
        if loc.count_up and prec is not None:
            prec, counted = prec + counted, counted + 1
        sees_project = loc.scope in ("project", "local") or harness.user_scope_sees_project
        parts.append(
            loader(
                path,
                scope=loc.scope,
                project_dir=pdir if sees_project else None,
                precedence=prec,
                trust=policy,
                kinds=kinds,
                **{k: extras[k] for k in fmt.extras},
            )
        )
    return combine(parts)


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
    """Load every standard hook location for ``project_dir`` and ``home``: each
    harness row's (:data:`~._harness.HARNESSES`, in order) that ``ecosystems`` names.

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
    given: dict[str, Any] = {
        "managed_policy": managed_policy,
        "plugins": plugins,
        "disable_all_hooks": disable_all_hooks,
        "docker_agent": docker_agent,
        "docker_agent_name": docker_agent_name,
        "docker_config_dir": docker_config_dir,
        "docker_cli_hooks": docker_cli_hooks,
        "codex_home": codex_home,
    }
    result = combine(
        load_harness(
            h,
            project_dir,
            home=home,
            trust=policy,
            kinds=kinds,
            **{theirs: given[ours] for ours, theirs in h.options.items()},
        )
        for h in HARNESSES.values()
        if h.name in ecosystems
    )

    def recipe() -> LoadedConfig:
        return discover(
            project_dir, home=home, trust=policy, kinds=kinds, ecosystems=ecosystems, **given
        )

    return attrs.evolve(result, recipe=recipe)
