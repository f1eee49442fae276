import os
import tempfile

import anyio

from agent_hooks import CommandHook, HookMatcher, HookRegistry, PreToolUseInput, PreToolUseOutput


async def protect_env_files(input: PreToolUseInput) -> PreToolUseOutput | None:
    if str(input.tool_input.get("file_path", "")).endswith(".env"):
        return PreToolUseOutput(
            permission_decision="deny", permission_decision_reason=".env holds secrets"
        )
    return None  # no opinion


# A Claude Code hook script, unchanged: the payload arrives on stdin, exit 2 blocks
# and stderr is the reason. (Point CommandHook at your own, e.g. ~/.claude/hooks/x.sh.)
BLOCK_RM_RF = """#!/bin/sh
if grep -q 'rm -rf'; then echo "rm -rf is not allowed here" >&2; exit 2; fi
"""


async def agent(registry: HookRegistry, project: str) -> None:
    async with registry.session(session_id="s1", cwd=project) as session:
        for tool_name, tool_input in [
            ("Bash", {"command": "ls"}),
            ("Bash", {"command": "rm -rf /"}),
            ("Edit", {"file_path": ".env"}),
        ]:
            decision = await session.dispatch(
                PreToolUseInput(tool_name=tool_name, tool_input=tool_input)
            )
            verdict = f"denied: {decision.reason}" if decision.blocked else "allowed"
            print(f"{tool_name} {tool_input} -> {verdict}")


with tempfile.TemporaryDirectory() as project:  # the agent's working directory
    script = os.path.join(project, "block-rm-rf.sh")
    with open(script, "w") as f:
        f.write(BLOCK_RM_RF)
    os.chmod(script, 0o755)

    registry = HookRegistry(
        {
            "PreToolUse": [
                HookMatcher(
                    matcher="Bash|Edit|Write",
                    hooks=[
                        protect_env_files,  # a typed Python callback
                        CommandHook(command=script),  # a shell hook
                    ],
                ),
            ],
        }
    )
    anyio.run(agent, registry, project)
