"""The Claude-compatible harnesses: Factory Droid, Qwen Code, Augment/Auggie, Goose,
OpenHands, Trae and Qoder. Each keeps Claude Code's file shape (``{"hooks": {Event:
[{matcher, hooks: [...]}]}}``) in its own places, with small differences; each is a
:class:`Family` row (its file-shape differences), read by one builder.

Where each one's files lie is its row's (:data:`~._harness.HARNESSES`).

All layers add up (every harness here merges them). Schema differences:

* Qwen's and Augment's files are JSON with ``//`` and ``/* */`` comments, as those
  harnesses read them; the others' are plain JSON;
* timeouts in the harness's unit (Qwen, Augment: milliseconds; Qwen's ``http`` and
  ``prompt`` hooks: seconds), read as seconds;
* ``sequential`` (Qwen), ``metadata`` (Augment), ``loop_limit`` (Trae) on a group and
  ``description`` on a handler are accepted: agent_hooks runs a group's hooks in
  parallel and reduces in configuration order, Augment's metadata opt-ins only add
  payload fields agent_hooks does not produce, and Trae's loop limit has no counter in
  its payload to enforce it by (a diagnostic of severity info says so);
* Goose's ``on_failure: block`` is ``on_error: block`` (a hook that fails blocks) on
  PreToolUse only (elsewhere, Stop included, it is ignored with a note, as Goose
  ignores it), ``allow`` is ``on_error: warn``; any other value makes Goose skip the
  whole ``hooks.json``, and so does this (an ``invalid_config`` error: a guard that
  does not run is worth an error); ``${PLUGIN_ROOT}`` is the plugin's directory; a
  plugin named in ``disabledPlugins`` of ``~/.config/goose/settings.json`` or
  ``<project>/.config/goose/settings.json`` is switched off (``hooks_disabled``);
* Augment runs only ``.sh`` files: another command is loaded and run all the same,
  with a warning (``augment_not_sh``-style text, code ``invalid_config``);
* a file the row's ``file_kinds`` calls ``bare`` is the hooks object itself (no
  ``hooks`` key around it); one it calls ``settings`` holds other settings beside it;
* ``disableAllHooks: true`` in a settings file (Qwen, Factory, Qoder) switches that
  file's hooks off.

An unknown event is a warning and its hooks are skipped; a bad group or handler is
dropped alone.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from .._events._untyped import AnyEvent
from .._handlers._kinds import HandlerKinds
from .._wire._native import NativeEvent
from ._common import (
    BuildContext,
    Built,
    HookFile,
    decode_object,
    describe,
    disable_config,
    json_declares,
    parse_event_key,
    parse_group,
)
from ._harness import HARNESSES, Family
from ._native_format import bind_group, event_lists, native_event_key, scaled_timeout
from ._snapshot import LoadedConfig
from ._trust import TrustArg

__all__ = ["FAMILIES", "Family", "load_family"]


Kind = Literal["settings", "hooks", "bare"]


FAMILIES: Mapping[str, Family] = {
    h.name: h.family for h in HARNESSES.values() if h.family is not None
}
"""Every Claude-compatible harness's file-shape differences, by name (from its row)."""

_INFO_GROUP_KEYS = {
    "sequential": "'sequential': agent_hooks runs these hooks in parallel and reduces "
    "their answers in configuration order",
    "metadata": "'metadata': Augment's opt-in payload sections are not produced by "
    "agent_hooks; the hooks get the payload without them",
    "loop_limit": "'loop_limit': Trae's payload carries no continuation count, so "
    "agent_hooks cannot enforce it (Trae itself does)",
}
_ON_FAILURE = {"block": "block", "allow": "warn"}


