"""What every loader shares: reading a file once, trust, and the
parser of the ``event -> matcher groups -> handlers`` shape.

Loading never raises on bad content. An absent file is no hooks and no
diagnostic; an unreadable or unparsable file, a wrong shape, an unknown event or
key is a diagnostic naming the file (the source label) and the place in it
(``hooks.PreToolUse[0].hooks[1]``, or ``line 3 column 5`` for parse errors), and
only that piece is dropped.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._base._errors import UnknownEventError
from .._base._files import within
from .._dispatch._registry import MatcherGroup, Source, SourcedGroups, untyped_notes
from .._events._untyped import AnyEvent, UntypedEvent, resolve_event
from .._handlers._kinds import HandlerKinds, KindContext, KindFactory, build_handler
from .._handlers._nodes import HandlerNode
from .._wire._dialects import Dialect
from .._wire._fields import json_type_name
from .._wire._json import loads_jsonc
from ._snapshot import LoadedConfig, LoadedFile
from ._trust import FILE_SIZE_LIMIT, TrustPolicy, TrustStore

__all__ = [
    "MAX_CONFIG_BYTES",
    "MAX_CONFIG_DEPTH",
    "MAX_CONFIG_NODES",
    "MAX_GROUPS_PER_FILE",
    "MAX_HANDLERS_PER_FILE",
    "PRECEDENCE",
    "PROJECT_MARKERS",
    "PROJECT_SCOPES",
    "Reading",
    "BuildContext",
    "Built",
    "ConfigTooLarge",
    "HookFile",
    "check_document",
    "decode_object",
    "describe",
    "file_project",
    "find_project_root",
    "inspection_kinds",
    "json_has_hooks",
    "load_source",
    "parse_hooks_mapping",
    "read_bytes",
    "read_settled",
    "refuse_config",
    "too_large_message",
]

PRECEDENCE: Mapping[str, int] = {
    "python": 0,
    "managed": 100,
    "project": 200,
    "local": 210,
    "user": 300,
    "docker-agent": 200,
    "docker-settings": 300,
    "docker-dropin": 310,
    "plugin": 400,
    "docker-cli": 400,
    "explicit": 300,
}
"""Source precedence by scope (lower runs and reduces first). Python-registered
hooks stay at 0. Drop-ins count up from 310 in lexical order, plugins from 400 in
the order given."""

PROJECT_SCOPES = frozenset({"project", "local"})
"""Scopes whose files come from the repository and need workspace trust."""

ParseFailed = object()

# ------------------------------------------------------------------ size limits

MAX_CONFIG_BYTES = FILE_SIZE_LIMIT
"""A hook configuration file larger than this (1 MiB) is refused whole, unparsed."""
MAX_CONFIG_NODES = 100_000
"""Values (mappings, lists, scalars) a parsed configuration document may hold; a YAML
alias counts as every node it stands for, so an alias bomb is refused while it is
being read, before anything is expanded."""
MAX_CONFIG_DEPTH = 100
"""How deeply a configuration document may nest."""
MAX_HANDLERS_PER_FILE = 1_000
"""Handler entries one file may configure (each counted, valid or not)."""
MAX_GROUPS_PER_FILE = 1_000
"""Matcher groups one file may configure."""


class ConfigTooLarge(ValueError):
    """A configuration over one of the limits above; its file is refused whole."""


def too_large_message(what: str) -> str:
    """The error for a file over a limit: ``what`` and the limits."""
    return (
        f"{what}; the whole file was refused (hook configuration files are limited to "
        f"{MAX_CONFIG_BYTES:,} bytes, {MAX_CONFIG_NODES:,} values with YAML aliases counted "
        f"as expanded, {MAX_CONFIG_DEPTH} levels of nesting, {MAX_GROUPS_PER_FILE:,} matcher "
        f"groups and {MAX_HANDLERS_PER_FILE:,} handlers)"
    )


def check_document(doc: object) -> None:
    """Check a parsed JSON or TOML document against the node and depth limits (YAML is
    checked while it is composed: see ``_docker.load_yaml``).

    Raises:
        ConfigTooLarge: too many values, or nested too deeply.
    """
    count = 0
    stack: list[tuple[object, int]] = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_CONFIG_NODES:
            raise ConfigTooLarge(f"the document holds more than {MAX_CONFIG_NODES:,} values")
        if depth > MAX_CONFIG_DEPTH:
            raise ConfigTooLarge(f"the document nests more than {MAX_CONFIG_DEPTH} levels deep")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def read_bytes(path: str) -> bytes:
    """Read a configuration file's bytes, once (tests patch this to simulate races).

    At most :data:`MAX_CONFIG_BYTES` + 1 bytes are read (a longer result means "too
    large"): a hook file that is a device or grows without end cannot exhaust memory.

    Raises:
        FileNotFoundError: the file (or a parent directory) does not exist.
        OSError: it exists but cannot be read, or it is a link (or lies below one)
            whose target does not exist: a hook file whose target disappeared is an
            error, never an empty configuration.
    """
    try:
        with open(path, "rb") as f:
            return f.read(MAX_CONFIG_BYTES + 1)
    except NotADirectoryError as exc:
        raise FileNotFoundError(exc.errno, exc.strerror, path) from None
    except FileNotFoundError:
        dangling = _dangling_link(path)
        if dangling is not None:
            raise OSError(
                f"{dangling} is a symbolic link to {os.readlink(dangling)!r}, which does not exist"
            ) from None
        raise


SETTLE_TIME = 0.2
"""Seconds a configuration file caught while it is being rewritten is read again for
(:func:`read_settled`), in all."""
RECENT_CHANGE = 1.0
"""A file modified less than this many seconds ago may still be being written."""


def _stamp(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:  # (gone, or replaced by something unreadable, mid-read)
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _whole(data: bytes) -> bool:
    """Whether ``data`` can be the whole of a configuration file: not empty, and when it
    opens as JSON does (``{``, ``[``, or a comment), a document that parses, read as
    leniently as any harness reads JSON (comments, trailing commas). Other text (YAML,
    TOML) counts as whole when not empty: its parser has the last word."""
    text = data.strip()
    if not text:
        return False
    try:
        if text[:1] in (b"{", b"[", b"/"):
            loads_jsonc(data.decode("utf-8-sig"), trailing_commas=True)
    except RecursionError:  # (whole, only too deep: its loader says so)
        return True
    except ValueError:  # (not UTF-8 yet, or cut short)
        return False
    return True


def read_settled(path: str) -> tuple[bytes, str | None]:
    """A configuration file's bytes (:func:`read_bytes`), read again while it is being
    rewritten in place; and why it could not be read whole, or ``None``.

    Bytes that cannot be the whole file (empty, or JSON that does not parse) read
    from a file that changed while it was read (inode, size or modification time) or
    was modified in the last :data:`RECENT_CHANGE` second are read again, with a short
    backoff, for up to :data:`SETTLE_TIME` seconds in all: an editor's save (truncate,
    then write) is caught complete instead of as "no hooks". Loading is synchronous, so
    this waits with a plain blocking :func:`time.sleep`, and only for such a file. When
    the file is still empty at the end the reason says so (its loaders report it as
    unreadable: "no hooks" is not what the file holds); other bytes are returned for the
    format's parser to judge (a file cut short is invalid).

    Raises:
        FileNotFoundError: the file (or a parent directory) does not exist.
        OSError: it exists but cannot be read.
    """
    import time

    deadline = time.monotonic() + SETTLE_TIME
    delay = 0.01
    attempts = 0
    while True:
        before = _stamp(path)
        data = read_bytes(path)
        after = _stamp(path)
        attempts += 1
        if _whole(data):
            return data, None
        changed = before is None or before != after
        age = time.time() - after[2] / 1e9 if after is not None else 0.0
        if not changed and age >= RECENT_CHANGE:
            return data, None  # (settled: what it holds is for its parser to judge)
        left = deadline - time.monotonic()
        if left <= 0:
            if data.strip():
                return data, None
            what = "changed while it was read" if changed else f"was modified {age:.2g}s ago"
            return data, (
                f"the file is empty and {what} (read {attempts} times over "
                f"{SETTLE_TIME:g}s): it is probably being rewritten"
            )
        time.sleep(min(delay, left))
        delay = min(delay * 2, 0.05)


# ------------------------------------------------------------------ project roots

PROJECT_MARKERS = (".git", ".claude", ".codex", ".deepagents", ".hel", ".gemini", ".cursor")
"""What makes a directory a project root: a git work tree (``.git``, a directory or a
worktree's file) or a harness's project directory (``.claude/``, ``.codex/``,
``.deepagents/``, ``.hel/``, ``.gemini/``, ``.cursor/``)."""

_USER_DIRS = (
    ".claude",
    ".codex",
    ".deepagents",
    ".hel",
    ".config",
    ".gemini",
    ".cursor",
    ".copilot",
)
_USER_DIR_VARS = (
    "CODEX_HOME",
    "DOCKER_AGENT_CONFIG_DIR",
    "CAGENT_CONFIG_DIR",
    "XDG_CONFIG_HOME",
    "COPILOT_HOME",
)


def _dangling_link(path: str) -> str | None:
    """The first link on the way to ``path`` whose target does not exist, if any."""
    current = os.path.abspath(path)
    parts: list[str] = []
    while True:
        head, tail = os.path.split(current)
        if not tail:
            break
        parts.append(current)
        current = head
    for prefix in reversed(parts):
        if os.path.islink(prefix) and not os.path.exists(prefix):
            return prefix
        if not os.path.lexists(prefix):
            return None
    return None


def _under(path: str, directory: str) -> bool:
    """Both as written, or both resolved (never one of each: a link inside a project is
    that project's file, :func:`is_inside`)."""
    return _under_any(path, ((directory, os.path.realpath(directory)),))


def _under_any(path: str, directories: Iterable[tuple[str, str]]) -> bool:
    """:func:`_under` for any of ``directories`` (each as written and resolved);
    ``path`` is resolved once, and only when needed."""
    real_path: str | None = None
    for written, resolved in directories:
        if within(path, written):
            return True
        if real_path is None:
            real_path = os.path.realpath(path)
        if within(real_path, resolved):
            return True
    return False


def _resolved_child(real_parent: str, name: str) -> str:
    """``realpath(join(real_parent, name))`` for a ``real_parent`` already resolved and
    a ``name`` of one part: only that part can be a link."""
    path = os.path.join(real_parent, name)
    return os.path.realpath(path) if os.path.islink(path) else path


def _home(home: str | os.PathLike[str] | None) -> str | None:
    if home is not None:
        return os.path.abspath(os.fspath(home))
    expanded = os.path.expanduser("~")
    return None if expanded.startswith("~") else os.path.abspath(expanded)


def _is_marked(directory: str) -> bool:
    return os.path.lexists(os.path.join(directory, ".git")) or any(
        os.path.isdir(os.path.join(directory, m)) for m in PROJECT_MARKERS[1:]
    )


def file_project(
    path: str | os.PathLike[str],
    project_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
) -> str | None:
    """The project whose trust a hook file needs, found from the file itself: the nearest
    directory at or above it that is ``project_dir`` or holds one of
    :data:`PROJECT_MARKERS`; ``None`` when there is none (not a project file).

    Where the caller or the harness happens to run never turns a repository's file into
    a user file: a caller's ``project_dir`` above the repository, beside it or inside it
    changes nothing, and one between the file and the repository root is the root.

    The home directory and the filesystem root are never found by their markers (the
    search for markers stops at the home directory), nor is anything under the user's
    own harness directories as the path is written (``~/.claude``, ``~/.codex``,
    ``~/.deepagents``, ``~/.hel``, ``~/.config``, ``$CODEX_HOME``,
    ``$DOCKER_AGENT_CONFIG_DIR``, ``$CAGENT_CONFIG_DIR``, ``$XDG_CONFIG_HOME``): what the
    user installed there is theirs even when it is a git clone or a link into a dotfiles
    repository. The path is searched with its links resolved first, then as written: a
    link leads to the project of the file it points to (a link outside any project, or
    inside a trusted one, to a file of another repository is that repository's file),
    and a link inside a project to a file of no project stays that project's file.
    """
    abspath = os.path.abspath(os.fspath(path))
    home_dir = _home(home)
    real_home = os.path.realpath(home_dir) if home_dir else ""
    user_dirs = (
        [(os.path.join(home_dir, d), _resolved_child(real_home, d)) for d in _USER_DIRS]
        if home_dir
        else []
    )
    user_dirs += [
        (v, os.path.realpath(v))
        for v in (os.environ.get(name, "") for name in _USER_DIR_VARS)
        if os.path.isabs(v)
    ]
    markers = not _under_any(abspath, user_dirs)
    given: dict[str, str] = {}  # the caller's project directory, as written and resolved
    if project_dir is not None:
        pdir = os.fspath(project_dir)
        given = {os.path.abspath(pdir): pdir, os.path.realpath(pdir): pdir}
    homes = {home_dir, real_home} if home_dir else set()
    for candidate in dict.fromkeys((os.path.realpath(abspath), abspath)):
        directory = os.path.dirname(candidate)
        look = markers
        while True:
            if directory in given:
                return given[directory]
            if directory in homes:
                look = False  # neither the home directory nor anything above is a project
            parent = os.path.dirname(directory)
            if parent == directory:  # the filesystem root is never a project
                break
            if look and _is_marked(directory):
                return directory
            directory = parent
    return None


def find_project_root(
    path: str | os.PathLike[str], *, home: str | os.PathLike[str] | None = None
) -> str | None:
    """The project a file lies in, from the file alone: :func:`file_project` without a
    project directory (the nearest directory above it with ``.git``, ``.claude/``,
    ``.codex/``, ``.deepagents/`` or ``.hel/``, never the home directory)."""
    return file_project(path, None, home=home)


describe = json_type_name
"""A short name of a value's JSON type, for messages."""


def join(prefix: str, key: object) -> str:
    """``hooks`` + ``PreToolUse`` -> ``hooks.PreToolUse``."""
    return f"{prefix}.{key}" if prefix else str(key)


@attrs.define
class _Budget:
    """Entries built so far for one file (shared by every copy of its context)."""

    groups: int = 0
    handlers: int = 0


@attrs.define(kw_only=True)
class BuildContext:
    """What a format's builder needs while turning a parsed document into groups."""

    label: str
    dialect: Dialect
    kinds: HandlerKinds | None
    diagnostics: list[Diagnostic]
    project_dir: str | None = None
    config_dir: str | None = None
    plugin_root: str | None = None
    plugin_data: str | None = None
    trusts_directory: Callable[[str], bool] | None = None
    """Whether Python code under a directory may be imported (see
    :attr:`~agent_hooks._handlers._kinds.KindContext.trusts_directory`)."""
    budget: _Budget = attrs.Factory(_Budget)

    def count_group(self) -> None:
        """Count one matcher group of the file.

        Raises:
            ConfigTooLarge: over :data:`MAX_GROUPS_PER_FILE`.
        """
        self.budget.groups += 1
        if self.budget.groups > MAX_GROUPS_PER_FILE:
            raise ConfigTooLarge(f"more than {MAX_GROUPS_PER_FILE:,} matcher groups")

    def report(
        self,
        code: DiagnosticCode,
        message: str,
        *,
        location: str | None = None,
        severity: Severity = Severity.ERROR,
    ) -> None:
        self.diagnostics.append(
            Diagnostic(
                code=code, message=message, severity=severity, source=self.label, location=location
            )
        )

    def kind_context(self, event: AnyEvent, location: str) -> KindContext:
        """The context of one handler entry (every builder asks for one per entry, so
        this is where entries are counted).

        Raises:
            ConfigTooLarge: over :data:`MAX_HANDLERS_PER_FILE`.
        """
        self.budget.handlers += 1
        if self.budget.handlers > MAX_HANDLERS_PER_FILE:
            raise ConfigTooLarge(f"more than {MAX_HANDLERS_PER_FILE:,} handlers")
        return KindContext(
            dialect=self.dialect,
            source=self.label,
            location=location,
            event=event,
            config_dir=self.config_dir,
            project_dir=self.project_dir,
            plugin_root=self.plugin_root,
            plugin_data=self.plugin_data,
            diagnostics=self.diagnostics,
            trusts_directory=self.trusts_directory,
        )


@attrs.define(kw_only=True)
class Built:
    """What a builder made of a document."""

    groups: list[MatcherGroup] = attrs.Factory(list)
    format: str | None = None
    """Replaces the file's format when content decided it (``deepagents-legacy``)."""
    flags: dict[str, Any] = attrs.Factory(dict)
    """Settings that matter across files (``disableAllHooks``...)."""


Builder = Callable[[bytes, BuildContext], Built]


def parse_event_key(key: object, prefix: str, ctx: BuildContext, *, snake: bool) -> AnyEvent | None:
    """The event of a configuration key, or None (diagnosed) when it cannot be one.

    A name this version does not type is an :class:`UntypedEvent` (its hooks load;
    the registry warns that it is untyped); a close misspelling of a known event is
    an error, with the suggestion, and its hooks are dropped."""
    where = join(prefix, key)
    if not isinstance(key, str):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"event key {key!r} is not a string; dropped",
            location=where,
        )
        return None
    try:
        event = resolve_event(key)
    except UnknownEventError as exc:
        ctx.report(DiagnosticCode.INVALID_CONFIG, f"{exc}; its hooks were dropped", location=where)
        return None
    if isinstance(event, UntypedEvent):
        return event
    expected = event.snake if snake else event.value
    if key != expected:
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"event {key!r} is spelled {expected!r} in this format; read as {event.value}",
            location=where,
            severity=Severity.WARNING,
        )
    return event


def decision_log_setting(value: object, where: str, ctx: BuildContext) -> str | None:
    """agent_hooks's own ``"decision_log"`` key of a file: the decision log's path, ``~``
    expanded, relative to the file's directory (``None``: not set, or not a non-empty
    string, which is an error: no log is then written because of this file)."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'decision_log' must be a file path, got {describe(value)}; ignored",
            location=where,
        )
        return None
    path = os.path.expanduser(value)
    if ctx.config_dir is not None:
        path = os.path.join(ctx.config_dir, path)
    return os.path.normpath(path)


def shadow_mode(value: object, where: str, ctx: BuildContext) -> bool:
    """Whether a ``"mode"`` value of agent_hooks's own (a file, a group, a handler) puts
    its handlers in shadow mode: ``"shadow"``; ``"enforce"`` or none: not. Anything else
    is an error and enforces (a typo never turns a guard off)."""
    if value is None or value == "enforce":
        return False
    if value == "shadow":
        return True
    ctx.report(
        DiagnosticCode.INVALID_CONFIG,
        f"'mode' must be 'shadow' or 'enforce', got {describe(value)}; enforced",
        location=where,
    )
    return False


def build_nodes(
    handlers: Sequence[object], event: AnyEvent, prefix: str, ctx: BuildContext
) -> tuple[list[HandlerNode], list[str]]:
    """Nodes of a group's ``hooks`` list, with their locations (bad ones dropped); a
    handler's ``"mode": "shadow"`` puts it in shadow mode."""
    nodes: list[HandlerNode] = []
    locations: list[str] = []
    for hi, entry in enumerate(handlers):
        where = f"{prefix}[{hi}]"
        shadow = False
        if isinstance(entry, Mapping) and "mode" in entry:
            shadow = shadow_mode(entry["mode"], f"{where}.mode", ctx)
            entry = {k: v for k, v in entry.items() if k != "mode"}
        node = build_handler(entry, ctx.kind_context(event, where), ctx.kinds)
        if node is not None and shadow:
            node = attrs.evolve(node, shadow=True)
        if node is not None:
            nodes.append(node)
            locations.append(where)
    return nodes, locations


def parse_group(
    group: object,
    event: AnyEvent,
    where: str,
    ctx: BuildContext,
    *,
    extra_keys: frozenset[str] = frozenset(),
) -> MatcherGroup | None:
    """One ``{matcher, hooks: [...]}`` group (None, diagnosed, when unusable).

    Raises:
        ConfigTooLarge: the file has too many groups or handlers.
    """
    ctx.count_group()
    if not isinstance(group, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"a matcher group must be an object with 'hooks', got {describe(group)}; dropped",
            location=where,
        )
        return None
    for key in group:
        if key not in ("matcher", "hooks", "mode") and key not in extra_keys:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"unknown field {key!r} in a matcher group; ignored",
                location=where,
                severity=Severity.WARNING,
            )
    matcher = group.get("matcher")
    if matcher is not None and not isinstance(matcher, str):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'matcher' must be a string, got {describe(matcher)}; group dropped",
            location=where,
        )
        return None
    handlers = group.get("hooks")
    if isinstance(handlers, Mapping) and "hooks" in extra_keys:
        handlers = [handlers]  # Docker Agent: a single handler written as a mapping
    if not isinstance(handlers, list):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'hooks' must be a list of handlers, got {describe(handlers)}; group dropped",
            location=where,
        )
        return None
    nodes, locations = build_nodes(handlers, event, f"{where}.hooks", ctx)
    return MatcherGroup(
        event=event,
        matcher=matcher,
        nodes=tuple(nodes),
        shadow=shadow_mode(group.get("mode"), f"{where}.mode", ctx),
        location=where,
        node_locations=tuple(locations),
    )


