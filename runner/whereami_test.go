package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/sandbox"
	"github.com/sentinelhq/sentinel/supervisor"
)

// A run tells its coder who answers: nobody (denied), a supervisor when
// the person walks away, or the person at the terminal (nothing said).
func TestSurroundingsSayWhoAnswers(t *testing.T) {
	t.Parallel()
	person := approvals.NewPersonQueue()
	sup := &supervisor.Supervisor{}
	for _, tc := range []struct {
		name                   string
		opts                   Options
		sup                    *supervisor.Supervisor
		unattended, supervised bool
		sandboxed              bool
	}{
		{"nobody there", Options{Sandbox: SandboxOptions{Mode: sandbox.ModeAuto}}, nil, true, false, true},
		{"person at the terminal", Options{Approval: ApprovalOptions{Person: person}, Sandbox: SandboxOptions{Mode: sandbox.ModeOff}}, nil, false, false, false},
		{"supervisor alone", Options{Sandbox: SandboxOptions{Mode: sandbox.ModeAuto}}, sup, true, true, true},
		{"person who may walk away", Options{Approval: ApprovalOptions{Person: person}, Supervision: SupervisionOptions{AwayGrace: time.Minute}, Sandbox: SandboxOptions{Mode: sandbox.ModeAuto}}, sup, true, true, true},
		{"person advised by a supervisor", Options{Approval: ApprovalOptions{Person: person}, Sandbox: SandboxOptions{Mode: sandbox.ModeAuto}}, sup, false, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &containment{runCore: &runCore{opts: tc.opts, sup: tc.sup, ws: &Workspace{Dir: "/work/ws"}}}
			s := r.surroundings()
			if s.Unattended != tc.unattended || s.Supervised != tc.supervised || s.Sandboxed != tc.sandboxed || s.NetworkAsks != tc.sandboxed {
				t.Errorf("surroundings = %+v", s)
			}
			if text := r.whereAmI(); !strings.Contains(text, "/work/ws") {
				t.Errorf("the text does not name the workspace: %s", text)
			}
		})
	}
}
