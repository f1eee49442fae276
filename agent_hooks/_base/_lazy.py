"""Lazy public names (PEP 562), read off one list.

The public package lists every name once, as ``from .module import Name as Name``
lines inside ``if TYPE_CHECKING or not install_lazy_exports(__name__):``. Type
checkers read those imports; at run time :func:`install_lazy_exports` reads the same
lines from the package's source and installs ``__getattr__``, ``__dir__`` and
``__all__`` from them, so a name's module is imported on its first use and a
short-lived process only pays for what it touches. This is how anyio keeps its
public names in one place.

Names that left the list are served from a second table, ``deprecated`` (name ->
module, attribute, what to use instead): each access warns with a
``DeprecationWarning`` naming the replacement and returns the object from where it
lives now; they are not in ``__all__`` or ``dir()``.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # (typing is not imported: ``import agent_hooks`` stays light, and
# the resident server's client imports this package before anything else)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from types import ModuleType
    from typing import Any

    Deprecated = Mapping[str, tuple[str, str, str]]
    """Name -> (module relative to the package, attribute, what to use instead)."""

__all__ = ["install_lazy_exports", "lazy_exports_of", "submodule"]


def submodule(package: str, name: str) -> ModuleType:
    """Import ``package.name`` (``name`` relative, without the leading dot) and return it.

    Same result as ``importlib.import_module(f".{name}", package)``, through the
    ``import`` statement's machinery (``__import__``), so that ``python -X importtime``
    lists the modules imported this way too.

    Raises:
        ImportError: as the import statement does.
    """
    full = f"{package}.{name}"
    __import__(full)
    return sys.modules[full]


def lazy_exports_of(source: str) -> dict[str, str]:
    """The public names listed in ``source`` (a package's ``__init__``) and the module
    (relative, without the leading dot) each comes from: the ``from .module import
    Name as Name`` lines of its ``if TYPE_CHECKING ...:`` block.

    Raises:
        SyntaxError: the source does not parse.
    """
    import ast  # (only here: a process that has the source pays for the parser once)

    exports: dict[str, str] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)):
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.level == 1 and stmt.module:
                for alias in stmt.names:
                    exports[alias.asname or alias.name] = stmt.module
    return exports


def install_lazy_exports(package: str, deprecated: Deprecated | None = None) -> bool:
    """Give ``package`` a ``__getattr__`` that imports each listed name on first use,
    a ``__dir__`` and an ``__all__``, all from the one list in its source (read on
    first use, not at import); the helper names the list needs (``TYPE_CHECKING``, this
    function) are removed again. A name of ``deprecated`` imports with a warning.

    Returns ``False`` when the package's source is not there, as in a byte-code-only
    install: the caller then imports every name at once, and ``__all__`` is then
    every name bound after this call (worked out on first use).
    """
    module = sys.modules[package]
    namespace = vars(module)
    try:
        with open(str(getattr(module, "__file__", None)), encoding="utf-8") as f:
            source = f.read()
    except (OSError, ValueError):
        source = ""
    for helper in ("TYPE_CHECKING", "install_lazy_exports"):
        namespace.pop(helper, None)
    old = deprecated or {}
    if "TYPE_CHECKING" not in source:
        _install_eager_all(package, namespace, old, before=set(namespace))
        return False
    # (parsed on first use: a process that only imports the package, such as the
    # resident server's client, never pays for the parser)
    _install(package, namespace, old, lambda: lazy_exports_of(source))
    return True


def _deprecated(package: str, name: str, deprecated: Deprecated) -> Any:
    """``package.name`` from the table of deprecated names, with its warning.

    Raises:
        AttributeError: ``name`` is not in the table either.
    """
    if name not in deprecated:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    module, attribute, instead = deprecated[name]
    import warnings

    warnings.warn(
        f"{package}.{name} is deprecated and no longer public; use {instead}",
        DeprecationWarning,
        stacklevel=3,  # (the code that asked for the name, past __getattr__)
    )
    return getattr(submodule(package, module), attribute)


def _install(
    package: str,
    namespace: dict[str, Any],
    deprecated: Deprecated,
    read: Callable[[], Mapping[str, str]],
) -> None:
    found: list[Mapping[str, str]] = []

    def exports() -> Mapping[str, str]:
        if not found:
            found.append(read())
        return found[0]

    def __getattr__(name: str) -> Any:
        if name == "__all__":
            names = sorted(exports())
            namespace["__all__"] = names
            return names
        module = exports().get(name)
        if module is None:
            return _deprecated(package, name, deprecated)
        value = getattr(submodule(package, module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({n for n in namespace if n.startswith("__")} | set(exports()))

    namespace["__getattr__"] = __getattr__
    namespace["__dir__"] = __dir__


def _install_eager_all(
    package: str, namespace: dict[str, Any], deprecated: Deprecated, before: set[str]
) -> None:
    """``__all__`` for a package whose names are imported at once: what the imports
    after this call bind (read on first access, when they have run); the deprecated
    names are served as by the lazy ``__getattr__``."""

    def __getattr__(name: str) -> Any:
        if name == "__all__":
            names = sorted(n for n in set(namespace) - before if not n.startswith("_"))
            namespace["__all__"] = names
            return names
        return _deprecated(package, name, deprecated)

    namespace["__getattr__"] = __getattr__
