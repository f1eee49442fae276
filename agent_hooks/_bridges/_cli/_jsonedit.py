"""Edit a JSON (or JSONC) document in place: parse it to spans, then splice.

:func:`parse` reads the text into :class:`Node` values that remember where each value,
member and item starts and ends. The splicing helpers (:func:`insert_items`,
:func:`remove_items`, :func:`replace_item`) return :class:`Edit` values; :func:`apply`
applies them. Everything outside the edited spans stays byte for byte as it was
(indentation, newline style, key order, comments), and new text follows the layout
of the container it goes into (its indentation, one item per line or inline).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

__all__ = [
    "Edit",
    "JsonShapeError",
    "Layout",
    "Member",
    "Node",
    "apply",
    "find_member",
    "insert_items",
    "layout_of",
    "parse",
    "remove_items",
    "replace_item",
]

_MAX_DEPTH = 256
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_LITERALS = {"true": True, "false": False, "null": None}


class JsonShapeError(ValueError):
    """The text is not JSON (or JSONC where comments are allowed), or a value does not
    have the shape an edit needs. ``where`` names the key path (``hooks.PreToolUse``)
    or the line and column."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@attrs.frozen
class Member:
    """``"key": value`` in an object: from the key's opening quote to the value's end."""

    key: str
    start: int
    value: Node

    @property
    def end(self) -> int:
        return self.value.end


@attrs.frozen
class Node:
    """A value and its span ``[start, end)``; an object has ``members``, an array
    ``items`` (an item's span is its :class:`Node`'s)."""

    kind: str  # "object", "array" or "scalar"
    start: int
    end: int
    value: Any
    members: tuple[Member, ...] = ()
    items: tuple[Node, ...] = ()


@attrs.frozen
class Edit:
    """Replace ``text[start:end]`` with ``text``."""

    start: int
    end: int
    text: str


@attrs.frozen
class Layout:
    """How the file writes JSON: its newline and one level of indentation."""

    newline: str = "\n"
    unit: str = "  "


def _where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {col}"


class _Parser:
    def __init__(self, text: str, comments: bool) -> None:
        self.text = text
        self.comments = comments
        self.i = 0

    def fail(self, message: str, pos: int | None = None) -> JsonShapeError:
        return JsonShapeError(_where(self.text, self.i if pos is None else pos), message)

    def skip(self) -> None:
        text, n = self.text, len(self.text)
        while self.i < n:
            c = text[self.i]
            if c in " \t\r\n":
                self.i += 1
            elif c == "/" and text.startswith("//", self.i):
                if not self.comments:
                    raise self.fail("comments are not allowed in this file")
                end = text.find("\n", self.i)
                self.i = n if end < 0 else end
            elif c == "/" and text.startswith("/*", self.i):
                if not self.comments:
                    raise self.fail("comments are not allowed in this file")
                end = text.find("*/", self.i + 2)
                if end < 0:
                    raise self.fail("unterminated comment")
                self.i = end + 2
            else:
                return

    def value(self, depth: int) -> Node:
        if depth > _MAX_DEPTH:
            raise self.fail("nested too deeply")
        self.skip()
        if self.i >= len(self.text):
            raise self.fail("unexpected end of file")
        c = self.text[self.i]
        if c == "{":
            return self.object(depth)
        if c == "[":
            return self.array(depth)
        if c == '"':
            start = self.i
            return Node("scalar", start, self.string_end(), self.string_value(start))
        start = self.i
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, start):
                self.i = start + len(word)
                return Node("scalar", start, self.i, literal)
        m = _NUMBER.match(self.text, start)
        if m is None:
            raise self.fail(f"unexpected {c!r}")
        self.i = m.end()
        return Node("scalar", start, self.i, json.loads(m.group()))

    def string_end(self) -> int:
        text, i, n = self.text, self.i + 1, len(self.text)
        while i < n:
            c = text[i]
            if c == '"':
                self.i = i + 1
                return self.i
            if c == "\\":
                i += 2
            elif c < " ":
                raise self.fail("control character in a string", i)
            else:
                i += 1
        raise self.fail("unterminated string")

    def string_value(self, start: int) -> str:
        try:
            value = json.loads(self.text[start : self.i])
        except ValueError as exc:
            raise self.fail(f"bad string ({exc})", start) from None
        assert isinstance(value, str)
        return value

    def object(self, depth: int) -> Node:
        start = self.i
        self.i += 1
        members: list[Member] = []
        self.skip()
        if self.text.startswith("}", self.i):
            self.i += 1
            return Node("object", start, self.i, {})
        while True:
            self.skip()
            if not self.text.startswith('"', self.i):
                raise self.fail("expected a key in double quotes")
            key_start = self.i
            self.string_end()
            key = self.string_value(key_start)
            self.skip()
            if not self.text.startswith(":", self.i):
                raise self.fail("expected ':'")
            self.i += 1
            members.append(Member(key, key_start, self.value(depth + 1)))
            self.skip()
            if self.text.startswith(",", self.i):
                self.i += 1
                self.skip()
                if self.comments and self.text.startswith("}", self.i):
                    self.i += 1
                    break
                continue
            if self.text.startswith("}", self.i):
                self.i += 1
                break
            raise self.fail("expected ',' or '}'")
        value = {m.key: m.value.value for m in members}
        return Node("object", start, self.i, value, members=tuple(members))

    def array(self, depth: int) -> Node:
        start = self.i
        self.i += 1
        items: list[Node] = []
        self.skip()
        if self.text.startswith("]", self.i):
            self.i += 1
            return Node("array", start, self.i, [])
        while True:
            items.append(self.value(depth + 1))
            self.skip()
            if self.text.startswith(",", self.i):
                self.i += 1
                self.skip()
                if self.comments and self.text.startswith("]", self.i):
                    self.i += 1
                    break
                continue
            if self.text.startswith("]", self.i):
                self.i += 1
                break
            raise self.fail("expected ',' or ']'")
        return Node("array", start, self.i, [n.value for n in items], items=tuple(items))


