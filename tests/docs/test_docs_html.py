"""The built documentation renders as meant (checks in ``tests/docs_html.py``): no
Markdown table row left as raw ``|`` text, no ``Type:`` field holding prose. The
checks are tested on HTML as Sphinx writes it; with Sphinx installed (the ``docs``
extra) the site is built and every page checked. CI runs the same checks on the site
it builds (``.ci/run``: ``python tests/docs_html.py docs/_build/html``)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs_html import KNOWN, is_prose, problems, prose_type_fields, stray_table_rows

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

BROKEN_TABLE = """
<table><tbody><tr><td><p>Claude Code</p></td><td><p>yes</p></td></tr></tbody></table>
<p>| Cline (<code class="docutils literal"><span class="pre">cline</span></code>) | executables | yes |
| Goose (<code>goose</code>) | hooks.json | yes |</p>
<p>matchers such as <code>Bash|Edit|Write</code> are regular expressions | not tables</p>
<div class="highlight"><pre>| a | b |
|---|---|</pre></div>
"""

ATTRIBUTE = """
<dl class="py attribute"><dt class="sig" id="agent_hooks.Diagnostic.location">location</dt>
<dd><dl class="field-list simple">
<dt class="field-odd">Type<span class="colon">:</span></dt>
<dd class="field-odd"><p>{value}</p></dd>
</dl><p>{rest}</p></dd></dl>
"""


def test_a_table_row_left_as_text_is_found_and_code_is_not() -> None:
    rows = stray_table_rows(BROKEN_TABLE)
    assert rows == ["| Cline (cline) | executables | yes |", "| Goose (goose) | hooks.json | yes |"]


@pytest.mark.parametrize(
    "value",
    [
        "Where inside the source",
        "Display name",
        "Fire-and-forget",
        "Keep going",
        "Claude Code\u2019s onFailure: \u201cblock\u201d",
        "For BLOCKED/ERROR/TIMEOUT",
        "Whether this version types the event (False",
    ],
)
def test_a_type_field_holding_prose_is_found(value: str) -> None:
    html = ATTRIBUTE.format(value=value, rest="``PreToolUse[0].hooks[1]``, a JSON path")
    assert prose_type_fields(html) == [value]
    assert problems(html) == [f"'Type:' field holding prose: {value}"]


@pytest.mark.parametrize(
    "value",
    [
        "str | None",
        "int",
        "Mapping[str, Any]",
        "tuple[Diagnostic, ...]",
        "Literal['allow', 'deny', 'ask'] | None",
        "Callable[[PermissionPrompt], Awaitable[PermissionAnswer | bool] | bool]",
        "agent_hooks.HookEvent",
    ],
)
def test_a_type_expression_is_no_prose(value: str) -> None:
    assert not is_prose(value)
    assert prose_type_fields(ATTRIBUTE.format(value=value, rest="Where it is.")) == []


# ------------------------------------------------------------- the site


def _pages() -> list[object]:
    sources = sorted(p for p in DOCS.rglob("*") if p.suffix in (".md", ".rst"))
    pages = [p.relative_to(DOCS).with_suffix(".html").as_posix() for p in sources]
    return [
        pytest.param(page, marks=pytest.mark.xfail(reason=KNOWN[page], strict=False))
        if page in KNOWN
        else page
        for page in pages
        if "_build" not in page
    ]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("sphinx") is None or importlib.util.find_spec("myst_parser") is None:
        pytest.skip("Sphinx is not installed here (the docs extra); CI checks its own build")
    out = tmp_path_factory.mktemp("html")
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-E", "-q", "-b", "html", str(DOCS), str(out)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize("page", _pages())
def test_every_page_renders_without_raw_rows_or_prose_types(site: Path, page: str) -> None:
    assert problems((site / page).read_text(encoding="utf-8")) == []
