"""``agent-hooks install`` and ``agent-hooks uninstall``: make a harness call
``agent-hooks run`` for the events the configured graph handles.

``install --harness NAME [--scope project|user] [--dry-run]`` loads the hooks that
``--config`` names, as ``run`` would, and puts into the harness's own hook file one
entry per event the graph handles and the harness has:
``<program> run --dialect NAME [--event E] --config PATH...``.

* **The command runs.** In a user file ``<program>`` is this environment's quick client
  (``<python> -I -S <package>/_bridges/_daemon/_quick_run.py``, POSIX), else its own
  ``agent-hooks`` by its absolute path (or its interpreter with ``-m agent_hooks``), so
  the harness's PATH does not matter (:func:`program_words`); in a project file, which
  is committed, it is ``agent-hooks``, and install says when that does not resolve
  here. ``--config`` paths inside the project are relative to it (through the
  harness's ``$..._PROJECT_DIR`` where it has one); ``--trust-project-hooks``,
  ``--format`` and ``--fail-closed`` are carried into the command.
* **A broken command blocks where the harness can be told so.** The harness's own
  switch (:attr:`Harness.fail_closed`: Claude Code ``onFailure: block``, Cursor
  ``failClosed: true``) goes on the entries of guard events (PreToolUse,
  PermissionRequest, UserPromptSubmit) unless ``--fail-open``; where it has none,
  install says that a broken command fails open there (:attr:`Harness.fails_open`).
* **Edits, not rewrites.** The file is parsed to spans and only agent-hooks' entries
  are spliced in or out (:func:`install_text`, :func:`uninstall_text`): indentation,
  newline style, BOM, key order and (where the harness reads them) comments stay. An
  entry of ours already in an event's list is replaced in place, so installing again
  with other flags leaves one entry. Ours are recognised by their command
  (:func:`is_ours`; :func:`find_entries` lists them). A file of another shape
  (invalid JSON, ``hooks`` not an object, an event's value not a list, a key twice)
  is refused with its name and key, and nothing is written.
* **Safe writes.** The edit goes to the target of a symlinked file (a project file's
  link must stay inside the project), under an ``flock`` on a lock file in the user's
  state directory (``$XDG_STATE_HOME/agent_hooks/install/``, named by a hash of the
  file's real path: nothing is left beside the file), through a temporary file created
  exclusively, with the file's mode and owner, fsynced and renamed
  (:mod:`._safewrite`). That lock file notes what install added (the file itself, a
  blank file's bytes, the ``hooks`` key, event keys) while there is such a thing, so
  that uninstall removes exactly that: a file install changed only by its own entries
  comes back byte for byte, and a file install did not create is never deleted. The
  note of an earlier version's lock file beside the file (``.<name>.agent-hooks.lock``)
  is carried over and that file removed.
* **Twice.** Copilot CLI, Cursor and Trae also run ``.claude/settings.json``
  (:attr:`Harness.also_runs`): install warns when both files would call agent-hooks,
  and ``--one-entry`` writes nothing where the other file guards already.

``uninstall`` removes exactly the entries install writes for the harness, and
nothing else. ``--dry-run`` prints the file as it would be written.

Each harness's project and user file, entry shape and switches are its ``install`` in
its row (:data:`agent_hooks._config._harness.HARNESSES`); docs/installing.md lists them.

A harness whose row has no ``install`` (Augment, Goose, Kiro...) says why instead.

Windsurf's entries have no timeout (it documents none). The entry's timeout is the longest timeout of the event's handlers plus 5 seconds, in
the harness's unit. A harness file that is one of the ``--config`` files is refused (the
harness would call agent-hooks, which would run that file's entry again, forever).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shlex
import shutil
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from ..._config._harness import FAILS_OPEN, harness_named
from ..._config._harness import INSTALLS as HARNESSES
from ..._config._harness import Install as Harness
from ._jsonedit import (
    Edit,
    JsonShapeError,
    Layout,
    Member,
    Node,
    apply,
    find_member,
    insert_items,
    layout_of,
    parse,
    remove_items,
    replace_item,
)
from ._run import add_load_options, load_hooks, quiet_diagnostics_log
from ._safewrite import Lock, UnsafeTarget, locked, real_target, remove_file, write_atomic

__all__ = [
    "HARNESSES",
    "Edited",
    "Harness",
    "find_entries",
    "hook_files",
    "install_files",
    "install_text",
    "is_ours",
    "is_quick_client",
    "program_words",
    "quick_client_words",
    "register",
    "resolves",
    "skeleton",
    "target_file",
    "uninstall_files",
    "uninstall_text",
]

WARM_UP: Mapping[str, tuple[str, Mapping[str, Any]]] = {"claude": ("SessionStart", {"async": True})}
"""Harnesses that run a hook without waiting for it (Claude Code's ``async: true``):
the event at which install adds ``<program> daemon start --dialect NAME -- OPTIONS``
there (``OPTIONS``: the guard's own ``run`` options), and the entry's switch, so the
resident server and the project's worker, with the guard's configuration loaded, are
up before the session's first tool call. Added only where the graph has no entry of its own for
that event (a ``run`` entry there starts them too)."""

_GUARD_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit"})
"""Canonical events whose answer can stop an action: where a broken command must block."""


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
            help=", ".join(HARNESSES),
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
            metavar="CMD",
            help="how the harness should call agent-hooks (default: `agent-hooks` in a project "
            "file, which is committed; in a user file, this environment's own agent-hooks by "
            "its absolute path, so that the harness's PATH does not matter)",
        )
        if name == "install":
            add_load_options(p, project_default=".")
            p.add_argument(
                "--fail-closed",
                action="store_true",
                help="the installed command runs with --fail-closed (a hook of yours that "
                "fails blocks)",
            )
            p.add_argument(
                "--fail-open",
                action="store_true",
                help="do not write the harness's own fail-closed switch on guard events (by "
                "default a missing or crashing agent-hooks blocks where the harness can be "
                "told so)",
            )
            p.add_argument(
                "--one-entry",
                action="store_true",
                help="write nothing when the harness also runs another harness's file that "
                "calls agent-hooks already (Copilot CLI and .claude/settings.json): one entry, "
                "the guard runs once",
            )
        else:
            p.add_argument("--project-dir", metavar="DIR", help="the project root (default: .)")
            p.add_argument("--home", metavar="DIR", help="the home directory (default: ~)")
        p.set_defaults(func=_install if name == "install" else _uninstall)


def _harness(name: str) -> Harness:
    """Raises: ValueError for a name no harness has, or one install cannot write for."""
    row = harness_named(name)
    if row is not None and row.not_installable is not None:
        raise ValueError(f"install does not write {name}'s hooks: {row.not_installable}")
    found = HARNESSES.get(row.name) if row is not None else None
    if found is None:
        raise ValueError(f"unknown harness {name!r}; known: {', '.join(HARNESSES)}")
    return found


def target_file(harness: Harness, scope: str, project_dir: str | None, home: str | None) -> Path:
    """The harness's hook file (a directory for Cline) for ``scope`` (project or user)."""
    if scope == "user":
        return harness.user_path(Path(home) if home else Path.home())
    return Path(os.path.abspath(project_dir or ".")) / harness.project_file


def hook_files(harness: Harness, project_dir: str | None, home: str | None) -> list[tuple[str, Path]]:
    """Every hook file of ``harness`` as ``(scope, path)``: the project and user files
    install writes, then the harness's :attr:`Harness.other_files`."""
    root = Path(os.path.abspath(project_dir or "."))
    files = [(scope, target_file(harness, scope, project_dir, home)) for scope in ("project", "user")]
    files += [(scope, root / rel) for scope, rel in harness.other_files]  # (an absolute rel stays)
    return files


def _target(harness: Harness, args: argparse.Namespace) -> Path:
    return target_file(harness, args.scope, args.project_dir, args.home)


def program_words(scope: str, program: str | None = None) -> list[str]:
    """How the written command calls agent-hooks: ``program`` as given; else in a
    project file (committed, read on other machines) the portable ``agent-hooks``; else
    (a user file) this environment's quick client (:func:`quick_client_words`: no
    ``site``, no package import on a warm call), or where there is none its own entry
    point by its absolute path, or its interpreter with ``-m agent_hooks``, so that the
    harness's PATH does not matter.

    The interpreter form runs with ``-P`` (``-I`` on Python 3.10, which has no ``-P``):
    ``-m`` would otherwise put the harness's working directory, the project, first on
    the module path, and a repository shipping ``agent_hooks/`` or ``json.py`` would run
    its own code as the guard."""
    if program:
        return shlex.split(program)
    if scope == "project":
        return ["agent-hooks"]
    quick = quick_client_words()
    if quick is not None:
        return quick
    exe = Path(os.path.abspath(sys.executable))
    script = exe.parent / "agent-hooks"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    safe_path = "-P" if sys.version_info >= (3, 11) else "-I"
    return [str(exe), safe_path, "-m", "agent_hooks"]


QUICK_CLIENT_PARTS = ("agent_hooks", "_bridges", "_daemon", "_quick_run.py")
"""The quick client's file, as the last parts of its path in an installed package."""


def quick_client_words() -> list[str] | None:
    """The quick client of this environment, as a user file's program (POSIX, where the
    file exists): ``<python> -I -S <package>/_bridges/_daemon/_quick_run.py``. The
    interpreter is this one by its absolute path, links *not* resolved: without ``site``
    the client finds its virtual environment from the ``pyvenv.cfg`` beside that path.
    (``-I``: neither the harness's directory nor ``PYTHONPATH`` is on the module path;
    ``-S``: no ``.pth`` file runs. The client answers exactly as ``agent-hooks run``,
    becoming it when no server answers: docs/bridges.md, "The quick client".)"""
    if os.name != "posix" or not sys.executable:
        return None
    script = Path(__file__).resolve().parent.parent / "_daemon" / "_quick_run.py"
    if not script.is_file():
        return None
    return [os.path.abspath(sys.executable), "-I", "-S", str(script)]


def is_quick_client(word: str) -> bool:
    """``word`` names the quick client's file of an installed agent_hooks (an absolute
    path ending ``agent_hooks/_bridges/_daemon/_quick_run.py``)."""
    return os.path.isabs(word) and Path(word).parts[-len(QUICK_CLIENT_PARTS) :] == QUICK_CLIENT_PARTS


def resolves(words: list[str]) -> str | None:
    """Where the command's program is found on this machine (this process's PATH), or
    None: the harness would fail to start it (exit 127)."""
    if not words:
        return None
    return shutil.which(words[0])


def is_ours(command: str, harness: Harness, program: str | None = None) -> bool:
    """``command`` is one ``install`` writes for ``harness``: ``<agent-hooks> run
    --dialect NAME ...`` where the program is ``program``, an ``agent-hooks`` executable
    (any path, or after a launcher: ``uvx agent-hooks``), ``<python> -m agent_hooks`` or
    the quick client (``<python> -I -S <...>/agent_hooks/_bridges/_daemon/_quick_run.py``)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    mine = shlex.split(program) if program else []
    if mine and words[: len(mine)] == mine:
        rest = words[len(mine) :]
        if rest[:3] == ["run", "--dialect", harness.name] or is_warm_up(rest, harness):
            return True
    # (the program may be a launcher's: `uvx agent-hooks`, `pipx run agent-hooks`, so an
    # entry written with another --program is still found, replaced and removed)
    for i, word in enumerate(words):
        if os.path.basename(word) in ("agent-hooks", "agent-hooks.exe") or is_quick_client(word):
            rest = words[i + 1 :]
        elif words[i : i + 2] == ["-m", "agent_hooks"]:
            rest = words[i + 2 :]
        else:
            continue
        return rest[:3] == ["run", "--dialect", harness.name] or is_warm_up(rest, harness)
    return False


def is_warm_up(rest: list[str], harness: Harness) -> bool:
    """``rest`` (the words after the program) is the warm-up entry install writes for
    ``harness`` (:data:`WARM_UP`): ``daemon start --dialect NAME``."""
    return rest[:4] == ["daemon", "start", "--dialect", harness.name]


def _entry_is_ours(entry: Any, harness: Harness, program: str | None) -> bool:
    commands = harness.commands(entry)
    return bool(commands) and all(is_ours(c, harness, program) for c in commands)


def _entry_warms_up(entry: Any, harness: Harness) -> bool:
    """Every command of ``entry`` is a warm-up (``daemon start``): no guard runs there."""
    found = []
    for command in harness.commands(entry):
        try:
            words = shlex.split(command)
        except ValueError:
            return False
        found.append("daemon" in words and is_warm_up(words[words.index("daemon") :], harness))
    return bool(found) and all(found)


def find_entries(
    text: str, harness: Harness, program: str | None = None, *, where: str = "the file"
) -> dict[str, list[Any]]:
    """The entries of ``harness``'s file (its ``text``) that ``install`` wrote to call
    ``run`` (not the warm-up, which guards nothing): native event -> those entries, in
    file order.

    Raises:
        JsonShapeError: the text is not the harness's JSON (``where`` names the file).
    """
    root = _root(text, harness, where)
    hooks = find_member(root, "hooks", f"{where}: hooks")
    if hooks is None or hooks.value.kind != "object":
        return {}
    found: dict[str, list[Any]] = {}
    for m in hooks.value.members:
        if m.value.kind == "array":
            ours = [
                i.value
                for i in m.value.items
                if _entry_is_ours(i.value, harness, program) and not _entry_warms_up(i.value, harness)
            ]
            if ours:
                found[m.key] = ours
    return found


def _root(text: str, harness: Harness, where: str) -> Node:
    try:
        root = parse(text, comments=harness.comments)
    except JsonShapeError as exc:
        raise JsonShapeError(f"{where}, {exc.where}", exc.message) from None
    if root.kind != "object":
        raise JsonShapeError(where, "the top level is not a JSON object")
    return root


def _object_member(obj: Node, key: str, where: str, path: str) -> Member | None:
    member = find_member(obj, key, f"{where}: {path}")
    if member is not None and member.value.kind != "object":
        raise JsonShapeError(
            f"{where}: {path}", f"is {_kind(member.value)}, not an object of event lists"
        )
    return member


def _kind(node: Node) -> str:
    if node.kind != "scalar":
        return "an array" if node.kind == "array" else "an object"
    return "null" if node.value is None else f"a {type(node.value).__name__} ({node.value!r})"


@attrs.frozen
class Edited:
    """What :func:`install_text` or :func:`uninstall_text` made of a file."""

    text: str
    """The new text."""
    count: int
    """How many event lists changed (install) or entries went (uninstall)."""
    hooks_added: bool = False
    """Install added the ``hooks`` key itself."""
    events_added: tuple[str, ...] = ()
    """The event keys install added to ``hooks``."""


def install_text(
    text: str,
    harness: Harness,
    wanted: Mapping[str, Mapping[str, Any]],
    program: str | None = None,
    *,
    where: str = "the file",
) -> Edited:
    """``text`` (the harness's file) with one entry of ``wanted`` (native event -> the
    entry) in each event's list: an entry install wrote before for the harness is
    replaced in place (others of ours in that list removed), else the entry is appended;
    nothing else changes, byte for byte. ``count``: how many lists changed.

    Raises:
        JsonShapeError: the text is not JSON, or ``hooks`` or an event's value there is
            not what the harness reads (nothing should be written).
    """
    root = _root(text, harness, where)
    layout = layout_of(text)
    hooks = _object_member(root, "hooks", where, "hooks")
    if hooks is None:
        new = {native: [entry] for native, entry in wanted.items()}
        if not new:
            return Edited(text, 0)
        edit = insert_items(text, root, [("hooks", new)], layout)
        return Edited(apply(text, [edit]), len(new), hooks_added=True, events_added=tuple(new))
    edits: list[Edit] = []
    appended: list[tuple[str | None, Any]] = []
    changed = 0
    for native, entry in wanted.items():
        member = find_member(hooks.value, native, f"{where}: hooks.{native}")
        if member is None:
            appended.append((native, [entry]))
            changed += 1
            continue
        if member.value.kind != "array":
            raise JsonShapeError(
                f"{where}: hooks.{native}", f"is {_kind(member.value)}, not a list of entries"
            )
        items = member.value.items
        for i, item in enumerate(items):
            if item.kind != "object":
                # (a harness that validates its file may reject it whole, and the guard
                # added beside that entry would never run)
                raise JsonShapeError(
                    f"{where}: hooks.{native}[{i}]", f"is {_kind(item)}, not an entry object"
                )
        ours = [i for i, item in enumerate(items) if _entry_is_ours(item.value, harness, program)]
        if len(ours) == 1 and items[ours[0]].value == entry:
            continue
        changed += 1
        if not ours:
            edits.append(insert_items(text, member.value, [(None, entry)], layout))
            continue
        edits.append(replace_item(text, items[ours[0]], entry, layout))
        edits += remove_items(text, member.value, ours[1:])
    if appended:
        edits.append(insert_items(text, hooks.value, appended, layout))
    added = tuple(str(k) for k, _ in appended)
    return Edited(apply(text, edits), changed, events_added=added)


def uninstall_text(
    text: str,
    harness: Harness,
    program: str | None = None,
    *,
    where: str = "the file",
    hooks_added: bool = False,
    events_added: Iterable[str] = (),
) -> Edited:
    """``text`` without the entries install writes for ``harness``. An event list left
    empty is removed when install added it (``events_added``), else left empty; so is
    ``hooks`` (``hooks_added``): a file install changed only by its own entries comes
    back byte for byte. ``count``: how many entries went.

    Raises:
        JsonShapeError: the text is not JSON, or ``hooks`` is not an object.
    """
    root = _root(text, harness, where)
    hooks = _object_member(root, "hooks", where, "hooks")
    if hooks is None:
        return Edited(text, 0)
    added = set(events_added)
    edits: list[Edit] = []
    gone: list[int] = []
    removed = 0
    for index, member in enumerate(hooks.value.members):
        if member.value.kind != "array":
            continue
        items = member.value.items
        ours = [i for i, item in enumerate(items) if _entry_is_ours(item.value, harness, program)]
        removed += len(ours)
        if ours and len(ours) == len(items) and member.key in added:
            gone.append(index)
        else:
            edits += remove_items(text, member.value, ours)
    if hooks_added and len(gone) == len(hooks.value.members) and not edits:
        index = root.members.index(hooks)
        return Edited(apply(text, remove_items(text, root, [index])), removed)
    edits += remove_items(text, hooks.value, gone)
    return Edited(apply(text, edits), removed)


def skeleton(harness: Harness, layout: Layout) -> str:
    """The text of a file install creates, before its entries go in."""
    if not harness.head:
        return "{}" + layout.newline
    body = json.dumps(dict(harness.head), indent=layout.unit, ensure_ascii=False)
    return body.replace("\n", layout.newline) + layout.newline


_MARK = "# written by agent-hooks install; agent-hooks uninstall removes it"


def _script(command: str) -> str:
    return f"#!/bin/sh\n{_MARK}\nexec {command}\n"


def _script_is_ours(text: str, harness: Harness, program: str | None) -> bool:
    if _MARK not in text:
        return False
    return any(
        line.startswith("exec ") and is_ours(line[5:], harness, program)
        for line in text.splitlines()
    )


def install_files(directory: Path, wanted: Mapping[str, str], dry_run: bool) -> int:
    """One executable script per event of ``wanted`` (event -> command) in ``directory``,
    named by the event (Cline's hook files). A file of that name that install did not
    write is left alone (reported); one it wrote is rewritten. Returns how many files
    were written (or would be, with ``dry_run``: then printed, nothing written).

    Raises:
        UnsafeTarget: the state directory or a lock file's name is a link, or an owner
            cannot be kept.
    """
    written = 0
    for event, command in wanted.items():
        path = directory / event
        text = _script(command)
        if dry_run:
            sys.stdout.write(f"--- {path}\n{text}")
            written += 1
            continue
        with locked(path):
            if path.is_symlink() or (path.exists() and not path.is_file()):
                print(f"agent-hooks: {path} is not ours; left as it is", file=sys.stderr)
                continue
            if path.exists():
                old = path.read_text(encoding="utf-8", errors="replace")
                if old == text:
                    continue
                if _MARK not in old:
                    print(f"agent-hooks: {path} is not ours; left as it is", file=sys.stderr)
                    continue
            write_atomic(path, text.encode())
            path.chmod(0o755)
        written += 1
    return written


def uninstall_files(
    directory: Path, harness: Harness, program: str | None, dry_run: bool
) -> int:
    """Remove the scripts :func:`install_files` wrote for ``harness`` from ``directory``,
    and nothing else (a link is never followed). Returns how many."""
    removed = 0
    if not directory.is_dir():
        return 0
    for path in sorted(directory.iterdir()):
        if path.name.startswith(".") or path.is_symlink() or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if _script_is_ours(text, harness, program):
            removed += 1
            if not dry_run:
                with locked(path):
                    remove_file(path)
    return removed


_BOM = b"\xef\xbb\xbf"


def _decode(raw: bytes, where: Path) -> tuple[bytes, str]:
    bom = _BOM if raw.startswith(_BOM) else b""
    try:
        return bom, raw[len(bom) :].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JsonShapeError(str(where), f"is not UTF-8 ({exc.reason} at byte {exc.start})") from None


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise JsonShapeError(str(path), "is a directory") from None


def _say(message: str) -> None:
    print(f"agent-hooks: {message}", file=sys.stderr)


def _config_words(
    configs: list[str], harness: Harness, scope: str, project: str
) -> tuple[list[str], list[str]]:
    """The ``--config`` words of the command (shell-quoted already) and the paths that
    stay absolute in a project file (outside the project: not portable)."""
    words: list[str] = []
    outside: list[str] = []
    root = os.path.realpath(project)
    for c in configs:
        real = os.path.realpath(c)
        if scope == "project" and (real == root or real.startswith(root + os.sep)):
            rel = os.path.relpath(real, root)
            var = harness.project_dir_var
            word = f'"${{{var}:-.}}"/{shlex.quote(rel)}' if var else shlex.quote(rel)
        else:
            if scope == "project":
                outside.append(c)
            word = shlex.quote(c)
        words += ["--config", word]
    return words, outside


def _others_with_entries(harness: Harness, args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The files of other harnesses that ``harness`` also runs (or that run ``harness``'s
    file) and that hold agent-hooks entries already: (harness name, file)."""
    related = [HARNESSES[n] for n in harness.also_runs]
    related += [h for h in HARNESSES.values() if harness.name in h.also_runs]
    found = []
    for other in related:
        path = target_file(other, args.scope, args.project_dir, args.home)
        try:
            raw = _read_bytes(path)
            if raw is None or other.per_event_files:
                continue
            if find_entries(_decode(raw, path)[1], other, where=str(path)):
                found.append((other.name, path))
        except (JsonShapeError, OSError):
            continue
    return found


def _install(args: argparse.Namespace) -> int:
    from ..._wire._dialects import get_dialect

    try:
        harness = _harness(args.harness)
    except ValueError as exc:
        _say(str(exc))
        return 1
    if args.discover or not args.config:
        # (--discover would find the harness's own file, whose entry calls agent-hooks again)
        _say(
            "install needs the hooks to call as --config PATH (not --discover: "
            "the harness's own file would be found and call agent-hooks again)"
        )
        return 1
    target = _target(harness, args)
    configs = [os.path.abspath(c) for c in args.config]
    if any(os.path.realpath(c) == os.path.realpath(target) for c in configs):
        _say(
            f"{target} is one of the --config files: the harness would call "
            "agent-hooks for its own entries forever; keep your hooks in a file of their own"
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
            _say(
                f"{f.path} is not trusted yet: the harness's calls will skip it "
                "until you run agent-hooks trust --config " + shlex.quote(f.path)
            )
    if missing:
        _say(f"no such file: {', '.join(missing)}")
        return 1
    shared = _others_with_entries(harness, args)
    for other, path in shared:
        runs = harness.name if other in harness.also_runs else other
        _say(
            f"{runs} also runs {path if other in harness.also_runs else target}, and "
            f"{path} calls agent-hooks already: with entries in both files the guard runs "
            "twice per call"
            + ("" if other not in harness.also_runs else "; --one-entry writes nothing here")
        )
    if args.one_entry and any(other in harness.also_runs for other, _ in shared):
        _say(f"--one-entry: nothing written to {target}")
        return 0
    dialect = get_dialect(harness.name)
    prog = program_words(args.scope, args.program)
    where = resolves(prog)
    if where is None:
        _say(
            f"{prog[0]} is not found on this machine's PATH: the harness will fail to start "
            "the command (exit 127), and the action goes ahead unless the harness blocks on "
            "a failed hook; install agent-hooks where the harness finds it, or use --scope "
            "user (an absolute path) or --program"
        )
    config_words, outside = _config_words(configs, harness, args.scope, project)
    if outside:
        _say(
            f"{', '.join(outside)} is outside the project: written as an absolute path, "
            f"which other checkouts of {target} will not have"
        )
    tail = config_words
    if args.format:
        tail += ["--format", shlex.quote(args.format)]
    if args.fail_closed:
        tail += ["--fail-closed"]
    if args.trust_project_hooks:
        tail += ["--trust-project-hooks"]
    head = " ".join(shlex.quote(w) for w in [*prog, "run", "--dialect", harness.name])
    wanted: dict[str, dict[str, Any]] = {}
    scripts: dict[str, str] = {}
    skipped: list[str] = []
    guarded: list[str] = []
    for event, handlers in nodes.items():
        natives = harness.events(str(event))
        if not natives:
            skipped.append(str(event))
            continue
        timeout = max((cn.timeout for cn in handlers), default=60.0) + 5.0
        guard = str(event) in _GUARD_EVENTS
        for native in natives:
            event_words = ["--event", shlex.quote(native)] if harness.names_event else []
            command = " ".join([head, *event_words, *tail])
            extra = harness.fail_closed if guard and not args.fail_open else {}
            wanted[native] = harness.entry(command, timeout, dialect.timeout_unit, extra)
            scripts[native] = command
            if guard:
                guarded.append(native)
    warm_event, warm_switch = WARM_UP.get(harness.name, ("", {}))
    warm_ups: set[str] = set()
    for native in harness.events(warm_event) if warm_event else ():
        if native not in wanted:
            warm_ups.add(native)
            # (with the guard's own options, so its configuration is loaded before the
            # session's first tool call)
            words = [*prog, "daemon", "start", "--dialect", harness.name]
            command = " ".join([*map(shlex.quote, words), *(["--", *tail] if tail else [])])
            wanted[native] = harness.entry(command, 30.0, dialect.timeout_unit, warm_switch)
    try:
        if harness.per_event_files:
            if args.scope == "project":
                real_target(target, inside=Path(project))
            added = install_files(target, scripts, args.dry_run)
            verb = "would add" if args.dry_run else "added"
            _say(f"{verb} {added} hook file(s) in {target}")
        else:
            added = _install_json(harness, target, wanted, args, warm_ups)
            verb = "would change" if args.dry_run else "changed"
            _say(f"{verb} {added} event entr{'y' if added == 1 else 'ies'} in {target}")
    except (JsonShapeError, UnsafeTarget) as exc:
        _say(f"{exc}; nothing written")
        return 1
    except OSError as exc:
        _say(f"cannot write {target}: {exc.strerror or exc}; nothing written")
        return 1
    if guarded:
        if not harness.fail_closed:
            _say(f"{harness.name} has no fail-closed switch: {harness.fails_open}")
        elif args.fail_open:
            _say(f"{harness.name}, --fail-open: {FAILS_OPEN}")
        elif harness.fails_open:
            _say(f"{harness.name}: {harness.fails_open}")
    if skipped:
        _say(f"{harness.name} has no event for: {', '.join(sorted(skipped))}; not installed")
    return 0


def _note(lock: Lock, target: Path) -> tuple[dict[str, Any], bool]:
    """What install noted in the lock file (``created``: it created the file; ``empty``:
    the bytes of the blank file it found; ``hooks``: it added the ``hooks`` key;
    ``events``: the event keys it added), if it is about the file there now: ``path``
    must be ``target``'s real path and ``file`` (device, inode, size and sha256 of what
    install last wrote) must be ``target``'s. A note left from a file since replaced or
    changed is ignored.

    Without one, the note of an earlier version's lock file beside ``target`` is
    carried over when its (device, inode) is ``target``'s; the second value says so
    (that lock file is install's: remove it once the new note is written). One a
    repository ships can still land there: the caller puts back only a blank file's
    bytes."""
    note = _parse_note(lock.note)
    if (
        note is not None
        and note.get("path") == os.path.realpath(target)
        and note.get("file") == _file_id(target)
    ):
        return note, False
    legacy = _parse_note(lock.legacy_note)
    st = _stat(target)
    if legacy is not None and st is not None and legacy.get("file") == [st.st_dev, st.st_ino]:
        return legacy, True
    return {}, False


def _parse_note(text: str) -> dict[str, Any] | None:
    try:
        note = json.loads(text) if text.strip() else None
    except ValueError:
        return None
    return note if isinstance(note, dict) else None


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _file_id(path: Path) -> dict[str, Any] | None:
    st = _stat(path)
    if st is None:
        return None
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
    return {"dev": st.st_dev, "ino": st.st_ino, "size": st.st_size, "sha256": digest}


def _set_note(lock: Lock, note: dict[str, Any], real: Path, legacy: bool) -> None:
    if note:
        note["path"] = os.path.realpath(real)
        note["file"] = _file_id(real)
    lock.set_note(json.dumps(note) if note else "")
    if legacy:
        lock.drop_legacy()


def _install_json(
    harness: Harness,
    target: Path,
    wanted: Mapping[str, Mapping[str, Any]],
    args: Any,
    warm_ups: Iterable[str] = (),
) -> int:
    """Install ``wanted`` into ``target``; a warm-up entry (``warm_ups``: native events)
    is left out where a ``run`` entry of agent-hooks is in that event's list already
    (another configuration's, installed into the same file: it starts the server too)."""
    inside = Path(args.project_dir or ".") if args.scope == "project" else None
    real = real_target(target, inside=inside)
    with contextlib.ExitStack() as stack:
        lock = None if args.dry_run else stack.enter_context(locked(real))
        raw = _read_bytes(real)
        if raw is None and not wanted:
            return 0  # (no file of an empty hooks object)
        bom, text = _decode(raw, real) if raw is not None else (b"", "")
        note, legacy = _note(lock, real) if lock is not None else ({}, False)
        if raw is None:
            note = {"created": True}
        elif not text.strip(" \t\r\n"):
            note = {"empty": raw.hex()}
        if raw is None or not text.strip(" \t\r\n"):
            text = skeleton(harness, layout_of(text))
        warm_ups = set(warm_ups)
        if warm_ups:
            running = find_entries(text, harness, args.program, where=str(target))
            wanted = {k: v for k, v in wanted.items() if k not in warm_ups or k not in running}
        edited = install_text(text, harness, wanted, args.program, where=str(target))
        if lock is None:
            sys.stdout.write(edited.text)
            return edited.count
        if edited.hooks_added:
            note["hooks"] = True
        if edited.events_added:
            note["events"] = sorted({*note.get("events", ()), *edited.events_added})
        if raw is None or edited.text.encode() != raw[len(bom) :]:
            write_atomic(real, bom + edited.text.encode())
        _set_note(lock, note, real, legacy)
    return edited.count


def _uninstall(args: argparse.Namespace) -> int:
    try:
        harness = _harness(args.harness)
    except ValueError as exc:
        _say(str(exc))
        return 1
    target = _target(harness, args)
    try:
        if harness.per_event_files:
            if args.scope == "project":
                real_target(target, inside=Path(args.project_dir or "."))
            files = uninstall_files(target, harness, args.program, args.dry_run)
            verb = "would remove" if args.dry_run else "removed"
            _say(f"{verb} {files} hook file(s) from {target}")
            return 0
        removed = _uninstall_json(harness, target, args)
    except (JsonShapeError, UnsafeTarget) as exc:
        _say(f"{exc}; nothing written")
        return 1
    except OSError as exc:
        _say(f"cannot write {target}: {exc.strerror or exc}; nothing written")
        return 1
    if removed is None:
        _say(f"{target}: nothing to remove")
        return 0
    verb = "would remove" if args.dry_run else "removed"
    _say(f"{verb} {removed} entr{'y' if removed == 1 else 'ies'} from {target}")
    return 0


def _uninstall_json(harness: Harness, target: Path, args: Any) -> int | None:
    inside = Path(args.project_dir or ".") if args.scope == "project" else None
    real = real_target(target, inside=inside)
    if _read_bytes(real) is None:
        return None
    with contextlib.ExitStack() as stack:
        lock = None if args.dry_run else stack.enter_context(locked(real))
        raw = _read_bytes(real)
        if raw is None:
            return None
        bom, text = _decode(raw, real)
        if not text.strip(" \t\r\n"):
            return None
        note, legacy = _note(lock, real) if lock is not None else ({}, False)
        events = note.get("events", [])
        edited = uninstall_text(
            text,
            harness,
            args.program,
            where=str(target),
            hooks_added=note.get("hooks") is True,
            events_added=[e for e in events if isinstance(e, str)] if isinstance(events, list) else [],
        )
        if lock is None:
            sys.stdout.write(edited.text)
            return edited.count
        if not edited.count:
            return 0
        bare = edited.text == skeleton(harness, layout_of(text))
        empty = note.get("empty")
        if isinstance(empty, str):
            # (an earlier version's note is a file beside the target that a repository
            # can ship: only a blank file's bytes are ever put back)
            try:
                if bytes.fromhex(empty).removeprefix(_BOM).strip(b" \t\r\n"):
                    empty = None
            except ValueError:
                empty = None
        if bare and note.get("created") is True:
            remove_file(real)
        elif bare and isinstance(empty, str):
            write_atomic(real, bytes.fromhex(empty))
        else:
            write_atomic(real, bom + edited.text.encode())
        _set_note(lock, {}, real, legacy)
    return edited.count
