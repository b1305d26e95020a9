package sandbox

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/sentinelhq/sentinel/internal/agentutil"

	"github.com/sentinelhq/sentinel/sandbox/inside"
)

// Sees reports whether a process inside a sandbox with this profile can
// reach path: read it (write false) or write it. It answers for the
// profile's own lists — what the sandbox mounts and hides — so a decision
// about a file tool can know beforehand that approving it could not help
// (the home directory, for one, is not there at all). Hidden always wins.
// The sandbox's private /tmp and /dev are its own and always there.
//
// Call it on the profile a Sandbox enforces (Sandbox.Profile), whose paths
// are normalized.
func (p Profile) Sees(path string, write bool) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	path = filepath.Clean(path)
	if !p.mounted(path) {
		switch {
		case within(path, "/dev"):
			return !write
		case within(path, "/tmp"):
			// The sandbox's private /tmp is the host's TempDir: the coder's
			// own scratch files are there, the host's /tmp is not.
			if write || p.TempDir == "" {
				return true
			}
			rel, _ := filepath.Rel("/tmp", path)
			_, err := os.Lstat(filepath.Join(p.TempDir, rel))
			return err == nil
		}
	}
	path = agentutil.ResolveExisting(path)
	for _, h := range p.Hidden {
		if within(path, h) {
			return false
		}
	}
	if write {
		// The agent's own state is written by the agent, never through a
		// tool call: a call that would write there (Claude Code's Write,
		// Codex's apply_patch into its transcripts) is out of reach.
		for _, r := range slices.Concat(p.Protected, p.ReadOnly, p.AgentState) {
			if within(path, r) {
				return false
			}
		}
		for _, w := range append([]string{p.Workspace}, p.Writable...) {
			if w != "" && within(path, w) {
				return true
			}
		}
		return false
	}
	return p.mounted(path)
}

// mounted reports whether path lies under something the sandbox mounts
// from the host: the workspace, the profile's paths or a system location.
func (p Profile) mounted(path string) bool {
	for _, r := range slices.Concat([]string{p.Workspace}, p.Writable, p.Readable, p.ReadOnly, p.Protected) {
		if r != "" && within(path, r) {
			return true
		}
	}
	for _, s := range inside.SystemReadable() {
		if within(path, s) || within(path, resolve(s)) {
			return true
		}
	}
	return false
}
