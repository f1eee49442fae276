"""Codex: ``hooks.json`` and ``[hooks]`` tables in ``config.toml``, per config layer.

Both have Claude Code's shape (``[[hooks.PreToolUse]]`` groups with
``[[hooks.PreToolUse.hooks]]`` handlers in TOML). Layers are additive: the
project's ``.codex/`` (precedence 200, trusted workspaces only), then the user's
``$CODEX_HOME`` (default ``~/.codex``, precedence 300). ``timeout`` has a
minimum of 1 second; ``commandWindows`` (or ``command_windows``) is only read on
Windows.

As Codex 0.171.0 does: a ``hooks.json`` whose root holds anything but ``description``
and ``hooks`` (``$schema`` included) is refused whole, and so is a file with a handler
giving both ``commandWindows`` and ``command_windows`` (a duplicate field). SessionEnd
and Interrupt hooks get at most 3 s, ``prompt`` and ``agent`` handlers are parsed and
skipped, ``mcp_tool`` handlers (``server``, ``tool``, ``input``; they run with an MCP
caller from ``model_kinds(mcp=...)``) are skipped on SessionEnd: the ``CODEX`` dialect
row says so, with a warning each.

TOML is read with :mod:`tomllib` (Python 3.11+) or the ``tomli`` backport.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from .._base._diagnostics import DiagnosticCode
from .._handlers._kinds import HandlerKinds
from .._wire._dialects import CODEX
from ._claude_format import build_hooks_document
from ._common import (
    MAX_CONFIG_DEPTH,
    BuildContext,
    Built,
    ConfigTooLarge,
    HookFile,
    ParseFailed,
    check_document,
    decode_json,
    decode_text,
    describe,
    disable_config,
    json_has_hooks,
    parse_hooks_mapping,
)
from ._managed import CODEX_HOOKS_OFF, MANAGED_ONLY_CODEX, OwnerRule, refuse
from ._snapshot import LoadedConfig, combine
from ._trust import TrustArg, TrustPolicy

__all__ = [
    "TOML_FILE",
    "codex_hooks_builder",
    "codex_toml_builder",
    "load_codex",
    "load_codex_dir",
]

_ROOT_KEYS = frozenset({"description", "hooks"})
"""The only keys Codex accepts at the root of a ``hooks.json``."""


def _duplicate_windows_command(hooks: object, ctx: BuildContext) -> bool:
    """Whether a handler gives both spellings of ``commandWindows`` (reported: Codex
    refuses the file)."""
    if not isinstance(hooks, Mapping):
        return False
    for key, groups in hooks.items():
        for gi, group in enumerate(groups if isinstance(groups, list) else ()):
            handlers = group.get("hooks") if isinstance(group, Mapping) else None
            for hi, entry in enumerate(handlers if isinstance(handlers, list) else ()):
                if isinstance(entry, Mapping) and {"commandWindows", "command_windows"} <= set(
                    entry
                ):
                    ctx.report(
                        DiagnosticCode.INVALID_CONFIG,
                        "both 'commandWindows' and 'command_windows' are set (one field, "
                        "given twice); Codex refuses the file, and so was it",
                        location=f"hooks.{key}[{gi}].hooks[{hi}]",
                    )
                    return True
    return False


def codex_hooks_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Codex ``hooks.json`` (Claude Code's shape, Codex's refusals)."""
    doc = decode_json(data, ctx)
    if doc is ParseFailed:
        return Built()
    if isinstance(doc, Mapping):
        unknown = sorted(str(k) for k in doc if k not in _ROOT_KEYS)
        if unknown:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"unknown top-level field(s) {', '.join(map(repr, unknown))}: Codex accepts only "
                "'description' and 'hooks' and refuses the file; file skipped",
                location=unknown[0],
            )
            return Built()
        if _duplicate_windows_command(doc.get("hooks"), ctx):
            return Built()
    return build_hooks_document(doc, ctx, settings=False, allowed_keys=_ROOT_KEYS)


def _toml() -> Any:
    return importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")


