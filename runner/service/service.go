package service

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/userstate"
	"github.com/sentinelhq/sentinel/runner/agents"
)

// Options configure a Service: the [service] section of the user config,
// resolved.
type Options struct {
	RequireLauncher bool
	AllowedApps     []string      // program names or absolute paths
	Grace           time.Duration // TERM → KILL; default 5s
	ScanInterval    time.Duration // default 2s
	// Journal receives the service's events; nil: none are kept.
	Journal *journal.Journal
	// Exe is Sentinel's executable, which a registering run must be running
	// (default: this process's).
	Exe string
}

// The defaults of [service] grace and scan_interval.
const (
	DefaultGrace        = 5 * time.Second
	DefaultScanInterval = 2 * time.Second
	// sentinelPending is how long an agent under an unregistered Sentinel
	// process is left alone: its run's registration may be on its way (a
	// service that just restarted, a run that reconnects).
	sentinelPending = 10 * time.Second
)

// Service is the registry of runs and the scanner of agents.
type Service struct {
	opts    Options
	exe     string
	exeInfo os.FileInfo
	now     func() time.Time

	mu     sync.Mutex
	runs   map[string]*RunEntry
	agents map[Target]*tracked
	scans  int
}

// tracked is an agent the scanner has seen.
type tracked struct {
	Agent
	firstScan    int       // the scan it was first seen in
	firstSeen    time.Time // when
	pendingUntil time.Time // not ended before (an unregistered Sentinel ancestor)
	ending       bool
	remotes      map[string]bool // remote endpoints journaled already
	children     map[int32]bool  // children journaled already
}

// New makes a Service.
func New(o Options) *Service {
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.ScanInterval <= 0 {
		o.ScanInterval = DefaultScanInterval
	}
	if o.Exe == "" {
		o.Exe, _ = os.Executable()
	}
	s := &Service{opts: o, exe: o.Exe, now: func() time.Time { return time.Now().UTC() },
		runs: map[string]*RunEntry{}, agents: map[Target]*tracked{}}
	if o.Exe != "" {
		s.exeInfo, _ = os.Stat(o.Exe)
	}
	return s
}

// JournalPath is the service journal: events.jsonl in the user's state
// directory's service/.
func JournalPath() (string, error) {
	dir, err := userstate.Dir()
	if err != nil {
		return "", err
	}
	dir = filepath.Join(dir, "service")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	return filepath.Join(dir, "events.jsonl"), nil
}

// policy is the service's policy as journaled and listed.
func (s *Service) policy() ServiceStart {
	return ServiceStart{PID: os.Getpid(), RequireLauncher: s.opts.RequireLauncher, AllowedApps: s.opts.AllowedApps,
		Grace: s.opts.Grace.String(), ScanInterval: s.opts.ScanInterval.String()}
}

