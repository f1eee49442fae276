"""``agent-hooks install`` and ``agent-hooks uninstall``: make a harness call
``agent-hooks run`` for the events the configured graph handles.

``install --harness NAME [--scope project|user] [--dry-run]`` loads the hooks that
``--config`` (and ``--discover``) name, as ``run`` would, and writes into the harness's
own hook file one entry per event the graph handles and the harness has:
``<program> run --dialect NAME [--event E] --config PATH...``. Entries already there are
kept as they are, in their order; an entry identical to one install would write is not
written twice. ``uninstall`` removes exactly the entries install writes (those whose
command starts with ``<program> run --dialect NAME``), and nothing else; an object or a
file it leaves empty is removed. ``--dry-run`` prints the file as it would be written.

=================  ============================================  ===========================
harness            project file                                  user file
=================  ============================================  ===========================
``claude``         ``.claude/settings.json``                     ``~/.claude/settings.json``
``codex``          ``.codex/hooks.json``                         ``$CODEX_HOME/hooks.json``
``gemini``         ``.gemini/settings.json``                     ``~/.gemini/settings.json``
``cursor``         ``.cursor/hooks.json``                        ``~/.cursor/hooks.json``
``copilot``        ``.github/hooks/agent-hooks.json``            ``$COPILOT_HOME/hooks/agent-hooks.json``
``factory``        ``.factory/settings.json``                    ``~/.factory/settings.json``
``qwen``           ``.qwen/settings.json``                       ``~/.qwen/settings.json``
``openhands``      ``.openhands/hooks.json``                     ``~/.openhands/hooks.json``
``trae``           ``.trae/hooks.json``                          ``~/.trae/hooks.json``
``qoder``          ``.qoder/settings.json``                      ``~/.qoder/settings.json``
``windsurf``       ``.windsurf/hooks.json``                      ``~/.codeium/windsurf/hooks.json``
``cline``          ``.clinerules/hooks/<Event>`` (a script)      ``~/Documents/Cline/Hooks/<Event>``
=================  ============================================  ===========================

Augment is not installable (it runs only ``.sh`` files, and the entry is a command line);
nor is Goose (its hooks live only in plugins, which need a manifest of their own).

Windsurf's entries have no timeout (it documents none). The entry's timeout is the longest timeout of the event's handlers plus 5 seconds, in
the harness's unit. A harness file that is one of the ``--config`` files is refused (the
harness would call agent-hooks, which would run that file's entry again, forever).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from ._run import add_load_options, load_hooks, quiet_diagnostics_log

__all__ = [
    "HARNESSES",
    "Harness",
    "install_entries",
    "install_files",
    "register",
    "uninstall_entries",
    "uninstall_files",
]

_CLAUDE_EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "PermissionRequest",
    "PermissionDenied",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
    "Setup",
    "Notification",
    "PreCompact",
    "PostCompact",
    "ConfigChange",
    "DirectoryAdded",
    "FileChanged",
    "CwdChanged",
    "InstructionsLoaded",
    "Elicitation",
    "ElicitationResult",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "WorktreeCreate",
    "WorktreeRemove",
    "MessageDisplay",
    "PreModelSwitch",
    "PostModelSwitch",
    "PreSkillShellCommand",
)
_CODEX_EVENTS = (
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "SessionStart",
    "UserPromptSubmit",
    "Stop",
    "SessionEnd",
    "PreCompact",
    "PostCompact",
    "SubagentStart",
    "SubagentStop",
    "Interrupt",
)

_OPENHANDS_EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "Stop",
    "SessionStart",
    "SessionEnd",
)
_TRAE_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "Notification",
)
_QODER_EVENTS = (
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionDenied",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
)


def _grouped(command: str, timeout: float, unit: float) -> dict[str, Any]:
    """Claude Code's shape (also Codex and Gemini CLI): a group without a matcher."""
    return {"hooks": [{"type": "command", "command": command, "timeout": _in(timeout, unit)}]}


def _in(seconds: float, unit: float) -> int:
    return max(1, round(seconds / unit))


def _cursor_entry(command: str, timeout: float, unit: float) -> dict[str, Any]:
    return {"command": command, "timeout": _in(timeout, unit)}


def _copilot_entry(command: str, timeout: float, unit: float) -> dict[str, Any]:
    return {"type": "command", "bash": command, "timeoutSec": _in(timeout, unit)}


