"""The loaded snapshot of hook files, and reloads.

:class:`LoadedConfig` is what every loader returns: the sources for a registry, the
files looked at and what became of each.

A :class:`LoadedConfig` is fixed: editing a hook file changes nothing until the
caller reloads. :func:`reload` loads again from the same places (with the same
trust policy, so an edited project file needs trust again) and reports what
changed, handler by handler and file by file::

    config = discover(project_dir)
    registry = config.registry()
    ...
    config, changes = reload(config)
    if changes:
        print("\\n".join(changes.summary()))
        registry = config.registry()
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from .._base._diagnostics import Diagnostic, Severity
from .._dispatch._registry import HookRegistry, SourcedGroups
from .._events._untyped import AnyEvent

__all__ = [
    "ConfigChanges",
    "FileChange",
    "HandlerRef",
    "LoadedConfig",
    "LoadedFile",
    "combine",
    "diff",
    "reload",
]


@attrs.frozen(kw_only=True)
class LoadedFile:
    """A configuration file a loader looked at, and what became of it."""

    path: str
    format: str
    """The file's format: one of a harness row's formats (``claude-settings``,
    ``codex-toml``, ``cursor``...; :data:`~._harness.HARNESSES`), ``deepagents-legacy``
    for Deep Agents' legacy shape, or ``docker-cli`` for Docker Agent's flags."""
    scope: str
    """``managed``, ``project``, ``local``, ``user``, ``plugin``, ``explicit``, ``cli``."""
    sha256: str | None = None
    """SHA-256 of the exact bytes read (``None`` when nothing could be read)."""
    status: str = "loaded"
    """``loaded``, ``untrusted``, ``disabled``, ``unreadable`` or ``invalid``."""
    project_dir: str | None = None
    precedence: int = 0
    handlers: int = 0
    """How many handlers it contributed (enabled and disabled entries)."""
    trust: str = "not-needed"
    """Whether the file needed trust and got it: ``trusted`` (the trust store, a session
    grant or ``trust_all``), ``hel-trust-file`` (hel's ``.hel/hooks-trust.json``, when
    :attr:`~agent_hooks.TrustPolicy.honor_hel_trust_file` is on), ``untrusted``,
    ``not-needed`` (not a project file, or a project file without hooks) or ``unknown``
    (a project file that could not be read)."""
    decision_log: str | None = None
    """The decision log the file names (agent_hooks's own ``"decision_log"`` key, an
    absolute path), ``None``: none."""


@attrs.frozen(kw_only=True)
class LoadedConfig:
    """A loaded configuration snapshot: fixed until you reload it.

    ``sources`` go straight into a registry (``HookRegistry(sources=loaded.sources)``
    or :meth:`registry`); every diagnostic lives in a source, so the registry's
    ``diagnostics`` include the loaders'. Combine snapshots with ``+``.

    ``skipped`` holds what the files that did not load contain (untrusted files, files
    switched off by ``disableAllHooks``), parsed for inspection only: they never reach
    :meth:`registry`. Parsing an untrusted file runs nothing (Python references are
    checked for their form, not imported); their own diagnostics live with them, not
    in :attr:`diagnostics`. ``agent-hooks check`` validates them.
    """

    sources: tuple[SourcedGroups, ...] = ()
    files: tuple[LoadedFile, ...] = ()
    skipped: tuple[SourcedGroups, ...] = ()
    """Groups parsed from files that did not load, for inspection (never run)."""
    recipe: Callable[[], LoadedConfig] | None = attrs.field(default=None, eq=False, repr=False)
    """How to load this configuration again (used by :meth:`reload`)."""

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Every loader diagnostic, in source order, without repeats."""
        seen: set[Diagnostic] = set()
        out: list[Diagnostic] = []
        for sg in self.sources:
            for d in sg.diagnostics:
                if d not in seen:
                    seen.add(d)
                    out.append(d)
        return tuple(out)

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        """The diagnostics of severity error (configuration errors)."""
        return tuple(d for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def decision_log(self) -> str | None:
        """The decision log a loaded file names (``"decision_log"``): the file's that
        runs first (lowest precedence; managed files before the others), ``None``:
        none does."""
        named = [f for f in self.files if f.status == "loaded" and f.decision_log]
        first = min(named, key=lambda f: f.precedence, default=None)
        return first.decision_log if first is not None else None

    def registry(self, **options: Any) -> HookRegistry:
        """A :class:`~agent_hooks.HookRegistry` of these sources (``options`` as for it);
        without a ``decision_log`` option, the one a file names (:attr:`decision_log`):
        ``agent-hooks run --log`` and ``AGENT_HOOKS_DECISION_LOG`` come before it."""
        if options.get("decision_log") is None and self.decision_log is not None:
            options["decision_log"] = self.decision_log
        return HookRegistry(sources=self.sources, **options)

    def __add__(self, other: LoadedConfig) -> LoadedConfig:
        if not isinstance(other, LoadedConfig):
            return NotImplemented
        return combine((self, other))

    def reload(self) -> tuple[LoadedConfig, ConfigChanges]:
        """Load again from the same places; returns ``(new_config, changes)``.

        See :func:`reload`.
        """
        return reload(self)


def combine(configs: Iterable[LoadedConfig]) -> LoadedConfig:
    """One snapshot of several; diagnostics-only sources that repeat are dropped."""
    parts = tuple(configs)
    sources: list[SourcedGroups] = []
    seen: set[Diagnostic] = set()
    for part in parts:
        for sg in part.sources:
            if not sg.groups and sg.diagnostics and all(d in seen for d in sg.diagnostics):
                continue
            seen.update(sg.diagnostics)
            sources.append(sg)
    recipes = [p.recipe for p in parts]
    recipe: Callable[[], LoadedConfig] | None = None
    if all(r is not None for r in recipes):

        def recipe() -> LoadedConfig:
            return combine(r() for r in recipes if r is not None)

    return LoadedConfig(
        sources=tuple(sources),
        files=tuple(f for p in parts for f in p.files),
        skipped=tuple(sg for p in parts for sg in p.skipped),
        recipe=recipe,
    )


@attrs.frozen(kw_only=True)
class HandlerRef:
    """A configured handler, as a reload compares them (its place in the file aside)."""

    event: AnyEvent
    source: str
    matcher: str | None
    name: str
    kind: str
    disabled: str | None = None
    location: str | None = attrs.field(default=None, eq=False)

    def __str__(self) -> str:
        matcher = f" [{self.matcher}]" if self.matcher not in (None, "", "*") else ""
        off = " (disabled)" if self.disabled else ""
        return f"{self.event.value}{matcher}: [{self.kind}] {self.name}{off} ({self.source})"


@attrs.frozen(kw_only=True)
class FileChange:
    """A configuration file that appeared, disappeared, or changed content or status."""

    path: str
    change: str
    """``added``, ``removed``, ``modified`` (new bytes) or ``status`` (e.g. now untrusted)."""
    before: str | None = None
    after: str | None = None


@attrs.frozen(kw_only=True)
class ConfigChanges:
    """What a reload changed. Falsy when nothing did."""

    added: tuple[HandlerRef, ...] = ()
    removed: tuple[HandlerRef, ...] = ()
    files: tuple[FileChange, ...] = ()
    new_diagnostics: tuple[Diagnostic, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.files)

    def by_event(self) -> dict[AnyEvent, tuple[tuple[HandlerRef, ...], tuple[HandlerRef, ...]]]:
        """Per event: (added, removed)."""
        events = dict.fromkeys(r.event for r in (*self.added, *self.removed))
        return {
            e: (
                tuple(r for r in self.added if r.event == e),
                tuple(r for r in self.removed if r.event == e),
            )
            for e in events
        }

    def summary(self) -> list[str]:
        """One line per change, for people."""
        lines = [f"file {f.change}: {f.path}" + _status(f) for f in self.files]
        for added, removed in self.by_event().values():
            lines += [f"+ {r}" for r in added]
            lines += [f"- {r}" for r in removed]
        return lines


def _status(f: FileChange) -> str:
    if f.change == "status":
        return f" ({f.before} -> {f.after})"
    return ""


def handler_refs(config: LoadedConfig) -> list[HandlerRef]:
    """Every handler of a snapshot (enabled and disabled), in source order."""
    refs = []
    for sg in config.sources:
        for g in sg.groups:
            for i, node in enumerate(g.nodes):
                refs.append(
                    HandlerRef(
                        event=g.event,
                        source=sg.source.label,
                        matcher=g.matcher,
                        name=node.name,
                        kind=node.kind,
                        disabled=node.disabled,
                        location=g.node_locations[i] if i < len(g.node_locations) else None,
                    )
                )
    return refs


def _multiset_minus(a: Iterable[HandlerRef], b: Iterable[HandlerRef]) -> tuple[HandlerRef, ...]:
    left = Counter(b)
    out = []
    for ref in a:
        if left[ref]:
            left[ref] -= 1
        else:
            out.append(ref)
    return tuple(out)


def diff(old: LoadedConfig, new: LoadedConfig) -> ConfigChanges:
    """What differs between two snapshots."""
    old_refs, new_refs = handler_refs(old), handler_refs(new)
    old_files = {f.path: f for f in old.files}
    new_files = {f.path: f for f in new.files}
    files: list[FileChange] = []
    for path, f in new_files.items():
        before = old_files.get(path)
        if before is None:
            files.append(FileChange(path=path, change="added", after=f.status))
        elif before.sha256 != f.sha256:
            files.append(
                FileChange(path=path, change="modified", before=before.status, after=f.status)
            )
        elif before.status != f.status:
            files.append(
                FileChange(path=path, change="status", before=before.status, after=f.status)
            )
    for path, f in old_files.items():
        if path not in new_files:
            files.append(FileChange(path=path, change="removed", before=f.status))
    old_diags = set(old.diagnostics)
    return ConfigChanges(
        added=_multiset_minus(new_refs, old_refs),
        removed=_multiset_minus(old_refs, new_refs),
        files=tuple(files),
        new_diagnostics=tuple(d for d in new.diagnostics if d not in old_diags),
    )


def reload(previous: LoadedConfig) -> tuple[LoadedConfig, ConfigChanges]:
    """Load ``previous``'s configuration again; returns ``(new_config, changes)``.

    Build the new registry with ``new_config.registry(...)``; sessions opened on
    the old registry keep their snapshot.

    Raises:
        ValueError: ``previous`` was not made by a loader (it has no recipe).
    """
    if previous.recipe is None:
        raise ValueError("this configuration was not made by a loader; it cannot be reloaded")
    new = previous.recipe()
    return new, diff(previous, new)
