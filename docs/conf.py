"""Sphinx configuration of the agent_hooks documentation site.

Build: ``sphinx-build -W -b html docs docs/_build/html`` (``pip install '.[docs]'``).
Narrative pages are MyST Markdown (every code block in them is run by
``tests/docs/test_docs_site.py``); the API reference is generated from the docstrings.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.abspath(".."))

from agent_hooks import __version__

project = "agent_hooks"
author = "agent_hooks developers"
copyright = "agent_hooks developers"
version = release = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
root_doc = "index"

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
# The framework adapters import their frameworks, which the docs build does not install.
autodoc_mock_imports = [
    "langchain",
    "langchain_core",
    "langgraph",
    "pydantic_ai",
    "agents",
    "google",
    "strands",
]
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = False
autodoc_inherit_docstrings = False
autodoc_default_options = {"show-inheritance": False}


html_theme = "furo"
html_title = f"agent_hooks {release}"
html_static_path: list[str] = []

napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_custom_sections = [("Options", "params_style"), ("Fields", "params_style")]


def _attribute_docstrings(
    app: object, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """Module-level constants and type aliases are documented by the string after their
    assignment in the module that defines them; autodoc reads ``agent_hooks/__init__.py``
    for ``agent_hooks.NAME`` (a lazy re-export), so fetch it from the defining module."""
    if what != "data" or not name.startswith("agent_hooks."):
        return
    from sphinx.pycode import ModuleAnalyzer

    from agent_hooks._base._lazy import lazy_exports_of

    short = name.rsplit(".", 1)[1]
    with open(os.path.join(os.path.dirname(__file__), "..", "agent_hooks", "__init__.py")) as f:
        module = lazy_exports_of(f.read()).get(short)
    if module is None:
        return
    docs = ModuleAnalyzer.for_module(f"agent_hooks.{module}").find_attr_docs()
    found = docs.get(("", short))
    if found:
        lines[:] = list(found)


def _field_docstrings(
    app: object, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """Event fields carry their documentation as metadata (``meta(...)``, the same text
    the JSON Schemas use): show it for an attrs field that has no docstring of its own."""
    if what != "attribute" or any(line.strip() for line in lines):
        return
    import attrs

    import agent_hooks
    from agent_hooks._events._model import field_info

    owner, _, field = name.removeprefix("agent_hooks.").rpartition(".")
    cls = getattr(agent_hooks, owner, None)
    if not (isinstance(cls, type) and attrs.has(cls)):
        return
    found = attrs.fields_dict(cls).get(field)
    if found is not None and field_info(found).doc:
        lines[:] = field_info(found).doc.strip().splitlines()


def _no_inline_attribute_type(
    app: object, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """napoleon reads the first line of an attribute's docstring as ``type: description``
    (Google style): "Where inside the source: a JSON path" came out as the description
    "a JSON path" with the type "Where inside the source". The types here come from
    the annotations and no docstring writes one inline, so this puts the sentence back
    together: it runs after napoleon (a higher priority than its 500) and undoes the
    ``:type:`` line napoleon appends (the last one, after a blank line)."""
    if what not in ("attribute", "data", "property") or len(lines) < 2:
        return
    if lines[-2] == "" and lines[-1].startswith(":type: "):
        summary = lines[-1].removeprefix(":type: ")
        del lines[-2:]
        if lines and lines[0].strip():
            lines[0] = f"{summary}: {lines[0]}"
        else:
            lines.insert(0, summary)


def setup(app: object) -> None:
    app.connect("autodoc-process-docstring", _attribute_docstrings)  # type: ignore[attr-defined]
    app.connect("autodoc-process-docstring", _field_docstrings)  # type: ignore[attr-defined]
    app.connect("autodoc-process-docstring", _no_inline_attribute_type, priority=600)  # type: ignore[attr-defined]
