// Package servicewire is the transport between Sentinel's processes and
// the user service (`sentinel service`): the socket's place, one JSON
// request per connection answered by one or more JSON replies, the
// protocol version, and the peer check (SO_PEERCRED: only this user).
//
// It owns no operation: the registry of runs (runner/service) and the
// cross-run approval queue (approvals/queue) each register their own ops
// on a Mux and document them in PROTOCOL.md. It must not decide anything
// and must not import the packages that use it.
//
// The socket lives in $XDG_RUNTIME_DIR/sentinel/ (else
// /tmp/sentinel-UID/), a directory of mode 0700 that Sentinel checks is
// the user's own; the socket itself is 0600. No sandboxed coder can reach
// it: the sandbox shows neither directory.
package servicewire
