// OpenCode plugin: run your agent_hooks graph (Claude Code, Gemini CLI, Cursor... hook
// files, Python callbacks) on OpenCode's tool calls and session events.
//
// Install: copy this file and the agent-hooks/ folder beside it into .opencode/plugins/
// (or ~/.config/opencode/plugins/), and set AGENT_HOOKS_COMMAND, e.g.
//   AGENT_HOOKS_COMMAND='agent-hooks run --config .claude/settings.json'
// See agent-hooks/bridge.mjs for what is forwarded and how answers are applied.
import type { Plugin } from "@opencode-ai/plugin"
import { agentHooksPlugin } from "./agent-hooks/bridge.mjs"

export const AgentHooks: Plugin = agentHooksPlugin
