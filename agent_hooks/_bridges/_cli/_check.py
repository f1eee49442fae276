"""``agent-hooks check`` and ``agent-hooks trust``.

``check`` lists, per event, the handlers that would run (source, matcher, type,
timeout), like Claude Code's ``/hooks`` menu, then the files it read (with their
trust status and handler counts) and every diagnostic; it exits 1 when any
diagnostic is a configuration error. Files that did not load (untrusted, switched
off) are parsed and validated too, without running anything: their mistakes count.
Command hooks whose program is missing or not executable get a warning.

``trust`` grants persistent trust to the project's hook files as they are now; it
refuses (and grants nothing) when one of them cannot be read or parsed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from ._run import NOT_LOADED, add_hel_trust_option, quiet_diagnostics_log

if TYPE_CHECKING:
    from ..._config._snapshot import LoadedConfig
    from ..._config._trust import TrustPolicy
    from ..._dispatch._compiled import CompiledNode, CompiledRegistry

__all__ = ["build_report", "register", "render"]

_TRUST_WORDS = {
    "trusted": "trusted",
    "untrusted": "UNTRUSTED",
    "not-needed": "no trust needed",
    "unknown": "trust unknown",
    "hel-trust-file": "trusted by .hel/hooks-trust.json",
}


def register(subparsers: Any) -> None:
    """Add ``check`` and ``trust`` to the top-level parser."""
    check = subparsers.add_parser(
        "check",
        help="show the hooks that would run and every configuration problem",
        description="Discover (or read --config) every hook source, print per event the handlers "
        "that would run, the files read with their status, trust and handler counts, and every "
        "diagnostic; exit 1 on configuration errors. Files that did not load (untrusted, "
        "switched off) are parsed and validated too, without running anything; command hooks "
        "whose program is missing or not executable get a warning.",
    )
    check.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="PATH",
        help="read this hook file instead of discovering (repeatable; format detected)",
    )
    check.add_argument("--project-dir", metavar="DIR", help="the project root (default: .)")
    check.add_argument("--home", metavar="DIR", help="the home directory (default: ~)")
    check.add_argument("--managed-policy", metavar="PATH", help="Claude Code managed settings file")
    check.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="DIR",
        help="an enabled plugin's root (repeatable)",
    )
    check.add_argument("--docker-agent", metavar="PATH", help="a Docker Agent agent YAML file")
    check.add_argument(
        "--agent", metavar="NAME", help="which agent of --docker-agent (default: root)"
    )
    check.add_argument(
        "--format", metavar="FORMAT", help="the format of every --config file (default: detected)"
    )
    _trust_options(check)
    check.add_argument(
        "--trust-project-hooks",
        action="store_true",
        help="trust every project hook file for this run (headless)",
    )
    add_hel_trust_option(check)
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.set_defaults(func=run_check)

    trust = subparsers.add_parser(
        "trust",
        help="trust the project's hook files as they are now",
        description="Grant persistent trust to the current content of the project's hook files "
        "(every project file of every harness that discover() reads, such as "
        ".claude/settings*.json, .cursor/hooks.json or .github/hooks/*.json, and --config "
        "files). A --config file is trusted for the project it lies in: the project directory, "
        "else the nearest directory above the file with .git, .claude/, .codex/, .deepagents/ "
        "or .hel/. Editing a file revokes its trust. When a file cannot be read or parsed, "
        "nothing is trusted (exit 1, with the error).",
    )
    trust.add_argument("--project-dir", metavar="DIR", help="the project root (default: .)")
    trust.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="PATH",
        help="another hook file to trust, for the project it lies in (repeatable)",
    )
    _trust_options(trust)
    trust.add_argument("--revoke", action="store_true", help="forget every grant of the project")
    trust.set_defaults(func=run_trust)


def _trust_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--trust-store",
        metavar="PATH",
        help="the trust store file (default: $XDG_STATE_HOME/agent_hooks/trust.json)",
    )


def _policy(args: argparse.Namespace) -> TrustPolicy:
    from ..._config._trust import TrustPolicy, TrustStore

    store = TrustStore(args.trust_store) if args.trust_store else TrustStore()
    return TrustPolicy(
        store=store,
        trust_all=bool(getattr(args, "trust_project_hooks", False)),
        honor_hel_trust_file=bool(getattr(args, "honor_hel_trust_file", False)),
    )


# ------------------------------------------------------------------ check


def run_check(args: argparse.Namespace) -> int:
    """The ``check`` command."""
    with quiet_diagnostics_log():
        return _check(args)


def _check(args: argparse.Namespace) -> int:
    from ..._config._discover import discover
    from ..._config._load import load
    from ..._config._snapshot import combine
    from ._programs import checking_kinds

    project = os.path.abspath(args.project_dir or os.getcwd())
    policy = _policy(args)
    kinds = checking_kinds()
    if args.config:
        from ..._config._load import FORMATS

        if args.format is not None and args.format not in FORMATS:
            known = ", ".join(sorted(FORMATS))
            print(
                f"agent-hooks check: unknown format {args.format!r}; known: {known}",
                file=sys.stderr,
            )
            return 2
        missing = [path for path in args.config if not os.path.exists(path)]
        if missing:
            # Asked for by name: an absent file is a mistake here, not "no hooks".
            for path in missing:
                print(f"agent-hooks check: {path}: no such file", file=sys.stderr)
            return 2
        from ..._config._managed_layer import load_managed_dir

        try:
            # (as run loads them: agent_hooks's own managed layer first)
            config = combine(
                [load_managed_dir(trust=policy, kinds=kinds)]
                + [
                    load(
                        path,
                        format=args.format,
                        project_dir=project,
                        home=args.home,
                        trust=policy,
                        agent=args.agent,
                        kinds=kinds,
                    )
                    for path in args.config
                ]
            )
        except ValueError as exc:
            print(f"agent-hooks check: {exc}", file=sys.stderr)
            return 2
    else:
        config = discover(
            project,
            home=args.home,
            trust=policy,
            managed_policy=args.managed_policy,
            plugins=args.plugin,
            docker_agent=args.docker_agent,
            docker_agent_name=args.agent,
            kinds=kinds,
        )
    compiled = config.registry().compile()
    report = build_report(config, compiled, project)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render(report))
    return 1 if report["summary"]["errors"] else 0


def build_report(config: LoadedConfig, compiled: CompiledRegistry, project: str) -> dict[str, Any]:
    """The check report as plain data (what ``--json`` prints).

    ``events`` lists the handlers that would run (and disabled entries); ``files``
    every file looked at, with its status, its trust and its handlers: ``handlers``
    active, ``disabled`` entries, ``skipped`` (in a file that did not load). The
    summary's counts are the sums of the files' counts. What the files that did not
    load contain is compiled on the side (never run) so that its mistakes are
    diagnostics too.
    """
    from ..._config._managed import managed_report
    from ..._dispatch._registry import HookRegistry
    from ..._events._names import HookEvent
    from ..._events._untyped import AnyEvent, UntypedEvent

    managed_sources = {f.path for f in config.files if f.scope == "managed"}
    per_event: dict[AnyEvent, list[CompiledNode]] = {}
    for event, nodes in compiled.nodes.items():
        per_event.setdefault(event, []).extend(nodes)
    for cn in compiled.disabled:
        per_event.setdefault(cn.event, []).append(cn)
    events: dict[str, list[dict[str, Any]]] = {}
    untyped = sorted(e for e in per_event if isinstance(e, UntypedEvent))
    for event in (*HookEvent, *untyped):
        ordered = sorted(per_event.get(event, ()), key=lambda cn: cn.ordinal)
        if not ordered:
            continue
        first_of: dict[Any, str | None] = {}
        entries = []
        for cn in ordered:
            key = cn.node.dedupe_key
            duplicate = None
            if key is not None and cn.node.disabled is None:
                if key in first_of:
                    duplicate = first_of[key]
                else:
                    first_of[key] = f"{cn.info.source}: {cn.info.location}"
            entries.append(
                {
                    "name": cn.info.name,
                    "type": cn.info.kind,
                    "source": cn.info.source,
                    "location": cn.info.location,
                    "matcher": cn.info.matcher,
                    "timeout": cn.timeout,
                    "on_error": cn.on_error,
                    "dialect": cn.dialect.name,
                    "background": cn.node.background,
                    "if": cn.node.if_rule,
                    "status_message": cn.info.status_message,
                    "disabled": cn.node.disabled,
                    "duplicate_of": duplicate,
                    "typed": not isinstance(event, UntypedEvent),
                    "managed": cn.info.source in managed_sources,
                }
            )
        events[event.value] = entries

    # Files that did not load: compiled on the side, for their diagnostics and counts.
    skipped_compiled = HookRegistry(sources=config.skipped).compile() if config.skipped else None
    skipped_nodes = (
        [*(n for ns in skipped_compiled.nodes.values() for n in ns), *skipped_compiled.disabled]
        if skipped_compiled is not None
        else []
    )

    seen: set[Any] = set()
    diagnostics = []
    for d in (
        *compiled.diagnostics,
        *(skipped_compiled.diagnostics if skipped_compiled is not None else ()),
    ):
        if d in seen:
            continue
        seen.add(d)
        diagnostics.append(
            {
                "severity": d.severity.value,
                "code": d.code.value,
                "message": d.message,
                "source": d.source,
                "location": d.location,
                "handler": d.handler,
            }
        )

    active: dict[str, int] = {}
    disabled: dict[str, int] = {}
    skipped: dict[str, int] = {}
    for es in events.values():
        for e in es:
            counter = disabled if e["disabled"] else active
            counter[e["source"]] = counter.get(e["source"], 0) + 1
    for cn in skipped_nodes:
        skipped[cn.info.source] = skipped.get(cn.info.source, 0) + 1

    files = []
    listed: set[str] = set()
    for f in config.files:
        if f.path in listed:  # the same file loaded twice: one row holds its handlers
            continue
        listed.add(f.path)
        files.append(
            {
                "path": f.path,
                "format": f.format,
                "scope": f.scope,
                "status": f.status,
                "trust": f.trust,
                "precedence": f.precedence,
                "sha256": f.sha256,
                "handlers": active.get(f.path, 0),
                "disabled": disabled.get(f.path, 0),
                "skipped": skipped.get(f.path, 0),
            }
        )
    for source in sorted({*active, *disabled, *skipped} - listed):  # a source with no file
        files.append(
            {
                "path": source,
                "format": None,
                "scope": None,
                "status": "skipped" if source in skipped else "loaded",
                "trust": "not-needed",
                "precedence": None,
                "sha256": None,
                "handlers": active.get(source, 0),
                "disabled": disabled.get(source, 0),
                "skipped": skipped.get(source, 0),
            }
        )
    count = {
        s: sum(1 for d in diagnostics if d["severity"] == s) for s in ("error", "warning", "info")
    }
    return {
        "project_dir": project,
        "events": events,
        "files": files,
        "diagnostics": diagnostics,
        "managed": managed_report(config),
        "summary": {
            "handlers": sum(f["handlers"] for f in files),
            "disabled": sum(f["disabled"] for f in files),
            "skipped": sum(f["skipped"] for f in files),
            "errors": count["error"],
            "warnings": count["warning"],
            "info": count["info"],
        },
    }


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _counts(f: dict[str, Any]) -> str:
    parts = [_plural(f["handlers"], "handler")]
    if f["disabled"]:
        parts.append(f"{f['disabled']} disabled")
    if f["skipped"]:
        parts.append(f"{f['skipped']} not loaded")
    return ", ".join(parts)


def _render_managed(managed: dict[str, Any] | None) -> list[str]:
    """The "Managed hooks" section: each managed file and the policies in effect."""
    if not managed or not (managed["files"] or managed["policies"]):
        return []
    out = ["", "Managed hooks (no user or project file switches them off):"]
    for f in managed["files"]:
        state = "REFUSED" if f["status"] == "untrusted" else f["status"]
        out.append(f"  {state}  {f['path']}  ({_plural(f['handlers'], 'handler')})")
        if f.get("why"):
            out.append(f"      {f['why']}")
    for p in managed["policies"]:
        off = ", ".join(p["switched_off"])
        out.append(f"  policy in effect: {p['policy']}; switched off: {off}")
    return out


def render(report: dict[str, Any]) -> str:
    """The human-readable check report."""
    out: list[str] = []
    events = report["events"]
    s = report["summary"]
    if events:
        out.append(f"Hooks for {report['project_dir']} (in the order they run and reduce):")
        for event, entries in events.items():
            out.append("")
            untyped = any(not e.get("typed", True) for e in entries)
            note = ", not typed by this version: payload passed as it came" if untyped else ""
            out.append(f"{event} ({len(entries)}{note})")
            for e in entries:
                flags = []
                if e["disabled"]:
                    flags.append(f"DISABLED: {e['disabled']}")
                if e["duplicate_of"]:
                    flags.append(f"identical to {e['duplicate_of']}: runs once")
                if e.get("managed"):
                    flags.append("managed")
                if e["background"]:
                    flags.append("async")
                suffix = f"  ({'; '.join(flags)})" if flags else ""
                out.append(f"  [{e['type']}] {e['name']}{suffix}")
                details = [f"matcher: {e['matcher'] if e['matcher'] not in (None, '') else '*'}"]
                if not e["disabled"]:
                    details.append(f"timeout: {e['timeout']:g}s")
                if e["if"]:
                    details.append(f"if: {e['if']}")
                out.append("      " + "   ".join(details))
                out.append(f"      source: {e['source']}  {e['location'] or ''}".rstrip())
    elif s["skipped"]:
        out.append(
            f"No hooks active for {report['project_dir']}: "
            f"{_plural(s['skipped'], 'handler')} in files that did not load "
            "(untrusted or switched off; see Files)."
        )
    elif failed := [f for f in report["files"] if f["status"] in NOT_LOADED]:
        out.append(
            f"No hooks active for {report['project_dir']}: "
            f"{_plural(len(failed), 'file')} did not load (see Files)."
        )
    else:
        out.append(f"No hooks configured for {report['project_dir']}.")
    if report["files"]:
        out.append("")
        out.append("Files:")
        width = max(len(f["status"]) for f in report["files"])
        trust = [_TRUST_WORDS.get(f["trust"], f["trust"]) for f in report["files"]]
        twidth = max(len(t) for t in trust)
        for f, t in zip(report["files"], trust, strict=True):
            sha = f", sha256 {f['sha256'][:12]}" if f["sha256"] else ""
            out.append(
                f"  {f['status']:<{width}}  {t:<{twidth}}  {f['scope'] or '-':<8} {f['path']}  "
                f"({f['format'] or '-'}, {_counts(f)}{sha})"
            )
    out += _render_managed(report.get("managed"))
    if report["diagnostics"]:
        out.append("")
        out.append(
            f"Diagnostics ({_plural(s['errors'], 'error')}, {_plural(s['warnings'], 'warning')}, "
            f"{s['info']} info):"
        )
        for d in report["diagnostics"]:
            where = ": ".join(p for p in (d["source"], d["location"]) if p)
            who = f" [{d['handler']}]" if d["handler"] else ""
            out.append(
                f"  {where + ': ' if where else ''}{d['severity']} {d['code']}{who}: {d['message']}"
            )
    out.append("")
    verdict = (
        f"{_plural(s['errors'], 'configuration error')}" if s["errors"] else "configuration OK"
    )
    not_loaded = f", {s['skipped']} not loaded" if s["skipped"] else ""
    out.append(
        f"{_plural(s['handlers'], 'handler')} active, {s['disabled']} disabled{not_loaded}; "
        f"{verdict}."
    )
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ trust


def run_trust(args: argparse.Namespace) -> int:
    """The ``trust`` command."""
    with quiet_diagnostics_log():
        return _trust(args)


def _trust(args: argparse.Namespace) -> int:
    from ..._base._diagnostics import Severity
    from ..._config._common import (
        file_project,
        inspection_kinds,
        read_bytes,
        relative_to_project,
    )
    from ..._config._discover import project_hook_files
    from ..._config._load import load
    from ..._config._trust import TrustStore, TrustStoreError
    from ..._dispatch._registry import HookRegistry

    project = os.path.abspath(args.project_dir or os.getcwd())
    policy = _policy(args)
    store = policy.store
    assert store is not None
    if args.revoke:
        try:
            store.revoke(project)
        except TrustStoreError as exc:
            print(f"agent-hooks trust: {exc}", file=sys.stderr)
            return 1
        print(f"Revoked every trust grant of {project} (store: {store.path}).")
        return 0
    # Each file is trusted for the project it belongs to, as the loaders decide it: the
    # project directory for its own files, else the project around the file (a
    # --config file in another repository is that repository's file, and so is a link
    # of this project into another repository).
    roots: dict[str, list[str]] = {project: []}
    for rel in project_hook_files(project):
        path = os.path.join(project, rel)
        owner = file_project(path, project)
        key = project if owner is None or owner == project else os.path.abspath(owner)
        roots.setdefault(key, []).append(path)
    for extra in args.config:
        root = file_project(extra, project)
        if root is None:
            print(
                f"agent-hooks trust: {extra} is not inside {project} nor in any other project "
                "(no .git, .claude/, .codex/, .deepagents/ or .hel/ above it): it needs no "
                "trust; skipped",
                file=sys.stderr,
            )
            continue
        paths = roots.setdefault(os.path.abspath(root), [])
        if os.path.abspath(extra) not in paths:
            paths.append(os.path.abspath(extra))
    if not any(roots.values()):
        print(f"No project hook files in {project}; nothing to trust.")
        return 0
    files: dict[str, dict[str, str]] = {}
    listings: dict[tuple[str, str], list[str]] = {}
    refused: list[str] = []
    warnings: list[str] = []
    inspect = inspection_kinds()  # listing a file must not import the code it names
    for root, paths in roots.items():
        for path in paths:
            try:
                data = read_bytes(path)
            except OSError as exc:
                refused.append(f"cannot read {path}: {exc.strerror or exc}")
                continue
            rel = relative_to_project(path, root)
            config = load(path, project_dir=root, trust=True, data=data, kinds=inspect)
            status = config.files[0].status if config.files else "unreadable"
            if status in ("invalid", "unreadable"):
                # A hash of a file that does not parse would trust content nobody reviewed
                # as hooks (and that the loaders skip): refuse, say why.
                why = [str(d) for d in config.errors] or [f"{path}: {status}"]
                refused.append(f"{path} does not parse, so it was not trusted: " + "; ".join(why))
                continue
            compiled = HookRegistry(sources=config.sources).compile()
            warnings += [str(d) for d in compiled.diagnostics if d.severity is Severity.ERROR]
            files.setdefault(root, {})[rel] = TrustStore.digest(data)
            listings[root, rel] = _describe(config)
    if refused:
        for line in refused:
            print(f"agent-hooks trust: {line}", file=sys.stderr)
        print(
            "agent-hooks trust: nothing was trusted; fix the file(s) above, review them, then "
            "run `agent-hooks trust` again",
            file=sys.stderr,
        )
        return 1
    for line in dict.fromkeys(warnings):
        print(f"agent-hooks trust: warning: {line}", file=sys.stderr)
    try:
        for root, granted in files.items():
            store.grant(root, granted)
    except TrustStoreError as exc:
        print(f"agent-hooks trust: {exc}", file=sys.stderr)
        return 1
    for root, granted in files.items():
        print(f"Trusted the project hook files of {root} (store: {store.path}):")
        for rel, sha in granted.items():
            print(f"  {rel}  sha256 {sha}")
            for line in listings[root, rel]:
                print(f"      {line}")
    print("Editing any of these files revokes its trust until you run `agent-hooks trust` again.")
    return 0


def _describe(config: LoadedConfig) -> list[str]:
    lines = []
    for sg in config.sources:
        for g in sg.groups:
            matcher = f" [{g.matcher}]" if g.matcher not in (None, "", "*") else ""
            for n in g.nodes:
                off = " (disabled)" if n.disabled else ""
                lines.append(f"{g.event.value}{matcher}: [{n.kind}] {n.name}{off}")
    return lines or ["(no hooks)"]
