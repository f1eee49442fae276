"""agent_hooks's own managed layer: the ``*.json`` files of a system directory
(:func:`~._managed.managed_dir`), loaded first as managed hooks by ``discover()``,
``agent-hooks run``, the resident server and ``serve`` (docs/rollout.md, "Managed
hooks")."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from ._load import load
from ._managed import MANAGED_PRECEDENCE, OwnerRule, load_managed_file, managed_dir
from ._snapshot import LoadedConfig, combine

__all__ = ["load_managed_dir"]


def load_managed_dir(
    directory: str | os.PathLike[str] | None = None,
    *,
    trust: Any = None,
    kinds: Any = None,
    owner: OwnerRule | int | None = None,
    suffixes: Sequence[str] = (".json",),
) -> LoadedConfig:
    """agent_hooks's own managed layer: every ``*.json`` file of ``directory`` (default
    :func:`managed_dir`), by name, from precedence :data:`MANAGED_PRECEDENCE`, read as
    ``load()`` reads it (format detected) with scope ``managed``. A file that fails the
    owner rule is refused (:func:`refuse`); none of these files is ever switched off by
    another file."""

    def recipe() -> LoadedConfig:
        return load_managed_dir(directory, trust=trust, kinds=kinds, owner=owner, suffixes=suffixes)

    where = Path(directory) if directory is not None else managed_dir()
    try:
        names = sorted(os.listdir(where))
    except OSError:
        return LoadedConfig(recipe=recipe)
    parts = []
    for i, name in enumerate(n for n in names if n.endswith(tuple(suffixes))):
        path = where / name
        if not (path.is_file() or path.is_symlink()):
            continue
        config, _ = load_managed_file(
            path,
            load,
            owner=owner,
            trust=trust,
            kinds=kinds,
            precedence=MANAGED_PRECEDENCE + i,
            required=True,
        )
        parts.append(config)
    return attrs.evolve(combine(parts), recipe=recipe)
