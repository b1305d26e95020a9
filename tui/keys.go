package tui

import "charm.land/bubbles/v2/key"

// keyMap is the one place every binding is declared; the help overlay and the
// footer are built from it, so a binding without help text cannot exist.
type keyMap struct {
	// lanes
	Next, Prev, Timeline, Zoom           key.Binding
	Up, Down, PageUp, PageDown, Top, End key.Binding
	Search, NextMatch, PrevMatch         key.Binding
	Attach, Detach, Steer, Help, Quit    key.Binding
	Finish                               key.Binding
	// approval card
	Approve, Remember, Deny, Skip, DenyKind key.Binding
	// ApproveHosts approves a package install once with the registry hosts
	// it will fetch from, for the rest of the run (cardhosts.go).
	ApproveHosts key.Binding
	// Claude Code's keys on a card: 1 yes (approve once), 2 yes and don't
	// ask again (remember at once: the narrowest breadth, the default
	// scope), 3 no and tell the coder (deny with a message). ClaudeKeys is
	// their one entry on the card's key row.
	ClaudeYes, ClaudeAlways, ClaudeNo, ClaudeKeys key.Binding
	// scroll what a write or edit card will write
	ContentUp, ContentDown key.Binding
	// remember chooser
	Breadth, Scope, Expiry, Confirm, Back key.Binding
	// quit confirmation
	Yes, No key.Binding
	// review screen (Up, Down, PageUp, PageDown, Top, End, Help, Quit, Yes
	// and No work there too)
	ReviewFocus, ReviewToggle, ReviewFile, ReviewNextHunk, ReviewPrevHunk key.Binding
	ReviewSplit, ReviewChecks, ReviewApprove, ReviewReject, ReviewLeave   key.Binding
	ReviewTop, ReviewEnd, ReviewAcceptAll, ReviewRejectAll                key.Binding
}

func defaultKeys() keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return keyMap{
		Next:      b([]string{"tab"}, "tab", "next pane"),
		Prev:      b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		Timeline:  b([]string{"t"}, "t", "timeline of all lanes"),
		Zoom:      b([]string{"z"}, "z", "zoom pane"),
		Up:        b([]string{"up", "k"}, "↑/k", "scroll up"),
		Down:      b([]string{"down", "j"}, "↓/j", "scroll down"),
		PageUp:    b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:  b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:       b([]string{"home", "g"}, "g", "oldest line"),
		End:       b([]string{"end", "G"}, "G", "follow the tail"),
		Search:    b([]string{"/"}, "/", "search this lane"),
		NextMatch: b([]string{"n"}, "n", "older match"),
		PrevMatch: b([]string{"N"}, "N", "newer match"),
		Attach:    b([]string{"i"}, "i", "attach: type into the coder"),
		Detach:    b([]string{"ctrl+]"}, "ctrl+]", "leave attach mode"),
		Steer:     b([]string{"m"}, "m", "message the coder"),
		Help:      b([]string{"?"}, "?", "help"),
		Quit:      b([]string{"q", "ctrl+c"}, "q", "stop run and quit"),
		Finish:    b([]string{"D"}, "D", "coder is done → review"),

		Approve:      b([]string{"a"}, "a", "approve once"),
		Remember:     b([]string{"r"}, "r", "approve + remember"),
		Deny:         b([]string{"d"}, "d", "deny…"),
		Skip:         b([]string{"s"}, "s", "skip"),
		DenyKind:     b([]string{"X"}, "X", "deny all pending of this kind"),
		ApproveHosts: b([]string{"h"}, "h", "approve + allow its registry hosts (this run)"),

		ClaudeYes:    b([]string{"1"}, "1", "yes: approve once"),
		ClaudeAlways: b([]string{"2"}, "2", "yes, don't ask again (project)"),
		ClaudeNo:     b([]string{"3"}, "3", "no, and tell the coder…"),
		ClaudeKeys:   b([]string{"1", "2", "3"}, "1/2/3", "yes · always · no…"),
		ContentUp:    b([]string{"["}, "[", "scroll the card's content up"),
		ContentDown:  b([]string{"]"}, "]", "scroll the card's content down"),

		Breadth: b([]string{"up", "down", "k", "j"}, "↑/↓", "how broad"),
		Scope:   b([]string{"o"}, "o", "scope"),
		Expiry:  b([]string{"e"}, "e", "expiry"),
		Confirm: b([]string{"enter"}, "enter", "confirm"),
		Back:    b([]string{"esc"}, "esc", "back"),

		Yes: b([]string{"y"}, "y", "yes"),
		No:  b([]string{"n", "esc"}, "n", "no"),

		ReviewFocus:     b([]string{"tab", "shift+tab"}, "tab", "files ⇄ diff"),
		ReviewToggle:    b([]string{"space"}, "space", "accept/reject (hunk, or file in the list)"),
		ReviewFile:      b([]string{"x"}, "x", "accept/reject file"),
		ReviewNextHunk:  b([]string{"]"}, "]", "next hunk"),
		ReviewPrevHunk:  b([]string{"["}, "[", "previous hunk"),
		ReviewSplit:     b([]string{"v"}, "v", "unified ⇄ side by side"),
		ReviewChecks:    b([]string{"c"}, "c", "verification output"),
		ReviewApprove:   b([]string{"a"}, "a", "approve: land the accepted part…"),
		ReviewReject:    b([]string{"d"}, "d", "reject the whole change…"),
		ReviewLeave:     b([]string{"q", "ctrl+c"}, "q", "quit without deciding"),
		ReviewTop:       b([]string{"home", "g"}, "g", "first file / top of the diff"),
		ReviewEnd:       b([]string{"end", "G"}, "G", "last file / end of the diff"),
		ReviewAcceptAll: b([]string{"A"}, "A", "accept every file"),
		ReviewRejectAll: b([]string{"X"}, "X", "reject every file (then pick what lands)"),
	}
}

