"""An audit log written by a fire-and-forget shell hook (``async_=True``).

The hook gets every tool call's payload on stdin and appends it to a JSON-lines
file. Being fire-and-forget, it never delays the agent (this one even sleeps
0.2 s); the session waits for it when it closes, so no entry is lost.

Run: python examples/audit_log_async.py
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import anyio

from agent_hooks import CommandHook, HandlerResult, HookMatcher, HookRegistry

# one JSON object per line: printf writes the payload and the newline at once
AUDIT = """sleep 0.2; printf '%s\\n' "$(cat)" >> "$AUDIT_LOG" """


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="audit-") as tmp:
        log = Path(tmp) / "audit.jsonl"
        hook = CommandHook(command=AUDIT, env={"AUDIT_LOG": str(log)}, async_=True)
        registry = HookRegistry({"PostToolUse": [HookMatcher(hooks=[hook])]})
        finished: list[HandlerResult] = []

        async with registry.session(
            session_id="audit", on_background_result=finished.append
        ) as session:
            for command in ["ls", "git status", "make test"]:
                t0 = time.perf_counter()
                await session.call_tool("Bash", {"command": command}, lambda args: "ok")
                took = (time.perf_counter() - t0) * 1000
                print(
                    f"tool call {command!r:12} returned after {took:5.0f} ms (hook still running)"
                )
            print(f"background hooks finished before closing: {len(finished)}")
        # closing the session waited for the background hooks
        print(f"background hooks finished after closing:  {len(finished)}")
        for line in log.read_text().splitlines():
            entry = json.loads(line)
            print(f"audit: {entry['hook_event_name']} {entry['tool_name']} {entry['tool_input']}")


if __name__ == "__main__":
    anyio.run(main)
