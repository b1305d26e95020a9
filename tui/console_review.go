package tui

import (
	"os"
	"os/exec"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals/queue"
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
		p.m.flash = "no run waits for your review"
		return nil
	}
	cmd, err := reviewCommand(r)
	if err != nil {
		p.m.flash = "cannot open the review: " + err.Error()
		return nil
	}
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return consoleReviewedMsg{err} })
}
