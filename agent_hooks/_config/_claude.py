"""Claude Code configuration: settings files, managed policy, and every location at once
(:func:`load_claude`; a plugin's ``hooks/hooks.json`` is read by :mod:`._plugin`, and
the file format itself by :mod:`._claude_format`).

Across files (:func:`load_claude`):

* every file's groups are kept (additive), ordered managed (100), project (200),
  local (210), user (300), plugins (400, 401, ... in the order given);
* ``disableAllHooks``: the value of the highest-precedence settings file that
  sets it wins (managed, the caller's override, local, project, user). When it is
  true, user, project, local and plugin hooks are not loaded; managed hooks are
  only switched off when the managed file itself says so;
* ``allowManagedHooksOnly`` (honoured in managed policy only): user, project,
  local and plugin hooks are not loaded, except plugins marked ``managed``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from .._handlers._kinds import HandlerKinds
from .._wire._dialects import CLAUDE, Dialect
from ._claude_format import settings_builder, settings_probe
from ._common import PRECEDENCE, Built, HookFile, disable_config, file_project
from ._managed import MANAGED_DISABLE_ALL, MANAGED_ONLY_CLAUDE, OwnerRule, refuse
from ._snapshot import LoadedConfig, combine
from ._trust import TrustArg, TrustPolicy

if TYPE_CHECKING:
    from ._plugin import Plugin

__all__ = ["load_claude", "load_claude_settings"]


_SETTINGS = HookFile(
    format="claude-settings", dialect=CLAUDE, builder=settings_builder, probe=settings_probe
)


def _settings_scope(path: str, project_dir: str | None) -> tuple[str, str | None]:
    """The scope of a settings file and the project whose trust it needs: a file of a
    project (inside ``project_dir``, or below a project root found from the file) is
    ``project`` or ``local``; a ``managed-settings*`` file is the managed policy."""
    name = os.path.basename(path)
    if name.startswith("managed-settings"):
        return "managed", project_dir
    root = file_project(path, project_dir)
    if root is not None:
        return ("local" if name == "settings.local.json" else "project"), root
    return "user", project_dir


def _flags(built: Built | None) -> dict[str, Any]:
    return built.flags if built is not None else {}


def load_claude_settings(
    path: str | os.PathLike[str],
    *,
    scope: str | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    precedence: int | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    dialect: Dialect = CLAUDE,
    data: bytes | None = None,
) -> LoadedConfig:
    """One Claude Code settings file (``settings.json``, ``settings.local.json``,
    ``managed-settings.json``).

    ``scope`` (``user``, ``project``, ``local``, ``managed``) is inferred from the
    name and from whether the file lies in a project: inside ``project_dir``, else
    below a project root found from the file itself (:func:`find_project_root`:
    ``.git``, ``.claude/``...), whose trust it then needs. Project and local files
    load only when trusted. ``disableAllHooks: true`` in the file switches
    its own hooks off (use :func:`load_claude` for the cross-file rules).
    """
    label = os.fspath(path)
    pdir = os.fspath(project_dir) if project_dir is not None else None
    if not scope:
        scope, pdir = _settings_scope(label, pdir)
    config, built = attrs.evolve(_SETTINGS, dialect=dialect).load_as(
        label,
        scope=scope,
        project_dir=pdir,
        precedence=precedence,
        trust=trust,
        kinds=kinds,
        data=data,
    )
    if _flags(built).get("disableAllHooks") is True:
        config = disable_config(
            config, "disableAllHooks is true in this file", DiagnosticCode.HOOKS_DISABLED
        )

    return config


def load_claude(
    project_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
    managed_policy: str | os.PathLike[str] | None = None,
    plugins: Sequence[Plugin | str | os.PathLike[str]] = (),
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    disable_all_hooks: bool | None = None,
) -> LoadedConfig:
    """Every Claude Code hook location, with ``disableAllHooks`` and
    ``allowManagedHooksOnly`` applied across them.

    Managed policy is ``managed_policy`` when given, else the system's
    ``managed-settings.json`` (``/etc/claude-code/``; macOS ``/Library/Application
    Support/ClaudeCode/``; Windows ``C:\\Program Files\\ClaudeCode\\``), which loads only
    when root owns it and no one else can write it (:class:`~._managed.OwnerRule`);
    then the ``managed-settings.d/*.json`` drop-ins beside it, by name (same rule).
    Their hooks all load; for a flag, the last managed file that sets it wins.

    ``disable_all_hooks`` plays the part of ``--settings '{"disableAllHooks": ...}'``:
    above project, local and user settings, below managed policy.
    """
    from ._plugin import Plugin, load_claude_plugin

    policy = TrustPolicy.coerce(trust)
    pdir = os.fspath(project_dir) if project_dir is not None else None
    home_dir = Path(home) if home is not None else Path.home()
    user_path = home_dir / ".claude" / "settings.json"
    entries: list[tuple[str, LoadedConfig, dict[str, Any], Plugin | None]] = []

    def settings(path: str | os.PathLike[str], scope: str) -> None:
        cfg, built = _SETTINGS.load_as(
            path, scope=scope, project_dir=pdir, trust=policy, kinds=kinds
        )
        entries.append((scope, cfg, _flags(built), None))

    def managed(path: Path, precedence: int, judged: bool) -> None:
        cfg, built = _SETTINGS.load_as(
            path,
            scope="managed",
            project_dir=None,
            precedence=precedence,
            trust=policy,
            kinds=kinds,
        )
        problem = OwnerRule().problem(path) if judged and cfg.files else None
        if problem is not None:  # (refused: none of its flags counts)
            entries.append(("managed", refuse(cfg, problem), {}, None))
        else:
            entries.append(("managed", cfg, _flags(built), None))

    # Managed policy: the named file, else the system's (owner-checked); then the
    # drop-ins of managed-settings.d/ beside it, by name (later files win a flag).
    base = Path(managed_policy) if managed_policy is not None else _system_managed()
    judged = managed_policy is None
    if base is not None:
        managed(base, PRECEDENCE["managed"], judged)
        dropins = base.parent / "managed-settings.d"
        if dropins.is_dir():
            for i, f in enumerate(sorted(dropins.glob("*.json")), start=1):
                managed(f, PRECEDENCE["managed"] + i, judged)
    if pdir is not None:
        for scope, name in (("project", "settings.json"), ("local", "settings.local.json")):
            path = os.path.join(pdir, ".claude", name)
            if not _same(path, user_path):  # run from the home directory: it is the user file
                settings(path, scope)
    settings(user_path, "user")
    for i, plugin in enumerate(Plugin.coerce(p) for p in plugins):
        cfg = load_claude_plugin(
            plugin, precedence=PRECEDENCE["plugin"] + min(i, 99), kinds=kinds, project_dir=pdir
        )
        entries.append(("plugin", cfg, {}, plugin))

    def label(cfg: LoadedConfig) -> str | None:
        return cfg.files[0].path if cfg.files else None

    # disableAllHooks: the value of the highest-precedence place that sets it wins.
    # (managed files: the last that sets it wins, drop-ins over the base file)
    chain: list[tuple[str, bool | None, str | None]] = []
    for scope in ("managed", "override", "local", "project", "user"):
        if scope == "override":
            chain.append((scope, disable_all_hooks, None))
        found = [(s, f.get("disableAllHooks"), label(c)) for s, c, f, _ in entries if s == scope]
        chain += reversed(found) if scope == "managed" else found
    decided = next(((s, v, where) for s, v, where in chain if v is not None), None)
    set_by_managed = [
        f["allowManagedHooksOnly"]
        for s, _, f, _ in entries
        if s == "managed" and f.get("allowManagedHooksOnly") is not None
    ]
    managed_only = bool(set_by_managed) and set_by_managed[-1] is True

    out: list[LoadedConfig] = []
    for scope, cfg, flags, owner in entries:
        if scope != "managed" and flags.get("allowManagedHooksOnly") is not None and cfg.files:
            cfg = _note(
                cfg, "'allowManagedHooksOnly' is only honoured in managed policy settings; ignored"
            )
        if (
            decided is not None
            and decided[1] is True
            and (scope != "managed" or decided[0] == "managed")
        ):
            where = decided[2] or "the caller's settings"
            said = (
                f"{MANAGED_DISABLE_ALL} ({where})"
                if decided[0] == "managed"
                else f"disableAllHooks is true (from {where})"
            )
            cfg = disable_config(cfg, said, DiagnosticCode.HOOKS_DISABLED)
        elif managed_only and scope != "managed" and not (owner is not None and owner.managed):
            cfg = disable_config(cfg, MANAGED_ONLY_CLAUDE, DiagnosticCode.HOOKS_DISABLED)
        out.append(cfg)
    result = combine(out)

    return result


def _system_managed() -> Path | None:
    """Claude Code's system ``managed-settings.json`` (the ``claude`` row's managed
    location, :func:`~._managed.system_path`); ``None`` when the row has none."""
    from ._harness import HARNESSES

    for loc in HARNESSES["claude"].locations:
        if loc.scope == "managed" and not loc.path.endswith("*.json"):
            return loc.place(None, Path.home())
    return None


def _same(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    return os.path.realpath(os.fspath(a)) == os.path.realpath(os.fspath(b))


def _note(config: LoadedConfig, message: str) -> LoadedConfig:
    from .._base._diagnostics import Diagnostic

    sg = config.sources[0]
    extra = Diagnostic(
        code=DiagnosticCode.INVALID_CONFIG,
        message=message,
        severity=Severity.WARNING,
        source=sg.source.label,
        location="allowManagedHooksOnly",
    )
    return attrs.evolve(
        config,
        sources=(attrs.evolve(sg, diagnostics=(*sg.diagnostics, extra)), *config.sources[1:]),
    )