def _grouped_command(entry: Any) -> list[str]:
    hooks = entry.get("hooks") if isinstance(entry, Mapping) else None
    if not isinstance(hooks, list):
        return []
    return [
        h["command"] for h in hooks if isinstance(h, Mapping) and isinstance(h.get("command"), str)
    ]


def _flat_command(key: str) -> Callable[[Any], list[str]]:
    def read(entry: Any) -> list[str]:
        value = entry.get(key) if isinstance(entry, Mapping) else None
        return [value] if isinstance(value, str) else []

    return read


def _bare_entry(command: str, _timeout: float, _unit: float) -> dict[str, Any]:
    """An entry of the command alone (Windsurf documents no timeout; Cline's is a script)."""
    return {"command": command}


def _at_home(relative: str) -> Callable[[Path], Path]:
    return lambda home: home / relative


@attrs.frozen(kw_only=True)
class Harness:
    """Where a harness keeps its hooks and how an entry that calls agent-hooks is written.
    The defaults are Claude Code's shape; a row states only what differs."""

    name: str
    """The dialect name (``--dialect``)."""
    project_file: str
    """Relative to the project root."""
    user_file: Callable[[Path], Path] = attrs.field()
    """From the home directory (environment overrides such as ``$CODEX_HOME`` applied);
    default: ``project_file`` under the home directory."""
    events: Callable[[str], list[str]]
    """Canonical event -> the harness's events that deliver it (empty: it has none)."""
    entry: Callable[[str, float, float], dict[str, Any]] = _grouped
    """(command, timeout in seconds, seconds per unit) -> the entry."""
    commands: Callable[[Any], list[str]] = _grouped_command
    """An entry -> the commands it runs (to recognise ours)."""
    head: Mapping[str, Any] = attrs.field(factory=dict)
    """Keys a new file starts with (``version: 1``)."""
    names_event: bool = False
    """The payload does not name its event: the command passes ``--event``."""
    fail_closed_key: str | None = None
    """The entry's own switch that makes the harness block when the command fails
    (Cursor's ``failClosed``), set by ``install --fail-closed``."""
    per_event_files: bool = False
    """The harness's hooks are executable files named by their event in a directory (Cline):
    ``project_file`` and ``user_file`` are that directory, and install writes one small
    shell script per event (an existing file it did not write is left alone)."""

    @user_file.default
    def _project_file_at_home(self) -> Callable[[Path], Path]:
        return _at_home(self.project_file)


def _native_events(dialect_name: str) -> Callable[[str], list[str]]:
    def events(event: str) -> list[str]:
        from ..._wire._dialects import get_dialect

        native = get_dialect(dialect_name).native
        assert native is not None
        found = native.for_event(event)
        return [found.name] if found is not None else []

    return events


def _every_native_event(dialect_name: str) -> Callable[[str], list[str]]:
    """Every native event of a canonical one (Windsurf: ``pre_run_command``,
    ``pre_read_code`` ... are all PreToolUse)."""

    def events(event: str) -> list[str]:
        from ..._wire._dialects import get_dialect

        native = get_dialect(dialect_name).native
        assert native is not None
        return [e.name for e in native.events if e.event == event]

    return events


def _listed(names: tuple[str, ...]) -> Callable[[str], list[str]]:
    return lambda event: [event] if event in names else []


def _env_home(var: str, default: str, leaf: str) -> Callable[[Path], Path]:
    def path(home: Path) -> Path:
        env = os.environ.get(var)
        return (Path(env) if env else home / default) / leaf

    return path


