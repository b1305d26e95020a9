package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
)

// maxValueLines caps how many lines the asked-for command or input may take
// on the card; the rest is counted, never silently dropped.
const maxValueLines = 8

// maxProseLines caps the policy's reason and the supervisor's advice.
const maxProseLines = 4

// enqueue adds a request for the person. The card opens for it if nothing is
// showing; otherwise it waits its turn and the count grows.
func (m *model) enqueue(p *approvals.Prompt) tea.Cmd {
	m.queue = append(m.queue, p)
	ring := m.cardArrived()
	if len(m.queue) == 1 {
		return tea.Batch(m.openCard(), ring)
	}
	return ring
}

// openCard shows the head of the queue and starts its key guard. An attached
// person is detached: the card's keys must not go to the coder.
func (m *model) openCard() tea.Cmd {
	m.cardOpened = m.opts.Now()
	if m.mode == modeAttach {
		m.mode = modeNormal
		m.flash = "left attach mode: an approval is waiting"
	}
	return armTick(m.opts.Guard)
}

func (m *model) cardVisible() bool { return len(m.queue) > 0 }

// cardSeen reports whether all of the card on screen has been shown: none
// of its lines left out for lack of room and every row of its change
// scrolled past.
func (m *model) cardSeen() bool {
	m.layout() // draws the bottom section: cardClipped and the rows seen are current
	return !m.cardClipped && m.contentSeen()
}

// unseenNotice says why approve waits and what shows the rest, in one
// row of the screen where it can.
func (m *model) unseenNotice() string {
	c := m.content()
	down, end := m.keys.ContentDown.Help().Key, m.keys.ContentEnd.Help().Key
	forms := []string{
		fmt.Sprintf("approve waits until you have seen all of the change: %s scrolls down, %s shows its end (%d of %d rows seen)", down, end, c.seen, c.total),
		fmt.Sprintf("approve waits until you have seen all of the change: %s scrolls down (%d of %d rows seen)", down, c.seen, c.total),
		fmt.Sprintf("approve waits: %s shows the rest (%d of %d rows seen)", down, c.seen, c.total),
	}
	if m.cardClipped {
		forms = []string{
			"the screen is too small to show all of this card: make the terminal larger to approve (d or 3 denies)",
			"card too big for the screen: enlarge it to approve (d denies)",
		}
	}
	for _, f := range forms {
		if ansi.StringWidth(f)+1 <= m.width {
			return f
		}
	}
	return forms[len(forms)-1] // wrapped above the footer
}

// origin is the run and project p came from, "" on a run's own screen.
func (m *model) origin(p *approvals.Prompt) string {
	if m.originOf == nil {
		return ""
	}
	return m.originOf(p)
}

// workspace is the workspace p's paths are shown relative to: its run's.
func (m *model) workspace(p *approvals.Prompt) string {
	if m.workspaceOf != nil {
		return m.workspaceOf(p)
	}
	return m.info.Workspace
}

// sameFlood reports whether p is one of head's flood: its kind, from its
// run (X never reaches another run's or project's requests).
func (m *model) sameFlood(head, p *approvals.Prompt) bool {
	return p.Request.Kind == head.Request.Kind && m.origin(p) == m.origin(head)
}

// pendingOfKind counts the pending requests X would deny.
func (m *model) pendingOfKind() int {
	n := 0
	for _, p := range m.queue {
		if m.sameFlood(m.queue[0], p) {
			n++
		}
	}
	return n
}

// denyAllQuestion is X's confirmation, naming the count and the run.
func (m *model) denyAllQuestion() string {
	q := fmt.Sprintf("Deny all %d pending %s request(s)", m.pendingOfKind(), kindName(m.queue[0].Request.Kind))
	if o := m.origin(m.queue[0]); o != "" {
		q += " of " + o
	}
	return q + "? "
}

// denyKind denies, at once, every pending request of the shown one's kind
// and run (a coder flooding the person with requests): one DenyMsg each,
// and the broker journals each decision. The next request gets the card.
func (m *model) denyKind() tea.Cmd {
	head := m.queue[0]
	kind := head.Request.Kind
	msg := fmt.Sprintf("denied with every other pending %s request: the person denied them all at once", kindName(kind))
	keep := m.queue[:0]
	n := 0
	for _, p := range m.queue {
		if !m.sameFlood(head, p) {
			keep = append(keep, p)
			continue
		}
		m.decide(DenyMsg{Prompt: p, Message: msg})
		n++
	}
	clear(m.queue[len(keep):])
	m.queue = keep
	m.flash = fmt.Sprintf("denied %d pending %s request(s)", n, kindName(kind))
	return m.nextCard()
}

