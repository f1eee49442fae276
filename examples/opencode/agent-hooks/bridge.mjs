// @ts-check
/**
 * The bridge behind agent-hooks.ts: OpenCode's in-process plugin hooks forwarded to
 * `agent-hooks run` as Claude Code-shaped payloads, and the answers applied.
 *
 *   tool.execute.before  -> PreToolUse   deny / block / ask / continue:false: throw (the
 *                                         tool is not run; the message is its result);
 *                                         updatedInput: the args are rewritten in place
 *   tool.execute.after   -> PostToolUse  additionalContext, or a block's reason, is
 *                                         appended to the tool's output
 *   event session.created -> SessionStart, session.idle -> Stop, session.deleted ->
 *                            SessionEnd  (observed; OpenCode takes no answer there)
 *
 * The command is AGENT_HOOKS_COMMAND (a JSON array, or words split on spaces; default
 * `agent-hooks run --discover`), with `--dialect claude` added. A failure to run it (no
 * such program, a crash, a timeout: AGENT_HOOKS_TIMEOUT_MS, default 60000) lets the tool
 * run, with a message on stderr, unless AGENT_HOOKS_FAIL_CLOSED=1 (then it is blocked).
 * Works under Bun (OpenCode) and Node 18+.
 */
import { spawn } from "node:child_process"

/** OpenCode's tool ids -> Claude Code's tool names. */
export const TOOLS = {
  bash: "Bash",
  read: "Read",
  write: "Write",
  edit: "Edit",
  multiedit: "MultiEdit",
  glob: "Glob",
  grep: "Grep",
  list: "LS",
  webfetch: "WebFetch",
  websearch: "WebSearch",
  task: "Task",
  todowrite: "TodoWrite",
  todoread: "TodoRead",
}

/** OpenCode's camelCase argument names -> Claude Code's. */
export const ARGS = {
  filePath: "file_path",
  oldString: "old_string",
  newString: "new_string",
  replaceAll: "replace_all",
}

/**
 * @param {Record<string, unknown>} obj
 * @param {Record<string, string>} names
 * @returns {Record<string, unknown>}
 */
function renamed(obj, names) {
  /** @type {Record<string, unknown>} */
  const out = {}
  for (const [k, v] of Object.entries(obj ?? {})) out[names[k] ?? k] = v
  return out
}

const BACK = Object.fromEntries(Object.entries(ARGS).map(([k, v]) => [v, k]))

/** @returns {string[]} */
function command() {
  const raw = process.env.AGENT_HOOKS_COMMAND
  if (!raw) return ["agent-hooks", "run", "--discover"]
  if (raw.trim().startsWith("[")) return JSON.parse(raw)
  return raw.split(/\s+/).filter(Boolean)
}

/**
 * Run agent-hooks on one payload.
 * @param {Record<string, unknown>} payload
 * @param {string} cwd
 * @returns {Promise<{status: number, answer: any, stderr: string}>}
 */
export function runHooks(payload, cwd) {
  const [program, ...args] = command()
  const timeout = Number(process.env.AGENT_HOOKS_TIMEOUT_MS ?? 60000)
  return new Promise((resolve) => {
    let stdout = ""
    let stderr = ""
    let done = false
    const finish = (/** @type {number} */ status) => {
      if (done) return
      done = true
      clearTimeout(timer)
      let answer = {}
      try {
        answer = stdout.trim() ? JSON.parse(stdout) : {}
      } catch {
        status = status === 0 ? 1 : status
        stderr += `agent-hooks printed no JSON: ${stdout.slice(0, 200)}`
      }
      resolve({ status, answer, stderr: stderr.trim() })
    }
    const child = spawn(program, [...args, "--dialect", "claude"], {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
    })
    const timer = setTimeout(() => {
      stderr += `agent-hooks timed out after ${timeout} ms`
      child.kill("SIGKILL")
      finish(124)
    }, timeout)
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    child.on("error", (err) => {
      stderr += String(err)
      finish(127)
    })
    child.on("close", (code) => finish(code ?? 1))
    child.stdin.end(JSON.stringify(payload))
  })
}

