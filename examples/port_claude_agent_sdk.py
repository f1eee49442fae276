"""Claude Agent SDK hooks, used unchanged.

Callbacks written for the Claude Agent SDK, ``(input_data, tool_use_id, context)``
returning wire dicts, go straight into ``agent_hooks.HookMatcher``; only the
import changes. Wire keys (``hookSpecificOutput``, ``continue_``) are decoded as
the SDK would, and the answers come back typed.

Run: python examples/port_claude_agent_sdk.py
"""

from __future__ import annotations

from typing import Any

import anyio

from agent_hooks import HookMatcher, HookRegistry  # was: from claude_agent_sdk import HookMatcher

Payload = dict[str, Any]


# ---- the SDK code, as it was --------------------------------------------------
async def check_bash_command(input_data: Payload, tool_use_id: str | None, context: Any) -> Payload:
    command = input_data["tool_input"].get("command", "")
    if "foo.sh" in command:
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "Command contains invalid pattern: foo.sh",
            }
        }
    return {}


async def add_ticket_context(input_data: Payload, tool_use_id: str | None, context: Any) -> Payload:
    ctx = "Ticket: PROJ-7"
    return {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": ctx}}


async def stop_on_error(input_data: Payload, tool_use_id: str | None, context: Any) -> Payload:
    if "error" in str(input_data.get("tool_response", "")).lower():
        return {"continue_": False, "stopReason": "A tool failed; stopping for review"}
    return {}


hooks = {
    "PreToolUse": [HookMatcher(matcher="Bash", hooks=[check_bash_command])],
    "UserPromptSubmit": [HookMatcher(hooks=[add_ticket_context])],
    "PostToolUse": [HookMatcher(matcher="Bash", hooks=[stop_on_error], timeout=30)],
}
# -------------------------------------------------------------------------------

registry = HookRegistry(hooks)


async def main() -> None:
    async with registry.session(session_id="ported") as session:
        prompt = await session.submit_prompt("fix the build")
        print(f"UserPromptSubmit -> context: {prompt.context}")
        runs = [("./foo.sh --deploy", "ok"), ("make", "ok"), ("make test", "Error: 3 failed")]
        for command, result in runs:
            outcome = await session.call_tool("Bash", {"command": command}, lambda _, r=result: r)
            if outcome.denied:
                print(f"Bash {command!r:20} -> DENIED: {outcome.reason}")
            elif outcome.stop:
                print(f"Bash {command!r:20} -> ran; the agent must stop: {outcome.stop_reason}")
            else:
                print(f"Bash {command!r:20} -> ran: {outcome.model_view}")


if __name__ == "__main__":
    anyio.run(main)
