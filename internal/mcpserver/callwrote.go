package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// Every path a writing call changed, made or removed in an rw path is
// told after it, flagged or not: a "read-only" command can write (git
// diff --output=Makefile, an allowlisted read, emptied the Makefile and
// was answered "[exit 0]"), and neither the client nor the person should
// have to diff the checkpoints to see it. The first maxWroteNamed paths of
// each rw path are named, with a count of the rest; paths another writing
// call running at the same time may have changed are named apart, with
// that call (callwindow.go).
//
// They are their own part of the answer: a second text block after the
// answer's own (which keeps its shape: a command's output and "[exit N]",
// a file tool's line with its backup at the end), not structured content
// — Claude Code, Codex and opencode show a model only a result's
// structuredContent when it has one, so the command's output would be
// lost (anthropics/claude-code#55677, #79944; anomalyco/opencode#32074).
// They go to the person too, on standard error and in the audit's system
// lane (KindWrote), since a hostile client need not show them. What
// Sentinel itself made in an rw path — the empty file or folder that
// holds a missing include or hooks directory a git config names
// read-only (gitincludes.go) — is not the call's, and is not named; nor
// is what changed where no tool reaches (a credential location, Sentinel's
// state: unseenByCalls).

// maxWroteNamed bounds the paths named per rw path, own and shared apart.
const maxWroteNamed = 20

// wroteEntry is one path a call's stretches changed: as it was before the
// first, as it is after the last, and with which other calls running.
type wroteEntry struct {
	before, after *checkpoint.Entry
	own           bool     // changed in a stretch the call ran alone
	with          []string // the other calls running in the stretches it changed in
}

// add gives the call the changes d in root of one stretch, run with the
// calls with (none: alone).
func (s *callShare) add(root string, d []checkpoint.Change, with []string) {
	if s.wrote == nil {
		s.wrote = map[string]map[string]*wroteEntry{}
	}
	m := s.wrote[root]
	if m == nil {
		m = map[string]*wroteEntry{}
		s.wrote[root] = m
	}
	for _, c := range d {
		e := m[c.Path]
		if e == nil {
			e = &wroteEntry{before: c.Before}
			m[c.Path] = e
		}
		e.after = c.After
		if len(with) == 0 {
			e.own = true
		}
		for _, w := range with {
			if !slices.Contains(e.with, w) {
				e.with = append(e.with, w)
			}
		}
	}
}

// wroteLines are what the call changed, a line for its own changes and
// one for the shared ones, per rw path.
func (p *callPoint) wroteLines() []string {
	if p == nil {
		return nil
	}
	roots := make([]string, 0, len(p.share.wrote))
	for r := range p.share.wrote {
		roots = append(roots, r)
	}
	slices.Sort(roots)
	var out []string
	for _, root := range roots {
		var own, shared []string
		var with []string
		for path, e := range p.share.wrote[root] {
			c, changed := checkpoint.Between(path, e.before, e.after)
			if !changed {
				continue // made and removed, or put back, by the call
			}
			c.Path = quoteOdd(c.Path)
			if e.own {
				own = append(own, c.Line())
				continue
			}
			shared = append(shared, c.Line())
			for _, w := range e.with {
				if !slices.Contains(with, w) {
					with = append(with, w)
				}
			}
		}
		if len(own) > 0 {
			out = append(out, fmt.Sprintf("this call changed %d path(s) in %s: %s", len(own), root, named(own)))
		}
		if len(shared) > 0 {
			out = append(out, fmt.Sprintf("%d path(s) in %s changed while another writing call ran too (%s), so either may have changed them: %s",
				len(shared), root, withNamed(with), named(shared)))
		}
	}
	for i, l := range out {
		out[i] = textsafe.Line(l) // names are the client's
	}
	return out
}

// quoteOdd quotes a name that could read as more than one entry of a
// list, as the list's "and N more" or as the end of the block: one
// holding a space, a comma, a bracket, a quote or anything not graphic.
// A command's file named "a, D Makefile" was told as "A a, D Makefile":
// the Makefile deleted, to the model and on the person's terminal, when
// it was not; "x and 9 more" would have hidden a count the same way.
func quoteOdd(p string) string {
	if strings.ContainsFunc(p, func(r rune) bool {
		return r == ' ' || r == ',' || strings.ContainsRune("[]\"", r) || !unicode.IsGraphic(r)
	}) {
		return strconv.Quote(p)
	}
	return p
}

