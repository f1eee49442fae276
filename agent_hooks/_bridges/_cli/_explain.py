"""``agent-hooks explain``: why the hooks answer a payload the way they do.

For one payload (a file, stdin, or ``agent-hooks payload ... |``) and the hooks ``run``
would load (the same options): which files loaded, which groups of the event matched
and why (the matcher against the payload's value, each handler's ``if`` rule per
subcommand of a shell command), what each handler that ran said, and how the
reduction chose the answer; in words (default) or as JSON (``--json``). Only the
handlers the payload selects run, exactly as ``run`` would run them; ``--dry`` shows
the plan and runs nothing. Exit status 0 once explained, whatever the hooks decided;
1 for a payload that is not a JSON object or names no known event, an unknown
``--format``, or a ``--config`` file that does not exist.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..._config._snapshot import LoadedConfig
    from ..._dispatch._decision import Decision
    from ..._dispatch._explain import DispatchPlan
    from ..._wire._codec import DecodedInput

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``explain`` to the top-level parser."""
    from ._run import add_load_options

    cmd = subparsers.add_parser(
        "explain",
        help="show which hooks a payload selects and why, what each said, and how the answer "
        "was chosen",
        description="Explain how the hooks of the --config files (and --discover) answer one "
        "payload: the files loaded, the groups of the event that matched and why (matcher, "
        "'if' rule per subcommand), what each handler said and how the reduction chose the "
        "answer. Only the handlers the payload selects run (as 'run' would run them); --dry "
        "runs nothing. Build a payload with 'agent-hooks payload EVENT --set ... | "
        "agent-hooks explain --config FILE'.",
    )
    cmd.add_argument(
        "payload",
        nargs="?",
        default="-",
        metavar="PAYLOAD",
        help="a file holding the payload (default: -, standard input)",
    )
    add_load_options(cmd)
    cmd.add_argument("--dialect", metavar="NAME", help="the harness that calls (as for run)")
    cmd.add_argument("--event", metavar="NAME", help="the event, where the payload names none")
    cmd.add_argument("--dry", action="store_true", help="show the plan; run no handler")
    cmd.add_argument("--json", action="store_true", help="print one JSON object, for tools")
    cmd.set_defaults(func=_explain)


def _explain(args: argparse.Namespace) -> int:
    from ..._base._errors import InvalidPayloadError, UnknownEventError
    from ..._wire._detect import decode_payload
    from ._run import load_hooks, project_of, quiet_diagnostics_log

    def fail(message: str) -> int:
        print(f"agent-hooks explain: {message}", file=sys.stderr)
        return 1

    try:
        data = sys.stdin.buffer.read() if args.payload == "-" else _read(args.payload)
    except OSError as exc:
        return fail(f"{args.payload}: {exc.strerror or exc}")
    try:
        decoded = decode_payload(data, dialect=args.dialect, event=args.event)
    except (InvalidPayloadError, UnknownEventError, ValueError) as exc:
        return fail(str(exc))
    try:
        project = project_of(args, decoded.input.cwd, os.getcwd(), os.environ)
        config, missing = load_hooks(args, project)
    except ValueError as exc:
        return fail(str(exc))
    if missing:
        return fail("; ".join(f"{path}: no such file" for path in missing))
    with quiet_diagnostics_log():
        report = _report(args, decoded, config, project)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print("\n".join(_words(report)))
    return 0


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _report(
    args: argparse.Namespace, decoded: DecodedInput, config: LoadedConfig, project: str
) -> dict[str, Any]:
    """The explanation as one JSON-able object (what ``--json`` prints)."""
    import anyio

    from ..._dispatch._explain import plan_dispatch
    from ..._events._untyped import input_value

    registry = config.registry()
    compiled = registry.compile()
    plan = plan_dispatch(compiled, decoded.input)
    tool_input = input_value(decoded.input, "tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    report: dict[str, Any] = {
        "event": plan.event.value,
        "harness": decoded.dialect.name if decoded.dialect is not None else decoded.wire,
        "matcher_field": plan.field,
        "matcher_value": plan.value,
        "command": command if isinstance(command, str) else None,
        "project": project,
        "files": [{"path": f.path, "status": f.status, "sha256": f.sha256} for f in config.files],
        "load_diagnostics": [str(d) for d in compiled.diagnostics],
        "execution": plan.execution,
        "groups": _groups(plan),
        "dry": bool(args.dry),
    }
    if args.dry:
        report["would_run"] = [n.info.name for n in plan.running]
        return report
    from .._payload import dispatch_payload

    result = anyio.run(lambda: dispatch_payload(decoded, registry, project_dir=project))
    decision = result.decision
    report["answer"] = result.answer
    report["exit_code"] = result.exit_code
    report["error"] = result.error
    if decision is not None:
        _add_results(report, decision)
    return report


