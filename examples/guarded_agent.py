"""A complete small agent loop, guarded by hooks, with a scripted model.

No network, no API key: the "model" is a script of replies. It works in a
temporary project (a calculator with a bug), through two tools (a fake shell
and a file editor), and the hooks decide what it may do:

* a Python callback protects ``.env`` files (PreToolUse on Edit/Write);
* a shell hook, ``hooks/block_rm_rf.sh``, blocks ``rm -rf`` with exit code 2;
* a fire-and-forget shell hook appends every tool call to an audit log;
* a SessionStart shell hook adds project context (its plain stdout);
* a Stop hook keeps the turn going until the tests pass (a marker file).

Run: python examples/guarded_agent.py
"""

from __future__ import annotations

import json
import shlex
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio

from agent_hooks import (
    CommandHook,
    HookMatcher,
    HookRegistry,
    PreToolUseInput,
    PreToolUseOutput,
    StopInput,
    StopOutput,
    ToolCallOutcome,
)

HERE = Path(__file__).resolve().parent
MARKER = ".tests-passed"


# ---------------------------------------------------------------- the tools


class Tools:
    """A fake shell and a file editor, working in ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def bash(self, args: Mapping[str, Any]) -> str:
        command = str(args["command"])
        if command == "ls":
            return "  ".join(sorted(p.name for p in self.root.iterdir() if p.name != "audit.log"))
        if command == "run-tests":  # the project's test command
            if "return a + b" in (self.root / "calc.py").read_text():
                (self.root / MARKER).write_text("ok\n")
                return "test_calc.py::test_add PASSED\n1 passed"
            return "test_calc.py::test_add FAILED: add(2, 2) == 0, expected 4\n1 failed"
        if command.startswith("rm "):
            return "(the fake shell would delete files here)"
        return f"sh: {command.split()[0]}: command not found"

    def edit(self, args: Mapping[str, Any]) -> str:
        path = self.root / str(args["file_path"])
        text = path.read_text() if path.exists() else ""
        if args["old_string"] not in text:
            raise ValueError(f"old_string not found in {path.name}")
        path.write_text(text.replace(str(args["old_string"]), str(args["new_string"]), 1))
        return f"edited {path.name}"


# ---------------------------------------------------------------- the hooks


async def protect_env_files(input: PreToolUseInput) -> PreToolUseOutput | None:
    """Python callback: no edits to .env files."""
    path = str(input.tool_input.get("file_path", ""))
    if Path(path).name == ".env" or path.endswith(".env"):
        return PreToolUseOutput(
            permission_decision="deny",
            permission_decision_reason=f"{path} holds secrets; edit .env.example instead",
        )
    return None


def make_registry(root: Path) -> HookRegistry:
    async def until_tests_pass(input: StopInput) -> StopOutput | None:
        """Python callback: the turn may only end once the tests have passed."""
        if (root / MARKER).exists():
            return None
        return StopOutput(
            decision="block", reason="The tests have not passed yet: run `run-tests`."
        )

    audit = CommandHook(  # fire-and-forget: never holds up the tool call
        command='printf \'%s\\n\' "$(cat)" >> "$AUDIT_LOG"',
        env={"AUDIT_LOG": str(root / "audit.log")},
        async_=True,
    )
    context = CommandHook(command="echo 'Project: calc. Run the tests with run-tests.'")
    return HookRegistry(
        {
            "SessionStart": [HookMatcher(hooks=[context])],
            "PreToolUse": [
                HookMatcher(matcher="Edit|Write", hooks=[protect_env_files]),
                HookMatcher(
                    matcher="Bash",
                    hooks=[
                        CommandHook(command=shlex.quote(str(HERE / "hooks" / "block_rm_rf.sh")))
                    ],
                ),
            ],
            "PostToolUse": [HookMatcher(hooks=[audit])],
            "Stop": [HookMatcher(hooks=[until_tests_pass])],
        }
    )


# ------------------------------------------------------- the scripted model

SCRIPT: list[dict[str, Any]] = [
    {"tool": "Bash", "input": {"command": "ls"}},
    {
        "tool": "Edit",
        "input": {"file_path": ".env", "old_string": "DEBUG=0", "new_string": "DEBUG=1"},
    },
    {"tool": "Bash", "input": {"command": "rm -rf build/"}},
    {
        "tool": "Edit",
        "input": {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
    },
    {"text": "I fixed add(); done."},
    {"tool": "Bash", "input": {"command": "run-tests"}},
    {"text": "The tests pass; add() is fixed."},
]


def show(outcome: ToolCallOutcome) -> str:
    if outcome.denied:
        return f"   hooks: DENIED -> the model sees: {outcome.reason}"
    seen = str(outcome.model_view).replace("\n", " | ")
    return f"   hooks: allowed -> the model sees: {seen}"


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="guarded-agent-") as tmp:
        root = Path(tmp)
        (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
        (root / "test_calc.py").write_text(
            "from calc import add\n\ndef test_add():\n    assert add(2, 2) == 4\n"
        )
        (root / ".env").write_text("DEBUG=0\nAPI_TOKEN=do-not-touch\n")
        tools = Tools(root)
        runners = {"Bash": tools.bash, "Edit": tools.edit}

        async with make_registry(root).session(session_id="demo", cwd=str(root)) as session:
            start = await session.start()
            print(f"[SessionStart] context kept for the session: {start.context}")
            print("[user] Fix add() in calc.py.")
            for n, step in enumerate(SCRIPT, 1):
                await session.turn_start()
                await session.before_llm_call()
                if "tool" in step:
                    print(f"[model {n}] {step['tool']} {json.dumps(step['input'])}")
                    outcome = await session.call_tool(
                        step["tool"], step["input"], runners[step["tool"]], tool_use_id=f"t{n}"
                    )
                    print(show(outcome))
                    continue
                print(f"[model {n}] says: {step['text']!r} and wants to stop")
                stop = await session.check_stop(step["text"])
                if stop.should_stop:
                    print("   Stop hook: may stop")
                    break
                print(f"   Stop hook: KEEP GOING -> the model sees: {stop.feedback}")
            await session.end()
        # the session waited for the background audit hook before closing
        entries = [json.loads(line) for line in (root / "audit.log").read_text().splitlines()]
        print(f"[audit log] {len(entries)} tool calls that ran, recorded by the async hook:")
        for e in entries:
            print(f"   {e['tool_name']} {json.dumps(e['tool_input'])}")
        print(f"calc.py now: {(root / 'calc.py').read_text().splitlines()[1].strip()}")


if __name__ == "__main__":
    anyio.run(main)
