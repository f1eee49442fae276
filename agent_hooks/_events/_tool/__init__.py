"""Tool events: before and after a tool call, permission prompts, Docker Agent's transforms.

One module per event, so that a process that handles one event creates only
that event's classes; this package holds the field descriptions they share.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["PermissionDecision"]

PermissionDecision = Literal["allow", "deny", "ask", "defer"]
TOOL_NAME = "Name of the tool being called (``Bash``, ``Edit``, ``mcp__server__tool``, ``shell``)."
TOOL_INPUT = (
    "Arguments of the tool call, as the model produced them (or as earlier hooks rewrote them)."
)
TOOL_USE_ID = "Identifier of this tool call, shared by its Pre/Post events."
AGENT_NAME = (
    "Docker Agent: name of the agent that issued the tool call; in multi-agent setups this "
    "is the active sub-agent, not always the root agent."
)
DURATION_MS = (
    "Tool execution time in milliseconds, excluding permission prompts and PreToolUse hooks, "
    "when the host measures it."
)
ADDITIONAL_CONTEXT = (
    "Text added to the model's context next to the tool result. Collected from every "
    "handler in order, newline-joined."
)
METADATA = (
    "Free-form annotations for the host (Docker Agent ``metadata``: string keys and values "
    "merged into the tool-call confirmation prompt, e.g. ``safety_label``, ``blast_radius``, "
    "``category``, ``reason``), merged key by key, later handlers winning."
)
