package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/runner"
)

// reviewCtx is what the review screen's rows act on: the screen, the
// diff viewer's height (for paging), and what the key decided — a verdict
// for the page to hand to the root, or leaving (q: in a run it asks to
// stop the run, standalone it leaves without deciding).
type reviewCtx struct {
	r       *reviewScreen
	rows    int
	verdict *ReviewVerdictMsg
	leave   bool
}

// reviewTable is the review screen's keys while browsing the change.
// Standalone (sentinel review), q leaves without deciding instead of
// stopping a run.
func (k keyMap) reviewTable(standalone bool) keyTable[*reviewCtx] {
	name, quit, quitAt := "review", k.Quit, 0
	if standalone {
		name, quit, quitAt = "review (standalone)", k.ReviewLeave, 8
	}
	move := func(by func(rows int) int) func(*reviewCtx, tea.KeyPressMsg) tea.Cmd {
		return act(func(c *reviewCtx) { c.r.move(by(c.rows), c.rows) })
	}
	return keyTable[*reviewCtx]{name: name, rows: []keyRow[*reviewCtx]{
		{key: k.ReviewFocus, do: act(func(c *reviewCtx) { c.r.focus = 1 - c.r.focus }), group: 1, footer: 3},
		{key: k.Up, do: move(func(int) int { return -1 }), group: 1},
		{key: k.Down, do: move(func(int) int { return 1 }), group: 1},
		{key: k.PageUp, do: move(func(rows int) int { return -max(rows-1, 1) }), group: 1},
		{key: k.PageDown, do: move(func(rows int) int { return max(rows-1, 1) }), group: 1},
		{key: k.ReviewTop, do: move(func(int) int { return -1 << 30 }), group: 1},
		{key: k.ReviewEnd, do: move(func(int) int { return 1 << 30 }), group: 1},
		{key: k.ReviewNextHunk, do: act(func(c *reviewCtx) { c.r.focus = focusDiff; c.r.moveHunk(1) }), group: 1, footer: 6},
		{key: k.ReviewPrevHunk, do: act(func(c *reviewCtx) { c.r.focus = focusDiff; c.r.moveHunk(-1) }), group: 1},
		{key: k.ReviewToggle, do: act(func(c *reviewCtx) {
			if c.r.focus == focusFiles {
				c.r.toggleFile()
			} else {
				c.r.toggleHunk()
			}
		}), group: 2, footer: 2},
		{key: k.ReviewFile, do: act(func(c *reviewCtx) { c.r.toggleFile() }), group: 2, footer: 7},
		{key: k.ReviewAcceptAll, do: act(func(c *reviewCtx) { c.r.setAll(true) }), group: 2},
		{key: k.ReviewRejectAll, do: act(func(c *reviewCtx) { c.r.setAll(false) }), group: 2},
		{key: k.ReviewSplit, do: act(func(c *reviewCtx) { c.r.split = !c.r.split; c.r.scrollToHunk() }), group: 2, footer: 5},
		{key: k.ReviewChecks, do: act(func(c *reviewCtx) { c.r.tail = !c.r.tail; c.r.scroll = 0 }), group: 2, footer: 4},
		{key: k.ReviewApprove, do: act(func(c *reviewCtx) { c.r.step = stepConfirm }), group: 2, disabled: func(c *reviewCtx) string {
			switch {
			case c.r.err != "":
				return "an unreadable change can only be rejected (d)"
			case c.r.tally().files == 0:
				return "nothing is accepted: d rejects the whole change"
			}
			return ""
		}},
		{key: k.ReviewReject, do: act(func(c *reviewCtx) {
			c.r.step = stepReason
			c.r.edit.open("why reject (enter rejects, esc goes back): ")
		}), group: 2},
		{key: k.Help, do: act(func(c *reviewCtx) { c.r.step, c.r.helpScroll = stepHelp, 0 }), group: 2, footer: 1},
		{key: quit, do: act(func(c *reviewCtx) { c.leave = true }), group: 2, footer: quitAt},
	}}
}

// reviewHelpTable is the review's help overlay.
func (k keyMap) reviewHelpTable() keyTable[*reviewCtx] {
	return overlayTable(k, "review help", func(c *reviewCtx) { c.r.step = stepBrowse },
		func(c *reviewCtx, by int) { c.r.helpScroll = max(c.r.helpScroll+by, 0) }, nil) // the drawing bounds the end
}

// reviewConfirmTable is "land this?".
func (k keyMap) reviewConfirmTable() keyTable[*reviewCtx] {
	return yesNoTable(k, "review confirm", act(func(c *reviewCtx) { v := c.r.approve(); c.verdict = &v }),
		func(c *reviewCtx) { c.r.step = stepBrowse })
}

// reviewReasonTable is typing why the change is rejected; every other
// key edits the reason.
func (k keyMap) reviewReasonTable() keyTable[*reviewCtx] {
	return lineTable(k, "review reason", act(func(c *reviewCtx) {
		reason := strings.TrimSpace(c.r.edit.value())
		note := "rejected"
		if reason != "" {
			note += ": " + reason
		}
		c.verdict = &ReviewVerdictMsg{Request: c.r.req, Answer: runner.ReviewAnswer{Reason: reason}, Note: note}
	}), func(c *reviewCtx) { c.r.step = stepBrowse })
}

// reviewPageTable is the standalone review page's key that acts at any
// step: a stop, nothing decided (ErrInterrupted).
func (k keyMap) reviewPageTable() keyTable[*reviewPage] {
	return keyTable[*reviewPage]{name: "review page", rows: []keyRow[*reviewPage]{
		{key: k.Interrupt, do: func(a *reviewPage, _ tea.KeyPressMsg) tea.Cmd { a.interrupted = true; return tea.Quit },
			told: "nothing draws it: ctrl+c stops, as in any terminal program"},
	}}
}

// key handles one key press on the review screen; c.verdict set means the
// review is answered: its page hands it to the root, whose broker sends it
// on the request's Answer channel exactly once. The screen sends nothing
// itself. why is a disabled key's reason, for the footer.
func (r *reviewScreen) key(k tea.KeyPressMsg, keys keyMap, rows int) (c *reviewCtx, why string) {
	c = &reviewCtx{r: r, rows: max(rows, 1)}
	var t keyTable[*reviewCtx]
	switch r.step {
	case stepHelp:
		t = keys.reviewHelpTable()
	case stepConfirm:
		t = keys.reviewConfirmTable()
	case stepReason:
		t = keys.reviewReasonTable()
	default:
		t = keys.reviewTable(r.standalone)
	}
	_, why, handled := t.dispatch(c, k)
	if !handled && r.step == stepReason {
		r.edit.key(k)
	}
	return c, why
}
