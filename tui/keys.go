package tui

import "charm.land/bubbles/v2/key"

// keyMap is the vocabulary of keys: every binding with its label and
// description. The modes' tables (keytable.go) pick from it; dispatch, the
// help overlay, the footers and the key rows are read from the tables.
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
	// scroll what a write or edit card will write: a row, a page, or to
	// either end (End shows its last row, which approve waits for)
	ContentUp, ContentDown, ContentPageUp, ContentPageDown, ContentTop, ContentEnd key.Binding
	// remember chooser
	Breadth, Scope, Expiry, Confirm, Back key.Binding
	// quit confirmation
	Yes, No key.Binding
	// review screen (Up, Down, PageUp, PageDown, Top, End, Help, Quit, Yes
	// and No work there too)
	ReviewFocus, ReviewToggle, ReviewFile, ReviewNextHunk, ReviewPrevHunk key.Binding
	ReviewSplit, ReviewChecks, ReviewApprove, ReviewReject, ReviewLeave   key.Binding
	ReviewTop, ReviewEnd, ReviewAcceptAll, ReviewRejectAll                key.Binding
	// Interrupt is ctrl+c on the standalone review: a stop, nothing decided.
	Interrupt key.Binding
	// keys of one mode only: closing help, typing a line, esc on a card,
	// ctrl+c on the quit question and while a stop waits
	CloseHelp, Submit, CardEsc, QuitAgain, LeaveNow key.Binding
	// the console's own
	PickRun, ConsoleQuit, ConsoleReview key.Binding
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

		ClaudeYes:       b([]string{"1"}, "1", "yes: approve once"),
		ClaudeAlways:    b([]string{"2"}, "2", "yes, don't ask again (project)"),
		ClaudeNo:        b([]string{"3"}, "3", "no, and tell the coder…"),
		ClaudeKeys:      b([]string{"1", "2", "3"}, "1/2/3", "yes · always · no…"),
		ContentUp:       b([]string{"["}, "[", "scroll the card's content up"),
		ContentDown:     b([]string{"]"}, "]", "scroll the card's content down"),
		ContentPageUp:   b([]string{"pgup", "ctrl+u"}, "pgup", "the card's content: a page up"),
		ContentPageDown: b([]string{"pgdown", "ctrl+d"}, "pgdn", "the card's content: a page down"),
		ContentTop:      b([]string{"home", "g"}, "g/home", "the card's content: its first row"),
		ContentEnd:      b([]string{"end", "G"}, "G/end", "the card's content: its last row"),

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
		ReviewLeave:     b([]string{"q"}, "q", "quit without deciding"),
		ReviewTop:       b([]string{"home", "g"}, "g", "first file / top of the diff"),
		ReviewEnd:       b([]string{"end", "G"}, "G", "last file / end of the diff"),
		ReviewAcceptAll: b([]string{"A"}, "A", "accept every file"),
		ReviewRejectAll: b([]string{"X"}, "X", "reject every file (then pick what lands)"),
		Interrupt:       b([]string{"ctrl+c"}, "ctrl+c", "stop: nothing decided"),

		CloseHelp: b([]string{"?", "esc", "q", "ctrl+c"}, "?/esc", "close help"),
		Submit:    b([]string{"enter"}, "enter", "done"),
		CardEsc:   b([]string{"esc"}, "esc", "no answer: says which keys answer"),
		QuitAgain: b([]string{"ctrl+c"}, "ctrl+c", "yes (ctrl+c twice)"),
		LeaveNow:  b([]string{"ctrl+c"}, "ctrl+c", "leave at once while the run stops"),

		PickRun:       b([]string{">", "<"}, "< >", "pick a run"),
		ConsoleQuit:   b([]string{"q", "ctrl+c"}, "q", "quits (runs go on)"),
		ConsoleReview: b([]string{"R"}, "R", "reviews the run that waits"),
	}
}

// ShortHelp is the lanes' footer.
func (k keyMap) ShortHelp() []key.Binding { return k.lanesTable(false).footerKeys() }

// idleShortHelp is the footer while the coder waits after its turn: D
// first, so a narrow footer drops the others before it.
func (k keyMap) idleShortHelp() []key.Binding { return k.lanesTable(true).footerKeys() }

// FullHelp is the help overlay, one column per group: the lanes', attach
// mode's, the card's and the chooser's rows.
func (k keyMap) FullHelp() [][]key.Binding {
	return mergeGroups(k.lanesTable(false).helpGroups(), k.attachTable().helpGroups(),
		k.cardTable().helpGroups(), k.chooserTable().helpGroups())
}

// cardHelp is the card's key row.
func (k keyMap) cardHelp() []key.Binding { return k.cardTable().legendKeys() }

// chooserHelp is the remember chooser's key row.
func (k keyMap) chooserHelp() []key.Binding { return k.chooserTable().legendKeys() }

// reviewShortHelp is the footer while the review screen is open in a run
// (on a narrow screen the hints after help go first, in this order).
func (k keyMap) reviewShortHelp() []key.Binding { return k.reviewTable(false).footerKeys() }

// reviewFullHelp is the review screen's help overlay.
func (k keyMap) reviewFullHelp(standalone bool) [][]key.Binding {
	return k.reviewTable(standalone).helpGroups()
}

// mergeGroups puts the help columns of several tables together, column by
// column, in the order given.
func mergeGroups(tables ...[][]key.Binding) [][]key.Binding {
	var out [][]key.Binding
	for _, t := range tables {
		for i, g := range t {
			for len(out) <= i {
				out = append(out, nil)
			}
			out[i] = append(out[i], g...)
		}
	}
	return out
}
