"""Matchers and ``if`` rules, compiled once at registration.

Matcher rules (Claude Code, Deep Agents Code, Codex): ``None``, ``""`` and
``"*"`` match everything; a matcher made only of letters, digits, ``_``, ``-``,
spaces, ``,`` and ``|`` is a set of exact names split on ``|`` or ``,``;
anything else is an unanchored regular expression (``re.search``). Docker
Agent anchors its regular expressions (``^(?:m)$``).

``if`` rules use Claude Code's permission-rule syntax: ``Bash``,
``Bash(git *)``, ``Edit(*.ts)``, ``WebFetch(domain:example.com)``,
``mcp__server__tool``. They only apply to tool events.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
from collections.abc import Mapping
from typing import Any

import attrs

from .._wire._dialects import Dialect

__all__ = ["CompiledMatcher", "IfRule", "compile_matcher", "parse_if_rule"]

_EXACT = re.compile(r"^[A-Za-z0-9_\-\s,|]+$")
_DOCKER_EXACT = re.compile(r"^[A-Za-z0-9_\-|]+$")


@attrs.frozen
class CompiledMatcher:
    """A matcher ready to test names: all, an exact-name set, or a regular expression."""

    text: str | None
    names: frozenset[str] | None = None
    pattern: re.Pattern[str] | None = None

    @property
    def matches_all(self) -> bool:
        """Whether this matcher accepts every value."""
        return self.names is None and self.pattern is None

    def matches(self, value: str | None) -> bool:
        """Test one value (``None`` only matches a match-all matcher)."""
        if self.names is None and self.pattern is None:
            return True
        if value is None:
            return False
        if self.names is not None:
            return value in self.names
        assert self.pattern is not None
        return self.pattern.search(value) is not None


def compile_matcher(text: str | None, dialect: Dialect) -> CompiledMatcher:
    """Compile a matcher under a dialect's rules.

    Raises:
        re.error: the matcher is an invalid regular expression.
    """
    if text is None or text.strip() in ("", "*"):
        return CompiledMatcher(text)
    exact = _DOCKER_EXACT if dialect.anchored_matchers else _EXACT
    if exact.match(text):
        names = frozenset(p.strip() for p in re.split(r"[|,]", text) if p.strip())
        return CompiledMatcher(text, names=names)
    source = f"^(?:{text})$" if dialect.anchored_matchers else text
    return CompiledMatcher(text, pattern=re.compile(source))


_RULE = re.compile(r"^\s*([^()\s]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_PATH_TOOLS = frozenset({"Edit", "Write", "Read", "MultiEdit", "NotebookEdit", "NotebookRead"})
_CONTENT_KEYS = ("command", "file_path", "notebook_path", "path", "url", "pattern", "query")


@attrs.frozen
class IfRule:
    """A compiled Claude Code permission rule used as a per-handler filter."""

    text: str
    tool: str
    content: str | None

    def matches(
        self, tool_name: str | None, tool_input: Mapping[str, Any], cwd: str | None
    ) -> bool:
        """Whether a tool call matches this rule."""
        if tool_name is None or not fnmatch.fnmatchcase(tool_name, self.tool):
            return False
        if self.content is None or self.content in ("", "*", "**"):
            return True
        pattern = self.content
        if tool_name in _PATH_TOOLS:
            path = tool_input.get("file_path") or tool_input.get("notebook_path")
            return isinstance(path, str) and _path_matches(pattern, path, cwd)
        if pattern.startswith("domain:"):
            from urllib.parse import urlsplit  # only WebFetch rules need it

            url = tool_input.get("url")
            host = urlsplit(url).hostname if isinstance(url, str) else None
            return host is not None and fnmatch.fnmatchcase(host, pattern[len("domain:") :])
        if pattern.endswith(":*"):  # legacy prefix form: "npm run test:*"
            pattern = pattern[:-2] + "*"
        for key in _CONTENT_KEYS:
            value = tool_input.get(key)
            if isinstance(value, str):
                return fnmatch.fnmatchcase(value.strip(), pattern)
        return False


def _path_matches(pattern: str, path: str, cwd: str | None) -> bool:
    """gitignore-like: a pattern without ``/`` matches the file name anywhere; with
    one it matches the path relative to cwd (``//abs`` and ``~/`` are absolute)."""
    path = path.replace("\\", "/")
    if "/" not in pattern:
        return fnmatch.fnmatchcase(posixpath.basename(path), pattern)
    if pattern.startswith("//"):
        return fnmatch.fnmatchcase(path, pattern[1:])
    if pattern.startswith("~/"):
        return fnmatch.fnmatchcase(path, os.path.expanduser(pattern))
    pattern = pattern.removeprefix("./").removeprefix("/")
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        rel = path[len(cwd.rstrip("/")) + 1 :]
        if fnmatch.fnmatchcase(rel, pattern):
            return True
    return fnmatch.fnmatchcase(path, "*/" + pattern) or fnmatch.fnmatchcase(path, pattern)


def parse_if_rule(text: str) -> IfRule:
    """Parse ``Tool`` or ``Tool(content)``.

    Raises:
        ValueError: the text is not a permission rule.
    """
    m = _RULE.match(text)
    if not m or not m.group(1):
        raise ValueError(f"{text!r} is not a permission rule like 'Bash(git *)' or 'Edit(*.ts)'")
    return IfRule(text=text, tool=m.group(1), content=m.group(2))