def codex_toml_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of ``config.toml``: only its ``hooks`` table is read."""
    try:
        toml = _toml()
    except ImportError:  # pragma: no cover - tomli is a dependency below 3.11
        ctx.report(
            DiagnosticCode.CONFIG_READ_FAILED,
            "reading TOML needs the 'tomli' package on Python < 3.11 (pip install tomli)",
        )
        return Built()
    text = decode_text(data, ctx)
    if text is None:
        return Built()
    try:
        doc = toml.loads(text)
    except toml.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        ctx.report(
            DiagnosticCode.CONFIG_READ_FAILED,
            f"invalid TOML: {exc}; file skipped",
            location=f"line {line}" if line else None,
        )
        return Built()
    except RecursionError:
        raise ConfigTooLarge(
            f"the document nests more than {MAX_CONFIG_DEPTH} levels deep"
        ) from None
    check_document(doc)
    built = Built()
    hooks = doc.get("hooks")
    if hooks is None or _duplicate_windows_command(hooks, ctx):
        return built
    if not isinstance(hooks, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'hooks' must be a table of events, got {describe(hooks)}; ignored",
            location="hooks",
        )
        return built
    built.groups = parse_hooks_mapping(hooks, "hooks", ctx)
    return built


def toml_has_hooks(data: bytes) -> bool:
    """Whether a TOML document has a ``hooks`` key (or cannot be parsed)."""
    try:
        return "hooks" in _toml().loads(data.decode("utf-8-sig"))
    except Exception:
        return True


# The scope of a Codex file and the project it needs the trust of: ``project`` for a
# file inside ``project_dir`` or below a project root found from the file, else ``user``
# (a scope the caller gives keeps the caller's ``project_dir``).
_JSON = HookFile(
    format="codex-json",
    dialect=CODEX,
    builder=codex_hooks_builder,
    probe=json_has_hooks,
    scope_given_keeps_project=True,
)
TOML_FILE = HookFile(
    format="codex-toml",
    dialect=CODEX,
    builder=codex_toml_builder,
    probe=toml_has_hooks,
    scope_given_keeps_project=True,
)


def load_codex(
    path: str | os.PathLike[str],
    *,
    scope: str | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    precedence: int | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    data: bytes | None = None,
) -> LoadedConfig:
    """A Codex ``hooks.json`` (a ``.toml`` path is read as ``config.toml``)."""
    label = os.fspath(path)
    if label.endswith(".toml"):
        return TOML_FILE.load(label, scope, project_dir, precedence, trust, kinds, data)[0]
    config, _ = _JSON.load(label, scope, project_dir, precedence, trust, kinds, data)
    return config


def codex_home(home: str | os.PathLike[str] | None = None) -> Path:
    """``$CODEX_HOME``, else ``~/.codex``."""
    env = os.environ.get("CODEX_HOME")
    if env and home is None:
        return Path(env)
    return (Path(home) if home is not None else Path.home()) / ".codex"


_MANAGED_KEYS = frozenset({"managed_dir", "windows_managed_dir", "state"})
"""Keys of ``requirements.toml``'s ``[hooks]`` table that are no event."""


