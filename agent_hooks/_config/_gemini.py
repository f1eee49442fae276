"""Gemini CLI: the ``hooks`` key of its ``settings.json`` files, and extension hooks.

Claude Code's three levels (event -> ``[{matcher, sequential, hooks: [...]}]`` ->
handlers ``{type, command, name, timeout, description, env}``), with Gemini's own event
names (``BeforeTool`` is PreToolUse, ``AfterAgent`` is Stop, ``BeforeModel`` is
BeforeLLMCall, ``AfterModel`` is AfterModelChunk; the dialect rows say them all),
timeouts in **milliseconds** (default 60 s) and its dialect's rules (exit
2 blocks, an exit of 3 or more with text blocks, other failures warn).

Layers, all added up (Gemini concatenates them):

======  ==================================================================  =========
prec    location                                                             trust
======  ==================================================================  =========
200     ``{project}/.gemini/settings.json``                                  project
300     ``~/.gemini/settings.json``                                          -
350     system settings: ``$GEMINI_CLI_SYSTEM_SETTINGS_PATH``, else          -
        ``/etc/gemini-cli/settings.json`` (macOS ``/Library/Application
        Support/GeminiCli/settings.json``)
360     ``system-defaults.json`` beside it (``$GEMINI_CLI_SYSTEM_DEFAULTS_PATH``)  -
400+    extensions: ``~/.gemini/extensions/*/hooks/hooks.json``, by name    -
======  ==================================================================  =========

``hooksConfig.enabled: false`` in any of the settings files switches every settings
hook off (extension hooks stay, as in Gemini); ``hooksConfig.disabled`` lists hook
names or commands to skip, the union over the files. An unknown event name is a
warning and its hooks are skipped (Gemini's rule); a bad group or handler is dropped
alone. ``sequential: true`` on a matching definition makes every matching hook of the
event run one after another in priority order, each seeing the input as the previous
one modified it (chained execution), as Gemini does.

The settings files are read as Gemini reads them, JSON with ``//`` and ``/* */``
comments (``JSON.parse(stripJsonComments(text))``; no trailing commas); an extension's
``hooks/hooks.json`` is plain JSON (Gemini parses it with ``JSON.parse``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._dispatch._registry import MatcherGroup
from .._handlers._kinds import HandlerKinds
from .._wire._dialects import GEMINI
from ._common import (
    BuildContext,
    Built,
    HookFile,
    decode_object,
    describe,
    json_has_hooks,
    parse_group,
)
from ._native_format import bind_group, event_lists, scaled_timeout
from ._snapshot import LoadedConfig, combine
from ._trust import TrustArg, TrustPolicy

__all__ = [
    "gemini_builder",
    "gemini_extension_builder",
    "gemini_probe",
    "load_gemini",
    "load_gemini_dir",
    "system_settings_path",
]


_HANDLER_RENAMES = {"description": None}
"""Handler keys Gemini defines that the command kind does not read (dropped quietly)."""


gemini_probe = json_has_hooks
"""Whether a Gemini ``settings.json`` says anything about hooks (else no trust is
needed: most settings files hold other settings)."""


def _entry(handler: object) -> object:
    if not isinstance(handler, Mapping):
        return handler
    entry = scaled_timeout(handler, "timeout", GEMINI.timeout_unit)
    for key in _HANDLER_RENAMES:
        entry.pop(key, None)
    return entry


def gemini_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Gemini settings file (JSON with comments)."""
    return _build(data, ctx, comments=True)


def gemini_extension_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of an extension's ``hooks/hooks.json`` (plain JSON)."""
    return _build(data, ctx, comments=False)


def _build(data: bytes, ctx: BuildContext, *, comments: bool) -> Built:
    built = Built()
    doc = decode_object(data, ctx, comments=comments)
    if doc is None:
        return built
    config = doc.get("hooksConfig")
    if isinstance(config, Mapping):
        enabled = config.get("enabled")
        if isinstance(enabled, bool):
            built.flags["enabled"] = enabled
        disabled = config.get("disabled")
        if isinstance(disabled, list):
            built.flags["disabled"] = [d for d in disabled if isinstance(d, str)]
    elif config is not None:
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'hooksConfig' must be an object, got {describe(config)}; ignored",
            location="hooksConfig",
            severity=Severity.WARNING,
        )
    hooks = doc.get("hooks")
    if isinstance(hooks, Mapping):  # (older layouts kept hooksConfig's keys here)
        hooks = {
            k: v for k, v in hooks.items() if k not in ("enabled", "disabled", "notifications")
        }
    lists = event_lists(hooks, ctx, mapping="event names to definitions", items="definitions")
    for event, native, where, value in lists:
        assert native is not None  # (native_event_key names one)
        for gi, group in enumerate(value):
            if isinstance(group, Mapping) and isinstance(group.get("hooks"), list):
                group = {**group, "hooks": [_entry(h) for h in group["hooks"]]}
            parsed = parse_group(
                group, event, f"{where}[{gi}]", ctx, extra_keys=frozenset({"sequential"})
            )
            if parsed is None:
                continue
            sequential = group.get("sequential", False) if isinstance(group, Mapping) else False
            if not isinstance(sequential, bool):
                ctx.report(
                    DiagnosticCode.INVALID_CONFIG,
                    f"'sequential' must be true or false, got {describe(sequential)}; read as "
                    "false",
                    location=f"{where}[{gi}]",
                    severity=Severity.WARNING,
                )
                sequential = False
            if sequential:
                parsed = attrs.evolve(parsed, sequential=True)
            if parsed.matcher in ("", "*"):
                parsed = attrs.evolve(parsed, matcher=None)
            built.groups.append(bind_group(parsed, GEMINI, native))
    return built


