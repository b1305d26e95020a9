package demo

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

func TestDefaultScenarioTouchesEveryKindOfStep(t *testing.T) {
	s, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, st := range s.Steps {
		switch {
		case st.Shell != "":
			kinds["shell"] = true
		case st.Write != "":
			kinds["write"] = true
		case st.Edit != "":
			kinds["edit"] = true
		case st.Net != "":
			kinds["net"] = true
		case st.Await != "":
			kinds["await"] = true
		case st.Done != "":
			kinds["done"] = true
		}
	}
	if len(kinds) != 6 || len(s.Steer) == 0 {
		t.Fatalf("default scenario covers %v with %d steering messages", kinds, len(s.Steer))
	}
}

func TestParseErrorsNameTheFileAndTheProblem(t *testing.T) {
	cases := map[string]string{
		"[[steps]]\nsay = \"a\"\nshell = \"b\"\n":                             "step 1: want exactly one of",
		"[[steps]]\nsay = 'x'\nbogus = 1\n":                                   `unknown field "steps.bogus"`,
		"name = \"x\"\n":                                                      "no [[steps]]",
		"[[steps]]\nsay = \"x\"\n[[steer]]\nafter = \"nope\"\ntext = \"t\"\n": `after = "nope" names no step id`,
		"[[steps]]\nawait = \"soon\"\n":                                       `await "soon"`,
		"[[steps]]\nsay = \n":                                                 "f.toml:2:",
		"[[steps]]\nedit = \"a.go\"\nnew = \"x\"\n":                           "edit needs old",
	}
	for src, want := range cases {
		_, err := Parse([]byte(src), "f.toml")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "f.toml") {
			t.Errorf("Parse(%q) = %v, want an error naming f.toml with %q", src, err, want)
		}
	}
}

// fakeBroker decides by kind and records what it was asked and told.
type fakeBroker struct {
	deny    map[policy.Kind]string
	asked   []approvals.Request
	reports []approvals.Report
}

func (f *fakeBroker) Ask(_ context.Context, r approvals.Request) (approvals.Decision, error) {
	f.asked = append(f.asked, r)
	if reason, ok := f.deny[r.Kind]; ok {
		return approvals.Decision{Outcome: approvals.OutcomeDeny, By: "person", Reason: reason, Message: "try something else"}, nil
	}
	return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "policy:test"}, nil
}

func (f *fakeBroker) Report(_ context.Context, r approvals.Report) error {
	f.reports = append(f.reports, r)
	return nil
}

func TestCoderAsksBeforeEveryActionAndHonoursDenials(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old text\n"), 0o644)
	sc, err := Parse([]byte(`
[[steps]]
id = "sh"
shell = "echo ran > ran.txt"
[[steps]]
id = "w"
write = "new.txt"
content = "hello"
[[steps]]
id = "e"
edit = "a.txt"
old = "old"
new = "new"
[[steps]]
id = "n"
net = "example.com:8443"
[[steps]]
if_steered = true
write = "steered.txt"
content = "x"
[[steps]]
done = "ok"
`), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	fb := &fakeBroker{deny: map[policy.Kind]string{policy.KindWrite: "no new files", policy.KindNet: "no network"}}
	var out bytes.Buffer
	c := &Coder{Scenario: sc, Dir: dir, Broker: fb, In: strings.NewReader(""), Out: &out}
	if code := c.Run(context.Background()); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if len(fb.asked) != 4 {
		t.Fatalf("asked %d times: %+v", len(fb.asked), fb.asked)
	}
	if fb.asked[0].Kind != policy.KindShell || fb.asked[0].ToolCallID != "sh" || fb.asked[0].Cwd != dir || fb.asked[0].Adapter != "demo" {
		t.Fatalf("shell request = %+v", fb.asked[0])
	}
	if fb.asked[3].Host != "example.com" || fb.asked[3].Port != 8443 {
		t.Fatalf("net request = %+v", fb.asked[3])
	}
	if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err != nil {
		t.Fatal("the allowed command did not run")
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a denied write happened")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "new text\n" {
		t.Fatalf("edit: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "steered.txt")); err == nil {
		t.Fatal("an if_steered step ran without steering")
	}
	o := out.String()
	if !strings.Contains(o, "denied\x1b[0m (person): no new files") || !strings.Contains(o, "try something else") {
		t.Fatalf("output does not show the denial and its message:\n%s", o)
	}
	if len(fb.reports) != 2 || *fb.reports[0].ExitCode != 0 {
		t.Fatalf("reports = %+v", fb.reports)
	}
}

func TestSteeringArrivesOnInput(t *testing.T) {
	sc, _ := Parse([]byte("[[steps]]\nawait = \"5s\"\n[[steps]]\nif_steered = true\nsay = \"adjusting\"\n[[steps]]\ndone = \"ok\"\n"), "t.toml")
	pr, pw := io.Pipe()
	var out bytes.Buffer
	c := &Coder{Scenario: sc, Dir: t.TempDir(), Broker: &fakeBroker{}, In: pr, Out: &out}
	go pw.Write([]byte("please add tests\n"))
	if code := c.Run(context.Background()); code != 0 {
		t.Fatal(code)
	}
	if !strings.Contains(out.String(), `Steering received:`) || !strings.Contains(out.String(), "adjusting") {
		t.Fatalf("output:\n%s", out.String())
	}
}

// TestAnAwaitAfterOneThatGotItsGuidanceStillWaits: a steer answers the
// await it came for (or the next one, when it came early) and no other:
// a later await waits again (the relay test's second message depends on it).
func TestAnAwaitAfterOneThatGotItsGuidanceStillWaits(t *testing.T) {
	sc, _ := Parse([]byte("[[steps]]\nawait = \"1h\"\n[[steps]]\nawait = \"20ms\"\n[[steps]]\ndone = \"ok\"\n"), "t.toml")
	pr, pw := io.Pipe()
	var out bytes.Buffer
	c := &Coder{Scenario: sc, Dir: t.TempDir(), Broker: &fakeBroker{}, In: pr, Out: &out}
	go pw.Write([]byte("one message\n"))
	if code := c.Run(context.Background()); code != 0 {
		t.Fatal(code)
	}
	if !strings.Contains(out.String(), "waiting up to 20ms for guidance") {
		t.Fatalf("the second await did not wait:\n%s", out.String())
	}
}
