package approvals

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/policy"
)

// ProjectTemplatesPath is the project-scope template file under root (the
// git top-level of the real project).
func ProjectTemplatesPath(root string) string {
	return filepath.Join(root, ".sentinel", "templates.toml")
}

// UserTemplatesPath is the user-scope template file in the user config
// directory ($XDG_CONFIG_HOME/sentinel/templates.toml).
func UserTemplatesPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the user config directory (set XDG_CONFIG_HOME or HOME): %w", err)
	}
	return filepath.Join(dir, "sentinel", "templates.toml"), nil
}

// TemplateSet holds the remembered templates of the three scopes: run (in
// memory), project and user (files). It is safe for concurrent use.
type TemplateSet struct {
	mu      sync.RWMutex
	files   map[Scope]string
	byScope map[Scope][]*Template
	pending map[string]int       // uses not yet written, by template id
	lastUse map[string]time.Time // their latest use
	now     func() time.Time

	// proxyHosts indexes the run's proxy-only templates by host:port
	// (hostgrant.go), so an allowed network request finds the one to
	// renew without scanning every run template.
	proxyHosts map[string]*Template

	gen   uint64         // bumped whenever byScope changes (templateindex.go)
	idxMu sync.Mutex     // guards idx
	idx   *templateIndex // byScope by program, built on first use after a change

	flushTimer *time.Timer
	persist    sync.WaitGroup
	watchMu    sync.Mutex
	stopWait   func()
	written    func(Scope, string) // OnWrite
}

// OnWrite has f called after the set itself writes a scope's file (a
// template added or removed, use counts), with the scope and the file:
// where a file is honoured only by the hash the person trusted (a place
// that is not a git repository), what Sentinel wrote is trusted again.
func (s *TemplateSet) OnWrite(f func(sc Scope, file string)) {
	s.mu.Lock()
	s.written = f
	s.mu.Unlock()
}

func (s *TemplateSet) wrote(sc Scope, file string) {
	s.mu.RLock()
	f := s.written
	s.mu.RUnlock()
	if f != nil {
		f(sc, file)
	}
}

// NewTemplateSet returns an empty set with no files: run scope only.
func NewTemplateSet() *TemplateSet {
	return &TemplateSet{files: map[Scope]string{}, byScope: map[Scope][]*Template{}, pending: map[string]int{},
		lastUse: map[string]time.Time{}, now: time.Now}
}

