"""Docker Agent (formerly cagent): YAML hooks.

Four places, additive, in this order (precedence in brackets):

1. the agent's ``hooks:`` block in the agent YAML (``agents.<name>.hooks``) [200];
   an agent file inside the project needs workspace trust;
2. ``settings.hooks`` in the user config ``<config-dir>/config.yaml`` [300];
3. every ``*.yaml`` / ``*.yml`` in ``<config-dir>/hooks.d/``, in lexical order
   [310, 311, ...]; a broken file is skipped with a diagnostic, the others load;
4. command-line additions (``--hook-pre-tool-use CMD`` and friends) [400].

``<config-dir>`` is ``$DOCKER_AGENT_CONFIG_DIR`` (legacy ``$CAGENT_CONFIG_DIR``),
else ``$XDG_CONFIG_HOME/cagent``, else ``~/.config/cagent``.

Events are snake_case. An event's value is a list of matcher groups
(``{matcher, hooks: [...], preempt_yolo}``), a list of handlers, or a single
handler written as a mapping. Handlers: ``type: command | builtin | model`` with
``name``, ``command``, ``args``, ``env``, ``working_dir``, ``on_error``,
``timeout`` (default 60 s), ``strict_output``. ``builtin`` and ``model`` go
through the kind table like every other type (disabled unless a factory is
registered). The agent flags ``add_date``, ``add_environment_info``,
``add_prompt_files`` and ``redact_secrets`` register their built-ins too.

Two safety options are never accepted and ignored:

* ``strict_output: true`` is enforced as Docker Agent defines it, for every kind:
  on exit 0 the handler must print nothing or one JSON object keeping the event's
  output contract (no plain text, no unknown or foreign field, no
  ``suppress_output``, no block where the event cannot block); anything else is a
  failure of the handler, under its failure policy (``pre_tool_use`` fails closed).
  A value that is not a boolean drops the handler with an error.
* ``preempt_yolo: true`` (a ``pre_tool_use`` group) asks Docker Agent to run the
  group before its approval pipeline (allow rules, ``--yolo``), so that an
  auto-approved call is still checked and the group's ``ask`` cannot be overridden
  by a policy allow. agent_hooks cannot place a group there: as a bridge it is
  called from one of Docker Agent's lanes, and it does not know which. A file that
  asks for it is refused with an error (nothing in it loads, ``check`` fails, a
  fail-closed bridge blocks); keep such a group in Docker Agent's own configuration.

YAML needs PyYAML: ``pip install 'py-agent-hooks[yaml]'``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from .._base._errors import UnknownEventError
from .._dispatch._registry import MatcherGroup
from .._events._names import HookEvent, parse_event
from .._events._untyped import AnyEvent
from .._handlers._kinds import HandlerKinds, KindContext, KindFactory, build_handler, default_kinds
from .._handlers._nodes import HandlerNode
from .._wire._dialects import DOCKER
from ._common import (
    MAX_CONFIG_DEPTH,
    MAX_CONFIG_NODES,
    PRECEDENCE,
    BuildContext,
    Builder,
    Built,
    ConfigTooLarge,
    HookFile,
    ParseFailed,
    decode_text,
    describe,
    join,
    parse_event_key,
    parse_group,
    too_large_message,
)
from ._snapshot import LoadedConfig, LoadedFile, combine
from ._trust import TrustArg, TrustPolicy

__all__ = [
    "YAML_MISSING",
    "decode_yaml",
    "docker_cli_hooks",
    "docker_config_dir",
    "load_docker",
    "load_docker_agent",
    "load_docker_dropins",
    "load_yaml",
]


YAML_MISSING = (
    "reading YAML needs PyYAML, which is not installed: pip install 'py-agent-hooks[yaml]'"
)

_GROUP_KEYS = frozenset({"hooks", "preempt_yolo"})
_FLAG_BUILTINS: Mapping[str, tuple[tuple[HookEvent, ...], str]] = {
    "add_date": ((HookEvent.TURN_START,), "add_date"),
    "add_environment_info": ((HookEvent.SESSION_START,), "add_environment_info"),
    "add_prompt_files": ((HookEvent.TURN_START,), "add_prompt_files"),
    "redact_secrets": (
        (HookEvent.PRE_TOOL_USE, HookEvent.BEFORE_LLM_CALL, HookEvent.TOOL_RESPONSE_TRANSFORM),
        "redact_secrets",
    ),
}


_LOADER: Any = None


def _limited_loader() -> Any:
    """PyYAML's ``SafeLoader`` with the size limits of every configuration: it counts the
    nodes of the document as they are composed, an alias at the size of everything its
    anchor holds, and stops at :data:`MAX_CONFIG_NODES` (or
    :data:`MAX_CONFIG_DEPTH` levels, or an alias inside its own anchor) before anything
    is constructed, so a few hundred bytes of nested aliases ("billion laughs") cost
    what they take to read, not what they expand to."""
    global _LOADER
    if _LOADER is not None:
        return _LOADER
    import yaml

    safe_loader: Any = yaml.SafeLoader  # (PyYAML's composer is untyped)

    class LimitedLoader(safe_loader):  # type: ignore[misc]
        def __init__(self, stream: Any) -> None:
            super().__init__(stream)
            self.expanded = 0
            self.depth = 0
            self.sizes: dict[Any, int] = {}

        def add(self, n: int, mark: Any) -> None:
            self.expanded += n
            if self.expanded > MAX_CONFIG_NODES:
                raise ConfigTooLarge(
                    f"the document holds more than {MAX_CONFIG_NODES:,} values once its "
                    f"aliases are expanded (reached {_at(mark)})"
                )

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.peek_event()
            if isinstance(event, yaml.AliasEvent):
                if event.anchor in self.anchors:  # (an undefined one: PyYAML says so)
                    size = self.sizes.get(event.anchor)
                    if size is None:
                        raise ConfigTooLarge(
                            f"the alias *{event.anchor} {_at(event.start_mark)} is inside "
                            "its own anchor (a recursive document)"
                        )
                    self.add(size, event.start_mark)
                return super().compose_node(parent, index)
            self.depth += 1
            if self.depth > MAX_CONFIG_DEPTH:
                raise ConfigTooLarge(
                    f"the document nests more than {MAX_CONFIG_DEPTH} levels deep "
                    f"({_at(event.start_mark)})"
                )
            self.add(1, event.start_mark)
            before = self.expanded
            node = super().compose_node(parent, index)
            self.depth -= 1
            if event.anchor is not None:
                self.sizes[event.anchor] = self.expanded - before + 1
            return node

        def compose_document(self) -> Any:
            self.sizes = {}
            return super().compose_document()

    _LOADER = LimitedLoader
    return _LOADER


def _at(mark: Any) -> str:
    return f"at line {mark.line + 1}" if mark is not None else "in the document"


def load_yaml(text: str) -> Any:
    """A YAML document, parsed safely within the configuration size limits.

    Raises:
        ImportError: PyYAML is not installed.
        yaml.YAMLError: the text is not valid YAML.
        ConfigTooLarge: the document is over a limit (an alias bomb among others).
    """
    loader = _limited_loader()(text)
    try:
        return loader.get_single_data()
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise ConfigTooLarge(
            f"the document nests more than {MAX_CONFIG_DEPTH} levels deep"
        ) from None
    finally:
        loader.dispose()


def decode_yaml(data: bytes, ctx: BuildContext) -> Any:
    """The parsed YAML document, or ``ParseFailed`` (diagnosed with its line).

    Raises:
        ConfigTooLarge: the document is over a size limit (its file is refused whole).
    """
    try:
        import yaml
    except ImportError:
        ctx.report(DiagnosticCode.CONFIG_READ_FAILED, YAML_MISSING + "; file skipped")
        return ParseFailed
    text = decode_text(data, ctx)
    if text is None:
        return ParseFailed
    try:
        doc = load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        ctx.report(
            DiagnosticCode.CONFIG_READ_FAILED,
            f"invalid YAML: {problem}; file skipped",
            location=where,
        )
        return ParseFailed
    return {} if doc is None else doc


def _is_group(item: object) -> bool:
    """A matcher group (``{matcher, hooks}``) rather than a handler written directly."""
    return (
        isinstance(item, Mapping)
        and ("hooks" in item or "matcher" in item)
        and "type" not in item
        and "command" not in item
    )


def _strict_kinds(kinds: HandlerKinds | None) -> HandlerKinds:
    """The kind table with Docker Agent's ``strict_output`` honoured by every kind: the
    factory builds the entry without it, and the node is marked strict."""

    def strict(factory: KindFactory) -> KindFactory:
        @functools.wraps(factory)
        def build(entry: Mapping[str, Any], ctx: KindContext) -> HandlerNode | None:
            if "strict_output" not in entry:
                return factory(entry, ctx)
            value = entry["strict_output"]
            if value is not None and not isinstance(value, bool):
                ctx.report(
                    DiagnosticCode.INVALID_HANDLER,
                    f"'strict_output' must be true or false, got {describe(value)}; "
                    "handler dropped",
                    severity=Severity.ERROR,
                    location=f"{ctx.location}.strict_output" if ctx.location else None,
                )
                return None
            node = factory({k: v for k, v in entry.items() if k != "strict_output"}, ctx)
            return attrs.evolve(node, strict_output=True) if node is not None and value else node

        return build

    table = default_kinds() if kinds is None else kinds
    return {name: strict(factory) for name, factory in table.items()}


def parse_docker_hooks(hooks: object, prefix: str, ctx: BuildContext) -> list[MatcherGroup] | None:
    """A Docker Agent hooks block: ``{event: groups | handlers | handler}``; ``None``
    when the block asks for what agent_hooks cannot honour (``preempt_yolo``), which
    refuses its file."""
    if not isinstance(hooks, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"a hooks block must be a mapping of events, got {describe(hooks)}; ignored",
            location=prefix or None,
        )
        return []
    if _preempt_refusal(hooks, prefix, ctx):
        return None  # (before anything is built: a refused file imports nothing)
    ctx = attrs.evolve(ctx, kinds=_strict_kinds(ctx.kinds))
    groups: list[MatcherGroup] = []
    for key, value in hooks.items():
        event = parse_event_key(key, prefix, ctx, snake=True)
        if event is None:
            continue
        where = join(prefix, key)
        if value is None:
            continue
        if isinstance(value, Mapping):
            items: list[tuple[str, object]] = [(where, value)]
        elif isinstance(value, list):
            items = [(f"{where}[{i}]", item) for i, item in enumerate(value)]
        else:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{key} must be a list of hooks or matcher groups, got {describe(value)}; dropped",
                location=where,
            )
            continue
        for loc, item in items:
            if _is_group(item):
                assert isinstance(item, Mapping)
                _preempt_elsewhere(item, event, loc, ctx)
                group = parse_group(item, event, loc, ctx, extra_keys=_GROUP_KEYS)
                if group is not None:
                    groups.append(group)
                continue
            node = build_handler(item, ctx.kind_context(event, loc), ctx.kinds)
            if node is not None:
                groups.append(
                    MatcherGroup(event=event, nodes=(node,), location=loc, node_locations=(loc,))
                )
    return groups


PREEMPT_REFUSED = (
    "'preempt_yolo: true' asks Docker Agent to run this group before its approval pipeline "
    "(allow rules, --yolo) and to let no policy allow override its 'ask'; agent_hooks cannot "
    "place a group there (as a bridge it does not know which of Docker Agent's lanes called "
    "it), so this file is refused and none of its hooks load. Keep the group in Docker "
    "Agent's own configuration (it may call 'agent-hooks run'), or remove 'preempt_yolo' "
    "to run it as an ordinary pre_tool_use group"
)


def _preempt_refusal(hooks: Mapping[Any, Any], prefix: str, ctx: BuildContext) -> bool:
    """Whether a ``pre_tool_use`` group of the block asks for ``preempt_yolo`` (anything
    but false), which refuses the file; each such group is reported as an error."""
    refused = False
    for key, value in hooks.items():
        try:
            event = parse_event(key) if isinstance(key, str) else None
        except UnknownEventError:
            event = None
        if event is not HookEvent.PRE_TOOL_USE:
            continue
        where = join(prefix, key)
        items = [(where, value)] if isinstance(value, Mapping) else []
        if isinstance(value, list):
            items = [(f"{where}[{i}]", item) for i, item in enumerate(value)]
        for loc, item in items:
            if not _is_group(item) or item.get("preempt_yolo") in (None, False):
                continue
            flag = item["preempt_yolo"]
            message = PREEMPT_REFUSED
            if flag is not True:
                message = f"'preempt_yolo' must be true or false, got {describe(flag)}: " + message
            ctx.report(DiagnosticCode.CONFIG_READ_FAILED, message, location=f"{loc}.preempt_yolo")
            refused = True
    return refused


def _preempt_elsewhere(
    group: Mapping[str, Any], event: AnyEvent, where: str, ctx: BuildContext
) -> None:
    """``preempt_yolo`` on another event than pre_tool_use means nothing (Docker Agent
    ignores it there): a warning."""
    if event is not HookEvent.PRE_TOOL_USE and group.get("preempt_yolo") not in (None, False):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            "'preempt_yolo' applies to pre_tool_use only (Docker Agent ignores it elsewhere); "
            "ignored",
            location=f"{where}.preempt_yolo",
            severity=Severity.WARNING,
        )


def _agent_builder(agent: str | None) -> Any:
    def build(data: bytes, ctx: BuildContext) -> Built:
        doc = decode_yaml(data, ctx)
        built = Built()
        if doc is ParseFailed:
            return built
        agents = doc.get("agents") if isinstance(doc, Mapping) else None
        if not isinstance(agents, Mapping) or not agents:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                "an agent file needs an 'agents' mapping; file skipped",
                location="agents",
            )
            return built
        name = agent
        if name is None:
            name = "root" if "root" in agents else str(next(iter(agents)))
        spec = agents.get(name)
        if spec is None:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"no agent named {name!r} (agents: {', '.join(map(str, agents))}); nothing loaded",
                location="agents",
            )
            return built
        prefix = f"agents.{name}"
        if not isinstance(spec, Mapping):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"agent {name!r} must be a mapping, got {describe(spec)}; skipped",
                location=prefix,
            )
            return built
        if spec.get("hooks") is not None:
            groups = parse_docker_hooks(spec["hooks"], f"{prefix}.hooks", ctx)
            if groups is None:
                return built
            built.groups = groups
        for flag, (events, builtin) in _FLAG_BUILTINS.items():
            value = spec.get(flag)
            if not value:
                continue
            entry: dict[str, Any] = {"type": "builtin", "command": builtin}
            if flag == "add_prompt_files" and isinstance(value, list):
                entry["args"] = [str(v) for v in value]
            for event in events:
                loc = f"{prefix}.{flag}"
                node = build_handler(entry, ctx.kind_context(event, loc), ctx.kinds)
                if node is not None:
                    built.groups.append(
                        MatcherGroup(
                            event=event, nodes=(node,), location=loc, node_locations=(loc,)
                        )
                    )
        others = [
            str(n)
            for n, s in agents.items()
            if n != name and isinstance(s, Mapping) and s.get("hooks")
        ]
        if others:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"loaded the hooks of agent {name!r}; agents {', '.join(others)} have their own "
                "(load them with agent=...)",
                location="agents",
                severity=Severity.INFO,
            )
        return built

    return build


def _settings_builder(data: bytes, ctx: BuildContext) -> Built:
    built = Built()
    if b"hooks" not in data:
        return built  # the user config without hooks: nothing to parse (nor PyYAML to need)
    doc = decode_yaml(data, ctx)
    if doc is ParseFailed:
        return built
    if not isinstance(doc, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"the user config must be a mapping, got {describe(doc)}; file skipped",
        )
        return built
    settings = doc.get("settings")
    if settings is None:
        return built
    if not isinstance(settings, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'settings' must be a mapping, got {describe(settings)}; ignored",
            location="settings",
        )
        return built
    if settings.get("hooks") is not None:
        built.groups = parse_docker_hooks(settings["hooks"], "settings.hooks", ctx) or []
    return built


def _dropin_builder(data: bytes, ctx: BuildContext) -> Built:
    doc = decode_yaml(data, ctx)
    built = Built()
    if doc is ParseFailed:
        return built
    if not isinstance(doc, Mapping):
        ctx.report(
            DiagnosticCode.CONFIG_READ_FAILED,
            f"a hooks.d file must be a mapping of events, got {describe(doc)}; file skipped",
        )
        return built
    built.groups = parse_docker_hooks(doc, "", ctx) or []
    return built


def docker_config_dir(home: str | os.PathLike[str] | None = None) -> Path:
    """``$DOCKER_AGENT_CONFIG_DIR``, ``$CAGENT_CONFIG_DIR``, ``$XDG_CONFIG_HOME/cagent``,
    else ``~/.config/cagent`` (``home`` replaces the environment lookups)."""
    if home is None:
        for var in ("DOCKER_AGENT_CONFIG_DIR", "CAGENT_CONFIG_DIR"):
            if os.environ.get(var):
                return Path(os.environ[var])
        xdg = os.environ.get("XDG_CONFIG_HOME")
        if xdg and os.path.isabs(xdg):
            return Path(xdg) / "cagent"
    return (Path(home) if home is not None else Path.home()) / ".config" / "cagent"


def _file_kind(format: str, builder: Builder, otherwise: str = "user") -> HookFile:
    """One kind of Docker Agent file: without a ``scope``, a file of a project is
    ``project``-scoped with that project's root, any other ``otherwise``; its default
    precedence is its format's."""
    return HookFile(
        format=format,
        dialect=DOCKER,
        builder=builder,
        scope_given_keeps_project=True,
        otherwise=otherwise,
        precedence=PRECEDENCE[format],
    )


