"""The wire row of Kiro CLI 2.x hooks (the Amazon Q Developer CLI lineage): camelCase
event names in ``hook_event_name``, Claude Code's snake_case payload keys, Kiro's tool
names (``execute_bash``, ``fs_read``, ``fs_write``), and no JSON answer: exit 2 blocks
``preToolUse`` with stderr going to the model, and plain stdout on exit 0 is added to
the agent's context on ``agentSpawn`` and ``userPromptSubmit``.

``agentSpawn`` is SessionStart; ``stop`` (listed by kiro.dev, its payload undocumented)
is Stop and takes no answer.
"""

from __future__ import annotations

from ._native import AnswerKeys, NativeEvent, NativeWire

__all__ = ["KIRO_WIRE"]

_PATH = {"path": "file_path", "file_text": "content"}

KIRO_WIRE = NativeWire(
    events=(
        NativeEvent(name="agentSpawn", event="SessionStart", answer="context"),
        NativeEvent(name="userPromptSubmit", event="UserPromptSubmit", answer="context"),
        NativeEvent(name="preToolUse", event="PreToolUse", answer="block"),
        NativeEvent(name="postToolUse", event="PostToolUse"),
        NativeEvent(name="stop", event="Stop"),
    ),
    tool_names={"execute_bash": "Bash", "fs_read": "Read", "fs_write": "Write"},
    tool_input_keys={"fs_read": _PATH, "fs_write": _PATH},
    exit_status_only=True,
    answers={
        "block": AnswerKeys(
            decision="decision",
            decision_values={"deny": "block", "block": "block"},
            nearest={"ask": "block"},
            reasons=("reason",),
        ),
        "context": AnswerKeys(context="context"),
    },
)
"""Kiro CLI 2.x (hooks in an agent configuration)."""