// named is the first maxWroteNamed of lines, and a count of the rest:
// changes to paths that were there first (M, D, mode), then the paths
// made (A), each sorted. Sorted by name alone, a command that made 20
// files named 000… and changed src/app.go was told "A 000, …, A 019 and
// 1 more": the one change to the person's own file was the one not named.
func named(lines []string) string {
	made := func(l string) bool { return strings.HasPrefix(l, "A ") }
	slices.SortFunc(lines, func(a, b string) int {
		if made(a) != made(b) {
			if made(a) {
				return 1
			}
			return -1
		}
		return strings.Compare(a, b)
	})
	if len(lines) <= maxWroteNamed {
		return strings.Join(lines, ", ")
	}
	return strings.Join(lines[:maxWroteNamed], ", ") + fmt.Sprintf(" and %d more", len(lines)-maxWroteNamed)
}

// tellWrote tells the person what the call changed and is the answer's
// block that names it (nil when it changed nothing).
func (s *Server) tellWrote(what string, p *callPoint) mcp.Content {
	lines := p.wroteLines()
	if len(lines) == 0 {
		return nil
	}
	if s.teller != nil {
		s.teller.wrote(what, lines) // tell_person.go
	}
	return &mcp.TextContent{Text: "[sentinel: " + strings.Join(lines, "]\n[sentinel: ") + "]"}
}

// heldMade are the paths Sentinel made in the rw paths to hold them
// read-only (a missing include file, hooks directory or program a git
// config names, and the folders on the way), each with the identity it
// was made with: while the path is still that file, it is Sentinel's.
type heldMade struct {
	mu  sync.Mutex
	ids map[string]filestamp.ID
}

// make runs mk on paths and remembers what it made of them.
func (h *heldMade) make(paths []string, mk func([]string) error) error {
	if h == nil {
		return mk(paths)
	}
	var missing []string
	for _, p := range paths {
		for q := p; ; q = filepath.Dir(q) {
			if _, err := os.Lstat(q); !os.IsNotExist(err) || filepath.Dir(q) == q {
				break
			}
			missing = append(missing, q)
		}
	}
	err := mk(paths)
	if len(missing) == 0 {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ids == nil {
		h.ids = map[string]filestamp.ID{}
	}
	for _, q := range missing {
		if fi, err := os.Lstat(q); err == nil {
			if id, err := filestamp.IDOf(fi); err == nil {
				h.ids[q] = id
			}
		}
	}
	return err
}

// drop is d without what Sentinel made in root and left as it made it.
func (h *heldMade) drop(root string, d []checkpoint.Change) []checkpoint.Change {
	if h == nil {
		return d
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.ids) == 0 {
		return d
	}
	out := make([]checkpoint.Change, 0, len(d))
	for _, c := range d {
		if c.Before == nil && c.After != nil && h.isMade(filepath.Join(root, filepath.FromSlash(c.Path)), c.After) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// isMade: p is still what Sentinel made, empty (h.mu held).
func (h *heldMade) isMade(p string, e *checkpoint.Entry) bool {
	id, ok := h.ids[p]
	if !ok || (e.Kind != checkpoint.KindDir && (e.Kind != checkpoint.KindFile || e.Size != 0)) {
		return false
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	now, err := filestamp.IDOf(fi)
	return err == nil && now == id
}

// unseenByCalls are the locations no tool of cfg's server reaches, which
// an rw path may hold: the credential locations (the file tools refuse
// them, commands never see them), Sentinel's state (state) and the user
// service's socket dir. No call can change what is under them, so a
// change there is the person's own — and naming it would tell a client
// what it may not see: with the home rw for the file tools, a client that
// kept a writing call running was told "A .password-store/bank.example.com/
// alice.gpg" and "A .ssh/id_work" as the person made them.
func unseenByCalls(cfg *Config, state *stateGuard) []string {
	out := append(slices.Clone(cfg.guards.hidden), servicewire.DirPath())
	if state != nil {
		out = append(out, state.hidden()...)
	}
	return out
}

// dropUnseen is d without the changes under an unseen location.
func dropUnseen(root string, d []checkpoint.Change, unseen []string) []checkpoint.Change {
	if len(unseen) == 0 {
		return d
	}
	out := make([]checkpoint.Change, 0, len(d))
	for _, c := range d {
		p := filepath.Join(root, filepath.FromSlash(c.Path))
		if !slices.ContainsFunc(unseen, func(u string) bool { return withinFolded(p, u) }) {
			out = append(out, c)
		}
	}
	return out
}
