// Package mcpserver owns `sentinel mcp`: an MCP server (stdio or streamable
// HTTP) that gives an MCP client's model an allowlisted shell and path-gated
// file tools, every call judged, confined and journaled.
//
// It owns the server's TOML config, its validation and its reload while
// the server runs (reload.go: each call runs on one whole generation of
// it; a config, audit or [log] file another user owns or may write is
// refused, owner_unix.go), the polkit rule the service tool needs as a user service
// (polkit.go), the path gate (every
// path canonicalised — symlinks resolved, `..` collapsed as the kernel would —
// before the prefix check, then every directory reached one component at a
// time through open handles, never through a symlink, each checked for what
// it is — Sentinel's own state by device and inode, git dirs by their
// content — so a path swapped after the check leads nowhere unchecked; see
// at.go; the handles are openat file descriptors on unix and Go's os.Root
// elsewhere, Windows included, see dirfs.go), backups of what a delete or
// an overwrite destroys (backup.go), a chown that gives an entry to another
// user told to the person (chown.go), each named in an "about to act" audit
// line before it acts (a call whose line cannot be written is refused),
// and so is every command a call runs (exec, a playbook's, a service
// action) before it starts, so a server killed mid-call leaves its trace,
// no write in a place a live in-place run works on (liveplace.go), a checkpoint of every rw path before
// each writing call, for `sentinel undo RUN --to N` (checkpoint.go), whose diff after the call —
// per call when calls run at once, from a stamp of the place when points are off (callwindow.go) —
// is flagged as an in-place run's report flags it (modes, default ACLs, what the person's makefiles,
// scripts, PATH and go.mod run: callflags.go, placeflags) and named path by path in the answer's
// own block, on standard error and in the audit (callwrote.go), the bounds on what one request may
// cost (requestcap.go; an edit's replace_all measured before it is built,
// shell text nesting too deep to parse or walk refused before either:
// exec_gate.go), the exec gate (both modes decide through the run's
// chain — the built-in rules, the person's policy.toml and the project's
// once trusted (gate_project.go), the line parsed once and walked once by
// that chain for every mode's steps (exec_gate.go), a line in which bash
// would evaluate a value as code refused in allowlist and strict mode
// (policy.EvalSink, an extended pattern of [[ ]] holding $( ) among them; in
// policy mode the engine asks for it, and a deny of a command in such a
// pattern is the line's in every mode, unrestricted too); allowlist mode then needs an entry for
// every command, read from that same parse, and no glob bash may expand to an
// option of it (policy.Command.OptionGlob: rg x * with a file named --pre=sh);
// policy mode goes
// on to remembered templates, then the person through the user service's
// approval queue, at most maxAsksWaiting at once — no one to ask is a deny), running commands inside
// Sentinel's sandbox (refused where there is none, see execplat_*.go) with
// every git dir under an rw path read-only and a new one quarantined after
// each command (gitdirs.go), an rw path's own object store read-only with
// the commands' new objects proven before they enter it (gitscratch.go), the
// tools themselves, the audit events (its own journal kinds, read back
// with `sentinel show FILE`), and serving over HTTP: a bearer token, or
// OAuth with [oauth] — the protected-resource metadata, the MCP endpoint at
// /mcp behind the tokens of the built-in authorization server (mcpauth),
// and the grant gate that keeps each client to the tools the person granted
// (http_oauth.go) — in plain HTTP on loopback or HTTPS with [tls].
//
// Everything a client sends is hostile input: the model on the other side
// may be steered by anything it has read. A gate that cannot answer says no.
//
// It lives under internal/ because only cmd/sentinel uses it: it is a
// product surface built on policy, approvals, sandbox and journal, not an
// API other packages code against, and it is not part of a run (runner).
package mcpserver
