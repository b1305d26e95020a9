package tui

import (
	"os"
	"os/exec"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// reviewTarget is the run R (keys_console.go) reviews, if any waits for a
// review: the selected run when it waits, else the oldest that does.
func (p *consolePage) reviewTarget() (queue.RunStatus, bool) {
	if r, ok := p.selected(); ok && queue.AwaitsPerson(r.State) {
		return r, true
	}
	for _, r := range p.runs {
		if queue.AwaitsPerson(r.State) {
			return r, true
		}
	}
	return queue.RunStatus{}, false
}

// nothingToReview is why R opens no review: none waits, or the one that
// waits is a live run's, open on its own screen (a second review here
// could not take that run's answer).
func (p *consolePage) nothingToReview() string {
	for _, r := range p.runs {
		if r.State == queue.StateReviewing {
			return "run " + textsafe.Line(r.Run) + "'s review is open on its own screen: answer it there"
		}
	}
	return "no run waits for your review"
}

// consoleReviewedMsg is the review's end: the console reads the runs again.
type consoleReviewedMsg struct{ err error }

// reviewCommand is `sentinel review ID` in the run's project, this
// binary's own.
func reviewCommand(r queue.RunStatus) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "review", r.Run)
	cmd.Dir = r.Project
	return cmd, nil
}

// review hands the terminal to the run's review screen and takes it back
// when the person has decided or left it.
func (p *consolePage) review() tea.Cmd {
	r, ok := p.reviewTarget()
	if !ok {
		p.m.flash = p.nothingToReview()
		return nil
	}
	cmd, err := reviewCommand(r)
	if err != nil {
		p.m.flash = "cannot open the review: " + err.Error()
		return nil
	}
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return consoleReviewedMsg{err} })
}
