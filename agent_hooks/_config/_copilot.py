"""GitHub Copilot CLI and cloud agent: ``.github/hooks/*.json``, ``~/.copilot/hooks/*.json``,
inline ``hooks`` in its settings files, and policy files.

``{"version": 1, "disableAllHooks": false, "hooks": {event: [entry, ...]}}``: flat lists
per event, each entry one handler with its own ``matcher`` (a full-match regular
expression). Entries: ``type`` (``command``, the default; ``http``; ``prompt``),
``bash`` / ``powershell`` / ``command`` (the cross-platform fallback), or ``exec`` +
``args`` (no shell); ``cwd`` (relative to the repository root), ``env``, ``timeoutSec``
(or ``timeout``; seconds, default 30). camelCase event keys (``preToolUse``,
``agentStop``) get Copilot's camelCase payloads and answers; PascalCase keys
(``PreToolUse``) are its Claude-compatible form and get Claude-shaped ones.

======  ================================================================  =======
prec    location                                                          trust
======  ================================================================  =======
100+    policy: ``/etc/github-copilot/policy.d/*.json`` (root-owned, not   -
        group- or world-writable; alphabetical)
200     ``{project}/.github/hooks/*.json`` (alphabetical)                 project
200     ``{project}/.github/copilot/settings.json`` ``hooks``             project
210     ``{project}/.github/copilot/settings.local.json`` ``hooks``       project
300     ``$COPILOT_HOME/hooks/*.json`` (default ``~/.copilot``)            -
300     ``$COPILOT_HOME/settings.json`` ``hooks``                         -
======  ================================================================  =======

Copilot's own error rules: in a hooks file a malformed entry is dropped alone, while
invalid JSON, a ``version`` other than 1 or an event whose value is not a list refuses
the file; inline ``hooks`` in a settings file are strict, so any bad entry refuses the
whole ``hooks`` field. ``disableAllHooks: true`` in a hooks file switches that file
off; at the top level of the repository's settings it switches off every hook but
policy hooks. ``.claude/settings*.json``, which Copilot reads too, is the Claude
ecosystem's (``discover``), not loaded twice here.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity
from .._dispatch._registry import MatcherGroup
from .._events._names import HookEvent
from .._handlers._kinds import build_handler, disabled_node
from .._wire._dialects import COPILOT, COPILOT_CLAUDE_FORM
from .._wire._native import NativeEvent
from ._common import (
    BuildContext,
    Built,
    HookFile,
    decode_object,
    describe,
    disable_config,
    join,
    json_declares,
    json_has_hooks,
)
from ._managed import OwnerRule, system_path
from ._native_format import bind_native, scaled_timeout
from ._snapshot import LoadedConfig, combine
from ._trust import TrustArg, TrustPolicy

__all__ = [
    "copilot_home",
    "copilot_hooks_builder",
    "copilot_settings_builder",
    "load_copilot",
    "load_copilot_dir",
]


_ENTRY_KEYS = frozenset(
    {
        "type",
        "matcher",
        "bash",
        "powershell",
        "command",
        "exec",
        "args",
        "cwd",
        "env",
        "timeoutSec",
        "timeout",
        "url",
        "headers",
        "allowedEnvVars",
        "prompt",
    }
)


def copilot_home(home: str | os.PathLike[str] | None = None) -> Path:
    """``$COPILOT_HOME``, else ``~/.copilot``."""
    env = os.environ.get("COPILOT_HOME")
    if env and home is None:
        return Path(env)
    return (Path(home) if home is not None else Path.home()) / ".copilot"


def _event(
    key: object, prefix: str, ctx: BuildContext
) -> tuple[HookEvent | str, NativeEvent | None] | None:
    """The event of a key: a camelCase Copilot event (with its native row) or a
    canonical PascalCase one (Copilot's Claude-compatible form, no native row)."""
    assert COPILOT.native is not None
    if isinstance(key, str):
        native = COPILOT.native.by_name(key)
        if native is not None:
            try:
                return HookEvent(native.event), native
            except ValueError:
                return native.event, native
        try:
            return HookEvent(key), None
        except ValueError:
            pass
    ctx.report(
        DiagnosticCode.INVALID_CONFIG,
        f"unknown event {key!r}; its hooks were skipped",
        location=join(prefix, key),
        severity=Severity.WARNING,
    )
    return None


def _handler(entry: Mapping[str, Any], project: str | None) -> dict[str, Any] | str:
    """The canonical handler entry of a Copilot entry, or why it cannot be one."""
    kind = entry.get("type", "command")
    if kind == "http":
        out = {k: entry[k] for k in ("url", "headers", "allowedEnvVars") if k in entry}
        out["type"] = "http"
        key = "timeoutSec" if "timeoutSec" in entry else "timeout"
        return scaled_timeout({**out, key: entry[key]} if key in entry else out, key, 1.0)
    if kind == "prompt" or not isinstance(kind, str):
        return kind if isinstance(kind, str) else "?"
    if kind != "command":
        # agent_hooks' own kinds (python, builtin, ...): read by the kind table as written
        rest = {k: v for k, v in entry.items() if k not in ("matcher", "timeoutSec")}
        key = "timeoutSec" if "timeoutSec" in entry else "timeout"
        return scaled_timeout({**rest, key: entry[key]}, key, 1.0) if key in entry else rest
    handler: dict[str, Any] = {"type": "command"}
    if isinstance(entry.get("exec"), str):
        handler["command"] = entry["exec"]
        handler["args"] = entry.get("args", [])
    else:
        shell_key = "powershell" if os.name == "nt" else "bash"
        command = entry.get(shell_key, entry.get("command"))
        handler["command"] = command
    if "env" in entry:
        handler["env"] = entry["env"]
    cwd = entry.get("cwd")
    if isinstance(cwd, str):
        handler["working_dir"] = os.path.join(project, cwd) if project else cwd
    key = "timeoutSec" if "timeoutSec" in entry else "timeout"
    if key in entry:
        handler = scaled_timeout({**handler, key: entry[key]}, key, COPILOT.timeout_unit)
    return handler


def _build(data: bytes, ctx: BuildContext, *, settings: bool) -> Built:
    built = Built()
    doc = decode_object(data, ctx, "an object with 'hooks'")
    if doc is None:
        return built
    flag = doc.get("disableAllHooks")
    if isinstance(flag, bool):
        built.flags["disableAllHooks"] = flag
    hooks = doc.get("hooks")
    if (
        not settings
        and "version" in doc
        and (doc["version"] != 1 or isinstance(doc["version"], bool))
    ):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'version' must be 1, got {describe(doc['version'])}; file skipped",
            location="version",
        )
        return built
    if hooks is None:
        return built
    if not isinstance(hooks, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'hooks' must be an object mapping events to lists, got {describe(hooks)}; skipped",
            location="hooks",
        )
        return built
    for key, entries in hooks.items():
        if not isinstance(entries, list):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{key} must be a list of hooks, got {describe(entries)}; the whole "
                + ("'hooks' field" if settings else "file")
                + " was rejected (Copilot's rule)",
                location=join("hooks", key),
            )
            return Built(flags=built.flags)
    start = len(ctx.diagnostics)
    for key, entries in hooks.items():
        found = _event(key, "hooks", ctx)
        if found is None:
            continue
        event, native = found
        for i, entry in enumerate(entries):
            at = f"{join('hooks', key)}[{i}]"
            ctx.count_group()
            group = _entry_group(entry, event, native, at, ctx)
            if group is not None:
                built.groups.append(group)
    if settings and any(d.severity is Severity.ERROR for d in ctx.diagnostics[start:]):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            "inline 'hooks' of a settings file are strict: a bad entry rejects the whole "
            "field (Copilot's rule); none of its hooks were loaded",
            location="hooks",
        )
        return Built(flags=built.flags)
    return built


