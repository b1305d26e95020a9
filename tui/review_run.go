package tui

import (
	"context"
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/themes"
)

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
	opts = opts.withDefaults()
	a := newReviewApp(req, opts)
	if dir := opts.ThemeDir; dir != "" {
		pal, errs := themes.LoadDir(dir)
		a.userThemes = pal
		if len(errs) > 0 {
			a.flash = errs[0].Error()
		}
		a.applyTheme()
	} else if d, err := themes.Dir(); err == nil {
		if pal, _ := themes.LoadDir(d); pal != nil {
			a.userThemes = pal
			a.applyTheme()
		}
	}
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
	if _, err := tea.NewProgram(a, popts...).Run(); err != nil {
		if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
			return ErrNoVerdict
		}
		return err
	}
	if !a.answered {
		return ErrNoVerdict
	}
	return nil
}

// reviewApp is the standalone program: a title row, the review screen and
// the footer.
type reviewApp struct {
	screen     *reviewScreen
	opts       Options
	keys       keyMap
	help       help.Model
	styles     themes.Styles
	userThemes map[string]themes.Palette
	darkBG     bool
	width      int
	height     int
	answered   bool
	flash      string
}

func newReviewApp(req *runner.ReviewRequest, opts Options) *reviewApp {
	opts = opts.withDefaults()
	a := &reviewApp{screen: newReviewScreen(req, opts.Now()), opts: opts, keys: defaultKeys(), help: help.New(),
		darkBG: true, width: 80, height: 24}
	a.screen.standalone = true
	a.applyTheme()
	return a
}

func (a *reviewApp) applyTheme() {
	p, err := themes.Resolve(a.opts.Theme, a.darkBG, a.userThemes)
	if err != nil {
		a.flash = err.Error()
		p, _ = themes.Resolve("auto", a.darkBG, nil)
	}
	a.styles = themes.New(p, a.opts.NoColor)
	st := a.styles
	a.help.Styles = help.Styles{
		ShortKey: st.CardKey, ShortDesc: st.Muted, ShortSeparator: st.Separator, Ellipsis: st.Separator,
		FullKey: st.CardKey, FullDesc: st.Text, FullSeparator: st.Separator,
	}
}

func (a *reviewApp) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, tea.Tick(a.opts.Guard, func(time.Time) tea.Msg { return armMsg{} }))
}

func (a *reviewApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		a.darkBG = msg.IsDark()
		a.applyTheme()
	case tea.MouseWheelMsg:
		a.screen.wheel(msg.Mouse(), a.rows())
	case tea.PasteMsg:
		if a.screen.step == stepReason {
			a.screen.edit.insert(msg.Content)
		}
	case tea.KeyPressMsg:
		if !a.screen.armed(a.opts.Now(), a.opts.Guard) {
			return a, nil
		}
		a.flash = ""
		if a.screen.step == stepBrowse && key.Matches(msg, a.keys.ReviewLeave) {
			return a, tea.Quit
		}
		if v := a.screen.key(msg, a.keys, a.rows()); v != nil {
			a.answered = true
			return a, tea.Sequence(sendVerdict(a.screen.req, v.answer), tea.Quit)
		}
	}
	return a, nil
}

// rows is the viewer's height at the current size.
func (a *reviewApp) rows() int { return a.screen.layout(max(a.height-2, 1)).viewer }

func (a *reviewApp) View() tea.View {
	v := tea.NewView(a.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "sentinel review · " + textsafe.Line(a.screen.req.RunID)
	return v
}

func (a *reviewApp) render() string {
	w, h := max(a.width, 1), max(a.height, 3)
	st := a.styles
	title := st.StatusKey.Render(" SENTINEL ") + st.StatusBar.Render(" review · run "+textsafe.Line(a.screen.req.RunID)+" ")
	out := []string{padTo(title, w)}
	if sw := ansi.StringWidth(title); sw < w {
		out[0] = title + st.StatusBar.Render(strings.Repeat(" ", w-sw))
	}
	out = append(out, a.screen.render(st, a.keys, &a.help, w, h-2, a.opts.Now(), a.opts.Guard)...)
	if a.flash != "" {
		out = append(out, padTo(st.Asked.UnsetBackground().Render(" "+textsafe.Line(a.flash)), w))
	} else {
		a.help.SetWidth(w - 1)
		out = append(out, padTo(" "+a.help.ShortHelpView(append(a.keys.reviewShortHelp(), a.keys.ReviewLeave)), w))
	}
	return strings.Join(out, "\n")
}