HARNESSES: Mapping[str, Harness] = {
    h.name: h
    for h in (
        Harness(
            name="claude", project_file=".claude/settings.json", events=_listed(_CLAUDE_EVENTS)
        ),
        Harness(
            name="codex",
            project_file=".codex/hooks.json",
            user_file=_env_home("CODEX_HOME", ".codex", "hooks.json"),
            events=_listed(_CODEX_EVENTS),
        ),
        Harness(
            name="gemini", project_file=".gemini/settings.json", events=_native_events("gemini")
        ),
        Harness(
            name="cursor",
            project_file=".cursor/hooks.json",
            events=_native_events("cursor"),
            entry=_cursor_entry,
            commands=_flat_command("command"),
            head={"version": 1},
            fail_closed_key="failClosed",
        ),
        Harness(
            name="copilot",
            project_file=".github/hooks/agent-hooks.json",
            user_file=_env_home("COPILOT_HOME", ".copilot", "hooks/agent-hooks.json"),
            events=_native_events("copilot"),
            entry=_copilot_entry,
            commands=_flat_command("bash"),
            head={"version": 1},
            names_event=True,
        ),
        Harness(
            name="factory",
            project_file=".factory/settings.json",
            user_file=_env_home("FACTORY_HOME_OVERRIDE", ".factory", "settings.json"),
            events=_native_events("factory"),
        ),
        Harness(name="qwen", project_file=".qwen/settings.json", events=_native_events("qwen")),
        Harness(
            name="openhands",
            project_file=".openhands/hooks.json",
            events=_listed(_OPENHANDS_EVENTS),
        ),
        Harness(
            name="trae",
            project_file=".trae/hooks.json",
            events=_listed(_TRAE_EVENTS),
            head={"version": 1},
        ),
        Harness(
            name="cline",
            project_file=".clinerules/hooks",
            user_file=_at_home("Documents/Cline/Hooks"),
            events=_native_events("cline"),
            entry=_bare_entry,
            commands=_flat_command("command"),
            per_event_files=True,
        ),
        Harness(
            name="windsurf",
            project_file=".windsurf/hooks.json",
            user_file=_at_home(".codeium/windsurf/hooks.json"),
            events=_every_native_event("windsurf"),
            entry=_bare_entry,
            commands=_flat_command("command"),
        ),
        Harness(name="qoder", project_file=".qoder/settings.json", events=_listed(_QODER_EVENTS)),
    )
}
"""Every harness ``install`` knows, by name."""

_ALIASES = {
    "claude-code": "claude",
    "gemini-cli": "gemini",
    "github-copilot": "copilot",
    "factory-droid": "factory",
    "droid": "factory",
    "qwen-code": "qwen",
}


def register(subparsers: Any) -> None:
    """Add ``install`` and ``uninstall`` to the top-level parser."""
    for name, helptext in (
        ("install", "make a harness call agent-hooks run for the events your hooks handle"),
        ("uninstall", "remove the entries agent-hooks install wrote, and nothing else"),
    ):
        p = subparsers.add_parser(name, help=helptext, description=helptext + ".")
        p.add_argument(
            "--harness",
            required=True,
            metavar="NAME",
            help="claude, codex, gemini, cursor, copilot, factory, qwen, openhands, trae, qoder, "
            "windsurf or cline",
        )
        p.add_argument(
            "--scope",
            choices=("project", "user"),
            default="project",
            help="the harness's project file (default) or its user file",
        )
        p.add_argument(
            "--dry-run", action="store_true", help="print the file as it would be; write nothing"
        )
        p.add_argument(
            "--program",
            default="agent-hooks",
            metavar="CMD",
            help="how the harness should call agent-hooks (default: agent-hooks)",
        )
        if name == "install":
            add_load_options(p, project_default=".")
            p.add_argument(
                "--fail-closed",
                action="store_true",
                help="the installed command runs with --fail-closed (and Cursor's entries get "
                "failClosed: true, so that a missing agent-hooks blocks too)",
            )
        else:
            p.add_argument("--project-dir", metavar="DIR", help="the project root (default: .)")
            p.add_argument("--home", metavar="DIR", help="the home directory (default: ~)")
        p.set_defaults(func=_install if name == "install" else _uninstall)


_NOT_INSTALLABLE = {
    "augment": "Augment runs only .sh files named in its settings; write a .sh script that "
    "runs `agent-hooks run --dialect augment --config ...` and name it in "
    ".augment/settings.json",
    "goose": "Goose reads hooks only from plugins, whose manifest agent-hooks does not write; "
    "put a hooks/hooks.json whose commands run `agent-hooks run --dialect goose --config ...` "
    "in a plugin of yours",
    "kiro": "Kiro CLI keeps hooks in the configuration of each agent; add entries running "
    "`agent-hooks run --dialect kiro --config ...` to the agent's hooks",
}
"""Harnesses agent-hooks loads but does not install into, and what to do instead."""


def _harness(name: str) -> Harness:
    """Raises: ValueError for a name no harness has, or one install cannot write for."""
    why = _NOT_INSTALLABLE.get(name)
    if why is not None:
        raise ValueError(f"install does not write {name}'s hooks: {why}")
    found = HARNESSES.get(_ALIASES.get(name, name))
    if found is None:
        raise ValueError(f"unknown harness {name!r}; known: {', '.join(HARNESSES)}")
    return found


def _target(harness: Harness, args: argparse.Namespace) -> Path:
    if args.scope == "user":
        home = Path(args.home) if args.home else Path.home()
        return harness.user_file(home)
    return Path(os.path.abspath(args.project_dir or ".")) / harness.project_file


