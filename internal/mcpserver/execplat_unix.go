//go:build unix

package mcpserver

// execUnavailable says why the exec tool cannot run here ("": it can).
// A variable so a test can take the refusing path.
var execUnavailable = ""
