"""Agent events: subagents, agent teams and tasks, agent switches, worktrees, MCP
elicitation, and the tool-approval audit record.

One module per event, so that a process that handles one event creates only
that event's classes; this package holds the field descriptions they share.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["ElicitationAction"]

ElicitationAction = Literal["accept", "decline", "cancel"]
TEAM_NAME = "Deprecated session-derived team name; hosts will stop sending it."
TASK_ID = "Identifier of the task."
TASK_SUBJECT = "Title of the task."
TASK_DESCRIPTION = "Detailed description of the task, when there is one."
MCP_SERVER_NAME = "Name of the MCP server that asked for input."
MODE = "Elicitation mode: ``form`` (fill in fields) or ``url`` (open a browser URL)."
ELICITATION_ID = "Identifier of the elicitation, shared by Elicitation and ElicitationResult."
