"""Checks of the payloads a harness sent: they decode with agent_hooks' public API without
diagnostics, reach command hooks unchanged, and what agent_hooks does not know of them
(events it does not type, fields no input class declares) for the report."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast

import attrs

import agent_hooks


def ordered(data: bytes) -> Any:
    """JSON with every object as its list of (key, value) pairs: equal only when the
    keys, their order and the values are equal."""
    return json.loads(data, object_pairs_hook=list)


def configured_event(path: Path) -> str:
    """The event the harness's entry was for (the recording wrapper's file name)."""
    return path.stem.split("-", 2)[2]


def public_decoder(dialect: str | None) -> Callable[..., agent_hooks.DecodedInput] | None:
    """The public function that decodes this harness's payloads: ``decode_input`` for
    the canonical dialects, a dialect-aware decoder (``decode_payload``, issue 17) for
    the others, ``None`` when this build exports none."""
    if dialect is None:
        return agent_hooks.decode_input
    for name in ("decode_payload", "decode_input"):
        fn = getattr(agent_hooks, name, None)
        if fn is not None and "dialect" in inspect.signature(fn).parameters:
            return cast("Callable[..., agent_hooks.DecodedInput]", fn)
    return None


def decode(raw: bytes, *, dialect: str | None, event: str) -> agent_hooks.DecodedInput:
    """Decode with the public API, told the dialect (and the entry's event, for
    payloads that do not name it, such as Copilot's camelCase form)."""
    fn = public_decoder(dialect)
    assert fn is not None, f"no public decoder for the {dialect} dialect"
    kwargs: dict[str, Any] = {}
    if dialect is not None:
        kwargs["dialect"] = dialect
        if b"hook_event_name" not in raw:
            kwargs["event"] = event
    return fn(raw, **kwargs)


def unchanged_problems(
    sent: Iterable[tuple[Path, bytes]], received: Iterable[tuple[Path, bytes]]
) -> list[str]:
    """Each payload the harness sent must reach the command hook as it was (same keys,
    same order, same values): a multiset match, whatever order the hooks ran in."""
    pending = [(p, ordered(b)) for p, b in received]
    problems = []
    for path, raw in sent:
        want = ordered(raw)
        for i, (_, got) in enumerate(pending):
            if got == want:
                del pending[i]
                break
        else:
            problems.append(
                f"{path.name}: no command hook got this payload unchanged:\n  {raw[:600]!r}"
            )
    problems += [
        f"{p.name}: a command hook got a payload the harness never sent" for p, _ in pending
    ]
    return problems


@attrs.define
class HarnessReport:
    """What one harness sent, compared with what this build of agent_hooks knows."""

    harness: str
    version: str
    pinned: str
    configured: list[str] = attrs.Factory(list)
    fired: dict[str, int] = attrs.Factory(dict)
    untyped: set[str] = attrs.Factory(set)
    unknown_fields: dict[str, set[str]] = attrs.Factory(dict)
    diagnostics: list[str] = attrs.Factory(list)

    def add(self, event: str, decoded: agent_hooks.DecodedInput) -> None:
        self.fired[event] = self.fired.get(event, 0) + 1
        if isinstance(decoded.input, agent_hooks.UntypedInput):
            self.untyped.add(event)
        extra = getattr(decoded.input, "extra", None) or {}
        if extra:
            self.unknown_fields.setdefault(event, set()).update(extra)
        self.diagnostics += [f"{event}: {d}" for d in decoded.diagnostics]

    def lines(self) -> list[str]:
        which = "the pinned release" if self.version == self.pinned else f"pinned: {self.pinned}"
        out = [
            f"{self.harness} {self.version} ({which}): events fired {dict(sorted(self.fired.items()))}"
        ]
        never = sorted(set(self.configured) - set(self.fired))
        if never:
            out.append(f"  configured but not fired in this run: {', '.join(never)}")
        if self.untyped:
            out.append(
                f"  NEW events (not typed by this agent_hooks): {', '.join(sorted(self.untyped))}"
            )
        for event, fields in sorted(self.unknown_fields.items()):
            out.append(f"  NEW fields of {event} (kept in .extra): {', '.join(sorted(fields))}")
        out += [f"  diagnostic: {d}" for d in self.diagnostics]
        if not (self.untyped or self.unknown_fields or self.diagnostics):
            out.append("  every payload typed; no unknown events or fields")
        return out


REPORTS: dict[str, HarnessReport] = {}
"""Filled by the payload tests; printed at the end of the run (conftest)."""
