"""What an ``if`` rule can see of a shell command: its simple commands.

Claude Code checks a ``Bash(...)`` rule against every simple command of the tool
call's command line: each part of a list or pipeline (``&&``, ``||``, ``;``, ``|``,
``&``, newlines), of subshells ``( )``, groups ``{ ...; }`` and control structures,
and the commands inside ``$(...)``, backticks and ``<(...)``, at any depth, with
leading ``VAR=value`` assignments stripped. The shell's own reserved words before a
command (``!``, ``time``, ``coproc``) are not the command either; programs that run
another program (``sudo``, ``env``, ``exec``, ``xargs``, ``nohup``) are, as in the
reference. :func:`split_command` reads a command line into a :class:`ShellView`
holding those commands; the ``if`` rule (:mod:`._matching`) decides.

Two readers, chosen by :data:`BACKEND`:

- ``"tree-sitter"``: a real parser (tree-sitter with the tree-sitter-bash grammar,
  the ``shell`` extra). It sees quotes, heredocs, comments, redirections,
  expansions and substitutions as bash does. Where the grammar reads differently
  from bash, the line is read both ways and every command either reading finds is
  kept: a backslash-newline (bash joins the lines, the grammar breaks the word),
  backquotes nested in backquotes, and words after a redirection
  (``git 2>/dev/null push`` is ``git push``).
- ``"shlex"``: the standard library's lexer, used when the extra is not installed.
  It cannot read substitutions or heredocs, so a command holding ``$(``, a
  backtick, ``<(``, ``>(`` or a heredoc is reported unparsed; where it cannot tell
  a quoted word from an operator or a comment, it splits more, never less, and
  keeps both readings.

Failure: :func:`split_command` never raises for any string. A command line that a
reader cannot read completely (a syntax error, an unterminated quote, text that is
not UTF-8, a construct the fallback does not handle, or an error in the parser
library) is a view with ``parsed=False``, and the caller runs the hook.
"""

from __future__ import annotations

import re
import shlex
import threading
from typing import TYPE_CHECKING, Literal

import attrs

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

__all__ = ["BACKEND", "Backend", "ShellView", "split_command", "tree_sitter_available"]

Backend = Literal["tree-sitter", "shlex"]

BACKEND: Literal["auto", "tree-sitter", "shlex"] = "auto"
"""The reader :func:`split_command` uses when it is not given one: ``"auto"`` (the
default) is tree-sitter when the ``shell`` extra is installed, else shlex. Tests set
it to ``"shlex"`` to exercise the fallback."""


@attrs.frozen
class ShellView:
    """One command line as an ``if`` rule sees it.

    Attributes:
        backend: the reader that produced it.
        parsed: ``False`` when the reader could not read the whole command line;
            the other fields are then empty and the hook must run.
        commands: candidate texts of every simple command, leading assignments
            stripped: each as written (from the command name to its last argument)
            and with its words unquoted and joined by single spaces. A rule matches
            the line when it matches any of them.
        expansions: the line holds ``$(...)``, backticks, ``<(...)``, ``$VAR``,
            ``${...}`` or ``$((...))``: text a rule that says more than a command
            name cannot see through.
        dynamic_name: some command's name is not literal text (an expansion, a
            substitution, a glob or a brace pattern), so no rule can tell which
            program runs.
    """

    backend: Backend
    parsed: bool
    commands: tuple[str, ...] = ()
    expansions: bool = False
    dynamic_name: bool = False


def split_command(
    command: str, backend: Literal["auto", "tree-sitter", "shlex"] | None = None
) -> ShellView:
    """Read ``command`` into its simple commands.

    ``backend`` is the reader (default: :data:`BACKEND`); ``"auto"`` picks
    tree-sitter when it is installed, else shlex.

    Never raises for any ``command``: what cannot be read is a view with
    ``parsed=False`` (see the module's docstring).

    Raises:
        RuntimeError: ``backend="tree-sitter"`` was asked for explicitly and the
            ``shell`` extra (tree-sitter, tree-sitter-bash) is not installed.
    """
    chosen = BACKEND if backend is None else backend
    if chosen == "auto":
        chosen = "tree-sitter" if tree_sitter_available() else "shlex"
    if chosen == "tree-sitter":
        parser = _parser()
        if parser is None:
            raise RuntimeError(
                "the tree-sitter shell reader needs the 'shell' extra: "
                "pip install 'py-agent-hooks[shell]'"
            )
        try:
            return _read_tree(parser, command)
        except Exception:  # a parser library error is a line we could not read
            return ShellView("tree-sitter", parsed=False)
    try:
        return _read_shlex(command)
    except Exception:  # never raise: an unreadable line runs the hook
        return ShellView("shlex", parsed=False)


