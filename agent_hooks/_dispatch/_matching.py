"""Matchers and ``if`` rules, compiled once at registration.

Matcher rules (Claude Code, Deep Agents Code, Codex): ``None``, ``""`` and
``"*"`` match everything; a matcher made only of letters, digits, ``_``, ``-``,
spaces, ``,`` and ``|`` is a set of exact names split on ``|`` or ``,``;
anything else is an unanchored regular expression (``re.search``). Docker
Agent anchors its regular expressions (``^(?:m)$``).

``if`` rules use Claude Code's permission-rule syntax: ``Bash``,
``Bash(git *)``, ``Edit(*.ts)``, ``WebFetch(domain:example.com)``,
``mcp__server__tool``. They only apply to tool events. A shell command is checked
subcommand by subcommand (:mod:`._shell` reads it), and the filter fails open: when
it cannot tell, the hook runs (see :meth:`IfRule.matches`).
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
from collections.abc import Mapping
from typing import Any, Literal

import attrs

from .._wire._dialects import Dialect
from . import _shell

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
_MATCH_ALL = frozenset({"", "*", "**"})


@attrs.frozen
class _PathPattern:
    """A file pattern of an ``Edit(...)``-style rule, compiled once.

    ``scope``: ``name`` (no ``/``: the file name at any depth), ``absolute``
    (``//abs`` or ``~/``) or ``relative`` (anchored at the working directory).
    """

    scope: Literal["name", "absolute", "relative"]
    regex: re.Pattern[str]
    any_depth: re.Pattern[str]

    def matches(self, path: str, cwd: str | None) -> bool:
        path = path.replace("\\", "/")
        if self.scope == "name":
            return self.regex.match(posixpath.basename(path)) is not None
        path = posixpath.normpath(path) if path else path
        if self.scope == "absolute":
            return self.regex.match(path) is not None
        base = posixpath.normpath(cwd.replace("\\", "/")).rstrip("/") if cwd else None
        if base and path.startswith(base + "/"):
            rel = path[len(base) + 1 :]
        elif path.startswith("/") or _DRIVE.match(path):
            if base:
                return False  # outside the working directory
            # no working directory to anchor at: any depth (what Claude Code did
            # before v2.1.214), so the hook runs rather than being skipped
            return self.any_depth.match(path) is not None
        else:
            rel = path  # relative paths are relative to the working directory
        return self.regex.match(rel) is not None


_DRIVE = re.compile(r"[A-Za-z]:/")


def _compile_path(pattern: str) -> _PathPattern:
    if "/" not in pattern:
        regex = re.compile(_glob_regex(pattern))
        return _PathPattern("name", regex, regex)
    if pattern.startswith("//"):
        regex = re.compile(_glob_regex(pattern[1:]))
        return _PathPattern("absolute", regex, regex)
    if pattern.startswith("~/"):
        regex = re.compile(_glob_regex(os.path.expanduser(pattern)))
        return _PathPattern("absolute", regex, regex)
    body = _glob_regex(pattern.removeprefix("./").removeprefix("/"))
    return _PathPattern("relative", re.compile(body), re.compile(r"(?:.*/)?" + body))


def _glob_regex(pattern: str) -> str:
    """A path glob as a regular expression matching the whole path: ``**/`` is any
    number of directories (none included), ``*`` any text, ``?`` one character,
    ``[...]`` a character class (``[!...]`` negated). ``*`` also crosses ``/``, as
    the fnmatch rules before it did: broader than gitignore, so a hook runs rather
    than being skipped."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        c = pattern[i]
        i += 1
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif (
            c == "["
            and (end := pattern.find("]", i + 1 if pattern[i : i + 1] in ("!", "]") else i)) > 0
        ):
            body = pattern[i:end]
            negate = body.startswith("!")
            chars = "".join("\\" + ch if ch in "\\[]^" else ch for ch in body[negate:])
            cls = "[" + ("^" if negate else "") + chars + "]"
            try:
                re.compile(cls)
            except re.error:  # e.g. a reversed range: the bracket is literal text
                out.append(re.escape(c))
                continue
            out.append(cls)
            i = end + 1
        else:
            out.append(re.escape(c))
    return "(?s:" + "".join(out) + r")\Z"


def _compile_glob(content: str) -> re.Pattern[str]:
    """The content pattern of a rule (``git *``): ``*`` is any text; a trailing
    `` *`` also matches the bare prefix (``git *`` matches ``git``); the legacy
    ``prefix:*`` form is a prefix match."""
    if content.endswith(":*"):  # legacy prefix form: "npm run test:*"
        content = content[:-2] + "*"
    source = fnmatch.translate(content)
    if content.endswith(" *"):
        source = f"(?:{source})|(?:{fnmatch.translate(content[:-2])})"
    return re.compile(source)


def _names_more_than_a_command(content: str) -> bool:
    """Whether a shell pattern says more than the command name: ``git push *`` does,
    ``git *``, ``git`` and the legacy ``git:*`` do not."""
    words = content.removesuffix(":*").split()
    return len(words) > 2 or (len(words) == 2 and words[1] != "*")


@attrs.frozen
class IfRule:
    """A compiled Claude Code permission rule used as a per-handler filter.

    Build it with :func:`parse_if_rule`; everything that does not depend on the
    tool call (the glob, the file pattern, the pattern's shape) is compiled then,
    once, at registration. :meth:`matches` decides per tool call.
    """

    text: str
    tool: str
    content: str | None
    _any: bool = attrs.field(init=False, repr=False, eq=False)
    _glob: re.Pattern[str] | None = attrs.field(init=False, repr=False, eq=False)
    _path: _PathPattern | None = attrs.field(init=False, repr=False, eq=False)
    _specific: bool = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        content = self.content
        match_all = content is None or content.strip() in _MATCH_ALL
        set_ = object.__setattr__
        set_(self, "_any", match_all)
        set_(self, "_glob", None if match_all or content is None else _compile_glob(content))
        set_(self, "_path", None if match_all or content is None else _compile_path(content))
        set_(self, "_specific", bool(content) and _names_more_than_a_command(content or ""))

    def matches(
        self, tool_name: str | None, tool_input: Mapping[str, Any], cwd: str | None
    ) -> bool:
        """Whether the handler should run for this tool call. Never raises.

        - The tool name must match the rule's tool (``*`` is a wildcard).
        - File tools (``Edit``, ``Write``, ``Read``, ...) match ``file_path`` or
          ``notebook_path`` against the file pattern: without ``/`` it is a file
          name at any depth (``*.ts``); with one it is anchored at ``cwd``
          (``src/**`` is the ``src`` directory of the working directory,
          ``**/src/**`` a ``src`` directory at any depth; ``//abs`` and ``~/`` are
          absolute). Without ``cwd`` an absolute path matches at any depth.
        - ``domain:`` patterns match the host of ``url``.
        - A ``command`` is a shell command line and the hook runs when the pattern
          matches the whole line, or any simple command in it (each part of
          ``&&``, ``||``, ``;``, ``|``, newlines, ``( )``, ``{ ...; }``, and
          inside ``$(...)``, backticks and ``<(...)``, leading ``VAR=value``
          assignments stripped; ``sudo``, ``env`` and other wrappers are not).
          It also runs when the line cannot be read completely (a syntax error,
          or a construct the shlex fallback does not handle: the filter fails
          open), when a command's name is not literal text (``$CMD``), and, for
          a pattern that says more than the command name (``git push *``), when
          the line holds ``$(...)``, backticks or ``$VAR`` it cannot see through.
          A ``command`` that is not a string (another harness's argument list)
          runs the hook too. See :mod:`agent_hooks._dispatch._shell` for the
          readers.
        - Other tools match the first string among ``file_path``,
          ``notebook_path``, ``path``, ``url``, ``pattern`` and ``query``; no such
          string: no match.
        """
        if tool_name is None or not fnmatch.fnmatchcase(tool_name, self.tool):
            return False
        if self._any:
            return True
        pattern = self.content or ""
        if tool_name in _PATH_TOOLS:
            path = tool_input.get("file_path") or tool_input.get("notebook_path")
            return (
                isinstance(path, str) and self._path is not None and self._path.matches(path, cwd)
            )
        if pattern.startswith("domain:"):
            from urllib.parse import urlsplit  # only WebFetch rules need it

            url = tool_input.get("url")
            try:
                host = urlsplit(url).hostname if isinstance(url, str) else None
            except ValueError:  # an unreadable URL: fail open, as for commands
                return True
            return host is not None and fnmatch.fnmatchcase(host, pattern[len("domain:") :])
        assert self._glob is not None
        command = tool_input.get("command")
        if command is not None:  # not a string (an argv list): unreadable, fail open
            return self._command_matches(command) if isinstance(command, str) else True
        for key in _CONTENT_KEYS[1:]:
            value = tool_input.get(key)
            if isinstance(value, str):
                return self._glob.match(value.strip()) is not None
        return False

    def subcommands(self, tool_input: Mapping[str, Any]) -> tuple[tuple[str, bool], ...]:
        """For ``explain``: each simple command of the tool call's ``command`` (as the
        shell reader splits it) and whether this rule's pattern matches it; empty when
        the rule reads no command, or the line cannot be read. :meth:`matches` decides;
        this only shows the parts it looked at."""
        command = tool_input.get("command")
        if self._any or self._glob is None or not isinstance(command, str):
            return ()
        try:
            view = _shell.split_command(command)
        except RuntimeError:
            return ()
        if not view.parsed:
            return ()
        seen: dict[str, bool] = {}
        for c in view.commands:
            seen.setdefault(c, self._glob.match(c) is not None)
        return tuple(seen.items())

    def _command_matches(self, command: str) -> bool:
        """The shell part of :meth:`matches` (its contract); never raises."""
        glob = self._glob
        assert glob is not None
        if glob.match(command.strip()):  # the whole line, as before subcommands were read
            return True
        try:
            view = _shell.split_command(command)
        except RuntimeError:  # BACKEND forces a reader that is not installed: fail open
            return True
        if not view.parsed or view.dynamic_name:
            return True
        if self._specific and view.expansions:
            return True
        return any(glob.match(c) for c in view.commands)


def parse_if_rule(text: str) -> IfRule:
    """Parse and compile ``Tool`` or ``Tool(content)``.

    A rule that reads shell commands loads the shell parser here (when the
    ``shell`` extra is installed), so the first dispatch does not pay for it.

    Raises:
        ValueError: the text is not a permission rule.
    """
    m = _RULE.match(text)
    if not m or not m.group(1):
        raise ValueError(f"{text!r} is not a permission rule like 'Bash(git *)' or 'Edit(*.ts)'")
    tool, content = m.group(1), m.group(2)
    rule = IfRule(text=text, tool=tool, content=content)
    if rule._glob is not None and tool not in _PATH_TOOLS and not content.startswith("domain:"):
        _shell.tree_sitter_available()
    return rule
