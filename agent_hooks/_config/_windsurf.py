"""Windsurf (Cascade hooks): ``hooks.json`` files of ``{"hooks": {event: [{command,
show_output, working_directory}]}}``, with snake_case events (``pre_run_command`` ...;
see :mod:`agent_hooks._wire._windsurf`), no matcher, no timeout and no JSON answer.

Its layers, all merged and run in Windsurf's order (system 100, user 150, workspace
200, which needs trust), are its row's in :mod:`._harness`; its cloud dashboard hooks
are not files and are not read.

An entry is a command hook of its event: ``command`` runs in a shell,
``working_directory`` (relative to the workspace root) is its directory, and
``show_output`` (the Cascade UI's concern) is accepted and ignored. Windsurf documents no
timeout: agent_hooks gives each hook 60 s. An unknown event is a warning and its hooks
are skipped; a bad entry is dropped alone. Windsurf has no trust gate for workspace
hooks; agent_hooks keeps its own (a workspace file loads only when trusted).
"""

from __future__ import annotations

from collections.abc import Mapping

from .._base._diagnostics import DiagnosticCode, Severity
from .._wire._dialects import WINDSURF
from ._common import (
    BuildContext,
    Built,
    HookFile,
    decode_object,
    describe,
    json_has_hooks,
    parse_group,
)
from ._native_format import bind_group, flat_hook_entries

__all__ = ["FILE", "windsurf_builder"]


_ENTRY_KEYS = frozenset({"command", "show_output", "working_directory"})


def _handler(entry: Mapping[str, object], where: str, ctx: BuildContext) -> dict[str, object]:
    out: dict[str, object] = {"type": "command"}
    for key, value in entry.items():
        if key == "command":
            out["command"] = value
        elif key == "working_directory":
            out["working_dir"] = value
        elif key == "show_output":
            if not isinstance(value, bool):
                ctx.report(
                    DiagnosticCode.INVALID_CONFIG,
                    f"'show_output' must be true or false, got {describe(value)}; ignored",
                    location=where,
                    severity=Severity.WARNING,
                )
        else:
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"unknown field {key!r} in a Windsurf hook (it knows "
                f"{', '.join(sorted(_ENTRY_KEYS))}); ignored",
                location=where,
                severity=Severity.WARNING,
            )
    return out


def windsurf_builder(data: bytes, ctx: BuildContext) -> Built:
    """Builder of a Windsurf ``hooks.json``."""
    built = Built()
    doc = decode_object(data, ctx, "an object with 'hooks'")
    if doc is None:
        return built
    for key in doc:
        if key != "hooks":
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"unknown top-level field {key!r}; ignored",
                location=str(key),
                severity=Severity.WARNING,
            )
    hooks = doc.get("hooks")
    for event, native, at, entry in flat_hook_entries(hooks, ctx):
        # Windsurf has no matcher: the event alone selects (its tool, or any MCP tool)
        matcher = native.tool or ("mcp__.*" if native.mcp_keys is not None else None)
        group = {"matcher": matcher, "hooks": [_handler(entry, at, ctx)]}
        parsed = parse_group(group, event, at, ctx)
        if parsed is None:
            continue
        built.groups.append(bind_group(parsed, WINDSURF, native))
    return built


FILE = HookFile(
    format="windsurf", dialect=WINDSURF, builder=windsurf_builder, probe=json_has_hooks
)
