// Package supervisor owns the model backends Sentinel can consult when the
// person has walked away, and the roles that use them:
//
//   - Backend: one stateless model turn with a structured (JSON) answer,
//     over the Anthropic Messages API, any OpenAI-compatible chat
//     completions server (OpenAI, Ollama, vLLM, llama.cpp, LM Studio,
//     gateways), or a CLI agent the person is already signed in to
//     (`claude -p`, `codex exec`). Check is the `sentinel doctor` probe.
//   - Supervisor as approvals.Model: one decider with roles that the
//     approval chain (approvals.Ask) calls. Decide is the judge role for the
//     gray zone — requests the policy sends to ask and no template covers —
//     judged against the task with a compact packet of the run's durable
//     state (History, DECISIONS.md); any error, timeout, refusal or
//     unparseable answer is a deny. Recommend is the advice role: the line
//     a present person sees on the card. When each role is used (the person
//     alone, advice on the card, walk-away after a grace period) is the
//     chain's business, not this package's. Requests the policy marks
//     NeverDelegable are never sent to a model.
//   - Review: the completion review at "done" (accept, or return to the
//     coder with what is missing).
//   - Relay: what the person types during a run goes to the model, which
//     decides what the coder is told, answers the person's questions, and
//     keeps lasting rules as standing decisions for every later turn. A
//     failed relay is the caller's cue to pass the message on as typed.
//   - Prompts: every prompt text, as data (prompts.toml, embedded; a user
//     file overrides it).
//   - Ledger: every model turn journaled on the supervisor lane with its
//     tokens and time, under its role's kind (events.go: KindJudge, …;
//     AsTurn decodes one); Totals for the status bar and the report.
//     events.go also declares the steer and verify kinds the runner emits
//     and History reads.
//
// Steering detection (masked exit statuses, skipped tests, …) lives in the
// sub-package steer.
//
// It must not be required: a run with no model configured works without
// this package doing anything. It must never turn a failure into an allow,
// and must not import runner or tui (dependencies point the other way).
package supervisor
