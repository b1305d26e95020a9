package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/runner"
)

// mode is what the keyboard is doing right now.
type mode int

const (
	modeNormal   mode = iota
	modeAttach        // keys go to the coder until ctrl+]
	modeSearch        // typing a search
	modeSteer         // typing a message for the coder
	modeDenyMsg       // typing the reason for a deny
	modeRemember      // choosing how broad a remembered grant is
	modeHelp          // the help overlay
	modeQuit          // confirming quit
	modeFinish        // confirming that the coder is done
	modeDenyAll       // confirming X: deny every pending request of a kind
)

// viewMode is which lanes fill the screen.
type viewMode int

const (
	viewLanes    viewMode = iota // all lane panes
	viewTimeline                 // one interleaved timeline
	viewZoom                     // the focused pane alone
)

// counts are the approval tallies in the status bar.
type counts struct {
	allowed, asked, denied int
	// the supervisor model's turns, tokens and time, from its lane's events
	supTurns, supIn, supOut int
	supTime                 time.Duration
}

// model is the lanes page, for a live run or a replayed one: it owns focus,
// layout, routing, every pane, the approval card's queue and the review
// screen inside a run; panes are plain structs it draws. The theme, help,
// footer notice and size are the root's (chrome); the person's decisions
// go to the root through the outbox.
type model struct {
	*chrome
	outbox
	s     Session
	info  SessionInfo
	sendK func([]byte) // bytes for the coder: emulator replies and attached keys

	panes        [numPanes]*pane
	term         *coderTerm // encodes keys always; draws a full-screen coder
	coderPartial string     // a line coder's unfinished line, raw
	coderSize    [2]int     // last size passed to ResizeCoder
	focus        paneID     // one of the four lane panes
	view         viewMode
	mode         mode
	edit         editor
	helpScroll   int // first row of the help overlay shown

	reviews []*runner.ReviewRequest // the head is on screen
	review  *reviewScreen           // nil when no review is open

	queue      []*approvals.Prompt
	cardOpened time.Time
	// originOf names the run and project a card came from (the console,
	// where cards of many runs share one queue); nil on a run's own screen
	originOf func(*approvals.Prompt) string
	// workspaceOf is the workspace a card's paths are relative to there
	// (its run's); nil on a run's own screen (info.Workspace)
	workspaceOf func(*approvals.Prompt) string
	// cardClipped: the last drawing had to leave out one of the card's
	// facts (prioFact: the screen is too small); approve waits
	cardClipped bool
	chooser     *chooser
	// cardContent is the change the card on screen asks to write
	cardContent *cardContent
	past        []approvals.Request
	pastLoaded  bool

	counts      counts
	runStatus   string // set when the run has ended
	coderExited bool
	coderIdle   bool      // the coder said its turn ended (idle.go)
	bell        bool      // the bell is due for the turn that just ended
	lastRing    time.Time // when a card last rang (signal.go)
	runDone     bool
	stopping    bool
	ended       time.Time       // when the run was seen to finish
	busy        *busy           // a long wait in progress (busy.go)
	landing     *runner.Landing // what landed, once it has (ending.go)

	quitWhenDone bool // q came after the run's end, before the run returned
}

// newLive builds the root over the lanes page for session s; sendKeys
// receives every byte meant for the coder (Run queues them to
// Session.SendKeys off the UI goroutine).
func newLive(s Session, opts Options, sendKeys func([]byte)) (*root, *model) {
	m := newModel(s, newChrome(opts), sendKeys)
	if m.info.InPlace { // exec: no review follows the coder's end
		m.keys.Finish.SetHelp("D", "coder is done → end it")
	}
	return newRoot(m.chrome, m), m
}

func newModel(s Session, c *chrome, sendKeys func([]byte)) *model {
	m := &model{
		chrome: c, s: s, info: s.Info(),
		sendK: sendKeys,
	}
	for id := paneID(0); id < numPanes; id++ {
		m.panes[id] = newPane(id, c.opts.History)
		m.panes[id].backed = m.info.Journal != ""
	}
	m.term = newCoderTerm(80, 20, sendKeys, m.info.Journal)
	return m
}

func (m *model) init() tea.Cmd { return tick() }

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case eventsMsg:
		m.ingest(msg)
		return tea.Batch(m.ringBell(), m.fetchScrolled())
	case olderMsg:
		return m.older(msg)
	case promptMsg:
		m.coderIdle = false // a coder asking is not idle
		return m.enqueue(msg.p)
	case reviewMsg:
		return m.enqueueReview(msg.req)
	case pastMsg:
		m.past, m.pastLoaded = msg, true
		if m.chooser != nil {
			m.chooser.coveredSel = -1
			m.updatePreview()
		}
	case runDoneMsg:
		m.runDone = true
		m.ended = m.opts.Now()
		if m.runStatus == "" {
			m.runStatus = "ended"
		}
		if m.stopping || m.quitWhenDone || m.opts.ExitWhenDone {
			return tea.Quit
		}
	case screenMsg:
		// the coder's screen changed: the redraw after this shows it
	case stoppedMsg:
		return tea.Quit
	case tickMsg:
		return tick()
	case armMsg:
		// nothing to change: the redraw shows the card's keys as live
	case tea.PasteMsg:
		return m.paste(msg.Content)
	case tea.MouseWheelMsg:
		if m.review != nil {
			m.review.wheel(msg.Mouse(), m.review.layout(m.reviewRows()).viewer)
			return nil
		}
		return m.wheel(msg.Mouse())
	case tea.MouseClickMsg:
		if id, ok := m.layout().paneAt(msg.X, msg.Y); ok && id != paneTimeline {
			m.focus = id
		}
	}
	return nil
}

func (m *model) attached() bool { return m.mode == modeAttach }

// guardSince is when the card or the review screen on show opened, the
// later of the two.
func (m *model) guardSince() (time.Time, bool) {
	var t time.Time
	ok := false
	if m.cardVisible() {
		t, ok = m.cardOpened, true
	}
	if m.review != nil && (!ok || m.review.opened.After(t)) {
		t, ok = m.review.opened, true
	}
	return t, ok
}

func (m *model) settle() tea.Cmd { return m.syncCoderSize() }

// syncCoderSize keeps the emulator and the coder's pty the size of the coder
// pane as the layout changes.
func (m *model) syncCoderSize() tea.Cmd {
	r, ok := m.layout().rect(paneCoder)
	if !ok {
		return nil
	}
	cols, rows := max(r.w, 1), max(r.h-1, 1)
	m.term.resize(cols, rows)
	if m.coderSize == [2]int{cols, rows} {
		return nil
	}
	m.coderSize = [2]int{cols, rows}
	s := m.s
	return func() tea.Msg { s.ResizeCoder(cols, rows); return nil }
}

// close releases the emulator's reader.
func (m *model) close() { m.term.close() }
