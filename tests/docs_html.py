"""Checks of the built documentation site (HTML), for what the Markdown and the
docstrings cannot show: that the pages render as meant.

* a stray table row: a paragraph line that starts and ends with ``|`` (a Markdown table
  that did not parse, e.g. cut by a blank line, shows its rows as raw text);
* a ``Type:`` field that holds prose: napoleon reads an attribute docstring's first
  line ``Summary: details`` as ``type: description``, so the API reference showed
  "Where inside the source" as a type. A type is a Python type expression (names,
  dots, brackets, commas, ``|``, quoted literals); two bare words in a row, or any
  other character, is prose.

Standard library only, so that it runs in the docs environment:
``python tests/docs_html.py docs/_build/html`` prints every problem and exits 1 when
there is one (pages listed in :data:`KNOWN` are reported, and do not fail the run).
``tests/docs/test_docs_html.py`` tests the checks and, with Sphinx installed, builds the
site and checks every page.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

KNOWN: dict[str, str] = {}
"""Pages with a problem someone is fixing -> why it is tolerated for now."""


class _Collector(HTMLParser):
    """Collects the text of every ``<p>`` outside ``<pre>``, and every field-list
    ``Type:`` value (the ``<dd>`` after a ``<dt>`` whose text is ``Type:``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self.types: list[str] = []
        self._pre = 0
        self._p: list[str] | None = None
        self._dt: list[str] | None = None
        self._dd: list[str] | None = None
        self._dd_depth = 0
        self._type_next = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "pre":
            self._pre += 1
        elif tag == "p" and not self._pre and self._dd is None:
            self._p = []
        elif tag == "dt":
            self._dt = []
        elif tag == "dd":
            if self._dd is not None:
                self._dd_depth += 1
            elif self._type_next:
                self._dd, self._dd_depth = [], 0

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._pre -= 1
        elif tag == "p" and self._p is not None:
            self.paragraphs.append("".join(self._p))
            self._p = None
        elif tag == "dt" and self._dt is not None:
            self._type_next = "".join(self._dt).strip() == "Type:"
            self._dt = None
        elif tag == "dd" and self._dd is not None:
            if self._dd_depth:
                self._dd_depth -= 1
            else:
                self.types.append(" ".join("".join(self._dd).split()))
                self._dd, self._type_next = None, False

    def handle_data(self, data: str) -> None:
        for part in (self._p, self._dt, self._dd):
            if part is not None:
                part.append(data)


def _collect(html: str) -> _Collector:
    c = _Collector()
    c.feed(html)
    c.close()
    return c


_ROW = re.compile(r"^\s*\|.*\|\s*$")


def stray_table_rows(html: str) -> list[str]:
    """Paragraph lines of ``html`` that are raw Markdown table rows."""
    return [
        line.strip()
        for text in _collect(html).paragraphs
        for line in text.splitlines()
        if _ROW.match(line) and line.count("|") >= 3
    ]


_QUOTED = re.compile("'[^']*'|\"[^\"]*\"|\u2018[^\u2019]*\u2019|\u201c[^\u201d]*\u201d")
"""Quoted literals, straight or as Sphinx's smart quotes print them."""
_TYPE_CHARS = re.compile(r"^[\w.\[\],|() ~*']*$")
_TWO_WORDS = re.compile(r"[A-Za-z_]\w*\s+[A-Za-z_(]")


def is_prose(value: str) -> bool:
    """``value`` (a ``Type:`` field's text) is no type expression."""
    bare = _QUOTED.sub("''", value).replace("...", "").replace("\u2026", "")
    return not _TYPE_CHARS.match(bare) or bool(_TWO_WORDS.search(bare))


def prose_type_fields(html: str) -> list[str]:
    """The ``Type:`` fields of ``html`` that hold prose."""
    return [t for t in _collect(html).types if is_prose(t)]


def problems(html: str) -> list[str]:
    """Every problem of one page."""
    return [f"raw table row: {r[:100]}" for r in stray_table_rows(html)] + [
        f"'Type:' field holding prose: {t[:100]}" for t in prose_type_fields(html)
    ]


def check_site(root: Path) -> dict[str, list[str]]:
    """Page (relative to ``root``) -> its problems, for every page that has one."""
    found: dict[str, list[str]] = {}
    for page in sorted(root.rglob("*.html")):
        if "_static" in page.parts or "_modules" in page.parts or "_sources" in page.parts:
            continue
        listed = problems(page.read_text(encoding="utf-8"))
        if listed:
            found[page.relative_to(root).as_posix()] = listed
    return found


def main(argv: list[str]) -> int:
    root = Path(argv[0] if argv else "docs/_build/html")
    if not (root / "index.html").is_file():
        print(f"docs_html: no built site at {root} (sphinx-build first)", file=sys.stderr)
        return 2
    failed = False
    for page, listed in check_site(root).items():
        known = KNOWN.get(page)
        for problem in listed:
            print(f"{page}: {problem}" + (f" (known: {known})" if known else ""))
        failed = failed or known is None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