def parse(text: str, *, comments: bool = False) -> Node:
    """The document ``text`` holds (after a BOM is removed), with spans. ``comments``:
    ``//`` and ``/* */`` comments and trailing commas are allowed (JSONC).

    Raises:
        JsonShapeError: not JSON; ``where`` is the line and column.
    """
    p = _Parser(text, comments)
    node = p.value(0)
    p.skip()
    if p.i != len(text):
        raise p.fail("text after the JSON value")
    return node


def find_member(obj: Node, key: str, path: str) -> Member | None:
    """The member ``key`` of ``obj``, or None.

    Raises:
        JsonShapeError: the key appears more than once (which one a harness reads is
            its own business; editing either would be a guess).
    """
    found = [m for m in obj.members if m.key == key]
    if len(found) > 1:
        raise JsonShapeError(path, "the key appears more than once")
    return found[0] if found else None


def layout_of(text: str) -> Layout:
    """The newline (``\\r\\n`` when the file uses it) and the indentation of the first
    indented line (default two spaces)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    m = re.search(r"\n([ \t]+)\S", text)
    unit = m.group(1) if m else "  "
    if unit.startswith("\t"):
        unit = "\t"
    return Layout(newline=newline, unit=unit)


def _line_indent(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    m = re.match(r"[ \t]*", text[start:pos])
    assert m is not None
    return m.group()


def _start(item: Node | Member) -> int:
    return item.start


def _render(value: Any, key: str | None, indent: str | None, layout: Layout) -> str:
    head = "" if key is None else json.dumps(key, ensure_ascii=False) + ": "
    if indent is None:
        return head + json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    body = json.dumps(value, ensure_ascii=False, indent=layout.unit)
    return head + body.replace("\n", layout.newline + indent)


def _children(container: Node) -> Sequence[Node | Member]:
    return container.members if container.kind == "object" else container.items


def insert_items(
    text: str, container: Node, values: Sequence[tuple[str | None, Any]], layout: Layout
) -> Edit:
    """Append ``values`` (``(key, value)``; key None in an array) at the end of
    ``container``, laid out as its items are (one per line at their indentation, or
    inline), or, in an empty container, one level deeper than the line it opens on."""
    children = _children(container)
    nl = layout.newline
    if children:
        first = children[0]
        multiline = "\n" in text[container.start : _start(first)]
        indent = _line_indent(text, _start(first)) if multiline else None
        sep = "," + nl + (indent or "") if multiline else ", "
        added = "".join(sep + _render(v, k, indent, layout) for k, v in values)
        end = children[-1].end
        return Edit(end, end, added)
    base = _line_indent(text, container.start)
    indent = base + layout.unit
    body = ("," + nl + indent).join(_render(v, k, indent, layout) for k, v in values)
    inside = text[container.start + 1 : container.end - 1]
    if inside.strip(" \t\r\n"):  # comments: keep them after the new items
        return Edit(container.start + 1, container.start + 1, nl + indent + body)
    return Edit(container.start + 1, container.end - 1, nl + indent + body + nl + base)


def replace_item(text: str, item: Node, value: Any, layout: Layout) -> Edit:
    """``item`` (an array item or a member's value) replaced by ``value``, at its
    indentation."""
    multiline = "\n" in text[item.start : item.end] or item.kind != "scalar"
    indent = _line_indent(text, item.start) if multiline else None
    return Edit(item.start, item.end, _render(value, None, indent, layout))


def remove_items(text: str, container: Node, gone: Iterable[int]) -> list[Edit]:
    """Edits that remove the items (members) at the indices ``gone`` of ``container``,
    with the separator and the space before each; the inverse of :func:`insert_items`
    (an item appended and removed again leaves the bytes as they were). Removing every
    item leaves the container empty (``[]``, ``{}``, comments kept)."""
    children = _children(container)
    drop = sorted(set(gone))
    if not drop:
        return []
    if len(drop) == len(children):
        last = children[-1].end
        rest = text[last : container.end - 1]
        stripped = rest.lstrip(" \t\r\n")
        if stripped.startswith(","):
            last += len(rest) - len(stripped) + 1
            rest = text[last : container.end - 1]
        end = container.end - 1 if not rest.strip(" \t\r\n") else last
        return [Edit(container.start + 1, end, "")]
    edits = []
    runs: list[list[int]] = []
    for i in drop:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    for run in runs:
        if run[0] == 0:
            edits.append(Edit(children[0].start, _start(children[run[-1] + 1]), ""))
        else:
            edits.append(Edit(children[run[0] - 1].end, children[run[-1]].end, ""))
    return edits


def apply(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with ``edits`` applied (they must not overlap).

    Raises:
        ValueError: two edits overlap (a bug in the caller).
    """
    out = text
    last = len(text) + 1
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        if e.end > last:
            raise ValueError("overlapping edits")
        out = out[: e.start] + e.text + out[e.end :]
        last = e.start
    return out
