package e2etest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"bytes"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// ClaudeTestKey is the API key the tests give Claude Code; the fake model
// takes any.
const ClaudeTestKey = "sk-ant-test-0123456789abcdefghij"

// OpencodeVersion is the opencode-ai release .ci/run installs.
const OpencodeVersion = "1.18.33"

// needCLI skips without the real agent CLI name, except under CI=true,
// where CI installs it and a missing one is a failure.
func needCLI(t *testing.T, name, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not on PATH; .ci/run installs %s", name, pkg)
		}
		t.Skipf("%s is not installed (npm install -g %s)", name, pkg)
	}
}

// NeedClaude: the real claude CLI (see needCLI).
func NeedClaude(t *testing.T) { t.Helper(); needCLI(t, "claude", "@anthropic-ai/claude-code@2.1.332") }

// NeedCodex: the real codex CLI (see needCLI).
func NeedCodex(t *testing.T) { t.Helper(); needCLI(t, "codex", "@openai/codex@0.171.0") }

// NeedGemini: the real Gemini CLI (see needCLI).
func NeedGemini(t *testing.T) { t.Helper(); needCLI(t, "gemini", "@google/gemini-cli@0.61.0") }

// NeedOpencode: the real opencode CLI (see needCLI).
func NeedOpencode(t *testing.T) { t.Helper(); needCLI(t, "opencode", "opencode-ai@"+OpencodeVersion) }

// ClaudeEnv is what a `sentinel run --coder claude` needs on top of the
// test's environment: a throwaway HOME and the fake model as the API.
func ClaudeEnv(t *testing.T, model *fakemodel.Server) []string {
	t.Helper()
	home := t.TempDir()
	// The person's own settings ask for reduced motion (ClaudeStill): a
	// run keeps it (runner/claude's keptSettings), so every Claude a test
	// starts through Sentinel, in a TUI or not, holds still while it waits.
	WriteFile(t, filepath.Join(home, ".claude", "settings.json"), `{`+strings.TrimSuffix(ClaudeStill, ",")+`}`)
	return []string{"HOME=" + home, "ANTHROPIC_BASE_URL=" + model.URL, "ANTHROPIC_API_KEY=" + ClaudeTestKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
}

// ClaudeStill is the settings key (first in a settings object, with its
// comma) that every Claude Code a test starts gets in the person's
// settings (ClaudeEnv writes it; a test that writes its own settings.json
// starts it with this): prefersReducedMotion, the person's "Reduce motion"
// preference, which stops the spinner's 120 ms and shimmer's 50 ms
// redraws. Claude Code 2.1.332 in tmux waiting on a hung model used
// 1.3-2.7 CPU-s in 20 s with them and 0.4 without
// (docs/measure/claude-spinner.sh), for the whole of a test's wait on a
// hook's timeout or a person's card, and Sentinel's coder pane redraws
// with it. Of the screen it changes only the spinner's line (a still
// glyph, no elapsed seconds), which no test reads.
const ClaudeStill = `"prefersReducedMotion":true,`

// CodexStill is the person's ~/.codex/config.toml table that turns Codex's
// Animations setting off (0.171.0), which a run keeps (runner/codex's
// keepTUIKeys): a test that writes the person's config.toml starts it
// with this, as ClaudeStill for Claude.
const CodexStill = "[tui]\nanimations = false\n\n"

// ModelHost is the fake model's host:port, for --allow-host.
func ModelHost(model *fakemodel.Server) string { return strings.TrimPrefix(model.URL, "http://") }

// StartModel starts the fake Messages API for one run.
func StartModel(t *testing.T, script fakemodel.Script) *fakemodel.Server {
	t.Helper()
	m, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// ModelTurns are a run's supervisor requests after the probe turn that
// every run with a supervisor asks before its coder starts.
func ModelTurns(t *testing.T, srv *fakeopenai.Server) []*fakeopenai.Request {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 || !strings.Contains(reqs[0].SystemText(), "health probe") {
		t.Fatalf("the supervisor's first request is not the probe turn (%d requests)", len(reqs))
	}
	return reqs[1:]
}

// RunIDs are the ids of the runs under dir/.sentinel/runs that have a
// journal, oldest first (run ids sort by time). A run's directory is made
// a moment before its journal: a test polling for a run to read its
// journal (RunEvents) never gets one it cannot read yet.
func RunIDs(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(dir, ".sentinel", "runs"))
	var ids []string
	// Ids are to the second: runs started in the same second are ordered
	// by their journals' first event.
	started := map[string]time.Time{}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		f, err := os.Open(filepath.Join(dir, ".sentinel", "runs", e.Name(), "events.jsonl"))
		if err != nil {
			continue
		}
		ids = append(ids, e.Name())
		var ev journal.Event
		if json.NewDecoder(f).Decode(&ev) == nil {
			started[e.Name()] = ev.Time
		}
		f.Close()
	}
	sort.Slice(ids, func(i, j int) bool {
		if Second(ids[i]) != Second(ids[j]) || started[ids[i]].Equal(started[ids[j]]) {
			return ids[i] < ids[j]
		}
		return started[ids[i]].Before(started[ids[j]])
	})
	return ids
}