def parse_hooks_mapping(hooks: object, prefix: str, ctx: BuildContext) -> list[MatcherGroup]:
    """The Claude Code shape (also Deep Agents Code, Codex, hel): ``{Event: [group, ...]}``."""
    if not isinstance(hooks, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'hooks' must be an object mapping event names to matcher groups, got {describe(hooks)}; ignored",
            location=prefix or None,
        )
        return []
    groups: list[MatcherGroup] = []
    for key, value in hooks.items():
        event = parse_event_key(key, prefix, ctx, snake=ctx.dialect.wire == "docker")
        if event is None:
            continue
        where = join(prefix, key)
        if not isinstance(value, list):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{key} must be a list of matcher groups, got {describe(value)}; dropped",
                location=where,
            )
            continue
        for gi, group in enumerate(value):
            parsed = parse_group(group, event, f"{where}[{gi}]", ctx)
            if parsed is not None:
                groups.append(parsed)
    return groups


def decode_text(data: bytes, ctx: BuildContext) -> str | None:
    """The file's text (UTF-8, a byte-order mark dropped); ``None`` (diagnosed, the file
    skipped) when it is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        ctx.report(
            DiagnosticCode.CONFIG_READ_FAILED,
            f"not UTF-8 text ({exc.reason} at byte {exc.start}); file skipped",
        )
        return None


def decode_json(data: bytes, ctx: BuildContext, *, comments: bool = False) -> Any:
    """The parsed document, or :data:`ParseFailed` (diagnosed with line and column).

    ``comments``: the harness reads the file as JSON with ``//`` and ``/* */`` comments
    (:func:`~agent_hooks._wire._json.loads_jsonc`; Gemini CLI's and Qwen Code's
    settings); otherwise a comment is invalid JSON, as it is to the harness."""
    text = decode_text(data, ctx)
    if text is None:
        return ParseFailed
    if not text.strip():
        return {}
    try:
        doc = loads_jsonc(text) if comments else json.loads(text)
    except json.JSONDecodeError as exc:
        ctx.report(
            DiagnosticCode.CONFIG_READ_FAILED,
            f"invalid JSON{' (comments allowed)' if comments else ''}: {exc.msg}; file skipped",
            location=f"line {exc.lineno} column {exc.colno}",
        )
        return ParseFailed
    except RecursionError:
        raise ConfigTooLarge(
            f"the document nests more than {MAX_CONFIG_DEPTH} levels deep"
        ) from None
    check_document(doc)
    return doc


def decode_object(
    data: bytes, ctx: BuildContext, shape: str = "an object", *, comments: bool = False
) -> Mapping[str, Any] | None:
    """The parsed document when it is an object; ``None`` (diagnosed, the file skipped)
    when it does not parse or is not ``shape`` (``an object with 'hooks'``). ``comments``:
    as for :func:`decode_json`."""
    doc = decode_json(data, ctx, comments=comments)
    if doc is ParseFailed:
        return None
    if not isinstance(doc, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"the top level must be {shape}, got {describe(doc)}; file skipped",
        )
        return None
    return doc


def json_declares(*keys: str) -> Callable[[bytes], bool]:
    """A trust probe: whether a JSON document sets one of ``keys`` (or is not an object,
    or does not parse). A file that says nothing about hooks (most settings files hold
    other settings) needs no trust.

    Comments are read (:func:`~agent_hooks._wire._json.loads_jsonc`) whichever way the
    file's builder reads it: a settings file with comments and no hooks needs no trust
    where comments are allowed, and where they are not, the builder refuses the file. On
    text that is plain JSON both readings are the same value, so the probe can never
    say "no hooks" of a document in which a builder finds some."""

    def probe(data: bytes) -> bool:
        try:
            doc = loads_jsonc(data.decode("utf-8-sig") or "{}")
        except (ValueError, RecursionError):
            return True
        return not isinstance(doc, dict) or any(doc.get(k) is not None for k in keys)

    return probe


json_has_hooks = json_declares("hooks")
"""Whether a JSON document has a ``hooks`` key (or is not an object, or does not parse)."""


def count_handlers(groups: Iterable[MatcherGroup]) -> int:
    return sum(len(g.nodes) for g in groups)


def trust_hint(project_dir: str, rel: str | None = None) -> str:
    config = f" --config {os.path.join(project_dir, rel)}" if rel else ""
    return (
        f"review it, then run `agent-hooks trust --project-dir {project_dir}{config}` "
        "(or call TrustPolicy.grant(project_dir, {path: sha256})); "
        "headless runs may pass --trust-project-hooks / TrustPolicy(trust_all=True)"
    )


def inspection_kinds(kinds: HandlerKinds | None = None) -> dict[str, KindFactory]:
    """A kind table that parses and validates handler entries without running anything.

    For files that did not pass the trust gate (and for ``agent-hooks trust``'s
    listing): the built-in ``command``, ``http`` and ``builtin`` factories only read
    their entry, so they are kept (wrapped ones too: ``functools.wraps``); a
    ``python`` entry is checked for its ``module:function`` form, never imported
    (importing project code runs it); any other factory of ``kinds`` belongs to the
    application and is not called: its entries are listed by name only.
    """
    import inspect

    from .._handlers._kinds import (
        builtin_kind,
        command_kind,
        default_kinds,
        http_kind,
        python_kind,
    )

    table = default_kinds() if kinds is None else dict(kinds)
    pure: tuple[object, ...] = (command_kind, http_kind, builtin_kind)
    out: dict[str, KindFactory] = {}
    for name, factory in table.items():
        base = inspect.unwrap(factory)
        if name == "python" or base is python_kind:
            out[name] = _python_shape
        elif any(base is p for p in pure):
            out[name] = factory
        else:
            out[name] = _listed_only(name)
    return out


def _python_shape(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
    """A ``python`` entry checked as :func:`~agent_hooks._handlers._kinds.python_kind`
    checks it, except that the module is not imported."""
    from .._handlers._kinds import _common as common_fields
    from .._handlers._kinds import _flag, _never_runs

    ref = entry.get("callable")
    if not isinstance(ref, str) or not ref.strip():
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            "python handler needs 'callable': 'package.module:function'; dropped",
            severity=Severity.ERROR,
        )
        return None
    module, sep, attr = ref.partition(":")
    if not sep or not module or not attr:
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            "python handler dropped: python hook reference must look like "
            f"'package.module:function', got {ref!r}",
            severity=Severity.ERROR,
            handler=ref,
        )
        return None
    common = common_fields(entry, ctx, ref)
    return HandlerNode(
        name=common["name"] or ref,
        kind="python",
        call=_never_runs,
        timeout=common["timeout"],
        on_error=common["on_error"],
        if_rule=common["if_rule"],
        status_message=common["status_message"],
        background=_flag(entry, "async", ctx, ref),
    )


def _listed_only(kind: str) -> KindFactory:
    from .._handlers._kinds import _entry_name, _never_runs

    def factory(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
        return HandlerNode(name=_entry_name(kind, entry), kind=kind, call=_never_runs)

    return factory


@attrs.frozen(kw_only=True)
class Reading:
    """One file to load and how (:func:`load_source`): where it lies, its scope and
    project, its trust policy and handler kinds, and what a caller adds."""

    path: str
    scope: str
    project_dir: str | None = None
    precedence: int | None = None
    """``None``: the :class:`HookFile`'s, else its scope's (:data:`PRECEDENCE`)."""
    trust: TrustPolicy | TrustStore | bool | None = None
    kinds: HandlerKinds | None = None
    data: bytes | None = None
    """The file's bytes when the caller already read them."""
    env: Mapping[str, str] | None = None
    """Variables the file's hooks get (a plugin's root)."""
    plugin_root: str | None = None
    plugin_data: str | None = None
    extra_trust: Callable[[str], bool] | None = None
    """``extra_trust(sha)`` may trust a file the policy does not (hel's own trust file);
    the file's ``trust`` then reads ``extra_trust_status``."""
    extra_trust_status: str = "trusted"
    transform: Callable[[HandlerNode], HandlerNode] | None = None
    """Applied to every node built (a plugin keeps its copies of commands apart)."""


