"""``agent-hooks check`` and ``agent-hooks trust``.

``check`` lists, per event, the handlers that would run (source, matcher, type,
timeout), like Claude Code's ``/hooks`` menu, then the files it read and every
diagnostic; it exits 1 when any diagnostic is a configuration error. ``trust``
grants persistent trust to the project's hook files as they are now.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..._config._snapshot import LoadedConfig
    from ..._config._trust import TrustPolicy
    from ..._dispatch._compiled import CompiledNode, CompiledRegistry

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``check`` and ``trust`` to the top-level parser."""
    check = subparsers.add_parser(
        "check",
        help="show the hooks that would run and every configuration problem",
        description="Discover (or read --config) every hook source, print per event the handlers "
        "that would run, print every diagnostic, and exit 1 on configuration errors.",
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
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.set_defaults(func=run_check)

    trust = subparsers.add_parser(
        "trust",
        help="trust the project's hook files as they are now",
        description="Grant persistent trust to the current content of the project's hook files "
        "(.claude/settings*.json, .deepagents/hooks.json, .codex/*, .hel/hooks.json and --config "
        "files inside the project). Editing a file revokes its trust.",
    )
    trust.add_argument("--project-dir", metavar="DIR", help="the project root (default: .)")
    trust.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="PATH",
        help="another project file to trust",
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
    return TrustPolicy(store=store, trust_all=bool(getattr(args, "trust_project_hooks", False)))


# ------------------------------------------------------------------ check


def run_check(args: argparse.Namespace) -> int:
    """The ``check`` command."""
    from ..._config._discover import discover
    from ..._config._load import load
    from ..._config._snapshot import combine

    project = os.path.abspath(args.project_dir or os.getcwd())
    policy = _policy(args)
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
        try:
            config = combine(
                load(
                    path,
                    format=args.format,
                    project_dir=project,
                    home=args.home,
                    trust=policy,
                    agent=args.agent,
                )
                for path in args.config
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
    """The check report as plain data (what ``--json`` prints)."""
    from ..._events._names import HookEvent

    per_event: dict[HookEvent, list[CompiledNode]] = {}
    for event, nodes in compiled.nodes.items():
        per_event.setdefault(event, []).extend(nodes)
    for cn in compiled.disabled:
        per_event.setdefault(cn.event, []).append(cn)
    events: dict[str, list[dict[str, Any]]] = {}
    for event in HookEvent:
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
                }
            )
        events[event.value] = entries
    seen: set[Any] = set()
    diagnostics = []
    for d in compiled.diagnostics:
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
    files = [
        {
            "path": f.path,
            "format": f.format,
            "scope": f.scope,
            "status": f.status,
            "precedence": f.precedence,
            "sha256": f.sha256,
            "handlers": f.handlers,
        }
        for f in config.files
    ]
    count = {
        s: sum(1 for d in diagnostics if d["severity"] == s) for s in ("error", "warning", "info")
    }
    return {
        "project_dir": project,
        "events": events,
        "files": files,
        "diagnostics": diagnostics,
        "summary": {
            "handlers": sum(1 for es in events.values() for e in es if not e["disabled"]),
            "disabled": sum(1 for es in events.values() for e in es if e["disabled"]),
            "errors": count["error"],
            "warnings": count["warning"],
            "info": count["info"],
        },
    }


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def render(report: dict[str, Any]) -> str:
    """The human-readable check report."""
    out: list[str] = []
    events = report["events"]
    if events:
        out.append(f"Hooks for {report['project_dir']} (in the order they run and reduce):")
        for event, entries in events.items():
            out.append("")
            out.append(f"{event} ({len(entries)})")
            for e in entries:
                flags = []
                if e["disabled"]:
                    flags.append(f"DISABLED: {e['disabled']}")
                if e["duplicate_of"]:
                    flags.append(f"identical to {e['duplicate_of']}: runs once")
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
    else:
        out.append(f"No hooks configured for {report['project_dir']}.")
    if report["files"]:
        out.append("")
        out.append("Files:")
        width = max(len(f["status"]) for f in report["files"])
        for f in report["files"]:
            sha = f", sha256 {f['sha256'][:12]}" if f["sha256"] else ""
            out.append(
                f"  {f['status']:<{width}}  {f['scope']:<8} {f['path']}  "
                f"({f['format']}, {_plural(f['handlers'], 'handler')}{sha})"
            )
    s = report["summary"]
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
    out.append(f"{_plural(s['handlers'], 'handler')} active, {s['disabled']} disabled; {verdict}.")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ trust


def run_trust(args: argparse.Namespace) -> int:
    """The ``trust`` command."""
    from ..._config._common import is_inside, read_bytes, relative_to_project
    from ..._config._discover import project_hook_files
    from ..._config._load import load
    from ..._config._trust import TrustStore, TrustStoreError

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
    paths: list[str] = [os.path.join(project, rel) for rel in project_hook_files(project)]
    for extra in args.config:
        if not is_inside(extra, project):
            print(f"agent-hooks trust: {extra} is not inside {project}; skipped", file=sys.stderr)
            continue
        if os.path.abspath(extra) not in paths:
            paths.append(os.path.abspath(extra))
    if not paths:
        print(f"No project hook files in {project}; nothing to trust.")
        return 0
    files: dict[str, str] = {}
    listings: dict[str, list[str]] = {}
    for path in paths:
        try:
            data = read_bytes(path)
        except OSError as exc:
            print(f"agent-hooks trust: cannot read {path}: {exc}", file=sys.stderr)
            continue
        rel = relative_to_project(path, project)
        files[rel] = TrustStore.digest(data)
        listings[rel] = _describe(load(path, project_dir=project, trust=True, data=data))
    if not files:
        return 1
    try:
        store.grant(project, files)
    except TrustStoreError as exc:
        print(f"agent-hooks trust: {exc}", file=sys.stderr)
        return 1
    print(f"Trusted the project hook files of {project} (store: {store.path}):")
    for rel, sha in files.items():
        print(f"  {rel}  sha256 {sha}")
        for line in listings[rel]:
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
