"""The Pi, Amp and OpenClaw bridges of ``examples/plugins/`` run under Node with a stub
of each harness's plugin API: a command one Claude-style guard blocks is refused in the
harness's own shape, a rewrite is applied as it takes one, added context reaches the
tool's result, a failure to run agent-hooks blocks only when told to fail closed, and
each TypeScript entry point hands the harness that plugin."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "examples" / "plugins"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node")

GUARD = """#!/bin/sh
payload=$(cat)
case "$payload" in
  *'"tool_name":"Bash"'*'rm -rf /'*) echo "rm -rf / is not allowed" >&2; exit 2;;
  *'"tool_name":"Bash"'*'git push --force'*)
    echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"git push --force-with-lease"}}}';;
  *'"tool_name":"Bash"'*'sudo'*)
    echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sudo needs a human"}}';;
  *'"hook_event_name":"PostToolUse"'*)
    echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: ok"}}';;
  *'"hook_event_name":"Stop"'*) echo '{"decision":"block","reason":"run the tests"}';;
esac
exit 0
"""

# Each runner registers the bridge with a stub API, calls its handlers as the harness
# would, and prints what they returned (a thrown error as {"thrown": message}).
PRELUDE = """
import { pathToFileURL } from "node:url"
const [bridge] = process.argv.slice(2)
const mod = await import(pathToFileURL(bridge).href)
const handlers = {}
const api = { on: (name, fn) => { handlers[name] = fn } }
const call = async (name, event, ctx = {}) => {
  try { return (await handlers[name](event, ctx)) ?? null } catch (err) { return { thrown: err.message } }
}
const out = {}
"""

RUNNERS = {
    "pi": """
mod.default(api)
const tool = async (command) => {
  const event = { toolName: "bash", toolCallId: "c1", input: { command, timeout: 5 } }
  const answer = await call("tool_call", event, { cwd: process.cwd() })
  return { answer, input: event.input }
}
out.blocked = await tool("rm -rf /")
out.asked = await tool("sudo ls")
out.allowed = await tool("ls")
out.rewritten = await tool("git push --force")
out.after = await call("tool_result", { toolName: "edit", toolCallId: "c2", input: { path: "a.ts" },
  content: [{ type: "text", text: "done" }], isError: false })
out.prompt = await call("input", { text: "hello", source: "interactive" })
""",
    "amp": """
mod.default(api)
const tool = (command) => call("tool.call", { toolUseID: "t1", tool: "Bash", input: { cmd: command, command }, thread: { id: "T-1" } })
out.blocked = await tool("rm -rf /")
out.asked = await tool("sudo ls")
out.allowed = await tool("ls")
out.rewritten = await tool("git push --force")
out.after = await call("tool.result", { toolUseID: "t2", tool: "edit_file", input: { path: "a.ts" }, status: "done", output: "done", thread: { id: "T-1" } })
out.stop = await call("agent.end", { thread: { id: "T-1" }, message: "m", id: "1", status: "done", messages: [] })
""",
    "openclaw": """
