package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/internal/journal"
)

func TestTimelineToggle(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.send(eventsMsg(demoEvents()))
	contains(t, h.screen(), "▸ CODER")
	h.press("t")
	s := h.screen()
	contains(t, s, "TIMELINE")
	notContains(t, s, "▸ CODER")
	for _, want := range []string{
		"[SYSTEM] run started: add a health endpoint",
		"[CODER] Planning the change…",
		"[TOOL] $ go test ./...",
		"[APPROVAL] allowed by policy:go.test",
		"[DENIED] denied: downloads piped into a shell",
		"[SUPERVISOR] looks on track",
	} {
		contains(t, s, want)
	}
	// interleaved in journal order
	if strings.Index(s, "[TOOL] $ go test") > strings.Index(s, "[APPROVAL] allowed by policy") {
		t.Fatal("timeline is not in event order")
	}
	h.press("t")
	contains(t, h.screen(), "▸ CODER")
}

func TestZoomFocusedLane(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.send(eventsMsg(demoEvents()))
	h.press("tab", "z")
	s := h.screen()
	contains(t, s, "▸ TOOL")
	notContains(t, s, "CODER")
	notContains(t, s, "SUPERVISOR · SYSTEM")
	h.press("tab") // cycling while zoomed zooms the next lane
	contains(t, h.screen(), "▸ APPROVAL")
	h.press("z")
	contains(t, h.screen(), " CODER ")
}

func TestHelpOverlayListsEveryBinding(t *testing.T) {
	for _, w := range []int{80, 120} {
		h := newHarness(t, testInfo(), "dark", w, 24+16*(w/120))
		checkHelp(t, h)
	}
}

func checkHelp(t *testing.T, h *harness) {
	h.press("?")
	s := h.screen()
	contains(t, s, "HELP")
	for i := 0; i < 40; i++ { // a short screen scrolls the rest into view
		h.press("down")
		s += h.screen()
	}
	for _, group := range h.m.keys.FullHelp() {
		for _, b := range group {
			if b.Help().Desc == "" {
				t.Fatalf("binding %v has no help text", b.Keys())
			}
			contains(t, s, b.Help().Desc)
		}
	}
	h.press("esc")
	notContains(t, h.screen(), "HELP")
}

func TestSearchWithinLane(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	var evs []journal.Event
	for i := 1; i <= 200; i++ {
		evs = append(evs, ev(int64(i), journal.Coder, "output", fmt.Sprintf("line %03d\n", i), nil))
	}
	evs = append(evs, ev(201, journal.Coder, "output", "needle here\n", nil))
	h.send(eventsMsg(evs[:50]))
	h.send(eventsMsg{ev(300, journal.Coder, "output", "a rare needle\n", nil)})
	h.send(eventsMsg(evs[50:]))
	notContains(t, h.screen(), "a rare needle")
	h.press("/")
	h.typeText("NEEDLE")
	contains(t, h.screen(), "search CODER: NEEDLE")
	h.press("enter")
	contains(t, h.screen(), "needle here")
	h.press("n") // older match
	s := h.screen()
	contains(t, s, "a rare needle")
	contains(t, s, "↑") // scrolled away from the tail
	h.press("n")
	contains(t, h.screen(), "no older match")
	h.press("G")
	notContains(t, h.screen(), "↑")
}

func TestFollowTailStopsWhenScrolledAndResumesAtEnd(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	out := func(from, to int) {
		var evs []journal.Event
		for i := from; i <= to; i++ {
			evs = append(evs, ev(int64(i), journal.Coder, "output", fmt.Sprintf("line %03d\n", i), nil))
		}
		h.send(eventsMsg(evs))
	}
	out(1, 100)
	contains(t, h.screen(), "line 100")
	h.press("k", "k", "k")
	out(101, 110)
	s := h.screen()
	notContains(t, s, "line 110")
	contains(t, s, "line 097") // still showing the same lines
	h.press("G")
	contains(t, h.screen(), "line 110")
	// the mouse wheel scrolls the pane under the pointer
	h.send(tea.MouseWheelMsg{X: 5, Y: 5, Button: tea.MouseWheelUp})
	notContains(t, h.screen(), "line 110")
	h.send(tea.MouseWheelMsg{X: 5, Y: 5, Button: tea.MouseWheelDown})
	contains(t, h.screen(), "line 110")
}

func TestQuitConfirmStopsRun(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	p := shellPrompt("make", "make")
	h.openCard(p)
	h.press("q")
	contains(t, h.screen(), "Stop the run and quit?")
	h.press("n")
	notContains(t, h.screen(), "Stop the run and quit?")
	select {
	case <-h.s.Done():
		t.Fatal("n stopped the run")
	default:
	}
	h.press("q", "y")
	if a, ok := answered(p); !ok || a.Kind != 2 {
		t.Fatalf("a pending request must be denied when the run stops; got %+v %v", a, ok)
	}
	// run the stop command as Bubble Tea would: Stop, then wait for Done
	cmd := h.m.stop()
	if _, ok := cmd().(stoppedMsg); !ok {
		t.Fatal("stop command did not report the run stopped")
	}
	select {
	case <-h.s.Done():
	default:
		t.Fatal("Stop was not called")
	}
	if cmd := h.send(stoppedMsg{}); cmd == nil {
		t.Fatal("stopped run did not quit the program")
	}
}

