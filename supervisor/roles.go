package supervisor

import (
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Role is one of the supervisor's jobs; each may have its own model
// (Options.Roles), else it uses Options.Backend.
type Role string

// The roles.
const (
	RoleJudge     Role = "judge"     // gray-zone requests, and advice on a person's card
	RoleReviewer  Role = "reviewer"  // the completion review
	RoleAdversary Role = "adversary" // the adversarial tester
	RoleRelay     Role = "relay"     // a person's messages relayed to the coder
)

// Roles lists every role, in the order they are checked and shown.
var Roles = []Role{RoleJudge, RoleReviewer, RoleAdversary, RoleRelay}

// RoleModel is one role's own model: the backend its turns go to and the
// bound on one turn (0: Options.Timeout).
type RoleModel struct {
	Backend Backend
	Timeout time.Duration
}

// roleOf is the role a turn of kind k is asked for.
func roleOf(k journal.Kind) Role {
	switch k {
	case KindReview:
		return RoleReviewer
	case KindAdversary:
		return RoleAdversary
	case KindRelay:
		return RoleRelay
	}
	return RoleJudge // KindJudge, KindAdvice
}

// model is the backend and turn bound of the role a turn of kind k is for.
func (s *Supervisor) model(k journal.Kind) (Backend, time.Duration) {
	if m, ok := s.roles[roleOf(k)]; ok && m.Backend != nil {
		if m.Timeout > 0 {
			return m.Backend, m.Timeout
		}
		return m.Backend, s.timeout
	}
	return s.backend, s.timeout
}
