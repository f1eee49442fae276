"""The README's events table is generated from the capability table and must match it."""

from __future__ import annotations

from pathlib import Path

from agent_hooks import CAPABILITIES, HookEvent
from agent_hooks._events._docs import BEGIN, END, events_markdown, replace_section

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_events_section_is_current() -> None:
    text = README.read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert replace_section(text) == text, (
        "run: python -m agent_hooks._events._docs --write README.md"
    )


def test_every_event_has_a_row() -> None:
    table = events_markdown()
    for event in HookEvent:
        assert f"| {event.value} | `{event.snake}` |" in table
    assert len(CAPABILITIES) == len(HookEvent)


def test_rows_say_what_the_table_says() -> None:
    rows = {line.split(" | ")[0].strip("| "): line for line in events_markdown().splitlines()[2:]}
    assert "| deny |" in rows["PreToolUse"]
    assert "keep going" in rows["Stop"]
    assert "claude: `additional_context`" in rows["SessionStart"]
    assert "| 30 s |" in rows["UserPromptSubmit"]
    assert "(basename)" in rows["FileChanged"]
