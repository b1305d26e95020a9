package service

import (
	"context"
	"fmt"
	"os"
	"time"
	"unicode"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/servicewire"
)

// The registry's ops (PROTOCOL.md, "The registry of runs and agents").
const (
	OpRegister = "runs.register" // held open for the run's life
	OpState    = "runs.state"
	OpAgents   = "agents.list"
)

// Registration is the body of runs.register.
type Registration struct {
	RunID   string    `json:"run_id"`
	Project string    `json:"project"`
	Coder   string    `json:"coder"`
	Mode    string    `json:"mode,omitempty"` // run, exec
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
}

// StateChange is the body of runs.state.
type StateChange struct {
	RunID string `json:"run_id"`
	State string `json:"state"`
}

// RunEntry is a registered run as the service keeps it: what the run said,
// with what the kernel said next to it.
type RunEntry struct {
	Registration
	PeerPID    int        `json:"peer_pid"`
	StartMS    int64      `json:"start_ms"` // the registered pid's start time, from /proc
	State      string     `json:"state"`
	Registered time.Time  `json:"registered"`
	Ended      *time.Time `json:"ended,omitempty"`
}

// Listing is the answer to agents.list.
type Listing struct {
	Agents []Agent      `json:"agents"`
	Runs   []RunEntry   `json:"runs"`
	Policy ServiceStart `json:"policy"`
}

// Mount registers the registry's ops on mux.
func (s *Service) Mount(mux *servicewire.Mux) {
	mux.Handle(OpRegister, s.handleRegister)
	mux.Handle(OpState, s.handleState)
	mux.Handle(OpAgents, func(ctx context.Context, c *servicewire.Call) (any, error) { return s.Listing(), nil })
}

// handleRegister registers a run for as long as its connection stays open:
// the run's end, or its crash, closes it.
func (s *Service) handleRegister(ctx context.Context, c *servicewire.Call) (any, error) {
	var reg Registration
	if err := c.Decode(&reg); err != nil {
		return nil, err
	}
	e, err := s.admit(ctx, reg, c.Peer.PID)
	if err != nil {
		s.note(journal.System, KindRunRefused, fmt.Sprintf("registration of run %q refused: %v", reg.RunID, err),
			Refusal{RunID: reg.RunID, PID: reg.PID, PeerPID: c.Peer.PID, Why: err.Error()})
		return nil, err
	}
	s.note(journal.System, KindRunRegistered, fmt.Sprintf("run %s registered: %s in %s, pid %d", e.RunID, e.Coder, e.Project, e.PID), *e)
	if err := c.Send(map[string]string{"run_id": e.RunID}); err != nil {
		s.unregister(e.RunID)
		return nil, err
	}
	<-ctx.Done()
	s.unregister(e.RunID)
	return nil, nil
}

// admit checks a registration against the kernel and records it.
func (s *Service) admit(ctx context.Context, reg Registration, peer int) (*RunEntry, error) {
	if err := checkRunID(reg.RunID); err != nil {
		return nil, err
	}
	if reg.PID <= 0 {
		return nil, fmt.Errorf("pid %d: want the run's own pid", reg.PID)
	}
	if !s.isSentinel(peer) {
		return nil, fmt.Errorf("the peer (pid %d) is not running Sentinel's executable %s: only a Sentinel run registers", peer, s.exe)
	}
	if reg.PID != peer {
		t, err := readProcs(ctx)
		if err != nil {
			return nil, err
		}
		if !descends(t, int32(reg.PID), int32(peer)) {
			return nil, fmt.Errorf("pid %d is not the peer's (%d) nor a descendant of it: a run registers its own process", reg.PID, peer)
		}
	}
	start, ok := startOf(ctx, int32(reg.PID))
	if !ok {
		return nil, fmt.Errorf("pid %d: no such process", reg.PID)
	}
	now := s.now()
	e := &RunEntry{Registration: reg, PeerPID: peer, StartMS: start, State: "starting", Registered: now}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.runs[reg.RunID]; old != nil && old.Ended == nil {
		return nil, fmt.Errorf("run %s is registered already (pid %d)", reg.RunID, old.PID)
	}
	s.runs[reg.RunID] = e
	return e, nil
}

// descends says whether pid is a descendant of anc in t.
func descends(t procTable, pid, anc int32) bool {
	for _, a := range t.ancestors(pid) {
		if a == anc {
			return true
		}
	}
	return false
}

// isSentinel says whether pid runs Sentinel's own executable (the same
// file as this service's, or one at the same path: an upgrade in place).
func (s *Service) isSentinel(pid int) bool {
	if s.exe == "" {
		return false
	}
	p, st := procExe(pid)
	if st != nil && s.exeInfo != nil && os.SameFile(st, s.exeInfo) {
		return true
	}
	return p != "" && p == s.exe
}

func (s *Service) unregister(id string) {
	s.mu.Lock()
	e := s.runs[id]
	if e == nil || e.Ended != nil {
		s.mu.Unlock()
		return
	}
	now := s.now()
	e.Ended = &now
	cp := *e
	s.mu.Unlock()
	s.note(journal.System, KindRunUnregistered, fmt.Sprintf("run %s ended (%s)", id, cp.State), cp)
}

// handleState records a run's change of state; only the process that
// registered the run may say it.
func (s *Service) handleState(ctx context.Context, c *servicewire.Call) (any, error) {
	var sc StateChange
	if err := c.Decode(&sc); err != nil {
		return nil, err
	}
	if len(sc.State) == 0 || len(sc.State) > 40 || !printable(sc.State) {
		return nil, fmt.Errorf("state %q: want a short word", sc.State)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.runs[sc.RunID]
	if e == nil || e.Ended != nil {
		return nil, fmt.Errorf("run %q is not registered", sc.RunID)
	}
	if e.PeerPID != c.Peer.PID {
		return nil, fmt.Errorf("run %s was registered by pid %d, not %d", sc.RunID, e.PeerPID, c.Peer.PID)
	}
	e.State = sc.State
	return nil, nil
}

func checkRunID(id string) error {
	if id == "" || len(id) > 100 || !printable(id) {
		return fmt.Errorf("run id %q: want a run id such as 20260101-120000-abcdef", id)
	}
	return nil
}

func printable(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// liveRuns maps the pids of registered runs that are still running (the
// pid's start time unchanged) to their entries.
func (s *Service) liveRuns(ctx context.Context) map[int32]*RunEntry {
	s.mu.Lock()
	var es []*RunEntry
	for _, e := range s.runs {
		if e.Ended == nil {
			es = append(es, e)
		}
	}
	s.mu.Unlock()
	out := map[int32]*RunEntry{}
	for _, e := range es {
		if st, ok := startOf(ctx, int32(e.PID)); ok && st == e.StartMS {
			out[int32(e.PID)] = e
		}
	}
	return out
}
