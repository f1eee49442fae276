"""Managed hook files: where the system-wide ones lie, who may own them, and
agent_hooks's own managed layer.

A *managed* file is one an administrator deploys for every user of a machine (Claude
Code's ``managed-settings.json``, Codex's ``requirements.toml``, Copilot's
``policy.d``, Cursor's enterprise ``hooks.json``, agent_hooks's ``managed.d``). Its
hooks need no trust (they are trusted by policy) and no user, project or local file can
switch them off. That is only sound while no one but the administrator can change the
file, so a managed file counts only when :class:`OwnerRule` passes: the file (and a
link's target) is owned by an allowed owner (root) and writable by neither its group
nor others, and so is the directory that holds it. A file in a managed location that
fails the rule is *refused*: not loaded, its hooks kept for inspection only, status
``untrusted`` with an ``untrusted`` warning that says why; whatever it says
(``disableAllHooks``, ``allowManagedHooksOnly``, ``[features].hooks = false``) is
not honoured, so a file anyone can write never switches a hook off.

Where the system locations lie (docs/rollout.md, "Managed hooks"):

* :data:`SYSTEM_ROOT_ENV` (``AGENT_HOOKS_SYSTEM_ROOT``): when set, every system
  location is read below that directory (``/etc/x`` becomes ``$ROOT/etc/x``): for tests
  and for containers that mount the machine's ``/etc`` elsewhere;
* :data:`MANAGED_DIR_ENV` (``AGENT_HOOKS_MANAGED_DIR``): agent_hooks's own managed
  directory instead of :data:`MANAGED_DIR`.

Neither moves who may own a managed file: root alone, whatever the environment says.
A repository can set a harness's environment (Claude Code applies a project
settings file's ``env``), so a variable that named another owner would let a
repository's own files count as managed, switch a user's guards off
(``allowManagedHooksOnly``) and run without trust; pointed at a repository, these
variables find only files that are not root's, which are refused.

On Windows ownership is not checked (ACLs are not read): the locations under
``C:\\ProgramData`` are taken as the administrator's.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from ._snapshot import LoadedConfig

__all__ = [
    "MANAGED_DIR",
    "MANAGED_DIR_ENV",
    "MANAGED_ENV",
    "SYSTEM_ROOT_ENV",
    "POLICIES",
    "OwnerRule",
    "managed_report",
    "load_managed_file",
    "managed_dir",
    "refuse",
    "system_path",
]

SYSTEM_ROOT_ENV = "AGENT_HOOKS_SYSTEM_ROOT"
MANAGED_DIR_ENV = "AGENT_HOOKS_MANAGED_DIR"
MANAGED_ENV = (SYSTEM_ROOT_ENV, MANAGED_DIR_ENV)
"""The variables that decide which managed files load (they key the resident server)."""

MANAGED_ONLY_CLAUDE = "allowManagedHooksOnly is true in managed policy settings"
MANAGED_DISABLE_ALL = "disableAllHooks is true in managed policy settings"
MANAGED_ONLY_CODEX = "allow_managed_hooks_only is true in requirements.toml"
CODEX_HOOKS_OFF = "[features].hooks is false in requirements.toml"
POLICIES = (MANAGED_ONLY_CLAUDE, MANAGED_DISABLE_ALL, MANAGED_ONLY_CODEX, CODEX_HOOKS_OFF)
"""What a managed policy that switches other hooks off says (the start of the
``hooks_disabled`` diagnostic of every file it switched off): ``check`` and
``doctor`` list the policies in effect by them (:func:`managed_report`)."""

MANAGED_DIR = "/etc/agent-hooks/managed.d"
"""agent_hooks's own managed directory on Linux and other Unix systems."""
MANAGED_DIR_DARWIN = "/Library/Application Support/agent-hooks/managed.d"
MANAGED_DIR_WINDOWS = "C:/ProgramData/agent-hooks/managed.d"
MANAGED_PRECEDENCE = 50
"""agent_hooks's managed files run and reduce first: 50, 51... (harness managed files
are at 100)."""


def system_path(
    path: str, *, darwin: str | None = None, windows: str | None = None, env: str | None = None
) -> Path:
    """Where a system location lies on this machine: its macOS or Windows path there,
    the directory ``env`` names in place of its directory (the last name, or glob,
    kept), and everything below :data:`SYSTEM_ROOT_ENV` when that is set."""
    chosen = path
    if sys.platform == "darwin" and darwin:
        chosen = darwin
    elif os.name == "nt" and windows:  # pragma: no cover
        chosen = windows
    moved = os.environ.get(env) if env else None
    if moved:
        return Path(moved) / Path(chosen).name
    root = os.environ.get(SYSTEM_ROOT_ENV)
    if root:
        rest = os.path.splitdrive(chosen)[1].lstrip("/\\")
        return Path(root) / rest
    return Path(chosen)


