package supervisor

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/fakeopenai"
)

func TestSupervisorCheckAgainstAFakeServer(t *testing.T) {
	srv, err := fakeopenai.Start(fakeopenai.Reply{Content: `{"decision":"deny","reason":"probe","risk":"low"}`})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	r := sentinel(t, dir, nil, "supervisor", "check", "--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "llama-fake")
	if r.code != 0 || !strings.Contains(r.stdout, "supervisor openai llama-fake: answers with a structured judgment") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = sentinel(t, dir, nil, "supervisor", "check", "--supervisor", "gemini")
	if r.code != 2 || !strings.Contains(r.stderr, "want one of anthropic, openai, claude-cli") {
		t.Fatalf("bad backend: exit %d, stderr %s", r.code, r.stderr)
	}
}

func TestSupervisorScanFindsAMaskedExitStatus(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "events.jsonl"),
		`{"seq":7,"time":"2026-11-29T23:00:00Z","run":"r","lane":"approval","kind":"request","text":"shell","data":{"kind":"shell","command":"go test ./... || true"}}`+"\n")
	r := sentinel(t, dir, nil, "supervisor", "scan", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "#7 masked_exit: `go test ./... || true`") || !strings.Contains(r.stdout, "hides the command's exit status") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

func TestDoctorChecksTheConfiguredSupervisor(t *testing.T) {
	srv, err := fakeopenai.Start(fakeopenai.Reply{Content: `{"decision":"deny","reason":"probe","risk":"low"}`})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	r := sentinel(t, t.TempDir(), nil, "doctor", "--supervisor", "openai", "--supervisor-url", srv.URL, "--supervisor-model", "llama-fake")
	if !strings.Contains(r.stdout, "supervisor model") || !strings.Contains(r.stdout, "answers with a structured judgment") {
		t.Fatalf("doctor did not check the supervisor:\n%s\n%s", r.stdout, r.stderr)
	}
	r = sentinel(t, t.TempDir(), nil, "doctor")
	if strings.Contains(r.stdout, "supervisor model") {
		t.Fatalf("doctor shows a supervisor row with none configured:\n%s", r.stdout)
	}
}

// supervisor scan names a run as show and review do: 'last', an id or a
// prefix of one.
func TestSupervisorScanTakesARunID(t *testing.T) {
	dir := scratchRepo(t)
	res := sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "scan me", "--", "sh", "-c", "echo hi > hi.txt")
	if res.code != 0 {
		t.Fatalf("run: exit %d, stderr %q\n%s", res.code, res.stderr, res.stdout)
	}
	runs, _ := filepath.Glob(filepath.Join(dir, ".sentinel", "runs", "*", "events.jsonl"))
	if len(runs) != 1 {
		t.Fatalf("runs: %v", runs)
	}
	id := filepath.Base(filepath.Dir(runs[0]))
	for _, arg := range []string{"last", id, id[:len(id)-2]} {
		r := sentinel(t, dir, nil, "supervisor", "scan", arg)
		if r.code != 0 || !strings.Contains(r.stdout, "nothing to steer about") {
			t.Errorf("scan %s: exit %d\nstdout: %s\nstderr: %s", arg, r.code, r.stdout, r.stderr)
		}
	}
	if r := sentinel(t, dir, nil, "supervisor", "scan", "nope"); r.code != 1 || !strings.Contains(r.stderr, `no run "nope"`) {
		t.Errorf("scan nope: exit %d, stderr %q", r.code, r.stderr)
	}
}