def load_source(file: HookFile, reading: Reading) -> tuple[LoadedConfig, Built | None]:
    """Read a file once, check trust on those bytes, build groups from those same bytes,
    and make the one-file snapshot of it.

    The file's ``probe`` tells whether the bytes hold any hooks at all: a project file
    without hooks (a ``settings.json`` with permissions only) needs no trust.

    An untrusted file contributes no groups; it is still parsed and validated, with
    :func:`inspection_kinds` (nothing is imported or run), into the snapshot's
    ``skipped`` part, so that ``agent-hooks check`` reports its mistakes.

    Returns the one-file snapshot (empty when the file is absent) and what the
    builder made (``None`` when nothing was built, or the file is untrusted). The
    snapshot has no ``recipe``: :func:`load` and :func:`discover` give theirs.
    """
    r = reading
    out = _Outcome(file, r)
    needs_trust = r.scope in PROJECT_SCOPES and r.project_dir is not None
    data = r.data
    if data is None:
        read = _read(r.path)
        if read is None:
            return LoadedConfig(), None
        if isinstance(read, Diagnostic):
            out.diagnostics.append(read)
            return out.snapshot("unreadable", trust="unknown" if needs_trust else "not-needed")
        data = read
    if len(data) > MAX_CONFIG_BYTES:
        # Refused before anything parses it (nor is its hash worth recording).
        out.diagnostics.append(_too_large(r.path, f"more than {MAX_CONFIG_BYTES:,} bytes"))
        return out.snapshot("invalid", trust="unknown" if needs_trust else "not-needed")
    sha = TrustStore.digest(data)
    if not (needs_trust and r.project_dir is not None and _probe(file.probe, data)):
        return out.built(data, sha, "not-needed", None)
    owner, rel = r.project_dir, _relative(r.path, r.project_dir)
    if rel == ".." or rel.startswith("../") or os.path.isabs(rel):
        # A link out of its project: the file it points to is what runs, so that
        # file's own project decides (a link cannot lend its project's trust).
        target = file_project(os.path.realpath(r.path))
        if target is not None:
            owner, rel = target, _relative(r.path, target)
    trusted, store_diags = TrustPolicy.coerce(r.trust).check(owner, rel, sha)
    if trusted:
        return out.built(data, sha, "trusted", owner)
    if r.extra_trust is not None and r.extra_trust(sha):
        return out.built(data, sha, r.extra_trust_status, owner)
    out.diagnostics.extend(store_diags)
    out.diagnostics.append(
        Diagnostic(
            code=DiagnosticCode.UNTRUSTED,
            message=(
                f"project hooks in {rel} were not loaded: the workspace {owner} is not "
                f"trusted for this content (sha256 {sha[:12]}...); " + trust_hint(owner, rel)
            ),
            severity=Severity.WARNING,
            source=r.path,
        )
    )
    return out.inspected(data, sha)


