"""The package's layers: each private subpackage imports only itself and the layers
below it, and no module imports another in a cycle (its own imports, read from the
source: function-level and ``TYPE_CHECKING`` imports count too, and so do imports by
a call with string literals: ``importlib.import_module("agent_hooks._x")``,
``import_module(".x", __package__)``, ``__import__("agent_hooks._x")`` and the
package's own ``submodule(__package__, "x")``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "agent_hooks"

LAYERS = ["_base", "_events", "_wire", "_handlers", "_dispatch", "_config", "_bridges"]
"""Bottom first. The public face (``__init__``, ``__main__``, ``claude_agent_sdk``,
``otel``, ``testing``) stands above them all."""

PUBLIC_FACE = {
    "agent_hooks",
    "agent_hooks.__main__",
    "agent_hooks.claude_agent_sdk",
    "agent_hooks.otel",
    "agent_hooks.testing",
    # the framework adapters (issue 22), each importing its framework
    "agent_hooks.langchain",
    "agent_hooks.pydantic_ai",
    "agent_hooks.openai_agents",
    "agent_hooks.google_adk",
    "agent_hooks.strands",
    # issue 33
    "agent_hooks.semantic_kernel",
    "agent_hooks.agno",
    "agent_hooks.haystack",
    "agent_hooks.autogen",
    "agent_hooks.agent_framework",
    "agent_hooks.crewai",
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


_IMPORT_CALLS = {"import_module", "__import__"}
"""Calls that import the module their first argument names (``importlib``'s and the
builtin), with an optional package for a relative name as the second."""


def _literal(node: ast.expr, name: str, package: str) -> str | None:
    """A string literal's value; ``__name__``/``__package__`` stand for their value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id in {"__name__", "__package__"}:
        return name if node.id == "__name__" else package
    return None


def _called_import(call: ast.Call, name: str, package: str) -> str | None:
    """The module a call imports when its arguments are literals, else ``None``."""
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    args = [_literal(a, name, package) for a in call.args[:2]]
    if called in _IMPORT_CALLS and args and args[0]:
        target, anchor = args[0], args[1] if len(args) > 1 else None
        if not target.startswith("."):
            return target
        if anchor is None:
            return None
        dots = len(target) - len(target.lstrip("."))
        base = anchor.split(".")[: len(anchor.split(".")) - dots + 1]
        return ".".join([*base, target.lstrip(".")] if target.lstrip(".") else base)
    if called == "submodule" and len(args) == 2 and args[0] and args[1]:
        return f"{args[0]}.{args[1]}"
    return None


def _imports(name: str, path: Path, source: str | None = None) -> set[str]:
    """The package modules ``name`` imports (``from pkg import mod`` names the module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    text = path.read_text(encoding="utf-8") if source is None else source
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call):
            target = _called_import(node, name, package)
            if target in MODULES:
                found.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in MODULES:
                    found.add(f"{target}.{alias.name}")
                elif target in MODULES:
                    found.add(target)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in MODULES)
    found.discard(name)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(name: str) -> int:
    if name in PUBLIC_FACE:
        return len(LAYERS)
    part = name.split(".")[1]
    assert part in LAYERS, f"{name} belongs to no layer; add it to one of {LAYERS}"
    return LAYERS.index(part)


def test_every_module_is_in_a_layer() -> None:
    for name in MODULES:
        _layer(name)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_only_its_own_layer_and_below(name: str) -> None:
    upward = sorted(t for t in GRAPH[name] if _layer(t) > _layer(name))
    assert not upward, (
        f"{name} (layer {LAYERS[_layer(name)] if _layer(name) < len(LAYERS) else 'public'}) imports upward: {upward}"
    )


def test_no_module_reaches_the_public_package() -> None:
    inward = sorted(
        n for n, targets in GRAPH.items() if "agent_hooks" in targets and n not in PUBLIC_FACE
    )
    assert not inward, (
        f"modules importing the public package (import what you need from its layer): {inward}"
    )


def _cycle() -> list[str] | None:
    """One import cycle, as the list of modules around it, or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(GRAPH[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(GRAPH):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_no_import_cycle() -> None:
    cycle = _cycle()
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    saved = dict(GRAPH)
    try:
        GRAPH["agent_hooks._base._errors"] = {"agent_hooks._base._diagnostics"}
        GRAPH["agent_hooks._base._diagnostics"] = {"agent_hooks._base._errors"}
        assert _cycle() is not None
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


@pytest.mark.parametrize(
    "call",
    [
        'importlib.import_module("agent_hooks._bridges._payload")',
        'import_module("agent_hooks._bridges._payload")',
        'importlib.import_module("..._bridges._payload", __name__)',
        'importlib.import_module(".._bridges._payload", __package__)',
        '__import__("agent_hooks._bridges._payload")',
        'submodule("agent_hooks._bridges", "_payload")',
    ],
)
def test_an_import_by_a_call_with_a_literal_counts(call: str) -> None:
    name = "agent_hooks._base._errors"
    source = f"import importlib\n\ndef late():\n    return {call}\n"
    found = _imports(name, MODULES[name], source)
    assert found == {"agent_hooks._bridges._payload"}
    upward = [t for t in found if _layer(t) > _layer(name)]
    assert upward, "an upward import by a call is an upward import"


def test_an_import_by_a_call_without_a_literal_is_not_guessed() -> None:
    name = "agent_hooks._base._errors"
    source = "import importlib\n\ndef late(m):\n    return importlib.import_module(m)\n"
    assert _imports(name, MODULES[name], source) == set()
