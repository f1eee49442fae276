"""The compiled snapshot a session dispatches through: every node placed in order with
what dispatch needs worked out once, an index per event, and the options to run with.

:func:`~agent_hooks._dispatch._registry.HookRegistry.compile` builds it; nothing here
changes after that (except the per-loop process limiters).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Literal, Protocol

import anyio
import anyio.lowlevel
import attrs

from .._base._diagnostics import Diagnostic
from .._events._capabilities import EventSpec
from .._events._model import HookInput
from .._events._untyped import AnyEvent, input_value
from .._handlers._limits import default_process_limit
from .._handlers._nodes import HandlerInfo, HandlerNode, OnError
from .._wire._dialects import TOOL_MATCHER_ALIASES, Dialect
from ._matching import CompiledMatcher, IfRule
from ._observe import Observer

__all__ = [
    "CompiledNode",
    "CompiledRegistry",
    "RegistryOptions",
    "EventIndex",
    "Execution",
    "Group",
]

Execution = Literal["parallel", "chained"]
"""``parallel``: every matching handler starts at once (the default); ``chained``:
one after another, each seeing the input as rewritten by the previous ones."""


class RegistryOptions(Protocol):
    """What a session reads of the :class:`~agent_hooks.HookRegistry` a snapshot was
    compiled from: the options it dispatches with (see that class)."""

    @property
    def stop_on_block(self) -> bool: ...
    @property
    def stop_continuation_cap(self) -> int: ...
    @property
    def max_processes(self) -> int | None: ...
    @property
    def session_end_timeout(self) -> float: ...
    @property
    def background_drain_timeout(self) -> float: ...
    @property
    def secret_env_patterns(self) -> tuple[str, ...]: ...
    @property
    def observers(self) -> tuple[Observer, ...]: ...


@attrs.frozen(kw_only=True)
class CompiledNode:
    """A node as placed in the snapshot, with everything dispatch needs precomputed."""

    node: HandlerNode
    event: AnyEvent
    info: HandlerInfo
    ordinal: int
    timeout: float
    on_error: OnError
    timeout_blocks: bool
    dialect: Dialect
    env: Mapping[str, str]
    if_rule: IfRule | None
    sequential: bool = False
    """Its group asks for the event's matching handlers to run chained
    (:attr:`~._registry.MatcherGroup.sequential`)."""

    def policy_for(self, spec: EventSpec, input: HookInput[Any]) -> CompiledNode:
        """This node with the failure policy its event and dialect impose on ``input``:
        where the dialect makes any failure of the event block (Claude Code's
        WorktreeCreate), a failure blocks; where a block of the input is ignored
        (ConfigChange from ``policy_settings``), a failure never blocks."""
        if spec.blocks_ignored(input):
            if self.on_error != "block" and not self.timeout_blocks:
                return self
            policy: OnError = "warn" if self.on_error == "block" else self.on_error
            return attrs.evolve(self, on_error=policy, timeout_blocks=False)
        if spec.event in self.dialect.failure_blocks and self.on_error != "block":
            return attrs.evolve(self, on_error="block")
        return self


@attrs.frozen
class Group:
    """A matcher group as compiled: its place in the order, its matcher, its nodes."""

    ordinal: int
    matcher: CompiledMatcher
    nodes: tuple[CompiledNode, ...]


def unique(nodes: tuple[CompiledNode, ...]) -> tuple[CompiledNode, ...]:
    """Nodes with identical commands once (the first in order stays)."""
    seen: set[Hashable] = set()
    kept = []
    for n in nodes:
        key = n.node.dedupe_key
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        kept.append(n)
    return tuple(kept)


@attrs.frozen
class EventIndex:
    """One event's groups, sorted for selection: those matching every value, those
    naming exact values (looked up by value), and the regular expressions."""

    spec: EventSpec
    always: tuple[Group, ...]
    exact: Mapping[str, tuple[Group, ...]]
    regex: tuple[Group, ...]
    static: tuple[CompiledNode, ...] | None
    """When every group matches everything: the node list, identical commands once."""
    groups: tuple[Group, ...] = ()
    """Every group, in configuration order."""
    resolved: Mapping[str, tuple[CompiledNode, ...]] | None = None
    """When no group has a regular expression, what :meth:`select` answers for every
    value that names a group (itself or through its matcher aliases), worked out at
    registration; any other value selects :attr:`unmatched`."""
    unmatched: tuple[CompiledNode, ...] = ()
    """With :attr:`resolved`: the nodes of the groups matching every value."""

    @classmethod
    def build(cls, spec: EventSpec, groups: Sequence[Group]) -> EventIndex:
        """The index of one event's groups (in configuration order), with its lookups
        worked out once."""
        always = tuple(g for g in groups if g.matcher.matches_all)
        exact: dict[str, list[Group]] = {}
        for g in groups:
            if g.matcher.names is not None:
                for name in g.matcher.names:
                    exact.setdefault(name, []).append(g)
        regex = tuple(g for g in groups if g.matcher.pattern is not None)
        index = cls(
            spec=spec,
            always=always,
            exact=MappingProxyType({k: tuple(v) for k, v in exact.items()}),
            regex=regex,
            static=(
                unique(tuple(n for g in groups for n in g.nodes))
                if len(always) == len(groups)
                else None
            ),
            groups=tuple(groups),
        )
        if index.static is not None or regex:
            return index
        names = set(exact)
        if spec.matcher_field == "tool_name":
            names.update(
                name
                for name, aliases in TOOL_MATCHER_ALIASES.items()
                if any(a in exact for a in aliases)
            )
        return attrs.evolve(
            index,
            resolved=MappingProxyType({name: index.match(name) for name in names}),
            unmatched=index.match(None),
        )

    def select(self, value: str | None) -> tuple[CompiledNode, ...]:
        """The nodes whose groups match ``value``, in configuration order. A tool name
        with matcher aliases (:data:`~agent_hooks._wire._dialects.TOOL_MATCHER_ALIASES`:
        Codex's ``apply_patch`` is also ``Write`` and ``Edit``) selects the groups
        matching any of its names."""
        if self.static is not None:
            return self.static
        if value is not None and self.spec.matcher_basename:
            value = value.replace("\\", "/").rsplit("/", 1)[-1]
        if self.resolved is not None:
            return self.unmatched if value is None else self.resolved.get(value, self.unmatched)
        return self.match(value)

    def match(self, value: str | None) -> tuple[CompiledNode, ...]:
        """:meth:`select` for a value as matched (a path already cut to its basename),
        worked out from the groups."""
        names: tuple[str | None, ...] = (value,)
        if value is not None and self.spec.matcher_field == "tool_name":
            names += TOOL_MATCHER_ALIASES.get(value, ())
        groups = list(self.always)
        for name in names:
            if name is not None:
                groups.extend(self.exact.get(name, ()))
            groups.extend(g for g in self.regex if g.matcher.matches(name))
        if len(names) > 1:  # a group matching two of the names runs once
            groups = list({g.ordinal: g for g in groups}.values())
        groups.sort(key=lambda g: g.ordinal)
        return unique(tuple(n for g in groups for n in g.nodes))


@attrs.frozen(kw_only=True)
class CompiledRegistry:
    """The immutable, compiled snapshot that sessions dispatch through."""

    registry: RegistryOptions
    """The :class:`~agent_hooks.HookRegistry` this snapshot was compiled from."""
    diagnostics: tuple[Diagnostic, ...]
    nodes: Mapping[AnyEvent, tuple[CompiledNode, ...]]
    """Every enabled node per event, in order (for reports and ``check``)."""
    disabled: tuple[CompiledNode, ...]
    tool_aliases: Mapping[str, str]
    """The registry's tool aliases as compiled (later edits of the dict change nothing)."""
    execution: Mapping[AnyEvent, Execution]
    """``parallel`` or ``chained`` for every typed event and every untyped event the
    registry names: the registry's option, else the table (untyped: ``parallel``)."""
    index: Mapping[AnyEvent, EventIndex]
    observers: tuple[Observer, ...] = ()
    """The registry's observers, and its decision log's when it has one."""
    has_shadow: bool = False
    """Whether any node runs in shadow mode (else dispatch does no shadow work at all)."""
    _limiters: dict[Any, anyio.CapacityLimiter] = attrs.field(
        factory=dict, init=False, eq=False, repr=False
    )

    def process_limiter(self) -> anyio.CapacityLimiter:
        """The limiter of hook processes shared by every session of this snapshot, one per
        event loop (a limiter belongs to the loop it waits on): ``max_processes`` bounds
        the processes of the whole registry, not of each session."""
        token = anyio.lowlevel.current_token()
        limiter = self._limiters.get(token)
        if limiter is None:
            if len(self._limiters) > 16:  # loops come and go (tests, anyio.run calls)
                self._limiters.clear()
            limiter = self._limiters[token] = anyio.CapacityLimiter(
                self.registry.max_processes or default_process_limit()
            )
        return limiter

    def select(self, event: AnyEvent, input: HookInput[Any]) -> tuple[CompiledNode, ...]:
        """The nodes that run for ``input``, in configuration order, identical commands once.

        An untyped event's matchers filter the payload's ``tool_name``; when the payload
        has none, they are not applied (every group runs), as Claude Code does with a
        matcher on an event without a matcher field."""
        idx = self.index.get(event)
        if idx is None:
            return ()
        field = idx.spec.matcher_field
        value = input_value(input, field) if field else None
        if value is None and not idx.spec.typed:
            return unique(tuple(n for g in idx.groups for n in g.nodes))
        return idx.select(value if isinstance(value, str) else None)

    def execution_for(self, event: AnyEvent) -> Execution:
        """``parallel`` or ``chained`` for an event (an untyped event the registry does not
        name runs in parallel)."""
        return self.execution.get(event, "parallel")
