package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/runner/patch"
)

// openReview opens the fixture's review on a live-run harness and lets the
// key guard pass.
func openReview(t *testing.T, theme string, w, h int) (*harness, chan runner.ReviewAnswer) {
	t.Helper()
	hs := newThemedHarness(t, theme, w, h)
	hs.send(eventsMsg(demoEvents()))
	req, ans := fixtureRequest(t)
	hs.send(reviewMsg{req})
	hs.clk.Add(DefaultGuard)
	return hs, ans
}

func verdict(ch chan runner.ReviewAnswer) (runner.ReviewAnswer, bool) {
	select {
	case a := <-ch:
		return a, true
	default:
		return runner.ReviewAnswer{}, false
	}
}

// press also runs the commands a key returns that answer at once, like
// the program would.
func (h *harness) pressReview(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		if k == "space" {
			h.send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
			continue
		}
		h.send(keyMsg(k))
	}
}

func TestReviewIgnoresKeysRightAfterItOpens(t *testing.T) {
	hs := newThemedHarness(t, "nocolor", 120, 40)
	req, ans := fixtureRequest(t)
	hs.send(reviewMsg{req})
	contains(t, hs.screen(), "keys are ignored for a moment")
	hs.clk.Add(DefaultGuard - time.Millisecond)
	hs.pressReview("a", "y")
	if a, ok := verdict(ans); ok {
		t.Fatalf("a key in flight answered the review: %+v", a)
	}
	notContains(t, hs.screen(), "Land 5 of 5")
	hs.clk.Add(time.Millisecond)
	hs.pressReview("a")
	contains(t, hs.screen(), "Land 5 of 5 file(s), 5 of 5 hunk(s)?")
	contains(t, hs.screen(), "⚑ includes .envrc, .githooks/pre-commit")
	hs.pressReview("y")
	a, ok := verdict(ans)
	if !ok || !a.Approve || a.Patch != nil {
		t.Fatalf("approving everything gave %+v (answered %v), want Approve with a nil Patch", a, ok)
	}
	if hs.m.review != nil {
		t.Fatal("the review screen stayed open after the verdict")
	}
	contains(t, hs.screen(), "approved: landing all 5 file(s)")
}

func TestReviewListsFlaggedFilesFirst(t *testing.T) {
	hs, _ := openReview(t, "nocolor", 120, 40)
	s := hs.screen()
	order := []string{".envrc", ".githooks/pre-commit", "legacy.txt", "logo.png", "server.go"}
	last := -1
	for _, name := range order {
		j := strings.Index(s, name+"  ")
		if j < 0 || j < last {
			t.Fatalf("file list not in order %v:\n%s", order, s)
		}
		last = j
	}
	for _, want := range []string{
		"⚑ direnv runs it on cd", "⚑ git hook", "deleted", "binary", "+6 −0",
		"✓ go test ./...", "✗ go vet ./...", "exit 1 · 1.5s", "⚑ 2 flagged",
	} {
		contains(t, s, want)
	}
}

func TestReviewTogglesFilesAndHunks(t *testing.T) {
	hs, _ := openReview(t, "nocolor", 120, 40)
	hs.pressReview("x") // reject .envrc
	row := lineWith(t, hs.screen(), ".envrc  ")
	if !strings.Contains(row, "[ ]") {
		t.Fatalf(".envrc should be rejected: %q", row)
	}
	hs.pressReview("x")
	if row := lineWith(t, hs.screen(), ".envrc  "); !strings.Contains(row, "[✓]") {
		t.Fatalf(".envrc should be accepted again: %q", row)
	}
	hs.pressReview("G", "tab", "space") // server.go, into the diff, reject hunk 1
	s := hs.screen()
	contains(t, s, "server.go · hunk 1/2")
	contains(t, s, "rejected: will not land")
	if row := lineWith(t, s, "server.go  "); !strings.Contains(row, "[~]") {
		t.Fatalf("server.go should be partly accepted: %q", row)
	}
	hs.pressReview("]", "space") // and hunk 2: nothing of the file is left
	if row := lineWith(t, hs.screen(), "server.go  "); !strings.Contains(row, "[ ]") {
		t.Fatalf("server.go should be rejected: %q", row)
	}
	contains(t, hs.screen(), "accepting 4/5 file(s), 3/5 hunk(s)")
}