def _bad_on_failure(hooks: object, ctx: BuildContext) -> bool:
    """Whether a handler of the file has an ``on_failure`` other than allow or block
    (reported: Goose skips the whole file then)."""
    for key, groups in hooks.items() if isinstance(hooks, Mapping) else ():
        for gi, group in enumerate(groups if isinstance(groups, list) else ()):
            handlers = group.get("hooks") if isinstance(group, Mapping) else None
            for hi, entry in enumerate(handlers if isinstance(handlers, list) else ()):
                value = entry.get("on_failure") if isinstance(entry, Mapping) else None
                if value is not None and not (isinstance(value, str) and value in _ON_FAILURE):
                    ctx.report(
                        DiagnosticCode.INVALID_CONFIG,
                        "'on_failure' must be allow or block, got "
                        f"{repr(value) if isinstance(value, str) else describe(value)}; the "
                        "harness skips this whole hooks file, and so was it",
                        location=f"hooks.{key}[{gi}].hooks[{hi}]",
                    )
                    return True
    return False


def _handler(
    entry: object, fam: Family, event: AnyEvent, where: str, ctx: BuildContext
) -> object:
    if not isinstance(entry, Mapping):
        return entry
    # (Qwen's http and prompt hooks count their timeout in seconds, its commands in ms)
    unit = fam.dialect.timeout_unit if entry.get("type", "command") == "command" else 1.0
    out = scaled_timeout(entry, "timeout", unit)
    out.pop("description", None)
    failure = out.pop("on_failure", None)
    if failure == "block" and fam.on_failure_on is not None and event not in fam.on_failure_on:
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"'on_failure: block' applies to {', '.join(sorted(fam.on_failure_on))} only in "
            f"{fam.name}; on {event} a failure of this hook does not block",
            location=where,
            severity=Severity.INFO,
        )
    elif isinstance(failure, str) and failure in _ON_FAILURE:
        out["on_error"] = _ON_FAILURE[failure]
    command = out.get("command")
    if fam.sh_only and isinstance(command, str):
        program = command.strip().split(" ", 1)[0].strip("\"'")
        if not program.endswith(".sh"):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{fam.name} runs only .sh files; {program!r} is run all the same by "
                "agent_hooks, but the harness itself would not run it",
                location=where,
                severity=Severity.WARNING,
            )
    return out


def _canonical_event(
    key: object, prefix: str, ctx: BuildContext
) -> tuple[AnyEvent, NativeEvent | None] | None:
    """A key of a family whose payloads are Claude Code's: its canonical event name."""
    event = parse_event_key(key, prefix, ctx, snake=False)
    return None if event is None else (event, None)


def family_builder(fam: Family, kind: Kind) -> Any:
    """The builder of one family's files of ``kind`` (``settings``: other keys are the
    harness's settings; ``hooks``: a stand-alone hooks file; ``bare``: the whole object
    is the hooks object, without the ``hooks`` key)."""

    def build(data: bytes, ctx: BuildContext) -> Built:
        built = Built()
        expected = "an object of events" if kind == "bare" else "an object with 'hooks'"
        doc = decode_object(data, ctx, expected, comments=fam.comments)
        if doc is None:
            return built
        if kind == "settings":
            value = doc.get("disableAllHooks")
            if isinstance(value, bool):
                built.flags["disableAllHooks"] = value
        elif kind == "hooks":
            for key in doc:
                if key not in fam.top_keys:
                    ctx.report(
                        DiagnosticCode.INVALID_CONFIG,
                        f"unknown top-level field {key!r}; ignored",
                        location=str(key),
                        severity=Severity.WARNING,
                    )
        if _bad_on_failure(doc.get("hooks"), ctx):
            return built
        lists = event_lists(
            doc if kind == "bare" else doc.get("hooks"),
            ctx,
            mapping="event names to matcher groups",
            items="matcher groups",
            event_of=native_event_key if fam.dialect.native is not None else _canonical_event,
        )
        for event, native, where, value in lists:
            for gi, group in enumerate(value):
                gwhere = f"{where}[{gi}]"
                if isinstance(group, Mapping) and isinstance(group.get("hooks"), list):
                    group = {
                        **group,
                        "hooks": [
                            _handler(h, fam, event, f"{gwhere}.hooks[{hi}]", ctx)
                            for hi, h in enumerate(group["hooks"])
                        ],
                    }
                parsed = parse_group(group, event, gwhere, ctx, extra_keys=fam.group_keys)
                if parsed is None:
                    continue
                for extra in fam.group_keys:
                    if isinstance(group, Mapping) and extra in group:
                        ctx.report(
                            DiagnosticCode.INVALID_CONFIG,
                            _INFO_GROUP_KEYS[extra],
                            location=gwhere,
                            severity=Severity.INFO,
                        )
                if parsed.matcher in ("", "*"):
                    parsed = attrs.evolve(parsed, matcher=None)
                if native is not None:
                    parsed = bind_group(parsed, fam.dialect, native)
                built.groups.append(parsed)
        return built

    return build


