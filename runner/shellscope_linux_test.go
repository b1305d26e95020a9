package runner

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/shellscope"
	"github.com/sentinelhq/sentinel/sandbox"
)

// scopeRun is an in-place containment of a coder named name, its journal
// in a temp dir.
func scopeRun(t *testing.T, name string) (*containment, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "events.jsonl")
	j, err := journal.Open(path, "r-t")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return &containment{runCore: &runCore{opts: Options{InPlace: true}, id: "r-t", dir: dir, journal: j,
		adapter: &commandAdapter{argv: []string{"true"}, program: name}}}, path
}

// In place, Codex, Claude Code, Gemini CLI and opencode get the shell
// wrapper over the system shells when the kernel has the signal scope; on
// an older kernel the run goes on without it and its journal says so;
// other coders never get it. (Gemini CLI and opencode were "never" before
// they were wired in, h/scope28.)
// Not parallel: it swaps scopeABI.
func TestInPlaceShellScopeFollowsTheKernel(t *testing.T) {
	if len(shellscope.Places("/w")) == 0 {
		t.Skip("no system shell on this host")
	}
	defer func(old func() int) { scopeABI = old }(scopeABI)
	wrapped := func(p sandbox.Profile) bool {
		return slices.ContainsFunc(p.Places, func(pl sandbox.Place) bool { return strings.HasPrefix(pl.Path, shellscope.RealDir+"/") })
	}
	for _, c := range []struct {
		coder   string
		abi     int
		wrapped bool
		said    string
	}{
		{"codex", 6, true, ""},
		{"claude", 7, true, ""},
		{"codex", 5, false, "Landlock (ABI 5, the signal scope needs 6) cannot keep codex's commands from signalling its hooks"},
		{"claude", 0, false, "Landlock (ABI 0"},
		{"gemini", 6, true, ""},
		{"opencode", 6, true, ""},
		{"opencode", 5, false, "cannot keep opencode's commands from signalling its hooks"},
		{"command", 6, false, ""},
	} {
		scopeABI = func() int { return c.abi }
		r, path := scopeRun(t, c.coder)
		if got := wrapped(r.withShellScope(sandbox.Profile{})); got != c.wrapped {
			t.Errorf("%s at ABI %d: wrapped = %v, want %v", c.coder, c.abi, got, c.wrapped)
		}
		evs, err := journal.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var said []string
		for _, ev := range evs {
			said = append(said, ev.Text)
		}
		if c.said == "" && len(said) > 0 || c.said != "" && !slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, c.said) }) {
			t.Errorf("%s at ABI %d: the journal said %q, want %q", c.coder, c.abi, said, c.said)
		}
	}
	// Off, no place is shown: nothing to wrap, nothing to say.
	scopeABI = func() int { return 6 }
	r, _ := scopeRun(t, "codex")
	r.opts.Sandbox.Mode = sandbox.ModeOff
	if wrapped(r.withShellScope(sandbox.Profile{})) {
		t.Error("--sandbox off got the shell wrapper")
	}
}

// Claude Code starts its commands with $SHELL: one the wrapper does not
// cover (fish, a zsh under /usr/local) gets /bin/bash instead, and the
// journal says why; a covered one is left alone. Seen failing without
// shellInScope (no scope, nothing said). Not parallel: it sets SHELL and
// swaps scopeABI.
func TestInPlaceClaudeShellIsOneTheScopeCovers(t *testing.T) {
	bash, err := filepath.EvalSymlinks("/bin/bash")
	if err != nil || !slices.ContainsFunc(shellscope.Places("/w"), func(pl shellscope.Place) bool { return pl.Path == bash }) {
		t.Skip("no /bin/bash on this host")
	}
	defer func(old func() int) { scopeABI = old }(scopeABI)
	scopeABI = func() int { return 6 }
	shellOf := func(p sandbox.Profile) string {
		sh := ""
		for _, kv := range p.Env {
			if v, ok := strings.CutPrefix(kv, "SHELL="); ok {
				sh = v
			}
		}
		return sh
	}
	for _, c := range []struct{ shell, want, said string }{
		{"/bin/bash", "", ""},
		{"/usr/local/bin/fish", "/bin/bash", `your SHELL ("/usr/local/bin/fish") is not a shell Sentinel can keep in a signal scope`},
		{"", "/bin/bash", ""},
	} {
		t.Setenv("SHELL", c.shell)
		r, path := scopeRun(t, "claude")
		if got := shellOf(r.withShellScope(sandbox.Profile{})); got != c.want {
			t.Errorf("SHELL=%q: the sandbox's SHELL = %q, want %q", c.shell, got, c.want)
		}
		evs, err := journal.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var said []string
		for _, ev := range evs {
			said = append(said, ev.Text)
		}
		if c.said == "" && len(said) > 0 || c.said != "" && !slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, c.said) }) {
			t.Errorf("SHELL=%q: the journal said %q, want %q", c.shell, said, c.said)
		}
	}
	// Codex is not touched: it does not start commands with $SHELL.
	t.Setenv("SHELL", "/usr/local/bin/fish")
	r, _ := scopeRun(t, "codex")
	if got := shellOf(r.withShellScope(sandbox.Profile{})); got != "" {
		t.Errorf("codex got SHELL=%q", got)
	}
}