func TestReviewPartialApproveLandsExactlyTheAcceptedHunks(t *testing.T) {
	hs, ans := openReview(t, "nocolor", 120, 40)
	hs.pressReview("x")               // reject the flagged .envrc
	hs.pressReview("G", "]", "space") // server.go: reject its second hunk
	hs.pressReview("a")
	contains(t, hs.screen(), "Land 4 of 5 file(s), 3 of 5 hunk(s)?")
	hs.pressReview("y")
	a, ok := verdict(ans)
	if !ok || !a.Approve || a.Patch == nil {
		t.Fatalf("partial approval gave %+v (answered %v), want Approve with a Patch", a, ok)
	}
	dir := fixtureRepo(t)
	git(t, dir, string(a.Patch), "apply", "--check", "--binary", "-")
	git(t, dir, string(a.Patch), "apply", "--binary", "-")
	read := func(name string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		return string(b), err == nil
	}
	if _, ok := read(".envrc"); ok {
		t.Error(".envrc landed though it was rejected")
	}
	if _, ok := read("legacy.txt"); ok {
		t.Error("legacy.txt was not deleted")
	}
	if st, err := os.Stat(filepath.Join(dir, ".githooks/pre-commit")); err != nil || st.Mode().Perm() != 0o755 {
		t.Errorf("the hook did not land executable: %v %v", st, err)
	}
	if got, _ := read("logo.png"); got != fixtureChanges["logo.png"].body {
		t.Errorf("logo.png = %q, want the new bytes", got)
	}
	srv, _ := read("server.go")
	if !strings.Contains(srv, "func Health(") || strings.Contains(srv, "Content-Type") {
		t.Errorf("server.go should have hunk 1 (Health) and not hunk 2 (Content-Type):\n%s", srv)
	}
	want := strings.Replace(serverGo(true), "\tw.Header().Set(\"Content-Type\", \"text/plain\")\n", "", 1)
	if srv != want {
		t.Errorf("server.go differs from base + hunk 1:\n%s", srv)
	}
}

func TestReviewRejectWithReason(t *testing.T) {
	hs, ans := openReview(t, "nocolor", 80, 24)
	hs.pressReview("d")
	contains(t, hs.screen(), "why reject")
	hs.pressReview("esc") // back, nothing sent
	if _, ok := verdict(ans); ok {
		t.Fatal("esc answered the review")
	}
	hs.pressReview("d")
	hs.typeText("touches .envrc; q and a typed here are text")
	hs.pressReview("enter")
	a, ok := verdict(ans)
	if !ok || a.Approve || a.Reason != "touches .envrc; q and a typed here are text" {
		t.Fatalf("reject gave %+v (answered %v)", a, ok)
	}
	contains(t, hs.screen(), "rejected: touches .envrc")
}

func TestReviewCannotApproveNothing(t *testing.T) {
	hs, ans := openReview(t, "nocolor", 120, 40)
	for range 5 {
		hs.pressReview("x", "down")
	}
	contains(t, hs.screen(), "nothing accepted — [d] reject")
	hs.pressReview("a", "y")
	if a, ok := verdict(ans); ok {
		t.Fatalf("approved with nothing accepted: %+v", a)
	}
}

func TestReviewStoppingTheRunRejects(t *testing.T) {
	hs, ans := openReview(t, "nocolor", 80, 24)
	hs.pressReview("q")
	contains(t, hs.screen(), "Stop the run and quit?")
	hs.pressReview("y")
	a, ok := verdict(ans)
	if !ok || a.Approve || a.Reason != "the person stopped the run" {
		t.Fatalf("stopping gave %+v (answered %v), want a rejection", a, ok)
	}
}

func TestReviewSideBySideAndChecks(t *testing.T) {
	hs, _ := openReview(t, "nocolor", 120, 40)
	hs.pressReview("G", "v")
	s := hs.screen()
	contains(t, s, "server.go · hunk 1/2 · side by side")
	row := lineWith(t, s, `[]byte("route 1"))`)
	if strings.Count(row, `[]byte("route 1"))`) != 2 || !strings.Contains(row, "│") {
		t.Fatalf("a context line should show on both sides: %q", row)
	}
	hs.pressReview("c")
	contains(t, hs.screen(), "server.go:9:2: unreachable code")
	contains(t, hs.screen(), "$ go vet ./...  exit 1")
}

