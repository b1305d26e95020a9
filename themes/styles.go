package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles is every style the TUI draws with, built from one Palette.
type Styles struct {
	Palette Palette
	NoColor bool

	Text      lipgloss.Style
	Muted     lipgloss.Style
	Title     lipgloss.Style // an unfocused pane title
	TitleOn   lipgloss.Style // the focused pane title
	Separator lipgloss.Style
	Selected  lipgloss.Style // the chosen line in a list
	Match     lipgloss.Style // a search match

	StatusBar  lipgloss.Style
	StatusKey  lipgloss.Style
	SandboxOn  lipgloss.Style
	SandboxOff lipgloss.Style
	Allowed    lipgloss.Style
	Asked      lipgloss.Style
	Denied     lipgloss.Style
	Attached   lipgloss.Style // the attach-mode banner

	CardBorder lipgloss.Style
	CardTitle  lipgloss.Style
	CardLabel  lipgloss.Style
	CardValue  lipgloss.Style
	CardKey    lipgloss.Style
	Reveal     lipgloss.Style // an invisible or look-alike character made visible

	// Lane tags, as in the --plain output.
	SystemTag, CoderTag, ToolTag, ApprovalTag, DeniedTag, SupervisorTag, AdversaryTag lipgloss.Style
}

// New builds the styles for p. With noColor, no colour is emitted at all
// (NO_COLOR); emphasis uses bold, underline and reverse instead.
func New(p Palette, noColor bool) Styles {
	c := func(s string) color.Color {
		if noColor {
			return lipgloss.NoColor{}
		}
		return lipgloss.Color(s)
	}
	fg := func(s string) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c(s))
	}
	bg := func(st lipgloss.Style, s string) lipgloss.Style {
		if noColor {
			return st
		}
		return st.Background(c(s))
	}
	s := Styles{Palette: p, NoColor: noColor}
	s.Text = fg(p.Foreground)
	s.Muted = fg(p.Muted)
	s.Title = fg(p.Border)
	s.TitleOn = fg(p.Accent).Bold(true)
	s.Separator = fg(p.Border)
	s.Selected = bg(fg(p.Foreground).Bold(true), p.Highlight)
	s.Match = bg(fg(p.Foreground).Underline(true), p.Highlight)
	s.StatusBar = bg(fg(p.Foreground), p.StatusBG)
	s.StatusKey = bg(fg(p.Accent).Bold(true), p.StatusBG)
	s.SandboxOn = bg(fg(p.OK), p.StatusBG)
	s.SandboxOff = bg(fg(p.Danger).Bold(true), p.StatusBG)
	s.Allowed = bg(fg(p.OK), p.StatusBG)
	s.Asked = bg(fg(p.Warn), p.StatusBG)
	s.Denied = bg(fg(p.Danger), p.StatusBG)
	s.Attached = fg(p.Warn).Bold(true).Reverse(true)
	s.CardBorder = fg(p.Approval)
	s.CardTitle = fg(p.Approval).Bold(true)
	s.CardLabel = fg(p.Muted)
	s.CardValue = fg(p.Foreground).Bold(true)
	s.CardKey = fg(p.Accent).Bold(true)
	s.Reveal = fg(p.Danger).Bold(true)
	if noColor {
		s.TitleOn = s.TitleOn.Underline(true)
		s.Selected = s.Selected.Reverse(true)
		s.Match = s.Match.Reverse(true)
		s.SandboxOff = s.SandboxOff.Reverse(true)
		s.Reveal = s.Reveal.Underline(true)
	}
	s.SystemTag = fg(p.System)
	s.CoderTag = fg(p.Coder)
	s.ToolTag = fg(p.Tool)
	s.ApprovalTag = fg(p.Approval)
	s.DeniedTag = fg(p.Denied).Bold(true)
	s.SupervisorTag = fg(p.Supervisor)
	s.AdversaryTag = fg(p.Adversary)
	return s
}