def _entry_group(
    entry: object, event: Any, native: NativeEvent | None, at: str, ctx: BuildContext
) -> MatcherGroup | None:
    if not isinstance(entry, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_HANDLER,
            f"a hook must be an object, got {describe(entry)}; dropped",
            location=at,
        )
        return None
    own = entry.get("type", "command") in ("command", "http", "prompt")
    for key in entry:
        if own and key not in _ENTRY_KEYS:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"unknown field {key!r} in a Copilot hook; ignored",
                location=at,
                severity=Severity.WARNING,
            )
    matcher = entry.get("matcher")
    if matcher is not None and not isinstance(matcher, str):
        ctx.report(
            DiagnosticCode.INVALID_MATCHER,
            f"'matcher' must be a string, got {describe(matcher)}; entry dropped",
            location=at,
        )
        return None
    handler = _handler(entry, ctx.project_dir)
    kctx = ctx.kind_context(event, at)
    if isinstance(handler, str):
        why = (
            "Copilot's prompt hooks submit their text as a user message, which a hook "
            "runner cannot do"
            if handler == "prompt"
            else f"handler type {handler!r} is not a string"
        )
        node = disabled_node(handler, entry, kctx, why=why)
    else:
        built = build_handler(handler, kctx, ctx.kinds)
        if built is None:
            return None
        node = built
    if native is None and str(event) in _ALWAYS_CAMEL:
        native = COPILOT.native.for_event(str(event)) if COPILOT.native else None
    if native is not None:
        node = bind_native(node, COPILOT, native)
    else:
        form = COPILOT_CLAUDE_FORM.native
        assert form is not None
        claude_form = form.for_event(str(event))
        if claude_form is not None:
            node = bind_native(node, COPILOT_CLAUDE_FORM, claude_form)
        else:
            node = bind_native(node, attrs.evolve(COPILOT, native=None), _plain(str(event)))
    return MatcherGroup(
        event=event,
        matcher=None if matcher in (None, "", "*", "**") else matcher,
        nodes=(node,),
        location=at,
        node_locations=(at,),
    )


