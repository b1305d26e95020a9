package runner

// One verification per patch. A supervised run verifies the coder's work on
// a clean copy for its completion gate (gate.diff), then verifies the same
// bytes again before it lands (patch.diff): the same patch, the same
// checks, the same toolchain, twice. The landing stage remembers every
// verification that ran to the end (each check ran and exited on its own:
// none stopped, timed out or failed to start) under a key of exactly those
// three things, and a second verification with the same key is not run:
// its results stand, and the journal and the report say where they came
// from.
//
// The toolchain is what a check's outcome could depend on beyond the patch
// and the snapshot (fixed for the stage): the sandbox mode, the timeout,
// the denied executables, PATH, and each check's program as found on PATH
// (its path, size and modification time). A toolchain changed in between
// is a different key, and the checks run again.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// verifiedPatch is one verification that ran to the end.
type verifiedRun struct {
	results []CheckResult
	failed  error
	as      string // the patch file it verified (gate.diff, patch.diff…)
	at      time.Time
}

// verifyMemo is the landing stage's memory of verifications that ran.
type verifyMemo struct {
	mu   sync.Mutex
	runs map[string]verifiedRun
}

// verifyKey is the key of verifying the patch at patchPath with checks by
// v: the patch's hash, the checks and the toolchain. ok is false when the
// patch cannot be read (nothing is remembered then).
func verifyKey(v Verifier, patchPath string, checks []Check) (key, patchHash string, ok bool) {
	b, err := os.ReadFile(patchPath)
	if err != nil {
		return "", "", false
	}
	patchHash = sha256Hex(b)
	h := sha256.New()
	fmt.Fprintf(h, "patch %s\nsnapshot %s\nmode %s\ntimeout %s\npath %s\n", patchHash, v.Snapshot.Commit, v.Mode, v.Timeout, os.Getenv("PATH"))
	for _, d := range v.DeniedExecutables {
		fmt.Fprintf(h, "denied %q\n", d)
	}
	for _, c := range checks {
		fmt.Fprintf(h, "check %q %q %s\n", c.Command, c.Source, programStamp(c.Command))
	}
	return hex.EncodeToString(h.Sum(nil)), patchHash, true
}

// programStamp names the program a check's command starts, as found on
// PATH: its resolved path, size and modification time ("" when it is a
// shell word or not found).
func programStamp(command string) string {
	f := strings.Fields(command)
	for len(f) > 0 && strings.Contains(f[0], "=") { // VAR=value cmd
		f = f[1:]
	}
	if len(f) == 0 {
		return ""
	}
	path, err := exec.LookPath(f[0])
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		path = r
	}
	st, err := os.Stat(path)
	if err != nil {
		return path
	}
	return fmt.Sprintf("%s %d %d", path, st.Size(), st.ModTime().UnixNano())
}

// complete reports whether a verification ran every check to its own end.
func complete(results []CheckResult, checks []Check) bool {
	if len(results) != len(checks) {
		return false
	}
	for _, r := range results {
		if r.Error != "" {
			return false
		}
	}
	return true
}

func (m *verifyMemo) lookup(key string) (verifiedRun, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.runs[key]
	return r, ok
}

func (m *verifyMemo) remember(key string, r verifiedRun) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.runs == nil {
		m.runs = map[string]verifiedRun{}
	}
	m.runs[key] = r
}

// reusedText is the journal's line for a verification not run again.
func reusedText(prev verifiedRun, patchHash string, n int) string {
	what := fmt.Sprintf("verification passed: %d check(s) on a clean copy", n)
	if prev.failed != nil {
		what = prev.failed.Error()
	}
	return fmt.Sprintf("%s — not run again: this patch (sha256 %s) was verified on a clean copy as %s at %s with the same checks and toolchain",
		what, short(patchHash), prev.as, prev.at.Format("15:04:05"))
}

// reusedFrom is what a reused check result says of where it came from.
func reusedFrom(prev verifiedRun) string {
	return fmt.Sprintf("verified as %s at %s (same patch, checks and toolchain)", prev.as, prev.at.UTC().Format(time.RFC3339))
}