def _prefix(harness: Harness, program: str) -> str:
    return f"{program} run --dialect {harness.name}"


def install_entries(
    doc: Mapping[str, Any], harness: Harness, wanted: Mapping[str, tuple[str, float]], unit: float
) -> tuple[dict[str, Any], int]:
    """``doc`` with an entry per native event of ``wanted`` (event -> (command, timeout in
    seconds)) appended to its ``hooks`` list, unless the same command is there already;
    everything else as it was. Returns the new document and how many entries were added."""
    out = dict(doc) if doc else dict(harness.head)
    hooks = dict(out.get("hooks") or {})
    added = 0
    for native, (command, timeout) in wanted.items():
        entries = list(hooks.get(native) or [])
        if any(command in harness.commands(e) for e in entries):
            continue
        entries.append(harness.entry(command, timeout, unit))
        hooks[native] = entries
        added += 1
    out["hooks"] = hooks
    return out, added


def uninstall_entries(
    doc: Mapping[str, Any], harness: Harness, program: str
) -> tuple[dict[str, Any], int]:
    """``doc`` without the entries ``install`` writes for ``harness``; event lists and a
    ``hooks`` object left empty are removed. Returns the document and how many went."""
    prefix = _prefix(harness, program)
    out = dict(doc)
    hooks = out.get("hooks")
    if not isinstance(hooks, Mapping):
        return out, 0
    removed = 0
    kept_hooks: dict[str, Any] = {}
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            kept_hooks[event] = entries
            continue
        kept = []
        for e in entries:
            if any(c == prefix or c.startswith(prefix + " ") for c in harness.commands(e)):
                removed += 1
            else:
                kept.append(e)
        if kept or not entries:
            kept_hooks[event] = kept
    if kept_hooks:
        out["hooks"] = kept_hooks
    else:
        out.pop("hooks", None)
    return out, removed


_MARK = "# written by agent-hooks install; agent-hooks uninstall removes it"


def _script(command: str) -> str:
    return f"#!/bin/sh\n{_MARK}\nexec {command}\n"


def install_files(directory: Path, wanted: Mapping[str, str], dry_run: bool) -> int:
    """One executable script per event of ``wanted`` (event -> command) in ``directory``,
    named by the event (Cline's hook files). A file of that name that install did not
    write is left alone (reported); one it wrote is rewritten. Returns how many files
    were written (or would be, with ``dry_run``: then printed, nothing written)."""
    written = 0
    for event, command in wanted.items():
        path = directory / event
        text = _script(command)
        if path.exists():
            old = path.read_text(encoding="utf-8", errors="replace")
            if old == text:
                continue
            if _MARK not in old:
                print(f"agent-hooks: {path} is not ours; left as it is", file=sys.stderr)
                continue
        written += 1
        if dry_run:
            sys.stdout.write(f"--- {path}\n{text}")
            continue
        directory.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.agent-hooks.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.chmod(0o755)
        os.replace(tmp, path)
    return written


def uninstall_files(directory: Path, prefix: str, dry_run: bool) -> int:
    """Remove the scripts :func:`install_files` wrote for ``prefix`` (``<program> run
    --dialect NAME``) from ``directory``, and nothing else. Returns how many."""
    removed = 0
    if not directory.is_dir():
        return 0
    for path in sorted(directory.iterdir()):
        try:
            text = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
        except OSError:
            continue
        if _MARK in text and f"\nexec {prefix}" in text:
            removed += 1
            if not dry_run:
                path.unlink()
    return removed