// Run scans every ScanInterval until ctx ends.
func (s *Service) Run(ctx context.Context) {
	p := s.policy()
	s.note(journal.System, KindServiceStart, fmt.Sprintf("service started (pid %d): require_launcher %v, allowed_apps %v, grace %s, scan every %s", p.PID, p.RequireLauncher, p.AllowedApps, p.Grace, p.ScanInterval), p)
	defer s.note(journal.System, KindServiceStop, "service stopped", nil)
	var wg sync.WaitGroup
	defer wg.Wait() // endings in flight finish (their signals are sent) before the journal closes
	t := time.NewTicker(s.opts.ScanInterval)
	defer t.Stop()
	for {
		s.Scan(ctx, &wg)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// note journals an event; the journal's failure is not the service's end
// (the scanner and policy go on), so its error is dropped here.
func (s *Service) note(lane journal.Lane, kind journal.Kind, text string, data any) {
	if s.opts.Journal != nil {
		_, _ = s.opts.Journal.Append(lane, kind, text, data)
	}
}

// Scan looks at every process once: new agents are classified and
// journaled, gone ones recorded, and the machine policy applied. Endings
// run in the background, counted in wg.
func (s *Service) Scan(ctx context.Context, wg *sync.WaitGroup) {
	t, err := readProcs(ctx)
	if err != nil {
		return
	}
	runs := s.liveRuns(ctx)
	s.mu.Lock()
	s.scans++
	scan := s.scans
	s.mu.Unlock()
	now := s.now()
	seen := map[Target]bool{}
	for _, p := range t {
		if p.Program == "" || p.UID != os.Getuid() || p.Start == 0 {
			continue
		}
		key := Target{PID: p.PID, Start: p.Start}
		seen[key] = true
		state, runID := s.classify(ctx, t, p, runs)
		s.mu.Lock()
		tr := s.agents[key]
		isNew := tr == nil
		if isNew {
			tr = &tracked{Agent: describe(ctx, t, p), firstScan: scan, firstSeen: now, remotes: map[string]bool{}, children: map[int32]bool{}}
			if state == StateAdopted && s.sentinelAncestor(t, p.PID) {
				tr.pendingUntil = now.Add(sentinelPending)
			}
			s.agents[key] = tr
		}
		changed := tr.State != state || tr.RunID != runID
		tr.State, tr.RunID = state, runID
		a := tr.Agent
		s.mu.Unlock()
		if isNew || changed {
			s.noteAgent(a)
		}
		if state == StateAdopted || state == StateBypassed {
			s.telemetry(ctx, t, key, p)
		}
		if s.mustEnd(tr, scan, now) {
			s.mu.Lock()
			tr.ending = true
			a := tr.Agent
			s.mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.end(context.WithoutCancel(ctx), a, "started outside Sentinel while require_launcher is on, and "+a.Program+" is not in allowed_apps")
			}()
		}
	}
	s.mu.Lock()
	var gone []Agent
	for key, tr := range s.agents {
		if seen[key] {
			continue
		}
		delete(s.agents, key)
		if !tr.ending {
			gone = append(gone, tr.Agent)
		}
	}
	for id, e := range s.runs {
		if e.Ended != nil && now.Sub(*e.Ended) > time.Hour {
			delete(s.runs, id)
		}
	}
	s.mu.Unlock()
	for _, a := range gone {
		a.State, a.Reason, a.Ended = StateTerminated, "exited", &now
		s.note(journal.System, KindAgentTerminated, fmt.Sprintf("%s (pid %d) exited", a.Program, a.PID), a)
	}
}

// noteAgent journals an agent's classification.
func (s *Service) noteAgent(a Agent) {
	kind := KindAgentAdopted
	text := fmt.Sprintf("adopted %s (pid %d) in %s, started %s by %s", a.Program, a.PID, a.Cwd, a.Started.Format(time.RFC3339), treeText(a.Tree))
	switch a.State {
	case StateLaunched:
		kind, text = KindAgentLaunched, fmt.Sprintf("%s (pid %d) is run %s's agent", a.Program, a.PID, a.RunID)
	case StateBypassed:
		kind, text = KindAgentBypassed, fmt.Sprintf("%s (pid %d) in %s was started with %s set: bypassed, not ended", a.Program, a.PID, a.Cwd, BypassEnv)
	}
	s.note(journal.System, kind, text, a)
}

func treeText(tree []TreeNode) string {
	if len(tree) == 0 {
		return "an unknown parent"
	}
	out := ""
	for i, n := range tree {
		if i > 0 {
			out += " < "
		}
		out += n.Comm + "[" + strconv.Itoa(int(n.PID)) + "]"
		if i == 3 {
			break
		}
	}
	return out
}

// classify says what p is: launched when a live registered run's process
// is p or its ancestor (in the pid tree, whatever p's environment says),
// bypassed when started with the bypass variable, else adopted.
func (s *Service) classify(ctx context.Context, t procTable, p *Proc, runs map[int32]*RunEntry) (State, string) {
	if e := runs[p.PID]; e != nil {
		return StateLaunched, e.RunID
	}
	for _, a := range t.ancestors(p.PID) {
		if e := runs[a]; e != nil {
			return StateLaunched, e.RunID
		}
	}
	if bypassed(ctx, p.PID) {
		return StateBypassed, ""
	}
	return StateAdopted, ""
}

// sentinelAncestor says whether one of pid's ancestors runs Sentinel.
func (s *Service) sentinelAncestor(t procTable, pid int32) bool {
	for _, a := range t.ancestors(pid) {
		if s.isSentinel(int(a)) {
			return true
		}
	}
	return false
}

// mustEnd says whether the policy ends tr now: require_launcher is on, it
// is adopted (never launched, never bypassed), not allowed, not already
// being ended, and was seen by an earlier scan too (a run's registration
// gets a scan to land) and is past any pending time.
func (s *Service) mustEnd(tr *tracked, scan int, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.RequireLauncher && tr.State == StateAdopted && !tr.ending &&
		tr.firstScan < scan && !now.Before(tr.pendingUntil) && !allowed(s.opts.AllowedApps, tr.Agent)
}

// allowed says whether a is in allowed_apps: by program name, by its
// executable's or script's file name, or by absolute path.
func allowed(apps []string, a Agent) bool {
	paths := []string{a.Exe}
	if s := agents.Script(a.Exe, a.Argv); s != "" {
		paths = append(paths, s)
		if abs, err := filepath.EvalSymlinks(s); err == nil {
			paths = append(paths, abs)
		}
	}
	for _, app := range apps {
		if filepath.IsAbs(app) {
			for _, p := range paths {
				if p != "" && filepath.Clean(p) == filepath.Clean(app) {
					return true
				}
			}
			continue
		}
		if app == a.Program {
			return true
		}
	}
	return false
}

// Listing is what agents.list answers: every agent seen in the last scan
// and the registered runs.
func (s *Service) Listing() Listing {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := Listing{Agents: []Agent{}, Runs: []RunEntry{}, Policy: s.policy()}
	for _, tr := range s.agents {
		l.Agents = append(l.Agents, tr.Agent)
	}
	for _, e := range s.runs {
		l.Runs = append(l.Runs, *e)
	}
	sort.Slice(l.Agents, func(i, j int) bool { return l.Agents[i].PID < l.Agents[j].PID })
	sort.Slice(l.Runs, func(i, j int) bool { return l.Runs[i].RunID < l.Runs[j].RunID })
	return l
}

// describe is p's attribution: program, cwd, user, start time, pid tree.
func describe(ctx context.Context, t procTable, p *Proc) Agent {
	ctx = realProc(ctx)
	a := Agent{PID: p.PID, PPID: p.PPID, Program: p.Program, Exe: p.Exe, Argv: p.Argv, UID: p.UID,
		Started: p.StartTime(), StartMS: p.Start}
	if pr, err := process.NewProcessWithContext(ctx, p.PID); err == nil {
		a.Cwd, _ = pr.CwdWithContext(ctx)
	}
	if u, err := user.LookupId(strconv.Itoa(p.UID)); err == nil {
		a.User = u.Username
	}
	for _, anc := range t.ancestors(p.PID) {
		n := TreeNode{PID: anc}
		if q := t[anc]; q != nil {
			n.Comm = q.Comm
		}
		a.Tree = append(a.Tree, n)
	}
	return a
}
