"""The Claude Code hook file format: ``{"hooks": {Event: [{"matcher", "hooks": [...]}]}}``,
in a settings file or a plugin's ``hooks/hooks.json``.

The same shape is read for Codex's ``hooks.json`` and hel's ``.hel/hooks.json``
(see their modules).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from ._common import (
    BuildContext,
    Built,
    ParseFailed,
    decision_log_setting,
    decode_json,
    describe,
    json_declares,
    parse_hooks_mapping,
    shadow_mode,
)

__all__ = ["build_hooks_document", "hooks_file_builder", "settings_builder", "settings_probe"]

_HOOKS_FILE_KEYS = frozenset({"hooks", "description", "$schema", "mode", "decision_log"})


def build_hooks_document(
    doc: Any,
    ctx: BuildContext,
    *,
    settings: bool,
    allowed_keys: frozenset[str] = _HOOKS_FILE_KEYS,
) -> Built:
    """Groups from a parsed Claude-shaped document (settings or a hooks file)."""
    built = Built()
    if not isinstance(doc, Mapping):
        ctx.report(
            DiagnosticCode.INVALID_CONFIG,
            f"the top level must be an object with 'hooks', got {describe(doc)}; file skipped",
        )
        return built
    if settings:
        for key in ("disableAllHooks", "allowManagedHooksOnly"):
            value = doc.get(key)
            if value is None:
                continue
            if isinstance(value, bool):
                built.flags[key] = value
            else:
                ctx.report(
                    DiagnosticCode.INVALID_CONFIG,
                    f"{key!r} must be true or false, got {describe(value)}; ignored",
                    location=key,
                )
    else:
        for key in doc:
            if key not in allowed_keys:
                ctx.report(
                    DiagnosticCode.INVALID_CONFIG,
                    f"unknown top-level field {key!r}; ignored",
                    location=str(key),
                    severity=Severity.WARNING,
                )
    hooks = doc.get("hooks")
    if hooks is not None:
        built.groups = parse_hooks_mapping(hooks, "hooks", ctx)
    log = decision_log_setting(doc.get("decision_log"), "decision_log", ctx)
    if log is not None:
        built.flags["decision_log"] = log
    if shadow_mode(doc.get("mode"), "mode", ctx):
        # agent_hooks's own key: "mode": "shadow" for every group of the file (what
        # agent_hooks dispatches; a harness that reads the file itself ignores it)
        built.groups = [attrs.evolve(g, shadow=True) for g in built.groups]
    return built


settings_probe = json_declares("hooks", "disableAllHooks", "allowManagedHooksOnly")
"""Whether a settings file says anything about hooks (else it needs no trust)."""


def settings_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of Claude Code settings files (other settings keys are not ours to judge)."""
    doc = decode_json(data, ctx)
    if doc is ParseFailed:
        return Built()
    return build_hooks_document(doc, ctx, settings=True)


def hooks_file_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of stand-alone hooks files (plugin ``hooks/hooks.json``, Codex, hel)."""
    doc = decode_json(data, ctx)
    if doc is ParseFailed:
        return Built()
    return build_hooks_document(doc, ctx, settings=False)


def load_hooks_file(
    path: str,
    *,
    scope: str | None,
    project_dir: str | None,
    precedence: int | None,
    trust: Any,
    kinds: Any,
    data: bytes | None,
) -> Any:
    """A stand-alone Claude-shaped hooks file (``claude-hooks``): a project's when it lies
    inside ``project_dir``, else named by the caller (``explicit``)."""
    from .._wire._dialects import CLAUDE
    from ._common import HookFile, is_inside, json_has_hooks

    sc = scope or (
        "project" if project_dir is not None and is_inside(path, project_dir) else "explicit"
    )
    file = HookFile(
        format="claude-hooks", dialect=CLAUDE, builder=hooks_file_builder, probe=json_has_hooks
    )
    return file.load_as(
        path,
        scope=sc,
        project_dir=project_dir,
        precedence=precedence,
        trust=trust,
        kinds=kinds,
        data=data,
    )[0]
