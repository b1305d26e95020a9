// Package opencode owns opencode in place under `sentinel exec -- opencode
// …`, with approvals as in `sentinel run`, and opencode's hook dialect
// (`sentinel hook opencode`).
//
// opencode (1.18) has no command hooks but loads JavaScript plugins, whose
// tool.execute.before runs before every tool call (built-in, MCP and a
// subagent's alike) and blocks the call by throwing. Sentinel writes its
// own plugin (plugin.js, embedded here) into a per-run opencode config
// (Prepare): for each call it runs `<helper> hook opencode` with the call
// in the shared hook payload shape, and lets the call run only on
// Sentinel's "allow" — the broker's chain of policy, remembered templates
// and the person's card, or the queue when they are away. Every failure
// (the hook does not start, no answer in time, an answer it cannot read)
// blocks the call. After a call, and when a session stops or fails, the
// plugin reports to the journal.
//
// The person's own opencode setup comes along in the run's own home:
// their config (providers, model, MCP servers, agents) rewritten by
// ExecConfig, their global AGENTS.md, their login and their TUI's
// display choices ("Disable animations": display.go). No plugin of theirs
// or the project's is loaded: plugins are code inside opencode that could
// act, or change a call after Sentinel judged it, out of Sentinel's sight.
// opencode's own permission prompts are turned off (ask → allow, denials
// kept) because Sentinel has already decided each call when they would
// come.
//
// In place, opencode's sessions for the project are kept across runs in
// a store of the project's own that Sentinel keeps (sessions.go), never in
// the person's opencode.db, which holds every project's sessions and
// their stored credentials and which their opencode reads on the host.
//
// The dialect (hook.go) maps opencode's tool names and arguments to the
// shared ones (runner/hooks) and takes only the arguments opencode acts
// on, so the policy judges what runs. It must stay light (a hook runs on
// every tool call) and decide nothing; a payload it cannot read is an
// error, which the hook answers with a deny.
//
// `sentinel run` drives opencode over ACP instead (runner/acp).
package opencode
