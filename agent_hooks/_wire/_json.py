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
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

__all__ = ["dump_bytes", "dumps", "escape_surrogates"]

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
