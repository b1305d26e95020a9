package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/runner/patch"
)

// reviewFocus is which part of the review screen the arrows move.
type reviewFocus int

const (
	focusFiles reviewFocus = iota
	focusDiff
)

// reviewStep is what the review screen's keyboard is doing.
type reviewStep int

const (
	stepBrowse  reviewStep = iota
	stepConfirm            // "land this?" y/n
	stepReason             // typing why the change is rejected
	stepHelp               // the review help overlay
)

// reviewScreen is the diff review of one ReviewRequest: the changed files
// (flagged first), the verification results and a diff viewer, with each
// file and hunk accepted or rejected. It is a plain struct a page (the
// lanes, or the standalone review page) draws and feeds keys to.
type reviewScreen struct {
	req    *runner.ReviewRequest
	files  []patch.File
	fileOn []bool   // for whole files: taken; otherwise: any hunk taken
	hunkOn [][]bool // per hunk
	err    string   // the patch could not be read: only reject is possible

	opened time.Time
	focus  reviewFocus
	step   reviewStep
	split  bool
	tail   bool // the checks' output instead of the diff
	cur    int  // the selected file
	hunk   int  // the selected hunk of the selected file, -1 for none
	scroll int  // the first diff (or tail) row shown
	// helpScroll is the first help row shown
	helpScroll int
	edit       editor

	diff       *diffCache
	width      int  // the screen's width: long lines wrap to it
	standalone bool // shown by RunReview, not inside a run
}

// rows are the viewer rows of the selected file at the current width.
func (r *reviewScreen) rows() []diffRow {
	return r.diff.rows(r.files, r.cur, r.split, max(r.width, 10))
}

// newReviewScreen prepares a request for review. Files come from the
// request (or are parsed from its patch when it has none), flagged first.
// Everything starts accepted; rejecting is the person's act.
func newReviewScreen(req *runner.ReviewRequest, now time.Time) *reviewScreen {
	r := &reviewScreen{req: req, opened: now, hunk: -1, diff: newDiffCache(), width: 80}
	r.files = append([]patch.File(nil), req.Files...)
	if len(r.files) == 0 && len(req.Patch) > 0 {
		files, err := patch.Parse(req.Patch)
		if err != nil {
			r.err = err.Error()
		}
		r.files = files
	}
	patch.Sort(r.files)
	r.fileOn = make([]bool, len(r.files))
	r.hunkOn = make([][]bool, len(r.files))
	for i, f := range r.files {
		r.fileOn[i] = true
		r.hunkOn[i] = make([]bool, len(f.Hunks))
		for j := range r.hunkOn[i] {
			r.hunkOn[i][j] = true
		}
	}
	r.selectFile(0)
	return r
}

// armed reports whether the key guard has passed.
func (r *reviewScreen) armed(now time.Time, guard time.Duration) bool {
	return now.Sub(r.opened) >= guard
}

func (r *reviewScreen) selectFile(i int) {
	if len(r.files) == 0 {
		return
	}
	r.cur = min(max(i, 0), len(r.files)-1)
	r.scroll = 0
	r.hunk = -1
	if len(r.files[r.cur].Hunks) > 0 {
		r.hunk = 0
	}
}

// toggleHunk flips the selected hunk; a file that can only land whole
// flips as a whole.
func (r *reviewScreen) toggleHunk() {
	if len(r.files) == 0 {
		return
	}
	f := r.files[r.cur]
	if f.Whole() || r.hunk < 0 {
		r.toggleFile()
		return
	}
	r.hunkOn[r.cur][r.hunk] = !r.hunkOn[r.cur][r.hunk]
	r.fileOn[r.cur] = anyTrue(r.hunkOn[r.cur])
}

// toggleFile rejects a file that is (even partly) accepted, and accepts
// all of a rejected one.
func (r *reviewScreen) toggleFile() {
	if len(r.files) == 0 {
		return
	}
	on := !r.fileOn[r.cur]
	r.fileOn[r.cur] = on
	for j := range r.hunkOn[r.cur] {
		r.hunkOn[r.cur][j] = on
	}
}

// setAll accepts or rejects every file and hunk at once (landing 1 of 14
// files is X, then x on that one).
func (r *reviewScreen) setAll(on bool) {
	for i := range r.files {
		r.fileOn[i] = on
		for j := range r.hunkOn[i] {
			r.hunkOn[i][j] = on
		}
	}
}

// accepted is the accept function patch.Select wants.
func (r *reviewScreen) accepted(fi, hi int) bool {
	if hi < 0 {
		return r.fileOn[fi]
	}
	return r.hunkOn[fi][hi]
}

// tally counts what would land.
type tally struct{ files, allFiles, hunks, allHunks int }

