// Sentinel's approval hook for opencode, written by Sentinel into one run's
// own opencode config (sentinel exec). Before every tool call opencode
// makes, it runs Sentinel's hook command with the call and lets the call
// run only on Sentinel's "allow"; anything else — a deny, no answer in
// time, an answer it cannot read, a hook that does not start — fails the
// call with the reason, which the model sees as the tool's error.
// After a call, and when a session stops or fails, it reports to
// Sentinel's journal; a report that fails changes nothing.
import { spawn } from "node:child_process"

// Filled in by Sentinel: the hook command, how long a decision may take
// (beyond it the call is blocked), how long a report may take, and the
// person's home directory, which the commands opencode runs get back as
// HOME (opencode itself runs with the run's own home, where its state is).
const HOOK = __SENTINEL_HOOK__
const PERSON_HOME = __SENTINEL_HOME__
const DECIDE_MS = __SENTINEL_DECIDE_MS__
const REPORT_MS = __SENTINEL_REPORT_MS__
const MAX_ANSWER = 1 << 20

// run starts the hook command with payload on its stdin and resolves to
// its exit status and output; it rejects when the command cannot start,
// says too much, or has not ended within ms (it is killed).
function run(payload, ms) {
  return new Promise((resolve, reject) => {
    let done = false
    let timer
    const finish = (f) => {
      if (done) return
      done = true
      clearTimeout(timer)
      f()
    }
    let child
    try {
      child = spawn(HOOK[0], HOOK.slice(1), { stdio: ["pipe", "pipe", "pipe"] })
    } catch (e) {
      reject(e)
      return
    }
    let out = ""
    let err = ""
    timer = setTimeout(() => {
      try { child.kill("SIGKILL") } catch {}
      finish(() => reject(new Error("no answer within " + Math.round(ms / 1000) + " s")))
    }, ms)
    child.on("error", (e) => finish(() => reject(e)))
    child.stdout.setEncoding("utf8")
    child.stderr.setEncoding("utf8")
    child.stdout.on("data", (d) => {
      out += d
      if (out.length > MAX_ANSWER) {
        try { child.kill("SIGKILL") } catch {}
        finish(() => reject(new Error("the answer is longer than " + MAX_ANSWER + " bytes")))
      }
    })
    child.stderr.on("data", (d) => { if (err.length < 4096) err += d })
    child.on("close", (code, signal) => finish(() => resolve({ code, signal, out, err })))
    child.stdin.on("error", () => {}) // a hook that exits before reading: its answer decides
    child.stdin.end(payload)
  })
}

// firstLine is s's first non-empty line, short.
function firstLine(s) {
  const l = String(s || "").split("\n").map((x) => x.trim()).find((x) => x !== "") || ""
  return l.length > 300 ? l.slice(0, 297) + "..." : l
}

// decide asks Sentinel about one tool call and returns only on an allow;
// it throws, which blocks the call, on anything else.
async function decide(tool, args, callID, cwd) {
  let payload
  let r
  try {
    payload = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: tool, tool_input: args ?? {}, tool_use_id: callID, cwd })
    r = await run(payload, DECIDE_MS)
  } catch (e) {
    throw new Error("Sentinel could not decide on this " + tool + " call, so it is blocked: " + (e && e.message ? e.message : String(e)))
  }
  let answer
  try {
    answer = JSON.parse(r.out.trim())
  } catch {
    answer = undefined
  }
  const reason = answer && typeof answer.reason === "string" && answer.reason !== "" ? answer.reason : firstLine(r.err)
  if (r.code === 0 && answer !== null && typeof answer === "object" && answer.decision === "allow") return
  if (answer !== null && typeof answer === "object" && answer.decision === "deny") {
    throw new Error(reason.startsWith("Sentinel") ? reason : "Sentinel denied this " + tool + " call: " + (reason || "no reason given"))
  }
  const how = r.signal ? "was killed by " + r.signal : "exited " + r.code
  throw new Error("Sentinel could not decide on this " + tool + " call, so it is blocked: its hook " + how + " without an answer it could read" + (reason ? " (" + reason + ")" : ""))
}

// report tells Sentinel's journal something; it never blocks or fails.
async function report(fields) {
  try {
    await run(JSON.stringify(fields), REPORT_MS)
  } catch {}
}

export const SentinelApprovals = async ({ directory }) => {
  const children = new Set() // subagents' sessions: their stop is not the coder's
  return {
    "shell.env": async (_input, output) => {
      if (PERSON_HOME !== "") output.env.HOME = PERSON_HOME
    },
    "tool.execute.before": async (input, output) => {
      await decide(input.tool, output.args, input.callID, directory)
    },
    "tool.execute.after": async (input, output) => {
      let response
      try {
        response = { title: output?.title, metadata: output?.metadata, output: typeof output?.output === "string" ? output.output.slice(0, 65536) : undefined }
      } catch {
        response = {}
      }
      await report({ hook_event_name: "PostToolUse", tool_name: input.tool, tool_input: input.args ?? {}, tool_response: response, tool_use_id: input.callID, cwd: directory })
    },
    event: async ({ event }) => {
      const p = event?.properties ?? {}
      switch (event?.type) {
        case "session.created":
          if (p.info?.parentID) children.add(p.info.id)
          return
        case "session.idle":
          if (!children.has(p.sessionID)) await report({ hook_event_name: "Stop", cwd: directory })
          return
        case "session.error": {
          const e = p.error ?? {}
          if (e.name === "MessageAbortedError" || children.has(p.sessionID)) return // the person stopped it; a subagent's
          await report({ hook_event_name: "StopFailure", error: String(e.name ?? "error"), error_details: String(e.data?.message ?? e.message ?? ""), cwd: directory })
          return
        }
      }
    },
  }
}