// ShortHelp is the footer.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.Next, k.Timeline, k.Zoom, k.Search, k.Steer, k.Attach, k.Quit}
}

// idleShortHelp is the footer while the coder waits after its turn: D
// first, so a narrow footer drops the others before it.
func (k keyMap) idleShortHelp() []key.Binding {
	return []key.Binding{k.Finish, k.Help, k.Next, k.Timeline, k.Zoom, k.Search, k.Steer, k.Attach, k.Quit}
}

// FullHelp is the help overlay, one column per group.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Next, k.Prev, k.Timeline, k.Zoom, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.End},
		{k.Search, k.NextMatch, k.PrevMatch, k.Steer, k.Attach, k.Detach, k.Finish, k.Help, k.Quit},
		{k.Approve, k.ApproveHosts, k.Remember, k.Deny, k.Skip, k.DenyKind, k.ClaudeYes, k.ClaudeAlways, k.ClaudeNo, k.ContentUp, k.ContentDown, k.Scope, k.Expiry, k.Confirm},
	}
}

func (k keyMap) cardHelp() []key.Binding {
	return []key.Binding{k.Approve, k.Remember, k.Deny, k.Skip, k.ClaudeKeys}
}

// laneKeys are the bindings that still act while a card is open (the
// lanes': scrolling, views, search, help, quit…).
func (k keyMap) laneKeys() []key.Binding {
	g := k.FullHelp()
	return append(append([]key.Binding{}, g[0]...), g[1]...)
}

func (k keyMap) chooserHelp() []key.Binding {
	return []key.Binding{k.Breadth, k.Scope, k.Expiry, k.Confirm, k.Back}
}

// reviewShortHelp is the footer while the review screen is open.
func (k keyMap) reviewShortHelp() []key.Binding {
	// on a narrow screen the hints after help go first, in this order
	return []key.Binding{k.Help, k.ReviewToggle, k.ReviewFocus, k.ReviewChecks, k.ReviewSplit, k.ReviewNextHunk, k.ReviewFile}
}

// reviewFullHelp is the review screen's help overlay.
// Standalone (sentinel review), q leaves without deciding instead of
// stopping a run.
func (k keyMap) reviewFullHelp(standalone bool) [][]key.Binding {
	quit := k.Quit
	if standalone {
		quit = k.ReviewLeave
	}
	return [][]key.Binding{
		{k.ReviewFocus, k.Up, k.Down, k.PageUp, k.PageDown, k.ReviewTop, k.ReviewEnd, k.ReviewNextHunk, k.ReviewPrevHunk},
		{k.ReviewToggle, k.ReviewFile, k.ReviewAcceptAll, k.ReviewRejectAll, k.ReviewSplit, k.ReviewChecks, k.ReviewApprove, k.ReviewReject, k.Help, quit},
	}
}