def requirements_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of ``requirements.toml``: its inline ``[hooks]`` event tables (managed
    hooks), and in ``flags`` what matters across files: ``allow_managed_hooks_only``,
    ``hooks`` (``[features].hooks``, or its deprecated alias ``codex_hooks``) and
    ``managed_dir`` (``[hooks] managed_dir``, ``windows_managed_dir`` on Windows)."""
    try:
        doc = _toml().loads(decode_text(data, ctx) or "")
    except Exception as exc:  # (TOMLDecodeError, or text that did not decode)
        ctx.report(DiagnosticCode.CONFIG_READ_FAILED, f"invalid TOML: {exc}; file skipped")
        return Built()
    check_document(doc)
    built = Built()
    features = doc.get("features")
    features = features if isinstance(features, Mapping) else {}
    for flag, value, where in (
        (
            "allow_managed_hooks_only",
            doc.get("allow_managed_hooks_only"),
            "allow_managed_hooks_only",
        ),
        ("hooks", features.get("hooks", features.get("codex_hooks")), "features.hooks"),
    ):
        if isinstance(value, bool):
            built.flags[flag] = value
        elif value is not None:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{where!r} must be true or false, got {describe(value)}; ignored",
                location=where,
            )
    hooks = doc.get("hooks")
    if hooks is None:
        return built
    if not isinstance(hooks, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'hooks' must be a table, got {describe(hooks)}; ignored",
            location="hooks",
        )
        return built
    key = "windows_managed_dir" if os.name == "nt" else "managed_dir"
    if isinstance(hooks.get(key), str):
        built.flags["managed_dir"] = hooks[key]
    events = {k: v for k, v in hooks.items() if k not in _MANAGED_KEYS}
    if events and not _duplicate_windows_command(events, ctx):
        built.groups = parse_hooks_mapping(events, "hooks", ctx)
    return built


REQUIREMENTS_FILE = HookFile(
    format="codex-toml",
    dialect=CODEX,
    builder=requirements_builder,
    scope_given_keeps_project=True,
)


def _system_requirements() -> Path | None:
    from ._harness import HARNESSES

    for loc in HARNESSES["codex"].locations:
        if loc.scope == "managed":
            return loc.place(None, Path.home())
    return None


def _load_managed(
    requirements: Path, judged: bool, trust: TrustPolicy, kinds: HandlerKinds | None
) -> tuple[list[LoadedConfig], dict[str, Any]]:
    """``requirements.toml`` and the ``hooks.json`` of its ``managed_dir``: managed hooks
    when they pass the owner rule (``judged``), and the requirements' flags (none from a
    refused file)."""
    cfg, built = REQUIREMENTS_FILE.load_as(
        requirements, scope="managed", project_dir=None, precedence=100, trust=trust, kinds=kinds
    )
    problem = OwnerRule().problem(requirements) if judged and cfg.files else None
    if problem is not None:
        return [refuse(cfg, problem)], {}
    flags = dict(built.flags) if built is not None else {}
    parts = [_drop_empty_toml(cfg)]
    where = flags.get("managed_dir")
    if isinstance(where, str):
        path = (requirements.parent / os.path.expanduser(where)) / "hooks.json"
        hooks, _ = _JSON.load_as(
            path, scope="managed", project_dir=None, precedence=101, trust=trust, kinds=kinds
        )
        problem = OwnerRule().problem(path) if judged and hooks.files else None
        parts.append(refuse(hooks, problem) if problem is not None else hooks)
    return parts, flags


def load_codex_dir(
    project_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
    codex_home_dir: str | os.PathLike[str] | None = None,
    requirements: str | os.PathLike[str] | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
) -> LoadedConfig:
    """Codex's layers: managed requirements, the project's ``.codex/`` (trusted only),
    then ``$CODEX_HOME``.

    Managed: ``requirements`` when given, else the system's ``requirements.toml``
    (``/etc/codex/requirements.toml``; it loads only when root owns it and no one else
    can write it, :class:`~._managed.OwnerRule`): its inline ``[hooks]`` tables and the
    ``hooks.json`` of its ``[hooks] managed_dir`` are managed hooks (trusted by policy).
    ``allow_managed_hooks_only = true`` switches the project's and the user's hooks
    off; ``[features].hooks = false`` switches every Codex hook off, managed ones too.
    """
    policy = TrustPolicy.coerce(trust)
    user_dir = Path(codex_home_dir) if codex_home_dir is not None else codex_home(home)
    managed: list[LoadedConfig] = []
    flags: dict[str, Any] = {}
    required = Path(requirements) if requirements is not None else _system_requirements()
    if required is not None:
        managed, flags = _load_managed(required, requirements is None, policy, kinds)
    parts = []
    if project_dir is not None:
        pdir = Path(project_dir) / ".codex"
        if os.path.realpath(pdir) != os.path.realpath(user_dir):
            for name in ("hooks.json", "config.toml"):
                parts.append(
                    load_codex(
                        pdir / name,
                        scope="project",
                        project_dir=project_dir,
                        trust=policy,
                        kinds=kinds,
                    )
                )
    for name in ("hooks.json", "config.toml"):
        parts.append(
            load_codex(
                user_dir / name, scope="user", project_dir=project_dir, trust=policy, kinds=kinds
            )
        )
    others = _drop_empty_toml(combine(parts))
    every = combine([*managed, others])
    if flags.get("hooks") is False:
        return disable_config(every, CODEX_HOOKS_OFF, DiagnosticCode.HOOKS_DISABLED)
    if flags.get("allow_managed_hooks_only") is True:
        others = disable_config(others, MANAGED_ONLY_CODEX, DiagnosticCode.HOOKS_DISABLED)
    return combine([*managed, others])


def _drop_empty_toml(config: LoadedConfig) -> LoadedConfig:
    """A ``config.toml`` without hooks is not a hook source: leave it out of the list."""
    keep = [
        i
        for i, f in enumerate(config.files)
        if not (
            f.format == "codex-toml"
            and f.status == "loaded"
            and f.handlers == 0
            and not config.sources[i].diagnostics
        )
    ]
    if len(keep) == len(config.files) or len(config.files) != len(config.sources):
        return config
    return attrs.evolve(
        config,
        sources=tuple(config.sources[i] for i in keep),
        files=tuple(config.files[i] for i in keep),
    )
