package scripts

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// TestScripts runs every testdata/*.txtar scenario against the built
// binary (`go test -run TestScripts/NAME` runs one).
func TestScripts(t *testing.T) {
	// Every script's home is fresh, so its Go build cache would be empty
	// and the first verification's seed (the demo's) would compile the
	// standard library from nothing: minutes, where a person who just ran
	// `go run ./cmd/sentinel` has those packages. One warm copy for the
	// process stands for that person's cache; Sentinel only reads it.
	goCache := filepath.Join(t.TempDir(), "go-build")
	e2etest.SeedGoCache(t, goCache)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		Setup:               setupWithGoCache(goCache),
		Cmds:                commands(),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}

// setupWithGoCache is setup with goCache as the person's Go build cache.
func setupWithGoCache(goCache string) func(*testscript.Env) error {
	return func(env *testscript.Env) error {
		env.Setenv("GOCACHE", goCache)
		return setup(env)
	}
}

// TestTmuxGetsEveryVariableTheSetupSets: a program under tmux-start sees
// the script's environment as `exec` does, every variable the setup sets
// included (passed). The tmux server's own environment is the test
// process's: a variable missing from passed is silently the test
// process's value there, or none.
func TestTmuxGetsEveryVariableTheSetupSets(t *testing.T) {
	dir := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(dir, "setup.txtar"), "# nothing to run: the setup is what is checked\n")
	testscript.Run(t, testscript.Params{
		Dir: dir,
		Setup: func(env *testscript.Env) error {
			before := len(env.Vars)
			if err := setupWithGoCache(filepath.Join(t.TempDir(), "go-build"))(env); err != nil {
				return err
			}
			for _, kv := range env.Vars[before:] {
				k, _, _ := strings.Cut(kv, "=")
				if !slices.Contains(passed, k) && k != "SENTINEL_E2E_HANG_BOUND" { // read by the test process, not the program
					t.Errorf("the setup sets %s, which tmux-start does not pass to its program (add it to passed)", k)
				}
			}
			return nil
		},
	})
}

// setup gives each script sentinel on its PATH and user directories of its
// own: config, state and home under $WORK, never the person's.
func setup(env *testscript.Env) error {
	work := env.WorkDir
	for _, d := range []string{"home", "config", "state"} {
		if err := os.Mkdir(filepath.Join(work, d), 0o755); err != nil {
			return err
		}
	}
	env.Setenv("PATH", filepath.Dir(e2etest.Bin)+string(os.PathListSeparator)+env.Getenv("PATH"))
	env.Setenv("HOME", filepath.Join(work, "home"))
	env.Setenv("XDG_CONFIG_HOME", filepath.Join(work, "config"))
	env.Setenv("XDG_STATE_HOME", filepath.Join(work, "state"))
	// the process's own runtime dir (e2etest.Main): never the person's
	// user service
	env.Setenv("XDG_RUNTIME_DIR", os.Getenv("XDG_RUNTIME_DIR"))
	env.Setenv("NO_COLOR", "1")
	env.Setenv("SENTINEL_E2E_HANG_BOUND", os.Getenv("SENTINEL_E2E_HANG_BOUND"))
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@t"} {
		env.Setenv(k, v)
	}
	// a short TMPDIR: a run's sockets live under it, and unix socket paths
	// are limited to ~100 bytes ($WORK/.tmp is too deep)
	tmp, err := os.MkdirTemp("", "ts")
	if err != nil {
		return err
	}
	env.Defer(func() { os.RemoveAll(tmp) })
	env.Setenv("TMPDIR", tmp)
	env.Values[tmuxKey{}] = &tmuxHolder{}
	return nil
}
