"""Lazy attribute loading for packages (PEP 562), so that a short-lived process
only imports the modules whose names it touches."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_module"]


def lazy_module(
    package: str, namespace: dict[str, Any], table: Mapping[str, str], public: list[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for a package whose names live in submodules.

    ``table`` maps each name to its submodule (relative, without the dot). A name is
    imported on first access and then cached in ``namespace`` (the package's
    globals). Unknown names raise :class:`AttributeError` as usual.
    """

    def getattr_(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(public))

    return getattr_, dir_
