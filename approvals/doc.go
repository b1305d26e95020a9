// Package approvals owns the one path every coder action takes: the request
// and decision types, the broker (a unix-socket server per run), its client
// (used by hook commands), the decider chain (policy → remembered templates →
// person or supervisor → deny), remembered templates in TOML, and timeouts
// that fail closed.
//
// It must not know about Bubble Tea or any view: people answer through
// Prompt values that a view consumes.
package approvals
