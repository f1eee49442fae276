"""The wire row of Windsurf's Cascade hooks: snake_case ``pre_*``/``post_*`` events, the
event's fields in a ``tool_info`` object, and no JSON answer at all (a Windsurf answer
is an exit status: 2 blocks a ``pre_*`` action, stderr going to the agent).

============================================  ==================  ===========================
Windsurf event                                canonical event      tool / fields
============================================  ==================  ===========================
``pre_read_code`` / ``post_read_code``        PreToolUse /         ``Read`` (``file_path``)
                                              PostToolUse
``pre_write_code`` / ``post_write_code``      PreToolUse /         ``Edit`` (``file_path``,
                                              PostToolUse          ``edits``)
``pre_run_command`` / ``post_run_command``    PreToolUse /         ``Bash`` (``command_line``
                                              PostToolUse          is ``command``; ``cwd``)
``pre_mcp_tool_use`` / ``post_mcp_tool_use``  PreToolUse /         ``mcp__<server>__<tool>``
                                              PostToolUse          (arguments, ``mcp_result``)
``pre_user_prompt``                           UserPromptSubmit     ``user_prompt`` is ``prompt``
``post_cascade_response``,                    carried untyped      as sent
``post_cascade_response_with_transcript``,
``post_setup_worktree``
============================================  ==================  ===========================

``trajectory_id`` is the session. The shell events come first: a canonical PreToolUse or
PostToolUse of no known tool is written as the shell's.
"""

from __future__ import annotations

import attrs

from ._native import AnswerKeys, NativeEvent, NativeWire

__all__ = ["WINDSURF_WIRE"]

_MCP = ("mcp_server_name", "mcp_tool_name")
_MCP_KEYS = (*_MCP, "mcp_tool_arguments")


def _pre_and_post(
    action: str, tool: str, lift: tuple[str, ...], nested_keys: tuple[str, ...]
) -> tuple[NativeEvent, NativeEvent]:
    """``pre_<action>`` (PreToolUse, which may block) and ``post_<action>`` (PostToolUse),
    both about ``tool`` with the same fields."""
    pre = NativeEvent(
        name=f"pre_{action}",
        event="PreToolUse",
        tool=tool,
        lift=lift,
        nested_keys=nested_keys,
        answer="block",
    )
    return pre, attrs.evolve(pre, name=f"post_{action}", event="PostToolUse", answer="post")


_VERDICT = AnswerKeys(
    decision="decision", decision_values={"deny": "block", "block": "block"}, reasons=("reason",)
)
"""What an exit status can say: block (2) with stderr as the reason, or not."""

WINDSURF_WIRE = NativeWire(
    events=(
        *_pre_and_post("run_command", "Bash", ("command_line",), ("command_line", "cwd")),
        *_pre_and_post("read_code", "Read", ("file_path",), ("file_path",)),
        *_pre_and_post("write_code", "Edit", ("file_path", "edits"), ("file_path", "edits")),
        NativeEvent(
            name="pre_mcp_tool_use",
            event="PreToolUse",
            mcp_keys=_MCP,
            renames={"mcp_tool_arguments": "tool_input"},
            nested_keys=_MCP_KEYS,
            answer="block",
        ),
        NativeEvent(
            name="post_mcp_tool_use",
            event="PostToolUse",
            mcp_keys=_MCP,
            renames={"mcp_tool_arguments": "tool_input", "mcp_result": "tool_response"},
            nested_keys=(*_MCP_KEYS, "mcp_result"),
            answer="post",
        ),
        NativeEvent(
            name="pre_user_prompt",
            event="UserPromptSubmit",
            renames={"user_prompt": "prompt"},
            nested_keys=("user_prompt",),
            answer="block",
        ),
        NativeEvent(
            name="post_cascade_response",
            event="post_cascade_response",
            nested_keys=("response",),
        ),
        NativeEvent(
            name="post_cascade_response_with_transcript",
            event="post_cascade_response_with_transcript",
            nested_keys=("transcript_path",),
        ),
        NativeEvent(
            name="post_setup_worktree",
            event="post_setup_worktree",
            nested_keys=("worktree_path", "root_workspace_path"),
        ),
    ),
    event_key="agent_action_name",
    nested="tool_info",
    markers=frozenset({"agent_action_name", "trajectory_id", "execution_id", "tool_info"}),
    fallbacks={"session_id": "trajectory_id"},
    tool_input_keys={"Bash": {"command_line": "command"}},
    exit_status_only=True,
    answers={"block": attrs.evolve(_VERDICT, nearest={"ask": "block"}), "post": _VERDICT},
)
"""Windsurf (Cascade hooks)."""
