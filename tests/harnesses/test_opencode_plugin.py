"""The OpenCode plugin of ``examples/opencode/`` run under Node with a stubbed plugin
context: ``tool.execute.before`` throws for a command one Claude-style guard blocks and
rewrites arguments a hook rewrites, ``tool.execute.after`` appends added context, and the
TypeScript entry point exports that plugin."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "opencode"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node")

GUARD = """#!/bin/sh
payload=$(cat)
case "$payload" in
  *'"tool_name":"Bash"'*'rm -rf /'*) echo "rm -rf / is not allowed" >&2; exit 2;;
  *'"tool_name":"Bash"'*'git push --force'*)
    echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"git push --force-with-lease"}}}';;
  *'"hook_event_name":"PostToolUse"'*)
    echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: ok"}}';;
esac
exit 0
"""

RUNNER = """
import { pathToFileURL } from "node:url"
const [bridge, cwd] = process.argv.slice(2)
const { agentHooksPlugin } = await import(pathToFileURL(bridge).href)
const hooks = await agentHooksPlugin({ directory: cwd, worktree: cwd, project: {}, client: {}, $: null })
const out = {}
async function before(command) {
  const output = { args: { command, description: "x" } }
  try {
    await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s1", callID: "c1" }, output)
    return { args: output.args }
  } catch (err) {
    return { thrown: err.message }
  }
}
out.blocked = await before("rm -rf /")
out.allowed = await before("ls")
out.rewritten = await before("git push --force")
const after = { title: "t", output: "done", metadata: {} }
await hooks["tool.execute.after"]({ tool: "edit", sessionID: "s1", callID: "c2", args: { filePath: "a.ts" } }, after)
out.after = after.output
await hooks.event({ event: { type: "session.idle", properties: { sessionID: "s1" } } })
console.log(JSON.stringify(out))
"""


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".claude").mkdir(parents=True)
    guard = root / "guard.sh"
    guard.write_text(GUARD)
    guard.chmod(0o755)
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": str(guard)}]}],
        "PostToolUse": [{"hooks": [{"type": "command", "command": str(guard)}]}],
    }
    (root / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    return root


def _run(tmp_path: Path, bridge: Path) -> dict[str, object]:
    project = _project(tmp_path)
    runner = tmp_path / "runner.mjs"
    runner.write_text(RUNNER)
    command = [
        sys.executable,
        "-m",
        "agent_hooks",
        "run",
        "--config",
        str(project / ".claude" / "settings.json"),
        "--trust-project-hooks",
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_")}
    env.update(
        AGENT_HOOKS_COMMAND=json.dumps(command),
        HOME=str(tmp_path / "home"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        PYTHONPATH=str(ROOT),
    )
    assert NODE is not None
    proc = subprocess.run(
        [NODE, str(runner), str(bridge), str(project)],
        capture_output=True,
        text=True,
        env=env,
        cwd=project,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, object] = json.loads(proc.stdout)
    return result


def test_the_plugin_blocks_rewrites_and_adds_context(tmp_path: Path) -> None:
    out = _run(tmp_path, PLUGIN / "agent-hooks" / "bridge.mjs")
    assert out["blocked"] == {"thrown": "rm -rf / is not allowed"}
    assert out["allowed"] == {"args": {"command": "ls", "description": "x"}}
    assert out["rewritten"] == {"args": {"command": "git push --force-with-lease"}}
    assert out["after"] == "done\n\nlint: ok"


def test_the_typescript_entry_point_exports_the_plugin(tmp_path: Path) -> None:
    # Node 20 runs no TypeScript: the entry point's only type syntax (its `import type`
    # line and the `: Plugin` annotation) is removed, and what is left is run.
    source = (PLUGIN / "agent-hooks.ts").read_text()
    lines = [line for line in source.splitlines() if not line.startswith("import type ")]
    stripped = "\n".join(lines).replace(
        "export const AgentHooks: Plugin =", "export const AgentHooks ="
    )
    assert ": Plugin" not in stripped and "import type" not in stripped
    folder = tmp_path / "plugins"
    shutil.copytree(PLUGIN, folder)
    (folder / "agent-hooks.mjs").write_text(stripped)
    check = tmp_path / "check.mjs"
    check.write_text(
        'import { pathToFileURL } from "node:url"\n'
        "const m = await import(pathToFileURL(process.argv[2]).href)\n"
        'const hooks = await m.AgentHooks({ directory: "/" })\n'
        'console.log(Object.keys(hooks).sort().join(","))\n'
    )
    assert NODE is not None
    proc = subprocess.run(
        [NODE, str(check), str(folder / "agent-hooks.mjs")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "event,tool.execute.after,tool.execute.before"
