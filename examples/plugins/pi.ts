// Pi extension: run your agent_hooks graph (Claude Code, Gemini CLI, Cursor... hook
// files, Python callbacks) on Pi's tool calls, prompts and session events.
//
// Install: copy this file and the agent-hooks/ folder beside it into
// ~/.pi/agent/extensions/ (or .pi/extensions/ of a trusted project), and set
// AGENT_HOOKS_COMMAND, e.g. AGENT_HOOKS_COMMAND='agent-hooks run --config .claude/settings.json'.
// See agent-hooks/pi.mjs for what is forwarded and how answers are applied.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent"
import agentHooksExtension from "./agent-hooks/pi.mjs"

export default function (pi: ExtensionAPI) {
  agentHooksExtension(pi)
}
