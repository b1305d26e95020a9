//go:build !unix

package mcpserver

// execUnavailable says why the exec tool cannot run here ("": it can):
// Sentinel has no sandbox backend for this platform yet, and exec never
// runs a command unconfined.
var execUnavailable = "exec is not available on this platform: Sentinel has no sandbox backend here yet, and it never runs a command unconfined"