def _read(label: str) -> bytes | Diagnostic | None:
    """The file's bytes (:func:`read_settled`); ``None``: it is absent; a diagnostic: it
    cannot be read, or not whole."""
    try:
        data, torn = read_settled(label)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return Diagnostic(
            code=DiagnosticCode.CONFIG_READ_FAILED,
            message=f"cannot read the file ({exc.strerror or exc}); its hooks were not loaded",
            severity=Severity.ERROR,
            source=label,
        )
    return data if torn is None else unreadable_whole(label, torn)


def _too_large(label: str, why: str) -> Diagnostic:
    return Diagnostic(
        code=DiagnosticCode.CONFIG_READ_FAILED,
        message=too_large_message(f"configuration too large: {why}"),
        severity=Severity.ERROR,
        source=label,
    )


@attrs.define
class _DirectoryTrust:
    """Whether Python code under a directory may be imported: the project the file
    passed the trust gate for, or one the policy trusts (each asked once)."""

    trust: TrustPolicy | TrustStore | bool | None
    granted: str | None
    verdicts: dict[str, bool] = attrs.Factory(dict)

    def __call__(self, directory: str) -> bool:
        key = os.path.realpath(directory)
        if key not in self.verdicts:
            self.verdicts[key] = (
                self.granted is not None and os.path.realpath(self.granted) == key
            ) or TrustPolicy.coerce(self.trust).trusts_directory(key)
        return self.verdicts[key]


