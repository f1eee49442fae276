"""Lazy attribute loading for packages (PEP 562), so that a short-lived process
only imports the modules whose names it touches."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

__all__ = ["lazy_module", "submodule"]


def submodule(package: str, name: str) -> ModuleType:
    """Import ``package.name`` (``name`` relative, without the leading dot) and return it.

    Same result as ``importlib.import_module(f".{name}", package)``, through the
    ``import`` statement's machinery (``__import__``): ``python -X importtime`` lists
    the modules imported this way, and not those :func:`importlib.import_module`
    imports, so lazily imported modules would be missing from its report.

    Raises:
        ImportError: as the import statement does.
    """
    full = f"{package}.{name}"
    __import__(full)
    return sys.modules[full]


def lazy_module(
    package: str, namespace: dict[str, Any], table: Mapping[str, str], public: list[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for a package whose names live in submodules.

    ``table`` maps each name to its submodule (relative, without the dot; dotted for
    a module of a subpackage). A name is imported on first access and then cached in
    ``namespace`` (the package's globals). Unknown names raise
    :class:`AttributeError` as usual.
    """

    def getattr_(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(submodule(package, module), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(public))

    return getattr_, dir_