_ALWAYS_CAMEL = frozenset({"PermissionRequest"})
"""Events Copilot sends in its camelCase shape even to a PascalCase entry (observed in
1.0.102: ``hookName: "permissionRequest"``, ``toolName``, ``toolInput``): such an
entry gets the payload Copilot sends."""


def _plain(event: str) -> NativeEvent:
    """A PascalCase entry of an event Copilot's Claude-compatible form answers as Claude
    does: the canonical payload and answer."""
    return NativeEvent(name=event, event=event)


def copilot_hooks_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Copilot hooks file (``.github/hooks/*.json``)."""
    return _build(data, ctx, settings=False)


def copilot_settings_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Copilot settings file: its inline ``hooks`` (strict)."""
    return _build(data, ctx, settings=True)


_settings_probe = json_declares("hooks", "disableAllHooks")


_HOOKS = HookFile(
    format="copilot-hooks", dialect=COPILOT, builder=copilot_hooks_builder, probe=json_has_hooks
)
_SETTINGS = HookFile(
    format="copilot-settings",
    dialect=COPILOT,
    builder=copilot_settings_builder,
    probe=_settings_probe,
)


def load_copilot(
    path: str | os.PathLike[str],
    *,
    scope: str | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    precedence: int | None = None,
    trust: TrustArg = None,
    kinds: Any = None,
    data: bytes | None = None,
    home: str | os.PathLike[str] | None = None,
    settings: bool | None = None,
) -> LoadedConfig:
    """One Copilot hooks file, or a settings file's inline ``hooks`` (``settings``,
    default: the file is named ``settings*.json``). A file inside a project is that
    project's and needs its trust; its own ``disableAllHooks: true`` switches it off."""
    label = os.fspath(path)
    if settings is None:
        settings = os.path.basename(label).startswith("settings")
    file = _SETTINGS if settings else _HOOKS
    config, built = file.load(label, scope, project_dir, precedence, trust, kinds, data, home)
    if built is not None and built.flags.get("disableAllHooks") is True and not settings:
        config = disable_config(config, "disableAllHooks is true", DiagnosticCode.HOOKS_DISABLED)
    return config


POLICY_DIR = "/etc/github-copilot/policy.d"
"""Where Copilot CLI reads machine-wide policy hook files (``*.json``, alphabetical)."""
POLICY_OWNER = 0
"""The uid that must own a policy file: root."""


def _policy_problem(path: Path, owner: int) -> str | None:
    """Why Copilot would not read a policy file (it must belong to root, ``owner``, and
    be writable by no one else), or None. A link is judged by what it points to."""
    try:
        st = path.stat()
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if st.st_uid != owner:
        return "is not owned by root" if owner == 0 else f"is not owned by uid {owner}"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "is writable by its group or by others"
    return None


def _refuse_policy(config: LoadedConfig, problem: str) -> LoadedConfig:
    """The policy file not loaded (status ``untrusted``, its hooks kept for inspection)
    with an ``untrusted`` warning: a file anyone but root can change is no policy."""
    sources, files, skipped = [], [], list(config.skipped)
    for sg, file in zip(config.sources, config.files, strict=True):
        diag = Diagnostic(
            code=DiagnosticCode.UNTRUSTED,
            message=f"policy hook file {problem}; refused (Copilot reads policy files only "
            "when root owns them and no one else can write them)",
            severity=Severity.WARNING,
            source=sg.source.label,
        )
        sources.append(attrs.evolve(sg, groups=(), diagnostics=(*sg.diagnostics, diag)))
        if sg.groups:
            skipped.append(attrs.evolve(sg, diagnostics=()))
        files.append(attrs.evolve(file, status="untrusted", handlers=0))
    return attrs.evolve(config, sources=tuple(sources), files=tuple(files), skipped=tuple(skipped))


def _load_policy(
    path: Path, precedence: int, owner: int | OwnerRule | None, trust: TrustPolicy, kinds: Any
) -> LoadedConfig:
    """One policy file: managed (no folder trust asked), its own ``disableAllHooks``
    ignored with a note (policy hooks ignore it wherever it is set)."""
    if isinstance(owner, OwnerRule):
        found = owner.problem(path)
        problem = f"fails the managed-file rule ({found})" if found is not None else None
    else:
        problem = _policy_problem(path, owner) if owner is not None else None
    config, built = _HOOKS.load(os.fspath(path), "managed", None, precedence, trust, kinds, None)
    if problem is not None:
        return _refuse_policy(config, problem)
    if built is not None and built.flags.get("disableAllHooks") is True:
        note = Diagnostic(
            code=DiagnosticCode.INVALID_CONFIG,
            message="'disableAllHooks' does not apply to policy hooks (as in Copilot); ignored",
            severity=Severity.INFO,
            source=os.fspath(path),
            location="disableAllHooks",
        )
        config = attrs.evolve(
            config,
            sources=tuple(
                attrs.evolve(sg, diagnostics=(*sg.diagnostics, note)) for sg in config.sources
            ),
        )
    return config


def load_copilot_dir(
    project_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
    copilot_home_dir: str | os.PathLike[str] | None = None,
    policy_dir: str | os.PathLike[str] | None = None,
    require_root_policy: bool = True,
    policy_owner: int | None = None,
    trust: TrustArg = None,
    kinds: Any = None,
) -> LoadedConfig:
    """Every Copilot CLI location (see the module docstring).

    Policy files (``policy_dir``, default :data:`POLICY_DIR`) load as managed hooks,
    alphabetically from precedence 100, whatever the folder's trust and any
    ``disableAllHooks``; one not owned by ``policy_owner`` (default :data:`POLICY_OWNER`,
    root; tests pass their own uid) or writable by its group or others is refused with an ``untrusted`` warning
    (unless ``require_root_policy`` is false). A repository settings file with
    ``disableAllHooks: true`` switches off all but policy hooks."""
    policy = TrustPolicy.coerce(trust)
    user = Path(copilot_home_dir) if copilot_home_dir is not None else copilot_home(home)
    policy_path = (
        Path(policy_dir)
        if policy_dir is not None
        else system_path(POLICY_DIR, windows="C:/ProgramData/GitHub/Copilot/policy.d")
    )
    owner: int | OwnerRule | None = None
    if require_root_policy:
        # a caller's owner is the only one; else root alone, as
        # for every managed file (OwnerRule)
        given = policy_owner if policy_owner is not None else (POLICY_OWNER or None)
        owner = given if given is not None else OwnerRule()
    managed: list[LoadedConfig] = []
    if policy_path.is_dir():
        for i, f in enumerate(sorted(policy_path.glob("*.json"))):
            managed.append(_load_policy(f, 100 + i, owner, policy, kinds))
    rest: list[LoadedConfig] = []
    switched_off = False
    if project_dir is not None:
        pdir = Path(project_dir)
        for f in sorted((pdir / ".github" / "hooks").glob("*.json")):
            rest.append(
                load_copilot(
                    f, scope="project", project_dir=pdir, trust=policy, kinds=kinds, settings=False
                )
            )
        for name, prec in (("settings.json", 200), ("settings.local.json", 210)):
            path = pdir / ".github" / "copilot" / name
            label = os.fspath(path)
            cfg, built = _SETTINGS.load_as(
                label,
                scope="project" if prec == 200 else "local",
                project_dir=pdir,
                precedence=prec,
                trust=policy,
                kinds=kinds,
            )
            if built is not None and built.flags.get("disableAllHooks") is True:
                switched_off = True
            rest.append(cfg)
    hooks_dir = user / "hooks"
    if hooks_dir.is_dir():
        for f in sorted(hooks_dir.glob("*.json")):
            rest.append(load_copilot(f, scope="user", trust=policy, kinds=kinds, settings=False))
    rest.append(
        load_copilot(user / "settings.json", scope="user", trust=policy, kinds=kinds, settings=True)
    )
    others = combine(rest)
    if switched_off:
        others = disable_config(
            others,
            "disableAllHooks is true in the repository's .github/copilot settings",
            DiagnosticCode.HOOKS_DISABLED,
        )
    result = combine([*managed, others])

    return result