func TestReviewShowsHiddenCharacters(t *testing.T) {
	d := "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+if admin \u202e// }\u2066 { x\x1b]0;pwn\x07\n"
	files, err := patch.Parse([]byte(d))
	if err != nil {
		t.Fatal(err)
	}
	hs := newThemedHarness(t, "dark", 80, 24)
	hs.send(reviewMsg{&runner.ReviewRequest{RunID: "r", Files: files, Answer: make(chan runner.ReviewAnswer, 1)}})
	out := hs.render()
	s := ansi.Strip(out)
	contains(t, s, "<U+202E>")
	contains(t, s, "<U+2066>")
	contains(t, s, "<U+001B>]0;pwn<U+0007>")
	if strings.Contains(out, "\x1b]0;pwn") || strings.Contains(out, "\u202e") {
		t.Fatal("the diff's own control characters reached the terminal")
	}
}

func TestRunReviewStandaloneQuitAndApprove(t *testing.T) {
	req, ans := fixtureRequest(t)
	clk := &clock{now: t0}
	r, a := newStandaloneReview(req, Options{Theme: "dark", NoColor: true, Now: clk.Now})
	r.Update(teaSize(80, 24))
	r.Update(keyMsg("a"))
	if a.screen.step != stepBrowse {
		t.Fatal("the standalone review took a key inside its guard")
	}
	clk.Add(DefaultGuard)
	_, cmd := r.Update(keyMsg("q"))
	if cmd == nil || a.answered {
		t.Fatal("q should quit without a verdict")
	}
	if _, ok := verdict(ans); ok {
		t.Fatal("q sent a verdict")
	}
	r.Update(keyMsg("a"))
	r.Update(keyMsg("y"))
	if v, ok := verdict(ans); !ok || !v.Approve || !a.answered {
		t.Fatalf("approve in the standalone review gave %+v (answered %v)", v, ok)
	}
}

// lineWith is the screen row holding s.
func lineWith(t *testing.T, screen, s string) string {
	t.Helper()
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	t.Fatalf("no row shows %q:\n%s", s, screen)
	return ""
}

// TestRunReviewProgram drives the real program: keys typed on its input
// approve the change and it returns with the verdict sent.
func TestRunReviewProgram(t *testing.T) {
	req, ans := fixtureRequest(t)
	var out strings.Builder
	err := RunReview(t.Context(), req, Options{
		Theme: "dark", NoColor: true, Guard: time.Nanosecond, ThemeDir: t.TempDir(),
		Input: strings.NewReader("xay"), Output: &out, Size: [2]int{100, 30},
	})
	if err != nil {
		t.Fatalf("RunReview: %v", err)
	}
	a, ok := verdict(ans)
	if !ok || !a.Approve || a.Patch == nil || strings.Contains(string(a.Patch), ".envrc") {
		t.Fatalf("typed x a y (reject .envrc, approve) but got %+v (answered %v)", a, ok)
	}
}

func TestRunReviewProgramQuitLeavesNoVerdict(t *testing.T) {
	req, ans := fixtureRequest(t)
	var out strings.Builder
	err := RunReview(t.Context(), req, Options{
		Theme: "dark", NoColor: true, Guard: time.Nanosecond, ThemeDir: t.TempDir(),
		Input: strings.NewReader("xq"), Output: &out, Size: [2]int{100, 30},
	})
	if err != ErrNoVerdict {
		t.Fatalf("quitting returned %v, want ErrNoVerdict", err)
	}
	if a, ok := verdict(ans); ok {
		t.Fatalf("quitting sent %+v", a)
	}
}

// TestReviewWrapsLongLines: the end of a long line is on screen, however
// far out it hides, in both layouts.
func TestReviewWrapsLongLines(t *testing.T) {
	long := "safe()" + strings.Repeat(" ", 150) + "\t\tEVIL()"
	d := "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+" + long + "\n"
	files, err := patch.Parse([]byte(d))
	if err != nil {
		t.Fatal(err)
	}
	for _, split := range []bool{false, true} {
		hs := newThemedHarness(t, "dark", 80, 24)
		hs.send(reviewMsg{&runner.ReviewRequest{RunID: "r", Files: files, Answer: make(chan runner.ReviewAnswer, 1)}})
		hs.clk.Add(DefaultGuard)
		if split {
			hs.pressReview("v")
		}
		s := hs.screen()
		contains(t, s, "EVIL()")
		contains(t, s, "↪")
	}
}
