package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
)

// The same patch verified twice by one landing stage (the completion gate's
// gate.diff, then patch.diff before landing) starts its checks once; the
// second says where its results came from. A different patch, or other
// checks, runs again.
func TestSamePatchIsVerifiedOnce(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	id := "20260101-000000-0000c3"
	p, ws, snap, runDir := wsRun(t, id)
	write(t, filepath.Join(ws.Dir, "a.txt"), "the coder's a\n")
	ch, err := ws.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"gate.diff", "patch.diff"} {
		if err := os.WriteFile(filepath.Join(runDir, n), ch.Patch, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var starts, results []string
	emit := func(_ journal.Lane, kind journal.Kind, text string, _ any) {
		mu.Lock()
		defer mu.Unlock()
		switch kind {
		case KindVerifyStart:
			starts = append(starts, text)
		case KindVerifyResult:
			results = append(results, text)
		}
	}
	s := &LandingStage{Project: p, Snapshot: snap, RunID: id, Dir: runDir, Emit: emit,
		Verifier: Verifier{Project: p, Snapshot: snap, RunID: id, RunDir: runDir, Mode: sandbox.ModeOff, Emit: emit}}
	checks := []Check{{Command: "grep -q \"coder's a\" a.txt", Source: "flag"}}
	first, err := s.Verify(ctx, filepath.Join(runDir, "gate.diff"), checks)
	if err != nil || len(first) != 1 || first[0].From != "" {
		t.Fatalf("first verification: %v %+v", err, first)
	}
	again, err := s.Verify(ctx, filepath.Join(runDir, "patch.diff"), checks)
	if err != nil || len(again) != 1 || !again[0].Passed() {
		t.Fatalf("second verification: %v %+v", err, again)
	}
	if len(starts) != 1 {
		t.Fatalf("the checks started %d times for one patch: %q", len(starts), starts)
	}
	if !strings.Contains(again[0].From, "gate.diff") || !strings.Contains(results[len(results)-1], "not run again") {
		t.Fatalf("the reused result does not say where it came from: %q / %q", again[0].From, results)
	}
	// Other checks, or another patch: verified again.
	if _, err := s.Verify(ctx, filepath.Join(runDir, "patch.diff"), append(checks, Check{Command: "true", Source: "flag"})); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(runDir, "patch.diff"), strings.Replace(string(ch.Patch), "+the coder's a", "+the coder's b", 1))
	if res, err := s.Verify(ctx, filepath.Join(runDir, "patch.diff"), checks); err == nil || res[0].From != "" {
		t.Fatalf("a changed patch kept the old results: %v %+v", err, res)
	}
	if len(starts) != 4 {
		t.Fatalf("checks started %d times, want 4 (1 + 2 + 1): %q", len(starts), starts)
	}
}
