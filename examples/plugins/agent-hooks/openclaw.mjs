// @ts-check
/**
 * OpenClaw plugin: its tool-policy plugin hooks forwarded to `agent-hooks run` as Claude
 * Code's.
 *
 *   before_tool_call -> PreToolUse   deny / continue:false: `{block: true, blockReason}`;
 *                                    ask: `{requireApproval: {title, description}}`
 *                                    (OpenClaw's approval; unresolved, it denies);
 *                                    updatedInput: `{params}`
 *   after_tool_call  -> PostToolUse  (observed: OpenClaw takes no answer there)
 *
 * Tools: `exec` is Bash (its `command` kept), `apply_patch` stays as itself (agent_hooks
 * matches it with Write and Edit matchers, as for Codex); others as they come. OpenClaw
 * blocks a `before_tool_call` whose handler throws or times out (15 s by default:
 * `plugins.entries.<id>.hooks.timeouts.before_tool_call`); a failure to run agent-hooks
 * lets the call go ahead unless AGENT_HOOKS_FAIL_CLOSED=1 (see run.mjs).
 */
import { ask } from "./run.mjs"

/** OpenClaw's canonical tool ids -> Claude Code's names. */
export const TOOLS = { exec: "Bash" }

/**
 * @param {{on: (event: string, handler: (event: any, ctx: any) => any, opts?: any) => void}} api
 */
export function register(api) {
  /** @param {any} ctx */
  const where = (ctx) => ({ session: String(ctx?.sessionId ?? ctx?.sessionKey ?? ""), cwd: process.cwd() })
  /** @param {string} name */
  const tool = (name) => TOOLS[/** @type {keyof TOOLS} */ (name)] ?? name

  api.on("before_tool_call", async (event, ctx) => {
    const v = await ask("PreToolUse", where(ctx), {
      tool_name: tool(event.toolName),
      tool_input: event.params,
      tool_use_id: event.toolCallId,
    })
    if (v.block) return { block: true, blockReason: v.reason ?? "blocked by a PreToolUse hook" }
    if (v.ask) {
      return {
        requireApproval: { title: "agent-hooks asks", description: v.reason ?? "a hook asks before this call" },
      }
    }
    if (v.updatedInput) return { params: v.updatedInput }
    return undefined
  })

  api.on("after_tool_call", async (event, ctx) => {
    await ask("PostToolUse", where(ctx), {
      tool_name: tool(event.toolName),
      tool_input: event.params,
      tool_response: event.result,
      tool_use_id: event.toolCallId,
    })
  })
}

export default { id: "agent-hooks", name: "agent-hooks", register }
