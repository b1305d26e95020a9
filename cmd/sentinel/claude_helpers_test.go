package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// claudeTestKey is the API key the tests give Claude Code; the fake model
// takes any.
const claudeTestKey = "sk-ant-test-0123456789abcdefghij"

// needClaude skips without the real claude CLI, except under CI=true, where
// CI installs it and a missing one is a failure.
func needClaude(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("claude"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("claude is not on PATH; .ci/run installs @anthropic-ai/claude-code")
		}
		t.Skip("claude is not installed (npm install -g @anthropic-ai/claude-code@2.1.332)")
	}
}

// claudeEnv is what a `sentinel run --coder claude` needs on top of the
// test's environment: a throwaway HOME and the fake model as the API.
func claudeEnv(t *testing.T, model *fakemodel.Server) []string {
	t.Helper()
	return []string{"HOME=" + t.TempDir(), "ANTHROPIC_BASE_URL=" + model.URL, "ANTHROPIC_API_KEY=" + claudeTestKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
}

// modelHost is the fake model's host:port, for --allow-host.
func modelHost(model *fakemodel.Server) string { return strings.TrimPrefix(model.URL, "http://") }

// startModel starts the fake Messages API for one run.
func startModel(t *testing.T, script fakemodel.Script) *fakemodel.Server {
	t.Helper()
	m, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// runIDs are the ids of the runs under dir/.sentinel/runs, oldest first
// (run ids sort by time).
func runIDs(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(dir, ".sentinel", "runs"))
	var ids []string
	for _, e := range ents {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	// Ids are to the second: runs started in the same second are ordered
	// by their journals' first event.
	started := map[string]time.Time{}
	for _, id := range ids {
		if f, err := os.Open(filepath.Join(dir, ".sentinel", "runs", id, "events.jsonl")); err == nil {
			var ev journal.Event
			if json.NewDecoder(f).Decode(&ev) == nil {
				started[id] = ev.Time
			}
			f.Close()
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		if second(ids[i]) != second(ids[j]) || started[ids[i]].Equal(started[ids[j]]) {
			return ids[i] < ids[j]
		}
		return started[ids[i]].Before(started[ids[j]])
	})
	return ids
}

// second is a run id's time, to the second (YYYYMMDD-HHMMSS).
func second(id string) string { return id[:min(len(id), 15)] }

// lastRun is the id of the newest run in dir.
func lastRun(t *testing.T, dir string) string {
	t.Helper()
	ids := runIDs(t, dir)
	if len(ids) == 0 {
		t.Fatalf("no run under %s/.sentinel/runs", dir)
	}
	return ids[len(ids)-1]
}

// runEvents is the journal of run id in dir.
func runEvents(t *testing.T, dir, id string) []journal.Event {
	t.Helper()
	evs, err := journal.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// journaled is one approval request with its decision, as the journal has them.
type journaled = approvals.Journaled

// approvalsOf pairs each journaled approval request with its decision; an
// event that does not decode fails the test.
func approvalsOf(t *testing.T, evs []journal.Event) []journaled {
	t.Helper()
	js, err := approvals.ReadJournaled(evs)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// describe lists journaled approvals one per line, for failure messages.
func describe(js []journaled) string {
	var b strings.Builder
	for _, j := range js {
		b.WriteString(string(j.Request.Kind) + " " + j.Request.Summary() + " → " + string(j.Decision.Outcome) + " by " + j.Decision.By + ": " + j.Decision.Reason + "\n")
	}
	return b.String()
}

// toolResults are every tool result the model was sent after its turns.
func toolResults(model *fakemodel.Server) []fakemodel.ToolResult {
	var out []fakemodel.ToolResult
	for _, r := range model.Requests() {
		out = append(out, r.LastToolResults()...)
	}
	return out
}

// patchOf is the run's patch.diff (empty when the run kept none).
func patchOf(dir, id string) string {
	b, _ := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "patch.diff"))
	return string(b)
}

// scriptRepo is scratchRepo with a committed, executable ./scripts/gen.sh
// that writes gen-<arg>.txt: a path-qualified program the policy asks about.
func scriptRepo(t *testing.T) string {
	t.Helper()
	dir := scratchRepo(t)
	p := filepath.Join(dir, "scripts", "gen.sh")
	writeFile(t, p, "#!/bin/sh\necho \"generated $1\" > \"gen-$1.txt\"\n")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "scripts/gen.sh")
	git(t, dir, "commit", "-qm", "add gen.sh")
	return dir
}

// syncBuffer collects a terminal's output for a test to wait on.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// jsonOf is v as indented JSON, for failure messages.
func jsonOf(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}
