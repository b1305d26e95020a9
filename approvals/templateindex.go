package approvals

// templateIndex holds a set's templates the way a decision looks them up:
// argv templates by the program their words start with, path and host
// templates apart, each list in scope order (run, project, user). A
// decision then reads each part once and tries only the templates of its
// program, so 200 remembered templates cost about what none do.
type templateIndex struct {
	gen    uint64
	byProg map[string][]*Template
	paths  []*Template
	hosts  []*Template
}

func newTemplateIndex(ts []*Template, gen uint64) *templateIndex {
	idx := &templateIndex{gen: gen, byProg: make(map[string][]*Template)}
	for _, t := range ts {
		switch {
		case len(t.Match.Prefix) > 0:
			idx.byProg[t.Match.Prefix[0]] = append(idx.byProg[t.Match.Prefix[0]], t)
		case len(t.Match.Exact) > 0:
			idx.byProg[t.Match.Exact[0]] = append(idx.byProg[t.Match.Exact[0]], t)
		case t.Match.Path != "":
			idx.paths = append(idx.paths, t)
		case t.Match.Host != "":
			idx.hosts = append(idx.hosts, t)
		}
	}
	return idx
}

// index returns the set's index, rebuilt when the templates changed since
// it was built. The caller holds s.mu (read or write).
func (s *TemplateSet) index() *templateIndex {
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	if s.idx != nil && s.idx.gen == s.gen {
		return s.idx
	}
	var all []*Template
	for _, sc := range []Scope{ScopeRun, ScopeProject, ScopeUser} {
		all = append(all, s.byScope[sc]...)
	}
	s.idx = newTemplateIndex(all, s.gen)
	return s.idx
}