// LoadTemplates reads the project and user template files (either may be
// empty to leave that scope out; a missing file is an empty scope). A
// malformed file is an error naming file, line and field.
func LoadTemplates(projectFile, userFile string) (*TemplateSet, error) {
	s := NewTemplateSet()
	if projectFile != "" {
		s.files[ScopeProject] = projectFile
	}
	if userFile != "" {
		s.files[ScopeUser] = userFile
	}
	for _, sc := range []Scope{ScopeProject, ScopeUser} {
		if err := s.Reload(sc); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// File returns the file of a scope ("" for run scope or a scope left out).
func (s *TemplateSet) File(sc Scope) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.files[sc]
}

// Reload re-reads one scope's file. On error the old templates stay.
func (s *TemplateSet) Reload(sc Scope) error {
	s.mu.RLock()
	file := s.files[sc]
	s.mu.RUnlock()
	if file == "" {
		return nil
	}
	ts, err := readTemplateFile(file, sc)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range ts {
		t.Uses += s.pending[t.ID]
	}
	s.byScope[sc] = ts
	s.gen++
	return nil
}

// All returns copies of every template: run, then project, then user.
func (s *TemplateSet) All() []Template {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Template
	for _, sc := range []Scope{ScopeRun, ScopeProject, ScopeUser} {
		for _, t := range s.byScope[sc] {
			out = append(out, *t)
		}
	}
	return out
}

// Get returns the template with id.
func (s *TemplateSet) Get(id string) (Template, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if t := s.find(id); t != nil {
		return *t, true
	}
	return Template{}, false
}

func (s *TemplateSet) find(id string) *Template {
	for _, ts := range s.byScope {
		for _, t := range ts {
			if t.ID == id {
				return t
			}
		}
	}
	return nil
}

// Origin says where a new template came from.
type Origin struct {
	Run     string
	Request string // the request's text (command, path or host)
}

// Add remembers a grant: run scope in memory, project and user scope
// appended to their file.
func (s *TemplateSet) Add(spec GrantSpec, from Origin) (Template, error) {
	if err := spec.Match.Validate(); err != nil {
		return Template{}, fmt.Errorf("cannot remember this grant: %w", err)
	}
	now := s.now().UTC().Truncate(time.Second)
	t := newTemplate(spec.Scope, spec.Match, now, from)
	if spec.Expires > 0 {
		t.Expires = now.Add(spec.Expires)
	}
	switch spec.Scope {
	case ScopeRun:
		s.mu.Lock()
		s.addRunLocked(t)
		s.mu.Unlock()
		return *t, nil
	case ScopeProject, ScopeUser:
		file := s.File(spec.Scope)
		if file == "" {
			return Template{}, fmt.Errorf("no %s template file is configured for this run", spec.Scope)
		}
		t.File = file
		if err := appendTemplate(file, spec.Scope, t); err != nil {
			return Template{}, err
		}
		s.wrote(spec.Scope, file)
		if err := s.Reload(spec.Scope); err != nil {
			return Template{}, err
		}
		return *t, nil
	}
	return Template{}, fmt.Errorf("unknown scope %q (want run, project or user)", spec.Scope)
}

// newTemplate is a new template of scope for m, made now from from.
func newTemplate(sc Scope, m Match, now time.Time, from Origin) *Template {
	return &Template{ID: newTemplateID(), Scope: sc, Match: m, Created: now, CreatedRun: from.Run, CreatedFrom: from.Request}
}

// addRunLocked adds run-scope template t (s.mu held): the one way a run
// template comes in, for Add and for the proxy's host grants alike.
func (s *TemplateSet) addRunLocked(t *Template) {
	s.byScope[ScopeRun] = append(s.byScope[ScopeRun], t)
	if t.ProxyOnly {
		if s.proxyHosts == nil {
			s.proxyHosts = map[string]*Template{}
		}
		s.proxyHosts[t.Match.Host] = t
	}
	s.gen++
}

// Remove forgets the template with id (from its file for project/user scope).
func (s *TemplateSet) Remove(id string) error {
	s.mu.Lock()
	t := s.find(id)
	if t == nil {
		s.mu.Unlock()
		return fmt.Errorf("no template %q (see 'sentinel templates list')", id)
	}
	if t.Scope == ScopeRun {
		run := s.byScope[ScopeRun]
		for i, o := range run {
			if o.ID == id {
				s.byScope[ScopeRun] = append(run[:i:i], run[i+1:]...)
			}
		}
		if t.ProxyOnly && s.proxyHosts[t.Match.Host] == t {
			delete(s.proxyHosts, t.Match.Host)
		}
		s.gen++
		s.mu.Unlock()
		return nil
	}
	sc, file := t.Scope, s.files[t.Scope]
	s.mu.Unlock()
	if err := removeTemplate(file, sc, id); err != nil {
		return err
	}
	s.wrote(sc, file)
	return s.Reload(sc)
}

// Covering returns the ids of the templates that together cover req, and
// whether they (with the policy's allowed parts) cover all of it. A request
// the policy denies is never covered; a shell line is covered only when
// every simple command in it is allowed by policy or covered by a template.
func (s *TemplateSet) Covering(req Request, v policy.Verdict, ctx policy.Context) ([]string, bool) {
	if s == nil || v.Decision == policy.Deny {
		return nil, false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return coveringIn(s.index(), s.now(), req, v, ctx)
}

// coveringWith is Covering over the given templates (all live).
func coveringWith(live []*Template, req Request, v policy.Verdict, ctx policy.Context) ([]string, bool) {
	return coveringIn(newTemplateIndex(live, 0), time.Time{}, req, v, ctx)
}

// coveringIn is Covering over an index; templates expired at now (when
// not zero) cover nothing. A shell part is read once (coverablePart), and
// only the templates for its program are tried.
func coveringIn(idx *templateIndex, now time.Time, req Request, v policy.Verdict, ctx policy.Context) ([]string, bool) {
	if v.Decision == policy.Deny {
		return nil, false
	}
	live := func(t *Template) bool { return now.IsZero() || !t.Expired(now) }
	var ids []string
	add := func(id string) {
		for _, x := range ids {
			if x == id {
				return
			}
		}
		ids = append(ids, id)
	}
	switch req.Kind {
	case policy.KindShell:
		if len(v.Parts) == 0 {
			return nil, false
		}
		for _, p := range v.Parts {
			if p.Decision == policy.Deny {
				return nil, false
			}
			if p.Decision == policy.Allow {
				continue
			}
			found := false
			if !coverablePart(p) {
				return nil, false
			}
			for _, t := range idx.byProg[p.Argv[0]] {
				if live(t) && t.coversArgv(p.Argv) && !t.programChanged(p.Argv, cmp.Or(req.Cwd, ctx.Cwd), ctx.Workspace) {
					add(t.ID)
					found = true
					break
				}
			}
			if !found {
				return nil, false
			}
		}
		return ids, len(ids) > 0
	case policy.KindWrite, policy.KindEdit:
		abs := requestPath(req, ctx)
		for _, t := range idx.paths {
			if live(t) && t.CoversPath(abs, ctx.Workspace) {
				return []string{t.ID}, true
			}
		}
	case policy.KindNet:
		host, port := requestHost(req)
		for _, t := range idx.hosts {
			if t.ProxyOnly && req.Adapter != ProxyAdapter {
				continue
			}
			if live(t) && t.CoversHost(host, port) {
				return []string{t.ID}, true
			}
		}
	}
	return nil, false
}

// usageDelay batches usage writes: a busy run rewrites its template files
// at most this often, not on every matched command.
const usageDelay = 2 * time.Second

// MarkUsed counts one use of each template and records the time. File
// scopes are written in the background, batched (re-read, edited, renamed
// into place under a lock, never over a file the person left broken).
func (s *TemplateSet) MarkUsed(ids []string) {
	now := s.now().UTC()
	s.mu.Lock()
	defer s.mu.Unlock()
	schedule := false
	for _, id := range ids {
		t := s.find(id)
		if t == nil {
			continue
		}
		t.Uses++
		t.LastUsed = now
		if t.Scope == ScopeRun {
			continue
		}
		s.pending[id]++
		s.lastUse[id] = now
		schedule = true
	}
	if schedule && s.flushTimer == nil {
		s.persist.Add(1)
		s.flushTimer = time.AfterFunc(usageDelay, func() {
			defer s.persist.Done()
			s.writeUsage()
		})
	}
}

// writeUsage writes the pending use counts to their files. A count that
// cannot be written now (the file is broken or busy) waits for the next use
// or Flush; it is advisory.
func (s *TemplateSet) writeUsage() {
	type job struct {
		id, file string
		sc       Scope
		delta    int
		at       time.Time
	}
	s.mu.Lock()
	s.flushTimer = nil
	var jobs []job
	for id, n := range s.pending {
		if t := s.find(id); t != nil && s.files[t.Scope] != "" {
			jobs = append(jobs, job{id, s.files[t.Scope], t.Scope, n, s.lastUse[id]})
		}
		delete(s.pending, id)
		delete(s.lastUse, id)
	}
	s.mu.Unlock()
	for _, j := range jobs {
		err := addUsage(j.file, j.sc, j.id, j.delta, j.at)
		if err == nil {
			s.wrote(j.sc, j.file)
		}
		if err == nil || strings.Contains(err.Error(), "no template") {
			continue // written, or the person removed it meanwhile
		}
		s.mu.Lock()
		s.pending[j.id] += j.delta
		if j.at.After(s.lastUse[j.id]) {
			s.lastUse[j.id] = j.at
		}
		s.mu.Unlock()
	}
}

// Flush writes pending usage now and waits for background writes.
func (s *TemplateSet) Flush() {
	s.mu.Lock()
	t := s.flushTimer
	stopped := t != nil && t.Stop()
	if stopped {
		s.flushTimer = nil
	}
	s.mu.Unlock()
	if stopped {
		s.writeUsage()
		s.persist.Done()
	}
	s.persist.Wait()
}

func newTemplateID() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Sprintf("t-%08x", time.Now().UnixNano()&0xffffffff)
	}
	return "t-" + hex.EncodeToString(b[:])
}