def managed_dir() -> Path:
    """agent_hooks's own managed directory: ``$AGENT_HOOKS_MANAGED_DIR``, else the
    system's (:data:`MANAGED_DIR`; macOS ``/Library/Application Support/agent-hooks/
    managed.d``; Windows ``C:/ProgramData/agent-hooks/managed.d``)."""
    moved = os.environ.get(MANAGED_DIR_ENV)
    if moved:
        return Path(moved)
    return system_path(MANAGED_DIR, darwin=MANAGED_DIR_DARWIN, windows=MANAGED_DIR_WINDOWS)


@attrs.frozen
class OwnerRule:
    """Who may own a managed file: ``owners`` (uids; default root alone, never taken
    from the environment: see the module's docstring), nobody else able to write it or
    its directory. The Python API may name another owner (:meth:`coerce`)."""

    owners: frozenset[int] = frozenset({0})

    @classmethod
    def coerce(cls, value: OwnerRule | int | None) -> OwnerRule:
        """``None``: the default rule; a uid: that owner (and root)."""
        if isinstance(value, OwnerRule):
            return value
        return cls() if value is None else cls(frozenset({0, value}))

    def _judge(self, what: str, st: os.stat_result) -> str | None:
        if st.st_uid not in self.owners:
            whom = (
                "root" if self.owners == {0} else "uid " + "/".join(map(str, sorted(self.owners)))
            )
            return f"{what} is owned by uid {st.st_uid}, not {whom}"
        if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return f"{what} is writable by its group or by others"
        return None

    def problem(self, path: str | os.PathLike[str]) -> str | None:
        """Why ``path`` is no managed file (``None``: it is). A link is judged by the
        link's directory and by what it points to and that file's directory."""
        if os.name == "nt":  # pragma: no cover - ACLs are not read
            return None
        p = Path(path)
        real = Path(os.path.realpath(p))
        checks = [("the file", real), ("its directory", real.parent)]
        if p.is_symlink():
            checks.insert(0, ("the directory of the link", p.parent))
            checks[1] = ("the file the link points to", real)
        for what, q in checks:
            try:
                st = q.stat()
            except OSError as exc:
                return f"{what} cannot be examined ({exc.strerror or exc})"
            found = self._judge(what, st)
            if found is not None:
                return found
        return None


def refuse(config: LoadedConfig, problem: str) -> LoadedConfig:
    """A managed file not loaded: status ``untrusted``, its hooks kept in ``skipped``
    for inspection, an ``untrusted`` warning saying why."""
    sources, files, skipped = [], [], list(config.skipped)
    for sg, file in zip(config.sources, config.files, strict=True):
        diag = Diagnostic(
            code=DiagnosticCode.UNTRUSTED,
            message=f"managed hook file refused: {problem} (a managed file must be owned by "
            "root and writable by no one else, as its directory); not loaded, and nothing "
            "it says switches any hook off",
            severity=Severity.WARNING,
            source=sg.source.label,
        )
        sources.append(attrs.evolve(sg, groups=(), diagnostics=(*sg.diagnostics, diag)))
        if sg.groups:
            skipped.append(attrs.evolve(sg, diagnostics=()))
        files.append(attrs.evolve(file, status="untrusted", handlers=0))
    return attrs.evolve(config, sources=tuple(sources), files=tuple(files), skipped=tuple(skipped))


def load_managed_file(
    path: str | os.PathLike[str],
    load: Callable[..., LoadedConfig],
    *,
    owner: OwnerRule | int | None = None,
    **kw: Any,
) -> tuple[LoadedConfig, bool]:
    """``load(path, scope="managed", **kw)`` when the file passes the owner rule, else
    refused (:func:`refuse`); and whether it passed."""
    config = load(os.fspath(path), scope="managed", **kw)
    problem = OwnerRule.coerce(owner).problem(path) if config.files else None
    if problem is not None:
        return refuse(config, problem), False
    return config, True


def managed_report(config: LoadedConfig) -> dict[str, Any]:
    """What ``check`` and ``doctor`` say of managed hooks: every managed file looked at
    (path, format, status: ``loaded``, ``untrusted`` for refused, ``invalid``...), the
    managed policies in effect with the files they switched off, and why a refused
    file was refused."""
    files = [
        {"path": f.path, "format": f.format, "status": f.status, "handlers": f.handlers}
        for f in config.files
        if f.scope == "managed"
    ]
    managed = {f["path"] for f in files}
    policies: dict[str, list[str]] = {}
    refused: dict[str, str] = {}
    for d in config.diagnostics:
        if d.code is DiagnosticCode.HOOKS_DISABLED:
            said = next((p for p in POLICIES if d.message.startswith(p)), None)
            if said is not None and d.source is not None:
                policies.setdefault(said, []).append(d.source)
        elif d.code is DiagnosticCode.UNTRUSTED and d.source is not None and d.source in managed:
            refused[d.source] = d.message
    for f in files:
        if f["path"] in refused:
            f["why"] = refused[f["path"]]
    return {
        "files": files,
        "policies": [{"policy": p, "switched_off": srcs} for p, srcs in policies.items()],
    }
