package tui

// This file is the contract between the TUI and a live run; runner.Run
// satisfies Session. The TUI reads events and answers prompts through it and
// never reaches into runner internals.

import (
	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// SessionInfo is what the status bar shows about a run. It is the runner's
// Info (the runner cannot import tui; tui may import runner).
type SessionInfo = runner.Info

// Session is a live (or finished) run as the TUI sees it.
type Session interface {
	Info() SessionInfo
	// Events replays the run's journal so far and then follows it; nothing is
	// dropped. cancel stops the subscription.
	Events() (events <-chan journal.Event, cancel func())
	// Prompts delivers requests waiting for the person, in order.
	Prompts() <-chan *approvals.Prompt
	// Reviews delivers the review of the coder's change before it lands (nil
	// or never sending when nobody reviews); the review screen answers each
	// once on its Answer channel.
	Reviews() <-chan *runner.ReviewRequest
	// PastRequests returns earlier requests (this run and past runs in the
	// project) for the remember chooser's preview. It does I/O: call it from a
	// tea.Cmd, never from Update.
	PastRequests() []approvals.Request
	// Steer sends text from the person to the coder (or, later, to the supervisor).
	Steer(text string) error
	// ResizeCoder sets the coder pty's size to the coder pane's inner size.
	ResizeCoder(cols, rows int)
	// SendKeys forwards raw key bytes to the coder (attach mode only).
	SendKeys(b []byte) error
	// Stop ends the run: the coder's process group is ended, work is kept.
	Stop()
	// Finish says the coder is done (a coder that waits for input after its
	// turn, like interactive Claude Code): it is ended and its work goes on
	// to verification, review and landing as if it had exited by itself.
	Finish()
	// Done is closed when the run has finished (landed, failed or stopped).
	Done() <-chan struct{}
}
