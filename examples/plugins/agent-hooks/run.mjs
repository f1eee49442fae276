// @ts-check
/**
 * What the Pi, Amp and OpenClaw bridges share: run `agent-hooks run --dialect claude` on a
 * Claude Code-shaped payload and read its answer as one verdict.
 *
 * The command is AGENT_HOOKS_COMMAND (a JSON array, or words split on spaces; default
 * `agent-hooks run --discover`). A failure to run it (no such program, a crash, a
 * timeout: AGENT_HOOKS_TIMEOUT_MS, default 60000) is `failed`; the bridges let the action
 * go ahead then, with a message on stderr, unless AGENT_HOOKS_FAIL_CLOSED=1 (a block).
 * Works under Bun and Node 18+.
 */
import { spawn } from "node:child_process"

/** @returns {string[]} */
function command() {
  const raw = process.env.AGENT_HOOKS_COMMAND
  if (!raw) return ["agent-hooks", "run", "--discover"]
  if (raw.trim().startsWith("[")) return JSON.parse(raw)
  return raw.split(/\s+/).filter(Boolean)
}

/**
 * Rename an object's keys.
 * @param {unknown} obj
 * @param {Record<string, string>} names
 * @returns {Record<string, unknown>}
 */
export function renamed(obj, names) {
  /** @type {Record<string, unknown>} */
  const out = {}
  for (const [k, v] of Object.entries(obj ?? {})) out[names[k] ?? k] = v
  return out
}

/**
 * @typedef {{
 *   block: boolean, ask: boolean, reason: string | undefined,
 *   updatedInput: Record<string, unknown> | undefined, context: string | undefined,
 *   failed: string | undefined
 * }} Verdict
 */

/**
 * Run agent-hooks on one payload (`event`, the harness's session id, the event's fields)
 * from `cwd`, and read the answer.
 * @param {string} event
 * @param {{session: string, cwd: string}} where
 * @param {Record<string, unknown>} fields
 * @returns {Promise<Verdict>}
 */
export async function ask(event, where, fields) {
  const payload = {
    session_id: where.session,
    transcript_path: "",
    cwd: where.cwd,
    hook_event_name: event,
    ...fields,
  }
  const { status, stdout, stderr } = await run(payload, where.cwd)
  /** @type {Verdict} */
  const v = { block: false, ask: false, reason: undefined, updatedInput: undefined, context: undefined, failed: undefined }
  if (status === 2) return { ...v, block: true, reason: stderr || `blocked by a ${event} hook` }
  let answer
  try {
    answer = status === 0 ? (stdout.trim() ? JSON.parse(stdout) : {}) : undefined
  } catch {
    answer = undefined
  }
  if (answer === undefined || typeof answer !== "object" || answer === null) {
    const failed = `agent-hooks failed (exit ${status}): ${stderr || stdout.slice(0, 200)}`
    if (/^(1|true|yes)$/i.test(process.env.AGENT_HOOKS_FAIL_CLOSED ?? "")) {
      return { ...v, block: true, reason: failed, failed }
    }
    console.error(failed)
    return { ...v, failed }
  }
  const specific = answer.hookSpecificOutput ?? {}
  const verdict = specific.permissionDecision ?? (answer.decision === "block" ? "deny" : null)
  const reason = specific.permissionDecisionReason ?? answer.reason ?? answer.stopReason
  const updated = specific.updatedInput
  return {
    ...v,
    block: verdict === "deny" || answer.continue === false,
    ask: verdict === "ask",
    reason: typeof reason === "string" && reason ? reason : undefined,
    updatedInput: updated && typeof updated === "object" ? updated : undefined,
    context: typeof specific.additionalContext === "string" ? specific.additionalContext : undefined,
  }
}

/**
 * @param {Record<string, unknown>} payload
 * @param {string} cwd
 * @returns {Promise<{status: number, stdout: string, stderr: string}>}
 */
function run(payload, cwd) {
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
      resolve({ status, stdout, stderr: stderr.trim() })
    }
    const child = spawn(program, [...args, "--dialect", "claude"], { cwd, stdio: ["pipe", "pipe", "pipe"] })
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
