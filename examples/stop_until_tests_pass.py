"""A Stop hook that keeps the agent working until the tests pass.

The hook is a shell script: while the ``tests-passed`` marker is missing it exits
2, and its stderr becomes the model's next instruction. The session sets
``stop_hook_active`` on the next Stop (so hooks can tell they already pushed
back) and stops honouring blocks after the registry's ``stop_continuation_cap``.

Run: python examples/stop_until_tests_pass.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import anyio

from agent_hooks import CommandHook, HookMatcher, HookRegistry

STOP_HOOK = """
payload=$(cat)
case "$payload" in *'"stop_hook_active":true'*) again=" (again)" ;; *) again="" ;; esac
if [ ! -f tests-passed ]; then
  echo "Tests have not passed yet$again: run the tests and fix what fails." >&2
  exit 2
fi
"""

registry = HookRegistry(
    {"Stop": [HookMatcher(hooks=[CommandHook(command=STOP_HOOK)])]},
    stop_continuation_cap=5,  # never more than 5 forced continuations in a row
)


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="stop-hook-") as tmp:
        marker = Path(tmp) / "tests-passed"
        # the scripted model: what it says, and what it does before saying it
        replies = [
            ("All done!", None),
            ("Ran the tests: 2 failed. Fixed them, done.", None),
            ("Ran the tests again: all green.", lambda: marker.write_text("ok")),
        ]
        async with registry.session(session_id="stop", cwd=tmp) as session:
            for n, (text, action) in enumerate(replies, 1):
                if action is not None:
                    action()
                stop = await session.check_stop(text)
                active = stop.decision.input.stop_hook_active if stop.decision else None
                print(f"turn {n}: model says {text!r} (stop_hook_active={active})")
                if stop.should_stop:
                    print("        -> the agent may stop")
                    break
                print(f"        -> keep going; the model is told: {stop.feedback}")


if __name__ == "__main__":
    anyio.run(main)