func TestSteerSendsMessage(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	h.press("m")
	h.typeText("use the existing router")
	cmd := h.send(keyMsg("enter"))
	if cmd == nil {
		t.Fatal("no steer command")
	}
	runAll(cmd)
	if got := h.s.Steers(); len(got) != 1 || got[0] != "use the existing router" {
		t.Fatalf("steers = %q", got)
	}
	if k := h.coderKeys(); k != "" {
		t.Fatalf("steering must go through Session.Steer, not keys; coder got %q", k)
	}
}

func TestStatusBar(t *testing.T) {
	info := testInfo()
	info.SandboxOff = true
	h := newHarness(t, info, "dark", 120, 40)
	h.send(eventsMsg(demoEvents()))
	h.send(promptMsg{shellPrompt("make", "make")})
	bar := strings.SplitN(h.screen(), "\n", 2)[0]
	for _, want := range []string{"r-20261129-ab12", "demo", "SANDBOX OFF", "net proxy (2 hosts)", "✓1 ?1 ✗1", "1 pending", "00:01:30"} {
		contains(t, bar, want)
	}
	if raw := h.m.statusBar(120); !strings.Contains(raw, "\x1b[1;38;2;255;95;95") {
		t.Fatalf("sandbox off is not drawn bold red: %q", raw)
	}
	h.send(eventsMsg{ev(20, journal.System, "run-end", "", map[string]string{"status": "landed"})})
	contains(t, strings.SplitN(h.screen(), "\n", 2)[0], "run landed")
}

func TestLineCoderOutputIsCleaned(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	h.send(eventsMsg{
		ev(1, journal.Coder, "output", "\x1b[31mred\x1b[0m text\r\npart", nil),
		ev(2, journal.Coder, "output", "ial line\x1b[2", nil),
		ev(3, journal.Coder, "output", "K\ndl 10%\rdl 50%\rdl 100%\n\x1b]0;title\x07bell\n", nil),
	})
	s := h.screen()
	for _, want := range []string{"red text", "partial line", "dl 100%", "bell"} {
		contains(t, s, want)
	}
	for _, bad := range []string{"dl 10%", "[31m", "title", "[2K"} {
		notContains(t, s, bad)
	}
}

func TestHistoryIsBounded(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24) // History: 1000
	var evs []journal.Event
	for i := 1; i <= 1500; i++ {
		evs = append(evs, ev(int64(i), journal.Tool, "run", fmt.Sprintf("cmd %d", i), nil))
	}
	h.send(eventsMsg(evs))
	p := h.m.panes[paneTool]
	if p.lines.len() != 1000 || p.lines.at(0).text != "$ cmd 501" {
		t.Fatalf("tool lane keeps %d lines starting %q; want 1000 starting \"$ cmd 501\"", p.lines.len(), p.lines.at(0).text)
	}
	h.press("tab", "g")
	contains(t, h.screen(), "$ cmd 501")
	notContains(t, h.screen(), "$ cmd 500")
}

// runAll runs a command as Bubble Tea would, and the commands of a batch.
// Only use it where no timer is among them.
func runAll(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range b {
			runAll(c)
		}
	}
}

func TestStatusBarFitsNarrowTerminal(t *testing.T) {
	info := testInfo()
	info.RunID = "20261129-225515-40a6a9"
	h := newHarness(t, info, "dark", 80, 24)
	h.send(promptMsg{shellPrompt("make", "make")})
	bar := strings.SplitN(h.screen(), "\n", 2)[0]
	for _, want := range []string{"40a6a9", "demo", "sandbox", "✓0 ?0 ✗0", "1 pending", "00:01:30"} {
		contains(t, bar, want)
	}
}

func TestLongLinesWrapUnderTheirStart(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	h.send(eventsMsg{ev(1, journal.System, "info", "the sandbox allows writes only to the workspace, a private /tmp and the agent's own state directories", nil)})
	s := h.screen()
	contains(t, s, "[SYSTEM] the sandbox allows writes only to the workspace, a private /tmp and the")
	contains(t, s, "\n         agent's own state directories")
}

func TestFinishSaysTheCoderIsDone(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	h.press("D")
	contains(t, h.screen(), "The coder is done")
	h.press("n")
	notContains(t, h.screen(), "The coder is done")
	select {
	case <-h.s.Done():
		t.Fatal("n finished the run")
	default:
	}
	h.press("D")
	cmd := h.send(keyMsg("y"))
	if cmd == nil {
		t.Fatal("y did not ask the run to finish")
	}
	runCmd(cmd)
	select {
	case <-h.s.Done():
	default:
		t.Fatal("Finish was not called")
	}
	if h.s.Keys() != nil {
		t.Fatalf("finishing sent keys to the coder: %q", h.s.Keys())
	}
}

// runCmd runs a command and every command of a batch it returns.
func runCmd(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if batch, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range batch {
			runCmd(c)
		}
	}
}

func TestStatusBarTotalsTheSupervisorsTokensAndTime(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 200, 60)
	notContains(t, h.screen(), "sup ")
	h.send(eventsMsg([]journal.Event{
		ev(1, journal.Supervisor, "judge", "judge: allow — fine", map[string]any{"tokens_in": 100, "tokens_out": 20, "duration_ms": 1500}),
		ev(2, journal.Supervisor, "review", "review: accept", map[string]any{"tokens_in": 50, "tokens_out": 5, "duration_ms": 500}),
		ev(3, journal.Supervisor, "steer-finding", "masked exit status", nil),
	}))
	contains(t, h.screen(), "sup 150↑25↓ 2s")
}
