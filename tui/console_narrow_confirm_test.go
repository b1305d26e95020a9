package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// TestConsoleXQuestionKeepsItsKeysAt60Columns: at 60×15 X's question,
// which names the run and its project, is wider than the screen; it wraps,
// and both of its answers are on screen (the [y] yes was cut off at the
// right edge, so a person saw only "[n] no").
func TestConsoleXQuestionKeepsItsKeysAt60Columns(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newConsole(ctx, newChrome(Options{}), func(queue.Answer) error { return nil })
	p.c.width, p.c.height = 60, 15
	e := consoleEntry("aa", "git push origin main", time.Now())
	e.Run, e.Project = "20261206-073404-897f08", "/tmp/v37/pa"
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: e}))
	p.key(keyMsg("X"))
	s := ansi.Strip(p.render())
	for _, want := range []string{"[y] yes", "[n] no"} {
		if !strings.Contains(s, want) {
			t.Errorf("X's question at 60 columns does not show %q:\n%s", want, s)
		}
	}
	if !strings.Contains(s, "897f08 in v37/pa?") {
		t.Errorf("X's question lost the run it names:\n%s", s)
	}
}
