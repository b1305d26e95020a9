package supervisor

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
)

func TestSupervisorCheckAgainstAFakeServer(t *testing.T) {
	t.Parallel()
	srv, err := fakeopenai.Start(fakeopenai.Reply{Content: `{"decision":"deny","reason":"probe","risk":"low"}`})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	r := e2etest.Sentinel(t, dir, nil, "supervisor", "check", "--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "llama-fake")
	if r.Code != 0 || !strings.Contains(r.Stdout, "supervisor openai llama-fake: answers with a structured judgment") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	r = e2etest.Sentinel(t, dir, nil, "supervisor", "check", "--supervisor", "gemini")
	if r.Code != 2 || !strings.Contains(r.Stderr, "want one of anthropic, openai, claude-cli") {
		t.Fatalf("bad backend: exit %d, stderr %s", r.Code, r.Stderr)
	}
}

func TestSupervisorScanFindsAMaskedExitStatus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(dir, "events.jsonl"),
		`{"seq":7,"time":"2026-11-29T23:00:00Z","run":"r","lane":"approval","kind":"request","text":"shell","data":{"kind":"shell","command":"go test ./... || true"}}`+"\n")
	r := e2etest.Sentinel(t, dir, nil, "supervisor", "scan", dir)
	if r.Code != 0 || !strings.Contains(r.Stdout, "#7 masked_exit: `go test ./... || true`") || !strings.Contains(r.Stdout, "hides the command's exit status") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
}

func TestDoctorChecksTheConfiguredSupervisor(t *testing.T) {
	t.Parallel()
	srv, err := fakeopenai.Start(fakeopenai.Reply{Content: `{"decision":"deny","reason":"probe","risk":"low"}`})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	r := e2etest.Sentinel(t, t.TempDir(), nil, "doctor", "--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "llama-fake")
	if !strings.Contains(r.Stdout, "supervisor model") || !strings.Contains(r.Stdout, "answers with a structured judgment") {
		t.Fatalf("doctor did not check the supervisor:\n%s\n%s", r.Stdout, r.Stderr)
	}
	r = e2etest.Sentinel(t, t.TempDir(), nil, "doctor")
	if strings.Contains(r.Stdout, "supervisor model") {
		t.Fatalf("doctor shows a supervisor row with none configured:\n%s", r.Stdout)
	}
}

// supervisor scan names a run as show and review do: 'last', an id or a
// prefix of one.
func TestSupervisorScanTakesARunID(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "scan me", "--", "sh", "-c", "echo hi > hi.txt")
	if res.Code != 0 {
		t.Fatalf("run: exit %d, stderr %q\n%s", res.Code, res.Stderr, res.Stdout)
	}
	runs, _ := filepath.Glob(filepath.Join(dir, ".sentinel", "runs", "*", "events.jsonl"))
	if len(runs) != 1 {
		t.Fatalf("runs: %v", runs)
	}
	id := filepath.Base(filepath.Dir(runs[0]))
	for _, arg := range []string{"last", id, id[:len(id)-2]} {
		r := e2etest.Sentinel(t, dir, nil, "supervisor", "scan", arg)
		if r.Code != 0 || !strings.Contains(r.Stdout, "nothing to steer about") {
			t.Errorf("scan %s: exit %d\nstdout: %s\nstderr: %s", arg, r.Code, r.Stdout, r.Stderr)
		}
	}
	if r := e2etest.Sentinel(t, dir, nil, "supervisor", "scan", "nope"); r.Code != 1 || !strings.Contains(r.Stderr, `no run "nope"`) {
		t.Errorf("scan nope: exit %d, stderr %q", r.Code, r.Stderr)
	}
}
