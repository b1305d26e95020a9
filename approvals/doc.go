// Package approvals owns the one path every coder action takes: the request
// and decision types, the broker (a unix-socket server per run), its client
// (used by hook commands), the one approval chain (policy → remembered
// templates → the person and/or the supervisor model, with walk-away grace
// and advice on the card → deny), remembered templates in TOML, and timeouts
// that fail closed. The supervisor package supplies the model (a Model: its
// judge and advice roles); when each role is asked is decided here, and a
// run's views preview a remembered grant through the same chain
// (Broker.Preview), never an engine of their own.
//
// It is agent-neutral: Request, Report, Decision and ToolResult are the
// words every adapter translates its agent into. No agent's own format lives
// here — hook payloads and answers are each agent's dialect, beside its
// adapter (runner/hooks, runner/claude, runner/codex, runner/geminicli,
// runner/crush, registered in runner/dialects), and ACP's and Codex
// app-server's requests are read in runner/acp and runner/codex. It imports
// no runner package.
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
//   - wire/: what the hook side of the socket shares with the broker and
//     all a hook links (Request, Report, Decision, Match, GrantSpec, the
//     protocol's lines and the one-shot AskOnce/ReportOnce, without net or
//     the policy engine); approvals re-exports those names.
//   - types.go: the contract (Decider, Prompt, Answer; the wire's types by
//     their approvals names).
//   - broker.go, decide.go: the socket server and the chain (Judge is the
//     policy + templates part, shared with `sentinel templates test`).
//   - ask.go: the chain's last link, Ask — the person and/or the supervisor
//     model (Model), with walk-away grace and advice. A model that cannot
//     answer or answers garbage is a deny; it never remembers a grant and
//     never sees what only a person may approve.
//   - protocol.go, client.go: the wire protocol (PROTOCOL.md) and the
//     multiplexing client (EnvSocket, EnvHookTimeout: what a hook command is
//     told).
//   - argv.go: a shell command a hook gives as words (Request.Argv) is
//     read here, with the policy's reader (ShellCommand), not in the hook.
//   - adapterapi.go: the broker's own checks and words adapters reuse
//     (Request.Validate, CheckReport, DenyBy, QuoteArgv).
//   - person.go: PersonQueue, the Decider a view answers.
//   - templates*.go, templateset.go: remembered approvals, their TOML files,
//     matching, usage counts (atomic edits) and fsnotify reloads.
//   - suggest.go: the breadths offered on "remember" and their preview
//     (Broker.Preview: asked of the run's own policy and context).
//   - events.go: the kinds below as typed constants and their decoders
//     (AsRequest, AsDecision; AsReport in report.go); journaled.go reads the
//     request/decision events back as pairs (reports, `sentinel runs`, tests).
//   - program.go: binding a remembered workspace script to its content, so
//     a rewritten script is asked about again.
//   - toolresult.go: how a finished tool call went, as data (ToolResult,
//     ToolOutcome, ToolCounts), for every adapter and view.
//   - flood.go: at most MaxPending requests in flight per run; the overflow
//     is denied at once and journaled as a first request and a count.
//   - reach.go: a file request for a path the coder's sandbox hides
//     (BrokerConfig.Sees) is denied at once, never offered: approving it
//     could not give access. reach_needs.go is the general rule: what a
//     command must do in the sandbox (places its tool writes, a daemon's
//     socket, the network; BrokerConfig.Inside) and a registry host whose
//     installer cannot store what it fetches are denied by "sandbox" with
//     why and what works, never offered. template_name.go: templates'
//     readable names.
//   - notes.go: what Sentinel refused outside the hook's sight (the proxy's
//     refusals) goes back with the next tool-result report's ack, for the
//     hook to hand to the agent in its dialect (hooks.Dialect.Note; Claude
//     Code: additionalContext).
//   - registries.go, registries.toml: package registry presets (Go, npm,
//     Python, Rust, …) a card offers to remember for a project at once.
//   - fetchgrant.go: a package install's prompt carries the registry hosts
//     it will fetch from (policy.FetchHosts over BrokerConfig.Registries);
//     a person's approval with them (Answer.WithHosts) allows those hosts,
//     and only those, as run-scope host grants, which the sandbox proxy's
//     own asks then find: one card for `npm install`, not one per host.
//   - hostgrant.go: a network request of the coder's own tool that is
//     allowed leaves a run-scope host template covering only the sandbox
//     proxy's asks (Template.ProxyOnly), for HostGrantTTL, renewed by the
//     next allow: the tool's own connection is not asked about twice, and
//     the grant is one of the templates the chain reads, nowhere else.
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
//	                          "denied: <summary> (<by>) — <reason>" or
//	                          "skipped: <summary> (person)" (a deny, reason "skipped by the person")
//	approval  template-added  "remembered “<name>” as <id> (<match>, <scope> scope)"  Template
//	system    template-error  a grant that could not be stored, or a template file that failed to reload
//	system    templates-reloaded  "<scope> templates reloaded from <file>"
//	system    broker-error    a refused connection or accept failure
//	system    request-flood   MaxPending requests wait: new ones are denied (the first is journaled in full)   {max_pending}
//	system    request-flood-end  "denied <n> more request(s) …" when the burst ends   {denied}
//	system    gate-bypassed   a hook-gated call's result came back though it was not allowed (bypass.go); the run stops   Bypass
//	tool      <report kind>   a Report from an adapter (kinds: internal/coderstream) (e.g. tool-result: "Bash: make → exit 1")   Report (a failed call: "failed": true or a non-zero "exit_code"; see ToolOutcome)
//	system    <report kind>   coder-stop, notification, hook-<event>  Report
//
// A decision's By is policy:<rule>, template:<id>[+<id>…], person,
// supervisor, timeout, nobody (no decider), limit (too many pending) or
// error. While the journal cannot be written every request is denied by
// error: nothing is allowed unrecorded.
package approvals