_probe = json_declares("hooks", "disableAllHooks")
_KINDS: Mapping[str, Kind] = {"settings": "settings", "hooks": "hooks", "bare": "bare"}


def _kind_of(fam: Family, path: str) -> Kind:
    name = os.path.basename(path)
    named = _KINDS.get(fam.file_kinds.get(name, ""))
    if named is not None:
        return named
    return "settings" if name.startswith("settings") else "hooks"


def load_family(
    path: str | os.PathLike[str],
    *,
    family: str,
    scope: str | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    precedence: int | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    data: bytes | None = None,
    home: str | os.PathLike[str] | None = None,
) -> LoadedConfig:
    """One file of the Claude-compatible harness ``family`` (see the module docstring).
    A file inside a project is that project's and needs its trust.

    Raises:
        KeyError: ``family`` is not one of :data:`FAMILIES`.
    """
    fam = FAMILIES[family]
    label = os.fspath(path)
    kind = _kind_of(fam, label)
    env: dict[str, str] = {}
    parts = Path(label).parts
    if fam.plugin_root and len(parts) >= 3 and parts[-2] == "hooks":
        env["PLUGIN_ROOT"] = str(Path(os.path.abspath(label)).parent.parent)
    file = HookFile(
        format=family,
        dialect=fam.dialect,
        builder=family_builder(fam, kind),
        probe=None if kind == "bare" else _probe,
    )
    config, built = file.load(
        label, scope, project_dir, precedence, trust, kinds, data, home, env=env
    )
    if built is not None and built.flags.get("disableAllHooks") is True:
        config = disable_config(
            config, "disableAllHooks is true in this file", DiagnosticCode.HOOKS_DISABLED
        )
    if fam.plugin_switches and len(parts) >= 3 and parts[-2] == "hooks":
        plugin = parts[-3]
        switch = _disabled_by(fam.plugin_switches, plugin, home, project_dir)
        if switch is not None:
            config = disable_config(
                config,
                f"plugin {plugin!r} is listed in disabledPlugins of {switch}",
                DiagnosticCode.HOOKS_DISABLED,
            )
    return config


def _disabled_by(
    rel: str,
    plugin: str,
    home: str | os.PathLike[str] | None,
    project_dir: str | os.PathLike[str] | None,
) -> str | None:
    """The settings file (``rel`` under the project, then under home) whose
    ``disabledPlugins`` lists ``plugin``, or None. A settings file that cannot be read or
    holds no list of names switches nothing off."""
    roots = [project_dir, home if home is not None else Path.home()]
    for root in roots:
        if root is None:
            continue
        path = Path(root) / rel
        try:
            doc = json.loads(path.read_text(encoding="utf-8-sig"))
        except (OSError, ValueError):
            continue
        names = doc.get("disabledPlugins") if isinstance(doc, Mapping) else None
        if isinstance(names, list) and plugin in names:
            return os.fspath(path)
    return None