SETTINGS_FILE = _file_kind("docker-settings", _settings_builder)
"""``settings.hooks`` of the user config (``~/.config/cagent/config.yaml``): without a
``scope``, a file that lies in a project is project content and needs its trust."""
DROPIN_FILE = _file_kind("docker-dropin", _dropin_builder)
"""One ``hooks.d`` file: a stand-alone hooks block (scope as for :data:`SETTINGS_FILE`)."""


def load_docker_agent(
    path: str | os.PathLike[str],
    *,
    agent: str | None = None,
    scope: str | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    precedence: int | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    data: bytes | None = None,
) -> LoadedConfig:
    """The ``hooks:`` block of one agent (``agent``; default ``root``, else the first).

    An agent file inside ``project_dir``, or inside any other project (a directory with
    ``.git``, ``.claude/``... above the file: :func:`find_project_root`), is
    project-scoped and needs that project's trust.
    """
    kind = _file_kind("docker-agent", _agent_builder(agent), otherwise="explicit")
    return kind.load(path, scope, project_dir, precedence, trust, kinds, data)[0]


def load_docker_dropins(
    directory: str | os.PathLike[str],
    *,
    kinds: HandlerKinds | None = None,
) -> LoadedConfig:
    """Every ``*.yaml`` / ``*.yml`` of a ``hooks.d`` directory, in lexical order."""
    base = Path(directory)
    try:
        names = sorted(
            n for n in os.listdir(base) if n.endswith((".yaml", ".yml")) and (base / n).is_file()
        )
    except OSError:
        names = []
    parts = [
        DROPIN_FILE.load_file(
            base / n,
            scope="user",
            precedence=PRECEDENCE["docker-dropin"] + min(i, 89),
            kinds=kinds,
        )
        for i, n in enumerate(names)
    ]
    result = combine(parts)

    return result