func (r *reviewScreen) tally() tally {
	var t tally
	for i, f := range r.files {
		t.allFiles++
		if r.fileOn[i] {
			t.files++
		}
		t.allHunks += len(f.Hunks)
		for _, on := range r.hunkOn[i] {
			if on {
				t.hunks++
			}
		}
	}
	return t
}

func (t tally) everything() bool { return t.files == t.allFiles && t.hunks == t.allHunks }

// landingFlagged lists the flagged files that would land.
func (r *reviewScreen) landingFlagged() []string {
	var out []string
	for i, f := range r.files {
		if f.Flagged && r.fileOn[i] {
			out = append(out, f.Path)
		}
	}
	return out
}

// approve builds the approval: nil Patch when everything is accepted,
// otherwise the selected sub-patch.
func (r *reviewScreen) approve() ReviewVerdictMsg {
	t := r.tally()
	if t.everything() {
		return ReviewVerdictMsg{Request: r.req, Answer: runner.ReviewAnswer{Approve: true}, Note: fmt.Sprintf("approved: landing all %d file(s)", t.allFiles)}
	}
	p := patch.Select(r.files, r.accepted)
	return ReviewVerdictMsg{Request: r.req, Answer: runner.ReviewAnswer{Approve: true, Patch: p},
		Note: fmt.Sprintf("approved: landing %d of %d file(s), %d of %d hunk(s) (re-verified first)", t.files, t.allFiles, t.hunks, t.allHunks)}
}

// move goes through the file list or scrolls the diff.
func (r *reviewScreen) move(n, rows int) {
	if r.focus == focusFiles && !r.tail {
		if len(r.files) > 0 {
			r.selectFile(min(max(r.cur+n, 0), len(r.files)-1))
		}
		return
	}
	r.scrollBy(n, rows)
}

// scrollBy scrolls the viewer; the selected hunk follows the top row.
func (r *reviewScreen) scrollBy(n, rows int) {
	total := r.viewerRows()
	r.scroll = min(max(r.scroll+n, 0), max(total-rows, 0))
	if r.tail || len(r.files) == 0 {
		return
	}
	ds := r.rows()
	if r.scroll < len(ds) {
		if h := ds[r.scroll].hunk; h >= 0 {
			r.hunk = h
		}
	}
}

// moveHunk selects the next or previous hunk, moving to the next or
// previous file past either end.
func (r *reviewScreen) moveHunk(d int) {
	if len(r.files) == 0 {
		return
	}
	n := len(r.files[r.cur].Hunks)
	switch next := r.hunk + d; {
	case next >= 0 && next < n:
		r.hunk = next
	case d > 0 && r.cur+1 < len(r.files):
		r.selectFile(r.cur + 1)
		return
	case d < 0 && r.cur > 0:
		r.selectFile(r.cur - 1)
		r.hunk = len(r.files[r.cur].Hunks) - 1
	default:
		return
	}
	r.scrollToHunk()
}

// scrollToHunk puts the selected hunk's header at the top of the viewer.
func (r *reviewScreen) scrollToHunk() {
	if len(r.files) == 0 || r.hunk < 0 {
		r.scroll = 0
		return
	}
	for i, row := range r.rows() {
		if row.kind == rowHunk && row.hunk == r.hunk {
			r.scroll = i
			return
		}
	}
}

// viewerRows is how many rows the viewer holds now.
func (r *reviewScreen) viewerRows() int {
	if r.tail {
		return len(r.tailLines())
	}
	if len(r.files) == 0 {
		return 0
	}
	return len(r.rows())
}

// tailLines is every check's output, each under a heading.
func (r *reviewScreen) tailLines() []string {
	var out []string
	for _, c := range r.req.Checks {
		out = append(out, "$ "+c.Command+"  "+checkSummary(c))
		if c.Error != "" {
			out = append(out, "  error: "+c.Error)
		}
		if c.Tail == "" {
			out = append(out, "  (no output)")
		}
		for _, l := range strings.Split(strings.TrimRight(c.Tail, "\n"), "\n") {
			if c.Tail != "" {
				out = append(out, "  "+l)
			}
		}
		out = append(out, "")
	}
	if len(out) == 0 {
		out = []string{"no verification checks ran"}
	}
	return out
}

func checkSummary(c runner.CheckResult) string {
	d := time.Duration(c.DurationMS) * time.Millisecond
	s := fmt.Sprintf("exit %d · %s", c.ExitCode, d.Round(100*time.Millisecond))
	if c.Error != "" {
		s += " · " + c.Error
	}
	return s
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// wheel scrolls the viewer.
func (r *reviewScreen) wheel(ms tea.Mouse, rows int) {
	switch ms.Button {
	case tea.MouseWheelUp:
		r.scrollBy(-3, rows)
	case tea.MouseWheelDown:
		r.scrollBy(3, rows)
	}
}
