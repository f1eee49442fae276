"""Cline: executable hook files named by their event, no configuration file.

A file ``PreToolUse`` (or ``PreToolUse.sh``, ``.py``, ... the extensions Cline's SDK
strips) in a hooks directory is a command hook of that event, run as it is (Cline runs
it through the shell, so its shebang picks the interpreter). Its directories, all run
(Cline runs every hook of an event, global and workspace, and any ``cancel`` wins), are
its row's in :mod:`._harness`: the workspace's (200, which need trust), the user's (300).

Cline 3.x adds ``TaskError`` and ``SessionShutdown`` files (its SDK's ``agent_error`` and
``session_shutdown``); those get its SDK payloads, every other file the classic one.

A file is trusted by its own bytes (the script is the configuration). A file that is
not executable is reported and skipped (Cline does not run it either); files whose name
is no event of Cline's (``README.md``) are not hooks and are passed over quietly. Each
hook gets Cline's payload and answers in Cline's shape; its timeout is Cline's 30 s.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable

from .._base._diagnostics import DiagnosticCode, Severity
from .._handlers._kinds import HandlerKinds
from .._wire._dialects import CLINE
from ._common import BuildContext, Built, HookFile, parse_group
from ._native_format import bind_group, native_event_key
from ._snapshot import LoadedConfig
from ._trust import TrustArg

__all__ = ["cline_event_of", "load_cline"]


_EXTENSIONS = (".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py")
_EXTENSIONS_ALL = (*_EXTENSIONS, ".ps1")


def cline_event_of(name: str) -> str | None:
    """The Cline event a hook file's name stands for (case-insensitive, an extension
    Cline strips removed), or ``None`` when it is no hook file (or one for the other
    platform: ``.ps1`` files are Windows's, the others POSIX's). A file of a classic
    event (``PreToolUse``) is that event, whose payload it gets; ``TaskError`` and
    ``SessionShutdown``, which only Cline 3.x runs, are its SDK events (``agent_error``,
    ``session_shutdown``); the SDK's payload names (``tool_call``) are no file names."""
    wire = CLINE.native
    assert wire is not None
    if name.lower().endswith(".ps1") != (os.name == "nt"):
        return None  # (a file for the other platform: Cline ignores it)
    stem = name
    for ext in _EXTENSIONS_ALL:
        if name.lower().endswith(ext):
            stem = name[: -len(ext)]
            break
    for e in wire.events:  # the classic events, then Cline 3.x's own files (TaskError)
        if e.form_of is None and e.name.lower() == stem.lower():
            return e.name
    for e in wire.events:
        if e.form_of is not None and e.form_of.lower() == stem.lower():
            return e.name
    return None


def _builder(path: str, event_name: str) -> Callable[[bytes, BuildContext], Built]:
    def build(data: bytes, ctx: BuildContext) -> Built:
        built = Built()
        found = native_event_key(event_name, "", ctx)
        if found is None:  # pragma: no cover - cline_event_of chose a known name
            return built
        event, native = found
        if not os.access(path, os.X_OK):
            ctx.report(
                DiagnosticCode.INVALID_CONFIG,
                f"{os.path.basename(path)} is not executable; Cline does not run it, nor does "
                "agent_hooks (chmod +x it)",
                severity=Severity.WARNING,
            )
            return built
        group = {"hooks": [{"type": "command", "command": shlex.quote(os.path.abspath(path))}]}
        parsed = parse_group(group, event, event_name, ctx)
        if parsed is not None:
            built.groups.append(bind_group(parsed, CLINE, native))
        return built

    return build


def load_cline(
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
    """One Cline hook file. A file in a workspace needs that workspace's trust.

    A file whose name is no Cline event loads nothing, with a warning that names the
    events."""
    label = os.fspath(path)
    name = cline_event_of(os.path.basename(label)) or os.path.basename(label)
    file = HookFile(format="cline", dialect=CLINE, builder=_builder(label, name))
    config, _ = file.load(label, scope, project_dir, precedence, trust, kinds, data, home)
    return config
