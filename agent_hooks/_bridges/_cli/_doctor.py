"""``agent-hooks doctor``: prove that every installed guard runs, and blocks.

``doctor [--harness NAME] [--project-dir DIR] [--home DIR] [--json] [--timeout S]
[--trust-project-hooks]`` looks at every harness ``install`` knows (:data:`~._install.HARNESSES`) that is on
this machine (its executable on PATH, or a hook file of it in the project or the user
scope), and for each entry that calls agent-hooks (:func:`~._install.find_entries`;
Cline's scripts by their ``exec`` line):

* **the command as the harness runs it**: through its shell (``sh -c``; ``bash -c``
  for Copilot's ``bash`` key; Cline's script itself), in the project directory, with
  this PATH and the harness's ``$..._PROJECT_DIR`` set; the program as PATH resolves
  it (:func:`~._install.resolves`), and whether that is a virtualenv's ``bin`` (a
  harness started from another shell may not have it on PATH);
* **a real run** of exactly that command, bounded by ``--timeout`` (default the
  entry's own timeout, at most 30 seconds), on a synthetic payload of the harness's
  dialect (:func:`agent_hooks.testing.payload`) that a guard should block: a ``Bash``
  call of ``rm -rf /`` on tool events, that prompt on prompt events; the default
  payload on other events;
* **the answer read as the harness reads it**: exit 2 is a block (Cline reads no exit
  status); exit 0 is the JSON answer decoded in the harness's dialect
  (:func:`~agent_hooks._wire._codec.decode_output`; Windsurf reads the exit status
  only); a command that is not found (126, 127), times out, exits otherwise, dies of a
  signal or answers unreadably has *failed*;
* **the trust state** of the ``--config`` files it names (an untrusted file is skipped
  by the run: the guard does not run), and whether the entry carries the harness's
  fail-closed switch (:attr:`~._install.Harness.fail_closed`).

Doctor runs none of the repository's own code unless the user passes
``--trust-project-hooks`` (then each entry runs exactly as the harness runs it). It runs
an entry only when its program is an ``agent-hooks`` executable, ``<python> [flags]
-m agent_hooks`` or the quick client ``<python> -I [flags] <package>/_bridges/_daemon/_quick_run.py``
(no launcher, no shell), found (as the shell started in the project
finds it: relative PATH entries from the project) outside the project directory, links
resolved; a ``python -m agent_hooks`` entry gets ``-P`` (``-I`` before Python 3.11) and
is not run at all when the project holds an ``agent_hooks`` package or module (the
harness would import that one). It runs the words it checked, quoted, the program by
its absolute path, without relative PYTHONPATH entries. In a project file, the entry's
``--trust-project-hooks``, ``--honor-hel-trust-file``, ``--trust-store``, ``--home`` and
``--project-dir`` (which decide what loads without the user's grant) are dropped from
the run and the report says so: its ``--config`` files then load only if ``agent-hooks
trust`` trusted them. Any other entry is ``not-run``, with the reason. A harness
executable found in the project or through a relative PATH entry is not asked its
version.

Also the resident server (``agent-hooks daemon status``) and the harness's version
against :data:`TESTED_VERSIONS`.

Each entry gets a verdict: ``ok`` (blocked, or ran and answered on a non-guard
event); ``warning`` (a guard event answered *allow* to the synthetic block payload:
the configured hooks may legitimately allow it, so this does not fail; or a program
found through a virtualenv's ``bin``); ``blocks-on-failure`` (the command failed,
but the harness blocks on a failed hook: its switch is on the entry, or it blocks by
itself, as Copilot's ``preToolUse`` does; fix it anyway, every action is blocked);
``fails-open`` (the command failed and the harness lets the action go ahead);
``not-run`` (the program is not found, a ``--config`` file is untrusted, or doctor
will not run the entry: see above).
Exit status 1 when any entry is ``fails-open`` or ``not-run``, or a hook file cannot
be read; else 0. ``--json`` prints the same report as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..._base._files import within
from ..._config._harness import HARNESSES as ROWS
from ._install import (
    HARNESSES,
    Harness,
    _script,
    find_entries,
    hook_files,
    is_ours,
    is_quick_client,
)

__all__ = ["EXECUTABLES", "TESTED_VERSIONS", "register"]

TESTED_VERSIONS: Mapping[str, str] = {
    h.name: h.tested_version for h in ROWS.values() if h.tested_version is not None
}
"""The release of each harness agent_hooks is checked against (docs/events.md,
"Supported harness versions"); a harness not listed is checked against its docs only."""

EXECUTABLES: Mapping[str, tuple[str, ...]] = {
    h.name: h.executables for h in ROWS.values() if h.executables
}
"""The names a harness's executable goes by on PATH, first match wins."""