# ------------------------------------------------------------------ tree-sitter

_language: object = None
"""The loaded grammar; ``None`` before the first try, ``False`` when it cannot load."""
_load_lock = threading.Lock()
_local = threading.local()


def tree_sitter_available() -> bool:
    """Whether the ``shell`` extra is installed and its grammar loads.

    Loads the grammar on the first call (``if`` rules call it when they are
    compiled, so the first dispatch does not pay for it); never raises.
    """
    return _load_language() is not None


def _load_language() -> object:
    global _language
    if _language is None:
        with _load_lock:
            if _language is None:
                try:
                    import tree_sitter
                    import tree_sitter_bash

                    _language = tree_sitter.Language(tree_sitter_bash.language())
                except Exception:  # not installed, or a grammar this binding cannot load
                    _language = False
    return None if _language is False else _language


def _parser() -> Parser | None:
    """This thread's parser (a tree-sitter ``Parser`` is not thread-safe)."""
    language = _load_language()
    if language is None:
        return None
    parser: Parser | None = getattr(_local, "parser", None)
    if parser is None:
        from tree_sitter import Language, Parser

        assert isinstance(language, Language)
        parser = _local.parser = Parser(language)
    return parser


_EXPANSION_NODES = frozenset(
    {
        "command_substitution",
        "process_substitution",
        "simple_expansion",
        "expansion",
        "arithmetic_expansion",
    }
)
_WHOLE_COMMAND_NODES = frozenset({"declaration_command", "unset_command", "test_command"})
_RESERVED_PREFIXES = frozenset({"time", "coproc"})
_VERBATIM_NODES = frozenset({"comment", "raw_string", "ansi_c_string"})
_DYNAMIC_NAME = re.compile(r"[*?\[]|\{[^}]*(?:,|\.\.)[^}]*\}")
"""A glob or a brace expansion in a command name: the program is decided at run time."""
_CONTINUATION = re.compile(r"(?<!\\)((?:\\\\)*)\\\n")
_CONTINUATION_BYTES = re.compile(rb"(?<!\\)((?:\\\\)*)\\\n")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_STRING_ESCAPE = re.compile(r"\\([$`\"\\])")
_BACKQUOTE_ESCAPE = re.compile(r"\\([$`\\])")


def _read_tree(parser: Parser, command: str) -> ShellView:
    try:
        data = command.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: not a line bash could be given
        return ShellView("tree-sitter", parsed=False)
    if b"\x00" in data:  # nor is a NUL byte (the grammar reads past it)
        return ShellView("tree-sitter", parsed=False)
    view, verbatim, nested = _read_bytes(parser, data)
    if view.parsed and b"\\\n" in data:
        # The grammar reads a backslash-newline as a break between words, where bash
        # joins the lines (r\<newline>m is rm). Read the line again with them joined,
        # except where bash keeps them (comments, single quotes, quoted heredocs),
        # and keep what either reading found.
        joined, _, more = _read_bytes(parser, _join_lines(data, verbatim))
        view = _merge(view, joined)
        nested += more
    for inner in nested:
        # the grammar reads a backquoted substitution inside another as text
        view = _merge(view, _read_tree(parser, inner))
    return view


def _merge(a: ShellView, b: ShellView) -> ShellView:
    """What either reading found; unparsed when either is."""
    if not (a.parsed and b.parsed):
        return ShellView("tree-sitter", parsed=False)
    return ShellView(
        "tree-sitter",
        parsed=True,
        commands=tuple(dict.fromkeys(a.commands + b.commands)),
        expansions=a.expansions or b.expansions,
        dynamic_name=a.dynamic_name or b.dynamic_name,
    )


