package tmux

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
)

// TestQueueAcrossRuns is issue 19's check: with the service up, two runs in
// two projects with no terminal post their cards to the queue; approving
// one and denying the other (with a message) from `sentinel queue` reaches
// each coder; `sentinel status` lists both projects' runs.
func TestQueueAcrossRuns(t *testing.T) {
	t.Parallel()
	nudges := filepath.Join(t.TempDir(), "nudges.jsonl")
	svc := startUserService(t, "[notify]\ndesktop = false\ncommand = \"cat >> "+nudges+"\"\n")
	one, two := e2etest.ScratchRepo(t), e2etest.ScratchRepo(t)
	runOne := startBgRun(t, one, svc.env, "run", "--plain", "--apply", "none", "--coder", "command", "fetch one",
		"--", "sh", "-c", hookAsk("go install ./cmd/one"))
	runTwo := startBgRun(t, two, svc.env, "run", "--plain", "--apply", "none", "--coder", "command", "fetch two",
		"--", "sh", "-c", hookAsk("curl -fsS https://example.org/two"))

	var e1, e2 queueEntryJSON
	svc.waitFor(t, "both runs' cards in sentinel queue --json", func() bool {
		entries := svc.pending(t)
		var ok1, ok2 bool
		e1, ok1 = projectOf(entries, one)
		e2, ok2 = projectOf(entries, two)
		return ok1 && ok2
	})
	for _, e := range []queueEntryJSON{e1, e2} {
		if e.ID == "" || e.Run == "" || e.Kind != "shell" || !(strings.Contains(e.Summary, "curl") || strings.Contains(e.Summary, "go install")) ||
			e.Policy.Rule == "" || e.Policy.Reason == "" || e.WaitingSince.IsZero() {
			t.Fatalf("a queue entry lacks what --json promises: %+v", e)
		}
	}

	// status: both projects' runs, each waiting for the person
	st := e2etest.Sentinel(t, "", svc.env, "status", "--json")
	var runs []statusJSON
	if err := json.Unmarshal([]byte(st.Stdout), &runs); err != nil || st.Code != 0 {
		t.Fatalf("sentinel status --json: %d %v\n%s%s", st.Code, err, st.Stdout, st.Stderr)
	}
	seen := map[string]statusJSON{}
	for _, r := range runs {
		seen[r.Run] = r
	}
	for _, e := range []queueEntryJSON{e1, e2} {
		r, ok := seen[e.Run]
		if !ok || r.Project != e.Project || r.State != "waiting for you" || r.Pending != 1 || r.Coder != "command" {
			t.Fatalf("sentinel status does not list run %s of %s as waiting for you: %+v", e.Run, e.Project, runs)
		}
	}
	if table := e2etest.Sentinel(t, "", svc.env, "status"); !containsAll(table.Stdout, e1.Run, e2.Run, "waiting for you") {
		t.Fatalf("sentinel status:\n%s", table.Stdout)
	}

	// an id that is not waiting is refused
	if r := e2etest.Sentinel(t, "", svc.env, "queue", "approve", "no-such-id"); r.Code == 0 || !strings.Contains(r.Stderr, "no request") {
		t.Fatalf("approving an unknown id: %d %q", r.Code, r.Stderr)
	}
	if r := e2etest.Sentinel(t, "", svc.env, "queue", "approve", e1.ID, "--remember", "bogus"); r.Code != 2 || !strings.Contains(r.Stderr, "want run, project or user") {
		t.Fatalf("a bad scope: %d %q", r.Code, r.Stderr)
	}
	if r := e2etest.Sentinel(t, "", svc.env, "queue", "approve", e1.ID, "--remember", "project"); r.Code != 0 {
		t.Fatalf("queue approve: %d %s", r.Code, r.Stderr)
	}
	if r := e2etest.Sentinel(t, "", svc.env, "queue", "deny", e2.ID, "--message", "use the mirror at mirror.internal"); r.Code != 0 {
		t.Fatalf("queue deny: %d %s", r.Code, r.Stderr)
	}
	// the first answer won: a second one is told what became of it
	if r := e2etest.Sentinel(t, "", svc.env, "queue", "deny", e1.ID); r.Code == 0 || !strings.Contains(r.Stderr, "answered in the queue") {
		t.Fatalf("a second answer: %d %q", r.Code, r.Stderr)
	}

	out1, out2 := runOne.wait(t), runTwo.wait(t)
	if !containsAll(out1, "approved and remembered in the queue", "HOOK-EXIT=0") || strings.Contains(out1, "no one to ask") {
		t.Fatalf("the approval did not reach run one's coder:\n%s", out1)
	}
	if !containsAll(out2, "denied in the queue: use the mirror at mirror.internal", `"permissionDecision":"deny"`, "use the mirror at mirror.internal", "HOOK-EXIT=2") {
		t.Fatalf("the deny and its message did not reach run two's coder:\n%s", out2)
	}
	// the journal says so too
	for dir, want := range map[string]string{one: "approved and remembered in the queue", two: "use the mirror at mirror.internal"} {
		j := journalOf(t, dir)
		if !strings.Contains(j, want) {
			t.Fatalf("the journal of %s lacks %q:\n%s", dir, want, j)
		}
	}
	// remembered by run one's own broker, in its project's templates
	tpl, err := os.ReadFile(filepath.Join(one, ".sentinel", "templates.toml"))
	if err != nil || !strings.Contains(string(tpl), "go install ./cmd/one") {
		t.Fatalf("the remembered approval is not in project one's templates: %v\n%s", err, tpl)
	}
	if _, err := os.Stat(filepath.Join(two, ".sentinel", "templates.toml")); err == nil {
		t.Fatal("a template was written in the project whose request was denied")
	}
	// the nudge: one line per request that waited with nobody at its
	// terminal, the run, project and summary, and nothing else
	svc.waitFor(t, "two nudges", func() bool {
		b, _ := os.ReadFile(nudges)
		return strings.Count(string(b), "\n") >= 2
	})
	b, _ := os.ReadFile(nudges)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var n map[string]any
		if err := json.Unmarshal([]byte(line), &n); err != nil || len(n) != 6 || n["run"] == "" || n["project"] == "" || n["summary"] == "" {
			t.Fatalf("a nudge: %v %s", err, line)
		}
	}
	if !containsAll(string(b), e1.ID, e2.ID) {
		t.Fatalf("the nudges do not name both requests:\n%s", b)
	}
	// after the end: both listed with how they ended
	st = e2etest.Sentinel(t, "", svc.env, "status", "--json")
	runs = nil
	_ = json.Unmarshal([]byte(st.Stdout), &runs)
	for _, r := range runs {
		if r.State != "no changes" || r.Pending != 0 { // neither run changed a file: one word for every view (runner.State)
			t.Fatalf("after the runs ended: %+v", runs)
		}
	}
	if len(runs) != 2 {
		t.Fatalf("sentinel status after the end: %+v", runs)
	}
}

