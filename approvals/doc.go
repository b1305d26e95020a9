// Package approvals owns the one path every coder action takes: the request
// and decision types, the broker (a unix-socket server per run), its client
// (used by hook commands), the decider chain (policy → remembered templates →
// person or supervisor → deny), remembered templates in TOML, and timeouts
// that fail closed.
//
// It must not know about Bubble Tea or any view: people answer through
// Prompt values that a view consumes. It must never fail open: an
// unreachable broker, a malformed request, a panic, no decider, or no answer
// within the timeout is a deny with a reason. It never accepts a template
// over the socket: templates are written only by the person (the card's
// "remember", `sentinel templates`, or editing the file).
//
// # Files
//
//   - types.go: the contract (Request, Decision, Decider, Prompt, Answer, Match, GrantSpec).
//   - broker.go, decide.go: the socket server and the chain (Judge is the
//     policy + templates part, shared with `sentinel templates test`).
//   - protocol.go, client.go: the wire protocol (PROTOCOL.md) and its client.
//   - person.go: PersonQueue, the Decider a view answers.
//   - templates*.go, templateset.go: remembered approvals, their TOML files,
//     matching, usage counts (atomic edits) and fsnotify reloads.
//   - suggest.go: the breadths offered on "remember" and their preview.
//   - events.go: the kinds below as typed constants and their decoders
//     (AsRequest, AsDecision; AsReport in report.go); journaled.go reads the
//     request/decision events back as pairs (reports, `sentinel runs`, tests).
//   - program.go: binding a remembered workspace script to its content, so
//     a rewritten script is asked about again.
//   - toolresult.go: how a finished tool call went, as data (ToolResult,
//     ToolOutcome, ToolCounts), for every adapter and view.
//   - hooks.go: agent hook payloads (Claude Code, Codex, Gemini CLI, Crush)
//     to requests and decisions back to each agent's answer format.
//   - flood.go: at most MaxPending requests in flight per run; the overflow
//     is denied at once and journaled as a first request and a count.
//   - reach.go: a file request for a path the coder's sandbox hides
//     (BrokerConfig.Sees) is denied at once, never offered: approving it
//     could not give access.
//   - notes.go: what Sentinel refused outside the hook's sight (the proxy's
//     refusals) goes back with the next tool-result report's ack, for the
//     hook to hand to the agent (Claude Code: additionalContext).
//   - registries.go, registries.toml: package registry presets (Go, npm,
//     Python, Rust, …) a card offers to remember for a project at once.
//   - shellparse.go: shell lines split into parts through policy.ReadShell
//     (the one shell reader) for examples, suggestions and `templates add`;
//     decisions use the policy's parts only.
//
// # Journal events
//
// The broker appends these to the run's journal:
//
//	lane      kind            text                                   data
//	approval  request         "<kind>: <summary>"                    Request fields + "verdict" {decision, rule, reason, never_delegable, parts[{text, decision, rule}]}
//	approval  decision        "allowed: <summary> (<by>)" or          Decision {request_id, decision, by, reason, message, remember, latency_ms}
//	                          "denied: <summary> (<by>) — <reason>"
//	approval  template-added  "remembered <match> (<scope> scope) as <id>"  Template
//	system    template-error  a grant that could not be stored, or a template file that failed to reload
//	system    templates-reloaded  "<scope> templates reloaded from <file>"
//	system    broker-error    a refused connection or accept failure
//	system    request-flood   MaxPending requests wait: new ones are denied (the first is journaled in full)   {max_pending}
//	system    request-flood-end  "denied <n> more request(s) …" when the burst ends   {denied}
//	tool      <report kind>   a Report from an adapter (kinds: internal/coderstream) (e.g. tool-result: "Bash: make → exit 1")   Report (a failed call: "failed": true or a non-zero "exit_code"; see ToolOutcome)
//	system    <report kind>   coder-stop, notification, hook-<event>  Report
//
// A decision's By is policy:<rule>, template:<id>[+<id>…], person,
// supervisor, timeout, nobody (no decider), limit (too many pending) or
// error. While the journal cannot be written every request is denied by
// error: nothing is allowed unrecorded.
package approvals