def _read_bytes(parser: Parser, data: bytes) -> tuple[ShellView, list[tuple[int, int]], list[str]]:
    """The view of one parse, the byte spans bash reads verbatim, and the bodies of
    backquoted substitutions that hold nested ones (unescaped, to read again)."""
    root = parser.parse(data).root_node
    if root.has_error:  # ERROR or MISSING nodes anywhere: fail open
        return ShellView("tree-sitter", parsed=False), [], []
    commands: list[str] = []
    verbatim: list[tuple[int, int]] = []
    nested: list[str] = []
    expansions = dynamic_name = False
    stack: list[Node] = [root]  # iterative: nesting depth is the caller's to choose
    while stack:
        node = stack.pop()
        kind = node.type
        children = node.children
        if kind in _EXPANSION_NODES:
            expansions = True
            text = _text(node, data)
            if kind == "command_substitution" and text.startswith("`") and "\\`" in text:
                nested.append(_BACKQUOTE_ESCAPE.sub(r"\1", text[1:-1]))
        elif kind in _VERBATIM_NODES:
            verbatim.append((node.start_byte, node.end_byte))
        elif kind == "heredoc_redirect":
            start = node.child_by_field_name("start") or next(
                (c for c in children if c.type == "heredoc_start"), None
            )
            if start is not None and any(q in _text(start, data) for q in "'\"\\"):
                verbatim += [
                    (c.start_byte, c.end_byte) for c in children if c.type == "heredoc_body"
                ]
        elif kind == "redirected_statement":
            body = node.child_by_field_name("body")
            if body is not None and body.type == "command":
                # bash runs `git 2>/dev/null push` as `git push`; the grammar hangs
                # the words after a redirection on the redirection node
                redirects = node.children_by_field_name("redirect")
                dynamic_name |= _simple_command(body, redirects, node.end_byte, data, commands)
                children = [c for c in children if c != body] + body.children
        elif kind == "command":
            dynamic_name |= _simple_command(node, [], node.end_byte, data, commands)
        elif kind in _WHOLE_COMMAND_NODES:
            commands.append(_text(node, data))
        stack.extend(reversed(children))
    view = ShellView(
        "tree-sitter",
        parsed=True,
        commands=tuple(dict.fromkeys(commands)),
        expansions=expansions,
        dynamic_name=dynamic_name,
    )
    return view, verbatim, nested


def _join_lines(data: bytes, verbatim: list[tuple[int, int]]) -> bytes:
    """``data`` without the backslash-newlines that lie outside ``verbatim`` spans."""
    out: list[bytes] = []
    last = 0
    for m in _CONTINUATION_BYTES.finditer(data):
        at = m.end() - 2
        if any(a <= at < b for a, b in verbatim):
            continue
        out.append(data[last:at])
        last = m.end()
    out.append(data[last:])
    return b"".join(out)


def _simple_command(
    node: Node, redirects: list[Node], end: int, data: bytes, out: list[str]
) -> bool:
    """Append a command's candidates to ``out``: as written from its name to ``end``
    (its redirections included), and its words unquoted. The grammar reads the
    reserved words ``time`` and ``coproc`` as a command name: the command after
    them is a candidate too. Returns whether the name is dynamic."""
    name = node.child_by_field_name("name")
    if name is None or not name.named_children:  # only assignments or redirections
        return False
    words = [name.named_children[0], *node.children_by_field_name("argument")]
    for redirect in redirects:
        words += redirect.children_by_field_name("destination")[1:]
        words += redirect.children_by_field_name("argument")
    plain = [_literal(word, data) for word in words]
    texts = [p if p is not None else _text(w, data) for w, p in zip(words, plain, strict=True)]
    first = 0
    while True:
        out.append(data[words[first].start_byte : end].decode("utf-8"))
        out.append(" ".join(texts[first:]))
        reserved = plain[first]
        if reserved not in _RESERVED_PREFIXES or first + 1 == len(words):
            break
        first += 1
        if reserved == "time" and plain[first] == "-p" and first + 1 < len(words):
            first += 1
    name_text = _text(words[first], data)
    return plain[first] is None or (
        name_text not in ("[", "[[") and _DYNAMIC_NAME.search(name_text) is not None
    )


def _literal(node: Node, data: bytes) -> str | None:
    """A word's value when it is literal text (quotes removed), else ``None``."""
    kind = node.type
    text = _text(node, data)
    if kind in ("word", "number"):
        return _ESCAPE.sub(r"\1", _CONTINUATION.sub(r"\1", text))
    if kind == "raw_string":
        return text[1:-1]
    if kind == "string":
        if any(p.type != "string_content" for p in node.named_children):
            return None  # holds an expansion
        # the text between the quotes (the grammar leaves newlines out of its parts)
        return _STRING_ESCAPE.sub(r"\1", _CONTINUATION.sub(r"\1", text[1:-1]))
    if kind == "concatenation":
        values = [_literal(p, data) for p in node.named_children]
        return None if any(v is None for v in values) else "".join(v or "" for v in values)
    return None


