"""What an ``if`` rule can see of a shell command: its simple commands.

Claude Code checks a ``Bash(...)`` rule against every simple command of the tool
call's command line: each part of a list or pipeline (``&&``, ``||``, ``;``, ``|``,
``&``, newlines), of subshells ``( )``, groups ``{ ...; }``, function bodies and
control structures, and the commands inside ``$(...)``, backticks and ``<(...)``, at
any depth, with leading ``VAR=value`` assignments stripped. The shell's own reserved
words before a command (``!``, ``time``, ``coproc``) are not the command either;
programs that run another program (``sudo``, ``env``, ``exec``, ``xargs``, ``nohup``)
are, as in the reference.

What bash itself runs is read too, as command lines of their own (up to
:data:`_MAX_DEPTH` deep): the substitutions of unquoted heredoc bodies (``cat <<EOF``
with backticks, ``<<-`` bodies; a quoted ``<<'EOF'`` body is data, as bash leaves it
unexpanded), ``eval``'s arguments, the script of ``sh -c``/``bash -c`` (and the other
common shells, ``su -c``, also behind a wrapper: ``sudo bash -c``), and the heredoc or
here-string a shell reads as its script (``bash <<'EOF'``). A script the line does not
show (``eval "$cmd"``, ``bash -c "$cmd"``, a shell reading a pipe or a file:
``curl ... | sh``) counts as a dynamic command name: every rule runs the hook.
:func:`split_command` reads a command line into a :class:`ShellView` holding those
commands; the ``if`` rule (:mod:`._matching`) decides.

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
  backtick, ``<(``, ``>(`` or a heredoc (quoted or not) is reported unparsed (the hook
  runs: a deny rule fails closed); ``eval``, ``sh -c`` and ``function f { ...; }`` it
  reads as the parser does; where it cannot tell
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


def _read_tree(parser: Parser, command: str, depth: int = 0) -> ShellView:
    if depth > _MAX_DEPTH:  # scripts inside scripts without end: not read
        return ShellView("tree-sitter", parsed=False)
    try:
        data = command.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: not a line bash could be given
        return ShellView("tree-sitter", parsed=False)
    if b"\x00" in data:  # nor is a NUL byte (the grammar reads past it)
        return ShellView("tree-sitter", parsed=False)
    view, verbatim, found = _read_bytes(parser, data)
    if view.parsed and b"\\\n" in data:
        # The grammar reads a backslash-newline as a break between words, where bash
        # joins the lines (r\<newline>m is rm). Read the line again with them joined,
        # except where bash keeps them (comments, single quotes, quoted heredocs),
        # and keep what either reading found.
        joined, _, more = _read_bytes(parser, _join_lines(data, verbatim))
        view = _merge(view, joined)
        found.nested += more.nested
        found.bodies += more.bodies
        found.scripts += more.scripts
    if not view.parsed:
        return view
    # the grammar reads a backquoted substitution inside another as text; what eval,
    # `sh -c` and a shell reading a heredoc run is a command line of its own
    for inner in found.nested + found.scripts:
        view = _merge(view, _read_tree(parser, inner, depth + 1))
    for body in found.bodies:
        # the grammar misses backquotes in heredoc bodies, and $(...) right after the
        # tabs a <<- heredoc strips: find every substitution bash would run
        inner_commands = _body_substitutions(parser, body)
        if inner_commands is None:
            return ShellView("tree-sitter", parsed=False)
        for inner in inner_commands:
            view = _merge(view, _read_tree(parser, inner, depth + 1))
    return view


@attrs.define
class _Found:
    """What one parse leaves to read again: backquoted substitutions holding nested
    ones (unescaped), the bodies of unquoted heredocs, and the scripts that eval,
    ``sh -c`` or a shell fed by a heredoc or a here-string run."""

    nested: list[str] = attrs.Factory(list)
    bodies: list[str] = attrs.Factory(list)
    scripts: list[str] = attrs.Factory(list)


_MAX_DEPTH = 16
"""How deeply scripts inside scripts (``eval``, ``sh -c``, substitutions of heredoc
bodies) are read; deeper is a line not read (the hook runs)."""
_BODY_BUDGET = 1 << 20
"""Bytes the search for the ends of ``$(...)`` in heredoc bodies may parse per line."""


def _body_substitutions(parser: Parser, body: str) -> list[str] | None:
    """The command lines bash runs while it expands an unquoted heredoc body: those
    of its backquoted and ``$(...)`` substitutions, at any depth (nested ones are read
    by :func:`_read_tree` from these). ``None`` when the body cannot be read (an
    unterminated substitution, or too much to search)."""
    out: list[str] = []
    budget = _BODY_BUDGET
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "\\":
            i += 2  # \$, \` and \\ are escapes; any other pair holds no substitution
        elif c == "`":
            j, text = i + 1, []
            while j < n and body[j] != "`":
                if body[j] == "\\" and j + 1 < n:
                    nxt = body[j + 1]
                    text.append(nxt if nxt in "$`\\" else body[j : j + 2])
                    j += 2
                else:
                    text.append(body[j])
                    j += 1
            if j >= n:
                return None
            out.append("".join(text))
            i = j + 1
        elif body.startswith("$(", i):
            # bash ends the substitution at the first ')' that closes a complete one
            end = body.find(")", i + 2)
            while end != -1:
                candidate = body[i : end + 1]
                budget -= len(candidate)
                if budget < 0:
                    return None
                if not parser.parse(b": " + candidate.encode("utf-8")).root_node.has_error:
                    break
                end = body.find(")", end + 1)
            if end == -1:
                return None
            out.append(": " + body[i : end + 1])
            i = end + 1
        else:
            i += 1
    return out


def _merge(a: ShellView, b: ShellView) -> ShellView:
    """What either reading found; unparsed when either is."""
    if not (a.parsed and b.parsed):
        return ShellView(a.backend, parsed=False)
    return ShellView(
        a.backend,
        parsed=True,
        commands=tuple(dict.fromkeys(a.commands + b.commands)),
        expansions=a.expansions or b.expansions,
        dynamic_name=a.dynamic_name or b.dynamic_name,
    )


def _read_bytes(parser: Parser, data: bytes) -> tuple[ShellView, list[tuple[int, int]], _Found]:
    """The view of one parse, the byte spans bash reads verbatim, and what to read
    again (:class:`_Found`)."""
    root = parser.parse(data).root_node
    found = _Found()
    if root.has_error:  # ERROR or MISSING nodes anywhere: fail open
        return ShellView("tree-sitter", parsed=False), [], found
    commands: list[str] = []
    verbatim: list[tuple[int, int]] = []
    nested = found.nested
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
            bodies = [c for c in children if c.type == "heredoc_body"]
            if start is not None and any(q in _text(start, data) for q in "'\"\\"):
                verbatim += [(c.start_byte, c.end_byte) for c in bodies]
            else:  # bash expands an unquoted body: its substitutions run
                found.bodies += [_text(c, data) for c in bodies]
        elif kind == "redirected_statement":
            body = node.child_by_field_name("body")
            if body is not None and body.type == "command":
                # bash runs `git 2>/dev/null push` as `git push`; the grammar hangs
                # the words after a redirection on the redirection node
                redirects = node.children_by_field_name("redirect")
                dynamic_name |= _simple_command(
                    body, redirects, node.end_byte, data, commands, found.scripts
                )
                children = [c for c in children if c != body] + body.children
        elif kind == "command":
            dynamic_name |= _simple_command(node, [], node.end_byte, data, commands, found.scripts)
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
    return view, verbatim, found


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
    node: Node, redirects: list[Node], end: int, data: bytes, out: list[str], scripts: list[str]
) -> bool:
    """Append a command's candidates to ``out``: as written from its name to ``end``
    (its redirections included), and its words unquoted. The grammar reads the
    reserved words ``time`` and ``coproc`` as a command name: the command after
    them is a candidate too. Append to ``scripts`` what it runs as a command line of
    its own (:func:`_inner_scripts`). Returns whether the name is dynamic, or what it
    runs cannot be seen."""
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
    inner, stdin, unseen = _inner_scripts(plain[first:])
    if stdin:  # a shell reading its script: from a heredoc or a here-string, or unseen
        fed = [_heredoc_script(r, data) for r in redirects if r.type == "heredoc_redirect"]
        fed += [
            _literal(w, data)
            for r in node.children_by_field_name("redirect")
            if r.type == "herestring_redirect"
            for w in r.named_children[:1]
        ]
        unseen |= not fed or None in fed
        inner += [f for f in fed if f is not None]
    scripts += inner
    return (
        unseen
        or plain[first] is None
        or (name_text not in ("[", "[[") and _DYNAMIC_NAME.search(name_text) is not None)
    )


def _heredoc_script(redirect: Node, data: bytes) -> str | None:
    """The text of a heredoc (its body as written), ``None`` when it has none."""
    bodies = [c for c in redirect.children if c.type == "heredoc_body"]
    return _text(bodies[0], data) if bodies else None


_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh"})
_WRAPPERS = frozenset(
    {"sudo", "doas", "env", "exec", "nohup", "nice", "ionice", "timeout", "xargs"}
    | {"command", "builtin", "stdbuf", "setsid", "chroot", "busybox", "time", "flock"}
)
"""Programs that run the program named in their arguments (their options unread: a
shell or ``eval`` anywhere among their words is looked at)."""
_SHELL_OPTION_ARGS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


def _inner_scripts(words: list[str | None]) -> tuple[list[str], bool, bool]:
    """What a simple command (its words from its name on, ``None`` for a word that is
    not literal) runs as a command line of its own: ``eval``'s arguments joined by
    spaces, the script of ``sh -c SCRIPT`` (any of :data:`_SHELLS`, ``su -c``), also
    behind a wrapper (``sudo bash -c``). Returns those scripts, whether a shell reads
    its script from standard input (no ``-c``, no script file), and whether what runs
    cannot be seen (``eval "$cmd"``, ``bash -c "$cmd"``)."""
    scripts: list[str] = []
    stdin = unseen = False
    head = words[0] if words else None
    starts = range(len(words)) if head is not None and _base(head) in _WRAPPERS else range(1)
    for i in starts:
        word = words[i] if i < len(words) else None
        if word is None:
            continue
        name = _base(word)
        rest = words[i + 1 :]
        if name == "eval":
            if any(r is None for r in rest):
                unseen = True
            elif rest:
                scripts.append(" ".join(r for r in rest if r is not None))
        elif name in ("su", "runuser"):
            for n, arg in enumerate(rest):
                if arg in ("-c", "--command") and n + 1 < len(rest):
                    script = rest[n + 1]
                    unseen |= script is None
                    scripts += [script] if script is not None else []
                elif arg is not None and arg.startswith("--command="):
                    scripts.append(arg.partition("=")[2])
        elif name in _SHELLS:
            script, reads_stdin, hidden = _shell_script(rest)
            scripts += [script] if script is not None else []
            stdin |= reads_stdin
            unseen |= hidden
    return scripts, stdin, unseen


def _shell_script(args: list[str | None]) -> tuple[str | None, bool, bool]:
    """A shell's arguments read as bash reads them: the ``-c`` script, whether it
    reads standard input, whether what it runs cannot be seen."""
    n, command_option, from_stdin = 0, False, False
    while n < len(args):
        arg = args[n]
        if arg is None:
            return None, False, True
        if arg == "--" or arg == "-":
            n += 1
            break
        if not arg.startswith(("-", "+")) or arg in ("+", ""):
            break
        if arg in _SHELL_OPTION_ARGS:
            n += 2
            continue
        if not arg.startswith("--") and arg.startswith("-"):
            command_option |= "c" in arg[1:]
            from_stdin |= "s" in arg[1:]
        n += 1
    if command_option:
        if n >= len(args):
            return None, False, False  # `bash -c` without a script: an error, runs nothing
        script = args[n]
        return script, False, script is None
    return None, from_stdin or n >= len(args), False


def _base(word: str) -> str:
    return word.rsplit("/", 1)[-1]


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


def _read_shlex(command: str, depth: int = 0) -> ShellView:
    """The fallback: split on operators with ``shlex``; unsure means unparsed."""
    unparsed = ShellView("shlex", parsed=False)
    if depth > _MAX_DEPTH:
        return unparsed
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
    scripts: list[str] = []
    dynamic_name = False
    for words in parts:
        if words:
            dynamic_name |= _shlex_candidates(words, commands, scripts)
        # shlex cannot tell a comment from a quoted '#': read it both ways
        hashed = next((n for n, w in enumerate(words) if w.startswith("#")), 0)
        if hashed:
            dynamic_name |= _shlex_candidates(words[:hashed], commands, scripts)
    view = ShellView(
        "shlex",
        parsed=True,
        commands=tuple(dict.fromkeys(c for c in commands if c)),
        expansions="$" in command,
        dynamic_name=dynamic_name,
    )
    for script in dict.fromkeys(scripts):  # what eval and `sh -c` run
        view = _merge(view, _read_shlex(script, depth + 1))
    return view


def _shlex_candidates(words: list[str], out: list[str], scripts: list[str]) -> bool:
    """Candidates of one simple command, from each point where its name may start
    (after keywords, assignments and redirections, and a function's name after
    ``function``); whether the name is dynamic, or what it runs cannot be seen.
    shlex has removed the quotes, so a quoted ``'X=$Y'`` (a name in bash) looks
    like an assignment: one holding ``$`` counts as a dynamic name too. What the
    command runs as a command line of its own goes to ``scripts``
    (:func:`_inner_scripts`; a word holding ``$`` is not literal)."""
    i = 0
    dynamic = False
    while True:
        out.append(_join(words[i:], drop_descriptors=False))
        out.append(_join(words[i:], drop_descriptors=True))
        if i >= len(words):
            return dynamic
        word = words[i]
        if word == "function":  # `function f { ...; }`: the body's first word follows
            i += 2
        elif word in _KEYWORDS or _ASSIGNMENT.match(word):
            dynamic |= "$" in word
            i += 2 if word == "time" and words[i + 1 : i + 2] == ["-p"] else 1
        elif word in _REDIRECTS:
            i += 2 if i + 1 < len(words) and not _is_punctuation(words[i + 1]) else 1
        elif word.isdigit() and i + 1 < len(words) and words[i + 1] in _REDIRECTS:
            i += 1
        else:
            rest = words[i:]
            plain = [None if "$" in w else w for w in _kept(rest, drop_descriptors=True)]
            inner, stdin, unseen = _inner_scripts(plain)
            if stdin:  # a shell reading its script: from a here-string, or unseen
                fed = [rest[n + 1] for n, w in enumerate(rest[:-1]) if w == "<<<"]
                unseen |= not fed
                inner += fed
            scripts += inner
            return (
                dynamic
                or unseen
                or "$" in word
                or (word not in ("[", "[[") and _DYNAMIC_NAME.search(word) is not None)
            )


def _join(words: list[str], *, drop_descriptors: bool) -> str:
    """The words without redirections (operator and target); with
    ``drop_descriptors``, a number just before a redirection goes too (``2>&1``)."""
    return " ".join(_kept(words, drop_descriptors=drop_descriptors))


def _kept(words: list[str], *, drop_descriptors: bool) -> list[str]:
    """:func:`_join`'s words, as a list."""
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
    return kept


def _is_punctuation(token: str) -> bool:
    return bool(token) and all(c in _PUNCTUATION for c in token)
