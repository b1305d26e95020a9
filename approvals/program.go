package approvals

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/policy"
)

// A remembered command that runs a file the coder can rewrite — a script
// in the workspace, named by its path (./scripts/gen.sh) or given to an
// interpreter (bash scripts/gen.sh) — is bound to that file's content when
// it is remembered (Match.ProgramSHA256). If the coder changes the script,
// the template no longer covers it and the person is asked again: what
// they approved was that script, not whatever the file later holds.

// programFile is the file argv runs that may be a workspace script, or "".
func programFile(argv []string) string { return wire.ProgramFileOf(argv) }

// programDigest is the sha256 of the file argv runs when it is a regular
// file inside the workspace, resolved from cwd; "" otherwise.
func programDigest(argv []string, cwd, workspace string) string {
	f := programFile(argv)
	if f == "" || workspace == "" {
		return ""
	}
	if !filepath.IsAbs(f) {
		if cwd == "" {
			cwd = workspace
		}
		f = filepath.Join(cwd, f)
	}
	if _, inside := insideWorkspace(f, workspace); !inside {
		return ""
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// programChanged reports whether a template bound to a program's content
// no longer matches the file argv runs (changed, removed, or unreadable).
func (t *Template) programChanged(argv []string, cwd, workspace string) bool {
	if t.Match.ProgramSHA256 == "" {
		return false
	}
	return programDigest(argv, cwd, workspace) != t.Match.ProgramSHA256
}

// RunsWorkspaceScript reports whether a shell command runs a file by its
// path or through an interpreter: a remembered grant for it is bound to the
// file's content, so an adapter must not let the agent cache the grant
// itself (Codex acceptForSession), or later runs of a rewritten script
// would never reach Sentinel. It reads the line as the policy does
// (policy.ReadShell): behind wrappers (env, nice, timeout, uv run …) and
// inside the scripts of sh -c and here-documents fed to a shell. A command
// that does not parse, holds a word whose value is known only when it runs
// (an expansion, a glob, ~), or whose program a wrapper hides
// (nsenter ./x.sh) counts as one.
func RunsWorkspaceScript(command string) bool {
	l, err := policy.ReadShell(command)
	if err != nil {
		return true
	}
	for _, c := range l.Commands() {
		prog := c.Program()
		if c.Dynamic || programFile(c.Args) != "" || programFile(prog) != "" || prog == nil && len(c.Args) > 1 {
			return true
		}
		if script, ok := c.Script(); ok && RunsWorkspaceScript(script) {
			return true
		}
	}
	return false
}