mod.default.register(api)
const tool = (command) => call("before_tool_call", { toolName: "exec", params: { command }, toolCallId: "c1" }, { sessionId: "s1" })
out.blocked = await tool("rm -rf /")
out.asked = await tool("sudo ls")
out.allowed = await tool("ls")
out.rewritten = await tool("git push --force")
out.after = await call("after_tool_call", { toolName: "exec", params: { command: "ls" }, result: "x" }, { sessionId: "s1" })
""",
}

EXPECTED: dict[str, dict[str, Any]] = {
    "pi": {
        "blocked": {
            "answer": {"block": True, "reason": "rm -rf / is not allowed"},
            "input": {"command": "rm -rf /", "timeout": 5},
        },
        "asked": {
            "answer": {"block": True, "reason": "sudo needs a human"},
            "input": {"command": "sudo ls", "timeout": 5},
        },
        "allowed": {"answer": None, "input": {"command": "ls", "timeout": 5}},
        "rewritten": {"answer": None, "input": {"command": "git push --force-with-lease"}},
        "after": {
            "content": [{"type": "text", "text": "done"}, {"type": "text", "text": "lint: ok"}]
        },
        "prompt": {"action": "continue"},
    },
    "amp": {
        "blocked": {"action": "reject-and-continue", "message": "rm -rf / is not allowed"},
        "asked": {"action": "reject-and-continue", "message": "sudo needs a human"},
        "allowed": {"action": "allow"},
        "rewritten": {"action": "modify", "input": {"command": "git push --force-with-lease"}},
        "after": {"status": "done", "output": "done\n\nlint: ok"},
        "stop": {"action": "continue", "userMessage": "run the tests"},
    },
    "openclaw": {
        "blocked": {"block": True, "blockReason": "rm -rf / is not allowed"},
        "asked": {
            "requireApproval": {"title": "agent-hooks asks", "description": "sudo needs a human"}
        },
        "allowed": None,
        "rewritten": {"params": {"command": "git push --force-with-lease"}},
        "after": None,
    },
}
HARNESSES = sorted(RUNNERS)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    guard = root / "guard.sh"
    guard.write_text(GUARD)
    guard.chmod(0o755)
    hook = {"type": "command", "command": str(guard)}
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [hook]}],
        "PostToolUse": [{"hooks": [hook]}],
        "Stop": [{"hooks": [hook]}],
    }
    (root / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    return root


def _run(tmp_path: Path, harness: str, command: list[str] | None = None, **env: str) -> Any:
    project = _project(tmp_path)
    runner = tmp_path / f"{harness}-runner.mjs"
    runner.write_text(PRELUDE + RUNNERS[harness] + "console.log(JSON.stringify(out))\n")
    if command is None:
        command = [
            sys.executable,
            "-m",
            "agent_hooks",
            "run",
            "--config",
            str(project / ".claude" / "settings.json"),
            "--trust-project-hooks",
        ]
    full = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "AGENT_HOOKS_"))}
    full.update(
        AGENT_HOOKS_COMMAND=json.dumps(command),
        HOME=str(tmp_path / "home"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        PYTHONPATH=str(ROOT),
        # (answered in-process: a resident server started here would outlive the test)
        AGENT_HOOKS_NO_DAEMON="1",
        **env,
    )
    assert NODE is not None
    proc = subprocess.run(
        [NODE, str(runner), str(PLUGINS / "agent-hooks" / f"{harness}.mjs")],
        capture_output=True,
        text=True,
        env=full,
        cwd=project,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("harness", HARNESSES)
def test_the_bridge_answers_in_the_harness_shape(tmp_path: Path, harness: str) -> None:
    assert _run(tmp_path, harness) == EXPECTED[harness]


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_missing_agent_hooks_blocks_only_when_failing_closed(
    tmp_path: Path, harness: str
) -> None:
    missing = [str(tmp_path / "no-such-agent-hooks"), "run"]
    opened = _run(tmp_path / "open", harness, missing)
    closed = _run(tmp_path / "closed", harness, missing, AGENT_HOOKS_FAIL_CLOSED="1")
    blocked = EXPECTED[harness]["blocked"]
    assert opened["blocked"] != blocked and closed["blocked"] != opened["blocked"]
    text = json.dumps(closed["blocked"])
    assert "agent-hooks failed" in text and "no-such-agent-hooks" in text


@pytest.mark.parametrize(
    ("entry", "call"),
    [
        ("pi.ts", "m.default(api)"),
        ("amp.ts", "m.default(api)"),
        ("openclaw.ts", "m.default.register(api)"),
    ],
)
def test_the_typescript_entry_points_register_the_bridge(
    tmp_path: Path, entry: str, call: str
) -> None:
    # Node 20 runs no TypeScript: each entry point's type syntax (an `import type` line
    # and a parameter's annotation) is removed, and what is left is run.
    source = (PLUGINS / entry).read_text()
    lines = [line for line in source.splitlines() if not line.startswith("import type ")]
    stripped = "\n".join(lines)
    for annotation in (": ExtensionAPI", ": PluginAPI"):
        stripped = stripped.replace(annotation, "")
    assert "import type" not in stripped and "API)" not in stripped
    folder = tmp_path / "plugins"
    shutil.copytree(PLUGINS, folder)
    (folder / entry.replace(".ts", ".mjs")).write_text(stripped)
    check = tmp_path / "check.mjs"
    check.write_text(
        'import { pathToFileURL } from "node:url"\n'
        "const m = await import(pathToFileURL(process.argv[2]).href)\n"
        "const names = []\n"
        "const api = { on: (name) => names.push(name) }\n"
        f"{call}\n"
        'console.log(names.sort().join(","))\n'
    )
    assert NODE is not None
    proc = subprocess.run(
        [NODE, str(check), str(folder / entry.replace(".ts", ".mjs"))],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "PreToolUse" not in proc.stdout and proc.stdout.strip()
    first = {"pi.ts": "input", "amp.ts": "agent.end", "openclaw.ts": "after_tool_call"}[entry]
    assert proc.stdout.split(",")[0] == first
