"""Prompt, turn, model-call and stopping events.

User prompts (and Docker Agent's steering and follow-up queues), message display,
turn boundaries, the calls to the model, and the end of a response (Stop,
StopFailure, Codex's Interrupt).

One module per event, so that a process that handles one event creates only
that event's classes; this package holds the field descriptions they share.
"""

from __future__ import annotations

__all__: list[str] = []

PROMPT_CONTEXT = (
    "Text added to the model's context alongside the submitted prompt (Docker Agent: a "
    "transient system message for that turn only). Collected from every handler in order, "
    "newline-joined."
)
AGENT_NAME = "Docker Agent: name of the agent that was running."
STOP_RESPONSE = (
    "Docker Agent: the model's final assistant text (Claude-style hosts send "
    "``last_assistant_message`` instead)."
)
LAST_USER_MESSAGE = "Docker Agent: the most recent user message when the event was dispatched."
MODEL_ID = (
    "Docker Agent: the model as ``<provider>/<model>`` (``anthropic/claude-sonnet-4-5``), or "
    "the harness label (``claude-code``) for harness agents."
)