_BLOCKS_ON_FAILURE: Mapping[str, frozenset[str]] = {"copilot": frozenset({"preToolUse"})}
"""Native events a harness blocks by itself when the hook cannot run or crashes
(:attr:`~._install.Harness.fails_open` says so for Copilot)."""

_GUARD_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit"})
_BLOCK_PROMPT = "rm -rf /"
_MAX_TIMEOUT = 30.0
_VERSION_RE = re.compile(r"\d+\.\d+(?:\.\d+)?")
_VAR_RE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)")
_KEEP = 2000  # characters of a command's output kept in the report


def register(subparsers: Any) -> None:
    """Add ``doctor`` to the top-level parser."""
    helptext = "check that every installed agent-hooks entry runs and blocks, in every harness"
    p = subparsers.add_parser("doctor", help=helptext, description=helptext + ".")
    p.add_argument("--harness", metavar="NAME", help="only this harness (default: every one found)")
    p.add_argument("--project-dir", metavar="DIR", help="the project root (default: .)")
    p.add_argument("--home", metavar="DIR", help="the home directory (default: ~)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument(
        "--trust-project-hooks",
        action="store_true",
        help="trust this project: run its entries as the harness does, with their own "
        "--trust-project-hooks and a program the repository ships (default: doctor runs "
        "none of the repository's own code)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help=f"bound each run (default: the entry's timeout, at most {_MAX_TIMEOUT:g})",
    )
    p.set_defaults(func=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    from ..._base._version import VERSION
    from ..._config._harness import harness_named

    names = list(HARNESSES)
    if args.harness:
        row = harness_named(args.harness)
        name = row.name if row is not None else args.harness
        if name not in HARNESSES:
            print(
                f"agent-hooks doctor: unknown harness {args.harness!r}; known: "
                f"{', '.join(HARNESSES)}",
                file=sys.stderr,
            )
            return 1
        names = [name]
    if args.timeout is not None and not args.timeout > 0:
        print("agent-hooks doctor: --timeout needs a positive number", file=sys.stderr)
        return 1
    project = os.path.abspath(args.project_dir or ".")
    harnesses = []
    for name in names:
        report = _harness_report(HARNESSES[name], project, args, found_only=not args.harness)
        if report is not None:
            harnesses.append(report)
    entries = [e for h in harnesses for f in h["files"] for e in f["entries"]]
    broken_files = [f for h in harnesses for f in h["files"] if f["error"]]
    failing = [e for e in entries if e["verdict"] in ("fails-open", "not-run")]
    managed = _managed_state(project, args)
    # (a managed file that does not load is a policy that is not enforced)
    unenforced = [f for f in managed["files"] if f["status"] != "loaded"]
    report = {
        "ok": not failing and not broken_files and not unenforced,
        "agent_hooks_version": VERSION,
        "project_dir": project,
        "server": _server_state(),
        "managed": managed,
        "harnesses": harnesses,
        "summary": {
            verdict: sum(1 for e in entries if e["verdict"] == verdict)
            for verdict in ("ok", "warning", "blocks-on-failure", "fails-open", "not-run")
        },
    }
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print_report(report)
    return 0 if report["ok"] else 1


def _harness_report(
    harness: Harness, project: str, args: argparse.Namespace, *, found_only: bool
) -> dict[str, Any] | None:
    exe = next((w for n in EXECUTABLES.get(harness.name, ()) if (w := shutil.which(n))), None)
    files = []
    for scope, path in hook_files(harness, project, args.home):
        files.append(_file_report(harness, scope, path, project, args))
    present = [f for f in files if f["exists"]]
    if found_only and exe is None and not present:
        return None
    notes = []
    shipped = exe is not None and (not os.path.isabs(exe) or _inside(exe, project))
    version = _version_of(exe) if exe and not shipped else None
    tested = TESTED_VERSIONS.get(harness.name)
    if shipped:
        notes.append(
            f"{harness.name}'s executable on PATH is {exe}, in the project or found through "
            "a relative PATH entry: doctor does not run it to read its version"
        )
    elif exe is None:
        notes.append(f"{harness.name}'s executable is not on PATH")
    elif tested is None:
        notes.append(f"{harness.name} is checked against its documentation only, no release")
    elif version is None:
        notes.append(f"{exe} --version printed no version; tested: {tested}")
    elif _key(version) > _key(tested):
        notes.append(
            f"{harness.name} {version} is newer than the release tested ({tested}): events "
            "and fields added since pass through untyped"
        )
    elif _key(version) < _key(tested):
        notes.append(f"{harness.name} {version} is older than the release tested ({tested})")
    for other in harness.also_runs:
        if any(f["entries"] for f in files) and _has_entries(HARNESSES[other], project, args):
            notes.append(
                f"{harness.name} also runs {other}'s hook file, which calls agent-hooks too: "
                "the guard runs twice per call (agent-hooks install --one-entry writes one)"
            )
    if not any(f["entries"] for f in files):
        notes.append("no entry calls agent-hooks (agent-hooks install --harness " + harness.name + ")")
    return {
        "name": harness.name,
        "executable": exe,
        "version": version,
        "tested_version": tested,
        "fail_closed_switch": dict(harness.fail_closed) or None,
        "notes": notes,
        "files": files,
    }


def _has_entries(harness: Harness, project: str, args: argparse.Namespace) -> bool:
    """A hook file of ``harness`` (project or user scope) holds entries that call
    agent-hooks (an unreadable file holds none)."""
    from ._jsonedit import JsonShapeError

    for _scope, path in hook_files(harness, project, args.home):
        try:
            text = path.read_bytes().decode("utf-8-sig")
            if find_entries(text, harness, where=str(path)):
                return True
        except (JsonShapeError, OSError, UnicodeDecodeError):
            continue
    return False


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def _version_of(exe: str) -> str | None:
    try:
        done = subprocess.run(
            [exe, "--version"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=15,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    found = _VERSION_RE.search(done.stdout.decode(errors="replace") or done.stderr.decode(errors="replace"))
    return found.group(0) if found else None


_USER_OR_SYSTEM = frozenset({"user", "managed"})
"""Scopes whose files a repository cannot ship; every other file is treated as the
project's (its own grants of trust are not honoured without ``--trust-project-hooks``)."""


def _file_report(
    harness: Harness, scope: str, path: Path, project: str, args: argparse.Namespace
) -> dict[str, Any]:
    from ._jsonedit import JsonShapeError

    out: dict[str, Any] = {
        "scope": scope,
        "path": str(path),
        "exists": path.exists(),
        "error": None,
        "entries": [],
    }
    if not out["exists"]:
        return out
    found: list[tuple[str, Any, str]] = []  # (native event, entry, command)
    try:
        if harness.per_event_files:
            found = _scripts(path, harness)
        else:
            text = path.read_bytes().decode("utf-8-sig")
            for native, entries in find_entries(text, harness, where=str(path)).items():
                for entry in entries:
                    found += [(native, _item(entry, c), c) for c in harness.commands(entry)]
    except (JsonShapeError, OSError, UnicodeDecodeError) as exc:
        out["error"] = f"cannot be read: {exc}"
        return out
    for native, entry, command in found:
        out["entries"].append(_entry_report(harness, scope, native, entry, command, project, args))
    return out


def _item(entry: Any, command: str) -> Any:
    """The part of ``entry`` that runs ``command`` and carries its timeout and switch
    (the item of a group in Claude Code's shape; else the entry)."""
    hooks = entry.get("hooks") if isinstance(entry, Mapping) else None
    if isinstance(hooks, list):
        for item in hooks:
            if isinstance(item, Mapping) and item.get("command") == command:
                return item
    return entry


def _scripts(directory: Path, harness: Harness) -> list[tuple[str, Any, str]]:
    """Cline: the scripts in ``directory`` whose ``exec`` line calls agent-hooks; the
    command the harness runs is the script itself."""
    found: list[tuple[str, Any, str]] = []
    if not directory.is_dir():
        return found
    for path in sorted(directory.iterdir()):
        if path.name.startswith(".") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for line in text.splitlines():
            if line.startswith("exec ") and is_ours(line[5:], harness):
                found.append((path.name, {"script": str(path), "exec": line[5:]}, line[5:]))
    return found


def _canonical(harness: Harness, native: str) -> str | None:
    from ..._events._names import HookEvent

    for event in HookEvent:
        if native in harness.events(event.value):
            return event.value
    return None


def _expand(word: str, env: Mapping[str, str]) -> str:
    def one(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(3)
        value = env.get(name, "")
        return value if value or m.group(2) is None else m.group(2)

    return _VAR_RE.sub(one, word)


def _entry_report(
    harness: Harness,
    scope: str,
    native: str,
    entry: Any,
    command: str,
    project: str,
    args: argparse.Namespace,
) -> dict[str, Any]:
    from ..._wire._dialects import get_dialect

    dialect = get_dialect(harness.name)
    event = _canonical(harness, native)
    guard = event in _GUARD_EVENTS
    trusted = bool(getattr(args, "trust_project_hooks", False))
    env = dict(os.environ)
    if harness.project_dir_var:
        env[harness.project_dir_var] = project
    words = [_expand(w, env) for w in shlex.split(command)]
    prog = _program_of(words)
    rest = words[len(prog) :]
    dropped: list[str] = []
    if scope not in _USER_OR_SYSTEM and not trusted:  # (a file a repository can ship)
        rest, dropped = _without_grants(rest)
    where = _find(prog[0], env, project) if prog else None
    switch = (
        all(entry.get(k) == v for k, v in harness.fail_closed.items())
        if harness.fail_closed and isinstance(entry, Mapping)
        else None
    )
    report: dict[str, Any] = {
        "event": native,
        "canonical_event": event,
        "command": command,
        "shell": _shell(harness, entry),
        "cwd": project,
        "program": prog[0] if prog else None,
        "resolved": where,
        "virtualenv_bin": bool(where and _in_venv_bin(where) and os.sep not in prog[0]),
        "fail_closed": switch,
        "configs": _configs(rest, project),
        "ran": None,
        "payload": None,
        "run": None,
        "answer": None,
        "verdict": "ok",
        "problems": [],
        "notes": [],
    }
    problems: list[str] = report["problems"]
    notes: list[str] = report["notes"]
    if report["virtualenv_bin"]:
        notes.append(
            f"{prog[0]} resolves to {where}, a virtualenv's bin: a harness started without "
            "that virtualenv on PATH does not find it (agent-hooks install --scope user "
            "writes the absolute path)"
        )
    if dropped:
        notes.append(
            f"doctor ran it without {', '.join(dropped)}: a project's own hook file does not "
            "decide what doctor trusts, so its --config files load only if agent-hooks trust "
            "trusted them (agent-hooks doctor --trust-project-hooks honours the entry's own)"
        )
    untrusted = [c["path"] for c in report["configs"] if c["status"] == "untrusted"]
    if untrusted and "--trust-project-hooks" in dropped:
        problems.append(
            f"not run with the entry's own --trust-project-hooks, so the run skips "
            f"{', '.join(untrusted)}: doctor honours it only when you pass agent-hooks doctor "
            "--trust-project-hooks (or trust the files: agent-hooks trust "
            + " ".join(f"--config {shlex.quote(p)}" for p in untrusted)
            + ")"
        )
    elif untrusted:
        problems.append(
            f"not trusted, so the run skips it: {', '.join(untrusted)} (agent-hooks trust "
            + " ".join(f"--config {shlex.quote(p)}" for p in untrusted)
            + ")"
        )
    missing = [c["path"] for c in report["configs"] if c["status"] == "missing"]
    if missing:
        problems.append(f"no such --config file: {', '.join(missing)}")
    data = _payload(harness, event, native, project)
    report["payload"] = data
    timeout = args.timeout or min(_entry_timeout(harness, entry, dialect.timeout_unit), _MAX_TIMEOUT)
    script = entry.get("script") if harness.per_event_files and isinstance(entry, Mapping) else None
    unsafe = _not_plain(command, script)
    shell = report["shell"] or ["sh", "-c"]
    found_shell = _find(shell[0], env, project)
    run_shell = [found_shell or shell[0], *shell[1:]]
    answer = None
    if unsafe:
        # (a repository's file can append anything to an agent-hooks call: doctor, run in a
        # fresh clone, must not run it)
        problems.append(f"{unsafe}: not what install writes; doctor does not run it")
    elif trusted:
        # (the user trusts this project: run exactly what the harness runs)
        line = script or command
        report["ran"] = line
        run = _run(run_shell if report["shell"] else [], line, data, project, env, timeout)
        report["run"] = run
        answer, why = _read_answer(harness, dialect, event, native, run)
        if why:
            notes.append(why)
    else:
        program, refusal = _trusted_program(prog, where, project)
        if refusal is None and found_shell is not None and _inside(found_shell, project):
            refusal = f"the shell {shell[0]} is {found_shell}, in the project"
        if refusal is not None:
            problems.append(
                f"{refusal}: doctor won't run a program the repository ships (agent-hooks "
                "doctor --trust-project-hooks runs it, if you trust this project)"
            )
        elif program is None:
            answer = "not-found"
        else:
            # (the words doctor vetted, quoted: the shell expands and looks up nothing else)
            line = shlex.join([*program, *rest])
            report["ran"] = line
            if len(program) > len(prog):
                notes.append(
                    f"doctor ran it with {program[1]}, so the project folder is not on Python's "
                    "module path; the harness runs it without, and there a module the "
                    "repository ships under a name agent_hooks imports would be imported"
                )
            safe_path = _absolute_entries(env.get("PYTHONPATH"))
            if safe_path != env.get("PYTHONPATH"):
                notes.append(
                    "doctor ran it without the relative PYTHONPATH entries (they name folders "
                    "of the project)"
                )
                env = {**env, "PYTHONPATH": safe_path or ""}
            run = _run(run_shell, line, data, project, env, timeout)
            report["run"] = run
            answer, why = _read_answer(harness, dialect, event, native, run)
            if why:
                notes.append(why)
    report["answer"] = answer
    blocks = bool(switch) or native in _BLOCKS_ON_FAILURE.get(harness.name, ())
    if answer == "not-found":
        problems.append(
            f"{prog[0] if prog else command!r} is not found: the harness cannot start the "
            "command (agent-hooks install --scope user writes an absolute path; or put "
            "agent-hooks on the harness's PATH)"
        )
    if problems:
        report["verdict"] = "not-run"
    elif answer == "failed" and blocks:
        report["verdict"] = "blocks-on-failure"
        notes.append(
            "the command failed; the harness blocks on a failed hook, so every such action "
            "is blocked until it is fixed"
        )
    elif answer == "failed":
        report["verdict"] = "fails-open"
        problems.append(
            "the command failed and the harness lets the action go ahead"
            + (
                f" (its switch {json.dumps(dict(harness.fail_closed))} is not on this entry: "
                f"agent-hooks install --harness {harness.name} without --fail-open)"
                if harness.fail_closed
                else f" ({harness.name} has no fail-closed switch: {harness.fails_open})"
            )
        )
    elif guard and answer == "allow":
        report["verdict"] = "warning"
        notes.append(
            "the guard answered allow to a synthetic block payload "
            f"({_BLOCK_PROMPT!r}): no configured hook blocks it (this may be intended)"
        )
    elif report["virtualenv_bin"]:
        report["verdict"] = "warning"
    return report


_GRANTS: Mapping[str, bool] = {
    "--trust-project-hooks": False,
    "--honor-hel-trust-file": False,
    "--trust-store": True,
    "--home": True,
    "--project-dir": True,
}
"""``run``'s options that decide which project files load without a grant of the user's
(``--home`` and ``--project-dir`` decide what counts as the project), and whether each
takes a value."""


def _without_grants(rest: list[str]) -> tuple[list[str], list[str]]:
    """``rest`` (``run``'s arguments) without the options of :data:`_GRANTS` (``--opt
    value`` or ``--opt=value``; ``run`` takes no abbreviation), and those options'
    names."""
    kept: list[str] = []
    dropped: list[str] = []
    words = iter(rest)
    for word in words:
        option, eq, _ = word.partition("=")
        if option not in _GRANTS:
            kept.append(word)
            continue
        if option not in dropped:
            dropped.append(option)
        if _GRANTS[option] and not eq:
            next(words, None)
    return kept, dropped


def _trusted_program(
    prog: list[str], where: str | None, project: str
) -> tuple[list[str] | None, str | None]:
    """(the program words doctor may run, why it may not): an ``agent-hooks`` executable,
    or ``<python> [flags] -m agent_hooks`` with ``-P`` (``-I`` before Python 3.11) after
    the interpreter, found outside the project (``where``). (None, None): not found."""
    base = os.path.basename(prog[0]) if prog else ""
    if len(prog) >= 2 and is_quick_client(prog[-1]):
        return _trusted_quick_client(prog, where, project)
    module = (
        len(prog) >= 3
        and prog[-2:] == ["-m", "agent_hooks"]
        and _PYTHON.fullmatch(base) is not None
        and all(_PYTHON_FLAGS.fullmatch(f) for f in prog[1:-2])
    )
    if not module and (len(prog) != 1 or base not in ("agent-hooks", "agent-hooks.exe")):
        return None, (
            f"{shlex.join(prog)} is neither an agent-hooks executable nor <python> -m "
            "agent_hooks, the only programs doctor runs (a launcher or a shell runs what "
            "its words, or the project folder's own settings, say)"
        )
    if where is None:
        return None, None
    if _inside(where, project):
        return None, f"{prog[0]} is {where}, in the project"
    if not module:
        return [where], None
    shipped = _shipped_module(project)
    if shipped is not None:
        return None, (
            f"{shlex.join(prog)}, started in the project folder, imports {shipped} (the "
            "project's) instead of the installed agent_hooks"
        )
    if any({"I", "P"} & set(flag[1:]) for flag in prog[1:-2]):
        return [where, *prog[1:]], None
    return [where, _no_cwd_flag(where), *prog[1:]], None


def _trusted_quick_client(
    prog: list[str], where: str | None, project: str
) -> tuple[list[str] | None, str | None]:
    """As :func:`_trusted_program` for the quick client ``<python> -I [flags]
    <package>/_bridges/_daemon/_quick_run.py``: an interpreter and a client file found
    outside the project, with ``-I`` (neither the project folder nor ``PYTHONPATH`` on
    the module path)."""
    script, flags = prog[-1], prog[1:-1]
    if _PYTHON.fullmatch(os.path.basename(prog[0])) is None or not all(
        _PYTHON_FLAGS.fullmatch(f) for f in flags
    ):
        return None, f"{shlex.join(prog)} is not <python> [flags] <agent_hooks' quick client>"
    if not any("I" in f[1:] for f in flags):
        return None, f"{shlex.join(prog)} runs the quick client without -I"
    if where is None:
        return None, None
    for path in (where, script):
        if _inside(path, project):
            return None, f"{path} is in the project"
    if not os.path.isfile(script):
        return None, None
    return [where, *flags, script], None


def _absolute_entries(value: str | None) -> str | None:
    """A PATH-style ``value`` without its relative and empty entries (which name the
    working directory, the project, or folders in it)."""
    if value is None:
        return None
    return os.pathsep.join(p for p in value.split(os.pathsep) if os.path.isabs(p))


_PYTHON = re.compile(r"(?:python|pypy)(?:\d+(?:\.\d+)*t?)?(?:\.exe)?")
_PYTHON_FLAGS = re.compile(r"-[BEIOPSqsu]+")  # (flags with no value: -X, -W, -c take one)
_SHIPPED = re.compile(r"agent_hooks(?:\.pyw?|\.pyc|(?:\.[\w-]+)?\.(?:so|pyd))?")


def _shipped_module(project: str) -> str | None:
    """The ``agent_hooks`` package or module at the top of ``project`` (what ``python -m
    agent_hooks`` started there imports first), or None."""
    try:
        names = sorted(os.listdir(project))
    except OSError:
        return None
    return next((os.path.join(project, n) for n in names if _SHIPPED.fullmatch(n)), None)


def _no_cwd_flag(python: str) -> str:
    """``-P`` when ``python`` has it (3.11+: the working directory is not put on the module
    path, while PYTHONPATH and the user site still count, as in the harness's run); else
    ``-I`` (isolated mode: none of them)."""
    try:
        done = subprocess.run(
            [python, "-I", "-c", "import sys; print(sys.version_info >= (3, 11))"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=15,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "-I"
    return "-P" if done.stdout.strip() == b"True" else "-I"


def _find(name: str, env: Mapping[str, str], cwd: str) -> str | None:
    """The file the shell started in ``cwd`` with ``env`` runs for ``name``: a name with a
    slash from ``cwd``; else the first PATH entry (a relative one, or an empty one, from
    ``cwd``) holding an executable file of that name. Its directories are resolved (links,
    ``..``), its last part is kept as written (a virtualenv's ``python`` link), or None."""
    if not name:
        return None
    if os.sep in name:
        candidates = [os.path.join(cwd, name)]
    else:
        path = env.get("PATH", os.defpath)
        candidates = [os.path.join(cwd, d, name) for d in path.split(os.pathsep)]
    for raw in candidates:
        found = os.path.join(os.path.realpath(os.path.dirname(raw)), os.path.basename(raw))
        if os.path.isfile(found) and os.access(found, os.X_OK):
            return found
    return None


def _inside(path: str, project: str) -> bool:
    """``path`` (as written, or with its links resolved) is ``project`` or lies below it
    (as written, or resolved)."""
    roots = {os.path.abspath(project), os.path.realpath(project)}
    return any(within(p, r) for p in {os.path.abspath(path), os.path.realpath(path)} for r in roots)


def _not_plain(command: str, script: str | None) -> str | None:
    """Why ``command`` is more than one plain call (shell operators, command
    substitution, several lines), or why the ``script`` that holds it (Cline) is more
    than the script install writes for it; None: it is plain."""
    if script is not None:
        try:
            text = Path(script).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return f"{script} cannot be read"
        if text != _script(command):
            return f"{script} holds more than its exec line"
    if any(c in command for c in "\n\r`") or "$(" in command:
        return "the command runs other commands (a line break, `...` or $(...))"
    lex = shlex.shlex(command, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    try:
        tokens = list(lex)
    except ValueError:
        return "the command's quotes do not close"
    if any(t and all(c in "();<>|&" for c in t) for t in tokens):
        return "the command holds shell operators (; | & < > ( ))"
    return None


def _program_of(words: list[str]) -> list[str]:
    """The program words before ``run`` (``agent-hooks``; ``python -m agent_hooks``)."""
    return words[: words.index("run")] if "run" in words else words[:1]


def _in_venv_bin(path: str) -> bool:
    return (Path(path).parent.parent / "pyvenv.cfg").is_file()


def _shell(harness: Harness, entry: Any) -> list[str]:
    if harness.per_event_files:
        return []
    if isinstance(entry, Mapping) and harness.name == "copilot":
        return ["bash", "-c"]
    return ["sh", "-c"]


def _entry_timeout(harness: Harness, entry: Any, unit: float) -> float:
    if isinstance(entry, Mapping):
        for key in ("timeout", "timeoutSec"):
            value = entry.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
                return float(value) * (1.0 if key == "timeoutSec" else unit)
    return _MAX_TIMEOUT


def _configs(rest: list[str], project: str) -> list[dict[str, Any]]:
    """The trust state of the ``--config`` files the command names, as its run loads
    them (its arguments after the program, ``rest``, parsed by ``run``'s parser)."""
    import contextlib
    import io

    from . import build_parser
    from ._run import load_hooks, quiet_diagnostics_log

    try:
        with contextlib.redirect_stderr(io.StringIO()):  # (argparse's usage is no answer here)
            args = build_parser("run").parse_args(rest)
    except SystemExit:
        return [{"path": " ".join(rest), "status": "invalid-command"}]
    args.config = [os.path.join(project, c) for c in args.config]
    out = []
    try:
        with quiet_diagnostics_log():
            config, missing = load_hooks(args, args.project_dir or project)
    except ValueError as exc:
        return [{"path": c, "status": f"error: {exc}"} for c in args.config]
    for f in config.files:
        out.append({"path": f.path, "status": str(f.status)})
    out += [{"path": m, "status": "missing"} for m in missing]
    return out


def _payload(harness: Harness, event: str | None, native: str, project: str) -> dict[str, Any] | None:
    from .._testing import payload

    if event is None:
        return None
    fields: dict[str, Any] = {}
    if event in ("PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure"):
        fields = {"tool_name": "Bash", "command": _BLOCK_PROMPT}
    elif event == "UserPromptSubmit":
        fields = {"prompt": _BLOCK_PROMPT}
    try:
        return payload(event, dialect=harness.name, cwd=project, **fields)
    except Exception:  # an event the payload builder cannot make: run the default
        try:
            return payload(event, dialect=harness.name, cwd=project)
        except Exception:
            return None


def _run(
    shell: Sequence[str],
    command: str,
    data: dict[str, Any] | None,
    cwd: str,
    env: Mapping[str, str],
    timeout: float,
) -> dict[str, Any]:
    argv = [*shell, command] if shell else [command]
    stdin = json.dumps(data).encode() if data is not None else b""
    try:
        with subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,
        ) as proc:
            try:
                out, err = proc.communicate(stdin, timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                out, err = proc.communicate()
                return _run_result(None, out, err, timed_out=True, timeout=timeout)
            return _run_result(proc.returncode, out, err, timeout=timeout)
    except OSError as exc:
        return {"exit_code": None, "error": str(exc), "stdout": "", "stderr": "", "timed_out": False}


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    import signal

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        proc.kill()


def _run_result(
    code: int | None, out: bytes, err: bytes, *, timed_out: bool = False, timeout: float
) -> dict[str, Any]:
    return {
        "exit_code": code,
        "timed_out": timed_out,
        "timeout": timeout,
        "error": None,
        "stdout": out.decode(errors="replace")[:_KEEP],
        "stderr": err.decode(errors="replace")[:_KEEP],
    }


def _read_answer(
    harness: Harness, dialect: Any, event: str | None, native: str, run: Mapping[str, Any]
) -> tuple[str, str | None]:
    """(``block`` | ``ask`` | ``allow`` | ``failed`` | ``not-found``, why), read the way
    the harness reads the command's exit status and stdout."""
    from ..._handlers._nodes import HandlerResult
    from ..._wire._codec import decode_output
    from .._payload import handler_verdict

    code = run["exit_code"]
    if run.get("error"):
        return "not-found", f"cannot start: {run['error']}"
    if run["timed_out"]:
        return "failed", f"timed out after {run['timeout']:g}s"
    if code in (126, 127):
        return "not-found", f"exit {code}: {run['stderr'].strip()[:300]}"
    if code is None or code < 0:
        return "failed", f"killed by signal {-code if code else '?'}"
    exit_only = dialect.native is not None and dialect.native.exit_status_only
    if code == 2 and not harness.per_event_files:
        return "block", None
    if code != 0 and not harness.per_event_files:
        return "failed", f"exit {code} (read as a failed hook): {run['stderr'].strip()[:300]}"
    if exit_only or event is None:
        return "allow", None
    decoded = decode_output(event, run["stdout"], dialect=dialect)
    if decoded.unreadable is not None:
        return "failed", f"the answer cannot be read: {decoded.unreadable}"
    if decoded.output is None:
        return "allow", None
    verdict, _ = handler_verdict(HandlerResult(output=decoded.output))
    if verdict in ("deny", "block", "stop"):
        return "block", None
    if verdict == "ask":
        return "ask", None
    return "allow", None


def _managed_state(project: str, args: argparse.Namespace) -> dict[str, Any]:
    """The managed hook files of this machine (agent_hooks's own and every harness's),
    whether each loads or is refused and why, and the managed policies in effect
    (:func:`~agent_hooks._config._managed.managed_report`). Loading runs nothing and
    trusts no project file."""
    from ..._config._discover import discover
    from ..._config._managed import managed_report
    from ._programs import checking_kinds

    return managed_report(discover(project, home=args.home, trust=False, kinds=checking_kinds()))


def _server_state() -> dict[str, Any]:
    from .._daemon._protocol import DISABLE_ENV
    from ._daemon import _call

    if os.environ.get(DISABLE_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        return {"state": "off", "why": f"{DISABLE_ENV} is set: run answers in-process"}
    found = _call(b"T")
    if found is None:
        return {"state": "not running", "why": "the next agent-hooks run starts it"}
    from ..._base._version import VERSION

    state: dict[str, Any] = {"state": "running", **found}
    if found.get("version") not in (None, VERSION):
        state["why"] = f"it runs agent-hooks {found.get('version')}, this is {VERSION}"
    return state


_MARKS = {
    "ok": "ok",
    "warning": "WARN",
    "blocks-on-failure": "BROKEN (blocks)",
    "fails-open": "FAILS OPEN",
    "not-run": "NOT RUN",
}


def _print_report(report: Mapping[str, Any]) -> None:
    write = sys.stdout.write
    server = report["server"]
    write(f"agent-hooks {report['agent_hooks_version']}; project {report['project_dir']}\n")
    write(f"resident server: {server['state']}")
    if server.get("version"):
        write(f" (agent-hooks {server['version']}, pid {server.get('pid')})")
    if server.get("why"):
        write(f": {server['why']}")
    write("\n")
    managed = report.get("managed") or {"files": [], "policies": []}
    for f in managed["files"]:
        state = "REFUSED" if f["status"] == "untrusted" else f["status"]
        write(f"managed file ({state}): {f['path']} ({f['handlers']} handler(s))\n")
        if f.get("why"):
            write(f"  PROBLEM: {f['why']}\n")
    for p in managed["policies"]:
        write(f"managed policy in effect: {p['policy']}\n")
    if not report["harnesses"]:
        write("no harness found (no executable on PATH, no hook file)\n")
    for h in report["harnesses"]:
        version = h["version"] or "?"
        where = h["executable"] or "not on PATH"
        write(f"\n{h['name']} {version} ({where}; tested {h['tested_version'] or '-'})\n")
        for note in h["notes"]:
            write(f"  note: {note}\n")
        for f in h["files"]:
            if not f["exists"]:
                continue
            write(f"  {f['scope']} file {f['path']}\n")
            if f["error"]:
                write(f"    PROBLEM: {f['error']}\n")
            for e in f["entries"]:
                switch = {True: "on", False: "off", None: "none"}[e["fail_closed"]]
                ran = (
                    f"answered {e['answer']} (exit {e['run']['exit_code']}; "
                    if e["run"]
                    else f"{'not found' if e['answer'] == 'not-found' else 'not run'} ("
                )
                write(
                    f"    [{_MARKS[e['verdict']]}] {e['event']}: {ran}fail-closed switch {switch}; "
                    f"{e['program']} -> {e['resolved'] or 'not found'})\n"
                )
                for p in e["problems"]:
                    write(f"      PROBLEM: {p}\n")
                for n in e["notes"]:
                    write(f"      note: {n}\n")
    s = report["summary"]
    write(
        "\n"
        + ", ".join(f"{n} {k}" for k, n in s.items())
        + (": every installed guard runs\n" if report["ok"] else ": fix the PROBLEM lines above\n")
    )

