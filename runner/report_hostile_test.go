package runner

import (
	"strings"
	"testing"
	"unicode"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/supervisor"
)

// hostile carries what a coder might put in any text Sentinel writes into a
// report: a clipboard write, a title change, a line overwrite, a bidi
// override, a zero-width space and the one-rune CSI.
const hostile = "x\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x1b\\\r\x1b[2K\u202eevil\u200b\u009b31m`|"

// rawHidden returns the first character in s a terminal would act on or a
// reader could not see, if any.
func rawHidden(s string) (rune, bool) {
	for _, r := range s {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r >= 0x7f && r < 0xa0 || unicode.Is(unicode.Cf, r) || r == 0xfffd {
			return r, true
		}
	}
	return 0, false
}

func TestReportsSpellOutHostileText(t *testing.T) {
	t.Parallel()
	evs := []journal.Event{
		ev(journal.Approval, "request", "shell: "+hostile, `{"id":"a-1","kind":"shell","command":"echo \u202e\u0007"}`),
		ev(journal.Approval, "decision", "denied", `{"request_id":"a-1","decision":"deny","by":"person","reason":"no \u001b]0;t\u0007"}`),
		ev(journal.Tool, "tool-result", hostile, `{"reported_by":"coder"}`),
		ev(journal.Supervisor, "standing", "rule", `{"text":"never \u202e\u001b[2J"}`),
	}
	m := &Meta{ID: "r1", Task: "task " + hostile, Coder: "demo", Status: StatusLanded, Sandbox: "bwrap", Error: hostile,
		Files:    []string{"READ\u200bME.md", "a\x1b]52;c;eA==\x07.go", ".envrc\u202e"},
		Checks:   []CheckResult{{Check: Check{Command: "make " + hostile, Source: "config"}, ExitCode: 2}},
		Recovery: ".sentinel/recovery/" + hostile}
	for name, body := range map[string]string{
		"DECISIONS.md":    renderDecisions(m, evs),
		"PROGRESS.md":     renderProgress(m, evs, m.Started),
		"FINAL_REPORT.md": renderFinalReport(m, evs, []Flag{{Path: ".envrc\u202e", Reason: "direnv \u202eruns it"}}),
	} {
		if r, bad := rawHidden(body); bad {
			t.Errorf("%s holds a raw %U:\n%q", name, r, body)
		}
		if name != "DECISIONS.md" && !strings.Contains(body, "<U+202E>evil<U+200B><U+009B>31m") {
			t.Errorf("%s does not show the hidden characters:\n%s", name, body)
		}
	}
	if f := renderFinalReport(m, evs, nil); !strings.Contains(f, "- `READ<U+200B>ME.md`") {
		t.Errorf("FINAL_REPORT.md does not spell out the zero-width space in a file name:\n%s", f)
	}
	if p := renderProgress(m, evs, m.Started); !strings.Contains(p, "[tool] coder reports: x<U+001B>]52;") {
		t.Errorf("PROGRESS.md does not mark the coder's report:\n%s", p)
	}
}

// HANDOFF.md is read by the next coder and by the person: the coder's and
// the model's text in it is shown, never passed raw.
func TestHandoffShowsHostileTextVisibly(t *testing.T) {
	t.Parallel()
	h := "\x1b]52;c;eA==\x07\u202eevil\u200b\r\x1b[2K"
	body := renderHandoff("task "+h, []string{"rule " + h}, []string{"READ\u200bME.md"},
		[]CheckResult{{Check: Check{Command: "make " + h}, ExitCode: 1, Tail: "out " + h}},
		supervisor.ReviewResult{Reason: "why " + h, Missing: []string{"m " + h}}, 0)
	if r, bad := rawHidden(body); bad {
		t.Fatalf("HANDOFF.md holds a raw %U:\n%q", r, body)
	}
	if !strings.Contains(body, "READ<U+200B>ME.md") {
		t.Fatalf("the hidden character in a file name is not shown:\n%s", body)
	}
}