@attrs.define
class _Outcome:
    """The snapshot of one file taking shape: its diagnostics, then its groups."""

    file: HookFile
    reading: Reading
    diagnostics: list[Diagnostic] = attrs.Factory(list)

    @property
    def source(self) -> Source:
        r = self.reading
        return Source(
            label=r.path,
            precedence=self.precedence,
            dialect=self.file.dialect,
            env=dict(r.env or {}),
        )

    @property
    def precedence(self) -> int:
        given = self.file.precedence if self.reading.precedence is None else self.reading.precedence
        return PRECEDENCE.get(self.reading.scope, 300) if given is None else given

    def build(
        self, data: bytes, kinds: HandlerKinds | None, sink: list[Diagnostic], granted: str | None
    ) -> Built:
        """The file's builder run on ``data`` (a file over a size limit: nothing)."""
        r = self.reading
        ctx = BuildContext(
            label=r.path,
            dialect=self.file.dialect,
            kinds=kinds,
            diagnostics=sink,
            project_dir=r.project_dir,
            config_dir=os.path.dirname(os.path.abspath(r.path)),
            plugin_root=r.plugin_root,
            plugin_data=r.plugin_data,
            trusts_directory=_DirectoryTrust(r.trust, granted),
        )
        start = len(sink)
        try:
            built = self.file.builder(data, ctx)
        except ConfigTooLarge as exc:
            # A partial load of a file this big would be arbitrary: refuse all of it (and
            # drop what was said about the part read so far).
            del sink[start:]
            sink.append(_too_large(r.path, str(exc)))
            return Built()
        if r.transform is not None:
            built.groups = [
                attrs.evolve(g, nodes=tuple(map(r.transform, g.nodes))) for g in built.groups
            ]
        return built

    def built(
        self, data: bytes, sha: str, trust: str, granted: str | None
    ) -> tuple[LoadedConfig, Built | None]:
        """The snapshot of a file that loads (trusted, or needing no trust)."""
        built = self.build(data, self.reading.kinds, self.diagnostics, granted)
        failed = any(
            d.code is DiagnosticCode.CONFIG_READ_FAILED and d.source == self.reading.path
            for d in self.diagnostics
        )
        return self.snapshot("invalid" if failed else "loaded", sha, built, trust)

    def inspected(self, data: bytes, sha: str) -> tuple[LoadedConfig, Built | None]:
        """The snapshot of an untrusted file: no groups; what it holds, parsed all the
        same (parsing runs nothing), in ``skipped`` for inspection only, never in the way
        of the verdict, whatever the content."""
        seen: list[Diagnostic] = []
        try:
            groups = self.build(data, inspection_kinds(self.reading.kinds), seen, None).groups
        except Exception as exc:  # a builder's bug: say so, keep the verdict
            groups = []
            seen.append(
                Diagnostic(
                    code=DiagnosticCode.CONFIG_READ_FAILED,
                    message=f"could not be parsed for inspection ({type(exc).__name__}: {exc})",
                    severity=Severity.ERROR,
                    source=self.reading.path,
                )
            )
        source = self.source
        shown = SourcedGroups(
            source=source, groups=tuple(groups), diagnostics=(*seen, *untyped_notes(groups, source))
        )
        return self.snapshot("untrusted", sha, None, "untrusted", (shown,))

    def snapshot(
        self,
        status: str,
        sha: str | None = None,
        built: Built | None = None,
        trust: str = "not-needed",
        skipped: tuple[SourcedGroups, ...] = (),
    ) -> tuple[LoadedConfig, Built | None]:
        r = self.reading
        groups = tuple(built.groups) if built is not None else ()
        file = LoadedFile(
            path=r.path,
            format=(built.format if built is not None and built.format else self.file.format),
            scope=r.scope,
            sha256=sha,
            status=status,
            project_dir=r.project_dir,
            precedence=self.precedence,
            handlers=count_handlers(groups),
            trust=trust,
            decision_log=built.flags.get("decision_log") if built is not None else None,
        )
        source = self.source
        sg = SourcedGroups(
            source=source,
            groups=groups,
            diagnostics=(*self.diagnostics, *untyped_notes(groups, source)),
        )
        return LoadedConfig(sources=(sg,), files=(file,), skipped=skipped), built


