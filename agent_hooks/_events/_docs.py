"""Documentation generated from the capability table (the README's events section).

``python -m agent_hooks._events._docs`` prints the section; ``--write docs/events.md`` replaces
the text between the ``<!-- events:begin -->`` and ``<!-- events:end -->``
markers. A test fails when the README and the table disagree.
"""

from __future__ import annotations

import sys

import attrs

from ._capabilities import CAPABILITIES, EventSpec, Exit2
from ._model import HookOutput
from ._names import HookEvent

__all__ = ["BEGIN", "END", "events_markdown", "replace_section"]

BEGIN = "<!-- events:begin (generated from the capability table: python -m agent_hooks._events._docs --write docs/events.md) -->"
END = "<!-- events:end -->"

_EXIT2 = {
    Exit2.DENY: "deny",
    Exit2.BLOCK: "block",
    Exit2.CONTINUE: "keep going",
    Exit2.FEEDBACK: "feedback to model",
    Exit2.USER: "user only",
    Exit2.IGNORED: "ignored",
}


def _own_fields(spec: EventSpec) -> str:
    base = {a.name for a in attrs.fields(HookOutput)}
    own = [a.name for a in attrs.fields(spec.output_type) if a.name not in base]
    if spec.top_level_decision:
        own = ["decision", "reason", *own]
    return ", ".join(f"`{n}`" for n in own) or "-"


def _stdout(spec: EventSpec) -> str:
    parts = []
    if spec.plain_stdout:
        parts.append(f"claude: `{spec.plain_stdout}`")
    if spec.docker_plain_stdout:
        parts.append(f"docker: `{spec.docker_plain_stdout}`")
    return "; ".join(parts) or "-"


def events_markdown() -> str:
    """The events table: what each event matches on and what its hooks can do."""
    lines = [
        "| event | docker name | matcher field | exit 2 / block | answer fields | plain stdout | timeout | notes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for event in HookEvent:
        spec = CAPABILITIES[event]
        notes = [spec.summary.rstrip(".")]
        if spec.rewrite:
            notes.append(f"rewrites `{spec.rewrite.input_field}`")
        if spec.chained:
            notes.append("chained by default")
        if spec.fails_closed:
            notes.append("fails closed (Docker)")
        if spec.context.value not in ("none",):
            notes.append(f"context: {spec.context.value}")
        matcher = f"`{spec.matcher_field}`" if spec.matcher_field else "-"
        if spec.matcher_basename:
            matcher += " (basename)"
        lines.append(
            f"| {event.value} | `{event.snake}` | {matcher} | {_EXIT2[spec.exit2]} | {_own_fields(spec)} "
            f"| {_stdout(spec)} | {spec.default_timeout:g} s | {'; '.join(notes)} |"
        )
    return "\n".join(lines) + "\n"


def replace_section(text: str) -> str:
    """``text`` with the generated section between the markers (unchanged without markers)."""
    start = text.find(BEGIN)
    end = text.find(END)
    if start < 0 or end < 0:
        return text
    return text[: start + len(BEGIN)] + "\n" + events_markdown() + text[end:]


def main(argv: list[str]) -> int:
    """Print the section, or ``--write PATH`` it into a file between the markers."""
    if len(argv) == 2 and argv[0] == "--write":
        with open(argv[1], encoding="utf-8") as f:
            text = f.read()
        with open(argv[1], "w", encoding="utf-8") as f:
            f.write(replace_section(text))
        return 0
    sys.stdout.write(events_markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
