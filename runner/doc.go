// Package runner owns a Run: the project checks, the disposable workspace
// (a snapshot of HEAD plus the person's uncommitted changes), the coder
// adapters (the demo coder and any command under a pty; Claude Code through
// its hooks; Codex app-server and ACP agents over JSON-RPC in runner/codex
// and runner/acp), the journal, the supervisor's gates and the person's
// messages through it, the patch computed with hardened git, landing, and
// recovery.
//
// Each agent is one folder: its adapter and its entry (a coder.Agent: how
// its program is recognised, its install line, home files, passed
// environment, co-author, hook dialect, shim, and the adapters sentinel run
// and sentinel exec start it with), listed by one line in runner/agents,
// the registry every reader uses (doctor, shims, exec, sandbox --agent,
// the user service's scanner). runner/coder is the contract: Adapter, and
// what the type switches on adapters used to do — Preparer (per-run state
// from one coder.Setup), Spoken (the transport), Failing (where a
// failure is read) and Hosting (an adapter that runs another agent's
// program, --coder acp: the run reads that agent's entry, e.g. how its
// model is checked before the run). The folders: runner/claude (Claude Code: argv,
// settings, stream-json and its hook dialect), runner/codex (app-server
// JSON-RPC and its hook dialect), runner/acp (any ACP agent's permission
// requests and updates, knowing no agent by name), runner/geminicli
// (Gemini CLI: as itself under `sentinel exec`, through its hooks, and its
// needs over ACP; its hook dialect in geminihook), runner/opencode (its
// plugin), runner/aider (Aider, with the sandbox as its only gate) and
// runner/crush (its hook dialect only).
// runner/hooks holds what the hook dialects share (the Dialect contract, the
// common payload reader, the deny-exits-2 rule) and runner/dialects is the
// one registry `sentinel hook <agent>` looks a dialect up in. Those hook
// packages import approvals, policy and internal/coderstream only, never
// runner: a hook runs on every tool call and must start light.
//
// A coder that never did the work is a failed run, not an empty landing:
// each adapter says when its agent's turn failed (CoderFailed, with the
// agent's own error, journaled as system "coder-failed" {coder, reason,
// exit_code}), and a failed coder never goes to a completion gate.
//
// A run that cannot work does not start: before anything of it is made,
// the adapter's Preflight checks the coder's program and version (from its
// files; nothing of it runs on the host), and preflight_model.go its key or
// sign-in and that its model endpoint answers (claude, codex, Gemini CLI
// over ACP), each failure one line naming the coder and the fix.
//
// A Run is the orchestrator of one run in stages, each a type of its own
// with its own files, built by Start from the grouped Options (one group a
// stage: CoderOptions, SandboxOptions, ApprovalOptions, SupervisionOptions,
// LandingOptions) and given only what it needs:
//
//   - containment (containment.go: the broker on its private socket and
//     the policy chain, wiring.go; the sandbox and its profile, wiring.go,
//     inplace_profile.go; the proxy's questions and refusals, proxy_asks.go;
//     a bypassed gate, bypass.go), set up before the coder starts;
//   - the coder (stage_coder.go: coderStage, start_coder.go): its start
//     the way its adapter speaks, its output pumped into the journal under
//     the run's cap (output_cap.go), steering (the person, the supervisor's
//     relay, relay.go, a demo scenario's script), and its end as a coderEnd
//     whose failure is a value (CoderFailed), never display text;
//   - the workspace (stage_workspace.go, workspace.go; the snapshot of the
//     person's work it starts from, snapshot.go): the disposable copy, its
//     patch read through the shadow git dir, and its end (removed once
//     landed, else kept in recovery);
//   - the completion gate (gate.go, gates.go: gateStage): the supervisor's
//     review of "done", the adversarial tester, steering counts, restarts
//     with a handoff, and the gate failures that hold a run for a person;
//   - verification and landing (stage_landing.go: LandingStage, verify.go,
//     land.go): checks on a clean copy, the person's review, the accepted
//     part re-verified, and the landing. `sentinel review` (Finished, in
//     later.go) lands through the same stage. A landing is a journaled
//     transaction (landing_record.go): its signed intent is recorded before
//     the ref or the working tree changes, and SweepStale (run, runs,
//     review) or SettleRun (the service's status) settles one cut short. A
//     patch verified to the end is not verified again (verify_once.go). A
//     stop cancels verification, review and landing alike (stop.go); a
//     landing that began is finished or rolled back;
//   - the end of the work (stage_end.go: endStage): the patch, then what
//     decides whether the work may go on (the gate's verdict, a bypassed
//     gate, the journal's health, the coder's failure), then the landing
//     stage, or in place the report of what changed;
//   - the reports (stage_reports.go: reportStage, report.go): PROGRESS.md and
//     DECISIONS.md kept live, HANDOFF.md and STUCK.md, the final records;
//   - in place (stage_inplace.go), the checkpoint of the person's place
//     before the coder acts and the change report against it at the end
//     (checkpoint_inplace.go, over runner/checkpoint), and `sentinel undo`
//     (undo.go).
//
// What every stage reads (the options, id, journal, summary, workspace,
// supervisor and the stop signal) is the runCore they share (run_core.go).
// The Run keeps its API and the run's course: it prepares the stages, waits
// for the coder's end, and moves the work from stage to stage (run.go,
// finish.go). A stage must not reach back into the Run (it is given its
// core, values and functions, never the *Run); only the coder stage starts
// or ends the coder, and the reports must not decide anything. Each kind the
// run journals, with its payload type and its readers, is in EventKinds
// (events_table.go, events_payloads.go).
//
// A run tells the user service it exists through a Registrar
// (registrar.go: Options.Registrar, else the process's default, which
// cmd/sentinel sets to runner/service's): registered before the coder
// starts, its state and end after. A registrar never fails or holds up a
// run.
//
// It must not draw anything: views read its event stream. The kinds it
// journals and their payloads are in events.go (typed constants, payload
// types and decoders such as AsRunEnd); views switch on those, never on an
// event's text.
package runner
