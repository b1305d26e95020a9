package tui

import (
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/themes"
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

// model is the root of the app: it owns focus, layout, routing and every
// pane; panes are plain structs it draws.
type model struct {
	s     Session
	info  SessionInfo
	opts  Options
	keys  keyMap
	help  help.Model
	sendK func([]byte) // bytes for the coder: emulator replies and attached keys

	styles     themes.Styles
	userThemes map[string]themes.Palette
	darkBG     bool

	width, height int
	panes         [numPanes]*pane
	term          *coderTerm // encodes keys always; draws a full-screen coder
	coderPartial  string     // a line coder's unfinished line, raw
	coderSize     [2]int     // last size passed to ResizeCoder
	focus         paneID     // one of the four lane panes
	view          viewMode
	mode          mode
	edit          editor

	reviews []*runner.ReviewRequest // the head is on screen
	review  *reviewScreen           // nil when no review is open

	queue      []*approvals.Prompt
	cardOpened time.Time
	cardHidden bool // skipped: collapsed to a one-line notice
	skipped    map[*approvals.Prompt]bool
	chooser    *chooser
	past       []approvals.Request
	pastLoaded bool
	engine     *policy.Engine // for the remember preview; built on first use

	counts      counts
	runStatus   string // set when the run has ended
	coderExited bool
	runDone     bool
	stopping    bool
	flash       string    // last notice or error, on the footer
	ended       time.Time // when the run was seen to finish
}

// newModel builds the model; sendKeys receives every byte meant for the coder
// (Run queues them to Session.SendKeys off the UI goroutine).
func newModel(s Session, opts Options, sendKeys func([]byte)) *model {
	opts = opts.withDefaults()
	m := &model{
		s: s, info: s.Info(), opts: opts, keys: defaultKeys(), help: help.New(),
		sendK: sendKeys, darkBG: true, skipped: map[*approvals.Prompt]bool{},
		width: 80, height: 24,
	}
	for id := paneID(0); id < numPanes; id++ {
		m.panes[id] = newPane(id, opts.History)
	}
	m.term = newCoderTerm(80, 20, sendKeys)
	m.applyTheme()
	return m
}

// applyTheme rebuilds the styles from the configured theme, the terminal
// background and the user themes. A bad theme name falls back to auto and
// says so on the footer.
func (m *model) applyTheme() {
	p, err := themes.Resolve(m.opts.Theme, m.darkBG, m.userThemes)
	if err != nil {
		m.flash = err.Error()
		p, _ = themes.Resolve("auto", m.darkBG, nil)
	}
	m.styles = themes.New(p, m.opts.NoColor)
	st := m.styles
	m.help.Styles = help.Styles{
		ShortKey: st.CardKey, ShortDesc: st.Muted, ShortSeparator: st.Separator, Ellipsis: st.Separator,
		FullKey: st.CardKey, FullDesc: st.Text, FullSeparator: st.Separator,
	}
}

func (m *model) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, tick())
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	return m, tea.Batch(cmd, m.syncCoderSize())
}

func (m *model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.darkBG = msg.IsDark()
		m.applyTheme()
	case themesMsg:
		if msg.palettes != nil {
			m.userThemes = msg.palettes
		}
		m.applyTheme()
		if len(msg.errs) > 0 {
			m.flash = msg.errs[0].Error()
		}
	case eventsMsg:
		m.ingest(msg)
	case promptMsg:
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
		if m.stopping || m.opts.ExitWhenDone {
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
	case errMsg:
		m.flash = msg.err.Error()
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.PasteMsg:
		return m.paste(msg.Content)
	case tea.MouseWheelMsg:
		if m.review != nil {
			m.review.wheel(msg.Mouse(), m.review.layout(m.reviewRows()).viewer)
			return nil
		}
		m.wheel(msg.Mouse())
	case tea.MouseClickMsg:
		if id, ok := m.layout().paneAt(msg.X, msg.Y); ok && id != paneTimeline {
			m.focus = id
		}
	}
	return nil
}

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
