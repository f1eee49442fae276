"""Why a dispatch does what it does: which groups a payload matches and why, which
handlers their ``if`` rules let run (per subcommand of a shell command), and, given the
decision, what each handler said and how the reduction chose the answer.

:func:`plan_dispatch` works out the plan without running anything (``agent-hooks explain
--dry``); :func:`explain_reduction` reads a decision that was made. Both only read the
compiled snapshot: the selection they describe is the one
:meth:`CompiledRegistry.select` makes (the explanation is checked against it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from .._events._capabilities import spec_for
from .._events._model import HookInput, Merge
from .._events._untyped import AnyEvent, input_value, with_input_value
from .._wire._dialects import TOOL_MATCHER_ALIASES
from .._wire._fields import field_codecs
from .._wire._outputs import rank_key
from ._compiled import CompiledNode, CompiledRegistry, Group
from ._decision import Decision
from ._verdict import handler_verdict, output_verdict

__all__ = ["DispatchPlan", "GroupPlan", "HandlerPlan", "explain_reduction", "plan_dispatch"]


@attrs.frozen(kw_only=True)
class HandlerPlan:
    """One handler of a matched group: whether it runs and why."""

    node: CompiledNode
    runs: bool
    why: str
    subcommands: tuple[tuple[str, bool], ...] = ()
    """With an ``if`` rule on a shell command: each subcommand and whether it matches."""


@attrs.frozen(kw_only=True)
class GroupPlan:
    """One group of the event, in configuration order: whether it matched and why."""

    source: str
    location: str | None
    matcher: str | None
    matched: bool
    why: str
    handlers: tuple[HandlerPlan, ...] = ()


@attrs.frozen(kw_only=True)
class DispatchPlan:
    """What a dispatch of one input would run, in configuration order."""

    event: AnyEvent
    field: str | None
    """The payload field matchers are compared with (``tool_name``), if the event has one."""
    value: str | None
    execution: str
    groups: tuple[GroupPlan, ...]

    @property
    def running(self) -> tuple[CompiledNode, ...]:
        """The nodes that run, in order."""
        return tuple(h.node for g in self.groups for h in g.handlers if h.runs)


def _quoted(values: Any) -> str:
    return ", ".join(f'"{v}"' for v in sorted(values))


def _group_why(group: Group, field: str | None, names: tuple[str, ...], value: str | None) -> str:
    m = group.matcher
    shown = f'"{m.text}"' if m.text not in (None, "") else "(none)"
    if m.matches_all:
        return f"matcher {shown} matches every {field or 'firing'}"
    if value is None:
        return f"matcher {shown}: the payload has no {field}"
    others = sorted(names[1:])
    more = f" and {len(others) - 3} more" if len(others) > 3 else ""
    alias = f" (nor its other names {_quoted(others[:3])}{more})" if others else ""
    if m.names is not None:
        hit = [n for n in names if n in m.names]
        if hit:
            named = "" if hit[0] == value else f' (another name of "{value}")'
            return f'matcher {shown} lists "{hit[0]}"{named}'
        return f'matcher {shown} lists {_quoted(m.names)}, not "{value}"{alias}'
    hit = [n for n in names if m.matches(n)]
    if hit:
        return f'regular expression {shown} matches "{hit[0]}"'
    return f'regular expression {shown} does not match "{value}"{alias}'


def _handler_plan(
    cn: CompiledNode, input: HookInput[Any], selected: set[int], tool: str | None
) -> HandlerPlan:
    if id(cn) not in selected:
        return HandlerPlan(
            node=cn, runs=False, why="an identical command earlier in the order runs instead"
        )
    rule = cn.if_rule
    if rule is None:
        why = (
            "runs (fire-and-forget: never holds up the decision)" if cn.node.background else "runs"
        )
        return HandlerPlan(node=cn, runs=True, why=why)
    tool_input = input_value(input, "tool_input")
    args: Mapping[str, Any] = tool_input if isinstance(tool_input, Mapping) else {}
    names = (tool, *TOOL_MATCHER_ALIASES.get(tool, ())) if tool is not None else (None,)
    runs = any(rule.matches(n, args, input.cwd) for n in names)
    parts = rule.subcommands(args)
    text = f'if "{rule.text}"'
    if parts:
        hits = [c for c, ok in parts if ok]
        if runs and hits:
            why = f'{text} matches the subcommand "{hits[0]}"'
        elif runs:
            why = f"{text} runs: the command line cannot be read through (expansions), so it runs"
        else:
            why = f"{text} matches none of the subcommands {_quoted(c for c, _ in parts)}"
    else:
        why = f"{text} {'matches' if runs else 'does not match'} this call"
    return HandlerPlan(node=cn, runs=runs, why=why, subcommands=parts)


def plan_dispatch(compiled: CompiledRegistry, input: HookInput[Any]) -> DispatchPlan:
    """What dispatching ``input`` through ``compiled`` would run, and why, without
    running anything. ``input`` as the session would dispatch it (tool aliases are
    applied here)."""
    spec = spec_for(input.event)
    event = spec.event
    tool = input_value(input, "tool_name")
    if isinstance(tool, str) and tool in compiled.tool_aliases:
        tool = compiled.tool_aliases[tool]
    field = spec.matcher_field
    raw = input_value(input, field) if field else None
    if field == "tool_name":
        raw = tool
    value = raw if isinstance(raw, str) else None
    if value is not None and spec.matcher_basename:
        value = value.replace("\\", "/").rsplit("/", 1)[-1]
    names: tuple[str, ...] = ()
    if value is not None:
        names = (value,)
        if field == "tool_name":
            names += TOOL_MATCHER_ALIASES.get(value, ())
    index = compiled.index.get(event)
    selected_nodes = compiled.select(event, _with_tool(input, tool)) if index is not None else ()
    selected = {id(n) for n in selected_nodes}
    everyone = value is None and not spec.typed  # an untyped event without the field
    groups: list[GroupPlan] = []
    for g in index.groups if index is not None else ():
        first = g.nodes[0].info
        matched = everyone or any(id(n) in selected for n in g.nodes) or _group_matches(g, names)
        why = (
            f"the payload has no {field}: every group runs"
            if everyone
            else _group_why(g, field, names, value)
        )
        handlers = (
            tuple(
                _handler_plan(cn, input, selected, tool if isinstance(tool, str) else None)
                for cn in g.nodes
            )
            if matched
            else ()
        )
        groups.append(
            GroupPlan(
                source=first.source,
                location=_group_location(first.location),
                matcher=g.matcher.text,
                matched=matched,
                why=why,
                handlers=handlers,
            )
        )
    return DispatchPlan(
        event=event,
        field=field,
        value=value,
        execution=compiled.execution_for(event),
        groups=tuple(groups),
    )


def _with_tool(input: HookInput[Any], tool: object) -> HookInput[Any]:
    if not isinstance(tool, str) or input_value(input, "tool_name") == tool:
        return input
    return attrs.evolve(input, **with_input_value(input, "tool_name", tool))


def _group_matches(group: Group, names: tuple[str, ...]) -> bool:
    return group.matcher.matches_all or any(group.matcher.matches(n) for n in names)


def _group_location(location: str | None) -> str | None:
    """A group's place from its first handler's (``PreToolUse[0].hooks[1]`` ->
    ``PreToolUse[0]``)."""
    if location is None:
        return None
    head, sep, _ = location.rpartition(".hooks[")
    return head if sep else location


def explain_reduction(decision: Decision[Any]) -> list[str]:
    """How the reduction chose the decision's answer, one sentence per decision field a
    handler set (the strongest value wins; among equals, the first in configuration
    order), and what shadow handlers would have changed."""
    lines: list[str] = []
    output = decision.output
    for fc in field_codecs(type(output), True):
        if fc.info.merge is not Merge.RANK:
            continue
        given = []
        for r in decision.results:
            v = getattr(r.output, fc.name, None) if r.output is not None else None
            if v is not None:
                given.append((str(rank_key(fc, v)), r.handler.name if r.handler else "a handler"))
        if not given:
            continue
        final = getattr(output, fc.name, None)
        won = str(rank_key(fc, final)) if final is not None else None
        order = " > ".join(fc.info.rank)
        said = "; ".join(f"{v} from {who}" for v, who in given)
        if won is None:
            lines.append(f"{fc.key('claude')}: {said}; none of it stands (it was not honoured)")
            continue
        winner = next(who for v, who in given if v == won)
        tail = f" (strongest first: {order})" if order and len(given) > 1 else ""
        given_text = f"; given: {said}{tail}" if len(given) > 1 else ""
        lines.append(f"{fc.key('claude')}: {won}, from {winner}{given_text}")
    if not lines:
        verdict = output_verdict(output)[0]
        lines.append(
            "no handler decided anything: the call goes ahead"
            if verdict is None
            else f"the answer is {verdict}"
        )
    if decision.would_be is not None:
        would, reason = output_verdict(decision.would_be)
        shadowed = ", ".join(
            f"{r.handler.name if r.handler else 'a handler'} said {handler_verdict(r)[0] or 'nothing'}"
            for r in decision.shadow
        )
        lines.append(
            f"shadow handlers ({shadowed}) are not enforced; had they been, the answer would "
            f"be {would or 'no decision'}" + (f' ("{reason}")' if reason else "")
        )
    return lines
