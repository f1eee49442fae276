"""The documentation site (``docs/``): every code block of every Markdown page runs or
is checked, so the pages cannot rot; every public name is in the API reference; the
events table is current; the pages state the contracts an embedder needs.

Code blocks, by language:

* ``python`` (the README's too): each block runs as a script of its own, as a reader
  pasting it into a file would run it: a fresh namespace, ``__name__ == "__main__"``,
  no top-level ``await`` (an async example ends with ``anyio.run(main)``), in page
  order, in a scratch working directory. A block that continues the one before it (a
  reader pastes both into one file) is marked ``<!-- fragment -->`` on the line
  before its fence, and runs in that block's namespace.
  Setup a reader need not see goes in an HTML comment, as a ``python`` block between
  ``<!-- test-setup`` and ``-->`` (MyST keeps HTML comments out of the page): it runs
  in the namespace of the block before it (files and settings for the next block, or
  a check of what the block before defined), never lending names to the next script.
* ``text`` after a ``python`` block (prose may stand between, no other code block):
  what that block prints, compared as doctest does, ``...`` matching anything.
* other ``text`` blocks: command synopses (starting ``agent-hooks``); each line that
  starts a command must name an ``agent-hooks`` subcommand.
* ``json``: parsed; a hook configuration (a ``hooks`` key) must load without errors
  (but for the import of a ``python`` hook's module, which is the reader's).
* ``sh``: checked by ``bash -n``; every ``agent-hooks`` command line is parsed by the
  real command-line parser.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import re
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import agent_hooks
from agent_hooks import (
    Diagnostic,
    PermissionAnswer,
    PermissionPrompt,
    Severity,
    StopOutcome,
    ToolCallOutcome,
    load,
)
from agent_hooks._bridges._cli import COMMANDS, build_parser
from agent_hooks._events._docs import BEGIN, END, replace_section

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
OPTIONAL = {"claude_agent_sdk", "opentelemetry"}
"""Top-level modules of optional extras: a page that needs one is skipped without it."""
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)
CODE_PAGES = [*PAGES, README]
"""Every page whose code blocks are run or checked."""
FRAGMENT = "<!-- fragment -->"


@attrs.frozen
class Block:
    lang: str
    body: str
    line: int
    hidden: bool
    after_python: bool
    """The code block before it is a ``python`` block (prose may stand between), and it
    is no synopsis: it is what that block prints."""
    fragment: bool = False
    """Marked ``<!-- fragment -->``: it continues the block before it."""


def blocks(text: str) -> Iterator[Block]:
    """The fenced code blocks of a Markdown page, in order."""
    lines = text.split("\n")
    i = 0
    in_comment = False
    hidden_setup = False
    previous_lang = ""
    last_text = ""  # (the last line that is not blank)
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not in_comment and stripped.startswith("<!--") and "-->" not in stripped:
            in_comment = True
            hidden_setup = stripped.startswith("<!-- test-setup")
        elif in_comment and "-->" in stripped:
            in_comment = hidden_setup = False
        fence = re.match(r"^(`{3,}|~{3,})\s*(\S*)", line)
        if fence:
            marker, lang = fence.group(1), fence.group(2) or "text"  # (bare: text)
            start = i
            i += 1
            body: list[str] = []
            while i < len(lines) and not lines[i].startswith(marker):
                body.append(lines[i])
                i += 1
            synopsis = bool(body) and body[0].startswith("agent-hooks ")
            after = previous_lang == "python" and not synopsis
            if (in_comment and not hidden_setup) or lang.startswith("{"):
                pass  # (a commented-out block, or a MyST directive such as {toctree})
            else:
                fragment = last_text == FRAGMENT
                body_text = "\n".join(body) + "\n"
                yield Block(lang, body_text, start + 1, hidden_setup, after, fragment)
                previous_lang = lang
        if stripped:
            last_text = stripped
        i += 1


def _page_id(path: Path) -> str:
    return path.name if path == README else str(path.relative_to(DOCS))


def test_there_are_pages_and_every_block_has_a_known_language() -> None:
    assert len(PAGES) >= 12
    known = {"python", "text", "json", "sh", "toml", "yaml"}
    for page in CODE_PAGES:
        for b in blocks(page.read_text(encoding="utf-8")):
            assert b.lang in known, f"{_page_id(page)}:{b.line}: code block language {b.lang!r}"


# ------------------------------------------------------------------ python


def _script(body: str, where: str) -> Any:
    """``body`` compiled as a script (a reader's file): top-level ``await`` is refused."""
    try:
        return compile(body, where, "exec", dont_inherit=True)
    except SyntaxError as exc:
        if "outside" in str(exc.msg) and ("await" in exc.msg or "async" in exc.msg):
            raise AssertionError(
                f"{where}: {exc.msg} (line {exc.lineno}): pasted into a script this fails; "
                "put it in `async def main()` and end with `anyio.run(main)`"
            ) from None
        raise


def _run_python_blocks(page: Path) -> None:
    found = list(blocks(page.read_text(encoding="utf-8")))
    namespace: dict[str, Any] = {"__name__": "__main__"}
    seen_script = False
    for n, b in enumerate(found):
        if b.lang != "python":
            continue
        where = f"{_page_id(page)}:{b.line}"
        if b.fragment:
            assert seen_script, f"{where}: a fragment with no script before it to continue"
        elif not b.hidden:
            namespace = {"__name__": "__main__"}  # (a script of its own)
            seen_script = True
        code = _script(b.body, where)
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(code, namespace)
        except ModuleNotFoundError as exc:
            if exc.name not in OPTIONAL:
                raise
            pytest.skip(f"{where}: needs the optional {exc.name} (an extra)")
        following = found[n + 1] if n + 1 < len(found) else None
        if following is not None and following.lang == "text" and following.after_python:
            checker = doctest.OutputChecker()
            ok = checker.check_output(following.body, out.getvalue(), doctest.ELLIPSIS)
            assert ok, f"{where}: printed\n{out.getvalue()}\nexpected\n{following.body}"


@pytest.mark.parametrize("page", CODE_PAGES, ids=_page_id)
def test_every_python_block_runs_and_prints_what_the_page_says(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    _run_python_blocks(page)


# ------------------------------------------------------------- other blocks


def _command_lines(body: str) -> Iterator[str]:
    """The logical lines of a shell block, continuation lines joined."""
    logical = ""
    for line in body.split("\n"):
        if line.rstrip().endswith("\\"):
            logical += line.rstrip()[:-1] + " "
            continue
        logical += line
        if logical.strip() and not logical.lstrip().startswith("#"):
            yield logical.strip()
        logical = ""


def _commands(line: str) -> Iterator[list[str]]:
    """The simple commands of a shell line (split at ``&&``, ``||``, ``;``, ``|``),
    without their redirections (``> file``, ``>> file``, ``< file``)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words: list[str] = []
    redirected = False
    for token in lexer:
        if token in ("&&", "||", ";", "|", "&"):
            yield words
            words = []
        elif token in (">", ">>", "<"):
            redirected = True
        elif redirected:
            redirected = False  # (the redirection's file)
        else:
            words.append(token)
    yield words


@pytest.mark.parametrize("page", CODE_PAGES, ids=_page_id)
def test_every_shell_json_and_synopsis_block_is_valid(page: Path, tmp_path: Path) -> None:
    for b in blocks(page.read_text(encoding="utf-8")):
        where = f"{_page_id(page)}:{b.line}"
        if b.lang == "json":
            data = json.loads(b.body)
            if isinstance(data, dict) and "hooks" in data:
                path = tmp_path / "settings.json"
                path.write_text(b.body)
                config = load(path, format="claude-settings", trust=True)
                errors = [
                    d
                    for d in config.diagnostics
                    if d.severity is Severity.ERROR and "cannot import" not in d.message
                ]  # (a python hook's module is the reader's own)
                assert errors == [], f"{where}: {errors}"
        elif b.lang == "sh":
            done = subprocess.run(
                ["bash", "-n"], input=b.body, capture_output=True, text=True, check=False
            )
            assert done.returncode == 0, f"{where}: {done.stderr}"
            for line in _command_lines(b.body):
                for words in _commands(line):
                    if words and words[0] == "agent-hooks":
                        try:
                            command = words[1] if words[1:2] and words[1] in COMMANDS else None
                            build_parser(command).parse_args(words[1:])
                        except SystemExit as exc:
                            raise AssertionError(f"{where}: {words!r} does not parse") from exc
        elif b.lang == "text" and not b.after_python:
            for line in b.body.splitlines():
                if line and not line.startswith(" "):
                    words = line.split()
                    assert words[0] == "agent-hooks" and words[1] in COMMANDS, (
                        f"{where}: a text block that is neither output nor a synopsis: {line!r}"
                    )


# ---------------------------------------------------------- API reference


def _api_directives() -> set[str]:
    names: set[str] = set()
    for rst in (DOCS / "api").glob("*.rst"):
        names.update(re.findall(r"^\.\. auto\w+:: (\w+)$", rst.read_text(), re.MULTILINE))
    return names


def test_every_public_name_is_in_the_api_reference() -> None:
    documented = _api_directives()
    missing = sorted(set(agent_hooks.__all__) - documented)
    assert missing == [], f"add these to a page of docs/api/: {missing}"
    assert sorted(documented - set(agent_hooks.__all__)) == []


def test_the_public_modules_are_in_the_api_reference() -> None:
    text = "\n".join(p.read_text() for p in (DOCS / "api").glob("*.rst"))
    for module in ("agent_hooks.testing", "agent_hooks.otel", "agent_hooks.claude_agent_sdk"):
        assert f".. automodule:: {module}" in text


def test_every_api_page_and_narrative_page_is_in_a_toctree() -> None:
    index = (DOCS / "index.md").read_text()
    for page in PAGES:
        if page.name != "index.md":
            assert page.relative_to(DOCS).with_suffix("").as_posix() in index, page
    api = (DOCS / "api" / "index.rst").read_text()
    for rst in (DOCS / "api").glob("*.rst"):
        if rst.name != "index.rst":
            assert f"   {rst.stem}\n" in api, rst


# ------------------------------------------------------------- contents


def test_the_events_table_is_current() -> None:
    text = (DOCS / "events.md").read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert replace_section(text) == text, (
        "run: python -m agent_hooks._events._docs --write docs/events.md"
    )


def test_the_quick_start_is_the_example_file() -> None:
    text = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    code = next(b.body for b in blocks(text) if b.lang == "python")
    assert (ROOT / "examples" / "quickstart.py").read_text(encoding="utf-8") == code


@pytest.mark.parametrize(
    ("cls", "page"),
    [
        (ToolCallOutcome, "helpers.md"),
        (StopOutcome, "helpers.md"),
        (PermissionPrompt, "helpers.md"),
        (PermissionAnswer, "helpers.md"),
        (Diagnostic, "dispatch.md"),
    ],
)
def test_the_pages_name_every_field_of_what_an_embedder_handles(cls: type, page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    missing = [f.name for f in attrs.fields(cls) if f"`{f.name}`" not in text]
    assert missing == [], f"docs/{page} does not name {cls.__name__}.{missing}"


def test_the_docs_build_is_configured_with_myst_and_furo() -> None:
    conf = (DOCS / "conf.py").read_text()
    assert '"myst_parser"' in conf and 'html_theme = "furo"' in conf
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^docs = \[.*"sphinx.*"myst-parser.*"furo', pyproject, re.MULTILINE)


def test_a_block_with_top_level_await_is_refused_as_a_script() -> None:
    with pytest.raises(AssertionError, match=r"page.md:3: 'await' outside function .*anyio\.run"):
        _script("import anyio\n\nawait anyio.sleep(0)\n", "page.md:3")
    with pytest.raises(AssertionError, match="'async with' outside"):
        _script("async with x:\n    pass\n", "page.md:3")
    assert _script("import anyio\n", "page.md:3") is not None


def test_a_fragment_continues_the_block_before_it() -> None:
    text = "```python\nx = 1\n```\n\n<!-- fragment -->\n```python\nprint(x)\n```\n"
    first, second = blocks(text)
    assert (first.fragment, second.fragment) == (False, True)
