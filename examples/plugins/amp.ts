// Amp plugin: run your agent_hooks graph (Claude Code, Gemini CLI, Cursor... hook files,
// Python callbacks) on Amp's tool calls, prompts and thread events.
//
// Install: copy this file and the agent-hooks/ folder beside it into .amp/plugins/ (or
// the global plugins directory), set AGENT_HOOKS_COMMAND, e.g.
// AGENT_HOOKS_COMMAND='agent-hooks run --config .claude/settings.json', and run
// "plugins: reload" (older Amp builds also need PLUGINS=all). See agent-hooks/amp.mjs.
import type { PluginAPI } from "@ampcode/plugin"
import agentHooksPlugin from "./agent-hooks/amp.mjs"

export default function (amp: PluginAPI) {
  agentHooksPlugin(amp)
}