/**
 * What a failure to run the hooks means: a block when AGENT_HOOKS_FAIL_CLOSED is set.
 * @param {{status: number, stderr: string}} result
 */
function failed(result) {
  const why = `agent-hooks failed (exit ${result.status}): ${result.stderr}`
  if (/^(1|true|yes)$/i.test(process.env.AGENT_HOOKS_FAIL_CLOSED ?? "")) throw new Error(why)
  console.error(why)
}

/**
 * The OpenCode plugin: `async (ctx) => hooks`.
 * @param {{directory?: string, worktree?: string}} ctx
 */
export async function agentHooksPlugin(ctx) {
  const cwd = ctx.directory ?? ctx.worktree ?? process.cwd()
  /** @param {string} event @param {string} sessionID @param {Record<string, unknown>} rest */
  const payload = (event, sessionID, rest) => ({
    session_id: sessionID ?? "",
    transcript_path: "",
    cwd,
    hook_event_name: event,
    ...rest,
  })
  return {
    /**
     * @param {{tool: string, sessionID: string, callID: string}} input
     * @param {{args: Record<string, unknown>}} output
     */
    "tool.execute.before": async (input, output) => {
      const result = await runHooks(
        payload("PreToolUse", input.sessionID, {
          tool_name: TOOLS[/** @type {keyof TOOLS} */ (input.tool)] ?? input.tool,
          tool_input: renamed(output.args, ARGS),
          tool_use_id: input.callID,
        }),
        cwd,
      )
      if (result.status === 2) throw new Error(result.stderr || "blocked by a PreToolUse hook")
      if (result.status !== 0) return failed(result)
      const answer = result.answer ?? {}
      const specific = answer.hookSpecificOutput ?? {}
      const verdict = specific.permissionDecision ?? (answer.decision === "block" ? "deny" : null)
      const reason = specific.permissionDecisionReason ?? answer.reason ?? answer.stopReason
      if (verdict === "deny" || verdict === "ask" || answer.continue === false) {
        // (OpenCode's tool.execute.before cannot ask: the safe nearest is not to run it)
        throw new Error(reason || `blocked by a PreToolUse hook (${verdict ?? "continue: false"})`)
      }
      if (specific.updatedInput && typeof specific.updatedInput === "object") {
        const args = renamed(specific.updatedInput, BACK)
        for (const key of Object.keys(output.args)) if (!(key in args)) delete output.args[key]
        Object.assign(output.args, args)
      }
    },
    /**
     * @param {{tool: string, sessionID: string, callID: string, args?: Record<string, unknown>}} input
     * @param {{title?: string, output: string, metadata?: unknown}} output
     */
    "tool.execute.after": async (input, output) => {
      const result = await runHooks(
        payload("PostToolUse", input.sessionID, {
          tool_name: TOOLS[/** @type {keyof TOOLS} */ (input.tool)] ?? input.tool,
          tool_input: renamed(input.args ?? {}, ARGS),
          tool_response: output.output,
          tool_use_id: input.callID,
        }),
        cwd,
      )
      if (result.status !== 0 && result.status !== 2) return failed(result)
      const answer = result.answer ?? {}
      const said = [
        result.status === 2 ? result.stderr : null,
        answer.decision === "block" ? answer.reason : null,
        answer.hookSpecificOutput?.additionalContext,
      ].filter((t) => typeof t === "string" && t)
      if (said.length) output.output = `${output.output ?? ""}\n\n${said.join("\n")}`
    },
    /** @param {{event: {type: string, properties?: any}}} input */
    event: async ({ event }) => {
      const names = {
        "session.created": ["SessionStart", { source: "startup" }],
        "session.idle": ["Stop", { stop_hook_active: false }],
        "session.deleted": ["SessionEnd", { reason: "other" }],
      }
      const found = names[/** @type {keyof names} */ (event.type)]
      if (!found) return
      const props = event.properties ?? {}
      const sessionID = props.sessionID ?? props.info?.id ?? ""
      const result = await runHooks(payload(found[0], sessionID, found[1]), cwd)
      if (result.status !== 0 && result.status !== 2) failed(result)
    },
  }
}
