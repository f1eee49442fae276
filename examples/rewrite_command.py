"""Rewrite a tool call's input before it runs (``updated_input``).

The hook changes what the tool runs without refusing it: here ``npm install``
becomes ``npm ci`` and ``pytest`` always gets ``-q``. The tool receives the
rewritten input, and ``outcome.input`` says what actually ran. A rewrite never
bypasses a deny: another hook that denies still wins.

Run: python examples/rewrite_command.py
"""

from __future__ import annotations

import re

import anyio

from agent_hooks import HookMatcher, HookRegistry, PreToolUseInput, PreToolUseOutput

REWRITES = [
    (r"\bnpm install$", "npm ci"),  # reproducible installs from the lockfile
    (r"^pytest(?!.*\s-q\b)(.*)$", r"pytest -q\1"),  # quiet test output
]


async def rewrite(input: PreToolUseInput) -> PreToolUseOutput | None:
    command = str(input.tool_input.get("command", ""))
    for pattern, replacement in REWRITES:
        new = re.sub(pattern, replacement, command)
        if new != command:
            return PreToolUseOutput(
                updated_input={**input.tool_input, "command": new},
                permission_decision_reason=f"rewritten from {command!r}",
            )
    return None


async def no_sudo(input: PreToolUseInput) -> PreToolUseOutput | None:
    if str(input.tool_input.get("command", "")).startswith("sudo "):
        return PreToolUseOutput(permission_decision="deny", permission_decision_reason="no sudo")
    return None


registry = HookRegistry({"PreToolUse": [HookMatcher(matcher="Bash", hooks=[rewrite, no_sudo])]})


async def main() -> None:
    def shell(args: dict[str, str]) -> str:  # a fake shell tool
        return f"(ran: {args['command']})"

    async with registry.session(session_id="rewrite") as session:
        for command in ["npm install", "pytest tests/unit", "pytest -q", "sudo npm install", "ls"]:
            outcome = await session.call_tool("Bash", {"command": command}, shell)
            if outcome.denied:  # rewritten, but denied all the same
                print(f"model asked {command!r:22} -> DENIED: {outcome.reason}")
            else:
                print(f"model asked {command!r:22} -> tool got {outcome.input['command']!r}")


if __name__ == "__main__":
    anyio.run(main)
