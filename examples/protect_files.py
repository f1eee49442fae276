"""Protect sensitive files from reads and edits with one Python callback.

The matcher covers the file tools; the callback checks the path against glob
patterns and denies with a reason the model reads. Unmatched tools never
reach the callback.

Run: python examples/protect_files.py
"""

from __future__ import annotations

import fnmatch
from pathlib import PurePosixPath

import anyio

from agent_hooks import HookMatcher, HookRegistry, PreToolUseInput, PreToolUseOutput

PROTECTED = [".env", ".env.*", "*.pem", "*.key", "id_rsa*", ".git/*", "secrets/*"]


async def protect_files(input: PreToolUseInput) -> PreToolUseOutput | None:
    raw = str(input.tool_input.get("file_path") or input.tool_input.get("path") or "")
    path = PurePosixPath(raw)
    for pattern in PROTECTED:
        if fnmatch.fnmatch(path.name, pattern) or any(
            fnmatch.fnmatch("/".join(path.parts[i:]), pattern) for i in range(len(path.parts))
        ):
            return PreToolUseOutput(
                permission_decision="deny",
                permission_decision_reason=f"{raw} is protected ({pattern}); ask the user instead.",
            )
    return None


registry = HookRegistry(
    {"PreToolUse": [HookMatcher(matcher="Read|Edit|Write|MultiEdit", hooks=[protect_files])]}
)


async def main() -> None:
    async with registry.session(session_id="files") as session:
        for tool, path in [
            ("Read", "src/app.py"),
            ("Read", ".env"),
            ("Edit", "config/.env.production"),
            ("Write", "certs/server.pem"),
            ("Edit", "repo/.git/config"),
            ("Write", "docs/guide.md"),
            ("Bash", ".env"),  # not a file tool: the matcher does not select the hook
        ]:
            outcome = await session.call_tool(tool, {"file_path": path}, lambda args: "done")
            print(
                f"{tool:6} {path:26} -> {'DENIED: ' + str(outcome.reason) if outcome.denied else 'allowed'}"
            )


if __name__ == "__main__":
    anyio.run(main)
