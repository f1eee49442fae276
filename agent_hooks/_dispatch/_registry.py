"""Registration: HookMatcher groups from Python and from files, compiled once into an
immutable snapshot that dispatch only has to walk.

Order is fixed here, never at dispatch time: source precedence (lower first,
stable for equal precedence), then group order within the source, then handler
order within the group. Every handler kind has already become a
:class:`~agent_hooks._handlers._nodes.HandlerNode`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

import attrs

from .._base._diagnostics import Diagnostic, DiagnosticCode, Severity, log_errors
from .._base._errors import RegistrationError
from .._events._capabilities import CAPABILITIES, EventSpec, spec_for
from .._events._names import HookEvent
from .._events._untyped import AnyEvent, UntypedEvent, resolve_event
from .._handlers._callbacks import HookCallback, callback_node
from .._handlers._limits import DEFAULT_SECRET_PATTERNS
from .._handlers._nodes import Handler, HandlerInfo, HandlerNode, OnError
from .._wire._dialects import CLAUDE, DOCKER, Dialect
from ._compiled import (
    CompiledNode,
    CompiledRegistry,
    EventIndex,
    Execution,
    Group,
)
from ._matching import CompiledMatcher, IfRule, compile_matcher, parse_if_rule
from ._observe import Observer
from ._session import BackgroundCallback, RewakeCallback, Session

if TYPE_CHECKING:
    from ._audit import DecisionSink

__all__ = [
    "HookEntry",
    "HookMatcher",
    "HookRegistry",
    "MatcherGroup",
    "MatcherLike",
    "Source",
    "SourcedGroups",
    "to_node",
    "untyped_notes",
]

DEFAULT_STOP_CAP = 8

HookEntry: TypeAlias = HookCallback | Handler | HandlerNode
"""One entry of ``HookMatcher.hooks``: a Python callback (either signature, async or
plain), a :class:`Handler` (:class:`CommandHook`, :class:`CallbackHook`, ...) or a
:class:`HandlerNode`. A string is none of them: a command is ``CommandHook(command=...)``."""


@attrs.define
class HookMatcher:
    """A matcher and the handlers it guards: the Claude Agent SDK's ``HookMatcher``.

    ``hooks`` mixes Python callbacks (either signature), :class:`CommandHook`,
    :class:`CallbackHook` and any other :class:`Handler` (:data:`HookEntry`).
    ``timeout`` (seconds) applies to handlers that do not set their own.
    """

    matcher: str | None = None
    hooks: list[HookEntry] = attrs.Factory(list)
    timeout: float | None = None
    on_failure: Literal["continue", "block"] | None = None
    """The Claude Agent SDK's failure switch for the group: ``block`` fails closed
    (like ``on_error="block"``), ``continue`` fails open."""
    shadow: bool = False
    """Shadow mode for the group's handlers: they run and their would-be decision is
    recorded (``Decision.would_be``, reports, the decision log), never enforced."""


class MatcherLike(Protocol):
    """What registration reads of a group: :class:`HookMatcher`, or the Claude Agent
    SDK's own ``claude_agent_sdk.HookMatcher`` (the same fields, read by name;
    ``timeout`` and ``on_failure`` when it has them)."""

    @property
    def matcher(self) -> str | None: ...

    @property
    def hooks(self) -> Sequence[Any]: ...


@attrs.frozen(kw_only=True)
class Source:
    """Where groups come from: a label for reports, a precedence, a dialect.

    Lower ``precedence`` runs and reduces first. ``env`` adds variables for the
    source's command handlers (plugin roots).
    """

    label: str = "python"
    precedence: int = 0
    dialect: Dialect = CLAUDE
    env: Mapping[str, str] = attrs.field(factory=dict)
    shadow: bool = False
    """Every handler of the source runs in shadow mode (a file's ``"mode": "shadow"``)."""


@attrs.frozen(kw_only=True)
class MatcherGroup:
    """One matcher group, its handlers already nodes."""

    event: AnyEvent
    matcher: str | None = None
    nodes: tuple[HandlerNode, ...] = ()
    timeout: float | None = None
    on_error: OnError | None = None
    """Failure policy for the group's handlers that set none."""
    location: str | None = None
    """Where the group is in its source (``PreToolUse[0]``)."""
    node_locations: tuple[str | None, ...] = ()
    sequential: bool = False
    """When this group matches, every matching handler of the event runs one after
    another, in order, each seeing the input as the previous one rewrote it (chained
    execution; Gemini CLI's ``sequential``), whatever the event's own mode."""
    shadow: bool = False
    """The group's handlers run in shadow mode (``HookMatcher(shadow=True)``, a group's
    ``"mode": "shadow"``)."""


@attrs.frozen(kw_only=True)
class SourcedGroups:
    """A source's groups plus what its loader had to say."""

    source: Source
    groups: tuple[MatcherGroup, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


def to_node(handler: Any) -> HandlerNode:
    """Normalise one entry of ``HookMatcher.hooks`` into a node.

    Raises:
        RegistrationError: it is neither a node, a :class:`Handler`, nor a callable
            with an accepted signature.
    """
    if isinstance(handler, HandlerNode):
        return handler
    if isinstance(handler, Handler):
        return handler.to_node()
    if callable(handler):
        return callback_node(handler)
    raise RegistrationError(
        f"hook {handler!r} ({_type_name(handler)}) is not a callable, a CommandHook, "
        "a CallbackHook or a HandlerNode"
    )


_SDK_FAILURE: Mapping[str, OnError] = {"block": "block", "continue": "warn"}


def _type_name(value: object) -> str:
    """``module.Class`` of a value, for messages that refuse it."""
    cls = type(value)
    return f"{cls.__module__}.{cls.__qualname__}"


def _is_matcher(value: object) -> bool:
    """A :class:`HookMatcher`, or an object with its fields (the Claude Agent SDK's)."""
    if isinstance(value, HookMatcher):
        return True
    return (
        not isinstance(value, (type, Mapping, str, bytes))
        and hasattr(value, "matcher")
        and hasattr(value, "hooks")
    )


def _groups_from_hooks(
    hooks: Mapping[HookEvent | str, Sequence[MatcherLike]],
    dialect: Dialect = CLAUDE,
    notes: list[Diagnostic] | None = None,
) -> tuple[MatcherGroup, ...]:
    """The groups of a ``{event: [HookMatcher, ...]}`` mapping from Python code.

    Unlike a file's, every mistake raises here, with the wording of the file
    loaders' diagnostics: a group that a file would drop is refused. A mistake that
    can only be suspected (a :class:`CommandHook` whose program is not found now, but
    may be by the time it runs) is a ``program_not_found`` error appended to
    ``notes`` instead (logged at ERROR when the registry compiles).

    An event this version does not type is accepted (:func:`untyped_notes` says so).

    Raises:
        RegistrationError: a value of the wrong type, an invalid matcher, a bad hook.
        UnknownEventError: an event key that is a close misspelling of a known event,
            or not an event name.
    """
    if not isinstance(hooks, Mapping):
        raise RegistrationError(
            f"hooks must be a mapping of events to lists of HookMatcher, got {_type_name(hooks)}"
        )
    groups: list[MatcherGroup] = []
    for key, matchers in hooks.items():
        event = resolve_event(key)
        spec = spec_for(event)
        if _is_matcher(matchers):
            matchers = [matchers]  # type: ignore[list-item]  # (one matcher for a list)
        if isinstance(matchers, (str, bytes, Mapping)) or not isinstance(matchers, Iterable):
            raise RegistrationError(
                f"hooks[{key!r}] must be a list of HookMatcher, got {_type_name(matchers)}"
            )
        for gi, m in enumerate(matchers):
            where = f"hooks[{event.value!r}][{gi}]"
            if not _is_matcher(m):
                raise RegistrationError(
                    f"{where} is {_type_name(m)}, expected HookMatcher (agent_hooks.HookMatcher "
                    "or claude_agent_sdk.HookMatcher: an object with matcher and hooks)"
                )
            text: object = m.matcher
            entries: object = m.hooks
            timeout: float | None = getattr(m, "timeout", None)
            on_failure: object = getattr(m, "on_failure", None)
            shadow: object = getattr(m, "shadow", False)
            if not isinstance(shadow, bool):
                raise RegistrationError(f"{where}.shadow must be True or False, got {shadow!r}")
            if (
                callable(entries)
                or isinstance(entries, (str, bytes, Mapping))
                or not isinstance(entries, Iterable)
            ):
                raise RegistrationError(
                    f"{where}.hooks must be a list of handlers, got "
                    f"{_type_name(entries)} (write hooks=[fn], not hooks=fn)"
                )
            if on_failure is not None and on_failure not in _SDK_FAILURE:
                raise RegistrationError(
                    f"{where}.on_failure must be 'continue', 'block' or None, got {on_failure!r}"
                )
            nodes = []
            for hi, h in enumerate(entries):
                try:
                    nodes.append(to_node(h))
                except RegistrationError as exc:
                    raise RegistrationError(f"{where}.hooks[{hi}]: {exc}") from None
                # A handler kind may know mistakes of its own that only fail at run time
                # (a CommandHook whose program is not there); asked here, not imported,
                # so a registry without such handlers never loads their kind.
                check = getattr(h, "registration_notes", None)
                if notes is not None and check is not None:
                    notes.extend(check(f"{event.value}[{gi}].hooks[{hi}]"))
            group = MatcherGroup(
                event=event,
                matcher=text,  # type: ignore[arg-type]  # (checked just below)
                nodes=tuple(nodes),
                timeout=timeout,
                on_error=_SDK_FAILURE[on_failure] if isinstance(on_failure, str) else None,
                shadow=shadow,
                location=f"{event.value}[{gi}]",
                node_locations=tuple(
                    f"{event.value}[{gi}].hooks[{hi}]" for hi in range(len(nodes))
                ),
            )
            try:  # the same check, and words, as a file's group gets when compiled
                _group_matcher(spec, group, dialect, [], {}, strict=True)
            except _DropGroup as exc:
                raise RegistrationError(f"{where}: {exc}") from None
            groups.append(group)
    return tuple(groups)


@attrs.frozen(kw_only=True, init=False)  # the __init__ below; attrs adds __attrs_init__
class HookRegistry:
    """Hook groups from any number of sources, and the options dispatch runs with.

    Registries are values: :meth:`add` and :meth:`evolve` return new registries;
    editing a ``HookMatcher`` after registering it changes nothing (handlers
    become nodes when registered). Build one from the Claude Agent SDK's shape::

        registry = HookRegistry({"PreToolUse": [HookMatcher(matcher="Bash", hooks=[check])]})

    Options:
        tool_aliases: tool names of your agent -> public names (``{"shell": "Bash"}``);
            matchers, ``if`` rules and scripts see the public name.
        on_error: failure policy for handlers that set none: one policy, or per event.
        execution: ``parallel`` or ``chained`` per event, overriding the table.
        stop_on_block: in chained execution, stop at the first handler that blocks
            (the harness of seed 001).
        stop_continuation_cap: consecutive Stop blocks honoured before they are not.
        max_processes: how many hook processes may run at once (default: from CPUs).
        session_end_timeout: the budget of a SessionEnd dispatch, which runs shielded.
        background_drain_timeout: how long a closing session waits for background work.
        fail_closed: every handler of an event that can block fails closed (policy
            ``block``), whatever ``on_error`` its file, group or handler sets (fire-and-forget
            handlers, which never decide, keep theirs): ``agent-hooks run --fail-closed``.
        secret_env_patterns: words of environment variable names withheld from hook
            processes (default ``DEFAULT_SECRET_PATTERNS``; the rule: ``scrub_env``).
        observers: :class:`~agent_hooks.Observer` objects told about every dispatch and
            handler of every session (progress display, logging, tracing).
        shadow: every handler runs in shadow mode: each runs and its would-be decision
            is recorded (``Decision.would_be``, reports, the decision log, OTel spans),
            nothing is enforced (``agent-hooks run --shadow``). A source, a group or a
            handler can be in shadow mode alone; a shadow handler never weakens an
            enforcing one.
        decision_log: where one JSON Lines record per dispatch goes: a file path (see
            :class:`~agent_hooks.DecisionLog`) or any object with ``write(record)``;
            ``None``: no log (``agent-hooks run --log FILE``,
            ``AGENT_HOOKS_DECISION_LOG``).
    """

    sources: tuple[SourcedGroups, ...] = ()
    tool_aliases: Mapping[str, str] = attrs.field(factory=dict)
    on_error: OnError | Mapping[HookEvent | str, OnError] | None = None
    execution: Mapping[HookEvent | str, Execution] = attrs.field(factory=dict)
    stop_on_block: bool = False
    stop_continuation_cap: int = DEFAULT_STOP_CAP
    max_processes: int | None = None
    session_end_timeout: float = 1.5
    background_drain_timeout: float = 5.0
    fail_closed: bool = False
    secret_env_patterns: tuple[str, ...] = DEFAULT_SECRET_PATTERNS
    observers: tuple[Observer, ...] = ()
    shadow: bool = False
    decision_log: str | os.PathLike[str] | DecisionSink | None = None
    _cache: list[CompiledRegistry] = attrs.field(factory=list, init=False, eq=False, repr=False)

    def __init__(
        self,
        hooks: Mapping[HookEvent | str, Sequence[MatcherLike]] | None = None,
        *,
        source: Source | str = "python",
        sources: Iterable[SourcedGroups] = (),
        tool_aliases: Mapping[str, str] | None = None,
        on_error: OnError | Mapping[HookEvent | str, OnError] | None = None,
        execution: Mapping[HookEvent | str, Execution] | None = None,
        stop_on_block: bool = False,
        stop_continuation_cap: int = DEFAULT_STOP_CAP,
        max_processes: int | None = None,
        session_end_timeout: float = 1.5,
        background_drain_timeout: float = 5.0,
        fail_closed: bool = False,
        secret_env_patterns: tuple[str, ...] = DEFAULT_SECRET_PATTERNS,
        observers: tuple[Observer, ...] = (),
        shadow: bool = False,
        decision_log: str | os.PathLike[str] | DecisionSink | None = None,
    ) -> None:
        """Build a registry from ``hooks`` (``{event: [HookMatcher, ...]}``, registered
        under ``source``) and loaders' ``sources``; the options are the class's (see
        above). A name that is no option is a :class:`TypeError` naming it.

        Raises:
            RegistrationError, UnknownEventError: a bad hook, matcher, event or option.
        """
        src = source if isinstance(source, Source) else Source(label=source)
        all_sources = tuple(sources)
        if hooks:
            notes: list[Diagnostic] = []
            groups = _groups_from_hooks(hooks, src.dialect, notes)
            diagnostics = (*untyped_notes(groups, src), *(d.at(source=src.label) for d in notes))
            all_sources = (
                SourcedGroups(source=src, groups=groups, diagnostics=diagnostics),
                *all_sources,
            )
        self.__attrs_init__(
            sources=all_sources,
            tool_aliases={} if tool_aliases is None else tool_aliases,
            on_error=on_error,
            execution={} if execution is None else execution,
            stop_on_block=stop_on_block,
            stop_continuation_cap=stop_continuation_cap,
            max_processes=max_processes,
            session_end_timeout=session_end_timeout,
            background_drain_timeout=background_drain_timeout,
            fail_closed=fail_closed,
            secret_env_patterns=secret_env_patterns,
            observers=observers,
            shadow=shadow,
            decision_log=decision_log,
        )
        self._validate()

    def _validate(self) -> None:
        """Options are checked when the registry is built, not when it is first used.

        Raises:
            RegistrationError: a policy or execution mode that does not exist.
            UnknownEventError: an event key nobody knows.
        """
        policies = ("warn", "ignore", "block")
        if isinstance(self.on_error, str) or self.on_error is None:
            by_event: Mapping[HookEvent | str, Any] = {}
            if self.on_error is not None and self.on_error not in policies:
                raise RegistrationError(
                    f"on_error must be warn, ignore or block, got {self.on_error!r}"
                )
        else:
            by_event = self.on_error
        for key, value in by_event.items():
            resolve_event(key)
            if value not in policies:
                raise RegistrationError(
                    f"on_error[{key!r}] must be warn, ignore or block, got {value!r}"
                )
        for key, mode in self.execution.items():
            resolve_event(key)
            if mode not in ("parallel", "chained"):
                raise RegistrationError(
                    f"execution[{key!r}] must be 'parallel' or 'chained', got {mode!r}"
                )
        for key in self.tool_aliases:
            if not isinstance(key, str) or not isinstance(self.tool_aliases[key], str):
                raise RegistrationError("tool_aliases must map tool names to tool names (strings)")
        if self.stop_continuation_cap < 0:
            raise RegistrationError("stop_continuation_cap must be 0 or more")
        if self.max_processes is not None and self.max_processes < 1:
            raise RegistrationError("max_processes must be at least 1")
        log = self.decision_log
        if not (
            log is None
            or isinstance(log, (str, os.PathLike))
            or callable(getattr(log, "write", None))
        ):
            raise RegistrationError(
                "decision_log must be a path or an object with write(record), got "
                f"{_type_name(log)}"
            )

    def add(
        self,
        other: HookRegistry | SourcedGroups | Mapping[HookEvent | str, Sequence[MatcherLike]],
        *,
        source: Source | str | None = None,
    ) -> HookRegistry:
        """A new registry with more groups: another registry's sources, a loader's
        :class:`SourcedGroups`, or a ``{event: [HookMatcher]}`` mapping (with ``source``)."""
        if isinstance(other, HookRegistry):
            extra = other.sources
        elif isinstance(other, SourcedGroups):
            extra = (other,)
        else:
            src = source if isinstance(source, Source) else Source(label=source or "python")
            notes: list[Diagnostic] = []
            groups = _groups_from_hooks(other, src.dialect, notes)
            diagnostics = (*untyped_notes(groups, src), *(d.at(source=src.label) for d in notes))
            extra = (SourcedGroups(source=src, groups=groups, diagnostics=diagnostics),)
        return attrs.evolve(self, sources=(*self.sources, *extra))

    def evolve(self, **options: Any) -> HookRegistry:
        """A new registry with other options (``tool_aliases``, ``on_error``, ...).

        Raises:
            RegistrationError, UnknownEventError: as the constructor.
        """
        return attrs.evolve(self, **options)

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """What loading and compiling had to say: files that did not load, groups and
        handlers dropped, matchers ignored, each naming its source and place.

        Those of severity error are also logged once per compile, at WARNING (at ERROR:
        those that make a hook fail open on every call, ``program_not_found`` and
        ``invalid_output``), to the ``agent_hooks.diagnostics`` logger.
        """
        return self.compile().diagnostics

    def compile(self) -> CompiledRegistry:
        """The compiled snapshot (built once, then cached). Its diagnostics of severity
        error are logged (WARNING or ERROR, logger ``agent_hooks.diagnostics``: see
        :func:`~agent_hooks._base._diagnostics.log_errors`) when it is built."""
        cache = self._cache
        if not cache:
            compiled = _compile(self)
            cache.append(compiled)
            log_errors(compiled.diagnostics, "registry")
        return cache[0]

    def session(
        self,
        *,
        session_id: str | None = None,
        cwd: str | None = None,
        transcript_path: str | None = None,
        permission_mode: str | None = None,
        project_dir: str | None = None,
        env: Mapping[str, str] | None = None,
        on_rewake: RewakeCallback | None = None,
        on_background_result: BackgroundCallback | None = None,
        observers: Sequence[Observer] = (),
    ) -> Session:
        """Open a session: ``async with registry.session(session_id=..., cwd=...) as s``.

        Args:
            session_id, cwd, transcript_path, permission_mode: the envelope filled into
                every input that leaves them unset (``cwd`` defaults to the process's
                working directory).
            project_dir: the project root for ``CLAUDE_PROJECT_DIR`` (default: ``cwd``).
            env: extra variables for every command hook of this session.
            on_rewake: called (sync or async) with the reason when a background handler
                with ``async_rewake`` blocks.
            on_background_result: called (sync or async) with each background result as
                it finishes, in addition to its delivery with the next dispatch.
            observers: :class:`~agent_hooks.Observer` objects for this session, after
                the registry's own.
        """
        return Session(
            self.compile(),
            session_id=session_id,
            cwd=cwd,
            transcript_path=transcript_path,
            permission_mode=permission_mode,
            project_dir=project_dir,
            env=env,
            on_rewake=on_rewake,
            on_background_result=on_background_result,
            observers=observers,
        )

    def _policy(self, event: AnyEvent) -> OnError | None:
        if self.on_error is None or isinstance(self.on_error, str):
            return self.on_error
        for key, value in self.on_error.items():
            if resolve_event(key) == event:
                return value
        return None

    def execution_for(self, event: AnyEvent) -> Execution:
        """``chained`` or ``parallel`` for an event: the option, else the table."""
        for key, value in self.execution.items():
            if resolve_event(key) == event:
                return value
        return "chained" if spec_for(event).chained else "parallel"


def _compile(reg: HookRegistry) -> CompiledRegistry:
    diags: list[Diagnostic] = []
    ordered = sorted(enumerate(reg.sources), key=lambda p: (p[1].source.precedence, p[0]))
    per_event: dict[AnyEvent, list[Group]] = {}
    disabled: list[CompiledNode] = []
    ordinal = 0
    for _, sg in ordered:
        diags.extend(sg.diagnostics)
        src = sg.source
        if src.env:  # a copy: editing the caller's dict after compiling changes nothing
            src = attrs.evolve(src, env=MappingProxyType(dict(src.env)))
        for group in sg.groups:
            spec = spec_for(group.event)
            where = {"source": src.label, "location": group.location}
            try:
                matcher = _group_matcher(spec, group, src.dialect, diags, where)
            except _DropGroup:
                continue
            nodes: list[CompiledNode] = []
            for hi, node in enumerate(group.nodes):
                loc = group.node_locations[hi] if hi < len(group.node_locations) else None
                cn = _compile_node(reg, spec, group, src, node, ordinal, loc, diags)
                ordinal += 1
                if cn is None:
                    continue
                if node.disabled is not None:
                    disabled.append(cn)
                    continue
                nodes.append(cn)
            if nodes:
                per_event.setdefault(group.event, []).append(Group(ordinal, matcher, tuple(nodes)))
    index: dict[AnyEvent, EventIndex] = {}
    flat: dict[AnyEvent, tuple[CompiledNode, ...]] = {}
    for event, groups in per_event.items():
        index[event] = EventIndex.build(spec_for(event), groups)
        all_nodes = tuple(n for g in groups for n in g.nodes)
        flat[event] = all_nodes
    observers = reg.observers
    if reg.decision_log is not None:
        from ._audit import decision_log_observer

        observers = (*observers, decision_log_observer(reg.decision_log, reg))
    return CompiledRegistry(
        registry=reg,
        observers=observers,
        has_shadow=any(cn.info.shadow for nodes in flat.values() for cn in nodes),
        diagnostics=tuple(diags),
        nodes=MappingProxyType(flat),
        disabled=tuple(disabled),
        tool_aliases=MappingProxyType(dict(reg.tool_aliases)),
        execution=MappingProxyType({e: reg.execution_for(e) for e in (*CAPABILITIES, *per_event)}),
        index=MappingProxyType(index),
    )


def untyped_notes(groups: Iterable[MatcherGroup], source: Source) -> tuple[Diagnostic, ...]:
    """One ``untyped_event`` warning per event of ``groups`` this version does not type
    (at its first group): its hooks run, with the payload as it came."""
    seen: dict[AnyEvent, MatcherGroup] = {}
    for g in groups:
        if isinstance(g.event, UntypedEvent):
            seen.setdefault(g.event, g)
    native = source.dialect.native
    documented = {e.name for e in native.events if e.name == e.event} if native else set()
    return tuple(
        Diagnostic(
            code=DiagnosticCode.UNTYPED_EVENT,
            message=(
                f"event {event.value!r} is not typed by this version of agent_hooks; its "
                "hooks run for that exact name, with the payload as it came, and their "
                "answers are reduced by the rules every event shares"
                + (f" (a documented {source.dialect.name} event)" if event in documented else "")
            ),
            # an event the harness documents is expected here: said, not warned about
            severity=Severity.INFO if event in documented else Severity.WARNING,
            source=source.label,
            location=g.location,
        )
        for event, g in seen.items()
    )


class _DropGroup(Exception):
    """A group is dropped; its message says why (the diagnostic's words)."""


def _group_matcher(
    spec: EventSpec,
    group: MatcherGroup,
    dialect: Dialect,
    diags: list[Diagnostic],
    where: dict[str, Any],
    *,
    strict: bool = False,
) -> CompiledMatcher:
    """The group's compiled matcher. A matcher that cannot be used drops the group
    with a diagnostic of severity error; ``strict`` (Python registration) raises
    :class:`_DropGroup` with the same words and adds no diagnostic."""

    def drop(code: DiagnosticCode, problem: str, then: str = "; group dropped") -> _DropGroup:
        if not strict:
            diags.append(
                Diagnostic(
                    code=code,
                    message=f"{problem}{then}",
                    severity=Severity.ERROR,
                    **where,
                )
            )
        return _DropGroup(problem)

    text: object = group.matcher
    if text is not None and not isinstance(text, str):
        raise drop(
            DiagnosticCode.INVALID_MATCHER,
            f"'matcher' must be a string, got {_type_name(text)} {text!r}",
        )
    if text is not None and text.strip() not in ("", "*") and spec.matcher_field is None:
        if dialect.reject_matcher_without_field:
            if strict:
                raise _DropGroup(
                    f"{spec.event.value} has no matcher field; matcher {text!r} not allowed "
                    f"in the {dialect.name} dialect"
                )
            raise drop(
                DiagnosticCode.UNSUPPORTED_MATCHER,
                f"{spec.event.value} has no matcher field; group with matcher {text!r}",
                " dropped",
            )
        if not strict:
            diags.append(
                Diagnostic(
                    code=DiagnosticCode.UNSUPPORTED_MATCHER,
                    message=f"{spec.event.value} has no matcher field; matcher {text!r} ignored, the group runs on every firing",
                    severity=Severity.INFO,
                    **where,
                )
            )
        return compile_matcher(None, dialect)
    try:
        return compile_matcher(text, dialect)
    except re.error as exc:
        raise drop(
            DiagnosticCode.INVALID_MATCHER,
            f"matcher {text!r} is not a valid regular expression ({exc})",
        ) from None


def _compile_node(
    reg: HookRegistry,
    spec: EventSpec,
    group: MatcherGroup,
    src: Source,
    node: HandlerNode,
    ordinal: int,
    location: str | None,
    diags: list[Diagnostic],
) -> CompiledNode | None:
    where = {"source": src.label, "location": location, "handler": node.name}
    if_rule: IfRule | None = None
    if node.if_rule:
        if spec.matcher_field != "tool_name":
            diags.append(
                Diagnostic(
                    code=DiagnosticCode.INVALID_HANDLER,
                    message=(
                        f"'if' applies to tool events only; on {spec.event.value} the handler "
                        "never runs (as in Claude Code)"
                    ),
                    severity=Severity.WARNING,
                    **where,
                )
            )
            return None
        else:
            try:
                if_rule = parse_if_rule(node.if_rule)
            except ValueError as exc:
                diags.append(
                    Diagnostic(
                        code=DiagnosticCode.INVALID_HANDLER,
                        message=f"{exc}; handler dropped",
                        severity=Severity.ERROR,
                        **where,
                    )
                )
                return None
    timeout = node.timeout or group.timeout or src.dialect.default_timeout or spec.default_timeout
    if src.dialect.min_timeout:
        timeout = max(timeout, src.dialect.min_timeout)
    cap = next((c for e, c in src.dialect.max_timeouts.items() if e == spec.event), None)
    if cap is not None:
        timeout = min(timeout, cap)
    policy: OnError = node.on_error or group.on_error or reg._policy(spec.event) or "warn"
    if (spec.fails_closed and src.dialect is DOCKER) or (
        reg.fail_closed and spec.can_block and not node.background
    ):
        policy = "block"
    shadow = node.shadow or group.shadow or src.shadow or reg.shadow
    if shadow and not node.shadow:
        node = attrs.evolve(node, shadow=True)
    if shadow and node.dedupe_key is not None:
        # A shadow copy of an enforcing command must never stand in for it (run once).
        node = attrs.evolve(node, dedupe_key=("shadow", node.dedupe_key))
    info = HandlerInfo(
        name=node.name,
        kind=node.kind,
        source=src.label,
        matcher=group.matcher,
        location=location,
        status_message=node.status_message,
        shadow=shadow,
    )
    return CompiledNode(
        node=node,
        event=spec.event,
        info=info,
        ordinal=ordinal,
        timeout=float(timeout),
        on_error=policy,
        timeout_blocks=node.timeout_blocks and spec.callback_timeout_blocks,
        dialect=src.dialect,
        env=src.env,
        if_rule=if_rule,
        sequential=group.sequential,
    )
