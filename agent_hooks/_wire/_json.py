"""JSON text for hooks and harnesses: valid UTF-8 JSON for any data a JSON parser gave us.

Payloads come from a harness and answers from hooks; Python's :mod:`json` reads more of
what they may hold than it writes back:

* A lone UTF-16 surrogate (the escape ``\\ud800`` without its partner, which JavaScript
  strings may hold) decodes to a ``str`` that UTF-8 cannot encode. It is written back as
  the same escape, as the harnesses write it (JavaScript's ``JSON.stringify``), so a hook
  reads exactly the string the harness sent and the text stays valid UTF-8.
* Nesting as deep as the parser accepted. Python's encoder, like any recursive walk, is
  bounded by the interpreter's recursion limit, and how much of it is left depends on the
  caller; a value too deep for it is written by an iterative encoder instead.
* ``NaN`` and the infinities, which :func:`json.loads` reads but which are not JSON, are
  written as ``null``, as ``JSON.stringify`` writes them.

A value that is not JSON data (an object of another type, a container holding itself, an
integer too long to print) raises ``TypeError`` or ``ValueError``, as :func:`json.dumps`
does.

Configuration files some harnesses read as *JSON with comments* (Gemini CLI and Qwen Code
parse their ``settings.json`` as ``JSON.parse(stripJsonComments(text))``) are read by
:func:`loads_jsonc`: the same value as the harness, and the same line and column in an
error as in the file.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

__all__ = ["dump_bytes", "dumps", "escape_surrogates", "loads_jsonc", "strip_jsonc"]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(text: str) -> str:
    """JSON text with every lone surrogate (which can only stand inside a string) written
    as its ``\\uXXXX`` escape: the same JSON value, encodable as UTF-8."""
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _text(obj: Any) -> str:
    """Compact JSON text that may still hold lone surrogates."""
    try:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (ValueError, RecursionError):
        # NaN or an infinity, nesting deeper than the recursion left allows, or a
        # value json refuses anyway (a cycle, an integer too long): written again
        # without recursion, which says what json would have said about the last two.
        return _deep_text(obj)


def dumps(obj: Any) -> str:
    """Compact JSON text (``,`` and ``:`` separators, non-ASCII as it is) that always
    encodes as UTF-8: lone surrogates escaped, any depth, non-finite numbers as ``null``.

    Raises:
        TypeError: ``obj`` holds something that is not JSON data.
        ValueError: ``obj`` holds itself, or an integer too long to print.
    """
    text = _text(obj)
    return escape_surrogates(text) if _LONE_SURROGATE.search(text) else text


def dump_bytes(obj: Any) -> bytes:
    """:func:`dumps` encoded as UTF-8 (what a hook reads on stdin or in a request body).

    Raises:
        TypeError, ValueError: as :func:`dumps`.
    """
    text = _text(obj)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return escape_surrogates(text).encode("utf-8")


def _scalar(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return "null"
    return json.dumps(value, ensure_ascii=False)


def _key(key: Any) -> str:
    """A dict key as JSON writes it: strings as they are; numbers, booleans and ``None``
    as their JSON text (as :func:`json.dumps` does)."""
    if isinstance(key, str):
        return json.dumps(key, ensure_ascii=False)
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(_scalar(key), ensure_ascii=False)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _deep_text(obj: Any) -> str:
    """:func:`json.dumps` (compact, non-ASCII as it is) with an explicit stack instead of
    recursion, and non-finite numbers as ``null``."""
    parts: list[str] = []
    open_ids: set[int] = set()  # containers around the value being written
    # Each entry: ("value", a value to write) / ("text", text to write) /
    # ("close", the id of a container whose contents are all written).
    todo: list[tuple[str, Any]] = [("value", obj)]
    while todo:
        what, item = todo.pop()
        if what == "text":
            parts.append(item)
            continue
        if what == "close":
            open_ids.discard(item)
            continue
        if isinstance(item, dict):
            entries = [(f"{_key(k)}:", v) for k, v in item.items()]
            opening, closing = "{", "}"
        elif isinstance(item, (list, tuple)):
            entries = [("", v) for v in item]
            opening, closing = "[", "]"
        else:
            parts.append(_scalar(item))
            continue
        ident = id(item)
        if ident in open_ids:
            raise ValueError("Circular reference detected")
        open_ids.add(ident)
        parts.append(opening)
        todo.append(("close", ident))
        todo.append(("text", closing))
        for i in range(len(entries) - 1, -1, -1):  # pushed last first: written in order
            prefix, value = entries[i]
            todo.append(("value", value))
            todo.append(("text", f",{prefix}" if i else prefix))
    return "".join(parts)


# ------------------------------------------------------------------ JSON with comments


def _scan(text: str, trailing_commas: bool) -> tuple[str, int | None]:
    """:func:`strip_jsonc`'s text, and the offset of a ``/*`` that is never closed."""
    out = list(text)
    i, n = 0, len(text)
    unclosed: int | None = None
    comma: int | None = None  # a comma with only space and comments after it so far
    while i < n:
        c = text[i]
        if c == '"':
            comma = None
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\n":
                    break  # an unterminated string: left for the parser to report
                i += 2 if text[i] == "\\" else 1
            i += 1
            continue
        two = text[i : i + 2]
        if two == "//":
            end = text.find("\n", i)
            end = n if end < 0 else end - (text[end - 1] == "\r")
            out[i:end] = " " * (end - i)
            i = end
            continue
        if two == "/*":
            close = text.find("*/", i + 2)
            if close < 0:
                unclosed = i
            end = n if close < 0 else close + 2
            for j in range(i, end):
                if not text[j].isspace():
                    out[j] = " "
            i = end
            continue
        if trailing_commas:
            if c == ",":
                comma = i
            elif c in "]}" and comma is not None:
                out[comma] = " "
                comma = None
            elif c not in " \t\r\n":
                comma = None
        i += 1
    return "".join(out), unclosed


def strip_jsonc(text: str, *, trailing_commas: bool = False) -> str:
    """``text`` with its comments (``// ...`` to the end of the line, ``/* ... */``)
    outside strings blanked out, and, when ``trailing_commas``, each comma that only
    comments and white space separate from a closing ``]`` or ``}``.

    What is removed is replaced by spaces character for character (white space inside a
    comment, line breaks included, stays), so every other character keeps its offset,
    line and column. String escapes count (``"a\\\\"`` ends after the second
    backslash). As in the ``strip-json-comments`` package the harnesses use, a line
    comment ends before ``\\n`` or ``\\r\\n``, and a block comment that is never
    closed runs to the end of the text. Anything that is not JSON stays for the parser
    to report.
    """
    return _scan(text, trailing_commas)[0]


def loads_jsonc(text: str, *, trailing_commas: bool = False) -> Any:
    """The value of JSON text that may hold comments (and, when ``trailing_commas``,
    trailing commas): :func:`json.loads` of :func:`strip_jsonc`.

    Raises:
        json.JSONDecodeError: not JSON once comments are removed; its line and column
            are those of the original text, and its message says where a block comment
            that is never closed begins.
        RecursionError: nested deeper than the parser goes.
    """
    stripped, unclosed = _scan(text, trailing_commas)
    try:
        return json.loads(stripped)
    except json.JSONDecodeError as exc:
        if unclosed is None:
            raise
        line = text.count("\n", 0, unclosed) + 1
        column = unclosed - text.rfind("\n", 0, unclosed)
        raise json.JSONDecodeError(
            f"{exc.msg} (the /* comment at line {line} column {column} is never closed)",
            exc.doc,
            exc.pos,
        ) from None