// answer leaves d, a decision on the head of the queue, for the root,
// takes the head off the queue and opens the next card.
func (m *model) answer(d tea.Msg) tea.Cmd {
	if len(m.queue) == 0 {
		return nil
	}
	m.decide(d)
	m.queue = m.queue[1:]
	return m.nextCard()
}

// nextCard closes the chooser and opens the card at the head of the queue.
func (m *model) nextCard() tea.Cmd {
	m.chooser = nil
	m.mode = modeNormal
	if len(m.queue) == 0 {
		return nil
	}
	return m.openCard()
}

// skip answers the head at once — a deny telling the coder the person
// skipped it, so it goes on instead of waiting for the timeout — and opens
// the next card.
func (m *model) skip() tea.Cmd {
	m.flash = "skipped: the coder was told to go on without it"
	return m.answer(SkipMsg{Prompt: m.queue[0]})
}

// cardLines draws the card for the head of the queue with at most n rows of
// the change it asks for (see contentLines).
func (m *model) cardLines(w, n int) block {
	st := m.styles
	p := m.queue[0]
	req := p.Request
	// the header, and its shorter forms for a narrow screen
	full := []string{"APPROVAL · " + kindName(req.Kind)}
	short := []string{full[0]}
	if n := len(m.queue); n > 1 {
		full = append(full, fmt.Sprintf("1 of %d pending", n))
		short = append(short, fmt.Sprintf("1 of %d", n))
	}
	if n := m.pendingOfKind(); n > 1 {
		// a flood of one kind is cleared in one key (the key line has no room)
		k := m.keys.DenyKind.Help().Key
		full = append(full, fmt.Sprintf("[%s] deny all %d %s", k, n, kindName(req.Kind)))
		short = append(short, fmt.Sprintf("[%s] deny all %d", k, n))
	}
	if req.Adapter != "" {
		full = append(full, "from "+textsafe.Line(req.Adapter))
		short = append(short, "from "+textsafe.Line(req.Adapter))
	}
	shortest := append([]string{kindName(req.Kind)}, short[1:]...)
	var out block
	out.add(prioKeep, m.titleRows(w, full, short, shortest)...)
	// while the chooser is open the card's facts give way to it first
	fieldPrio, polPrio, lowPrio := prioFact, prioHigh, prioLow
	if m.mode == modeRemember {
		fieldPrio, polPrio = prioLow, prioLow
	}
	label := func(name string) string { return st.CardLabel.Render(fmt.Sprintf(" %-8s ", name)) }
	c := m.content()
	details := c.details && m.mode != modeRemember
	if details {
		c.extra = c.extra[:0]
	}
	// add puts one of the card's own rows on it, or, once they did not all
	// fit, the rows below its facts into the scrolled view (contentLines)
	add := func(prio int, l string) {
		if details && prio > prioFact {
			c.extra = append(c.extra, l)
			return
		}
		out.add(prio, l)
	}
	hidden := 0
	field := func(prio int, name, value string) {
		if value == "" {
			return
		}
		toks, n := reveal(value)
		hidden += n
		lines := wrapToks(toks, w-10)
		if len(lines) > maxValueLines && (name == "command" || name == "input") {
			// too long for its field: shown in full, scrollable, below
			add(prio, padTo(label(name)+st.Reveal.Render(fmt.Sprintf("%d rows: all of it is below (%s scrolls)", len(lines), m.keys.ContentDown.Help().Key)), w))
			return
		}
		for i, l := range lines {
			if i == maxValueLines {
				rest := 0
				for _, ll := range lines[i:] {
					for _, t := range ll {
						rest += len(t.s)
					}
				}
				add(prio, padTo(label("")+st.Reveal.Render(fmt.Sprintf("… %d more characters not shown", rest)), w))
				break
			}
			lab := label("")
			if i == 0 {
				lab = label(name)
			}
			add(prio, padTo(lab+renderToks(st, l), w))
		}
	}
	if o := m.origin(p); o != "" {
		field(fieldPrio, "run", oneRowOrigin(o, w-10))
	}
	switch req.Kind {
	case policy.KindShell:
		field(fieldPrio, "command", req.Command)
		field(prioKeep, "needs", fetchNeeds(p))
	case policy.KindWrite, policy.KindEdit, policy.KindRead:
		field(fieldPrio, "path", relPath(m.workspace(p), req.Path))
	case policy.KindNet:
		host := req.Host
		if req.Port != 0 {
			host += ":" + strconv.Itoa(req.Port)
		}
		field(fieldPrio, "host", host)
		field(fieldPrio, "url", req.URL)
	default:
		field(fieldPrio, "tool", req.Tool)
		field(fieldPrio, "input", string(req.Input))
	}
	field(lowPrio, "cwd", relPath(m.workspace(p), req.Cwd))
	if hidden > 0 {
		out.add(prioKeep, padTo(label("warning")+st.Reveal.Render(fmt.Sprintf("%d invisible or non-ASCII character(s) shown as <U+…>", hidden)), w))
	}
	v := p.Verdict
	pol := fmt.Sprintf("%s · %s", strings.ToUpper(v.Decision.String()), firstNonEmpty(v.Rule, "no rule"))
	if v.Reason != "" {
		pol += " — " + textsafe.Line(v.Reason)
	}
	if v.NeverDelegable {
		pol += " (only a person may approve)"
	}
	// prose wraps text under its label; past maxLines (0: none) it ends
	// in "…"
	prose := func(name string, prio, maxLines int, text string) {
		for i, l := range strings.Split(ansi.Wrap(text, max(w-10, 10), " -/"), "\n") {
			if maxLines > 0 && i == maxLines && !details {
				add(lowPrio, padTo(label("")+st.Muted.Render("…"), w))
				break
			}
			lab := label("")
			if i == 0 {
				lab = label(name)
			}
			add(prio, padTo(lab+st.Text.Render(l), w))
		}
	}
	prose("policy", polPrio, maxProseLines, pol)
	if a := alwaysTextIn(p, max(w-10, 10)); a != "" {
		// what 2 covers is a fact of the card: all of it, or the card
		// is clipped and cannot be approved
		prose("2 always", fieldPrio, 0, a)
	}
	if p.Recommendation != "" {
		prose("advice", lowPrio, maxProseLines, textsafe.Line(p.Recommendation))
	}
	if m.mode != modeRemember {
		out.add(prioKeep, m.contentLines(w, n)...)
	}
	if m.mode == modeRemember && m.chooser != nil {
		out.addBlock(m.chooserLines(w))
		return out
	}
	if m.mode == modeDenyMsg {
		out.add(prioKeep, m.editLine(w))
		return out
	}
	out.add(prioKeep, m.cardKeysLines(w)...)
	return out
}

