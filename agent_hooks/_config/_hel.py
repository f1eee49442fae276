"""The small harness of seed 001 (``hel``): ``{project}/.hel/hooks.json``.

Claude Code's shape, dialect ``hel`` (exit 2 reads stderr only; non-zero exits
fail open). The file is project-scoped (precedence 200) and loads only when
trusted by the agent_hooks trust store. hel's own ``.hel/hooks-trust.json``
(this project's real path and the SHA-256 of the exact bytes read) grants trust
only when the caller opts in (``TrustPolicy(honor_hel_trust_file=True)``,
``--honor-hel-trust-file``): it lives inside the repository, so a repository
could ship one that trusts itself. hel runs handlers one after another and stops
at the first deny: build the registry with ``execution={"PreToolUse": "chained"}``
and ``stop_on_block=True`` for that behaviour.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._handlers._kinds import HandlerKinds
from .._wire._dialects import HEL
from ._claude_format import hooks_file_builder
from ._common import (
    MAX_CONFIG_BYTES,
    HookFile,
    Reading,
    check_document,
    json_has_hooks,
    load_source,
    read_bytes,
)
from ._snapshot import LoadedConfig
from ._trust import TrustArg, TrustPolicy

__all__ = ["hel_trust_file_grants", "load_hel"]


_PATH_KEYS = ("project", "path", "project_path", "root", "project_dir")
_HASH_KEYS = ("sha256", "hash", "sha", "config_sha256", "digest")


def hel_trust_file_grants(project_dir: str | os.PathLike[str], sha: str) -> bool:
    """Whether hel's ``.hel/hooks-trust.json`` trusts this project's config content.

    Accepted shapes: one object, a list of objects, or ``{"projects": [...]}``,
    each naming the project's real path (absolute) and the config's SHA-256.
    An entry only grants trust for the exact absolute real path of this checkout.
    The file lives in the repository, as hel keeps it, so loaders consult it only
    when the caller opts in (``honor_hel_trust_file``).
    """
    path = Path(project_dir) / ".hel" / "hooks-trust.json"
    try:
        raw = read_bytes(os.fspath(path))
        if len(raw) > MAX_CONFIG_BYTES:
            return False
        doc = json.loads(raw.decode("utf-8"))
        check_document(doc)
    except (OSError, ValueError, RecursionError):  # (ConfigTooLarge is a ValueError)
        return False
    real = os.path.realpath(os.fspath(project_dir))
    if isinstance(doc, dict) and isinstance(doc.get("projects"), list):
        doc = doc["projects"]
    entries = doc if isinstance(doc, list) else [doc]
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        paths = [entry.get(k) for k in _PATH_KEYS if isinstance(entry.get(k), str)]
        hashes = [entry.get(k) for k in _HASH_KEYS if isinstance(entry.get(k), str)]
        # Only absolute paths count: a relative one ("." or "..") would let any clone of a
        # repository that ships its own trust file trust itself wherever it is checked out.
        if any(os.path.isabs(p) and os.path.realpath(p) == real for p in paths if p) and any(
            h.lower().removeprefix("sha256:") == sha for h in hashes if h
        ):
            return True
    return False


_FILE = HookFile(format="hel", dialect=HEL, builder=hooks_file_builder, probe=json_has_hooks)


def load_hel(
    project_dir: str | os.PathLike[str],
    *,
    path: str | os.PathLike[str] | None = None,
    precedence: int | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    honor_hel_trust_file: bool | None = None,
    data: bytes | None = None,
) -> LoadedConfig:
    """``{project_dir}/.hel/hooks.json`` (or ``path``), when the workspace is trusted.

    ``honor_hel_trust_file``: also accept hel's in-repository ``.hel/hooks-trust.json``
    (``None``, the default: as the trust policy's
    :attr:`~agent_hooks.TrustPolicy.honor_hel_trust_file` says, off unless opted in).
    """
    pdir = os.fspath(project_dir)
    label = os.fspath(path) if path is not None else os.path.join(pdir, ".hel", "hooks.json")
    if honor_hel_trust_file is None:
        honor_hel_trust_file = isinstance(trust, TrustPolicy) and trust.honor_hel_trust_file
    extra = (lambda sha: hel_trust_file_grants(pdir, sha)) if honor_hel_trust_file else None
    config, _ = load_source(
        _FILE,
        Reading(
            path=label,
            scope="project",
            project_dir=pdir,
            precedence=precedence,
            trust=trust,
            kinds=kinds,
            data=data,
            extra_trust=extra,
            extra_trust_status="hel-trust-file",
        ),
    )
    file = config.files[0] if config.files else None
    if (
        not honor_hel_trust_file
        and file is not None
        and file.status == "untrusted"
        and file.sha256 is not None
        and hel_trust_file_grants(pdir, file.sha256)
    ):
        note = Diagnostic(
            code=DiagnosticCode.UNTRUSTED,
            message=(
                f"{os.path.join(pdir, '.hel', 'hooks-trust.json')} would trust this content, but "
                "it lives in the repository and is ignored unless you opt in "
                "(TrustPolicy(honor_hel_trust_file=True), --honor-hel-trust-file)"
            ),
            severity=Severity.INFO,
            source=label,
        )
        sg = config.sources[0]
        config = attrs.evolve(
            config, sources=(attrs.evolve(sg, diagnostics=(*sg.diagnostics, note)),)
        )
    return config


def load_hel_file(
    path: str,
    *,
    scope: str | None = None,
    project_dir: str | None = None,
    precedence: int | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    data: bytes | None = None,
) -> LoadedConfig:
    """hel's ``.hel/hooks.json`` by its path: always project content (the project is
    ``project_dir``, else the directory above ``.hel/``)."""
    project = project_dir or os.path.dirname(os.path.dirname(os.path.abspath(path)))
    return load_hel(project, path=path, trust=trust, precedence=precedence, kinds=kinds, data=data)


def load_hel_dir(
    project_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
) -> LoadedConfig:
    """hel's one location, ``{project_dir}/.hel/hooks.json`` (none without a project)."""
    if project_dir is None:
        return LoadedConfig()
    return load_hel(project_dir, trust=trust, kinds=kinds)
