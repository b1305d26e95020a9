package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
)

// page is what fills the screen under the root: the lanes of a live or
// replayed run (model) or the standalone review (reviewPage). A page reads
// keys and draws; it never answers a prompt or a review itself — it leaves
// typed decisions in its outbox for the root to apply.
type page interface {
	init() tea.Cmd
	// update handles a message the root does not.
	update(msg tea.Msg) tea.Cmd
	// key handles a key press that passed the root's guard.
	key(k tea.KeyPressMsg) tea.Cmd
	// attached says every key goes straight to the coder (attach mode): no
	// guard, and the footer's notice stays.
	attached() bool
	// guardSince is when the newest card or review on screen opened; keys
	// are ignored for opts.Guard after it. ok is false when none is open.
	guardSince() (t time.Time, ok bool)
	// take returns the decisions made since the last call.
	take() []tea.Msg
	// settle runs after every update (the lanes keep the coder's pty the
	// size of its pane).
	settle() tea.Cmd
	render() string
	// title is the terminal window's title; cursor, if any, is where the
	// terminal cursor shows.
	title() string
	cursor() *tea.Cursor
}

// root is the one Bubble Tea model: it owns the chrome (theme, help, the
// footer's notice, the screen size, the options and keys), the key guard
// and the broker, and shows one page.
type root struct {
	*chrome
	page   page
	broker broker
}

func newRoot(c *chrome, p page) *root {
	return &root{chrome: c, page: p, broker: channelBroker{}}
}

func (r *root) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, r.page.init())
}

func (r *root) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := r.update(msg)
	return r, tea.Batch(cmd, r.page.settle())
}

func (r *root) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		r.width, r.height = msg.Width, msg.Height
		return nil
	case tea.BackgroundColorMsg:
		r.darkBG = msg.IsDark()
		r.applyTheme()
		return nil
	case themesMsg:
		if msg.palettes != nil {
			r.userThemes = msg.palettes
		}
		r.applyTheme()
		if len(msg.errs) > 0 {
			r.flash = msg.errs[0].Error()
		}
		return nil
	case errMsg:
		r.flash = msg.err.Error()
		return nil
	case tea.KeyPressMsg:
		return r.key(msg)
	}
	cmd := r.page.update(msg)
	return tea.Batch(apply(r.broker, r.page.take()), cmd)
}

// key passes a key to the page unless a card or review opened too recently
// (a keystroke already in flight must not answer it), then applies what
// the page decided — before the page's command, so a program that quits
// after a verdict has sent it first.
func (r *root) key(k tea.KeyPressMsg) tea.Cmd {
	if r.page.attached() {
		return r.page.key(k)
	}
	r.flash = ""
	if t, ok := r.page.guardSince(); ok && r.opts.Now().Sub(t) < r.opts.Guard && !passesGuard(k) {
		return nil
	}
	cmd := r.page.key(k)
	if applied := apply(r.broker, r.page.take()); applied != nil {
		return tea.Sequence(applied, cmd)
	}
	return cmd
}

// passesGuard reports whether k goes through a key guard: the guard keeps
// a keystroke in flight from answering what just opened, and Ctrl-C is
// never an answer — it stops or leaves, and a person pressing it (or
// pressing it twice to force an exit) is never ignored.
func passesGuard(k tea.KeyPressMsg) bool { return k.String() == "ctrl+c" }

func (r *root) View() tea.View {
	v := tea.NewView(r.page.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = r.page.title()
	v.Cursor = r.page.cursor()
	return v
}

func (r *root) render() string { return r.page.render() }

// program runs the root as a Bubble Tea program on the terminal (or the
// options' input and output).
func (r *root) program(ctx context.Context) *tea.Program {
	opts := r.opts
	popts := []tea.ProgramOption{tea.WithContext(ctx)}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	if opts.Size[0] > 0 && opts.Size[1] > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Size[0], opts.Size[1]))
	}
	return tea.NewProgram(r, popts...)
}

// armTick redraws when a card's or review's key guard has passed.
func armTick(guard time.Duration) tea.Cmd {
	return tea.Tick(guard, func(time.Time) tea.Msg { return armMsg{} })
}
