"""Values the Stop and SubagentStop inputs share: the session's background tasks
and its scheduled wake-ups."""

from __future__ import annotations

import attrs

from .._model import meta

__all__ = ["BackgroundTask", "SessionCron"]


@attrs.frozen(kw_only=True)
class BackgroundTask:
    """One in-flight background task in a Stop/SubagentStop ``background_tasks`` list."""

    id: str | None = attrs.field(default=None, metadata=meta("Task identifier."))
    type: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Which feature created the task: ``shell``, ``subagent``, ``monitor``, "
            "``workflow``, ``teammate``, ``cloud session``, ``MCP task``, or a raw type."
        ),
    )
    status: str | None = attrs.field(default=None, metadata=meta("Current task status."))
    description: str | None = attrs.field(
        default=None, metadata=meta("Free-text description, capped at 1000 characters.")
    )
    command: str | None = attrs.field(
        default=None, metadata=meta("Shell command line; ``shell`` tasks only.")
    )
    agent_type: str | None = attrs.field(
        default=None, metadata=meta("Subagent type name; ``subagent`` tasks only.")
    )
    server: str | None = attrs.field(
        default=None, metadata=meta("MCP server name; ``monitor`` and ``MCP task`` tasks only.")
    )
    tool: str | None = attrs.field(
        default=None, metadata=meta("MCP tool name; ``monitor`` and ``MCP task`` tasks only.")
    )
    name: str | None = attrs.field(
        default=None, metadata=meta("Workflow name; ``workflow`` tasks only.")
    )


@attrs.frozen(kw_only=True)
class SessionCron:
    """One session-scoped scheduled wake-up in a Stop/SubagentStop ``session_crons`` list."""

    id: str | None = attrs.field(default=None, metadata=meta("Cron task identifier."))
    schedule: str | None = attrs.field(
        default=None, metadata=meta("Cron expression (``0 9 * * 1-5``).")
    )
    recurring: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``False`` for a one-shot wake-up, ``True`` when it re-fires on every match."
        ),
    )
    prompt: str | None = attrs.field(
        default=None,
        metadata=meta("Prompt submitted when the cron fires, capped at 1000 characters."),
    )
