"""The manual (``docs/``; the README keeps the quick start and a map of it): its events
table is generated from the capability table and must match it; it states the
contracts an embedder needs (every field of what they handle). The site's code blocks
and API reference: ``tests/docs/test_docs_site.py``."""

from __future__ import annotations

import ast
import inspect
import itertools
import typing
from pathlib import Path
from typing import Any

import attrs
import pytest

import agent_hooks
from agent_hooks import (
    Diagnostic,
    DiagnosticCode,
    HookEvent,
    PermissionAnswer,
    PermissionPrompt,
    StopOutcome,
    ToolCallOutcome,
)
from agent_hooks._dispatch import _lifecycle
from agent_hooks._events._capabilities import CAPABILITIES
from agent_hooks._events._docs import BEGIN, END, events_markdown, replace_section

DOCS = Path(__file__).resolve().parents[2] / "docs"
EVENTS_PAGE = DOCS / "events.md"
PAGES = {
    "The tool-call helper": DOCS / "helpers.md",
    "Diagnostics": DOCS / "dispatch.md",
}
"""Section title -> the page of the manual that holds it."""


def test_the_events_section_is_current() -> None:
    text = EVENTS_PAGE.read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert replace_section(text) == text, (
        "run: python -m agent_hooks._events._docs --write docs/events.md"
    )


def test_every_event_has_a_row() -> None:
    table = events_markdown()
    for event in HookEvent:
        assert f"| {event.value} | `{event.snake}` |" in table
    assert len(CAPABILITIES) == len(HookEvent)


def test_rows_say_what_the_table_says() -> None:
    rows = {line.split(" | ")[0].strip("| "): line for line in events_markdown().splitlines()[2:]}
    assert "| deny |" in rows["PreToolUse"]
    assert "keep going" in rows["Stop"]
    assert "claude: `additional_context`" in rows["SessionStart"]
    assert "| 30 s |" in rows["UserPromptSubmit"]
    assert "(basename)" in rows["FileChanged"]


# ------------------------------------------------------ embedding contracts


def _section(title: str) -> str:
    text = PAGES[title].read_text(encoding="utf-8")
    return text.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize(
    ("cls", "section"),
    [
        (ToolCallOutcome, "The tool-call helper"),
        (StopOutcome, "The tool-call helper"),
        (PermissionPrompt, "The tool-call helper"),
        (PermissionAnswer, "The tool-call helper"),
        (Diagnostic, "Diagnostics"),
    ],
)
def test_the_readme_names_every_field_of_what_an_embedder_handles(cls: type, section: str) -> None:
    text = _section(section)
    missing = [f.name for f in attrs.fields(cls) if f"`{f.name}`" not in text]
    assert missing == [], f"docs section {section!r} does not name {cls.__name__}.{missing}"


def test_the_readme_states_the_callables_contracts_with_the_exported_aliases() -> None:
    text = _section("The tool-call helper")
    assert "`agent_hooks.Tool = Callable[[Mapping[str, Any]], Any]`" in text
    assert "`agent_hooks.PermissionCallback =" in text
    assert "raise_errors=True" in text and "counts as" in text
    assert "`continue: false`" in text and "`stop`" in text
    assert agent_hooks.Tool is _lifecycle.Tool
    assert agent_hooks.PermissionCallback is _lifecycle.PermissionCallback
    # the aliases are what the helper's signature uses
    hints = typing.get_type_hints(_lifecycle.call_tool)
    assert hints["tool"] == agent_hooks.Tool
    assert hints["permission"] == agent_hooks.PermissionCallback | None


def test_the_readme_documents_diagnostics_and_their_logging() -> None:
    text = _section("Diagnostics")
    for words in (
        "`diagnostics`",
        "`registry.diagnostics`",
        "`agent_hooks.diagnostics`",
        "at WARNING",
        "`invalid_cwd`",
    ):
        assert words in text
    assert DiagnosticCode.INVALID_CWD.value == "invalid_cwd"


def _alias_docstrings(module: Any) -> dict[str, str]:
    """``NAME = ...`` followed by a string, in a module's source: {NAME: the string}."""
    body = ast.parse(inspect.getsource(module)).body
    found: dict[str, str] = {}
    for stmt, after in itertools.pairwise(body):
        if (
            isinstance(stmt, (ast.Assign, ast.AnnAssign))
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = after.value.value
    return found


@pytest.mark.parametrize("name", ["PermissionCallback", "Tool"])
def test_the_embedding_aliases_are_public_with_docstrings(name: str) -> None:
    alias = getattr(agent_hooks, name)
    assert name in agent_hooks.__all__ and typing.get_origin(alias) is not None
    doc = _alias_docstrings(_lifecycle).get(name, "")
    assert "call_tool" in doc, f"{name} has no docstring (a string right after its assignment)"
