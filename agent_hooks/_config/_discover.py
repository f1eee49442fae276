"""``discover()``: every standard hook location of a project and a home directory.

Each harness row (:data:`~._harness.HARNESSES`) says where its files lie, in which scope
and at which precedence (lower runs and reduces first: Python-registered hooks 0,
managed 100, project 200, local 210, user 300, plugins 400+); ``discover`` loads the
rows ``ecosystems`` names, in the rows' order. docs/harnesses.md lists the places.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .._handlers._kinds import HandlerKinds
from ._harness import HARNESSES, Harness, expand, file_loader, resolve
from ._managed import OwnerRule, refuse
from ._managed_layer import load_managed_dir
from ._plugin import Plugin
from ._snapshot import LoadedConfig, combine
from ._trust import TrustArg, TrustPolicy

__all__ = ["ECOSYSTEMS", "PROJECT_HOOK_FILES", "discover", "load_harness", "project_hook_files"]


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
    for its managed (system) location (not owner-checked: the caller names it; the
    system's own location loads only when root owns it, :class:`~._managed.OwnerRule`)."""
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
        config = loader(
            path,
            scope=loc.scope,
            project_dir=pdir if sees_project else None,
            precedence=prec,
            trust=policy,
            kinds=kinds,
            **{k: extras[k] for k in fmt.extras},
        )
        if loc.scope == "managed" and system is None and config.files:
            # (a managed file anyone can write is no policy: refused, never honoured;
            # a ``system`` path the caller names is the caller's to vouch for)
            problem = OwnerRule().problem(path)
            if problem is not None:
                config = refuse(config, problem)
        parts.append(config)
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
    codex_requirements: str | os.PathLike[str] | None = None,
    managed_dir: str | os.PathLike[str] | None = None,
) -> LoadedConfig:
    """Load every standard hook location for ``project_dir`` and ``home``: agent_hooks's
    own managed layer first (``managed_dir``; default ``$AGENT_HOOKS_MANAGED_DIR``, else
    ``/etc/agent-hooks/managed.d``: docs/rollout.md, "Managed hooks"), then each
    harness row's (:data:`~._harness.HARNESSES`, in order) that ``ecosystems`` names.
    Managed files load only when root owns them and no one else can write them; no
    other file switches their hooks off.

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
        codex_requirements: Codex's managed ``requirements.toml`` (default: the
            system's, ``/etc/codex/requirements.toml``, owner-checked).
        managed_dir: agent_hooks's own managed directory (its ``*.json`` files, by name).

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
        "codex_requirements": codex_requirements,
    }
    own = load_managed_dir(managed_dir, trust=policy, kinds=kinds)
    result = combine(
        [own]
        + [
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
        ]
    )

    def recipe() -> LoadedConfig:
        return discover(
            project_dir,
            home=home,
            trust=policy,
            kinds=kinds,
            ecosystems=ecosystems,
            managed_dir=managed_dir,
            **given,
        )

    return attrs.evolve(result, recipe=recipe)
