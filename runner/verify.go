package runner

import (
	"github.com/sentinelhq/sentinel/internal/agentutil"

	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"

	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// Check is one verification command and where it came from.
type Check struct {
	Command string `json:"command"`
	Source  string `json:"source"` // flag, config or detected
}

// CheckResult is what one check did on the clean copy.
type CheckResult struct {
	Check
	ExitCode   int    `json:"exit_code"`
	DurationMS int64  `json:"duration_ms"`
	Tail       string `json:"tail"` // the end of its output
	Error      string `json:"error,omitempty"`
	// From says where a result not run again came from (verify_once.go).
	From string `json:"from,omitempty"`
	// Skipped says why a detected check was not run: nothing in the tree
	// for it to check yet (verify_nothing.go). A skipped check passes.
	Skipped string `json:"skipped,omitempty"`
}

// Passed reports whether the check exited 0.
func (c CheckResult) Passed() bool { return c.ExitCode == 0 && c.Error == "" }

// DetectChecks guesses the project's own test and vet/lint commands from its
// files (a coder's claim that its build is clean is checked, not taken). What
// it finds is shown to the person and run only inside the sandbox.
func DetectChecks(root string) []Check {
	has := func(name string) bool { _, err := os.Stat(filepath.Join(root, name)); return err == nil }
	var out []Check
	add := func(cmd string) { out = append(out, Check{Command: cmd, Source: "detected"}) }
	if has("go.mod") {
		add("go test ./...")
		add("go vet ./...")
	}
	if b, err := os.ReadFile(filepath.Join(root, "package.json")); err == nil {
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(b, &pkg) == nil {
			if pkg.Scripts["test"] != "" && !strings.Contains(pkg.Scripts["test"], "no test specified") {
				add("npm test")
			}
			if pkg.Scripts["lint"] != "" {
				add("npm run lint")
			}
		}
	}
	if has("Cargo.toml") {
		add("cargo test")
	}
	if has("pyproject.toml") || has("pytest.ini") || has("setup.cfg") && has("tests") {
		add("python3 -m pytest -q")
	}
	if len(out) == 0 && has("Makefile") {
		if b, _ := os.ReadFile(filepath.Join(root, "Makefile")); bytes.Contains(b, []byte("\ntest:")) || bytes.HasPrefix(b, []byte("test:")) {
			add("make test")
		}
	}
	return out
}

// Verifier re-runs checks on a fresh copy of a run's starting snapshot with a
// patch applied, inside the sandbox with the network off. The coder's own
// claims count for nothing here.
type Verifier struct {
	Project  *Project
	Snapshot Snapshot
	RunID    string
	RunDir   string
	Checks   []Check
	Mode     sandbox.Mode
	Timeout  time.Duration
	// DeniedExecutables are refused in the checks' sandbox as in the
	// coder's: a check runs the coder's code.
	DeniedExecutables []string
	// Emit journals progress; nil means silent.
	Emit func(lane journal.Lane, kind journal.Kind, text string, data any)
}

// Verify runs every check against patchPath and returns the results and,
// when any check failed or could not run, an error saying which.
func (v Verifier) Verify(ctx context.Context, patchPath string) ([]CheckResult, error) {
	if len(v.Checks) == 0 {
		return nil, nil
	}
	// What the verification made (its clean copy, its Go build cache, its
	// sandbox) goes after its result is said; removing it took 9.5 s at
	// load 48, so that is said too.
	var made []func()
	defer func() {
		_ = sayWhile(v.Emit, stepCleanUp, func() error {
			for i := len(made) - 1; i >= 0; i-- {
				made[i]()
			}
			return nil
		})
	}()
	return v.verify(ctx, patchPath, func(f func()) { made = append(made, f) })
}

// verify is Verify; each thing it makes is handed to removeAfter, which
// removes it, in the reverse order, once the verification has ended.
func (v Verifier) verify(ctx context.Context, patchPath string, removeAfter func(func())) ([]CheckResult, error) {
	if v.Timeout <= 0 {
		v.Timeout = 10 * time.Minute
	}
	emit := v.Emit
	if emit == nil {
		emit = func(journal.Lane, journal.Kind, string, any) {}
	}
	id := v.RunID + "-verify"
	dir := v.Project.WorkDir(id)
	removeAfter(func() { os.RemoveAll(dir) })
	shadow, err := scratchShadowDir(v.Project) // never a git dir found in the run directory
	if err != nil {
		return nil, err
	}
	removeAfter(func() { os.RemoveAll(shadow) })
	var ws *Workspace
	err = sayWhile(v.Emit, stepCleanCopy, func() (err error) {
		if ws, err = CreateWorkspace(ctx, v.Project, v.Snapshot, dir, shadow, "sentinel/"+id); err != nil {
			return fmt.Errorf("clean copy for verification: %w", err)
		}
		if st, err := os.Stat(patchPath); err == nil && st.Size() > 0 {
			g := gitCmd{dir: ws.Dir}
			if _, err := g.run(ctx, "apply", "--binary", "--whitespace=nowarn", patchPath); err != nil {
				return fmt.Errorf("apply the patch to the clean copy: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	prof := sandbox.DefaultProfile(ws.Dir, home)
	prof.Net = sandbox.NetNone
	prof.Env = append(prof.Env, checkGoEnv...)
	// Go's build cache is this verification's alone (see verify_gocache.go):
	// a check can write it, so nothing it holds afterwards is ever read again.
	checks, skipped := checksToRun(ws.Dir, v.Checks) // nothing to check yet (verify_nothing.go)
	for _, s := range skipped {
		emit(journal.Tool, KindVerify, fmt.Sprintf("verify: %s → skipped: %s", s.Check.Command, s.Skipped), s)
	}
	if len(checks) == 0 { // no sandbox, no Go cache: nothing runs
		return v.sayResults(emit, skipped, nil)
	}
	seeded := usesGo(ws.Dir, checks) // the question WarmGoSeed asks (seedWanted)
	var need []string
	if seeded {
		need = stdImports(ws.Dir) // which seed will do (verify_goseed_tiers.go)
	}
	gc, err := privateGoCache(ctx, "", seeded, need, func(waited time.Duration) {
		p := CheckProgress{Command: seedWaitLine, ElapsedMS: waited.Milliseconds(), LastLine: seedWaitWhy}
		emit(journal.System, KindVerifyProgress, fmt.Sprintf("%s, %s: %s", seedWaitLine, seedWaitWhy, waited.Round(time.Second)), p)
	})
	if err != nil {
		return nil, err
	}
	removeAfter(func() { os.RemoveAll(gc) })
	prof.Writable = append(prof.Writable, gc)
	prof.Env = append(prof.Env, "GOCACHE="+gc)
	if mc := goModCache(); mc != "" {
		prof.Readable = append(prof.Readable, mc)
		prof.Env = append(prof.Env, "GOMODCACHE="+mc)
	}
	prof.DeniedExecutables = v.DeniedExecutables
	onExec := func(d sandbox.ExecDenial) {
		emit(journal.Tool, KindExecDenied, "verify: sandbox: "+d.Line(), ExecDeniedNote{Entry: d.Entry, Path: d.Path, File: d.File, Copy: d.Copy})
	}
	sb, err := sandbox.Prepare(prof, sandbox.Options{Mode: v.Mode, OnExecDeny: onExec})
	if err != nil {
		return nil, fmt.Errorf("sandbox for verification: %w", err)
	}
	removeAfter(func() { sb.Close() })
	results := skipped
	var failed error
	for _, c := range checks {
		if err := ctx.Err(); err != nil { // stopped: no further check starts
			return results, fmt.Errorf("verification stopped: %w", err)
		}
		emit(journal.Tool, KindVerifyStart, "verify: "+c.Command, c)
		res := v.runCheck(ctx, sb, ws.Dir, c)
		results = append(results, res)
		if ctx.Err() != nil {
			emit(journal.Tool, KindVerify, fmt.Sprintf("verify: %s → stopped after %s", c.Command, time.Duration(res.DurationMS)*time.Millisecond), res)
			emit(journal.System, KindVerifyResult, "verification stopped before it finished", VerifyResultNote{Passed: false, Stopped: true, Checks: results})
			return results, fmt.Errorf("verification stopped: %w", ctx.Err())
		}
		word := "passed"
		if !res.Passed() {
			word = fmt.Sprintf("FAILED (exit %d)", res.ExitCode)
			if failed == nil {
				failed = fmt.Errorf("verification failed: %s exited %d on a clean copy", c.Command, res.ExitCode)
			}
		}
		emit(journal.Tool, KindVerify, fmt.Sprintf("verify: %s → %s in %s", c.Command, word, time.Duration(res.DurationMS)*time.Millisecond), res)
	}
	return v.sayResults(emit, results, failed)
}

// sayResults journals the verification's result.
func (v Verifier) sayResults(emit func(journal.Lane, journal.Kind, string, any), results []CheckResult, failed error) ([]CheckResult, error) {
	ran := 0
	for _, r := range results {
		if r.Skipped == "" {
			ran++
		}
	}
	text := fmt.Sprintf("verification passed: %d check(s) on a clean copy", ran)
	if ran < len(results) {
		text += fmt.Sprintf(", %d skipped with nothing to check yet", len(results)-ran)
	}
	if failed != nil {
		text = failed.Error()
	}
	emit(journal.System, KindVerifyResult, text, VerifyResultNote{Passed: failed == nil, Checks: results})
	return results, failed
}

func (v Verifier) runCheck(ctx context.Context, sb *sandbox.Sandbox, dir string, c Check) CheckResult {
	res := CheckResult{Check: c}
	cctx, cancel := context.WithTimeout(ctx, v.Timeout)
	defer cancel()
	cmd, err := sb.Command(cctx, dir, "sh", "-c", c.Command)
	if err != nil {
		res.ExitCode, res.Error = -1, err.Error()
		return res
	}
	killGroupOnCancel(cmd)
	var out bytes.Buffer
	last := &lastLine{w: &out}
	cmd.Stdout, cmd.Stderr = last, last
	start := time.Now()
	stopProgress := func() {}
	if v.Emit != nil { // a long check shows a sign of life, with its last line
		tick := time.NewTicker(progressEvery) // a person may be watching: every view, every run
		done, stopped := make(chan struct{}), make(chan struct{})
		go func() { defer close(stopped); reportProgress(tick.C, done, start, c.Command, last, v.Emit) }()
		stopProgress = func() { tick.Stop(); close(done); <-stopped } // no progress after the result
	}
	err = cmd.Run()
	if cmd.Process != nil {
		// What the check left running in its group goes with it.
		_ = procgroup.Kill(cmd.Process.Pid) // ESRCH: nothing was left
	}
	stopProgress()
	res.DurationMS = time.Since(start).Milliseconds()
	res.ExitCode = agentutil.ExitStatus(err)
	if ctx.Err() != nil {
		res.Error = "stopped"
	} else if cctx.Err() != nil {
		res.Error = "timed out after " + v.Timeout.String()
	} else if err != nil && res.ExitCode < 0 {
		res.Error = err.Error()
	}
	res.Tail = tailLines(out.String(), 40, 4000)
	return res
}

func goModCache() string {
	// Read where go reads it, not asked of a go on PATH (which may be the
	// project's, and runs on the host).
	mc := sandbox.GoModCache()
	if mc == "" {
		return ""
	}
	if _, err := os.Stat(mc); err != nil {
		return ""
	}
	return mc
}

// tailLines keeps the last n lines and at most max bytes of s.
func tailLines(s string, n, max int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	t := strings.Join(lines, "\n")
	if len(t) > max {
		t = t[len(t)-max:]
	}
	return t
}

// killGroupOnCancel makes cmd the leader of its own process group and has
// a cancelled context kill the whole group, not only cmd: `sh -c` leaves
// its children (a test binary, a sleep) running otherwise, and Wait would
// wait for the pipes they hold. WaitDelay bounds that wait all the same.
func killGroupOnCancel(cmd *exec.Cmd) {
	procgroup.Own(cmd)
	dieWithSentinel(cmd) // a sentinel killed outright takes the check with it (Linux)
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process.Pid) }
	cmd.WaitDelay = 2 * time.Second
}