// Second is a run id's time, to the second (YYYYMMDD-HHMMSS).
func Second(id string) string { return id[:min(len(id), 15)] }

// LastRun is the id of the newest run in dir.
func LastRun(t *testing.T, dir string) string {
	t.Helper()
	ids := RunIDs(t, dir)
	if len(ids) == 0 {
		t.Fatalf("no run under %s/.sentinel/runs", dir)
	}
	return ids[len(ids)-1]
}

// RunEvents is the journal of run id in dir.
func RunEvents(t *testing.T, dir, id string) []journal.Event {
	t.Helper()
	evs, err := journal.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// ApprovalsOf pairs each journaled approval request with its decision; an
// event that does not decode fails the test.
func ApprovalsOf(t *testing.T, evs []journal.Event) []approvals.Journaled {
	t.Helper()
	js, err := approvals.ReadJournaled(evs)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// Describe lists journaled approvals one per line, for failure messages.
func Describe(js []approvals.Journaled) string {
	var b strings.Builder
	for _, j := range js {
		b.WriteString(string(j.Request.Kind) + " " + j.Request.Summary() + " → " + string(j.Decision.Outcome) + " by " + j.Decision.By + ": " + j.Decision.Reason + "\n")
	}
	return b.String()
}

// ToolResults are every tool result the model was sent after its turns.
func ToolResults(model *fakemodel.Server) []fakemodel.ToolResult {
	var out []fakemodel.ToolResult
	for _, r := range model.Requests() {
		out = append(out, r.LastToolResults()...)
	}
	return out
}

// PatchOf is the run's patch.diff (empty when the run kept none).
func PatchOf(dir, id string) string {
	b, _ := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "patch.diff"))
	return string(b)
}

// ScriptRepo is ScratchRepo with a committed, executable ./scripts/gen.sh
// that writes gen-<arg>.txt: a path-qualified program the policy asks about
// with the sandbox off. It has no shebang line (the coder's shell runs it as
// a shell script), so the policy cannot tell which interpreter runs it; a
// script whose shebang names a known interpreter is judged as that
// interpreter running it (policy/shebangoff.go) and need not ask.
func ScriptRepo(t *testing.T) string {
	t.Helper()
	dir := ScratchRepo(t)
	p := filepath.Join(dir, "scripts", "gen.sh")
	WriteFile(t, p, "echo \"generated $1\" > \"gen-$1.txt\"\n")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "add", "scripts/gen.sh")
	Git(t, dir, "commit", "-qm", "add gen.sh")
	return dir
}

// SyncBuffer collects a terminal's output for a test to wait on.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// JSONOf is v as indented JSON, for failure messages.
func JSONOf(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// CodexScriptRepo is ScratchRepo with two committed, executable scripts the
// policy asks about (path-qualified programs): ./scripts/gen.sh appends
// "generated <args>" to gen.log, so every run of it shows; ./scripts/deploy.sh
// creates deployed.txt. gen.sh has no shebang line (see ScriptRepo);
// deploy.sh asks off for its name whatever its first line.
func CodexScriptRepo(t *testing.T) string {
	t.Helper()
	dir := ScratchRepo(t)
	for name, body := range map[string]string{
		"gen.sh":    "echo \"generated $*\" >> gen.log\n",
		"deploy.sh": "#!/bin/sh\necho \"deployed $*\" > deployed.txt\n",
	} {
		p := filepath.Join(dir, "scripts", name)
		WriteFile(t, p, body)
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	Git(t, dir, "add", "scripts")
	Git(t, dir, "commit", "-qm", "add scripts")
	return dir
}

// WorkspaceOf is the run's workspace, the cwd of its first shell request.
func WorkspaceOf(js []approvals.Journaled) string {
	for _, j := range js {
		if j.Request.Cwd != "" {
			return j.Request.Cwd
		}
	}
	return ""
}