@attrs.frozen(kw_only=True)
class HookFile:
    """One harness's hook file format, as data: what :meth:`load` needs besides the
    caller's arguments."""

    format: str
    """The snapshot's format name (``windsurf``, ``gemini-settings``)."""
    dialect: Dialect
    builder: Builder
    probe: Callable[[bytes], bool] | None = None
    """Whether the bytes hold any hooks (:func:`load_source`); ``None``: they may."""
    own_project_only: bool = False
    """Only a project-scope file's builder sees a project directory (Cursor runs a
    user file's commands from the file's directory)."""
    scope_given_keeps_project: bool = False
    """A ``scope`` the caller gives comes with the caller's ``project_dir`` as it is: no
    project is looked for from the file (Codex, Deep Agents, Docker Agent)."""
    otherwise: str = "user"
    """The scope of a file outside any project when the caller gives none (Docker
    Agent's agent files: ``explicit``)."""
    precedence: int | None = None
    """The precedence of such a file when the caller gives none; ``None``: its scope's
    (:data:`PRECEDENCE`)."""

    def load(
        self,
        path: str | os.PathLike[str],
        scope: str | None = None,
        project_dir: str | os.PathLike[str] | None = None,
        precedence: int | None = None,
        trust: TrustPolicy | TrustStore | bool | None = None,
        kinds: HandlerKinds | None = None,
        data: bytes | None = None,
        home: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> tuple[LoadedConfig, Built | None]:
        """:func:`load_source` for one such file, its project found from the file
        (:func:`file_project`): a file inside a project is that project's (scope
        ``project``, its trust needed), any other the user's, unless ``scope`` says. The
        builder sees the file's project, else the caller's ``project_dir``. ``env``: the
        variables the file's hooks get (a plugin's root)."""
        label = os.fspath(path)
        pdir = os.fspath(project_dir) if project_dir is not None else None
        if scope is not None and self.scope_given_keeps_project:
            sc, owner = scope, pdir
        else:
            root = file_project(label, pdir, home=os.fspath(home) if home is not None else None)
            sc = scope or ("project" if root is not None else self.otherwise)
            owner = root or pdir
            if self.own_project_only:
                owner = root if sc == "project" else None
        return self.load_as(
            label,
            scope=sc,
            project_dir=owner,
            precedence=precedence,
            trust=trust,
            kinds=kinds,
            data=data,
            env=env,
        )

    def load_file(self, path: str | os.PathLike[str], **kwargs: Any) -> LoadedConfig:
        """:meth:`load`'s snapshot alone (the loader a harness row names)."""
        return self.load(path, **kwargs)[0]

    def load_as(
        self,
        path: str | os.PathLike[str],
        *,
        scope: str,
        project_dir: str | os.PathLike[str] | None,
        precedence: int | None = None,
        trust: TrustPolicy | TrustStore | bool | None = None,
        kinds: HandlerKinds | None = None,
        data: bytes | None = None,
        env: Mapping[str, str] | None = None,
    ) -> tuple[LoadedConfig, Built | None]:
        """:func:`load_source` for one such file in the scope and with the project the
        caller states (no project is looked for from the file)."""
        pdir = os.fspath(project_dir) if project_dir is not None else None
        return load_source(
            self,
            Reading(
                path=os.fspath(path),
                scope=scope,
                project_dir=pdir,
                precedence=precedence,
                trust=trust,
                kinds=kinds,
                data=data,
                env=env,
            ),
        )


def _probe(probe: Callable[[bytes], bool] | None, data: bytes) -> bool:
    """Whether the bytes may hold hooks: a probe that fails cannot say no."""
    if probe is None:
        return True
    try:
        return probe(data)
    except Exception:  # a document the probe cannot read (too deep...): the loader will say
        return True


def _relative(path: str, project_dir: str) -> str:
    real = os.path.realpath(path)
    root = os.path.realpath(project_dir)
    try:
        rel = os.path.relpath(real, root)
    except ValueError:  # pragma: no cover - other drive on Windows
        return real
    return rel.replace(os.sep, "/")


def is_inside(path: str | os.PathLike[str], directory: str | os.PathLike[str]) -> bool:
    """Whether ``path`` lies inside ``directory``, both resolved or both as written: a
    link inside a project is that project's file wherever it points (its trust is
    then decided on the file it points to, :func:`load_source`)."""
    return _under(os.path.abspath(os.fspath(path)), os.path.abspath(os.fspath(directory)))


def relative_to_project(path: str | os.PathLike[str], project_dir: str) -> str:
    """The path as the trust store records it (relative, ``/``-separated)."""
    return _relative(os.fspath(path), project_dir)


def unreadable_whole(label: str, why: str) -> Diagnostic:
    """The error of a file that could not be read whole (:func:`read_settled`, or an
    empty file a caller named explicitly): ``config_read_failed``, the file unread."""
    return Diagnostic(
        code=DiagnosticCode.CONFIG_READ_FAILED,
        message=f"{why}; its hooks were not loaded",
        severity=Severity.ERROR,
        source=label,
    )


def refuse_config(config: LoadedConfig, why: str) -> LoadedConfig:
    """The same files, unreadable and without hooks, with :func:`unreadable_whole`'s
    error saying ``why`` (what they held moves to ``skipped``, for inspection)."""
    sources = []
    files = []
    skipped = list(config.skipped)
    for sg, file in zip(config.sources, config.files, strict=True):
        extra = unreadable_whole(sg.source.label, why)
        sources.append(attrs.evolve(sg, groups=(), diagnostics=(*sg.diagnostics, extra)))
        if sg.groups:
            skipped.append(attrs.evolve(sg, diagnostics=()))
        files.append(attrs.evolve(file, status="unreadable", handlers=0))
    return attrs.evolve(config, sources=tuple(sources), files=tuple(files), skipped=tuple(skipped))


def disable_config(config: LoadedConfig, message: str, code: DiagnosticCode) -> LoadedConfig:
    """The same files with their hooks removed and a diagnostic saying why (the hooks
    move to ``skipped``, for inspection)."""
    sources = []
    files = []
    skipped = list(config.skipped)
    for sg, file in zip(config.sources, config.files, strict=True):
        if file.status != "loaded":
            sources.append(sg)
            files.append(file)
            continue
        extra = Diagnostic(
            code=code,
            message=f"{message}; {file.handlers} handler(s) from this file not loaded",
            severity=Severity.INFO,
            source=sg.source.label,
        )
        sources.append(attrs.evolve(sg, groups=(), diagnostics=(*sg.diagnostics, extra)))
        if sg.groups:
            skipped.append(attrs.evolve(sg, diagnostics=()))
        files.append(attrs.evolve(file, status="disabled"))
    return attrs.evolve(config, sources=tuple(sources), files=tuple(files), skipped=tuple(skipped))