// cardKeysLines are the card's keys, wrapped to the width, or the key
// guard's notice.
func (m *model) cardKeysLines(w int) []string {
	st := m.styles
	keys := wrapParts("", keyParts(st, m.cardBindings()), w)
	if left := m.opts.Guard - m.opts.Now().Sub(m.cardOpened); left > 0 {
		// as many rows as the keys take, so the card's change keeps the
		// same rows when the guard ends: a row drawn only during the guard
		// would count as seen and then be hidden under the keys
		guard := make([]string, len(keys))
		guard[0] = padTo(st.Muted.Render(" keys are ignored for a moment so a keystroke in flight cannot answer this"), w)
		for i := 1; i < len(guard); i++ {
			guard[i] = padTo("", w)
		}
		return guard
	}
	return keys
}

// keysLine renders "[k] desc" pairs from bindings.
func (m *model) keysLine(bs []key.Binding) string {
	return strings.Join(keyParts(m.styles, bs), "  ")
}

func kindName(k policy.Kind) string {
	if k == "" {
		return "request"
	}
	return textsafe.Line(string(k))
}

// oneRowOrigin is a card's "run ID in PROJECT" in w cells: the run id whole
// and the project's end, "..." for what gave way (ASCII: the card shows
// any other character as <U+…>). On a 60-column console a
// long project name took a second row and pushed the end of the card's
// "always" sentence off a 15-row screen; the run id alone names the run.
func oneRowOrigin(o string, w int) string {
	if ansi.StringWidth(o) <= w {
		return o
	}
	head, proj, ok := strings.Cut(o, " in ")
	if !ok || ansi.StringWidth(head)+len(" in ...") >= w {
		return o
	}
	keep := w - ansi.StringWidth(head) - len(" in ...")
	return head + " in ..." + ansi.TruncateLeft(proj, ansi.StringWidth(proj)-keep, "")
}