_FILE = HookFile(
    format="gemini-settings", dialect=GEMINI, builder=gemini_builder, probe=gemini_probe
)
_EXTENSION_FILE = attrs.evolve(_FILE, builder=gemini_extension_builder)


def _is_extension_hooks(path: str) -> bool:
    """Whether ``path`` is an extension's ``<extension>/hooks/hooks.json``."""
    parts = Path(os.path.abspath(path)).parts
    return parts[-2:] == ("hooks", "hooks.json") and len(parts) >= 5 and parts[-4] == "extensions"


def load_gemini(
    path: str | os.PathLike[str],
    *,
    scope: str | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    precedence: int | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    data: bytes | None = None,
    home: str | os.PathLike[str] | None = None,
) -> LoadedConfig:
    """One Gemini settings file (or extension ``hooks.json``: a ``hooks.json`` in the
    ``hooks/`` directory of an ``extensions/<name>/`` directory, read as plain JSON). A
    file inside a project is that project's and needs its trust; ``hooksConfig`` of this
    file applies to it."""
    file = _EXTENSION_FILE if _is_extension_hooks(os.fspath(path)) else _FILE
    config, built = file.load(path, scope, project_dir, precedence, trust, kinds, data, home)
    if built is not None:
        config = _apply_switches(
            config, built.flags.get("enabled"), built.flags.get("disabled", [])
        )
    return config


def system_settings_path() -> Path:
    """Gemini CLI's system settings file for this platform (or its override variable)."""
    override = os.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
    if override:
        return Path(override)
    if sys.platform == "darwin":
        return Path("/Library/Application Support/GeminiCli/settings.json")
    if os.name == "nt":  # pragma: no cover
        return Path("C:/ProgramData/gemini-cli/settings.json")
    return Path("/etc/gemini-cli/settings.json")


def load_gemini_dir(
    project_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
    system_settings: str | os.PathLike[str] | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
) -> LoadedConfig:
    """Every Gemini CLI layer (see the module docstring), with ``hooksConfig`` applied
    across the settings files."""
    policy = TrustPolicy.coerce(trust)
    user = (Path(home) if home is not None else Path.home()) / ".gemini"
    system = Path(system_settings) if system_settings is not None else system_settings_path()
    defaults = Path(
        os.environ.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
        or system.with_name("system-defaults.json")
    )
    settings: list[tuple[Path, str, int | None]] = []
    if project_dir is not None:
        project_file = Path(project_dir) / ".gemini" / "settings.json"
        if os.path.realpath(project_file) != os.path.realpath(user / "settings.json"):
            settings.append((project_file, "project", None))
    settings += [
        (user / "settings.json", "user", None),
        (system, "managed", 350),
        (defaults, "managed", 360),
    ]
    parts = []
    switches: dict[str, bool] = {}  # scope -> hooksConfig.enabled
    disabled: list[str] = []
    for path, scope, prec in settings:
        label = os.fspath(path)
        cfg, built = _FILE.load_as(
            label,
            scope=scope,
            project_dir=project_dir,
            precedence=prec,
            trust=policy,
            kinds=kinds,
        )
        if built is not None:
            if "enabled" in built.flags:
                switches.setdefault(label, built.flags["enabled"])
            disabled += built.flags.get("disabled", [])
        parts.append(cfg)
    # Gemini merges settings system > workspace > user > system defaults for a scalar
    order = [os.fspath(system), *(os.fspath(p) for p, sc, _ in settings if sc != "managed")]
    order.append(os.fspath(defaults))
    enabled = next((switches[label] for label in order if label in switches), None)
    settings_config = _apply_switches(combine(parts), enabled, disabled)
    extensions = []
    ext_dir = user / "extensions"
    if ext_dir.is_dir():
        for i, ext in enumerate(sorted(p for p in ext_dir.iterdir() if p.is_dir())):
            hooks = ext / "hooks" / "hooks.json"
            if hooks.is_file():
                extensions.append(
                    load_gemini(
                        hooks, scope="plugin", precedence=400 + i, trust=policy, kinds=kinds
                    )
                )
    result = combine([settings_config, *extensions])

    return result


def _apply_switches(config: LoadedConfig, enabled: Any, disabled: list[str]) -> LoadedConfig:
    """``hooksConfig``: ``enabled: false`` switches the files' hooks off; the hooks whose
    name or command ``disabled`` lists are kept as disabled entries."""
    if enabled is False:
        from ._common import disable_config

        return disable_config(config, "hooksConfig.enabled is false", DiagnosticCode.HOOKS_DISABLED)
    if not disabled:
        return config
    names = set(disabled)
    sources = []
    for sg in config.sources:
        groups: list[MatcherGroup] = []
        notes: list[Diagnostic] = []
        for g in sg.groups:
            nodes = []
            for n in g.nodes:
                command = getattr(n, "name", None)
                if n.disabled is None and command in names:
                    n = attrs.evolve(n, disabled="listed in hooksConfig.disabled")
                    notes.append(
                        Diagnostic(
                            code=DiagnosticCode.HOOKS_DISABLED,
                            message=f"{n.name!r} is listed in hooksConfig.disabled; not run",
                            severity=Severity.INFO,
                            source=sg.source.label,
                            location=g.location,
                        )
                    )
                nodes.append(n)
            groups.append(attrs.evolve(g, nodes=tuple(nodes)))
        sources.append(
            attrs.evolve(sg, groups=tuple(groups), diagnostics=(*sg.diagnostics, *notes))
        )
    return attrs.evolve(config, sources=tuple(sources))