def _groups(plan: DispatchPlan) -> list[dict[str, Any]]:
    return [
        {
            "source": g.source,
            "location": g.location,
            "matcher": g.matcher,
            "matched": g.matched,
            "why": g.why,
            "handlers": [
                {
                    "name": h.node.info.name,
                    "kind": h.node.info.kind,
                    "location": h.node.info.location,
                    "if": h.node.if_rule.text if h.node.if_rule is not None else None,
                    "runs": h.runs,
                    "why": h.why,
                    "subcommands": [{"command": c, "matches": ok} for c, ok in h.subcommands],
                    "shadow": h.node.info.shadow,
                    "background": h.node.node.background,
                }
                for h in g.handlers
            ],
        }
        for g in plan.groups
    ]


def _add_results(report: dict[str, Any], decision: Decision[Any]) -> None:
    """What each handler said (matched to the plan by its place), the reduction."""
    from ..._dispatch._explain import explain_reduction
    from ..._dispatch._verdict import handler_verdict, output_verdict

    said: dict[tuple[str | None, str | None], dict[str, Any]] = {}
    for r in (*decision.results, *decision.shadow):
        if r.handler is None:
            continue
        verdict, reason = handler_verdict(r)
        said[(r.handler.source, r.handler.location)] = {
            "outcome": r.outcome.value,
            "decision": verdict,
            "reason": reason,
            "exit_code": r.exit_code,
            "duration_ms": round(r.duration * 1000, 3),
        }
    for g in report["groups"]:
        for h in g["handlers"]:
            h["result"] = said.get((g["source"], h["location"]))
    verdict, reason = output_verdict(decision.output)
    report["decision"] = {"decision": verdict, "reason": reason, "blocked": decision.blocked}
    if decision.would_be is not None:
        would, why = output_verdict(decision.would_be)
        report["would_be"] = {"decision": would, "reason": why, "blocked": decision.would_block}
    report["reduction"] = explain_reduction(decision)
    report["diagnostics"] = [str(d) for d in decision.diagnostics]


def _words(report: dict[str, Any]) -> list[str]:
    """The report as lines a person reads in one pass."""
    head = f"{report['event']} from {report['harness']}"
    if report["matcher_field"]:
        head += f", {report['matcher_field']} = " + (
            f'"{report["matcher_value"]}"' if report["matcher_value"] is not None else "(none)"
        )
    lines = [head]
    if report["command"] is not None:
        lines.append(f"  command: {report['command']}")
    lines.append("")
    lines.append("Files:" if report["files"] else "Files: none loaded")
    for f in report["files"]:
        sha = f" sha256 {f['sha256'][:12]}" if f["sha256"] else ""
        lines.append(f"  {f['path']}: {f['status']}{sha}")
    for d in report["load_diagnostics"]:
        lines.append(f"  ! {d}")
    lines.append("")
    if not report["groups"]:
        lines.append(f"No group is configured for {report['event']}.")
    else:
        lines.append(f"Groups for {report['event']} ({report['execution']}):")
    for i, g in enumerate(report["groups"], start=1):
        where = f"{g['source']}" + (f" {g['location']}" if g["location"] else "")
        state = "matched" if g["matched"] else "not matched"
        lines.append(f"  {i}. {where}: {state}: {g['why']}")
        for j, h in enumerate(g["handlers"]):
            tags = [h["kind"]] + (["shadow"] if h["shadow"] else [])
            tags += ["fire-and-forget"] if h["background"] else []
            verb = h["why"] if h["runs"] else f"skipped: {h['why']}"
            lines.append(f"     {chr(97 + j % 26)}. {h['name']} ({', '.join(tags)}): {verb}")
            for sub in h["subcommands"]:
                mark = "matches" if sub["matches"] else "no match"
                lines.append(f"          - {sub['command']}: {mark}")
            result = h.get("result")
            if result is not None:
                said = result["decision"] or "no decision"
                if result["reason"]:
                    said += f' ("{result["reason"]}")'
                extra = f", exit {result['exit_code']}" if result["exit_code"] is not None else ""
                lines.append(
                    f"          said: {said} [{result['outcome']}{extra}, "
                    f"{result['duration_ms']:.1f} ms]"
                )
    lines.append("")
    if report["dry"]:
        names = report["would_run"]
        lines.append(
            "Dry run: nothing ran. Would run: " + (", ".join(names) if names else "no handler")
        )
        return lines
    decision = report.get("decision")
    if decision is not None:
        answer = decision["decision"] or "no decision (the call goes ahead)"
        if decision["reason"]:
            answer += f' ("{decision["reason"]}")'
        lines.append(f"Decision: {answer}")
        lines.extend(f"  {line}" for line in report["reduction"])
    if report.get("error"):
        lines.append(f"Error: {report['error']}")
    lines.append(f"Answer ({report['harness']}): {json.dumps(report['answer'])}")
    if report["exit_code"]:
        lines.append(f"  exit status {report['exit_code']}")
    for d in report.get("diagnostics", []):
        lines.append(f"  ! {d}")
    return lines
