package policy

// IsShell reports whether name (a program's base name) is a shell whose
// -c script the policy reads as shell itself: the one list every caller
// of the reader uses (the MCP allowlist among them).
func IsShell(name string) bool { return contains(shellNames, name) }
