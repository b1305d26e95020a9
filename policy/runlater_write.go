package policy

// WriteRunsLater reports whether a write to the project-relative path rel
// is one only the person may make: an "auto" entry of runlater.toml
// matches it, or rel is a directory above a root-anchored one (creating
// .github can create .github/workflows). It is the rule the policy's path
// checks use, for callers that write files themselves (sentinel mcp's file
// tools).
func WriteRunsLater(rel string) (RunLaterEntry, bool) { return runLater(rel) }
