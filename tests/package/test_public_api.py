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


# ------------------------------------------------------------- one list of names


def _listed() -> dict[str, str]:
    """The public names as the package's ``TYPE_CHECKING`` block lists them."""
    from agent_hooks._base._lazy import lazy_exports_of

    with open(agent_hooks.__file__, encoding="utf-8") as f:
        return lazy_exports_of(f.read())


def test_all_is_the_list_in_the_type_checking_block() -> None:
    listed = _listed()
    assert len(listed) > 200  # (the block was found and read)
    assert sorted(listed) == PUBLIC


@pytest.mark.parametrize("name", sorted(_listed()))
def test_each_listed_name_comes_from_its_module(name: str) -> None:
    import importlib

    module = importlib.import_module(f"agent_hooks.{_listed()[name]}")
    assert getattr(agent_hooks, name) is getattr(module, name)


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'NoSuchThing'"):
        agent_hooks.NoSuchThing  # noqa: B018


def test_dir_lists_the_public_names_and_no_helpers() -> None:
    listed = set(dir(agent_hooks))
    assert set(PUBLIC) <= listed
    assert not {"TYPE_CHECKING", "install_lazy_exports", "annotations"} & listed


def test_without_its_source_the_package_imports_every_name_at_once(tmp_path: Any) -> None:
    """A byte-code-only install cannot read the list: every name is imported eagerly."""
    import subprocess
    import sys

    script = (
        "import builtins\n"
        "real_open = builtins.open\n"
        "def no_init_source(path, *args, **kwargs):\n"
        "    if str(path).endswith('agent_hooks/__init__.py'):\n"
        "        raise OSError('no source')\n"
        "    return real_open(path, *args, **kwargs)\n"
        "builtins.open = no_init_source\n"
        "import agent_hooks\n"
        "builtins.open = real_open\n"
        "assert 'HookRegistry' in vars(agent_hooks)\n"
        "assert 'PreToolUseInput' in vars(agent_hooks)\n"
        "assert sorted(agent_hooks.__all__) == agent_hooks.__all__\n"
        "assert 'HookRegistry' in agent_hooks.__all__ and len(agent_hooks.__all__) > 200\n"
        "assert 'TYPE_CHECKING' not in vars(agent_hooks)\n"
        "assert not {'VERSION', 'annotations', 'install_lazy_exports'} & set(agent_hooks.__all__)\n"
        "namespace = {}\n"
        "exec('from agent_hooks import *', namespace)\n"
        "assert set(namespace) - {'__builtins__'} == set(agent_hooks.__all__)\n"
        "print('eager')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "eager"


def test_lazy_exports_reads_only_the_type_checking_block() -> None:
    from agent_hooks._base._lazy import lazy_exports_of

    source = (
        "from typing import TYPE_CHECKING\n"
        "from .a import Hidden\n"
        "if TYPE_CHECKING or not install():\n"
        "    from .b import One as One\n"
        "    from .c._d import Two as Two\n"
    )
    assert lazy_exports_of(source) == {"One": "b", "Two": "c._d"}


# ------------------------------------------------------------- deprecated names

DEPRECATED = dict(agent_hooks._DEPRECATED)  # type: ignore[attr-defined]


def test_the_deprecated_names_are_the_ones_that_left() -> None:
    """The per-harness loaders, the raw tables and the dialect constants, among others;
    none is public any more (``__all__``, ``dir()``, the ``TYPE_CHECKING`` list)."""
    assert {"load_claude", "load_codex_dir", "load_cursor", "CAPABILITIES", "CLAUDE"} <= set(
        DEPRECATED
    )
    assert set(DEPRECATED).isdisjoint(PUBLIC)
    assert set(DEPRECATED).isdisjoint(dir(agent_hooks))
    assert set(DEPRECATED).isdisjoint(_listed())


@pytest.mark.parametrize("name", sorted(DEPRECATED))
def test_a_deprecated_name_warns_and_still_resolves(name: str) -> None:
    import importlib

    module, attribute, instead = DEPRECATED[name]
    with pytest.warns(DeprecationWarning) as caught:
        value = getattr(agent_hooks, name)
    (warning,) = caught
    assert f"agent_hooks.{name} is deprecated" in str(warning.message)
    assert instead in str(warning.message)
    assert warning.filename == __file__  # (the warning points at the code that asked)
    assert value is getattr(importlib.import_module(f"agent_hooks.{module}"), attribute)


def test_the_per_harness_loaders_name_load_as_their_replacement() -> None:
    loaders = [n for n in DEPRECATED if n.startswith("load_")]
    assert len(loaders) == 20
    assert {DEPRECATED[n][2] for n in loaders} == {"agent_hooks.load(path, harness=...)"}


def test_from_import_of_a_deprecated_name_warns() -> None:
    with pytest.warns(DeprecationWarning, match="get_dialect"):
        from agent_hooks import CLAUDE
    from agent_hooks._wire._dialects import get_dialect

    assert CLAUDE is get_dialect("claude")


def test_without_its_source_the_package_still_serves_deprecated_names() -> None:
    """The eager fallback (a byte-code-only install) warns for them too."""
    import subprocess
    import sys

    script = (
        "import builtins, warnings\n"
        "real_open = builtins.open\n"
        "def no_init_source(path, *args, **kwargs):\n"
        "    if str(path).endswith('agent_hooks/__init__.py'):\n"
        "        raise OSError('no source')\n"
        "    return real_open(path, *args, **kwargs)\n"
        "builtins.open = no_init_source\n"
        "import agent_hooks\n"
        "builtins.open = real_open\n"
        "assert 'load_claude' not in agent_hooks.__all__\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    fn = agent_hooks.load_claude\n"
        "assert [w.category for w in caught] == [DeprecationWarning], caught\n"
        "from agent_hooks._config._compat import load_claude\n"
        "assert fn is load_claude\n"
        "print('served')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "served"