def docker_cli_hooks(
    hooks: Mapping[str, Sequence[str] | str],
    *,
    kinds: HandlerKinds | None = None,
    label: str = "cli",
) -> LoadedConfig:
    """Hooks from command-line flags: ``{"pre_tool_use": ["./validate.sh"]}`` is
    ``--hook-pre-tool-use ./validate.sh``. Keys may also be flag names
    (``--hook-pre-tool-use``/``hook-pre-tool-use``)."""
    diags: list[Any] = []
    ctx = BuildContext(label=label, dialect=DOCKER, kinds=kinds, diagnostics=diags)
    groups: list[MatcherGroup] = []
    try:
        for key, commands in hooks.items():
            name = key.removeprefix("--").removeprefix("hook-").replace("-", "_")
            event = parse_event_key(name, "", ctx, snake=True)
            if event is None:
                continue
            listed = [commands] if isinstance(commands, str) else list(commands)
            for i, command in enumerate(listed):
                loc = f"{name}[{i}]"
                node = build_handler(
                    {"type": "command", "command": command}, ctx.kind_context(event, loc), kinds
                )
                if node is not None:
                    groups.append(
                        MatcherGroup(
                            event=event, nodes=(node,), location=loc, node_locations=(loc,)
                        )
                    )
    except ConfigTooLarge as exc:
        groups = []
        ctx.report(DiagnosticCode.CONFIG_READ_FAILED, too_large_message(f"too many hooks: {exc}"))
    from .._dispatch._registry import Source, SourcedGroups, untyped_notes

    source = Source(label=label, precedence=PRECEDENCE["docker-cli"], dialect=DOCKER)
    sg = SourcedGroups(
        source=source, groups=tuple(groups), diagnostics=(*diags, *untyped_notes(groups, source))
    )
    file = LoadedFile(
        path=label,
        format="docker-cli",
        scope="cli",
        precedence=PRECEDENCE["docker-cli"],
        handlers=sum(len(g.nodes) for g in groups),
    )
    return LoadedConfig(sources=(sg,), files=(file,))


def load_docker(
    agent_file: str | os.PathLike[str] | None = None,
    *,
    agent: str | None = None,
    config_dir: str | os.PathLike[str] | None = None,
    home: str | os.PathLike[str] | None = None,
    cli_hooks: Mapping[str, Sequence[str] | str] | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
) -> LoadedConfig:
    """Docker Agent's four places in order: agent, ``settings.hooks``, ``hooks.d``, CLI."""
    policy = TrustPolicy.coerce(trust)
    cdir = Path(config_dir) if config_dir is not None else docker_config_dir(home)
    parts = []
    if agent_file is not None:
        parts.append(
            load_docker_agent(
                agent_file, agent=agent, project_dir=project_dir, trust=policy, kinds=kinds
            )
        )
    for name in ("config.yaml", "config.yml"):
        if (cdir / name).exists() or name == "config.yaml":
            parts.append(SETTINGS_FILE.load_file(cdir / name, scope="user", kinds=kinds))
            break
    parts.append(load_docker_dropins(cdir / "hooks.d", kinds=kinds))
    if cli_hooks:
        parts.append(docker_cli_hooks(cli_hooks, kinds=kinds))
    result = combine(parts)

    return result
