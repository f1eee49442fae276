"""The package's layers: each private subpackage imports only itself and the layers
below it, and no module imports another in a cycle (its own imports, read from the
source: function-level and ``TYPE_CHECKING`` imports count too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "agent_hooks"

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


def _imports(name: str, path: Path) -> set[str]:
    """The package modules ``name`` imports (``from pkg import mod`` names the module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
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
