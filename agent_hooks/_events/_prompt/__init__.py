"""Prompt, turn, model-call and stopping events.

User prompts (and Docker Agent's steering and follow-up queues), message display,
turn boundaries, the calls to the model, switching the model, and the end of a
response (Stop, StopFailure, Codex's Interrupt).

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
FROM_MODEL = "The model in use before the switch (``claude-opus-5-5``)."
TO_MODEL = "The model the session switches to (``claude-haiku-5-5``)."
REQUESTED_MODEL = "What was asked for, as typed (an alias such as ``haiku``, or a model id)."
SWITCH_SOURCE = "What asked for the switch (``command`` for ``/model``)."
CONTEXT_TOKENS = "Tokens of conversation context the new model has to read."
PROMPT_CACHE_WARM = "Whether the prompt cache is warm for the new model."
CACHE_TTL = "Time to live of the prompt cache (``5m``, ``1h``)."
ESTIMATED_CACHE_WRITE_USD = (
    "Estimated cost in US dollars of writing the context to the new model's prompt cache."
)
PRICING = "Where the cost estimate's prices come from (``catalog``)."
LLM_REQUEST = (
    "Gemini CLI: the model request, ``{model, messages: [{role, content}], config, "
    "toolConfig}`` (Gemini CLI 0.61.0 sends text turns only, ``config`` with "
    "``temperature``, ``topP`` and ``topK``, and no ``toolConfig``)."
)
