// Package sudoedit owns `sentinel mcp sudo-helper`: the small, fixed root
// helper through which the MCP server (an unprivileged, NoNewPrivileges
// service that can never sudo) reads and replaces the root-owned files the
// person listed.
//
// It owns the helper's config (a root-owned file the service user cannot
// write: which user may ask and which files may be edited), the unix-socket
// protocol (one JSON request per connection), the server and its client,
// and the systemd socket and service units that run it. The server admits
// only the configured user (SO_PEERCRED), only paths listed exactly (clean,
// absolute, no "..", no link anywhere on the way, one hard link), writes a
// backup before every replace, checks the content with the validator the
// caller wires in, replaces atomically keeping owner and mode, and appends
// one audit line per request, refused or done.
//
// It must not decide anything else: it runs no program, follows no link
// and reaches no path that is not listed.
package sudoedit
