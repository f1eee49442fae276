"""Which installed distributions own files inside this ``agent_hooks`` package, and
the message that says so (the slow path of the check in :mod:`._version`: it reads
the metadata of every installed distribution)."""

from __future__ import annotations

import os

__all__ = ["foreign_distributions", "mixed_message"]


def _normalized(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def foreign_distributions(package_dir: str, ours: str) -> dict[str, list[str]]:
    """Every installed distribution other than ``ours`` (a distribution name) that owns files
    inside ``package_dir`` -> those files (paths relative to its site directory, as
    its ``RECORD`` lists them). Reads the metadata of every installed distribution:
    for ``--version`` and for when
    :func:`~agent_hooks._base._version.check_package_dir` finds something off."""
    from importlib import metadata

    here = os.path.realpath(package_dir)
    found: dict[str, list[str]] = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"] or ""
        if _normalized(name) == _normalized(ours):
            continue
        for file in dist.files or ():
            if "agent_hooks" not in file.parts:
                continue
            where = os.path.realpath(str(dist.locate_file(file)))
            if os.path.dirname(where) == here or where.startswith(here + os.sep):
                found.setdefault(name, []).append(str(file))
    return found


def mixed_message(found: dict[str, list[str]], package_dir: str, ours: str) -> str:
    """The message that says which distributions' files are mixed into this package,
    and how to repair the environment."""
    names = sorted(found)
    files = sorted(f for fs in found.values() for f in fs)
    shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
    return (
        f"agent_hooks ({ours}) at {package_dir} has files of another distribution "
        f"mixed in: {', '.join(names)} ({shown}). Those projects install an import "
        f"package named agent_hooks too, and both cannot live in one environment. "
        f"Repair: pip uninstall {' '.join(names)} {ours} && pip install {ours}"
    )
