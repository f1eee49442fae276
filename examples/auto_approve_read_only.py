"""Auto-approve read-only tools; everything else goes to the app's permission prompt.

A PreToolUse hook answers ``allow`` for read-only calls. ``call_tool`` then still
asks the application's permission callback, with ``hook_decision="allow"``, so
the app can approve without bothering the user; calls the hook had no opinion
about arrive with ``hook_decision=None`` and follow the app's normal flow.

Run: python examples/auto_approve_read_only.py
"""

from __future__ import annotations

import shlex

import anyio

from agent_hooks import (
    HookMatcher,
    HookRegistry,
    PermissionPrompt,
    PreToolUseInput,
    PreToolUseOutput,
)

READ_ONLY_TOOLS = {"Read", "Glob", "Grep", "LS"}
READ_ONLY_COMMANDS = {"ls", "cat", "head", "tail", "wc", "pwd", "grep", "rg"}
READ_ONLY_GIT = {"status", "log", "diff", "show"}


def is_read_only(tool: str, command: str) -> bool:
    if tool in READ_ONLY_TOOLS:
        return True
    if tool != "Bash" or any(c in command for c in ";&|><`$"):
        return False  # compound commands and redirections are not judged here
    words = shlex.split(command) or [""]
    if words[0] == "git":
        return len(words) > 1 and words[1] in READ_ONLY_GIT
    return words[0] in READ_ONLY_COMMANDS


async def approve_read_only(input: PreToolUseInput) -> PreToolUseOutput | None:
    if is_read_only(input.tool_name, str(input.tool_input.get("command", ""))):
        return PreToolUseOutput(permission_decision="allow", permission_decision_reason="read-only")
    return None  # no opinion: the app's normal permission flow


def ask_user(prompt: PermissionPrompt) -> bool:
    """The application's permission callback (here: a user who says no)."""
    if prompt.hook_decision == "allow":
        print(f"   app: auto-approved ({prompt.reason})")
        return True
    print(f"   app: asks the user about {prompt.tool_name} -> the user says no")
    return False


registry = HookRegistry({"PreToolUse": [HookMatcher(hooks=[approve_read_only])]})


async def main() -> None:
    async with registry.session(session_id="approve") as session:
        for tool, tool_input in [
            ("Read", {"file_path": "README.md"}),
            ("Bash", {"command": "git status"}),
            ("Bash", {"command": "ls -la src"}),
            ("Bash", {"command": "ls; rm notes.txt"}),
            ("Write", {"file_path": "notes.txt", "content": "hi"}),
        ]:
            print(f"{tool} {tool_input}")
            outcome = await session.call_tool(tool, tool_input, lambda _: "ok", permission=ask_user)
            print(f"   -> {'ran' if outcome.ran else 'refused: ' + str(outcome.reason)}")


if __name__ == "__main__":
    anyio.run(main)