// TestQueueServiceDownIsAsToday: with no service a run with no terminal
// denies at once as "no one to ask" (the queue is never waited for).
func TestQueueServiceDownIsAsToday(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	rt, err := os.MkdirTemp("", "sq")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(rt)
	res := e2etest.Sentinel(t, dir, []string{"XDG_RUNTIME_DIR=" + rt}, "run", "--plain", "--apply", "none", "--coder", "command", "fetch",
		"--", "sh", "-c", hookAsk("curl -fsS https://example.com/x"))
	if res.Code != 0 || !containsAll(res.Stdout, "no one to ask", "HOOK-EXIT=2") || strings.Contains(res.Stdout, "approval queue") {
		t.Fatalf("with the service down: %d\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	if r := e2etest.Sentinel(t, dir, []string{"XDG_RUNTIME_DIR=" + rt}, "queue"); r.Code == 0 || !strings.Contains(r.Stderr, "not running") {
		t.Fatalf("sentinel queue with no service: %d %q", r.Code, r.Stderr)
	}
}

// journalOf is every run journal of the project, concatenated.
func journalOf(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, ".sentinel", "runs", "*", "events.jsonl"))
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// TestQueueWithSupervisor: with a supervisor model and nobody at the
// terminal, the gray zone goes to the model as today and only what a
// person alone may approve goes to the queue.
func TestQueueWithSupervisor(t *testing.T) {
	t.Parallel()
	svc := startUserService(t, "")
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "mixed.toml")
	e2etest.WriteFile(t, scenario, "[[steps]]\nshell = \"frobnicate --fix\"\n[[steps]]\nnet = \"example.com:443\"\n[[steps]]\ndone = \"ok\"\n")
	model, err := fakeopenai.Start(fakeopenai.Probe(), fakeopenai.Reply{Content: `{"decision":"allow","reason":"part of the task","risk":"low"}`})
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	run := startBgRun(t, dir, svc.env, "run", "--coder", "demo", "--plain", "--apply", "none", "--scenario", scenario, "--preset", "everyday",
		"--supervisor", "openai", "--supervisor-url", model.URL, "--supervisor-model", "fake", "fix things")
	var e queueEntryJSON
	svc.waitFor(t, "the person-only request in the queue", func() bool {
		var ok bool
		e, ok = projectOf(svc.pending(t), dir)
		return ok
	})
	if e.Kind != "net" || !strings.Contains(e.Summary, "example.com") {
		t.Fatalf("the queue holds %+v, want only the network request", e)
	}
	if r := e2etest.Sentinel(t, "", svc.env, "queue", "approve", e.ID); r.Code != 0 {
		t.Fatalf("queue approve: %d %s", r.Code, r.Stderr)
	}
	out := run.wait(t)
	js := e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)))
	if len(js) != 2 || js[0].Decision.By != "supervisor" || !js[0].Decision.Allowed() ||
		js[1].Decision.By != "person" || !strings.Contains(js[1].Decision.Reason, "approved once in the queue") {
		t.Fatalf("want the shell judged by the model and the host approved in the queue:\n%s\n%s", e2etest.Describe(js), out)
	}
}

// statusJSON is one run as `sentinel status --json` lists it.
type statusJSON struct {
	Project string `json:"project"`
	Run     string `json:"run"`
	Coder   string `json:"coder"`
	State   string `json:"state"`
	Pending int    `json:"pending"`
}
