"""Quick start: a Python callback and a shell hook in one matcher, one typed decision.

Run: python examples/quickstart.py
"""

from __future__ import annotations

import anyio

from agent_hooks import (
    CommandHook,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
)


async def protect_env_files(input: PreToolUseInput) -> PreToolUseOutput | None:
    """Typed callback: deny edits to .env files, no opinion otherwise."""
    path = str(input.tool_input.get("file_path", ""))
    if path.endswith(".env"):
        return PreToolUseOutput(
            permission_decision="deny", permission_decision_reason=f"{path} holds secrets"
        )
    return None


# A shell hook written for Claude Code, unchanged: reads the payload on stdin,
# blocks with exit code 2 and a reason on stderr.
BLOCK_RM_RF = r"""
cmd=$(python3 -c 'import json,sys; print(json.load(sys.stdin).get("tool_input",{}).get("command",""))')
case "$cmd" in
  *"rm -rf"*) echo "rm -rf is not allowed here" >&2; exit 2 ;;
esac
exit 0
"""

registry = HookRegistry(
    {
        "PreToolUse": [
            HookMatcher(
                matcher="Bash|Edit|Write",
                hooks=[protect_env_files, CommandHook(command=BLOCK_RM_RF)],
            )
        ]
    }
)


async def main() -> None:
    async with registry.session(session_id="quickstart") as session:
        for tool, tool_input in [
            ("Bash", {"command": "ls -la"}),
            ("Bash", {"command": "rm -rf build/"}),
            ("Edit", {"file_path": "/repo/.env", "old_string": "A=1", "new_string": "A=2"}),
        ]:
            decision = await session.dispatch(
                PreToolUseInput(tool_name=tool, tool_input=tool_input)
            )
            verdict = decision.output.permission_decision or "no opinion"
            print(f"{tool:5} {tool_input}\n      -> {verdict}: {decision.reason or ''}")


if __name__ == "__main__":
    anyio.run(main)