def _read(path: Path) -> dict[str, Any]:
    """Raises: ValueError when the file is not a JSON object."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {}
    doc = json.loads(text) if text.strip() else {}
    if not isinstance(doc, dict):
        raise ValueError(f"{path} does not hold a JSON object")
    return doc


def _write(path: Path, doc: Mapping[str, Any], dry_run: bool, remove_if: Mapping[str, Any]) -> None:
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if dry_run:
        sys.stdout.write(text)
        return
    if dict(doc) == dict(remove_if):
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.agent-hooks.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _install(args: argparse.Namespace) -> int:
    from ..._wire._dialects import get_dialect

    try:
        harness = _harness(args.harness)
    except ValueError as exc:
        print(f"agent-hooks: {exc}", file=sys.stderr)
        return 1
    if args.discover or not args.config:
        # (--discover would find the harness's own file, whose entry calls agent-hooks again)
        print(
            "agent-hooks: install needs the hooks to call as --config PATH (not --discover: "
            "the harness's own file would be found and call agent-hooks again)",
            file=sys.stderr,
        )
        return 1
    target = _target(harness, args)
    configs = [os.path.abspath(c) for c in args.config]
    if any(os.path.realpath(c) == os.path.realpath(target) for c in configs):
        print(
            f"agent-hooks: {target} is one of the --config files: the harness would call "
            "agent-hooks for its own entries forever; keep your hooks in a file of their own",
            file=sys.stderr,
        )
        return 1
    project = os.path.abspath(args.project_dir or ".")
    from ..._dispatch._registry import HookRegistry

    with quiet_diagnostics_log():
        config, missing = load_hooks(args, project)
        # (what untrusted files hold counts: they run once trusted, and listing runs nothing)
        nodes = HookRegistry(sources=(*config.sources, *config.skipped)).compile().nodes
    for f in config.files:
        if f.status == "untrusted":
            print(
                f"agent-hooks: {f.path} is not trusted yet: the harness's calls will skip it "
                "until you run agent-hooks trust --config " + shlex.quote(f.path),
                file=sys.stderr,
            )
    if missing:
        print(f"agent-hooks: no such file: {', '.join(missing)}", file=sys.stderr)
        return 1
    dialect = get_dialect(harness.name)
    base = [args.program, "run", "--dialect", harness.name]
    tail: list[str] = []
    for c in configs:
        tail += ["--config", c]
    if args.format:
        tail += ["--format", args.format]
    if args.fail_closed:
        tail += ["--fail-closed"]
    wanted: dict[str, tuple[str, float]] = {}
    skipped: list[str] = []
    for event, handlers in nodes.items():
        natives = harness.events(str(event))
        if not natives:
            skipped.append(str(event))
            continue
        timeout = max((cn.timeout for cn in handlers), default=60.0) + 5.0
        for native in natives:
            words = [*base, *(["--event", native] if harness.names_event else []), *tail]
            wanted[native] = (shlex.join(words), timeout)
    if harness.per_event_files:
        added = install_files(target, {n: c for n, (c, _) in wanted.items()}, args.dry_run)
        verb = "would add" if args.dry_run else "added"
        print(f"agent-hooks: {verb} {added} hook file(s) in {target}", file=sys.stderr)
        return 0
    try:
        doc = _read(target)
    except ValueError as exc:
        print(f"agent-hooks: {exc}; nothing written", file=sys.stderr)
        return 1
    new, added = install_entries(doc, harness, wanted, dialect.timeout_unit)
    if args.fail_closed and harness.fail_closed_key is not None:
        for native, (command, _) in wanted.items():
            for entry in new["hooks"][native]:
                if command in harness.commands(entry):
                    entry[harness.fail_closed_key] = True
    _write(target, new, args.dry_run, remove_if={"__never__": True})
    verb = "would add" if args.dry_run else "added"
    print(
        f"agent-hooks: {verb} {added} entr{'y' if added == 1 else 'ies'} in {target}",
        file=sys.stderr,
    )
    if skipped:
        print(
            f"agent-hooks: {harness.name} has no event for: {', '.join(sorted(skipped))}; not installed",
            file=sys.stderr,
        )
    return 0


def _uninstall(args: argparse.Namespace) -> int:
    try:
        harness = _harness(args.harness)
    except ValueError as exc:
        print(f"agent-hooks: {exc}", file=sys.stderr)
        return 1
    target = _target(harness, args)
    if harness.per_event_files:
        removed = uninstall_files(target, _prefix(harness, args.program), args.dry_run)
        verb = "would remove" if args.dry_run else "removed"
        print(f"agent-hooks: {verb} {removed} hook file(s) from {target}", file=sys.stderr)
        return 0
    try:
        doc = _read(target)
    except ValueError as exc:
        print(f"agent-hooks: {exc}; nothing written", file=sys.stderr)
        return 1
    if not doc:
        print(f"agent-hooks: {target}: nothing to remove", file=sys.stderr)
        return 0
    new, removed = uninstall_entries(doc, harness, args.program)
    if removed:
        _write(target, new, args.dry_run, remove_if=harness.head if harness.head else {})
    verb = "would remove" if args.dry_run else "removed"
    print(
        f"agent-hooks: {verb} {removed} entr{'y' if removed == 1 else 'ies'} from {target}",
        file=sys.stderr,
    )
    return 0
