// @ts-check
/**
 * Amp plugin: Amp's events forwarded to `agent-hooks run` as Claude Code's.
 *
 *   tool.call     -> PreToolUse        deny / ask / continue:false:
 *                                      `{action: "reject-and-continue", message}` (Amp's
 *                                      ask is its own UI; the safe nearest is to reject);
 *                                      updatedInput: `{action: "modify", input}`; else
 *                                      `{action: "allow"}` (Amp needs an answer)
 *   tool.result   -> PostToolUse       added context (or a block's reason) appended to a
 *                                      finished tool's output
 *   agent.start   -> UserPromptSubmit  added context: `{message: {content}}` (Amp cannot
 *                                      refuse a prompt: a block's reason is added so)
 *   agent.end     -> Stop              block: `{action: "continue", userMessage: reason}`
 *   session.start -> SessionStart      (observed)
 *
 * Tools: `Bash` and `shell_command` are Bash, `edit_file` Edit, `create_file` Write,
 * `Read`, `Grep`, `glob` as Claude's (Amp's names as its plugin API reports them;
 * others are passed as they come). A failure to run agent-hooks lets the call go ahead
 * unless AGENT_HOOKS_FAIL_CLOSED=1 (see run.mjs).
 */
import { ask } from "./run.mjs"

/** Amp's tool names -> Claude Code's. */
export const TOOLS = {
  Bash: "Bash",
  shell_command: "Bash",
  edit_file: "Edit",
  create_file: "Write",
  Read: "Read",
  Grep: "Grep",
  glob: "Glob",
}

/**
 * The plugin: `export default function (amp)`.
 * @param {{on: (event: string, handler: (event: any, ctx: any) => any) => void}} amp
 */
export default function agentHooksPlugin(amp) {
  /** @param {any} event */
  const where = (event) => ({ session: String(event?.thread?.id ?? ""), cwd: process.cwd() })
  /** @param {string} name */
  const tool = (name) => TOOLS[/** @type {keyof TOOLS} */ (name)] ?? name

  amp.on("tool.call", async (event) => {
    const v = await ask("PreToolUse", where(event), {
      tool_name: tool(event.tool),
      tool_input: event.input,
      tool_use_id: event.toolUseID,
    })
    if (v.block || v.ask) {
      return { action: "reject-and-continue", message: v.reason ?? "blocked by a PreToolUse hook" }
    }
    if (v.updatedInput) return { action: "modify", input: v.updatedInput }
    return { action: "allow" }
  })

  amp.on("tool.result", async (event) => {
    const v = await ask("PostToolUse", where(event), {
      tool_name: tool(event.tool),
      tool_input: event.input,
      tool_response: event.output ?? event.error,
      tool_use_id: event.toolUseID,
    })
    const said = [v.block ? v.reason : undefined, v.context].filter((t) => t)
    if (!said.length || event.status !== "done") return undefined
    return { status: "done", output: `${event.output ?? ""}\n\n${said.join("\n")}` }
  })

  amp.on("agent.start", async (event) => {
    const v = await ask("UserPromptSubmit", where(event), { prompt: String(event.message ?? "") })
    const said = [v.block ? v.reason : undefined, v.context].filter((t) => t)
    return said.length ? { message: { content: said.join("\n") } } : undefined
  })

  amp.on("agent.end", async (event) => {
    const v = await ask("Stop", where(event), { stop_hook_active: false })
    if (v.block && v.reason) return { action: "continue", userMessage: v.reason }
    return undefined
  })

  amp.on("session.start", async (event) => {
    await ask("SessionStart", where(event), { source: "startup" })
  })
}
