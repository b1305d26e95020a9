package tui

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/themes"
)

// ErrInterrupted is RunReview's answer when the person pressed Ctrl-C: a
// stop, which the command reports as one (exit 130), nothing decided.
var ErrInterrupted = errors.New("review interrupted: nothing landed and nothing was rejected")

// ErrNoVerdict is RunReview's answer when the person quit without approving
// or rejecting: nothing was sent on the request's Answer channel.
var ErrNoVerdict = errors.New("review closed without a verdict: nothing landed and nothing was rejected; run `sentinel review` again to decide")

// RunReview shows only the review screen for req (as `sentinel review RUN`
// does) until the person approves or rejects the change — the verdict is
// sent once on req.Answer, which must have room for it or a reader — or
// quits, which returns ErrNoVerdict. It owns the terminal while it runs.
func RunReview(ctx context.Context, req *runner.ReviewRequest, opts Options) error {
	if req == nil {
		return errors.New("review: no review request given")
	}
	r, p := newStandaloneReview(req, opts)
	if dir := r.opts.ThemeDir; dir != "" {
		pal, errs := themes.LoadDir(dir)
		r.update(themesMsg{palettes: pal, errs: errs})
	} else if d, err := themes.Dir(); err == nil {
		if pal, _ := themes.LoadDir(d); pal != nil {
			r.update(themesMsg{palettes: pal})
		}
	}
	if _, err := r.program(ctx).Run(); err != nil {
		if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
			return ErrNoVerdict
		}
		return err
	}
	if p.interrupted {
		return ErrInterrupted
	}
	if !p.answered {
		return ErrNoVerdict
	}
	return nil
}

// reviewPage is the standalone review: a title row, the review screen and
// the footer. Its verdict goes to the root as a ReviewVerdictMsg; the
// program ends after the root has sent it.
type reviewPage struct {
	*chrome
	outbox
	screen      *reviewScreen
	answered    bool
	interrupted bool // ended by Ctrl-C
}

// newStandaloneReview builds the root over the standalone review page.
func newStandaloneReview(req *runner.ReviewRequest, opts Options) (*root, *reviewPage) {
	c := newChrome(opts)
	p := &reviewPage{chrome: c, screen: newReviewScreen(req, c.opts.Now())}
	p.screen.standalone = true
	return newRoot(c, p), p
}

func (a *reviewPage) init() tea.Cmd   { return armTick(a.opts.Guard) }
func (a *reviewPage) attached() bool  { return false }
func (a *reviewPage) settle() tea.Cmd { return nil }

func (a *reviewPage) guardSince() (time.Time, bool) { return a.screen.opened, true }

func (a *reviewPage) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		a.screen.wheel(msg.Mouse(), a.rows())
	case tea.PasteMsg:
		if a.screen.step == stepReason {
			a.screen.edit.insert(msg.Content)
		}
	}
	return nil
}

func (a *reviewPage) key(k tea.KeyPressMsg) tea.Cmd {
	if cmd, _, ok := a.keys.reviewPageTable().dispatch(a, k); ok {
		return cmd
	}
	c, why := a.screen.key(k, a.keys, a.rows())
	a.flash = why
	switch {
	case c.leave:
		return tea.Quit
	case c.verdict != nil:
		a.answered = true
		a.decide(*c.verdict)
		return tea.Quit
	}
	return nil
}

// rows is the viewer's height at the current size.
func (a *reviewPage) rows() int { return a.screen.layout(max(a.height-2, 1)).viewer }

func (a *reviewPage) title() string {
	return "sentinel review · " + textsafe.Line(a.screen.req.RunID)
}

func (a *reviewPage) cursor() *tea.Cursor { return nil }

func (a *reviewPage) render() string {
	w, h := max(a.width, 1), max(a.height, 3)
	st := a.styles
	title := st.StatusKey.Render(" SENTINEL ") + st.StatusBar.Render(" review · run "+textsafe.Line(a.screen.req.RunID)+" ")
	out := []string{padTo(title, w)}
	if sw := ansi.StringWidth(title); sw < w {
		out[0] = title + st.StatusBar.Render(strings.Repeat(" ", w-sw))
	}
	out = append(out, a.screen.render(st, a.keys, &a.help, w, h-2, a.opts.Now(), a.opts.Guard)...)
	out = append(out, a.footer(w, a.keys.reviewTable(true).footerKeys()))
	return strings.Join(out, "\n")
}
