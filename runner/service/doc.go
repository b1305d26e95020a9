// Package service is the user service's view of agents on this machine:
// the registry of Sentinel's own runs (`sentinel run`, `sentinel exec`, a
// shim), the scanner that finds agent processes started any other way
// (claude, codex, gemini, opencode, aider, goose, node-hosted or native),
// their classification (launched, bypassed, adopted, terminated), the
// machine policy that ends agents started outside Sentinel
// (require_launcher, allowed_apps, grace), and the service's journal
// ($XDG_STATE_HOME/sentinel/service/events.jsonl).
//
// It trusts the kernel, not what a process says: a run's registration
// counts only for the pid the socket's SO_PEERCRED names (or a descendant
// of it), from a process running Sentinel's own executable; "launched"
// means a registered run's process is an ancestor in the pid tree, checked
// against its start time; a signal goes through a pidfd opened before the
// process's start time and owner are checked again, so a reused pid is
// never signalled.
//
// It must not decide anything about a run's actions (that is approvals) and
// must not draw anything: `sentinel ps` renders what Agents returns. The
// runner reaches it only through runner.Registrar (Registrar in client.go),
// which never blocks a run: the service down, the run goes on as before.
package service
