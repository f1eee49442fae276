// OpenClaw plugin: run your agent_hooks graph (Claude Code, Gemini CLI, Cursor... hook
// files, Python callbacks) on OpenClaw's tool calls (before_tool_call, after_tool_call).
//
// Install: put this file and the agent-hooks/ folder in a plugin directory, add the
// plugin manifest your OpenClaw version asks for (its id "agent-hooks"; the digest this
// was written from does not show one), run `openclaw plugins install --link ./dir`, and
// set AGENT_HOOKS_COMMAND, e.g. AGENT_HOOKS_COMMAND='agent-hooks run --config hooks.json'.
// See agent-hooks/openclaw.mjs.
import plugin from "./agent-hooks/openclaw.mjs"

export default plugin