def _text(node: Node, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8")


# ------------------------------------------------------------------------ shlex

_UNSURE = ("`", "$(", "<(", ">(", "\x00")
_OPERATOR_CHARS = frozenset(";&|()\n")
_REDIRECTS = frozenset({"<", ">", ">>", "<>", ">|", ">&", "<&", "&>", "&>>", "<<<"})
_PUNCTUATION = ";&|()<>\n"
_KEYWORDS = frozenset(
    {"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"}
    | {"case", "esac", "for", "select", "function", "coproc", "time"}
)
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?\+?=")


def _read_shlex(command: str) -> ShellView:
    """The fallback: split on operators with ``shlex``; unsure means unparsed."""
    unparsed = ShellView("shlex", parsed=False)
    if any(s in command for s in _UNSURE):
        return unparsed
    if "#" in command and "\\\n" in command:
        return unparsed  # bash does not join a comment's line with the next one

    lexer = shlex.shlex(
        _CONTINUATION.sub(r"\1", command), posix=True, punctuation_chars=_PUNCTUATION
    )
    lexer.whitespace = " \t\r"  # a newline separates commands
    lexer.whitespace_split = True
    lexer.commenters = ""  # shlex would end a word like a#b at '#' and drop the rest
    try:
        tokens = list(lexer)
    except ValueError:  # an unterminated quote or escape
        return unparsed
    parts: list[list[str]] = [[]]
    for token in tokens:
        if _is_punctuation(token) and token not in _REDIRECTS:
            if "<<" in token or not set(token) <= _OPERATOR_CHARS:
                return unparsed  # a heredoc, or an operator shape not understood
            parts.append([])
        else:
            parts[-1].append(token)
    commands: list[str] = []
    dynamic_name = False
    for words in parts:
        if words:
            dynamic_name |= _shlex_candidates(words, commands)
        # shlex cannot tell a comment from a quoted '#': read it both ways
        hashed = next((n for n, w in enumerate(words) if w.startswith("#")), 0)
        if hashed:
            dynamic_name |= _shlex_candidates(words[:hashed], commands)
    return ShellView(
        "shlex",
        parsed=True,
        commands=tuple(dict.fromkeys(c for c in commands if c)),
        expansions="$" in command,
        dynamic_name=dynamic_name,
    )


def _shlex_candidates(words: list[str], out: list[str]) -> bool:
    """Candidates of one simple command, from each point where its name may start
    (after keywords, assignments and redirections); whether the name is dynamic.
    shlex has removed the quotes, so a quoted ``'X=$Y'`` (a name in bash) looks
    like an assignment: one holding ``$`` counts as a dynamic name too."""
    i = 0
    dynamic = False
    while True:
        out.append(_join(words[i:], drop_descriptors=False))
        out.append(_join(words[i:], drop_descriptors=True))
        if i >= len(words):
            return dynamic
        word = words[i]
        if word in _KEYWORDS or _ASSIGNMENT.match(word):
            dynamic |= "$" in word
            i += 2 if word == "time" and words[i + 1 : i + 2] == ["-p"] else 1
        elif word in _REDIRECTS:
            i += 2 if i + 1 < len(words) and not _is_punctuation(words[i + 1]) else 1
        elif word.isdigit() and i + 1 < len(words) and words[i + 1] in _REDIRECTS:
            i += 1
        else:
            return (
                dynamic
                or "$" in word
                or (word not in ("[", "[[") and _DYNAMIC_NAME.search(word) is not None)
            )


def _join(words: list[str], *, drop_descriptors: bool) -> str:
    """The words without redirections (operator and target); with
    ``drop_descriptors``, a number just before a redirection goes too (``2>&1``)."""
    kept: list[str] = []
    skip = False
    for n, word in enumerate(words):
        if skip:
            skip = False
        elif word in _REDIRECTS:
            skip = n + 1 < len(words) and not _is_punctuation(words[n + 1])
        elif not (
            drop_descriptors
            and word.isdigit()
            and n + 1 < len(words)
            and words[n + 1] in _REDIRECTS
        ):
            kept.append(word)
    return " ".join(kept)


def _is_punctuation(token: str) -> bool:
    return bool(token) and all(c in _PUNCTUATION for c in token)
