"""The public surface: ``agent_hooks.__all__`` is complete, clean and documented."""

from __future__ import annotations

import inspect
import types
import typing
from collections import Counter
from typing import Any

import pytest

import agent_hooks

PUBLIC = list(agent_hooks.__all__)


def test_all_is_a_list_of_strings() -> None:
    assert PUBLIC
    assert all(isinstance(name, str) for name in PUBLIC)


@pytest.mark.parametrize("name", PUBLIC)
def test_every_name_exists(name: str) -> None:
    assert hasattr(agent_hooks, name)


def test_no_private_names() -> None:
    assert [n for n in PUBLIC if n.startswith("_")] == []


def test_no_module_objects() -> None:
    modules = [n for n in PUBLIC if isinstance(getattr(agent_hooks, n), types.ModuleType)]
    assert modules == []


def test_no_private_module_is_exported() -> None:
    private = {
        name
        for name, value in vars(agent_hooks).items()
        if isinstance(value, types.ModuleType) and name.startswith("_")
    }
    assert "_wire" in private  # the check below would be vacuous otherwise
    assert private.isdisjoint(PUBLIC)


def test_no_duplicates() -> None:
    assert [n for n, count in Counter(PUBLIC).items() if count > 1] == []


def test_star_import_gives_exactly_all() -> None:
    namespace: dict[str, Any] = {}
    exec("from agent_hooks import *", namespace)
    namespace.pop("__builtins__")
    assert set(namespace) == set(PUBLIC)


def _own_doc(obj: Any) -> str | None:
    """A class's own docstring (not inherited), or a function's."""
    if inspect.isclass(obj):
        doc = obj.__dict__.get("__doc__")
        return doc if isinstance(doc, str) else None
    return obj.__doc__ if isinstance(obj.__doc__, str) else None


def _documentable(obj: Any) -> bool:
    """Classes and functions; not type aliases (``Callable[...]`` cannot carry a
    docstring, and Python 3.10 reports such aliases as classes)."""
    if typing.get_origin(obj) is not None:
        return False
    return inspect.isclass(obj) or inspect.isfunction(obj)


DOCUMENTED = [n for n in PUBLIC if _documentable(getattr(agent_hooks, n))]


def test_classes_and_functions_are_found() -> None:
    assert "HookRegistry" in DOCUMENTED
    assert "decode_output" in DOCUMENTED
    assert "PreToolUseInput" in DOCUMENTED


@pytest.mark.parametrize("name", DOCUMENTED)
def test_public_class_or_function_has_a_docstring(name: str) -> None:
    doc = _own_doc(getattr(agent_hooks, name))
    assert doc is not None and doc.strip(), f"{name} has no docstring"


def test_module_has_a_docstring_and_version() -> None:
    assert agent_hooks.__doc__ and agent_hooks.__doc__.strip()
    assert isinstance(agent_hooks.__version__, str)
