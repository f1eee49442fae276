// @ts-check
/**
 * Pi extension: Pi's events forwarded to `agent-hooks run` as Claude Code's.
 *
 *   tool_call        -> PreToolUse        deny / ask / continue:false: `{block: true,
 *                                          reason}` (Pi has no ask: the safe nearest);
 *                                          updatedInput: `event.input` rewritten in place
 *   tool_result      -> PostToolUse       added context (or a block's reason) appended
 *                                          to the result's content
 *   input            -> UserPromptSubmit  block: `{action: "handled"}` (the prompt is not
 *                                          run); added context: `{action: "transform"}`
 *   session_start    -> SessionStart, session_shutdown -> SessionEnd (observed)
 *
 * Tools: `bash` is Bash (its `command` kept), `read`, `write`, `edit`, `grep`, `find`,
 * `ls` are Read, Write, Edit, Grep, Glob, LS. A failure to run agent-hooks lets the call
 * go ahead unless AGENT_HOOKS_FAIL_CLOSED=1 (see run.mjs).
 */
import { ask } from "./run.mjs"

/** Pi's tool names -> Claude Code's. */
export const TOOLS = { bash: "Bash", read: "Read", write: "Write", edit: "Edit", grep: "Grep", find: "Glob", ls: "LS" }

/**
 * The extension: `export default function (pi)`.
 * @param {{on: (event: string, handler: (event: any, ctx: any) => any) => void}} pi
 */
export default function agentHooksExtension(pi) {
  /** @param {any} ctx */
  const where = (ctx) => ({
    session: String(ctx?.sessionManager?.getSessionId?.() ?? process.env.PI_SESSION_ID ?? ""),
    cwd: String(ctx?.cwd ?? process.cwd()),
  })
  /** @param {string} name */
  const tool = (name) => TOOLS[/** @type {keyof TOOLS} */ (name)] ?? name

  pi.on("tool_call", async (event, ctx) => {
    const v = await ask("PreToolUse", where(ctx), {
      tool_name: tool(event.toolName),
      tool_input: event.input,
      tool_use_id: event.toolCallId,
    })
    if (v.block || v.ask) return { block: true, reason: v.reason ?? "blocked by a PreToolUse hook" }
    if (v.updatedInput) {
      for (const key of Object.keys(event.input)) if (!(key in v.updatedInput)) delete event.input[key]
      Object.assign(event.input, v.updatedInput)
    }
    return undefined
  })

  pi.on("tool_result", async (event, ctx) => {
    const v = await ask("PostToolUse", where(ctx), {
      tool_name: tool(event.toolName),
      tool_input: event.input,
      tool_response: event.content,
      tool_use_id: event.toolCallId,
    })
    const said = [v.block ? v.reason : undefined, v.context].filter((t) => t)
    if (!said.length) return undefined
    return { content: [...(event.content ?? []), { type: "text", text: said.join("\n") }] }
  })

  pi.on("input", async (event, ctx) => {
    const v = await ask("UserPromptSubmit", where(ctx), { prompt: event.text })
    if (v.block) {
      console.error(v.reason ?? "blocked by a UserPromptSubmit hook")
      return { action: "handled" }
    }
    if (v.context) return { action: "transform", text: `${event.text}\n\n${v.context}` }
    return { action: "continue" }
  })

  pi.on("session_start", async (event, ctx) => {
    await ask("SessionStart", where(ctx), { source: event.reason === "resume" ? "resume" : "startup" })
  })
  pi.on("session_shutdown", async (event, ctx) => {
    await ask("SessionEnd", where(ctx), { reason: "other" })
  })
}
