"""Workspace trust for project hook files.

Hook files that come from a repository (``.claude/settings.json``,
``.deepagents/hooks.json``, ``.hel/hooks.json``, ``.codex/...``, an agent YAML in
the project) run arbitrary commands, so they load only when the workspace is
trusted. Trust is bound to content: the :class:`TrustStore` maps a project's
real path to the SHA-256 of the exact bytes of each of its hook files, so
editing a file revokes its trust until it is granted again.

Which files count as project files is decided from the file itself, never from
where the harness runs: a file inside the caller's project directory, or below any
directory with ``.git``, ``.claude/``, ``.codex/``, ``.deepagents/`` or ``.hel/``
(``_common.file_project``), needs that project's trust. Python modules of a project
are imported only when the project is trusted (:meth:`TrustPolicy.trusts_directory`).

Grants are persistent (the store file), for this process only
(:meth:`TrustStore.grant_session`), or blanket for a headless run
(``TrustPolicy(trust_all=True)``, the ``--trust-project-hooks`` of Deep Agents
Code).

The store file (default ``$XDG_STATE_HOME/agent_hooks/trust.json``, else
``~/.local/state/agent_hooks/trust.json``) is written atomically (temporary file
plus rename, mode 0600) under an exclusive ``flock`` on a sibling lock file; a
writer re-reads the store under the lock and merges, so concurrent grants all
survive. A store that cannot be read, does not parse, or that other users can
write never grants trust: it yields a diagnostic instead.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._base._errors import AgentHooksError
from .._base._files import replace_file, state_home

if TYPE_CHECKING:
    import datetime
    from pathlib import Path

__all__ = ["TrustPolicy", "TrustStore", "TrustStoreError", "default_trust_path"]

STORE_VERSION = 1
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
FILE_SIZE_LIMIT = 1 << 20
"""The largest hook file the loaders read (1 MiB): a larger one never loads, so no
grant bound to one can be in force."""


class TrustStoreError(AgentHooksError, OSError):
    """The trust store could not be updated (unreadable, not writable)."""


def default_trust_path() -> Path:
    """``$XDG_STATE_HOME/agent_hooks/trust.json``, else ``~/.local/state/agent_hooks/trust.json``.

    Raises:
        RuntimeError: the home directory is needed and cannot be determined.
    """
    from pathlib import Path

    return Path(_default_location())


def _default_location() -> str:
    """:func:`default_trust_path` as a string, without importing :mod:`pathlib`
    (``agent-hooks run`` builds a store on every start and reads it only for project files).

    Raises:
        RuntimeError: as ``Path.home()`` does, when the home directory is needed and
            cannot be determined.
    """
    return os.path.join(state_home(), "agent_hooks", "trust.json")


def _now(local: bool = False) -> datetime.datetime:
    """The current time, in UTC (local time with ``local``), for what a write records.

    ``datetime`` is imported here: only writes need it, and loading hooks only reads.
    """
    import datetime

    return datetime.datetime.now() if local else datetime.datetime.now(datetime.timezone.utc)


def _project_key(project_dir: str | os.PathLike[str]) -> str:
    return os.path.realpath(os.fspath(project_dir))


def _relpath(relpath: str) -> str:
    from pathlib import Path

    return Path(relpath).as_posix()


_Projects = dict[str, dict[str, str]]


class TrustStore:
    """Persistent trust grants: project real path -> {relative file path: SHA-256}.

    ``grant(..., persist=False)`` (or :meth:`grant_session`) keeps the grant in
    this object only, for the rest of the process.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self._path: Path | None = None
        self._location: str
        if path is not None:
            from pathlib import Path

            self.path = Path(path)
        else:  # the default: the Path is made on first use
            self._location = _default_location()
        self._session: _Projects = {}

    @property
    def path(self) -> Path:
        """The store file."""
        if self._path is None:
            from pathlib import Path

            self._path = Path(self._location)
        return self._path

    @path.setter
    def path(self, value: Path) -> None:
        self._path = value
        self._location = os.fspath(value)

    def __repr__(self) -> str:
        return f"TrustStore({str(self.path)!r})"

    @staticmethod
    def digest(data: bytes) -> str:
        """The hex SHA-256 of ``data`` (what grants are bound to)."""
        return hashlib.sha256(data).hexdigest()

    # ------------------------------------------------------------- reading

    def _diag(
        self, message: str, code: DiagnosticCode = DiagnosticCode.CONFIG_READ_FAILED
    ) -> Diagnostic:
        return Diagnostic(
            code=code,
            message=message
            + "; it grants no trust until fixed (re-grant with `agent-hooks trust`)",
            severity=Severity.WARNING,
            source=str(self.path),
        )

    def read(self) -> tuple[_Projects, tuple[Diagnostic, ...]]:
        """The persistent grants, and what was wrong with the store (absent: no grants, no diagnostic)."""
        try:
            with open(self._location, "rb") as f:
                st = os.fstat(f.fileno())
                raw = f.read()
        except FileNotFoundError:
            return {}, ()
        except OSError as exc:
            return {}, (self._diag(f"trust store cannot be read ({exc.strerror or exc})"),)
        if hasattr(os, "geteuid") and (st.st_uid != os.geteuid() or st.st_mode & 0o022):
            return {}, (
                self._diag(
                    "trust store is writable by other users or owned by someone else",
                    DiagnosticCode.UNTRUSTED,
                ),
            )
        return self._parse(raw)

    def _parse(self, raw: bytes) -> tuple[_Projects, tuple[Diagnostic, ...]]:
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            return {}, (
                self._diag(f"trust store is corrupt ({exc})", DiagnosticCode.INVALID_CONFIG),
            )
        projects = doc.get("projects") if isinstance(doc, dict) else None
        if not isinstance(projects, dict):
            return {}, (
                self._diag(
                    "trust store is corrupt (no 'projects' object)", DiagnosticCode.INVALID_CONFIG
                ),
            )
        result: _Projects = {}
        diags: list[Diagnostic] = []
        for key, entry in projects.items():
            files = entry.get("files") if isinstance(entry, dict) else None
            if not isinstance(files, dict) or not all(
                isinstance(v, str) and _SHA256.match(v) for v in files.values()
            ):
                diags.append(
                    self._diag(
                        f"trust store entry for {key!r} is corrupt", DiagnosticCode.INVALID_CONFIG
                    )
                )
                continue
            result[key] = {str(k): v for k, v in files.items()}
        return result, tuple(diags)

    def check(
        self, project_dir: str | os.PathLike[str], relpath: str, sha: str
    ) -> tuple[bool, tuple[Diagnostic, ...]]:
        """Whether ``relpath`` in ``project_dir`` with content ``sha`` is trusted, and
        what was wrong with the store."""
        key, rel = _project_key(project_dir), _relpath(relpath)
        if self._session.get(key, {}).get(rel) == sha:
            return True, ()
        projects, diags = self.read()
        return projects.get(key, {}).get(rel) == sha, diags

    def is_trusted(self, project_dir: str | os.PathLike[str], relpath: str, sha: str) -> bool:
        """Whether ``relpath`` (relative to the project) with content ``sha`` is trusted."""
        return self.check(project_dir, relpath, sha)[0]

    def trusted_files(self, project_dir: str | os.PathLike[str]) -> dict[str, str]:
        """Every trusted file of a project (persistent and session grants) -> its SHA-256."""
        key = _project_key(project_dir)
        projects, _ = self.read()
        return {**projects.get(key, {}), **self._session.get(key, {})}

    # ------------------------------------------------------------- writing

    def grant(
        self,
        project_dir: str | os.PathLike[str],
        files: Mapping[str, str],
        *,
        persist: bool = True,
    ) -> None:
        """Trust ``files`` (relative path -> SHA-256 of the exact bytes) of a project.

        Other files of the project keep their grants. ``persist=False`` grants for
        this process only.

        Raises:
            TrustStoreError: the store could not be written (``persist=True``).
            ValueError: a value is not a hex SHA-256.
        """
        for rel, sha in files.items():
            if not isinstance(sha, str) or not _SHA256.match(sha):
                raise ValueError(f"{rel}: {sha!r} is not a hex SHA-256 digest")
        key = _project_key(project_dir)
        entries = {_relpath(k): v for k, v in files.items()}
        if not persist:
            self._session.setdefault(key, {}).update(entries)
            return

        def update(projects: dict[str, Any]) -> None:
            entry = projects.get(key)
            if not isinstance(entry, dict) or not isinstance(entry.get("files"), dict):
                entry = {"files": {}}
            entry["files"].update(entries)
            entry["updated"] = _now().isoformat()
            projects[key] = entry

        self._update(update)

    def grant_session(self, project_dir: str | os.PathLike[str], files: Mapping[str, str]) -> None:
        """Trust ``files`` for the rest of this process only (never written)."""
        self.grant(project_dir, files, persist=False)

    def revoke(self, project_dir: str | os.PathLike[str], *, persist: bool = True) -> None:
        """Forget every grant of a project (session grants, and the stored ones with ``persist``).

        Raises:
            TrustStoreError: the store could not be written.
        """
        key = _project_key(project_dir)
        self._session.pop(key, None)
        if persist and self.path.exists():
            self._update(lambda projects: projects.pop(key, None))

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        lock_path = self.path.with_name(self.path.name + ".lock")
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if sys.platform != "win32":
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def _update(self, change: Callable[[dict[str, Any]], object]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            with self._locked():
                doc = self._read_for_update()
                change(doc["projects"])
                self._write(doc)
        except OSError as exc:
            if isinstance(exc, TrustStoreError):
                raise
            raise TrustStoreError(f"cannot update trust store {self.path}: {exc}") from exc

    def _read_for_update(self) -> dict[str, Any]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {"version": STORE_VERSION, "projects": {}}
        except OSError as exc:
            raise TrustStoreError(f"cannot read trust store {self.path}: {exc}") from exc
        try:
            doc = json.loads(raw.decode("utf-8"))
            if not isinstance(doc, dict) or not isinstance(doc.get("projects"), dict):
                raise ValueError("no 'projects' object")
        except ValueError:
            # Corrupt: keep it aside for inspection and start afresh.
            stamp = _now(local=True).strftime("%Y%m%d%H%M%S")
            with contextlib.suppress(OSError):
                os.replace(self.path, self.path.with_name(f"{self.path.name}.corrupt-{stamp}"))
            return {"version": STORE_VERSION, "projects": {}}
        doc["version"] = STORE_VERSION
        return doc

    def _write(self, doc: Mapping[str, Any]) -> None:
        data = json.dumps(doc, indent=2, sort_keys=True).encode("utf-8") + b"\n"
        replace_file(self.path, data, lambda fd: os.fchmod(fd, 0o600))


@attrs.define
class TrustPolicy:
    """How loaders decide whether project hook files may load.

    A file is trusted when ``trust_all`` is set (a headless run that opted in:
    ``--trust-project-hooks``), when this policy or its store holds a session
    grant for its exact content, or when the store holds a persistent one.
    ``store=None`` keeps no persistent grants at all.

    ``honor_hel_trust_file`` (off by default; ``--honor-hel-trust-file`` on the
    command line) also accepts hel's own ``.hel/hooks-trust.json`` for
    ``.hel/hooks.json``. That file lives inside the repository, so whoever writes
    the repository can write it: a repository can ship one that trusts itself for a
    checkout path it can guess (``/workspace/repo``, a CI runner's path), and its
    hooks would then run without anyone reviewing them. Turn it on only where
    hel itself manages that file and the checkout path cannot be predicted.
    """

    store: TrustStore | None = attrs.Factory(TrustStore)
    trust_all: bool = False
    honor_hel_trust_file: bool = False
    """Also trust ``.hel/hooks.json`` when hel's in-repository ``.hel/hooks-trust.json``
    names this checkout's real path and the file's SHA-256 (risky: see above)."""
    _session: _Projects = attrs.field(factory=dict, init=False, repr=False)

    @classmethod
    def coerce(cls, value: TrustPolicy | TrustStore | bool | None) -> TrustPolicy:
        """``None``: the default store; ``True``: trust everything; ``False``: trust
        nothing; a :class:`TrustStore`: that store."""
        if isinstance(value, TrustPolicy):
            return value
        if isinstance(value, TrustStore):
            return cls(store=value)
        if value is True:
            return cls(store=None, trust_all=True)
        if value is False:
            return cls(store=None)
        return cls()

    def check(
        self, project_dir: str | os.PathLike[str], relpath: str, sha: str
    ) -> tuple[bool, tuple[Diagnostic, ...]]:
        """Whether the file is trusted, and what was wrong with the store."""
        if self.trust_all:
            return True, ()
        if self._session.get(_project_key(project_dir), {}).get(_relpath(relpath)) == sha:
            return True, ()
        if self.store is None:
            return False, ()
        return self.store.check(project_dir, relpath, sha)

    def is_trusted(self, project_dir: str | os.PathLike[str], relpath: str, sha: str) -> bool:
        """Whether the file is trusted."""
        return self.check(project_dir, relpath, sha)[0]

    def trusts_directory(self, project_dir: str | os.PathLike[str]) -> bool:
        """Whether Python code in a project directory may be imported for hook files that
        lie outside it (a user-level file naming ``module:function`` that only the project
        provides).

        True with ``trust_all``, or when the project holds a hook file trusted for the
        content it has now (a session or stored grant whose file still hashes to the
        granted SHA-256): trusting a project's hooks trusts the code they run, and editing
        the file withdraws both. Nothing else makes a directory's code importable.
        """
        if self.trust_all:
            return True
        key = _project_key(project_dir)
        granted = set(self._session.get(key, {}))
        if self.store is not None:
            granted |= set(self.store.trusted_files(key))
        for rel in sorted(granted):
            try:
                with open(os.path.join(key, *rel.split("/")), "rb") as f:
                    data = f.read(FILE_SIZE_LIMIT + 1)
            except OSError:
                continue
            if len(data) <= FILE_SIZE_LIMIT and self.is_trusted(key, rel, TrustStore.digest(data)):
                return True
        return False

    def grant(
        self,
        project_dir: str | os.PathLike[str],
        files: Mapping[str, str],
        *,
        persist: bool = True,
    ) -> None:
        """Trust ``files`` (relative path -> SHA-256), persistently when the policy has
        a store and ``persist`` is true, else for this policy's lifetime."""
        if persist and self.store is not None:
            self.store.grant(project_dir, files)
        else:
            self.grant_session(project_dir, files)

    def grant_session(self, project_dir: str | os.PathLike[str], files: Mapping[str, str]) -> None:
        """Trust ``files`` for as long as this policy object lives."""
        for rel, sha in files.items():
            if not isinstance(sha, str) or not _SHA256.match(sha):
                raise ValueError(f"{rel}: {sha!r} is not a hex SHA-256 digest")
        entry = self._session.setdefault(_project_key(project_dir), {})
        entry.update({_relpath(k): v for k, v in files.items()})

    def revoke(self, project_dir: str | os.PathLike[str], *, persist: bool = True) -> None:
        """Forget the project's session grants, and its stored ones with ``persist``."""
        self._session.pop(_project_key(project_dir), None)
        if self.store is not None:
            self.store.revoke(project_dir, persist=persist)


TrustArg = TrustPolicy | TrustStore | bool | None
"""What ``trust=`` accepts everywhere: a policy, a store, ``True`` (trust every
project file), ``False`` (none) or ``None`` (the default store)."""
